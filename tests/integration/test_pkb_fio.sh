#!/bin/bash
# test_pkb_fio.sh - issue 18: PerfKitBenchmarker's fio benchmark against iomark:
# its job template (tests/data/jobs/pkb_fio_template.fio) with its command line
# (--random_generator, --directory, the log flags) runs without
# --ignore-unknown, and PKB's own ParseResults (tests/data/pkb/fio_parsers.py,
# copied unchanged) reads the JSON: every percentile it asks for is there.
. "$(dirname "$0")/lib.sh"
cd "$WORK"
mkdir d
dd if=/dev/urandom of=d/fio_test_file bs=1M count=16 status=none
JOB="$SRCDIR/tests/data/jobs/pkb_fio_template.fio"
"$IOMARK" run --output-format=json --random_generator=tausworthe64 --directory="$WORK/d" \
  --write_bw_log=pkb --write_lat_log=pkb --write_iops_log=pkb --log_avg_msec=1000 \
  --output=r.json --quiet "$JOB" 2>err.txt && pass "PKB's job file and flags run without --ignore-unknown" ||
  fail "PKB job: $(head -c 400 err.txt)"
ls pkb_*.log | sort | tr '\n' ' ' >logs.txt
# fio's names: clones 1, 2 of the first job, 3 of the second (group_reporting does not merge logs)
[ "$(cat logs.txt)" = "pkb_bw.1.log pkb_bw.2.log pkb_bw.3.log pkb_clat.1.log pkb_clat.2.log pkb_clat.3.log pkb_iops.1.log pkb_iops.2.log pkb_iops.3.log pkb_lat.1.log pkb_lat.2.log pkb_lat.3.log pkb_slat.1.log pkb_slat.2.log pkb_slat.3.log " ] &&
  pass "log files per clone" || fail "log files: $(cat logs.txt)"
$PY - "$JOB" r.json "$SRCDIR/tests/data/pkb" <<'PY' && pass "PKB's ParseResults reads iomark's JSON" || fail "PKB ParseResults"
import json, sys
sys.path.insert(0, sys.argv[3])
import fio_parsers as pkb
doc = json.load(open(sys.argv[2]))
samples = pkb.ParseResults(open(sys.argv[1]).read(), doc)
by = {s.metric: s for s in samples}
bad = []
for job, mode in (("rand_8k_read_100%-io-depth-2-num-jobs-2", "read"),
                  ("seq_64k_write_100%-io-depth-1-num-jobs-1", "write")):
    j = next(x for x in doc["jobs"] if x["jobname"] == job)
    m = "%s:%s" % (job, mode)
    if by[m + ":bandwidth"].value != j[mode]["bw"] or j[mode]["bw"] <= 0:
        bad.append((m, "bw"))
    if by[m + ":iops"].value != j[mode]["iops"]:
        bad.append((m, "iops"))
    if by[m + ":latency:p25"].value != j[mode]["clat_ns"]["percentile"]["25.000000"] / 1000:
        bad.append((m, "p25"))
    if by[m + ":latency"].metadata.get("numjobs") != ("2" if "num-jobs-2" in job else "1"):
        bad.append((m, "metadata from the job file"))
print(len(samples), "samples", bad)
sys.exit(1 if bad or len(samples) != 2 * 26 else 0)
PY
finish
