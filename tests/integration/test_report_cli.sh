#!/usr/bin/env bash
# iomark report on the real result files: one self-contained, well-formed
# page whose chart data are the values in the files; refusals write nothing;
# without -o a terminal stdout is refused, a piped one gets the page. Also the
# text report's '*' percentiles (not resolved by the sample count) equal max.
source "$(dirname "$0")/lib.sh"
R=$SRCDIR/tests/data/results
[ -d "$R" ] || { echo "FAIL: $R not found (part of the repository)"; exit 1; }

expect_status 0 "report of every real file" -- "$IOMARK" report -o $WORK/all.html --title="all & sundry" \
  "$R/diskspd_xml_1.xml" "$R/diskspd_xml_3.xml" "$R/diskspd_text_1.txt" "$R/diskspd_text_2.txt" \
  "$R/fio_json_1.json" "$R/fio_json_3.json" "$R/fio_json_5.json" "$R/fio_json_7.json" \
  "$R/fio_jsonplus_1.json" "$R/fio_text_1.txt" "$R/crystaldiskmark_text_1.txt" "$R/kdiskmark_text_1.txt"
$PY - $WORK/all.html <<'PY' && pass "page parses as XML, no scripts, no external references" || fail "page"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1])                      # strict XML parser (expat)
s = open(sys.argv[1], encoding="utf-8").read()
assert "<script" not in s and "src=" not in s and "href=" not in s and "@import" not in s
assert "all &amp; sundry" in s
S = "{http://www.w3.org/2000/svg}"
assert len(list(t.iter(S + "svg"))) > 10
PY

# DiskSpd XML 3 against fio JSON 7: bars and curves hold the files' values
expect_status 0 "two inputs" -- "$IOMARK" report -o $WORK/two.html "$R/diskspd_xml_3.xml" "$R/fio_json_7.json"
$PY - $WORK/two.html <<'PY' && pass "chart data match the files" || fail "chart data"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
t = ET.parse(sys.argv[1])
svgs = {e.get("id"): e for e in t.iter(S + "svg") if e.get("id")}
bars = {e.get("data-metric"): e for e in t.iter(S + "svg") if e.get("data-metric")}
# IOPS: DiskSpd 6971 I/Os in 30.00 s; fio read 25.246234 + write 26.442108
v = {r.get("data-input"): float(r.get("data-value")) for r in bars["iops"].iter(S + "rect")}
assert abs(v["0"] - 6971 / 30) < 1e-6 and abs(v["1"] - 51.688342) < 1e-6, v
# IOPS over time: the DiskSpd -D buckets, Total = 106, 222, 335, 339 in seconds 1..4
g = [x for x in svgs["iops-time-0"].iter(S + "g") if x.get("data-series") == "diskspd_xml_3.xml"][0]
ys = [float(c.get("data-y")) for c in g.iter(S + "circle")]
assert ys[:4] == [106, 222, 335, 339] and len(ys) == 30, ys[:5]
# percentile curve: Percentile 99.9 TotalMilliseconds 1685.811
g = [x for x in svgs["pct-0"].iter(S + "g") if x.get("data-series") == "diskspd_xml_3.xml"][0]
pts = {float(c.get("data-x")): float(c.get("data-y")) for c in g.iter(S + "circle")}
assert abs(pts[99.9] - 1685811) < 1e-3, pts.get(99.9)
PY

# a run on two targets: one percentile curve per target, with the targets' own values,
# up to the last percentile the target's own sample count resolves (p needs 1/(1-p/100))
expect_status 0 "two-target run" -- "$IOMARK" run --rw=randread --bs=4k --size=8M --runtime=1 --ioengine=psync --quiet --output-format=json --output=$WORK/mt.json $WORK/t1.dat $WORK/t2.dat
expect_status 0 "report of it" -- "$IOMARK" report -o $WORK/mt.html "A=$WORK/mt.json"
$PY - $WORK/mt.json $WORK/mt.html <<'PY' && pass "per-target percentile curves" || fail "per-target curves"
import json, sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
d = json.load(open(sys.argv[1]))
svg = [e for e in ET.parse(sys.argv[2]).iter(S + "svg") if e.get("id") == "pct-0"][0]
lines = {g.get("data-series"): g for g in svg.iter(S + "g")}
assert len(lines) == 2
for t in d["targets"]:
    g = lines["A: " + t["path"]]
    got = {float(c.get("data-x")): float(c.get("data-y")) for c in g.iter(S + "circle")}
    n = t["total"]["ios"]
    want = {float(k): v for k, v in t["total"]["lat_us"]["percentiles"].items()
            if n >= 1 / (1 - float(k) / 100) - 1e-6}
    assert sorted(got) == sorted(want) and len(want) >= 5, (n, sorted(got), sorted(want))
    for k, v in want.items():
        assert abs(got[k] - v) <= 1e-9 * v, (k, got[k], v)
PY

# the text report marks with * a percentile its sample count does not resolve,
# and its value is the largest sample, the max column (trial: p99.9 10289* vs
# max 10331): 100 writes (400 KiB of 4 KiB) resolve p99 (rank 99), not p99.9
expect_status 0 "100-write run, text" -- "$IOMARK" run --rw=randwrite --bs=4k --size=1M --io_size=400k --quiet $WORK/w100.dat
$PY - $WORK/out <<'PY' && pass "100 writes: p99.9..p99.9999 marked * and equal to max" || fail "* values: $(grep -A3 'latency percentiles' $WORK/out)"
import re, sys
txt = open(sys.argv[1]).read()
txt = txt[txt.index("latency percentiles"):]  # below the rates table's rows of the same names
head = re.search(r"^ +min( +p\S+)+ +max +samples$", txt, re.M).group(0).split()
for name in ("write", "total"):
    cells = re.search(r"^  %s +(.*)$" % name, txt, re.M).group(1).split()
    row = dict(zip(head, cells))
    assert row["samples"] == "100", row
    star = [k for k in head if row[k].endswith("*")]
    assert star == ["p99.9", "p99.99", "p99.999", "p99.9999"], star
    assert all(row[k] == row["max"] + "*" for k in star), row
    assert not row["p99"].endswith("*"), row
    print(name, {k: row[k] for k in ["p99"] + star + ["max"]})
PY

expect_status 2 "empty file refused" -- "$IOMARK" report -o $WORK/bad.html "$R/fio_json_13_empty.json"
expect_err_has "fio_json_13_empty.json: empty file"
[ ! -e $WORK/bad.html ] && pass "nothing written on refusal" || fail "file written on refusal"
expect_status 2 "missing folder" -- "$IOMARK" report -o $WORK/nope/r.html "$R/fio_json_5.json"
expect_err_has "folder $WORK/nope does not exist"
expect_status 2 "bad option" -- "$IOMARK" report --colour=red "$R/fio_json_5.json"
# a folder is a lab folder (lab.json inside, reported alone) or refused naming both kinds of RESULT
mkdir -p $WORK/plain $WORK/lab
cp "$SRCDIR/tests/data/lab/sweep4.lab.json" $WORK/lab/lab.json
expect_status 2 "folder without lab.json" -- "$IOMARK" report -o $WORK/dir.html $WORK/plain
expect_err_has "$WORK/plain: a folder without lab.json; allowed: result files, or one lab folder (iomark lab --output-dir) holding lab.json"
expect_status 2 "lab folder beside a result" -- "$IOMARK" report -o $WORK/dir.html "$R/fio_json_5.json" $WORK/lab
expect_err_has "$WORK/lab: a lab folder is reported alone; allowed: result files, or one lab folder"
[ ! -e $WORK/dir.html ] && pass "nothing written for a refused folder" || fail "page written for a refused folder"
expect_status 0 "to stdout" -- "$IOMARK" report "$R/kdiskmark_text_1.txt"
grep -q "</html>" $WORK/out && pass "stdout page" || fail "stdout page"
# stdout a terminal and no -o: refused with one line saying to give -o (exit 2),
# no HTML on the terminal; piped (above) the page is written
if command -v script >/dev/null; then
  rc=0; script -qec "$IOMARK report $R/kdiskmark_text_1.txt" /dev/null >$WORK/tty 2>&1 || rc=$?
  tr -d '\r' <$WORK/tty >$WORK/tty.txt
  [ "$rc" = 2 ] && [ "$(cat $WORK/tty.txt)" = "iomark report: no --output: stdout is a terminal; give -o FILE (e.g. -o report.html), or redirect stdout to a file or a pipe" ] \
    && pass "terminal stdout without -o: exit 2, one line naming -o" || fail "terminal: exit $rc, $(head -c 300 $WORK/tty.txt)"
  rc=0; script -qec "$IOMARK report -o $WORK/tty.html $R/kdiskmark_text_1.txt" /dev/null >$WORK/tty 2>&1 || rc=$?
  [ "$rc" = 0 ] && [ ! -s $WORK/tty ] && grep -q "</html>" $WORK/tty.html && pass "terminal with -o FILE: the page in FILE" || fail "terminal -o: exit $rc, $(head -c 300 $WORK/tty)"
else
  echo "skip: script(1) not installed: terminal stdout"
fi
finish
