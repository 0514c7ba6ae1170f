#!/usr/bin/env bash
# iomark mark: a short default profile in a folder; the test file is made
# there and removed afterwards; JSON holds every test with both directions,
# every run (the preparation run marked uncounted), and the figures
# CrystalDiskMark's DiskBench.cpp reports (max MB/s, lowest mean latency of
# the counted runs with data), recomputed here from the runs.
source "$(dirname "$0")/lib.sh"
cd $WORK
expect_status 0 "mark, 3 runs of 0.4 s after a 0.3 s preparation run" -- "$IOMARK" mark --runs=3 --runtime=400ms --prepare=300ms --pause=0 --size=32M --output-format=json --output=$WORK/m.json --quiet
[ ! -e $WORK/iomark-test.dat ] && pass "test file removed" || fail "test file left behind"
$PY - $WORK/m.json <<'PY' && pass "mark JSON" || fail "mark JSON"
import json, sys
d = json.load(open(sys.argv[1]))
import jsonschema, os
schema = json.load(open(os.environ["SRCDIR"] + "/docs/mark.schema.json"))
jsonschema.validate(d, schema, cls=jsonschema.Draft202012Validator)
names = [t["name"] for t in d["tests"]]
bad = []
def check(what, cond):
    if not cond:
        bad.append(what)
check("names", names == ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"] and d["schema"] == "iomark-result")
check("selection", d["selection"] == "best" and d["convention"] == "crystaldiskmark" and d["prepare_s"] == 0.3)
check("host", d["host"]["kernel"] == os.uname().sysname + " " + os.uname().release and d["host"]["hostname"] == os.uname().nodename)
def near(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-9
# A run can complete no I/O in its 0.3-0.4 s when the disk stalls (seen once in a
# loaded ASan run of the suite; a FUSE file that sleeps 1.5 s per request gives a
# preparation run with 0 I/Os): its figures are then 0, and CrystalDiskMark takes
# latency only from runs with a score above zero. Most runs must move data.
nruns = nzero = 0
for t in d["tests"]:
    for w in ("read", "write"):
        x, at = t[w], t["name"] + " " + w
        runs = x["each_run"]
        prep, counted = runs[0], [r for r in runs if r["counted"]]
        data = [r for r in counted if r["mb_per_s"] > 0]
        check(at + ": runs", prep["phase"] == "prepare" and prep["counted"] is False and len(runs) == 4)
        check(at + ": counted", len(counted) == 3 == x["counted_runs"] and all(r["phase"] == "run" for r in runs[1:]))
        # CrystalDiskMark: the best MB/s, and the lowest mean latency among counted runs with data
        check(at + ": best MB/s", near(x["mb_per_s"], max(r["mb_per_s"] for r in counted)))
        check(at + ": best IOPS", near(x["iops"], max(r["iops"] for r in counted)))
        if data:
            check(at + ": lowest latency", x["has_latency"] and near(x["lat_mean_us"], min(r["lat_mean_us"] for r in data)))
        else:
            check(at + ": no latency without data", not x["has_latency"])
        check(at + ": mean MB/s", near(x["mean"]["mb_per_s"], sum(r["mb_per_s"] for r in counted) / 3))
        check(at + ": latency range", near(x["min"]["lat_mean_us"], min(r["lat_mean_us"] for r in counted))
              and near(x["max"]["lat_mean_us"], max(r["lat_mean_us"] for r in counted)))
        check(at + ": I/Os", x["ios"] == sum(r["ios"] for r in counted))
        # MB/s is 10^6 bytes/s; IOPS x block size = bytes/s
        check(at + ": MB/s = IOPS x bs", abs(x["mb_per_s"] * 1e6 - x["iops"] * t["bs_bytes"]) <= 1e-6 * x["mb_per_s"] * 1e6 + 1)
        check(at + ": MiB/s", abs(x["mib_per_s"] * 1048576 - x["mb_per_s"] * 1e6) <= 1e-6 * x["mb_per_s"] * 1e6 + 1)
        for r in runs:
            nruns += 1
            nzero += r["ios"] == 0
            check(at + ": a run's figures agree with its I/Os",
                  (r["ios"] > 0) == (r["mb_per_s"] > 0) == (r["iops"] > 0))
check("most runs moved data (%d of %d did not)" % (nzero, nruns), 2 * nzero < nruns)
print(names, "runs without I/O: %d of %d" % (nzero, nruns))
if bad:
    print("failed:", "; ".join(bad))
sys.exit(1 if bad else 0)
PY
# --keep keeps it; a named folder target gets the file inside it
mkdir -p $WORK/dir
expect_status 0 "mark realworld keep" -- "$IOMARK" mark --profile=realworld --runs=2 --runtime=500ms --prepare=0 --pause=0 --size=16M --keep --quiet $WORK/dir/
[ -e $WORK/dir/iomark-test.dat ] && pass "kept with --keep" || fail "not kept"
grep -qF "$WORK/dir/iomark-test.dat" $WORK/out && ! grep -qF "$WORK/dir//" $WORK/out \
  && pass "folder/ target: file named without a double slash" || fail "file name: $(grep -F iomark-test $WORK/out | head -2)"
grep -q "RND4K Q1T1" $WORK/out && grep -q "best of runs" $WORK/out && grep -q "CrystalDiskMark's definition" $WORK/out \
  && pass "realworld table, best run" || fail "realworld table: $(cat $WORK/out)"
# --statistic: mean of the counted runs; kdiskmark: mean for default, no preparation run
expect_status 0 "mark --statistic=mean" -- "$IOMARK" mark --profile=realworld --statistic=mean --runs=2 --runtime=300ms --prepare=200ms --pause=0 \
  --size=16M --output-format=json --output=$WORK/mean.json --quiet $WORK/dir
expect_status 0 "mark --statistic=kdiskmark" -- "$IOMARK" mark --statistic=kdiskmark --runs=2 --runtime=200ms --pause=0 \
  --size=16M --output-format=json --output=$WORK/kdm.json --quiet $WORK/dir
$PY - $WORK/mean.json $WORK/kdm.json <<'PY' && pass "mean and kdiskmark statistics" || fail "mean/kdiskmark statistics"
import json, sys
m, k = (json.load(open(p)) for p in sys.argv[1:3])
ok = m["selection"] == "mean" and m["convention"] == "option"
ok &= k["selection"] == "mean" and k["convention"] == "kdiskmark" and k["prepare_s"] == 0
def near(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-9
for d, n in ((m, 3), (k, 2)):
    for t in d["tests"]:
        for w in ("read", "write"):
            x = t[w]
            c = [r for r in x["each_run"] if r["counted"]]
            ok &= len(x["each_run"]) == n and len(c) == 2
            for f in ("mb_per_s", "iops", "lat_mean_us", "lat_p99_us"):
                ok &= near(x[f], sum(r[f] for r in c) / 2)
sys.exit(0 if ok else 1)
PY
expect_status 0 "mark realworld --statistic=kdiskmark" -- "$IOMARK" mark --profile=realworld --statistic=kdiskmark --runs=1 --runtime=200ms --pause=0 --size=16M --quiet $WORK/dir
grep -q "best of runs" $WORK/out && grep -q "KDiskMark's convention" $WORK/out && pass "kdiskmark realworld: best" || fail "kdiskmark realworld: $(cat $WORK/out)"
expect_status 2 "bad --statistic" -- "$IOMARK" mark --statistic=median --size=16M $WORK/nothing.dat
expect_err_has "--statistic=median: allowed: best, mean, kdiskmark"
expect_status 2 "mistyped --statistic" -- "$IOMARK" mark --statistic=bset --size=16M $WORK/nothing.dat
expect_err_has "--statistic=bset: did you mean best? allowed: best, mean, kdiskmark"
expect_status 2 "mistyped --profile" -- "$IOMARK" mark --profile=nvm --size=16M $WORK/nothing.dat
expect_err_has "--profile=nvm: did you mean nvme? allowed: default, peak, realworld, nvme, cdm7"
[ ! -e $WORK/nothing.dat ] && pass "nothing written" || fail "file made on bad input"
expect_status 2 "bad --prepare" -- "$IOMARK" mark --prepare=soon --size=16M $WORK/nothing.dat
expect_err_has "--prepare=soon"
# a named file that iomark creates is removed too (unless --keep)
expect_status 0 "mark on a new named file" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=300ms --prepare=0 --pause=0 --size=16M --quiet $WORK/named.dat
[ ! -e $WORK/named.dat ] && pass "created named file removed" || fail "named file left behind"
# an existing file is used and never removed
"$IOMARK" run --size=16M --runtime=100ms --quiet $WORK/mine.dat >/dev/null
expect_status 0 "mark on an existing file" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=300ms --prepare=0 --pause=0 --size=16M --quiet $WORK/mine.dat
[ -e $WORK/mine.dat ] && pass "existing file kept" || fail "existing file removed"
expect_status 2 "mark on a missing folder" -- "$IOMARK" mark $WORK/nodir/
expect_err_has "folder does not exist"
# a block device smaller than the default 1 GiB is tested whole
if [ "$(id -u)" = 0 ] && losetup -f >/dev/null 2>&1; then
  truncate -s 64M $WORK/small.img
  new_loop $WORK/small.img
  expect_status 0 "mark on a 64 MiB loop device" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=300ms --prepare=0 --pause=0 \
    --output-format=json --output=$WORK/loop.json --quiet $LOOP_DEV
  $PY -c "import json,sys; t=json.load(open('$WORK/loop.json'))['target']; sys.exit(0 if t['tested_bytes']==64<<20 and t['kind']=='block_device' else 1)" \
    && pass "whole device tested" || fail "device size"
fi
# interrupted: valid document, tests not run are null
"$IOMARK" mark --runs=3 --runtime=1 --prepare=300ms --pause=0 --size=16M --output-format=json --output=$WORK/int.json --quiet $WORK/dir2.dat &
pid=$!
# interrupt once the file is made (a loaded machine can take a while) and the runs are under way
for i in $(seq 100); do [ "$(stat -c %s $WORK/dir2.dat 2>/dev/null || echo 0)" = 16777216 ] && break; sleep 0.1; done
sleep 1; kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] && pass "interrupted mark exit 130" || fail "interrupted mark exit $rc"
[ ! -e $WORK/dir2.dat ] && pass "interrupted mark removed its file" || fail "file left after Ctrl-C"
$PY - $WORK/int.json <<'PY' && pass "interrupted mark document valid, unrun tests null" || fail "interrupted mark document"
import json, sys, os, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(os.environ["SRCDIR"] + "/docs/mark.schema.json")), cls=jsonschema.Draft202012Validator)
sys.exit(0 if d["status"] == "interrupted" and d["tests"][-1]["write"] is None else 1)
PY
finish
