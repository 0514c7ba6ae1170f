#!/usr/bin/env bash
# iomark sweep: grid order, targets in turns, figures equal to the runs they
# come from, the knee rule recomputed here, refusals.
source "$(dirname "$0")/lib.sh"
cd $WORK
# a bad list: one line naming the list as typed, its first bad item and what is allowed
ALLOWED="allowed: a comma-separated list of 1 to 32 whole numbers from 1 to 4096, e.g. 1,4,32"
for c in "--threads=1,x|item 2 \"x\" is not a whole number" \
         "--threads=1,,2|item 2 is empty" \
         "--iodepth=1,a|item 2 \"a\" is not a whole number" \
         "--iodepth=1,4,|item 3 is empty" \
         "--iodepth=,1|item 1 is empty" \
         "--threads=1,5000|item 2 \"5000\" is above 4096" \
         "--threads=0,1|item 1 \"0\" is below 1" \
         "--threads=2,-1|item 2 \"-1\" is below 1" \
         "--numjobs=1,x|item 2 \"x\" is not a whole number" \
         "--threads=|the list is empty" \
         "--iodepth=$(seq -s, 1 33)|more than 32 items"; do
  a=${c%%|*}
  expect_status 2 "bad list $a" -- "$IOMARK" sweep "$a" --size=1M $WORK/a.dat
  grep -qxF "iomark sweep: $a: ${c#*|}; $ALLOWED" $WORK/err && [ "$(wc -l <$WORK/err)" = 1 ] \
    && pass "names the bad item: ${c#*|}" || fail "$a: $(cat $WORK/err)"
done
# one point: the message names the options as typed (--numjobs, not --threads), and
# only those given
for c in "--iodepth=4|--iodepth=4" "--numjobs=4|--numjobs=4" "--numjobs=4 --iodepth=4|--numjobs=4 --iodepth=4" \
         "--threads=1,1|--threads=1,1" "|--threads, --iodepth: neither given"; do
  # shellcheck disable=SC2086
  expect_status 2 "one point only: ${c%%|*}" -- "$IOMARK" sweep ${c%%|*} --size=1M $WORK/a.dat
  grep -qF "iomark sweep: ${c#*|}" $WORK/err && grep -qF "give at least two different values to sweep, e.g. --iodepth=1,4,32" $WORK/err \
    && [ "$(wc -l <$WORK/err)" = 1 ] && pass "one-point line names ${c#*|}" || fail "${c%%|*}: $(cat $WORK/err)"
done
# --threads and --numjobs both: named in the order typed, with their values
expect_status 2 "--threads then --numjobs" -- "$IOMARK" sweep --threads=1,2 --numjobs=4 --size=1M $WORK/a.dat
expect_err_has "iomark sweep: --threads=1,2 --numjobs=4: both set the threads per point; give one of them"
expect_status 2 "--numjobs then --threads" -- "$IOMARK" sweep --numjobs 4 --iodepth=1,2 --threads 1,2 --size=1M $WORK/a.dat
expect_err_has "iomark sweep: --numjobs=4 --threads=1,2: both set the threads per point; give one of them"
expect_status 2 "bad knee" -- "$IOMARK" sweep --iodepth=1,2 --knee=-3 --size=1M $WORK/a.dat
expect_err_has "--knee=-3"
[ ! -e $WORK/a.dat ] && pass "nothing created on refusal" || fail "file created on refusal"

expect_status 0 "sweep 2 targets x 2 threads x 2 depths" -- "$IOMARK" sweep --threads 1,2 --iodepth 1,4 --knee=7 --rw=randread --bs=4k --size=8M --runtime=500ms --ioengine=psync --quiet --output-format=json --output=$WORK/s.json $WORK/a.dat $WORK/b.dat
NCPU=$(getconf _NPROCESSORS_ONLN)
$PY - $WORK/s.json $NCPU <<'PY' && pass "sweep JSON" || fail "sweep JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["type"] == "sweep" and d["status"] == "ok"
# the grid as typed (what sweep --replay reruns); the top-level spec is the largest point
assert d["grid"] == {"threads": [1, 2], "iodepth": [1, 4]} and d["planned_points"] == 8, d["grid"]
assert (d["spec"]["numjobs"], d["spec"]["iodepth"]) == (2, 4) and d["knee_min_gain_pct"] == 7
p = d["points"]
assert len(p) == 8
# order: outstanding ascending (1, 2, 4, 8 with ties by threads), targets alternate
assert [(x["threads"], x["iodepth"]) for x in p[::2]] == [(1, 1), (2, 1), (1, 4), (2, 4)]
assert [x["target"].split("/")[-1] for x in p] == ["a.dat", "b.dat"] * 4
for x in p:
    r = x["result"]
    assert r["spec"]["numjobs"] == x["threads"] and r["spec"]["iodepth"] == x["iodepth"]
    assert abs(r["total"]["total"]["iops"] - x["iops"]) <= 1e-9 * x["iops"]
    assert abs(r["total"]["total"]["lat_us"]["mean"] - x["lat_mean_us"]) <= 1e-9 * x["lat_mean_us"]
    assert len(r["threads"]) == x["threads"]
    # cpu_pct: the whole machine's busy share, as the run's CPU line (user + system)
    assert abs(x["cpu_pct"] - (r["cpu"]["user_pct"] + r["cpu"]["system_pct"])) <= 1e-9, (x["cpu_pct"], r["cpu"])
    assert r["cpu"]["nr_cpus"] == int(sys.argv[2]), r["cpu"]["nr_cpus"]
# the knee rule, per target: first i where no point from i on beats the best
# earlier point by knee_min_gain_pct, while latency at i exceeds that point's
for t in ("a.dat", "b.dat"):
    q = [x for x in p if x["target"].endswith(t)]
    g = d["knee_min_gain_pct"]
    want = None
    for i in range(1, len(q)):
        best = max(range(i), key=lambda k: q[k]["iops"])
        later = max(x["iops"] for x in q[i:])
        if later < q[best]["iops"] * (1 + g / 100) and q[i]["lat_mean_us"] > q[best]["lat_mean_us"]:
            want = i
            break
    got = [i for i, x in enumerate(q) if x["knee"]]
    assert got == ([want] if want is not None else []), (t, got, want)
PY
# run --replay of a sweep document: refused (its spec is only the largest point), naming
# the sweep and the command that reruns it; nothing written
expect_status 2 "run --replay of a sweep" -- "$IOMARK" run --replay $WORK/s.json --output-format=json --output=$WORK/never.json
expect_err_has "iomark run: --replay=$WORK/s.json: a sweep document of 8 points: threads 1,2 x iodepth 1,4 on 2 targets, not one run; rerun the sweep with iomark sweep --replay $WORK/s.json"
[ ! -e $WORK/never.json ] && pass "run --replay of a sweep wrote nothing" || fail "wrote never.json"
# sweep --replay: the same grid, order, targets, knee and workload (runtime overridden)
expect_status 0 "sweep --replay" -- "$IOMARK" sweep --replay $WORK/s.json --runtime=150ms --quiet --output-format=json --output=$WORK/r.json
# options and targets given override: iodepth 2,8 on c.dat, the threads list from the document
expect_status 0 "sweep --replay with overrides" -- "$IOMARK" sweep --replay=$WORK/s.json --iodepth=2,8 --runtime=100ms --quiet --output-format=json --output=$WORK/r2.json $WORK/c.dat
$PY - $WORK/s.json $WORK/r.json $WORK/r2.json $WORK/c.dat <<'PY' && pass "sweep --replay reruns the sweep: 8 points, grid, order, knee 7, workload" || fail "sweep --replay"
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
assert b["grid"] == a["grid"] and b["planned_points"] == 8 and b["knee_min_gain_pct"] == 7, (b["grid"], b["knee_min_gain_pct"])
key = lambda x: (x["target"], x["threads"], x["iodepth"])
assert [key(x) for x in b["points"]] == [key(x) for x in a["points"]], [key(x) for x in b["points"]]
for x, y in zip(a["points"], b["points"]):
    o, q = x["result"]["spec"]["options"], y["result"]["spec"]["options"]
    assert {k for k in o if o[k] != q[k]} == {"runtime"} and q["runtime"] == "150000000ns", {k: (o[k], q[k]) for k in o if o[k] != q[k]}
assert c["grid"] == {"threads": [1, 2], "iodepth": [2, 8]}, c["grid"]
assert [key(x) for x in c["points"]] == [(sys.argv[4], 1, 2), (sys.argv[4], 2, 2), (sys.argv[4], 1, 8), (sys.argv[4], 2, 8)]
assert all(x["result"]["spec"]["options"]["bs"] == "4096" and x["result"]["spec"]["rw"] == "randread" for x in c["points"])
PY
# a document written before the grid was recorded: the grid its points show, when whole
# (old.json: all 8 points; part.json: the first 4, iodepth 1 only, so 2 x 1 x 2 targets != 8)
$PY - $WORK/s.json $WORK/old.json $WORK/part.json $WORK/badgrid.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d.pop("grid")
json.dump(d, open(sys.argv[2], "w"))
d["points"] = d["points"][:4]; json.dump(d, open(sys.argv[3], "w"))
d = json.load(open(sys.argv[1])); d["grid"]["iodepth"] = [0, 4]; json.dump(d, open(sys.argv[4], "w"))
PY
expect_status 2 "run --replay of a sweep without grid" -- "$IOMARK" run --replay $WORK/old.json
expect_err_has "a sweep document of 8 points: threads 1,2 x iodepth 1,4 on 2 targets, not one run"
expect_status 2 "sweep --replay of a sweep whose points do not show its grid" -- "$IOMARK" sweep --replay $WORK/part.json --output=$WORK/never.json
expect_err_has "iomark sweep: --replay=$WORK/part.json: a sweep of 8 points that does not record its grid (no \"grid\", and its points do not show all of it); give --threads and --iodepth"
expect_status 2 "sweep --replay of a bad grid" -- "$IOMARK" sweep --replay $WORK/badgrid.json --output=$WORK/never.json
expect_err_has "iomark sweep: --replay=$WORK/badgrid.json: grid: \"threads\" and \"iodepth\" must each be 1 to 32 whole numbers from 1 to 4096"
# a run document: its one workload needs a list to sweep
"$IOMARK" run --ioengine=null --size=1M --runtime=100ms --quiet --output-format=json --output=$WORK/run.json $WORK/n.dat
expect_status 2 "sweep --replay of a run document" -- "$IOMARK" sweep --replay $WORK/run.json --output=$WORK/never.json
expect_err_has "iomark sweep: --replay=$WORK/run.json: a run document (one workload), not a sweep; give --threads and/or --iodepth lists to sweep its workload, or rerun it with iomark run --replay $WORK/run.json"
expect_status 2 "sweep --replay= (no file)" -- "$IOMARK" sweep --replay= --output=$WORK/never.json
expect_err_has "iomark sweep: --replay=: needs an iomark sweep document (JSON), e.g. --replay=sweep.json"
[ ! -e $WORK/never.json ] && pass "refused replays wrote nothing" || fail "a refused replay wrote never.json"
expect_status 0 "compare reads the sweep" -- "$IOMARK" compare $WORK/s.json
grep -q "a.dat T2 Q4" $WORK/out && pass "sweep points as workloads" || fail "sweep in compare: $(head $WORK/out)"
expect_status 0 "text table" -- "$IOMARK" sweep --iodepth 1,2 --rw=read --bs=64k --size=8M --runtime=300ms --ioengine=psync --quiet $WORK/a.dat
grep -q "^knee:" $WORK/out && grep -q "outstanding" $WORK/out && pass "text has table and knee line" || fail "text: $(cat $WORK/out)"
# the CPU column is the whole machine's, labelled as the run's CPU line: user + system of all CPUs
grep -qxF "CPU u+s %: user + system time of all $NCPU CPUs during each point's measured phase, the whole machine's, not only iomark's (as iomark run's \"CPU ($NCPU CPUs): user, system\")" $WORK/out \
  && pass "text says the CPU column is user + system of all $NCPU CPUs" || fail "CPU legend: $(head -3 $WORK/out)"
hdr=$(grep "^threads" $WORK/out); cpus=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ {print $8}' $WORK/out)
[ "$(echo "$hdr" | tr -s ' ')" = "threads iodepth outstanding IOPS MiB/s mean lat (us) p99 lat (us) CPU u+s % IOPS step" ] \
  && [ "$(echo "$cpus" | wc -l)" = 2 ] && echo "$cpus" | awk '$1 < 0 || $1 > 100 {bad=1} END {exit bad}' \
  && pass "CPU u+s % column: 2 rows in 0..100 ($(echo $cpus))" || fail "table: $hdr / $cpus"
finish
