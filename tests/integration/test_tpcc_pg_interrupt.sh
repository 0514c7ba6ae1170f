#!/usr/bin/env bash
# Issue 12 item 18: Ctrl-C during the PostgreSQL load's index/VACUUM phase
# (after the rows are in, while primary keys, secondary indexes or VACUUM
# ANALYZE run) stops the load after the statement in progress: exit 130, one
# line saying the database is incomplete, and the database is not marked
# complete (no iomark_meta rows), so `tpcc run` refuses it. The phase is seen
# from PostgreSQL's own pg_stat_activity. A real server from pg-server.sh;
# skips (77) without PostgreSQL.
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

"$IOMARK" tpcc load --db="$URI" --scale_test --warehouses=2 --seed=3 --quiet >$WORK/load.out 2>$WORK/load.err &
pid=$!
seen=""
for _ in $(seq 1 1200); do   # up to 120 s
  seen=$(sql "SELECT query FROM pg_stat_activity WHERE state = 'active' AND (query LIKE 'ALTER TABLE%' OR query LIKE 'CREATE INDEX%' OR query LIKE 'VACUUM%') LIMIT 1" 2>/dev/null || true)
  [ -n "$seen" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
if [ -n "$seen" ]; then
  kill -INT $pid
  pass "SIGINT sent during: $seen"
else
  fail "never saw the index/VACUUM phase"
fi
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] && pass "load interrupted in the index phase exits 130" || fail "exit $rc, wanted 130; $(cat $WORK/load.err)"
grep -q "interrupted by SIGINT while loading; the database is incomplete" $WORK/load.err \
  && pass "stderr names the signal and says the database is incomplete" || fail "stderr: $(cat $WORK/load.err)"
meta=$(sql "SELECT count(*) FROM iomark_tpcc.iomark_meta" 2>/dev/null || echo none)
[ "$meta" = 0 ] || [ "$meta" = none ] && pass "not marked complete (iomark_meta rows: $meta)" || fail "iomark_meta has $meta rows"
expect_status 2 "run on the incomplete database refused" -- "$IOMARK" tpcc run --db="$URI" --runtime=1 --ramp_time=0
grep -qxF "iomark tpcc run: $URI: the iomark TPC-C load is incomplete (run 'iomark tpcc load' again)" $WORK/err \
  && pass "run says the database it names is incomplete" || fail "run: $(cat $WORK/err)"
# and announces no run plan first (the banner comes once the load is known complete)
! grep -q "virtual user" $WORK/err && pass "no run banner before the refusal" || fail "banner printed: $(cat $WORK/err)"
finish
