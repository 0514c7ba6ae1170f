#!/usr/bin/env bash
# iomark tpcc on SQLite: refusals, load population, consistency (iomark's
# checker and independent SQL through the sqlite3 CLI), a short measured run
# with its JSON arithmetic, corrupted databases caught, foreign files left
# alone, rollback-journal mode, and SIGINT. Small-scale test mode throughout.
source "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 CLI missing (apt install sqlite3)"; exit 77; }
JCHECK="$PY $SRCDIR/tests/integration/tpcc_json_check.py"
CONS=$SRCDIR/tests/integration/tpcc_consistency.sql
DB=$WORK/iomark-tpcc.db
q() { sqlite3 -batch -noheader "$1" "$2"; }

# --- refusals: exit 2, one line naming option and value, nothing created ---
expect_status 2 "vu=0" -- "$IOMARK" tpcc --db=sqlite:$WORK --vu=0
expect_err_has "--vu=0"
expect_status 2 "warehouses=abc" -- "$IOMARK" tpcc load --db=sqlite:$WORK --warehouses=abc
expect_err_has "--warehouses=abc"
expect_status 2 "mix with 2 weights" -- "$IOMARK" tpcc --db=sqlite:$WORK --mix=1:1
expect_err_has "--mix=1:1"
expect_status 2 "mix all zero" -- "$IOMARK" tpcc --db=sqlite:$WORK --mix=0:0:0:0:0
expect_status 2 "journal_mode" -- "$IOMARK" tpcc --db=sqlite:$WORK --journal_mode=fast
expect_err_has "--journal_mode=fast"
expect_status 2 "unknown db scheme" -- "$IOMARK" tpcc --db=mysql://x
expect_err_has "--db=mysql://x"
expect_status 2 "runtime=0" -- "$IOMARK" tpcc --db=sqlite:$WORK --runtime=0
expect_err_has "--runtime=0"
expect_status 2 "unknown option" -- "$IOMARK" tpcc --db=sqlite:$WORK --wharehouses=2
expect_err_has "--wharehouses"
expect_status 2 "unknown step" -- "$IOMARK" tpcc bogus
expect_status 2 "run without a database" -- "$IOMARK" tpcc run --db=sqlite:$WORK/none.db
[ ! -e $WORK/none.db ] && pass "run created no file" || fail "run created $WORK/none.db"
expect_status 2 "output folder missing" -- "$IOMARK" tpcc --db=sqlite:$WORK --output=$WORK/no/x.json
[ ! -e $DB ] && pass "refusals touched nothing" || fail "a refusal created $DB"

# --- load: population of clause 4.3.3.1 at the test scale ---
expect_status 0 "load 1 warehouse" -- "$IOMARK" tpcc load --db=sqlite:$WORK --scale_test --seed=1 \
  --output-format=json --output=$WORK/load.json --quiet
for spec in item:10000 warehouse:1 district:10 customer:10000 history:10000 orders:10000 \
            new_order:3000 stock:10000; do
  t=${spec%%:*} want=${spec#*:}
  got=$(q $DB "SELECT count(*) FROM $t")
  [ "$got" = "$want" ] && pass "$t has $want rows" || fail "$t has $got rows, wanted $want"
done
ol=$(q $DB "SELECT count(*) FROM order_line")
[ "$ol" -ge 50000 ] && [ "$ol" -le 150000 ] && pass "order_line $ol rows in 5..15 per order" || fail "order_line $ol"
names=$(q $DB "SELECT count(DISTINCT c_last) FROM customer WHERE c_d_id = 1 AND c_id <= 1000")
[ "$names" = 1000 ] && pass "1000 distinct last names per district" || fail "last names $names"
orig=$(q $DB "SELECT count(*) FROM item WHERE i_data LIKE '%ORIGINAL%'")
[ "$orig" -ge 850 ] && [ "$orig" -le 1150 ] && pass "ORIGINAL in $orig of 10000 items" || fail "ORIGINAL $orig"
rows=$(q $DB "SELECT (SELECT count(*) FROM item)+(SELECT count(*) FROM warehouse)+(SELECT count(*) FROM district)+(SELECT count(*) FROM customer)+(SELECT count(*) FROM history)+(SELECT count(*) FROM orders)+(SELECT count(*) FROM new_order)+(SELECT count(*) FROM order_line)+(SELECT count(*) FROM stock)")
$PY - $WORK/load.json $rows <<'PY' && pass "load JSON: rows, time, size" || fail "load JSON"
import json, sys
d = json.load(open(sys.argv[1])); l = d["load"]
print(l)
sys.exit(0 if d["type"] == "tpcc_load" and l["rows"] == int(sys.argv[2]) and l["time_s"] > 0
         and l["size_bytes"] > 1e6 and d["scale_test"] else 1)
PY
expect_status 0 "check after load" -- "$IOMARK" tpcc check --db=sqlite:$WORK
[ "$(q $DB ".read $CONS" | tr '\n' ' ')" = "0 0 0 0 " ] && pass "independent SQL: conditions 1-4 after load" || fail "independent SQL after load: $(q $DB ".read $CONS" | tr '\n' ' ')"

# --- run: 2 virtual users on the loaded database ---
expect_status 0 "run 2 VU" -- "$IOMARK" tpcc run --db=sqlite:$WORK --vu=2 --ramp_time=1 --runtime=6 \
  --seed=42 --output-format=json --output=$WORK/run.json --quiet
$JCHECK $WORK/run.json sqlite 2 1 && pass "run JSON fields and arithmetic" || fail "run JSON"
# the host object as in every iomark document: kernel as `uname -sr` prints it
$PY - $WORK/run.json "$(uname -n)" "$(uname -sr)" "$(getconf _NPROCESSORS_ONLN)" <<'PY' && pass "host: hostname, kernel (uname -sr), nr_cpus" || fail "host: $($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["host"])' $WORK/run.json)"
import json, sys
h = json.load(open(sys.argv[1]))["host"]
assert h == {"hostname": sys.argv[2], "kernel": sys.argv[3], "nr_cpus": int(sys.argv[4])}, h
PY
expect_status 0 "check after run" -- "$IOMARK" tpcc check --db=sqlite:$WORK
[ "$(q $DB ".read $CONS" | tr '\n' ' ')" = "0 0 0 0 " ] && pass "independent SQL: conditions 1-4 after run" || fail "independent SQL after run: $(q $DB ".read $CONS" | tr '\n' ' ')"
gaps=$(q $DB "SELECT count(*) FROM district d WHERE (SELECT count(*) FROM orders o WHERE o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id) <> d.d_next_o_id - 1")
[ "$gaps" = 0 ] && pass "orders 1..d_next_o_id-1 without gaps" || fail "$gaps districts with order gaps"
grown=$(q $DB "SELECT sum(d_next_o_id) - 10 * 1001 FROM district")
[ "$grown" -gt 0 ] && pass "run added $grown orders" || fail "no orders added"

# --- the checker catches broken databases (each on its own copy) ---
corrupt() { # NAME SQL CONDITION
  cp $DB $WORK/c.db
  rm -f $WORK/c.db-wal $WORK/c.db-shm
  q $WORK/c.db "$2"
  expect_status 1 "check finds $1" -- "$IOMARK" tpcc check --db=sqlite:$WORK/c.db
  grep -q "consistency $3:.*FAILED" $WORK/out && pass "condition $3 reported" || fail "condition $3 not reported: $(cat $WORK/out)"
}
corrupt "w_ytd off by 1" "UPDATE warehouse SET w_ytd = w_ytd + 1" 1
corrupt "a lost order" "DELETE FROM orders WHERE o_d_id = 3 AND o_id = (SELECT max(o_id) FROM orders WHERE o_d_id = 3)" 2
corrupt "a hole in new_order" "DELETE FROM new_order WHERE no_d_id = 4 AND no_o_id = (SELECT min(no_o_id) + 5 FROM new_order WHERE no_d_id = 4)" 3
corrupt "a lost order line" "DELETE FROM order_line WHERE ol_d_id = 5 AND ol_o_id = 7 AND ol_number = 1" 4

# --- text report ---
expect_status 0 "text run" -- "$IOMARK" tpcc run --db=sqlite:$WORK --ramp_time=0 --runtime=2 --quiet
grep -q "^NOPM [0-9]" $WORK/out && grep -q "SCALE TEST MODE" $WORK/out && grep -q "^NEWORD " $WORK/out \
  && pass "text report: NOPM, scale label, NEWORD row" || fail "text report: $(cat $WORK/out)"

# --- foreign SQLite files are refused and left alone ---
q $WORK/foreign.db "CREATE TABLE accounts (id INTEGER); INSERT INTO accounts VALUES (7)"
expect_status 2 "foreign database refused" -- "$IOMARK" tpcc load --db=sqlite:$WORK/foreign.db --scale_test
[ "$(q $WORK/foreign.db 'SELECT id FROM accounts')" = 7 ] && pass "foreign table untouched" || fail "foreign table changed"

# --- all-in-one in rollback-journal mode with 3 VUs: busy handling under lock contention ---
mkdir $WORK/j
expect_status 0 "journal_mode=delete, 3 VU" -- "$IOMARK" tpcc --db=sqlite:$WORK/j --scale_test \
  --journal_mode=delete --synchronous=normal --vu=3 --ramp_time=1 --runtime=4 --output-format=json \
  --output=$WORK/j.json --quiet
$JCHECK $WORK/j.json sqlite 3 1 && pass "journal_mode=delete JSON" || fail "journal_mode=delete JSON"
$PY -c "import json,sys; d=json.load(open('$WORK/j.json')); sys.exit(0 if d['db']['journal_mode']=='delete' and d['load']['rows']>0 else 1)" \
  && pass "journal mode recorded" || fail "journal mode not recorded"
expect_status 0 "check after journal_mode=delete run" -- "$IOMARK" tpcc check --db=sqlite:$WORK/j --journal_mode=delete

# --- keying and think times: a VU waits at least 2 s of keying time before each
# transaction, so 2 VUs over 1 s ramp-up + 3 s measured finish at most 2 each ---
expect_status 0 "keying_think run" -- "$IOMARK" tpcc run --db=sqlite:$WORK --vu=2 --ramp_time=1 \
  --runtime=3 --keying_think --output-format=json --output=$WORK/kt.json --quiet
$PY -c "import json,sys; d=json.load(open('$WORK/kt.json')); n=sum(t['calls'] for t in d['transactions'].values()); print('calls', n); sys.exit(0 if d['keying_think'] and n <= 4 else 1)" \
  && pass "keying/think times pace the VUs" || fail "keying/think calls"

# --- SIGINT in the measured interval: partial results, exit 130. The signal
# goes 1 s after the first status line that says "measuring"; the measured
# time is then more than 0 and at most the time from launch to the signal
# less the 1 s ramp-up (plus 0.5 s for the signal's delivery), however long
# start-up took on a loaded machine (a fixed sleep 4 and a 1.5 s floor failed
# at 1.43 s) ---
t_launch=$EPOCHREALTIME
"$IOMARK" tpcc run --db=sqlite:$WORK --vu=2 --ramp_time=1 --runtime=60 --output-format=json \
  --output=$WORK/int.json --status-interval=1 2>$WORK/int.err &
pid=$!
for _ in $(seq 1 300); do grep -q "measuring" $WORK/int.err && break; sleep 0.2; done
grep -q "measuring" $WORK/int.err || fail "no measuring status line: $(tail -2 $WORK/int.err)"
sleep 1
t_kill=$EPOCHREALTIME
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] && pass "SIGINT exit 130" || fail "SIGINT exit $rc"
$JCHECK $WORK/int.json sqlite 2 1 --interrupted && pass "interrupted JSON valid" || fail "interrupted JSON"
$PY -c "import json,sys; d=json.load(open('$WORK/int.json')); s=d['duration']['measured_s']; b=$t_kill-$t_launch-1+0.5; print(s, 'bound', b); sys.exit(0 if 0 < s <= b else 1)" \
  && pass "measured time within launch-to-signal less the ramp-up" || fail "measured time after SIGINT"
expect_status 0 "check after SIGINT" -- "$IOMARK" tpcc check --db=sqlite:$WORK
# the text report names the signal, as run's and sweep's do
"$IOMARK" tpcc run --db=sqlite:$WORK --ramp_time=0 --runtime=60 --quiet >$WORK/int.txt 2>&1 &
pid=$!
for i in $(seq 1 100); do [ -s "$WORK/int.txt" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.05; done
sleep 2
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] && grep -qE "^run: 1 warehouse\(s\), 1 virtual user\(s\), ramp-up 0 s, measured [0-9.]+ s \(interrupted by SIGINT\)$" $WORK/int.txt \
  && pass "text report: measured ... (interrupted by SIGINT)" || fail "exit $rc; $(grep '^run:' $WORK/int.txt)"
finish
