#!/bin/bash
# test_fio_trial_fixes.sh - fio job-file front end, a new user's trial findings:
# a --filename-map that matches nothing, a mistyped job file name, a log folder
# that does not exist, --output-format values, notes on stderr, --output under
# an MPI launcher, "did you mean" for a misspelt override, percentile labels
# and per= as fio 3.33 prints them. Expected values are read from the inputs
# by hand or taken from fio's own output on the same job (when fio is there).
. "$(dirname "$0")/lib.sh"

cd "$WORK"
cat >m.fio <<JOB
[j]
filename=real.dat
rw=write
bs=4k
size=1m
JOB
files() { find . -mindepth 1 -not -name '*.fio' -not -name out -not -name err | sort | tr '\n' ' '; }

# 1. a FROM that names no file of the job: refused, real.dat not written
expect_status 2 "--filename-map matching nothing" -- "$IOMARK" run m.fio --filename-map=reel.dat=/x/safe.dat
expect_err_has "--filename-map=reel.dat=/x/safe.dat: reel.dat is no file of the job file; its files: real.dat"
[ -z "$(files)" ] && pass "unmatched map: nothing created" || fail "unmatched map created: $(files)"
# a map that matches still runs on TO (and never on FROM)
expect_status 0 "--filename-map matching" -- "$IOMARK" run m.fio --quiet --filename-map=real.dat=safe.dat
[ "$(files)" = "./safe.dat " ] && pass "matched map: only safe.dat created" || fail "matched map: $(files)"
rm -f safe.dat

# 5. a mistyped job file name is not a target to create
expect_status 2 "missing jbo.fio" -- "$IOMARK" run --size=16m --runtime=1s jbo.fio
expect_err_has "jbo.fio: job file not found"
expect_status 2 "missing job.ini" -- "$IOMARK" run --size=16m job.ini
expect_err_has "job.ini: job file not found"
[ -z "$(files)" ] && pass "missing job file: nothing created" || fail "missing job file created: $(files)"
# a .fio file of exactly 16 MiB (16777216 bytes, written here) is not "larger than 16 MiB"
head -c 16777216 /dev/zero >big.fio
expect_status 2 "16 MiB .fio file" -- "$IOMARK" run big.fio
expect_err_has "big.fio: 16 MiB or larger; not a job file"
rm -f big.fio

# 6. a log in a folder that does not exist: refused before anything is created
expect_status 2 "write_bw_log in a missing folder" -- "$IOMARK" run m.fio --write_bw_log="$WORK/nodir/x"
expect_err_has "write_bw_log=$WORK/nodir/x: the log folder $WORK/nodir: No such file or directory"
[ -z "$(files)" ] && pass "missing log folder: nothing created" || fail "missing log folder created: $(files)"

# 8. --output-format: job files take normal, json, json+; native run says json+ is job-file only
expect_status 2 "job file --output-format=xml" -- "$IOMARK" run --output-format=xml m.fio
expect_err_has "--output-format=xml: allowed: normal, json, json+"
expect_status 2 "native --output-format=json+" -- "$IOMARK" run --output-format=json+ --size=1m x.dat
expect_err_has "is for fio job files"
[ -z "$(files)" ] && pass "bad --output-format: nothing created" || fail "bad format created: $(files)"

# 15. a misspelt override: did you mean
expect_status 2 "--runtme=1 with a job file" -- "$IOMARK" run --runtme=1 m.fio
expect_err_has "command line: --runtme=1 (did you mean --runtime?)"

# 12. the buffered note: on stderr, and in the --output document (text and JSON)
rc=0
"$IOMARK" run m.fio --output=rep.txt >out 2>err || rc=$?
if [ "$rc" = 0 ] && grep -qF "note: [j] buffered I/O through the page cache" err &&
   grep -qF "[j] buffered I/O through the page cache" rep.txt; then
  pass "buffered note on stderr and in the text report"
else
  fail "buffered note: rc=$rc stderr: $(cat err)"
fi
"$IOMARK" run m.fio --output-format=json --output=rep.json >out 2>err || rc=$?
if grep -qF "note: [j] buffered I/O" err && $PY -c '
import json,sys; n=json.load(open("rep.json"))["iomark"]["notes"]
sys.exit(0 if any("buffered I/O" in x for x in n) else 1)'; then
  pass "buffered note on stderr and in the JSON's iomark.notes"
else
  fail "buffered note (JSON): $(cat err)"
fi
"$IOMARK" run m.fio --quiet --output=rep.txt >out 2>err || true
[ ! -s err ] && pass "--quiet: no note on stderr" || fail "--quiet stderr: $(cat err)"
rm -f rep.txt rep.json real.dat

# 13. under an MPI launcher (the launcher's environment, as Open MPI sets it)
rc=0
OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$IOMARK" run m.fio --output=mj.json >out 2>err || rc=$?
[ "$rc" = 2 ] && pass "MPI: --output without %r refused (exit 2)" || fail "MPI without %r: rc=$rc"
expect_err_has "put %r (the rank) in the name"
[ -z "$(files)" ] && pass "MPI refusal: nothing created" || fail "MPI refusal created: $(files)"
rc=0
OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$IOMARK" run m.fio --quiet --output=mj.%r.txt >out 2>err || rc=$?
[ "$rc" = 0 ] && [ -s mj.1.txt ] && pass "MPI: --output=mj.%r.txt written as mj.1.txt (rank 1)" ||
  fail "MPI with %r: rc=$rc, files $(files)"
rm -f mj.1.txt real.dat
# the same under a real launcher: two ranks, one report each
if command -v mpirun >/dev/null; then
  rc=0
  timeout 120 mpirun --allow-run-as-root --oversubscribe -np 2 "$IOMARK" run m.fio --quiet \
    --output-format=json --output=mj.%r.json >out 2>err || rc=$?
  if [ "$rc" = 0 ] && $PY -c 'import json; [json.load(open("mj.%d.json" % r))["jobs"][0] for r in (0, 1)]'; then
    pass "mpirun -np 2: mj.0.json and mj.1.json, each a fio JSON document"
  else
    fail "mpirun -np 2 with %r: rc=$rc $(head -c 300 err)"
  fi
  rm -f mj.0.json mj.1.json real.dat
fi

# 16a. percentile labels: as fio 3.33 prints the same percentile_list
cat >p.fio <<JOB
[p]
ioengine=null
size=1m
bs=4k
rw=read
JOB
labels() { grep -A3 'clat percentiles' | grep -oE '[0-9.]+th=' | tr '\n' ' '; }
for L in 99.9:50:1 50:90 99.995:50 99.9:50.25:1; do
  case $L in # read by hand from fio 3.33's output of this job (fio --percentile_list=...)
    99.9:50:1) want="1.0th= 50.0th= 99.9th= " ;;
    50:90) want="50th= 90th= " ;;
    99.995:50) want="50.000th= 99.995th= " ;;
    99.9:50.25:1) want="1.00th= 50.25th= 99.90th= " ;;
  esac
  got=$("$IOMARK" run p.fio --quiet --percentile_list=$L | labels)
  [ "$got" = "$want" ] && pass "percentile_list=$L: $got" || fail "percentile_list=$L: '$got', fio prints '$want'"
  if command -v fio >/dev/null; then
    f=$(fio --output-format=normal p.fio --percentile_list=$L 2>/dev/null | labels)
    [ "$f" = "$got" ] && pass "percentile_list=$L: the same labels as fio" || fail "percentile_list=$L: fio '$f', iomark '$got'"
  fi
done

# 16b. per= / bw_agg: fio's convert_agg_kbytes_percent, min(100, int(bw_mean) * 100 / (agg / 1024))
cat >b.fio <<JOB
[b]
filename=b.dat
size=4m
bs=64k
rw=read
time_based=1
runtime=3
JOB
"$IOMARK" run b.fio --quiet --output-format=json --output=b.json >out 2>err || fail "b.fio: $(cat err)"
if $PY - b.json <<'PY'; then pass "bw_agg: min(100, int(bw_mean)*100/(bw_bytes/1024)) of one job"; else fail "bw_agg"; fi
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]["read"]
assert j["bw_samples"] >= 2, j["bw_samples"]
want = min(100.0, int(j["bw_mean"]) * 100.0 / (j["bw_bytes"] / 1024.0))
print("bw_agg", j["bw_agg"], "want", want)
sys.exit(0 if abs(j["bw_agg"] - want) < 1e-6 else 1)
PY
"$IOMARK" run b.fio --quiet >b.txt 2>err || fail "b.fio text"
per=$(grep -oE 'per=[0-9.]+%' b.txt | sed -n 1p | tr -dc '0-9.')
$PY -c "import sys; sys.exit(0 if 0 < float('$per') <= 100 else 1)" && pass "per=$per% is at most 100%" || fail "per=$per%"
finish
