#!/usr/bin/env bash
# Issue 12 item 14: `run --repeat N` interrupted. The interrupted run stays in
# runs[] marked "interrupted" but is not in the statistics (as sweep keeps a
# partial point out of its curve); compare pools only the complete runs.
# Expected values are read from the document's own runs[] by this test.
source "$(dirname "$0")/lib.sh"
T=$WORK/t.dat
# repeat_until OUT: start a --repeat=3 of 2 s runs (JSON to OUT, or text to
# stdout when OUT is "text"), wait until its progress shows run 2, send
# SIGINT. On a busy machine the line can come late enough for the signal to
# land in run 3, so the checks take the runs that completed from the document.
repeat_until() {
  local want="^run 2/3 " out=()
  [ "$1" = text ] || out=(--output-format=json --output=$1)
  : >$WORK/prog
  "$IOMARK" run --repeat=3 --rw=randread --bs=4k --size=8M --runtime=2 --ioengine=psync \
    --status-interval=1 "${out[@]}" $T >$WORK/t.txt 2>$WORK/prog &
  local pid=$! i
  for i in $(seq 1 1200); do
    grep -qE "$want" $WORK/prog && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
  done
  grep -qE "$want" $WORK/prog || fail "progress never showed run 2 measuring: $(cat $WORK/prog)"
  kill -INT $pid
  rc=0; wait $pid || rc=$?
}
repeat_until $WORK/r.json
[ "$rc" = 130 ] && pass "interrupted repeat exits 130" || fail "exit $rc, wanted 130"
$PY - $WORK/r.json <<'PY' && pass "interrupted run kept, marked, not pooled" || fail "repeat document"
import json, sys
d = json.load(open(sys.argv[1]))
runs = d["runs"]
st = [r["status"] for r in runs]
k = len(runs) - 1   # runs that completed before the interrupted one
assert d["status"] == "interrupted", d["status"]
assert k in (1, 2) and st == ["ok"] * k + ["interrupted"], st
assert d["completed"] == k, d["completed"]
s = d["summary"]["total"]["iops"]
assert s["n"] == k, s   # the interrupted run, even with 0 I/Os, would change n and the mean
want = sum(r["total"]["total"]["iops"] for r in runs[:k]) / k
assert abs(s["mean"] - want) <= 1e-9 * want, (s["mean"], want)
PY
"$IOMARK" compare --output-format=json $WORK/r.json $WORK/r.json >$WORK/c.json 2>/dev/null || fail "compare failed"
$PY - $WORK/r.json $WORK/c.json <<'PY' && pass "compare pools only the complete runs" || fail "compare pooled the interrupted run"
import json, sys
d = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
ok = [r["total"]["total"]["iops"] for r in d["runs"] if r["status"] == "ok"]
want = sum(ok) / len(ok)
m = [m for m in c["workloads"][0]["metrics"] if m["key"] == "iops"][0]
assert m["values"][0]["n"] == len(ok) and abs(m["values"][0]["mean"] - want) <= 1e-6 * want, m["values"][0]
PY
# text: the interrupted run is listed and marked
repeat_until text
grep -q "(interrupted: not in the statistics)" $WORK/t.txt && grep -qE "statistics over the (1 run|2 runs) that completed" $WORK/t.txt \
  && pass "text marks the interrupted run" || fail "text: $(cat $WORK/t.txt)"
finish
