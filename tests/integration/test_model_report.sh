#!/usr/bin/env bash
# iomark model on lab documents and `iomark report` of model documents:
# fit on the low-depth points of one controller's lab sweep, --check another
# controller's sweep end to end (text and JSON, its own queue limits from its
# guest probe), and the HTML page's predicted and measured series read back
# from the SVG and compared with the check document's numbers.
source "$(dirname "$0")/lib.sh"
D=$SRCDIR/tests/data/model
SWEEP=$D/sweep_file_vda.json
export PYTHONPATH=$SRCDIR/tests/integration
[ -f "$SWEEP" ] || { echo "FAIL: $SWEEP not found (part of the repository)"; exit 1; }

LABP=$D/lab_pvscsi.json LABI=$D/lab_ide.json

# --- lab documents: fit on PVSCSI's points up to 8 outstanding, check IDE ---
expect_status 0 "fit on a lab sweep's low-depth points" -- \
  "$IOMARK" model fit --max-outstanding=8 --output=$WORK/labfit.json "$LABP"
grep -q "^guest CPU: .* per I/O on 2 CPU(s)" $WORK/out && pass "fit text names the guest-CPU station" \
  || fail "fit text: $(head -5 $WORK/out)"
expect_status 0 "check of another controller's lab sweep (text)" -- \
  "$IOMARK" model $WORK/labfit.json --check "$LABI"
grep -q "L = 1" $WORK/out && grep -q "prediction error" $WORK/out && pass "check text: IDE's L = 1" \
  || fail "check text: $(head -8 $WORK/out)"
expect_status 0 "check of another controller's lab sweep (JSON)" -- \
  "$IOMARK" model $WORK/labfit.json --check "$LABI" --output-format=json --output=$WORK/labcheck.json

$PY - "$LABP" "$LABI" $WORK/labfit.json $WORK/labcheck.json <<'PY' && pass "lab fit and check: S, guest CPU per I/O, limits from the guest probe, predictions from a product-form computation" || fail "lab fit/check"
import json, math, sys
from model_pf import product_form
sp, si, fit, chk = (json.load(open(p)) for p in sys.argv[1:])
assert sp["lab"]["accelerator"] == "tcg"
pts = [p for p in sp["points"] if p["result"]["status"] == "ok" and p["threads"] * p["iodepth"] <= 8]
assert len(fit["points"]) == len(pts) == 4, len(fit["points"])
low = min(pts, key=lambda p: p["threads"] * p["iodepth"])["result"]
tot = low["total"]["total"]
S = tot["lat_us"]["mean"]; z = max(0.0, 1 / tot["iops"] * 1e6 - S)
dev = fit["device"]
assert abs(dev["service_mean_us"] - S) < 1e-6 * S and abs(dev["host_us_per_io"] - z) < 1e-6 * max(z, 1)
# utilisation law per point: busy share of all CPUs x CPUs / IOPS; the smallest
def D(r):
    c = r["cpu"]; return (c["user_pct"] + c["system_pct"]) / 100 * c["nr_cpus"] / r["total"]["total"]["iops"] * 1e6
Dmin = min(D(p["result"]) for p in pts)
assert abs(dev["guest_cpu_us_per_io"] - Dmin) < 1e-6 * Dmin, (dev["guest_cpu_us_per_io"], Dmin)
assert dev["guest_cpus"] == 2
# the checked document's own limits: IDE (ata_piix) from the guest's probe, L = 1
disk = si["points"][0]["result"]["targets"][0]["probe"]["disks"][0]
lim = chk["limits"]
assert lim["driver"] == disk["driver"] == "ata_piix" and lim["effective"] == 1 == disk["lun_queue"]
assert chk["device"]["guest_cpu_us_per_io"] == dev["guest_cpu_us_per_io"]
c = dev["parallelism"]; Sd = S * 1e-6; zz = z * 1e-6; cap = 2 / (Dmin * 1e-6)
mpts = [p for p in si["points"] if p["result"]["status"] == "ok"]
assert len(chk["points"]) == len(mpts) == 8
for cp, mp in zip(chk["points"], mpts):
    t = mp["result"]["total"]["total"]
    assert cp["threads"] == mp["threads"] and cp["iodepth"] == mp["iodepth"]
    assert abs(cp["measured"]["iops"] - t["iops"]) < 1e-9 * t["iops"]
    X, R = product_form(Sd, c, zz, 1, mp["threads"], mp["threads"] * mp["iodepth"], cap)
    assert abs(cp["predicted"]["iops"] - X) < 1e-6 * X, (cp, X)
    assert abs(cp["predicted"]["lat_mean_us"] - R * 1e6) < 1e-6 * R * 1e6, (cp, R)
    # L = 1: one I/O at a time, so IOPS cannot pass 1 / S
    assert cp["predicted"]["iops"] <= 1 / Sd * (1 + 1e-9)
PY

expect_status 0 "--guest-cpu=off" -- "$IOMARK" model fit --guest-cpu=off --max-outstanding=8 \
  --output-format=json "$LABP"
$PY -c "import json,sys; d=json.load(open('$WORK/out'))['device']; sys.exit(d['guest_cpu_us_per_io'] is not None or d['guest_cpus'] is not None)" \
  && pass "--guest-cpu=off: no CPU station (null)" || fail "--guest-cpu=off: $(head -c 300 $WORK/out)"
expect_status 2 "--guest-cpu=maybe refused" -- "$IOMARK" model fit --guest-cpu=maybe -o $WORK/no.json "$LABP"
expect_err_has "--guest-cpu=maybe: allowed: auto, on, off"
expect_status 2 "--max-outstanding below every point refused" -- \
  "$IOMARK" model fit --max-outstanding=0 -o $WORK/no.json "$LABP"
expect_err_has "--max-outstanding=0: allowed"
[ ! -e $WORK/no.json ] && pass "nothing written" || fail "no.json written"

# --- the page from check documents (and a fit document) ---
expect_status 0 "fit" -- "$IOMARK" model fit --output=$WORK/fit.json "$SWEEP"
expect_status 0 "check as JSON" -- "$IOMARK" model $WORK/fit.json --check "$SWEEP" \
  --output-format=json --output=$WORK/check.json
expect_status 0 "report of check documents and a fit document" -- \
  "$IOMARK" report $WORK/check.json $WORK/fit.json $WORK/labcheck.json -o $WORK/model.html

$PY - $WORK/model.html $WORK/check.json $WORK/fit.json $WORK/labcheck.json <<'PY' && pass "HTML: measured and predicted series per source and thread count, point values as in the documents" || fail "HTML series"
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
