#!/bin/bash
# test_lab_report.sh - `iomark report LABDIR` on a real lab.json
# (tests/data/lab/sweep4.lab.json, see tests/data/SOURCES.md: a sweep on ide,
# sata, nvme, pvscsi): the page has the sweep's scaling lines (one line per
# controller, its points in order of outstanding I/O, a tick at every
# outstanding value, readable axis steps, the knee ringed), the bars per
# controller (IOPS, p99 in ms once latencies reach 10 ms, CPU per I/O,
# in-flight), the I/O path, queue limits and time tables and the caveats.
# Every expected value below was read by hand from the fixture's JSON (points,
# mean, io_path, guest, image_s/boot_s/jobs_s, lab.host) or worked out by
# hand (axis steps: 1, 2 or 5 times a power of ten, 4 steps to the maximum).
# Needs no QEMU.
source "$(dirname "$0")/lib.sh"

mkdir -p "$WORK/lab"
cp "$SRCDIR/tests/data/lab/sweep4.lab.json" "$WORK/lab/lab.json"
expect_status 0 "report LABDIR" -- "$IOMARK" report "$WORK/lab" -o "$WORK/lab.html"

"$PY" - "$WORK/lab.html" <<'PY' && pass "lab page: charts, bars and tables as in the fixture" || fail "lab page"
import re, sys
html = open(sys.argv[1]).read()
def section(title):
    """The <svg> that follows the <h4> whose text starts with title."""
    m = re.search(r"<h4>" + re.escape(title) + r".*?</h4>\s*(<svg.*?</svg>)", html, re.S)
    assert m, "no chart " + title
    return m.group(1)
errors = []
def check(cond, what):
    if not cond:
        errors.append(what)

# scaling lines: IOPS (max 1994, nvme 8x4 -> axis 0..2000 by 500) and mean
# latency (max 124155 us, pvscsi 8x4 -> drawn in ms, 0..150 by 50)
for title, ylabels in (("Scaling: IOPS (I/Os per second) by outstanding I/O", ["0", "500", "1000", "1500", "2000"]),
                       ("Scaling: mean latency (ms) by outstanding I/O", ["0", "50", "100", "150"])):
    svg = section(title)
    lines = re.findall(r'<polyline[^>]*points="([^"]*)"', svg)
    check(len(lines) == 4, "%s: %d lines, want 4" % (title, len(lines)))
    for pts in lines:
        xs = [float(p.split(",")[0]) for p in pts.split()]
        check(len(xs) == 4, "%s: a line with %d points, want 4" % (title, len(xs)))
        check(xs == sorted(xs) and len(set(xs)) == len(xs), "%s: points not in order of outstanding I/O: %s" % (title, xs))
    labels = re.findall(r'text-anchor="(?:end|middle)">([0-9.]+)</text>', svg)
    ticks_y = [l for l in labels if l in ylabels]
    check(ticks_y == ylabels, "%s: y labels %s, want %s" % (title, labels, ylabels))
    ticks_x = re.findall(r'text-anchor="middle">([0-9]+)</text>', svg)
    check(sorted(set(ticks_x), key=int) == ["1", "4", "8", "32"], "%s: x ticks %s, want 1 4 8 32" % (title, ticks_x))
    # knee: nvme 8x1 and pvscsi 8x1 in the fixture, plus the legend's ring
    check(len(re.findall(r'r="7"', svg)) == 3, "%s: %d knee rings, want 2 + legend" % (title, len(re.findall(r'r="7"', svg))))
    for name in ("ide", "sata", "nvme", "pvscsi"):
        check(">%s</text>" % name in svg, "%s: legend lacks %s" % (title, name))

def bar_values(title):
    svg = section(title)
    return dict(re.findall(r'font-size="13">([a-z-]+)</text>\n<rect[^>]*/>\n<text[^>]*>([0-9.]+)</text>', svg))
check(bar_values("Best IOPS") == {"ide": "670", "sata": "1453", "nvme": "1994", "pvscsi": "805"},
      "IOPS bars %s" % bar_values("Best IOPS"))
# p99 of the best points: 501219, 219152, 126353, 71827 us -> ms with one decimal
check(bar_values("p99 latency at the best point (ms") == {"ide": "501.2", "sata": "219.2", "nvme": "126.4", "pvscsi": "71.8"},
      "p99 bars %s" % bar_values("p99 latency at the best point (ms"))
check(bar_values("Device in-flight, sampled maximum") == {"ide": "1", "sata": "32", "nvme": "32", "pvscsi": "32"},
      "in-flight bars %s" % bar_values("Device in-flight, sampled maximum"))
check("QEMU CPU per I/O (us, lower is better; includes TCG emulation)" in html, "QEMU CPU per I/O bars")

def row(name, after):
    part = html[html.index(after):]
    m = re.search(r"<tr><td>" + re.escape(name) + r"</td>(.*?)</tr>", part)
    return re.findall(r"<td[^>]*>(.*?)</td>", m.group(1)) if m else None
# I/O path: ide iomark QD 30.9 (30.937), in-flight max 1
r = row("ide", "I/O path:")
check(r is not None and r[1] == "30.9" and r[4] == "1", "I/O path row ide %s" % r)
# limits: ide ata_piix, adapter 1, LUN 1; nvme has no adapter queue
r = row("ide", "Guest-reported queue limits")
check(r is not None and r[:4] == ["ata_piix", "1", "1", "1"] and r[5] == "1280", "limits row ide %s" % r)
r = row("nvme", "Guest-reported queue limits")
check(r is not None and r[1] == "-", "limits row nvme %s" % r)
# time: ide image 2.7 s, boot 42.0 s, jobs 18.4 s (18.35)
r = row("ide", "Time per controller")
check(r is not None and r[:4] == ["boot-1", "2.7", "42.0", "18.4"], "time row ide %s" % r)
check('class="note"' in html and "load average 19.3 at start" in html, "caveats with the host load")
check("<span class=\"nw\">--runtime=3s</span>" in html, "job heading words kept whole")
if errors:
    print("\n".join(errors))
    sys.exit(1)
PY
finish
