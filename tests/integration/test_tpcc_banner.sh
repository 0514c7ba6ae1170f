#!/usr/bin/env bash
# test_tpcc_banner.sh - `iomark tpcc` tells the user what will take how long
# and what it leaves behind: the banner line names the ramp-up (2 min by
# default, HammerDB's) and the total (2 min 30 s for --runtime=30s, summed
# here); at the end it names the database path and its size in MiB (checked
# against stat(1) of the file), with --quiet too; --keep=0 removes it; --keep=0 with a step is
# refused (exit 2); a load's status lines (and its terminal redraws) never
# repeat the line before them, and the last names the index build.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
db="$WORK/iomark-tpcc.db"

# the default ramp-up, in the banner: interrupt after the banner (SIGINT)
"$IOMARK" tpcc --scale_test --runtime=30s --db=sqlite:"$WORK" >"$WORK/out" 2>"$WORK/err" &
pid=$!
for _ in $(seq 1 50); do grep -q "ramp-up" "$WORK/err" && break; sleep 0.1; done
kill -INT $pid 2>/dev/null || true; wait $pid || true
line=$(head -1 "$WORK/err")
want="iomark tpcc: sqlite:$db, 1 virtual user(s): load, then ramp-up 2 min (--ramp_time, not measured), then 30 s measured (--runtime): 2 min 30 s after the load"
[ "$line" = "$want" ] && pass "banner: ramp-up 2 min + 30 s = 2 min 30 s" || fail "banner: '$line', want '$want'"
rm -f "$db" "$db-wal" "$db-shm"

# a short run: the end says where the database is and its size
expect_status 0 "tpcc short run" -- "$IOMARK" tpcc --scale_test --ramp_time=1s --runtime=1s --db=sqlite:"$WORK"
grep -q "ramp-up 1 s (--ramp_time, not measured), then 1 s measured (--runtime): 2 s after the load" "$WORK/err" && pass "banner with --ramp_time=1s" || fail "banner: $(head -1 "$WORK/err")"
[ -f "$db" ] && pass "database kept by default" || fail "no $db"
bytes=0; for f in "$db" "$db-wal" "$db-shm"; do [ -f "$f" ] && bytes=$((bytes + $(stat -c %s "$f"))); done
mib=$(awk -v b=$bytes 'BEGIN { printf "%.1f", b / 1048576 }')
grep -qF "the database is left at $db ($mib MiB at the end, its WAL checkpointed into it at close); remove it with rm $db" "$WORK/err" && pass "end names path and size ($mib MiB from stat)" || fail "end line: $(tail -1 "$WORK/err"), want $mib MiB"
grep -qF -- "--keep=0" "$WORK/err" && pass "end mentions --keep=0" || fail "no --keep=0 hint"
# two sizes, each labelled: the load's (in the report) and the end's (above)
grep -qE "^load: .*, database after load [0-9.]+ [KMG]iB with its WAL$" "$WORK/out" && ! grep -qE ", size [0-9.]+ [KMG]iB" "$WORK/out" \
  && pass "load size labelled 'database after load'" || fail "load line: $(grep '^load:' "$WORK/out")"

# --keep=0 removes it (a fresh load over iomark's own database)
expect_status 0 "tpcc --keep=0" -- "$IOMARK" tpcc --scale_test --ramp_time=0 --runtime=1s --keep=0 --db=sqlite:"$WORK"
[ ! -e "$db" ] && [ ! -e "$db-wal" ] && pass "--keep=0 removed the database" || fail "left: $(ls "$WORK")"
grep -qF "removed $db (" "$WORK/err" && pass "says what it removed" || fail "end line: $(tail -1 "$WORK/err")"

# status lines (stderr not a terminal): the run's last one is a done line with
# the result's figures, those of the report's "NOPM n   TPM t (calls counted by
# iomark's driver; ...)" line
expect_status 0 "tpcc --status-interval=1" -- "$IOMARK" tpcc --scale_test --ramp_time=1s --runtime=2s --keep=0 \
  --status-interval=1 --db=sqlite:"$WORK"
done_line=$(grep "^tpcc 1/1 1 VU: done, " "$WORK/err" | tail -1)
want=$(sed -nE "s/^NOPM ([0-9]+) +TPM ([0-9]+) \\(calls counted by iomark's driver; .*\\)$/TPM \\2, NOPM \\1/p" "$WORK/out")
[ -n "$want" ] && [ "$done_line" = "tpcc 1/1 1 VU: done, $want [eta 00:00]" ] &&
  pass "final status line: $done_line (report: $want)" ||
  fail "final status line '$done_line', report '$want': $(grep '^tpcc 1/1' "$WORK/err" | tail -2)"

expect_status 2 "tpcc load --keep=0 refused" -- "$IOMARK" tpcc load --keep=0 --db=sqlite:"$WORK"
expect_err_has "--keep=0: allowed only without a step"
# so a load's end line names its step and does not suggest --keep=0
expect_status 0 "tpcc load" -- "$IOMARK" tpcc load --scale_test --db=sqlite:"$WORK"
bytes=0; for f in "$db" "$db-wal" "$db-shm"; do [ -f "$f" ] && bytes=$((bytes + $(stat -c %s "$f"))); done
mib=$(awk -v b=$bytes 'BEGIN { printf "%.1f", b / 1048576 }')
want="iomark tpcc load: the database is left at $db ($mib MiB at the end, its WAL checkpointed into it at close); remove it with rm $db when 'iomark tpcc run' and 'check' no longer need it"
[ "$(grep -cxF "$want" "$WORK/err")" = 1 ] && pass "load's end line: step named, no --keep=0 ($mib MiB)" \
  || fail "load's end line: $(tail -1 "$WORK/err"), want: $want"
# a run on it ends by saying where the database stays and its size (stat)
expect_status 0 "tpcc run" -- "$IOMARK" tpcc run --ramp_time=0 --runtime=1s --db=sqlite:"$WORK"
bytes=0; for f in "$db" "$db-wal" "$db-shm"; do [ -f "$f" ] && bytes=$((bytes + $(stat -c %s "$f"))); done
mib=$(awk -v b=$bytes 'BEGIN { printf "%.1f", b / 1048576 }')
want="iomark tpcc run: the database is left at $db ($mib MiB at the end, its WAL checkpointed into it at close); remove it with rm $db when no more runs or checks need it"
[ "$(tail -1 "$WORK/err")" = "$want" ] && pass "run's end line: $mib MiB" || fail "run's end line: $(tail -1 "$WORK/err"), want: $want"
grep -qE "^database size: [0-9]+\.[0-9] MiB with its WAL \(close checkpoints the WAL into the file\)$" "$WORK/out" \
  && pass "report: database size in MiB, WAL named" || fail "size line: $(grep '^database size' "$WORK/out")"
# --quiet drops the banner and progress, not the note of the database left
# behind (as tpcc --quiet and run --quiet keep theirs): stderr is that one line
expect_status 0 "tpcc run --quiet" -- "$IOMARK" tpcc run --quiet --ramp_time=0 --runtime=1s --db=sqlite:"$WORK"
bytes=0; for f in "$db" "$db-wal" "$db-shm"; do [ -f "$f" ] && bytes=$((bytes + $(stat -c %s "$f"))); done
mib=$(awk -v b=$bytes 'BEGIN { printf "%.1f", b / 1048576 }')
want="iomark tpcc run: the database is left at $db ($mib MiB at the end, its WAL checkpointed into it at close); remove it with rm $db when no more runs or checks need it"
[ "$(cat "$WORK/err")" = "$want" ] && pass "run --quiet: stderr is the end line alone ($mib MiB)" || fail "run --quiet stderr: $(cat "$WORK/err"), want: $want"
rm -f "$db" "$db-wal" "$db-shm"

# a load's status lines each say something new: a line every 0.1 s, the load
# reports every 50,000 rows, so a line repeated its predecessor word for word
# until the next 50,000 (seen: "items: 0%" 10 times)
expect_status 0 "tpcc load --status-interval=0.1" -- "$IOMARK" tpcc load --scale_test --status-interval=0.1 --db=sqlite:"$WORK"
grep '^tpcc: loading' "$WORK/err" >"$WORK/lines" || true
n=$(wc -l <"$WORK/lines"); dups=$(sort "$WORK/lines" | uniq -d | head -1)
[ "$n" -ge 2 ] && [ -z "$dups" ] && pass "load status lines: $n, none repeated" || fail "load status lines ($n), repeated: $dups"
awk '{ if (match($0, /: [0-9]+% /)) { p = substr($0, RSTART + 2, RLENGTH - 4) + 0; if (p < last) bad = 1; last = p } } END { exit bad }' "$WORK/lines" \
  && pass "load percentages never go back" || fail "load percentages: $(cat "$WORK/lines")"
# on a terminal: no redraw repeats the line on screen; every report of the
# load is drawn at once, the last naming the index build with the rows of the
# report's load line
if command -v script >/dev/null; then
  rm -f "$db" "$db-wal" "$db-shm"
  script -qec "$IOMARK tpcc load --scale_test --db=sqlite:$WORK >$WORK/ttyout" /dev/null >"$WORK/tty" 2>&1 || true
  tr '\r' '\n' <"$WORK/tty" | sed 's/\x1b\[K//g' | grep '^tpcc: loading' >"$WORK/lines" || true
  rows=$(sed -nE 's/^load: 1 warehouse\(s\), ([0-9]+) rows in .*/\1/p' "$WORK/ttyout")
  n=$(wc -l <"$WORK/lines"); dups=$(uniq -d "$WORK/lines" | head -1)
  [ "$n" -ge 2 ] && [ -z "$dups" ] && pass "terminal: $n load lines drawn, none redrawn unchanged" || fail "terminal load lines ($n), redrawn: $dups"
  [ -n "$rows" ] && [ "$(tail -1 "$WORK/lines")" = "tpcc: loading, warehouse 1/1: 100% ($rows rows), building indexes [eta --:--]" ] \
    && pass "terminal: last load line 100% ($rows rows, the report's), building indexes" || fail "last load line: $(tail -1 "$WORK/lines"), report rows '$rows'"
else
  echo "skip: script(1) not installed: terminal load lines"
fi
rm -f "$db" "$db-wal" "$db-shm"

# an interrupted load: the end line says the database is incomplete and that
# run refuses it (checked: run exits 2 on it), not "when run no longer needs it"
"$IOMARK" tpcc load --warehouses=2 --db=sqlite:"$WORK" >"$WORK/out" 2>"$WORK/load.err" &
pid=$!
for _ in $(seq 1 300); do [ -s "$db" ] && break; sleep 0.1; done
sleep 0.5
kill -INT $pid 2>/dev/null || true
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] && grep -qF "iomark tpcc load: the database is left at $db (" "$WORK/load.err" &&
  grep -qF "; its load is incomplete, so 'iomark tpcc run' and 'check' refuse it, and 'iomark tpcc load' on it starts the load over" "$WORK/load.err" &&
  ! grep -q "no longer need it" "$WORK/load.err" &&
  pass "interrupted load (exit $rc): end line says the load is incomplete" || fail "interrupted load: exit $rc, $(cat "$WORK/load.err")"
expect_status 2 "tpcc run on the incomplete load" -- "$IOMARK" tpcc run --ramp_time=0 --runtime=1s --db=sqlite:"$WORK"
expect_err_has "the iomark TPC-C load is incomplete"
rm -f "$db" "$db-wal" "$db-shm"

# a file that is not iomark's database is neither loaded over nor removed
echo "not a database" >"$WORK/other.db"
"$IOMARK" tpcc --scale_test --ramp_time=0 --runtime=1s --keep=0 --db=sqlite:"$WORK/other.db" >/dev/null 2>&1 || true
[ "$(cat "$WORK/other.db")" = "not a database" ] && pass "someone else's file untouched with --keep=0" || fail "other.db changed or removed"
finish
