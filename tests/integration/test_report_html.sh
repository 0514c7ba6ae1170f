#!/usr/bin/env bash
# test_report_html.sh - `iomark report` pages a newcomer reads, parsed with
# Python's XML parser (expat) and checked against the JSON files they come
# from: a 1 s run (1-2 intervals) gets a table of its intervals instead of an
# "IOPS over time" chart of lone dots, a 4 s run keeps its chart; a
# single-input page does not explain Welch's t-test, nor does a page of two
# single runs (its change labels carry no verdict colour), a page of repeated
# runs does; percentile curves stop at the last percentile the run's sample
# count resolves (p needs 1/(1-p/100) samples, counted here from the JSON); a
# DiskSpd XML page's curve leaves out DiskSpd's p100 (the maximum) without
# counting it as cut; a
# sweep page has a table of its points (values equal to the JSON's points,
# CPU % and IOPS step as the sweep's text table);
# mark results are charted in MB/s (the unit of mark's table), not MiB/s.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
q() { "$IOMARK" "$@" --quiet --output-format=json; }
q run --runtime=1s --size=8M --output="$WORK/r1.json" "$WORK/a.dat" >/dev/null
q run --runtime=1s --size=8M --output="$WORK/r1b.json" "$WORK/a.dat" >/dev/null
q run --runtime=4s --size=8M --output="$WORK/r4.json" "$WORK/a.dat" >/dev/null
q sweep --iodepth=1,2,4 --runtime=300ms --size=8M --output="$WORK/sw.json" "$WORK/a.dat" >/dev/null
q mark --profile=realworld --runs=2 --prepare=0 --pause=0 --runtime=300ms --size=8M --output="$WORK/m1.json" "$WORK/m.dat" >/dev/null
q mark --profile=realworld --runs=2 --prepare=0 --pause=0 --runtime=300ms --size=8M --output="$WORK/m2.json" "$WORK/m.dat" >/dev/null

expect_status 0 "report of a 1 s run" -- "$IOMARK" report -o "$WORK/one.html" "$WORK/r1.json"
$PY - "$WORK/one.html" "$WORK/r1.json" <<'PY' && pass "1 s run: interval table, no time chart, no Welch text" || fail "1 s run page"
import sys, json, xml.etree.ElementTree as ET
H = "{http://www.w3.org/1999/xhtml}"; S = "{http://www.w3.org/2000/svg}"
t = ET.parse(sys.argv[1]); page = open(sys.argv[1], encoding="utf-8").read()
pts = json.load(open(sys.argv[2]))["series"]["points"]
assert 1 <= len(pts) < 3, len(pts)
ids = [e.get("id") or "" for e in t.iter(S + "svg")]
assert not any(i.startswith("iops-time") or i.startswith("lat-time") for i in ids), ids
tabs = [e for e in t.iter(H + "table") if e.get("class") == "series"]
assert len(tabs) == 1
cells = [c for c in tabs[0].iter(H + "td") if c.get("data-iops")]
near = lambda a, b: abs(a - b) <= 1e-9 * abs(b)   # the page prints 10 significant digits
iops = [float(c.get("data-iops")) for c in cells]
ts = [float(c.get("data-t")) for c in tabs[0].iter(H + "td") if c.get("data-t")]
assert len(iops) == len(ts) == len(pts) and all(near(a, p["iops"]) for a, p in zip(iops, pts)), (iops, pts)
assert all(near(a, p["t_s"]) for a, p in zip(ts, pts)), ts
assert "Welch" not in page and "t-test" not in page
# the percentile curve: only the percentiles the run's samples resolve
d = json.load(open(sys.argv[2]))
n = d["total"]["total"]["ios"]
keys = [float(k) for k in d["total"]["total"]["lat_us"]["percentiles"]]
want = [p for p in keys if n >= 1 / (1 - p / 100) - 1e-6]
svg = [e for e in t.iter(S + "svg") if (e.get("id") or "").startswith("pct-")]
assert len(svg) == 1, ids
xs = [float(c.get("data-x")) for c in svg[0].iter(S + "circle")]
assert xs == want, (n, xs, want)
cut = [e for e in t.iter(H + "p") if "pct-cut" in (e.get("class") or "")]
assert len(cut) == (len(want) < len(keys)) and (not cut or int(cut[0].get("data-cut")) == len(keys) - len(want)), (n, len(cut))
print(f"{n} samples: curve to p{want[-1]}, {len(keys) - len(want)} cut")
PY

expect_status 0 "report of two runs" -- "$IOMARK" report -o "$WORK/two.html" "$WORK/r1.json" "$WORK/r1b.json"
$PY - "$WORK/two.html" <<'PY' && pass "two single runs: no t-test text, labels without a verdict colour" || fail "two single runs page"
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"; H = "{http://www.w3.org/1999/xhtml}"
t = ET.parse(sys.argv[1]); page = open(sys.argv[1], encoding="utf-8").read()
assert "Welch's two-sided t-test" not in page and "without a verdict" in page
labels = [e for e in t.iter(S + "text") if "change" in (e.get("class") or "").split()]
assert labels and all(e.get("class") == "change" for e in labels), [e.get("class") for e in labels]
tds = [e for e in t.iter(H + "td") if e.get("class") in ("better", "worse", "noise")]
assert not tds, [e.get("class") for e in tds]
PY

expect_status 0 "report of a 4 s run" -- "$IOMARK" report -o "$WORK/four.html" "$WORK/r4.json"
$PY - "$WORK/four.html" "$WORK/r4.json" <<'PY' && pass "4 s run: IOPS over time chart with the JSON's points" || fail "4 s run page"
import sys, json, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"; H = "{http://www.w3.org/1999/xhtml}"
t = ET.parse(sys.argv[1])
pts = json.load(open(sys.argv[2]))["series"]["points"]
assert len(pts) >= 3
svg = [e for e in t.iter(S + "svg") if (e.get("id") or "").startswith("iops-time")][0]
ys = [float(c.get("data-y")) for c in svg.iter(S + "circle")]
assert len(ys) == len(pts) and all(abs(a - p["iops"]) <= 1e-6 * p["iops"] for a, p in zip(ys, pts)), ys
assert not [e for e in t.iter(H + "table") if e.get("class") == "series"]
PY

expect_status 0 "report of a sweep" -- "$IOMARK" report -o "$WORK/sweep.html" "$WORK/sw.json"
$PY - "$WORK/sweep.html" "$WORK/sw.json" <<'PY' && pass "sweep: a table of its points, values from the JSON" || fail "sweep table"
import sys, json, xml.etree.ElementTree as ET
H = "{http://www.w3.org/1999/xhtml}"
t = ET.parse(sys.argv[1])
pts = json.load(open(sys.argv[2]))["points"]
tab = [e for e in t.iter(H + "table") if e.get("class") == "sweep-points"]
assert len(tab) == 1
rows = list(tab[0].find(H + "tbody"))
assert len(rows) == len(pts) == 3, (len(rows), len(pts))
# the CPU column says whose CPU it is, as the text table's legend does
heads = [th.text for th in tab[0].find(H + "thead").iter(H + "th")]
assert heads[8] == "CPU u+s % (machine)", heads
for r, p in zip(rows, pts):
    td = list(r)
    assert td[0].text == p["target"] and int(td[1].text) == p["threads"] and int(td[2].text) == p["iodepth"]
    assert int(td[3].text) == p["threads"] * p["iodepth"]
    assert abs(float(td[4].get("data-iops")) - p["iops"]) <= 1e-6 * p["iops"]
    # the text table's columns: CPU u+s % (the point's cpu_pct) and IOPS step (the
    # change from the same target's previous point), as the sweep prints them
    assert abs(float(td[8].text) - p["cpu_pct"]) <= 0.05 + 1e-9, (td[8].text, p["cpu_pct"])
    prev = [q for q in pts[:pts.index(p)] if q["target"] == p["target"]]
    if prev and prev[-1]["iops"] > 0:  # a point without I/O (a 300 ms point once did none at load 45): no step
        want = (p["iops"] - prev[-1]["iops"]) / prev[-1]["iops"] * 100
        assert td[9].text.endswith("%") and abs(float(td[9].text[:-1]) - want) <= 0.05 + 1e-9, (td[9].text, want)
    else:
        assert td[9].text is None, td[9].text
    knee = "knee" if p["knee"] else "best before the knee" if p["knee_base"] else None
    assert td[10].text == knee, (td[10].text, knee)
PY
# the knee verdict in words, as the sweep's text output: none found (a complete
# sweep), not judged (one that ended early), nothing when a point is the knee;
# two copies of the document without a knee, status ok and interrupted
$PY - "$WORK/sw.json" "$WORK" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    p["knee"] = p["knee_base"] = False
json.dump(dict(d, status="ok"), open(sys.argv[2] + "/sw_none.json", "w"))
json.dump(dict(d, status="interrupted"), open(sys.argv[2] + "/sw_int.json", "w"))
PY
for v in sw sw_none sw_int; do "$IOMARK" report -o "$WORK/$v.html" "$WORK/$v.json" >/dev/null 2>&1 || fail "report $v"; done
$PY - "$WORK" <<'PY' && pass "sweep: the knee verdict in words (none found / not judged / none when a knee)" || fail "sweep knee verdict"
import sys, json, xml.etree.ElementTree as ET
H = "{http://www.w3.org/1999/xhtml}"
def verdicts(v):
    t = ET.parse(f"{sys.argv[1]}/{v}.html")
    return ["".join(e.itertext()) for e in t.iter(H + "p") if e.get("class") == "knee-verdict"]
d = json.load(open(f"{sys.argv[1]}/sw.json"))
tg, pct = d["points"][0]["target"], d["knee_min_gain_pct"]
none = f"{tg}: no knee found; IOPS still grow by {pct:g}% or more up to the last point."
got = verdicts("sw_none"), verdicts("sw_int"), verdicts("sw")
want = ([none], [f"{tg}: knee not judged; the sweep ended (interrupted) before all its points."],
        [] if any(p["knee"] for p in d["points"]) else [none])
print(got)
assert got == want, (got, want)
PY

# the scaling legend explains only what the chart shows: one target and one
# thread count give "One line", no colours, turns or knee ring without a knee;
# two targets at two thread counts (a copy of the points renamed) say all of it
$PY - "$WORK/sw.json" "$WORK" <<'PY'
import json, sys, copy
d = json.load(open(sys.argv[1]))
two = copy.deepcopy(d["points"])
for p in two:
    p["target"], p["threads"] = p["target"] + ".b", 2
d["points"] += two
json.dump(d, open(sys.argv[2] + "/sw_two.json", "w"))
PY
"$IOMARK" report -o "$WORK/sw_two.html" "$WORK/sw_two.json" >/dev/null 2>&1 || fail "report sw_two"
$PY - "$WORK" <<'PY' && pass "sweep: the scaling legend says what the chart shows, no more" || fail "sweep scaling legend"
import sys, json, xml.etree.ElementTree as ET
H = "{http://www.w3.org/1999/xhtml}"
def legend(v):
    t = ET.parse(f"{sys.argv[1]}/{v}.html")
    ps = ["".join(e.itertext()) for e in t.iter(H + "p")]
    return [x for x in ps if "its points are the queue depths" in x]
def knee(v):
    return any(p["knee"] for p in json.load(open(f"{sys.argv[1]}/{v}.json"))["points"])
for v in ("sw", "sw_none"):
    (l,) = legend(v)
    assert l.startswith("One line; its points") and "colour" not in l and "dash" not in l, l
    assert "in turns" not in l and ("red ring" in l) == knee(v), (v, l)
(l,) = legend("sw_two")
assert l.startswith("One line per target (colour) and thread count (dash);"), l
assert "Targets were measured in turns." in l and ("red ring" in l) == knee("sw_two"), l
PY

DS="$SRCDIR/tests/data/results/diskspd_xml_3.xml"
expect_status 0 "report of a DiskSpd XML result" -- "$IOMARK" report -o "$WORK/ds.html" "$DS"
$PY - "$WORK/ds.html" "$DS" <<'PY' && pass "DiskSpd XML: the curve's points and the cut count, p100 neither" || fail "DiskSpd XML percentile curve"
import sys, xml.etree.ElementTree as ET
H, S = "{http://www.w3.org/1999/xhtml}", "{http://www.w3.org/2000/svg}"
t = ET.parse(sys.argv[1])
ts = [s for s in ET.parse(sys.argv[2]).iter("TimeSpan") if s.find("Latency") is not None][0]
n = sum(float(x.findtext("ReadCount")) + float(x.findtext("WriteCount")) for x in ts.iter("Target"))
ps = [float(b.findtext("Percentile")) for b in ts.find("Latency").iter("Bucket")]
inner = [p for p in ps if 0 < p < 100]
want = [p for p in inner if n >= 1 / (1 - p / 100) - 1e-6]
svg = [e for e in t.iter(S + "svg") if (e.get("id") or "").startswith("pct-")]
xs = [float(c.get("data-x")) for c in svg[0].iter(S + "circle")]
cut = [e for e in t.iter(H + "p") if "pct-cut" in (e.get("class") or "")]
print(f"DiskSpd: {n:.0f} I/Os, {len(ps)} percentiles, {len(xs)} plotted, cut {cut[0].get('data-cut') if cut else 0}")
assert xs == want and 100 in ps, (xs, want)
assert len(cut) == 1 and int(cut[0].get("data-cut")) == len(inner) - len(want), len(inner) - len(want)
PY

expect_status 0 "report of two marks" -- "$IOMARK" report -o "$WORK/mark.html" "$WORK/m1.json" "$WORK/m2.json"
grep -q "Welch's two-sided t-test" "$WORK/mark.html" && grep -q "(p=" "$WORK/mark.html" \
  && pass "two inputs of 2 runs each: Welch's t-test explained, p-values shown" || fail "no Welch text with repeated runs"
$PY - "$WORK/mark.html" "$WORK/m1.json" <<'PY' && pass "mark: throughput bars in MB/s, the JSON's MB/s" || fail "mark units"
import sys, json, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
t = ET.parse(sys.argv[1])
m = json.load(open(sys.argv[2]))
bars = [e for e in t.iter(S + "svg") if e.get("data-metric")]
metrics = {e.get("data-metric") for e in bars}
assert "mb_per_s" in metrics and "mib_per_s" not in metrics, metrics
# the first test's read: the bar lies within the runs' MB/s (10^6 bytes/s)
test = m["tests"][0]
name = [e for e in bars if e.get("data-metric") == "mb_per_s"][0]
runs = [r["mb_per_s"] for r in test["read"]["each_run"] if r["counted"]]
first = [e for e in bars if e.get("data-metric") == "mb_per_s" and test["name"] in e.get("data-workload") and "read" in e.get("data-workload")][0]
v = float([r for r in first.iter(S + "rect") if r.get("data-input") == "0"][0].get("data-value"))
# data-value carries 10 significant digits (34.95253333 for 34.952533333333335)
tol = 1e-8 * max(runs)
assert min(runs) - tol <= v <= max(runs) + tol, (v, runs)
PY
finish
