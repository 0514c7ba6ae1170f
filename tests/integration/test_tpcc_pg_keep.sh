#!/usr/bin/env bash
# test_tpcc_pg_keep.sh - `iomark tpcc` on PostgreSQL (pg-server.sh, Unix
# socket): by default it says iomark's schema is left and how to drop it;
# --keep=0 drops iomark's schema (checked with psql) and nothing else.
# Skips (77) when PostgreSQL is not installed.
source "$(dirname "$0")/lib.sh"
PGHELP=$SRCDIR/tests/integration/pg-server.sh
PGDIR=$(mktemp -d /tmp/iomark-pg.XXXXXX)
cleanup_more() { bash "$PGHELP" stop "$PGDIR" || true; rm -rf "$PGDIR"; }
rc=0; URI=$(bash "$PGHELP" start "$PGDIR") || rc=$?
if [ $rc = 77 ]; then echo "skip: PostgreSQL server binaries not installed"; exit 77; fi
[ $rc = 0 ] || { echo "FAIL: could not start PostgreSQL"; exit 1; }
PSQL=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)/psql
command -v "$PSQL" >/dev/null || PSQL=psql
sql() { "$PSQL" -X -q -A -t -v ON_ERROR_STOP=1 "$URI" -c "$1"; }
sql "CREATE TABLE public.keepme (id int); INSERT INTO public.keepme VALUES (42)"

expect_status 0 "tpcc on PostgreSQL" -- "$IOMARK" tpcc --db="$URI" --scale_test --ramp_time=0 --runtime=1s
grep -q "the database is left in schema iomark_tpcc (.* MiB at the end); remove it with DROP SCHEMA iomark_tpcc CASCADE, or run with --keep=0" "$WORK/err" \
  && pass "says the schema is left" || fail "end line: $(tail -1 "$WORK/err")"
[ "$(sql "SELECT count(*) FROM pg_namespace WHERE nspname = 'iomark_tpcc'")" = 1 ] && pass "schema kept" || fail "schema gone"

expect_status 0 "tpcc --keep=0 on PostgreSQL" -- "$IOMARK" tpcc --db="$URI" --scale_test --ramp_time=0 --runtime=1s --keep=0
grep -q "dropped schema iomark_tpcc (" "$WORK/err" && pass "says it dropped the schema" || fail "end line: $(tail -1 "$WORK/err")"
[ "$(sql "SELECT count(*) FROM pg_namespace WHERE nspname = 'iomark_tpcc'")" = 0 ] && pass "schema dropped (psql)" || fail "schema still there"
[ "$(sql "SELECT id FROM public.keepme")" = 42 ] && pass "other objects survive" || fail "public.keepme changed"
finish
