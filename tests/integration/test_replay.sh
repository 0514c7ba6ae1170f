#!/bin/bash
# test_replay.sh - `iomark run --replay RESULT.json` reruns the recorded
# workload: the replayed result's spec (every option of the table, and the
# targets) equals the original's, options given with --replay override only
# themselves, and bad files are refused with one line and exit 2.
source "$(dirname "$0")/lib.sh"

cd "$WORK"
"$IOMARK" run --ioengine=null --runtime=300ms --size=4M --create_size=8M --bs=8k --rw=randrw \
  --rwmixread=70 --random_distribution=zoned:60/10:40/90 --thinktime=1ms --thinktime_blocks=16 \
  --randseed=4242 --inject_error=EIO:100000000 --continue_on_error --series_interval=100ms \
  --name=orig --output-format=json --output=a.json --quiet t1.dat t2.dat
expect_status 0 "replay" -- "$IOMARK" run --replay a.json --output-format=json --output=b.json --quiet
expect_status 0 "replay with overrides" -- "$IOMARK" run --replay=a.json --runtime=200ms --rwmixwrite=50 \
  --output-format json --output c.json --quiet
expect_status 0 "replay on another target" -- "$IOMARK" run --replay a.json --output-format=json \
  --output=d.json --quiet t3.dat
$PY - <<'PY' && pass "replayed specs" || fail "replayed specs"
import json, sys
def spec(p): return json.load(open(p))["spec"]
a, b, c, d = (spec(p) for p in ("a.json", "b.json", "c.json", "d.json"))
o = a["options"]
errors = []
# the recorded options, read by hand from the command line above
want = {"runtime": "300000000ns", "size": "4194304", "create_size": "8388608", "bs": "8192",
        "rw": "randrw", "rwmixread": "70", "random_distribution": "zoned:60/10:40/90",
        "thinktime": "1000000ns", "thinktime_blocks": "16", "randseed": "4242",
        "inject_error": "EIO:100000000", "continue_on_error": "1", "name": "orig",
        "series_interval": "100000000ns", "ioengine": "null", "rate_iops": None}
for k, v in want.items():
    if o.get(k, "missing") != v: errors.append(f"a: {k}={o.get(k, 'missing')}, wanted {v}")
if b != a: errors.append(f"b differs: {set(x for x in a if a[x] != b.get(x))}")
diff = {k for k in o if c["options"][k] != o[k]}
if diff != {"runtime", "rwmixread"}: errors.append(f"c: overrides changed {diff}")
if c["options"]["runtime"] != "200000000ns" or c["options"]["rwmixread"] != "50": errors.append("c: override values")
if c["targets"] != a["targets"] or a["targets"] != ["t1.dat", "t2.dat"]: errors.append("c: targets")
if d["targets"] != ["t3.dat"] or d["options"] != o: errors.append("d: target override")
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY

expect_status 2 "replay of a missing file" -- "$IOMARK" run --replay=nope.json
expect_err_has "iomark run: --replay=nope.json: No such file or directory"
echo '{"schema": "fio"}' >x.json
expect_status 2 "replay of a file without a spec" -- "$IOMARK" run --replay x.json
expect_err_has "x.json: not an iomark run result"
# a document of another command (its "type", as iomark mark writes): named, and what --replay takes
echo '{"schema": "iomark-result", "type": "mark", "tests": []}' >m.json
expect_status 2 "replay of a mark document" -- "$IOMARK" run --replay m.json
expect_err_has "m.json: an iomark mark document has no workload to replay; --replay takes the JSON of iomark run, run --repeat or sweep"
expect_status 2 "sweep --replay of a mark document" -- "$IOMARK" sweep --replay m.json
expect_err_has "m.json: an iomark mark document has no workload to replay"
[ ! -e t3.dat.bak ] && [ ! -e nope.json ] && pass "nothing written on refusal" || fail "refusal wrote files"

# a --repeat document: its workload (run 1's spec), once unless --repeat is
# given, and one line on stderr saying which
"$IOMARK" run --repeat=2 --ioengine=null --rw=randwrite --bs=8k --iodepth=4 --runtime=200ms --size=8M \
  --output-format=json --output=rep.json --quiet rep.dat 2>/dev/null || fail "repeat run failed"
expect_status 0 "replay a --repeat document" -- "$IOMARK" run --replay=rep.json --runtime=100ms --output-format=json --output=rp1.json
[ "$(wc -l <"$WORK/err")" = 1 ] && grep -qF "a --repeat=2 document; its workload once (add --repeat=2" "$WORK/err" \
  && pass "says: once" || fail "stderr: $(cat "$WORK/err")"
$PY - rep.json rp1.json <<'PY' && pass "replayed run 1's workload once" || fail "replayed workload differs"
import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]["spec"]; d = json.load(open(sys.argv[2])); b = d["spec"]
keys = ("rw", "bs_bytes", "iodepth", "ioengine", "targets")
print([(k, a[k], b[k]) for k in keys])
sys.exit(0 if d["type"] == "run" and all(a[k] == b[k] for k in keys) and (a["rw"], a["bs_bytes"], a["iodepth"]) == ("randwrite", 8192, 4) else 1)
PY
expect_status 0 "replay a --repeat document with --repeat=2" -- "$IOMARK" run --replay=rep.json --repeat=2 --runtime=100ms --output-format=json --output=rp2.json
grep -qF "a --repeat=2 document; its workload 2 times (--repeat=2)" "$WORK/err" && pass "says: 2 times" || fail "stderr: $(cat "$WORK/err")"
$PY -c "import json,sys; d=json.load(open('rp2.json')); sys.exit(0 if d['type']=='repeat' and len(d['runs'])==2 and d['runs'][0]['spec']['rw']=='randwrite' else 1)" \
  && pass "2 runs of the replayed workload" || fail "rp2.json: $(head -c 300 rp2.json)"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
