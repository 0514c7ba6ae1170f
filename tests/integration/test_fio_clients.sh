#!/bin/bash
# test_fio_clients.sh - issue 18: what fio's own tools read from iomark's
# job-file output. Expected values come from real fio 3.33 runs of the same
# job (percentile keys), from fio_jsonplus_clat2csv (Debian's fio package) on
# iomark's json+ output, from the log files parsed with the line format of
# fio's HOWTO ("Log File Formats"), and from the rate schedule of the job.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
PCTS=1:5:10:25:50:75:90:95:99:99.5:99.9:99.95:99.99

# 1. percentile_list: the same keys as fio 3.33 prints for the same job
cat >pct.fio <<JOB
[global]
ioengine=null
size=64m
bs=4k
rw=randrw
number_ios=3000
percentile_list=$PCTS
[p]
JOB
"$IOMARK" run pct.fio --quiet --output-format=json+ --output=i.json 2>err.txt ||
  fail "pct.fio: $(head -c 300 err.txt)"
fio pct.fio --output-format=json --output=f.json >/dev/null 2>&1 || fail "fio pct.fio"
$PY - i.json f.json <<'PY' && pass "percentile_list keys as fio 3.33 writes them" || fail "percentile keys differ"
import json, sys
keys = lambda p: [list(json.load(open(p))["jobs"][0][d]["clat_ns"]["percentile"].keys()) for d in ("read", "write")]
a, b = keys(sys.argv[1]), keys(sys.argv[2])
print("iomark:", a[0]); print("fio:   ", b[0])
sys.exit(0 if a == b and len(a[0]) == 13 and a[0][-1] == "99.990000" else 1)
PY

# the same list on the command line (fio: --percentile_list=...), again against fio 3.33
grep -v '^percentile_list' pct.fio >pct2.fio
"$IOMARK" run pct2.fio --quiet --percentile_list=99.9:50:1 --output-format=json --output=i2.json 2>err.txt ||
  fail "--percentile_list: $(head -c 300 err.txt)"
fio pct2.fio --percentile_list=99.9:50:1 --output-format=json --output=f2.json >/dev/null 2>&1 || fail "fio pct2.fio"
$PY - i2.json f2.json <<'PY' && pass "--percentile_list on the command line (sorted, as fio)" || fail "--percentile_list keys"
import json, sys
keys = lambda p: list(json.load(open(p))["jobs"][0]["read"]["clat_ns"]["percentile"].keys())
print(keys(sys.argv[1]), keys(sys.argv[2]))
sys.exit(0 if keys(sys.argv[1]) == keys(sys.argv[2]) == ["1.000000", "50.000000", "99.900000"] else 1)
PY

# 2. json+: fio_jsonplus_clat2csv on iomark's output; the percentiles it gives agree
#    with iomark's own within one bucket (64 buckets per power of two)
if $PY -c 'import six' 2>/dev/null; then
  fio_jsonplus_clat2csv i.json c.csv >/dev/null || fail "fio_jsonplus_clat2csv"
  $PY - i.json c_job0.csv "$PCTS" <<'PY' && pass "fio_jsonplus_clat2csv percentiles = iomark's within one bucket" || fail "json+ percentiles"
import csv, json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
rows = list(csv.reader(open(sys.argv[2]), skipinitialspace=True))
head = [h.strip() for h in rows[0]]
bad = 0
for d in ("read", "write"):
    cum = head.index(d + "_clat_ns_percentile")
    pts = [(int(r[0]), float(r[cum])) for r in rows[1:] if len(r) > cum and r[cum].strip()]
    assert len(pts) > 5, d
    assert sum(int(r[head.index(d + "_clat_ns_count")]) for r in rows[1:] if r[head.index(d + "_clat_ns_count")].strip()) == j[d]["total_ios"]
    for key, val in j[d]["clat_ns"]["percentile"].items():
        p = float(key) / 100.0
        ns = next(v for v, c in pts if c >= p - 1e-12)
        width = 1 if ns < 128 else 1 << (ns.bit_length() - 1 - 6)
        ok = abs(ns - val) <= width
        bad += not ok
        print(d, key, "csv", ns, "iomark", val, "width", width, "ok" if ok else "BAD")
sys.exit(1 if bad else 0)
PY
else
  echo "note: python3-six missing: fio_jsonplus_clat2csv not run"
fi

# 3. log files: names and line format as fio 3.33 writes them; values agree with the JSON
cat >logs.fio <<JOB
[global]
ioengine=null
size=64m
bs=4k
rw=randrw
[avg]
time_based
runtime=3
rate_iops=400
numjobs=2
write_bw_log=A
write_lat_log=A
write_iops_log=A
log_avg_msec=250
[each]
rw=randread
number_ios=500
write_bw_log
write_lat_log=E
write_iops_log=E
log_offset=1
JOB
"$IOMARK" run logs.fio --quiet --output-format=json --output=l.json 2>err.txt ||
  fail "logs.fio: $(head -c 300 err.txt)"
want="A_bw.1.log A_bw.2.log A_clat.1.log A_clat.2.log A_iops.1.log A_iops.2.log A_lat.1.log A_lat.2.log A_slat.1.log A_slat.2.log E_clat.3.log E_iops.3.log E_lat.3.log E_slat.3.log each_bw.3.log"
got=$(ls A_* E_* each_* 2>/dev/null | sort | tr '\n' ' ')
[ "$got" = "$want " ] && pass "log file names as fio's (PREFIX_kind.N.log)" || fail "log files: $got"
$PY - l.json <<'PY' && pass "log lines parse (time, value, dir, bs[, offset], prio) and agree with the JSON" || fail "log contents"
import json, re, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
def lines(path, ncol):
    out = []
    for ln in open(path):
        m = re.fullmatch(r"\d+(, \d+){%d}\n" % (ncol - 1), ln)
        assert m, (path, ln)
        out.append([int(x) for x in ln.split(", ")])
    return out
bad = []
# averaged: one line per 250 ms window and direction with I/O; sum of rate x window = total
for c in (1, 2):
    j = jobs[c - 1]
    for kind, field, scale in (("iops", "total_ios", 1), ("bw", "io_bytes", 1024)):
        rows = lines("A_%s.%d.log" % (kind, c), 5)
        for d, name in ((0, "read"), (1, "write")):
            r = [x for x in rows if x[2] == d]
            t_prev, tot = 0, 0.0
            for t, v, _, bs, prio in r:
                assert bs == 0 and prio == 0
                # a line covers its own window (fio stat.c __add_samples: a window
                # without I/O writes no line, and the next one is its window's
                # rate): at most 250 ms; a stall (loop run, ASan, load 40) left
                # empty windows, and t - t_prev then spanned them
                tot += v * min(t - t_prev, 250) / 1000.0 * scale
                t_prev = t
            want = j[name][field]
            per_window = j[name]["iops"] * 0.25 * (4096 if kind == "bw" else 1)
            # within one window (plus the integer truncation of each line)
            if abs(tot - want) > per_window + len(r) * scale + (4096 if kind == "bw" else 1):
                bad.append(("A", c, kind, name, tot, want))
            if not 8 <= len(r) <= 13:  # 12 windows in 3 s; fewer after a stall (2 of them at load 40)
                bad.append(("A lines", c, kind, name, len(r)))
    for kind in ("lat", "clat"):
        rows = lines("A_%s.%d.log" % (kind, c), 5)
        for d, name in ((0, "read"), (1, "write")):
            vals = [x[1] for x in rows if x[2] == d]
            mean = j[name]["clat_ns"]["mean"]
            if not (j[name]["clat_ns"]["min"] <= min(vals) and max(vals) <= j[name]["clat_ns"]["max"]):
                bad.append(("A lat range", c, kind, name))
    if open("A_slat.%d.log" % c).read() != "":
        bad.append(("slat not empty", c))
# per I/O: one line per I/O with its size and offset; latencies sum to the JSON's mean
j = jobs[2]
n = j["read"]["total_ios"]
lat = lines("E_lat.3.log", 6)
if len(lat) != n or n != 500:
    bad.append(("E lines", len(lat), n))
if abs(sum(x[1] for x in lat) / len(lat) - j["read"]["clat_ns"]["mean"]) > 1:
    bad.append(("E mean", sum(x[1] for x in lat) / len(lat), j["read"]["clat_ns"]["mean"]))
if any(x[2] != 0 or x[3] != 4096 or x[4] % 4096 or x[4] >= 64 << 20 for x in lat):
    bad.append("E dir/bs/offset")
if len({x[4] for x in lat}) != n:
    bad.append("E offsets repeat (random map: each block once)")
iops = lines("E_iops.3.log", 6)
if len(iops) != n or any(x[1] != 1 for x in iops):
    bad.append("E iops")
bw = lines("each_bw.3.log", 6)
if any(x[1] != (4096 * 10**6 // l[1] if l[1] else 0) for x, l in zip(bw, lat)):
    bad.append("E bw = bytes * 10^6 / latency")
if [x[0] for x in lat] != sorted(x[0] for x in lat):
    bad.append("E time order")
print(bad)
sys.exit(1 if bad else 0)
PY

# 4. numjobs clones without group_reporting: each its own runtime, I/O count and IOPS
#    (schedule: fast 200 I/Os at 400/s = 0.5 s, slow 100 at 100/s = 1 s per clone)
cat >clones.fio <<JOB
[global]
ioengine=null
size=64m
bs=4k
rw=randread
[fast]
rate_iops=400
number_ios=200
numjobs=2
[slow]
rate_iops=100
number_ios=100
numjobs=2
JOB
"$IOMARK" run clones.fio --quiet --output-format=json --output=c.json 2>err.txt || fail "clones.fio"
$PY - c.json <<'PY' && pass "clones: own runtime, I/Os and IOPS from the rate schedule" || fail "clones"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
bad = []
for j, (name, n, rate) in zip(jobs, [("fast", 200, 400)] * 2 + [("slow", 100, 100)] * 2):
    r = j["read"]
    sched_ms = (n - 1) * 1000.0 / rate      # the last I/O is issued (n-1)/rate after the first
    print(j["jobname"], r["total_ios"], r["runtime"], j["job_runtime"], r["iops"])
    if j["jobname"] != name or r["total_ios"] != n:
        bad.append((name, r["total_ios"]))
    # pacing never runs ahead of the schedule; a loaded machine may run behind it
    if not sched_ms - 5 <= r["runtime"] <= sched_ms * 1.6 + 50:
        bad.append((name, "runtime", r["runtime"], sched_ms))
    if abs(r["iops"] - n * 1000.0 / r["runtime"]) > 0.02 * r["iops"]:
        bad.append((name, "iops vs runtime", r["iops"]))
if not max(j["read"]["runtime"] for j in jobs[:2]) < min(j["read"]["runtime"] for j in jobs[2:]):
    bad.append("fast clones not shorter than slow ones")
print(bad)
sys.exit(1 if bad else 0)
PY

# clones of ONE job with different amounts of work: offset_increment=512k on a 1 MiB file
# gives clone 0 [0, 1M) = 256 reads and clone 1 [512k, 1M) = 128 reads (fio 3.33 does
# the same: 256 and 128), both paced at 200/s: 1275 ms and 635 ms by the schedule
dd if=/dev/urandom of=oi.dat bs=1M count=1 status=none
printf '[oi]\nfilename=%s\nioengine=psync\nrw=read\nbs=4k\nnumjobs=2\noffset_increment=512k\nrate_iops=200\n' \
  "$WORK/oi.dat" >oi.fio
"$IOMARK" run oi.fio --quiet --output-format=json --output=oi.json 2>err.txt || fail "oi.fio: $(head -c 300 err.txt)"
$PY - oi.json <<'PY' && pass "clones of one job: each its own runtime and IOPS (offset_increment)" || fail "clones of one job"
import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
bad = []
for j, n in zip(jobs, (256, 128)):
    r = j["read"]
    sched_ms = (n - 1) * 1000.0 / 200
    print(r["total_ios"], r["runtime"], r["iops"])
    if r["total_ios"] != n or not sched_ms - 5 <= r["runtime"] <= sched_ms * 1.6 + 50:
        bad.append((n, r["total_ios"], r["runtime"]))
    if not 150 <= r["iops"] <= 210:   # paced at 200/s: never above, a loaded machine below
        bad.append((n, "iops", r["iops"]))
print(bad)
sys.exit(1 if bad or len(jobs) != 2 else 0)
PY

# 5. a job file with every option of issue 18 runs without --ignore-unknown; skipped
#    options (with --ignore-unknown) are listed as skipped, not under the options
cat >all.fio <<JOB
[global]
filename=$WORK/data
size=1m
bs=4k
ioengine=psync
rw=randread
invalidate=1
random_generator=tausworthe64
percentile_list=50:99:99.9
write_bw_log=all
write_lat_log=all
write_iops_log=all
log_avg_msec=1000
log_offset=1
[all]
JOB
"$IOMARK" run all.fio --quiet --output-format=json+ --output=all.json 2>err.txt &&
  [ -s all_bw.1.log ] && [ -s all_clat.1.log ] && pass "every option of issue 18 runs without --ignore-unknown" ||
  fail "all.fio: $(head -c 300 err.txt)"
printf 'cgroup=iomarktest\n' >>all.fio
"$IOMARK" run all.fio --quiet --ignore-unknown --output-format=json --output=skip.json --exec_prerun=x 2>err.txt ||
  fail "skip run: $(head -c 300 err.txt)"
$PY - skip.json <<'PY' && pass "skipped options only under iomark.ignored_options" || fail "skipped options"
import json, sys
d = json.load(open(sys.argv[1]))
opts = dict(d.get("global options", {})); opts.update(d["jobs"][0].get("job options", {}))  # fio leaves out an empty one
ig = " ".join(d["iomark"]["ignored_options"])
print(opts.keys(), ig)
sys.exit(0 if "cgroup" not in opts and "exec_prerun" not in opts
         and "cgroup" in ig and "exec_prerun" in ig and "percentile_list" in opts else 1)
PY

# 6. the job file fio-plot's bench_fio writes runs as it is; its logs land where bench_fio
#    and fio-plot look for them (OUTPUT/MODE-iodepth-D-numjobs-N_kind.1.log)
mkdir -p out/y
dd if=/dev/urandom of=bench.dat bs=1M count=32 status=none
BENCH_FILE=$WORK/bench.dat "$IOMARK" run "$SRCDIR/tests/data/jobs/bench_fio_randread.fio" --runtime=1 \
  --quiet --output-format=json --output=out/y/randread-1-1.json 2>err.txt ||
  fail "bench_fio job: $(head -c 300 err.txt)"
[ -s out/y/randread-iodepth-1-numjobs-1_bw.1.log ] && [ -s out/y/randread-iodepth-1-numjobs-1_lat.1.log ] &&
  [ -s out/y/randread-iodepth-1-numjobs-1_iops.1.log ] && pass "bench_fio's job runs; logs where fio-plot reads them" ||
  fail "bench_fio logs: $(ls out/y)"
finish
