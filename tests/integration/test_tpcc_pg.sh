#!/usr/bin/env bash
# iomark tpcc on a real PostgreSQL server (started by pg-server.sh in a temp
# folder, Unix socket only): COPY load of 2 warehouses, iomark's checker and
# independent SQL through psql, a short 3-VU run with its JSON arithmetic and
# pg_stat_database TPM (named apart from the driver's in the text report), iomark's own schema only (other objects survive, a
# foreign schema is refused). Skips (77) when PostgreSQL is not installed.
source "$(dirname "$0")/lib.sh"
PGHELP=$SRCDIR/tests/integration/pg-server.sh
JCHECK="$PY $SRCDIR/tests/integration/tpcc_json_check.py"
CONS=$SRCDIR/tests/integration/tpcc_consistency.sql
PGDIR=$(mktemp -d /tmp/iomark-pg.XXXXXX)
cleanup_more() { bash "$PGHELP" stop "$PGDIR" || true; rm -rf "$PGDIR"; }
rc=0; URI=$(bash "$PGHELP" start "$PGDIR") || rc=$?
if [ $rc = 77 ]; then echo "skip: PostgreSQL server binaries not installed"; exit 77; fi
[ $rc = 0 ] || { echo "FAIL: could not start PostgreSQL"; exit 1; }
PSQL=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)/psql
command -v "$PSQL" >/dev/null || PSQL=psql
sql() { "$PSQL" -X -q -A -t -v ON_ERROR_STOP=1 "$URI" -c "$1"; }

# objects outside iomark's schema must survive
sql "CREATE TABLE public.keepme (id int); INSERT INTO public.keepme VALUES (42)"
sql "CREATE SCHEMA other; CREATE TABLE other.accounts (id int)"

expect_status 0 "load 2 warehouses (COPY)" -- "$IOMARK" tpcc load --db="$URI" --scale_test \
  --warehouses=2 --seed=3 --output-format=json --output=$WORK/load.json --quiet
for spec in item:10000 warehouse:2 district:20 customer:20000 history:20000 orders:20000 \
            new_order:6000 stock:20000; do
  t=${spec%%:*} want=${spec#*:}
  got=$(sql "SELECT count(*) FROM iomark_tpcc.$t")
  [ "$got" = "$want" ] && pass "$t has $want rows" || fail "$t has $got rows, wanted $want"
done
idx=$(sql "SELECT count(*) FROM pg_indexes WHERE schemaname = 'iomark_tpcc' AND indexname IN ('customer_i2', 'orders_i2')")
[ "$idx" = 2 ] && pass "two secondary indexes" || fail "secondary indexes: $idx"
pks=$(sql "SELECT count(*) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'iomark_tpcc' AND c.contype = 'p' AND c.conrelid <> 'iomark_tpcc.iomark_meta'::regclass")
[ "$pks" = 8 ] && pass "8 primary keys (history has none)" || fail "primary keys: $pks"
expect_status 0 "check after load" -- "$IOMARK" tpcc check --db="$URI"
cons() { "$PSQL" -X -q -A -t -v ON_ERROR_STOP=1 "$URI" -c "SET search_path TO iomark_tpcc" -f "$CONS" | tr '\n' ' '; }
[ "$(cons)" = "0 0 0 0 " ] && pass "independent SQL: conditions 1-4 after load" || fail "independent SQL after load: $(cons)"

expect_status 0 "run 3 VU" -- "$IOMARK" tpcc run --db="$URI" --vu=3 --ramp_time=1 --runtime=6 --seed=9 \
  --output-format=json --output=$WORK/run.json --quiet
$JCHECK $WORK/run.json postgresql 3 2 && pass "run JSON fields and arithmetic, tpm_db" || fail "run JSON"
expect_status 0 "check after run" -- "$IOMARK" tpcc check --db="$URI"
# the text report names each TPM by its source, once: the driver's calls and
# PostgreSQL's counter; HammerDB's summary line takes the latter, as HammerDB
expect_status 0 "text run 1 VU" -- "$IOMARK" tpcc run --db="$URI" --ramp_time=0 --runtime=2 --seed=9 --quiet
line=$(grep -E "^NOPM [0-9]+   TPM [0-9]+ \(calls counted by iomark's driver\)   PostgreSQL TPM [0-9]+ \(pg_stat_database\)$" $WORK/out)
nopm=$(echo "$line" | awk '{print $2}'); db=$(echo "$line" | sed -E 's/.*PostgreSQL TPM ([0-9]+) .*/\1/')
[ -n "$line" ] && [ "$(grep -c "^System achieved" $WORK/out)" = 1 ] && grep -qx "System achieved $nopm NOPM from $db PostgreSQL TPM" $WORK/out \
  && pass "PostgreSQL: driver TPM and PostgreSQL TPM $db, HammerDB line from the latter" || fail "TPM lines: $(grep TPM $WORK/out)"
[ "$(cons)" = "0 0 0 0 " ] && pass "independent SQL: conditions 1-4 after run" || fail "independent SQL after run: $(cons)"
remote=$(sql "SELECT count(*) FROM iomark_tpcc.order_line l JOIN iomark_tpcc.orders o ON o.o_w_id = l.ol_w_id AND o.o_d_id = l.ol_d_id AND o.o_id = l.ol_o_id WHERE l.ol_supply_w_id <> l.ol_w_id AND o.o_all_local = 1")
[ "$remote" = 0 ] && pass "o_all_local agrees with remote supply lines" || fail "$remote remote lines in all-local orders"

# a corrupted copy of the state is caught (then repaired)
sql "UPDATE iomark_tpcc.warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 2"
expect_status 1 "check finds w_ytd off by 1" -- "$IOMARK" tpcc check --db="$URI"
grep -q "consistency 1:.*FAILED" $WORK/out && pass "condition 1 reported" || fail "condition 1 not reported"
sql "UPDATE iomark_tpcc.warehouse SET w_ytd = w_ytd - 1 WHERE w_id = 2"

[ "$(sql 'SELECT id FROM public.keepme')" = 42 ] && pass "public.keepme untouched" || fail "public.keepme changed"
expect_status 2 "schema with foreign tables refused" -- "$IOMARK" tpcc load --db="$URI" --pg_schema=other --scale_test
[ "$(sql "SELECT count(*) FROM pg_tables WHERE schemaname = 'other'")" = 1 ] && pass "schema other untouched" || fail "schema other changed"
expect_status 2 "bad schema name" -- "$IOMARK" tpcc load --db="$URI" --pg_schema='x;drop'
expect_err_has "--pg_schema=x;drop"
expect_status 1 "unreachable server" -- "$IOMARK" tpcc run --db="postgresql:///postgres?host=$WORK&port=1" \
  --output-format=json --output=$WORK/err.json
$PY -c "import json,sys; d=json.load(open('$WORK/err.json')); print(d['error']); sys.exit(0 if d['status']=='error' and d['type']=='tpcc' and 'connect' in d['error'] else 1)" \
  && pass "error document for a failed connection" || fail "no error document"
finish
