#!/bin/bash
# test_fio_json_keys.sh - top-level and per-job JSON keys a script written for
# fio reads, against fio 3.33's JSON of the same job file:
#  - timestamp/timestamp_ms/time: the clock at output (stat.c __show_run_stats
#    gettimeofday): real milliseconds, within the command's wall-clock span,
#    timestamp = timestamp_ms / 1000;
#  - "global options" and "job options": left out when empty (json_add_job_opts);
#  - elapsed: ms since the jobs began rounded up, (ms + 999) / 1000 (eta.c):
#    a sub-second job 1, ramp_time=1 + runtime=2 at least 3 (4 once the jobs'
#    set-up and the report take a millisecond: iomark gave 3 once under load),
#    each within 1 of fio's and at most the command's wall time; the job's
#    start (job_start) to the report (timestamp_ms) at least the 3000 ms run;
#  - ctx, majf, minf: the job threads' rusage (getrusage RUSAGE_THREAD), whole
#    numbers; context switches per I/O of a buffered randread after the cache
#    was dropped within a factor 3 of fio's;
#  - iodepth_level/iodepth_submit/iodepth_complete: fio's keys in fio's order,
#    each summing to 100 %; psync's values equal fio's;
#  - disk_util (root, a loop device): fio's name and keys, read_ios the job's reads.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
both() { # NAME JOBTEXT: NAME.fio.json, NAME.iom.json; each run's wall span in NAME.span
  printf '%b\n' "$2" >"$1.fio"
  rm -f k.dat
  local a b c d
  a=$(date +%s%3N)
  fio "$1.fio" --output-format=json --output="$1.fio.json" >/dev/null 2>fio.err || { fail "$1: fio failed: $(head -c 200 fio.err)"; return 1; }
  b=$(date +%s%3N)
  rm -f k.dat
  c=$(date +%s%3N)
  "$IOMARK" run "$1.fio" --quiet --output-format=json --output="$1.iom.json" 2>iom.err || { fail "$1: iomark failed: $(head -c 200 iom.err)"; return 1; }
  d=$(date +%s%3N)
  echo "$a $b $c $d" >"$1.span"
}
judge() { # NAME PYTHON-CHECKS (f, i: the documents; fj, ij: first jobs; span)
  $PY - "$1" "$2" <<'PYEOF'
import json, sys
name, code = sys.argv[1], sys.argv[2]
f = json.load(open(name + ".fio.json")); i = json.load(open(name + ".iom.json"))
fj, ij = f["jobs"][0], i["jobs"][0]
span = list(map(int, open(name + ".span").read().split()))
ok = True
def want(cond, what):
    global ok
    print(("ok  " if cond else "BAD ") + what)
    ok = ok and bool(cond)
exec(code)
sys.exit(0 if ok else 1)
PYEOF
}
J="filename=$WORK/k.dat\nsize=1m\nbs=4k"
if both noglobal "[j]\n$J\nrw=read"; then
  judge noglobal '
want("global options" not in f and "global options" not in i, "no [global]: no \"global options\" (fio too: %s)" % ("global options" in f))
want("job options" in fj and "job options" in ij, "\"job options\" in both")
for d, lo, hi, who in ((f, span[0], span[1], "fio"), (i, span[2], span[3], "iomark")):
    want(lo <= d["timestamp_ms"] <= hi and d["timestamp"] == d["timestamp_ms"] // 1000,
         "%s timestamp_ms %d within its run %d..%d, timestamp %d" % (who, d["timestamp_ms"], lo, hi, d["timestamp"]))
want(fj["elapsed"] == 1 and ij["elapsed"] == 1, "sub-second job: elapsed fio %d, iomark %d (1)" % (fj["elapsed"], ij["elapsed"]))
' && pass "noglobal" || fail "noglobal"
fi
if both globalonly "[global]\n$J\nrw=randread\nruntime=2\nramp_time=1\ntime_based\ninvalidate=1\n[j]"; then
  judge globalonly '
want(f.get("global options") is not None and sorted(f["global options"]) == sorted(i.get("global options", {})),
     "\"global options\" keys as fio: %s" % sorted(i.get("global options", {})))
want("job options" not in fj and "job options" not in ij, "empty [j]: no \"job options\" (fio: %s)" % ("job options" in fj))
ims = i["timestamp_ms"] - ij["job_start"]
want(fj["elapsed"] >= 3 and ij["elapsed"] >= 3 and abs(fj["elapsed"] - ij["elapsed"]) <= 1 and
     ims >= 3000 and ij["elapsed"] <= (span[3] - span[2] + 999) // 1000,
     "ramp 1 s + runtime 2 s: elapsed fio %d, iomark %d (>= 3, within 1, at most the command wall time %d ms); "
     "iomark job_start to report %d ms (>= 3000)" % (fj["elapsed"], ij["elapsed"], span[3] - span[2], ims))
for k in ("ctx", "majf", "minf"):
    want(isinstance(ij.get(k), int) and ij[k] >= 0 and k in fj, "%s: fio %s, iomark %s" % (k, fj.get(k), ij.get(k)))
fr = fj["ctx"] / max(fj["read"]["total_ios"], 1); ir = ij["ctx"] / max(ij["read"]["total_ios"], 1)
want(fr / 3 <= ir <= fr * 3 + 0.05, "context switches per I/O: fio %.3f, iomark %.3f" % (fr, ir))
' && pass "globalonly" || fail "globalonly"
fi
# iodepth_level/submit/complete: fio's keys; psync (no commit: a submission and a
# completion of 1 per I/O at depth 1) all in "1", "4", "4" as fio; libaio at iodepth=8
# the same keys, each distribution summing to 100 %
for e in "psync 1" "libaio 8"; do
  set -- $e
  if both "depth$1" "[j]\n$J\nioengine=$1\niodepth=$2\nrw=randread\ndirect=1"; then
    judge "depth$1" '
eng = name[5:]
for k in ("iodepth_level", "iodepth_submit", "iodepth_complete"):
    fd, idd = fj.get(k, {}), ij.get(k, {})
    want(list(fd) == list(idd), "%s %s keys as fio: %s" % (eng, k, list(idd)))
    want(abs(sum(idd.values()) - 100) < 0.01, "%s %s sums to 100: %s" % (eng, k, idd))
    if eng == "psync":
        want(idd == fd, "psync %s as fio: %s" % (k, {a: b for a, b in idd.items() if b}))
' && pass "depth $1" || fail "depth $1"
  fi
done
# disk_util: a job on a loop device of its own: the same entry name and keys as
# fio's; read_ios (the device's own counter, /proc/diskstats) equals the job's
# reads (direct 4 KiB random reads: one request each, nothing else uses the
# device), or one more: the counter is the device's, and a read in flight when
# the runtime ends completes there after the window closes (282 for 281, once)
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && losetup -f >/dev/null 2>&1; then
  head -c 33554432 /dev/zero >lp.img
  new_loop "$WORK/lp.img"
  if both disk "[j]\nfilename=$LOOP_DEV\nrw=randread\nbs=4k\nsize=1m\ndirect=1\ntime_based\nruntime=1\nrate_iops=300"; then
    judge disk '
fd, idd = f.get("disk_util", [{}])[0], i.get("disk_util", [{}])[0]
want(idd.get("name") == fd.get("name"), "disk_util name %s, fio %s" % (idd.get("name"), fd.get("name")))
want(list(idd) == list(fd), "disk_util keys as fio: %s" % list(idd))
want(0 <= idd.get("read_ios", -9) - ij["read"]["total_ios"] <= 1 and idd.get("write_ios") == 0,
     "read_ios %s = the job reads %d, or one more (fio: %s of %d)" % (idd.get("read_ios"), ij["read"]["total_ios"], fd.get("read_ios"), fj["read"]["total_ios"]))
' && pass "disk_util" || fail "disk_util"
  fi
  drop_loop "$LOOP_DEV"
else
  echo "disk_util part skipped: needs root and a loop device"
fi
finish
