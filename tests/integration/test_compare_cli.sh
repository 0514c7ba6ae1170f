#!/usr/bin/env bash
# iomark compare on the real result files of tests/data/results:
# formats, grouping of repeated runs, Welch's test, refusals, output formats.
source "$(dirname "$0")/lib.sh"
R=$SRCDIR/tests/data/results
[ -d "$R" ] || { echo "FAIL: $R not found (part of the repository)"; exit 1; }

# every real result file (but the empty and the failed one) imports
for f in diskspd_text_1.txt diskspd_text_2.txt diskspd_xml_1.xml diskspd_xml_3.xml fio_json_1.json \
         fio_json_3.json fio_json_5.json fio_json_7.json fio_jsonplus_1.json fio_text_1.txt \
         crystaldiskmark_text_1.txt kdiskmark_text_1.txt; do
  expect_status 0 "compare reads $f" -- "$IOMARK" compare "$R/$f"
done

# refusals: by name, with the reason, one line, exit 2
expect_status 2 "empty file refused" -- "$IOMARK" compare "$R/fio_json_13_empty.json" "$R/fio_json_5.json"
expect_err_has "fio_json_13_empty.json: empty file (0 bytes)"
expect_status 2 "failed fio job refused" -- "$IOMARK" compare "$R/fio_json_9_einval.json"
expect_err_has "error=22"
expect_status 2 "a source file is not a result" -- "$IOMARK" compare "$SRCDIR/README.md"
expect_err_has "not a result file of a known format"
expect_status 2 "missing file" -- "$IOMARK" compare "$WORK/none.json"
expect_err_has "none.json: No such file"
expect_status 2 "bad format" -- "$IOMARK" compare --output-format=html "$R/fio_json_5.json"
expect_err_has "--output-format=html: allowed: normal, markdown, json"
expect_status 2 "bad alpha" -- "$IOMARK" compare --alpha=2 "$R/fio_json_5.json"
expect_err_has "--alpha=2"
expect_status 2 "no input" -- "$IOMARK" compare

# one run a side: how to get repeated runs, by the inputs' kind: iomark run's
# --repeat; fio's files pooled per side (text and Markdown; the text's note
# is wrapped at 80 columns, so it is read as one line)
for k in 1 2; do
  "$IOMARK" run --ioengine=null --runtime=200ms --size=1M --quiet --output-format=json --output=$WORK/n$k.json $WORK/n.dat >/dev/null 2>&1 || fail "null run $k"
done
expect_status 0 "compare two single runs" -- "$IOMARK" compare $WORK/n1.json $WORK/n2.json
tr '\n' ' ' <$WORK/out | grep -q "(repeat runs, e.g. --repeat=3, on both sides, for Welch's t-test)" && pass "iomark runs: --repeat=3" || fail "run note: $(cat $WORK/out | head -8)"
expect_status 0 "compare two fio results (Markdown)" -- "$IOMARK" compare --output-format=markdown "$R/fio_json_1.json" "$R/fio_json_3.json"
grep -q "(3 runs per side, each side's files given as one input: \`NAME=a.json,b.json,c.json\`, for Welch's t-test)" $WORK/out \
  && pass "fio results: pool files (Markdown)" || fail "fio note: $(grep -i 'verdict' $WORK/out)"

# CrystalDiskMark vs KDiskMark: rows matched by test name, change texts
expect_status 0 "cdm vs kdiskmark" -- "$IOMARK" compare "$R/crystaldiskmark_text_1.txt" "$R/kdiskmark_text_1.txt"
# SEQ1M Q8T1 read: 509.6 -> 529.8 IOPS is +3.96%; latency 15662.75 -> 14415.61 us is 7.96% lower
grep -q "+4.0% IOPS" $WORK/out && grep -q "8.0% lower latency" $WORK/out && pass "change texts" || fail "change texts: $(head -20 $WORK/out)"
# one run per side: no test to explain, the changes carry no verdict; one input: no changes at all
! grep -q "t-test (two-sided" $WORK/out && grep -q "without a" $WORK/out && ! grep -q "significant\|within noise" $WORK/out \
  && pass "single runs: no test explained, no verdict" || fail "single runs: $(head -12 $WORK/out)"
! grep -q "Values: mean" $WORK/out && pass "single runs: no legend of spreads nobody shows" || fail "legend: $(head -8 $WORK/out)"
# repeats on one side only (fio_text_1.txt: 5 runs; DiskSpd: 1): the note names the short side
expect_status 0 "5 runs vs 1" -- "$IOMARK" compare "$R/fio_text_1.txt" "$R/diskspd_text_1.txt"
tr '\n' ' ' <$WORK/out | grep -q "needs 2+ runs on both sides of a change, and diskspd_text_1.txt has one run" \
  && grep -q "Values: mean ±relative stddev" $WORK/out && ! grep -q "one run per side" $WORK/out \
  && pass "one side repeated: the input with one run named, the legend shown" || fail "5 vs 1: $(head -10 $WORK/out)"
expect_status 0 "5 runs vs 1, Markdown" -- "$IOMARK" compare --output-format=markdown "$R/fio_text_1.txt" "$R/diskspd_text_1.txt"
grep -q "and \`diskspd_text_1.txt\` has one run" $WORK/out && grep -q "^Values: mean ± relative stddev (n runs)" $WORK/out \
  && pass "Markdown: the same note, the legend shown" || fail "5 vs 1 Markdown: $(head -10 $WORK/out)"
expect_status 0 "one input" -- "$IOMARK" compare "$R/crystaldiskmark_text_1.txt"
! grep -q "Welch\|Changes are" $WORK/out && pass "one input: no text on changes" || fail "one input: $(head -8 $WORK/out)"

# repeats: the fio log holds 5 runs at 999 IOPS; two of its copies pooled as runs of one input
cp "$R/fio_json_3.json" $WORK/b1.json
expect_status 0 "json output, grouped input" -- "$IOMARK" compare --output-format=json "base=$R/fio_text_1.txt" "other=$R/fio_json_3.json,$WORK/b1.json"
$PY - $WORK/out <<'PY' && pass "compare JSON" || fail "compare JSON: $(head -c 600 $WORK/out)"
import json, sys, math
d = json.load(open(sys.argv[1]))
assert d["schema"] == "iomark-result" and d["type"] == "compare"
assert [i["label"] for i in d["inputs"]] == ["base", "other"]
assert len(d["inputs"][1]["files"]) == 2
w = d["workloads"][0]
m = {x["key"]: x for x in w["metrics"]}
v = m["iops"]["values"]
assert v[0]["n"] == 5 and v[0]["mean"] == 999 and v[1]["n"] == 2
# 73.182907 vs 999: (73.182907 - 999) / 999
ch = m["iops"]["changes"][0]
assert abs(ch["improvement_pct"] - (73.182907 - 999) / 999 * 100) < 1e-9
assert ch["welch"]["p"] == 0 and ch["welch"]["significant"]   # no spread on either side
lat = m["lat_mean_us"]["changes"][0]
assert lat["text"].endswith("lower latency") and m["lat_mean_us"]["better"] == "lower"
PY

# Welch on real spread: the five fio runs against themselves minus one are not different
expect_status 0 "markdown" -- "$IOMARK" compare --output-format=markdown "$R/fio_text_1.txt" "$R/fio_text_1.txt"
grep -q "^### randread" $WORK/out && grep -q "within noise" $WORK/out && grep -q "Welch's two-sided t-test" $WORK/out && pass "markdown, same runs within noise" || fail "markdown: $(cat $WORK/out)"
expect_status 0 "text to file" -- "$IOMARK" compare -o $WORK/c.txt "$R/diskspd_text_1.txt" "$R/diskspd_text_2.txt"
# 219.04 -> 403.66 IOPS: +84.3%
grep -q "+84.3% IOPS" $WORK/c.txt && pass "diskspd text compare" || fail "diskspd compare: $(cat $WORK/c.txt)"

# iomark mark names its tests like CrystalDiskMark: rows match, each_run are repeats
cd $WORK
expect_status 0 "mark, 2 runs" -- "$IOMARK" mark --runs=2 --runtime=300ms --pause=0 --size=16M --quiet --output-format=json --output=$WORK/m.json
expect_status 0 "mark vs CrystalDiskMark" -- "$IOMARK" compare --output-format=json "cdm=$R/crystaldiskmark_text_1.txt" "iomark=$WORK/m.json"
$PY - $WORK/out <<'PY' && pass "mark rows matched by name, 2 runs each" || fail "mark compare: $(head -c 400 $WORK/out)"
import json, sys
d = json.load(open(sys.argv[1]))
w = {x["name"]: {m["key"]: m for m in x["metrics"]} for x in d["workloads"]}
for name in ("SEQ1M Q8T1 read", "SEQ1M Q1T1 write", "RND4K Q32T1 read", "RND4K Q1T1 write"):
    v = w[name]["iops"]["values"]
    assert v[0]["n"] == 1 and v[1]["n"] == 2, (name, v)
# CrystalDiskMark's own figure, read by hand: SEQ1M Q8T1 read 534.383 MB/s
assert w["SEQ1M Q8T1 read"]["mb_per_s"]["values"][0]["mean"] == 534.383
PY
# row order as CrystalDiskMark's text export ([Read], then [Write]) and mark's
# run order: every read, then every write, each in the profile's order
# (docs/mark.md's profile table); a second mark of the nvme profile adds its
# other tests to the reads and to the writes, not reads after the writes
expect_status 0 "mark --profile=nvme, 1 run" -- "$IOMARK" mark --profile=nvme --runs=1 --runtime=200ms --prepare=0 --pause=0 --size=16M --quiet --output-format=json --output=$WORK/nvme.json
for args in "$WORK/m.json" "$WORK/m.json $WORK/m.json" "$R/crystaldiskmark_text_1.txt $WORK/m.json" "$WORK/m.json $WORK/nvme.json"; do
  # shellcheck disable=SC2086
  expect_status 0 "compare $args" -- "$IOMARK" compare --output-format=json $args
  $PY - $WORK/out "$args" <<'PY' && pass "rows: reads, then writes ($(basename "${args// */}") ...)" || fail "row order for $args: $(grep -o '"name": "[^"]*"' $WORK/out | tr '\n' ' ')"
import json, sys
got = [w["name"] for w in json.load(open(sys.argv[1]))["workloads"]]
tests = ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
if "nvme" in sys.argv[2]:
    tests += ["SEQ128K Q32T1", "RND4K Q32T16"]
want = [t + " read" for t in tests] + [t + " write" for t in tests]
print(got)
assert got == want, (got, want)
PY
done
expect_status 0 "mark text compare, two profiles" -- "$IOMARK" compare "$WORK/m.json" "$WORK/nvme.json"
grep "^workload: " $WORK/out | sed -n '6p;7p' | tr '\n' '|' | grep -qx "workload: RND4K Q32T16 read|workload: SEQ1M Q8T1 write|" \
  && pass "text: the last read (RND4K Q32T16, nvme's) before the first write" || fail "text order: $(grep '^workload: ' $WORK/out | tr '\n' ' ')"

# mark's table shows the best run, the comparison the mean of the runs: it says so
expect_status 0 "mark text compare" -- "$IOMARK" compare "cdm=$R/crystaldiskmark_text_1.txt" "iomark=$WORK/m.json"
grep -qF "NOTE $WORK/m.json: each test's figures here are the mean of its counted runs (with their spread); mark's own table shows the best run" $WORK/out &&
  ! grep -qF "NOTE $R/crystaldiskmark_text_1.txt" $WORK/out && pass "mark: mean-of-runs note on its input only" || fail "mark note: $(head -c 600 $WORK/out)"

# TPC-C: two real `iomark tpcc` documents (SQLite, small-scale test mode)
mkdir -p $WORK/tp
if "$IOMARK" tpcc load --db=sqlite:$WORK/tp --scale_test --quiet >/dev/null 2>&1 &&
   "$IOMARK" tpcc run --db=sqlite:$WORK/tp --scale_test --ramp_time=1 --runtime=2 --quiet --output-format=json --output=$WORK/tp1.json >/dev/null 2>&1 &&
   "$IOMARK" tpcc run --db=sqlite:$WORK/tp --scale_test --ramp_time=1 --runtime=2 --synchronous=off --quiet --output-format=json --output=$WORK/tp2.json >/dev/null 2>&1; then
  # one run a side: the note says how to get repeated runs of this kind (tpcc
  # has no --repeat: pool each side's files)
  expect_status 0 "tpcc compare (text)" -- "$IOMARK" compare "$WORK/tp1.json" "$WORK/tp2.json"
  tr '\n' ' ' <$WORK/out | grep -q "(3 runs per side, each side's files given as one input: NAME=a.json,b.json,c.json, for Welch's t-test)" \
    && ! grep -q -- "--repeat" $WORK/out && pass "tpcc: the note says to pool files, not --repeat" || fail "tpcc note: $(grep -A2 'without a' $WORK/out)"
  expect_status 0 "tpcc compare" -- "$IOMARK" compare --output-format=json "$WORK/tp1.json" "$WORK/tp2.json"
  $PY - $WORK/out $WORK/tp1.json $WORK/tp2.json <<'PY' && pass "NOPM, TPM and per-transaction rows" || fail "tpcc compare: $(head -c 600 $WORK/out)"
import json, sys
d = json.load(open(sys.argv[1]))
a, b = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
m = {x["key"]: x for x in d["workloads"][0]["metrics"]}
keys = [x["key"] for x in d["workloads"][0]["metrics"]]
assert keys[:2] == ["nopm", "tpm"], keys[:4]
assert m["nopm"]["values"][0]["mean"] == a["nopm"] and m["nopm"]["values"][1]["mean"] == b["nopm"]
assert m["nopm"]["better"] == "higher"
ch = m["nopm"]["changes"][0]["improvement_pct"]
assert abs(ch - (b["nopm"] - a["nopm"]) / a["nopm"] * 100) < 1e-9
for t in ("new_order", "payment", "delivery", "order_status", "stock_level"):
    k = "txn.%s.p95_ms" % t
    assert m[k]["better"] == "lower" and m[k]["values"][0]["mean"] == a["transactions"][t]["p95_ms"]
PY
  # a TPC-C result beside an I/O workload result is refused, in compare and
  # report alike: one line naming both files and their kinds, nothing written
  # (trial: paired "by position", warned only "threads 1 vs 2", "no change in CPU")
  ds=$R/diskspd_text_1.txt
  want="$WORK/tp1.json is a TPC-C (OLTP) result (iomark tpcc) and $ds is an I/O workload result (DiskSpd text): they measure different things and cannot be compared; give TPC-C results only, or I/O workload results only"
  for cmd in compare report; do
    rm -f $WORK/k.out
    expect_status 2 "$cmd tpcc vs DiskSpd text" -- "$IOMARK" $cmd -o $WORK/k.out "$WORK/tp1.json" "$ds"
    [ "$(cat $WORK/err)" = "iomark $cmd: $want" ] && [ ! -e $WORK/k.out ] && [ ! -s $WORK/out ] \
      && pass "$cmd: one line names both inputs and kinds, nothing written" || fail "$cmd refusal: $(cat $WORK/err)"
  done
  expect_status 2 "compare DiskSpd XML vs tpcc" -- "$IOMARK" compare "$R/diskspd_xml_3.xml" "$WORK/tp2.json"
  expect_err_has "diskspd_xml_3.xml is an I/O workload result (DiskSpd XML) and $WORK/tp2.json is a TPC-C (OLTP) result (iomark tpcc)"
  expect_status 2 "one input pooling a tpcc and a fio file" -- "$IOMARK" compare "A=$WORK/tp1.json,$R/fio_json_5.json"
  expect_err_has "$WORK/tp1.json is a TPC-C (OLTP) result (iomark tpcc) and $R/fio_json_5.json is an I/O workload result (fio JSON)"
  expect_status 0 "report tpcc vs tpcc" -- "$IOMARK" report -o $WORK/tp.html "$WORK/tp1.json" "$WORK/tp2.json"
else
  echo "note: iomark tpcc did not run here; TPC-C compare not tested"
fi
# a metric an input does not have is "-", never 0 (docs/compare.md): a
# randread run document has no write IOPS, so no "-100%" against it
cat >$WORK/mix.json <<'J'
{"schema": "iomark-result", "type": "run", "status": "ok",
 "spec": {"name": "job", "rw": "randrw", "rwmixread_pct": 50, "runtime_s": 2, "targets": ["t.dat"]},
 "duration": {"measured_s": 2},
 "total": {"read": {"ios": 12000, "iops": 6000, "mb_per_s": 24.576, "mib_per_s": 23.4375},
           "write": {"ios": 12000, "iops": 6000, "mb_per_s": 24.576, "mib_per_s": 23.4375},
           "total": {"ios": 24000, "iops": 12000, "mb_per_s": 49.152, "mib_per_s": 46.875}}}
J
cat >$WORK/rd.json <<'J'
{"schema": "iomark-result", "type": "run", "status": "ok",
 "spec": {"name": "job", "rw": "randread", "rwmixread_pct": 100, "runtime_s": 2, "targets": ["t.dat"]},
 "duration": {"measured_s": 2},
 "total": {"read": {"ios": 28000, "iops": 14000, "mb_per_s": 57.344, "mib_per_s": 54.6875},
           "write": {"ios": 0, "iops": 0, "mb_per_s": 0, "mib_per_s": 0},
           "total": {"ios": 28000, "iops": 14000, "mb_per_s": 57.344, "mib_per_s": 54.6875}}}
J
expect_status 0 "compare randrw with randread" -- "$IOMARK" compare $WORK/mix.json $WORK/rd.json
grep -E '^write IOPS \(IO/s\) +6000 +- *$' $WORK/out >/dev/null && pass "randread write IOPS is -" \
  || fail "randread write IOPS: $(grep '^write IOPS' $WORK/out)"
grep -qF -- "-100" $WORK/out && fail "a -100% against a missing value: $(grep -F -- -100 $WORK/out)" || pass "no -100%"
grep -E '^read IOPS \(IO/s\) +6000 +14000 +\+133\.3% read IOPS' $WORK/out >/dev/null && pass "read IOPS +133.3% (14000/6000)" \
  || fail "read IOPS: $(grep '^read IOPS' $WORK/out)"
expect_status 0 "compare randrw with randread, JSON" -- "$IOMARK" compare --output-format=json -o $WORK/mr.json $WORK/mix.json $WORK/rd.json
grep -qF -- "-100" $WORK/mr.json && fail "JSON has a -100" || pass "JSON has no -100"
# the same for DiskSpd text of a read-only run ("performing read test", -w0)
"$IOMARK" diskspd -b4K -r -w0 -d1 -W0 -c16M $WORK/dro.dat >$WORK/dro.txt
grep -q "performing read test" $WORK/dro.txt || fail "fixture: not a read test"
expect_status 0 "compare randrw with a read-only DiskSpd text" -- "$IOMARK" compare $WORK/mix.json $WORK/dro.txt
grep -E '^write IOPS \(IO/s\) +6000 +- *$' $WORK/out >/dev/null && pass "DiskSpd read-only write IOPS is -" \
  || fail "DiskSpd read-only write IOPS: $(grep '^write IOPS' $WORK/out)"
grep -qF -- "-100" $WORK/out && fail "DiskSpd: a -100% against a missing value" || pass "DiskSpd: no -100%"
# pairs of different workloads (block size, queue depth, rw): one warning line
# per pair naming the fields, on stderr; the same workload twice: none
"$IOMARK" run --ioengine=null --runtime=200ms --size=16M --bs=8k --iodepth=4 --output-format=json --output=$WORK/w8k.json --quiet $WORK/w.dat
"$IOMARK" run --ioengine=null --runtime=200ms --size=16M --output-format=json --output=$WORK/w4k.json --quiet $WORK/w.dat
"$IOMARK" run --ioengine=null --runtime=200ms --size=16M --output-format=json --output=$WORK/w4k2.json --quiet $WORK/w.dat
expect_status 0 "compare 8k QD4 with 4k QD1" -- "$IOMARK" compare $WORK/w8k.json $WORK/w4k.json
[ "$(wc -l <$WORK/err)" = 1 ] && grep -qF "warning: w8k.json vs w4k.json (workload job) differ: bs 8192 vs 4096 B, iodepth 4 vs 1" $WORK/err \
  && pass "one warning naming bs and iodepth" || fail "mismatch warning: $(cat $WORK/err)"
expect_status 0 "compare the same workload" -- "$IOMARK" compare $WORK/w4k.json $WORK/w4k2.json
[ ! -s $WORK/err ] && pass "no warning for the same workload" || fail "warned: $(cat $WORK/err)"
if command -v fio >/dev/null; then
  fio --name=job --ioengine=null --size=16M --bs=4k --rw=randwrite --iodepth=1 --runtime=200ms --time_based \
    --output-format=json --output=$WORK/fw.json >/dev/null 2>&1
  expect_status 0 "compare with fio randwrite" -- "$IOMARK" compare $WORK/w4k.json $WORK/fw.json
  [ "$(wc -l <$WORK/err)" = 1 ] && grep -qF "differ: rw randread vs randwrite" $WORK/err && ! grep -q "bs \|iodepth " $WORK/err \
    && pass "fio pair: rw named, bs and iodepth (same) not" || fail "fio mismatch warning: $(cat $WORK/err)"
fi
finish
