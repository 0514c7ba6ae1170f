#!/usr/bin/env bash
# Issue 12 item 14: `run --repeat N` interrupted. The interrupted run stays in
# runs[] marked "interrupted" but is not in the statistics (as sweep keeps a
# partial point out of its curve); compare pools only the complete runs.
# Expected values are read from the document's own runs[] by this test.
source "$(dirname "$0")/lib.sh"
T=$WORK/t.dat
"$IOMARK" run --repeat=3 --rw=randread --bs=4k --size=8M --runtime=2 --ioengine=psync --quiet \
  --output-format=json --output=$WORK/r.json $T &
pid=$!
sleep 3.3   # run 1 takes 2 s (+ set-up): the signal lands in run 2
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] && pass "interrupted repeat exits 130" || fail "exit $rc, wanted 130"
$PY - $WORK/r.json <<'PY' && pass "interrupted run kept, marked, not pooled" || fail "repeat document"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
assert d["status"] == "interrupted", d["status"]
assert [r["status"] for r in runs] == ["ok", "interrupted"], [r["status"] for r in runs]
assert d["completed"] == 1, d["completed"]
s = d["summary"]["total"]["iops"]
assert s["n"] == 1, s
want = runs[0]["total"]["total"]["iops"]
assert abs(s["mean"] - want) <= 1e-9 * want, (s["mean"], want)
assert runs[1]["total"]["total"]["iops"] != want   # the excluded run differs
PY
"$IOMARK" compare --output-format=json $WORK/r.json $WORK/r.json >$WORK/c.json 2>/dev/null || fail "compare failed"
$PY - $WORK/r.json $WORK/c.json <<'PY' && pass "compare pools only the complete run" || fail "compare pooled the interrupted run"
import json, sys
d = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
want = d["runs"][0]["total"]["total"]["iops"]
m = [m for m in c["workloads"][0]["metrics"] if m["key"] == "iops"][0]
assert m["values"][0]["n"] == 1 and abs(m["values"][0]["mean"] - want) <= 1e-6 * want, m["values"][0]
PY
# text: the interrupted run is listed and marked
"$IOMARK" run --repeat=3 --rw=randread --bs=4k --size=8M --runtime=2 --ioengine=psync --quiet $T >$WORK/t.txt &
pid=$!
sleep 3.3
kill -INT $pid
wait $pid || true
grep -q "(interrupted: not in the statistics)" $WORK/t.txt && grep -q "statistics over the 1 run that completed" $WORK/t.txt \
  && pass "text marks the interrupted run" || fail "text: $(cat $WORK/t.txt)"
finish
