#!/usr/bin/env bash
# iomark run --repeat N: N runs kept in the JSON, summary figures that match
# the runs (recomputed here), refusal of a bad N, and compare reading it.
source "$(dirname "$0")/lib.sh"
cd $WORK
expect_status 2 "--repeat=0 refused" -- "$IOMARK" run --repeat=0 --size=1M $WORK/t.dat
expect_err_has "--repeat=0: allowed: a whole number of runs from 1 to 1000"
[ ! -e $WORK/t.dat ] && pass "nothing created on refusal" || fail "file created on refusal"
expect_status 2 "--repeat=x refused" -- "$IOMARK" run --repeat x --size=1M $WORK/t.dat

expect_status 0 "run --repeat=3" -- "$IOMARK" run --repeat=3 --rw=randrw --bs=4k --size=8M --runtime=1 --ioengine=psync --quiet --output-format=json --output=$WORK/r.json $WORK/t.dat
$PY - $WORK/r.json <<'PY' && pass "repeat JSON: runs and summary agree" || fail "repeat JSON"
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "iomark-result" and d["type"] == "repeat" and d["status"] == "ok"
assert d["repeat"] == 3 and d["completed"] == 3 and len(d["runs"]) == 3
for dr in ("read", "write", "total"):
    for k in ("iops", "mb_per_s", "mib_per_s"):
        v = [r["total"][dr][k] for r in d["runs"]]
        s = d["summary"][dr][k]
        m = sum(v) / 3
        sd = math.sqrt(sum((x - m) ** 2 for x in v) / 2)
        assert s["n"] == 3 and abs(s["mean"] - m) <= 1e-9 * max(1, m), (dr, k)
        assert s["min"] == min(v) and s["max"] == max(v)
        assert abs(s["stddev"] - sd) <= 1e-6 * max(1, sd), (dr, k, s["stddev"], sd)
    v = [r["total"][dr]["lat_us"]["percentiles"]["99"] for r in d["runs"]]
    assert abs(d["summary"][dr]["lat_p99_us"]["mean"] - sum(v) / 3) <= 1e-6 * max(v)
PY
expect_status 0 "text summary" -- "$IOMARK" run --repeat=2 --rw=read --bs=64k --size=8M --runtime=1 --ioengine=psync --quiet $WORK/t.dat
grep -q "^mean " $WORK/out && grep -q "^stddev " $WORK/out && grep -q "2 of 2 runs" $WORK/out && pass "text table" || fail "text: $(cat $WORK/out)"
expect_status 0 "compare reads the repeat document" -- "$IOMARK" compare --output-format=json $WORK/r.json $WORK/r.json
$PY -c "
import json,sys; d=json.load(open('$WORK/out'))
m={x['key']:x for x in d['workloads'][0]['metrics']}
assert m['iops']['values'][0]['n']==3 and m['iops']['changes'][0]['welch']['p']>0.99
" && pass "3 runs per side, identical: p = 1" || fail "compare of repeat"
finish
