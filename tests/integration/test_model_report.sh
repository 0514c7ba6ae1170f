#!/usr/bin/env bash
# iomark model on lab documents and `iomark report` of model documents:
# fit on the low-depth points of one controller's lab sweep, --check another
# controller's sweep end to end (text and JSON, its own queue limits from its
# guest probe), and the HTML page's predicted and measured series read back
# from the SVG and compared with the check document's numbers.
source "$(dirname "$0")/lib.sh"
D=$SRCDIR/tests/data/model
SWEEP=$D/sweep_file_vda.json
[ -f "$SWEEP" ] || { echo "FAIL: $SWEEP not found (part of the repository)"; exit 1; }

# --- the page from a check document (and a fit document) ---
expect_status 0 "fit" -- "$IOMARK" model fit --output=$WORK/fit.json "$SWEEP"
expect_status 0 "check as JSON" -- "$IOMARK" model $WORK/fit.json --check "$SWEEP" \
  --output-format=json --output=$WORK/check.json
expect_status 0 "report of a check document and a fit document" -- \
  "$IOMARK" report $WORK/check.json $WORK/fit.json -o $WORK/model.html

$PY - $WORK/model.html $WORK/check.json $WORK/fit.json <<'PY' && pass "HTML: measured and predicted series per source and thread count, point values as in the documents" || fail "HTML series"
import json, math, sys
import xml.etree.ElementTree as ET
page = ET.parse(sys.argv[1]).getroot()   # the page is well-formed XHTML
ns = {"s": "http://www.w3.org/2000/svg"}
docs = [json.load(open(p)) for p in sys.argv[2:]]
svgs = {s.get("id"): s for s in page.iter("{http://www.w3.org/2000/svg}svg")}
for d, doc in enumerate(docs):
    pts = doc["points"]
    for key in ("iops", "lat_mean_us", "lat_p99_us"):
        svg = svgs["model-%d-%s" % (d, key)]
        series = {g.get("data-series"): [(float(c.get("data-x")), float(c.get("data-y")))
                                         for c in g.findall("s:circle", ns)]
                  for g in svg.findall("s:g", ns)}
        want = {}
        for p in pts:
            src = p["source"].split("#")[0]
            t = p["threads"]
            for side in ("measured", "predicted"):
                name = "%s, %d thread%s: %s" % (src.rsplit("/", 1)[-1], t, "" if t == 1 else "s", side)
                v = p[side][key]
                if v is not None and v > 0:
                    want.setdefault(name, []).append((p["threads"] * p["iodepth"], v))
        assert set(series) == set(want), (sorted(series), sorted(want))
        for name, got in series.items():
            exp = sorted(want[name])
            assert len(got) == len(exp), (name, got, exp)
            for (gx, gy), (ex, ey) in zip(got, exp):
                assert gx == ex and abs(gy - ey) <= 1e-9 * abs(ey), (name, gx, gy, ex, ey)
        # both sides present for every group, predicted dashed
        assert any(n.endswith(": predicted") for n in series) and any(n.endswith(": measured") for n in series)
    # the table carries the same pairs
    rows = page.find(".//*[@id='model-points-%d']" % d).find("{http://www.w3.org/1999/xhtml}tbody")
    assert len(list(rows)) == len(pts)
    for tr, p in zip(rows, pts):
        cells = [td.text for td in tr]
        assert float(cells[4]) == round(p["measured"]["iops"]) and float(cells[5]) == round(p["predicted"]["iops"]), cells
        assert abs(float(cells[8]) - p["predicted"]["lat_mean_us"]) <= 0.051, cells
PY

expect_status 2 "a model document mixed with a result is refused" -- \
  "$IOMARK" report $WORK/check.json "$SWEEP" -o $WORK/mixed.html
expect_err_has "not an iomark model check or fit document"
[ ! -e $WORK/mixed.html ] && pass "nothing written" || fail "mixed.html written"

finish
