#!/usr/bin/python3
"""Check an iomark JSON result: schema, then the arithmetic that must hold.

usage: check_result.py RESULT.json [--bs BYTES] [--status ok|interrupted|error]
       [--min-ios N] [--expect-ios N --tol FRACTION]
Exit 0 when every check holds, 1 otherwise (each failure printed).
The expected relations are computed here, independently of iomark:
  bytes = I/Os x block size (fixed block size)
  IOPS x measured seconds = I/Os;  MB/s = bytes / s / 1e6;  MiB/s = bytes / s / 2^20
  min <= p25 <= p50 <= ... <= p99.9999 <= max
  sum over threads = per target; sum over targets = total; read + write + trim = total
  the per-interval series adds up to the total I/O count (exactly, from the
  points' integer ios; from iops x dur_s within 2% for documents without them);
  each point's p99 lies between the run's min and max latency.
"""
import argparse, json, os, sys

import jsonschema

ap = argparse.ArgumentParser()
ap.add_argument("result")
ap.add_argument("--bs", type=int)
ap.add_argument("--status", default="ok")
ap.add_argument("--min-ios", type=int, default=1)
ap.add_argument("--expect-ios", type=float)
ap.add_argument("--tol", type=float, default=0.02)
a = ap.parse_args()
errors = []
def check(cond, msg):
    if not cond:
        errors.append(msg)

raw = open(a.result).read()
doc = json.loads(raw)  # the whole file is one JSON document, nothing else
schema = json.load(open(os.path.join(os.path.dirname(__file__), "../../docs/result.schema.json")))
try:
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
except jsonschema.ValidationError as e:
    errors.append("schema: %s at %s" % (e.message, list(e.absolute_path)))

check(doc.get("status") == a.status, "status %r, wanted %r" % (doc.get("status"), a.status))
PCTS = ["25", "50", "75", "90", "95", "99", "99.9", "99.99", "99.999", "99.9999"]
secs = doc["duration"]["measured_s"] if "duration" in doc else 0

def close(x, y, rel=1e-6):
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-9)

def check_io(o, where):
    n, b = o["ios"], o["bytes"]
    if a.bs:
        check(b == n * a.bs, "%s: bytes %d != ios %d x bs %d" % (where, b, n, a.bs))
    if secs > 0:
        check(close(o["iops"] * secs, n), "%s: iops %g x %g s != ios %d" % (where, o["iops"], secs, n))
        check(close(o["mb_per_s"], b / secs / 1e6), "%s: MB/s" % where)
        check(close(o["mib_per_s"], b / secs / 1048576.0), "%s: MiB/s" % where)
    lat = o["lat_us"]
    check(lat["samples"] == n, "%s: samples != ios" % where)
    if n:
        seq = [lat["min"]] + [lat["percentiles"][p] for p in PCTS] + [lat["max"]]
        check(all(x <= y + 1e-9 for x, y in zip(seq, seq[1:])), "%s: percentiles not ordered %s" % (where, seq))
        check(lat["min"] <= lat["mean"] <= lat["max"], "%s: mean outside [min,max]" % where)
        check(lat["percentiles"]["50"] <= lat["percentiles"]["99"] <= lat["max"], "%s: p50<=p99<=max" % where)

def check_dirs(o, where):
    # "trim" (fio's third direction) is in documents since trims came; older ones lack it
    dirs = [d for d in ("read", "write", "trim") if d in o]
    for d in dirs + ["total"]:
        check_io(o[d], where + "." + d)
    check(sum(o[d]["ios"] for d in dirs) == o["total"]["ios"], where + ": read+write+trim != total")
    check(sum(o[d]["bytes"] for d in dirs) == o["total"]["bytes"], where + ": bytes read+write+trim != total")

if doc.get("status") != "error":
    check_dirs(doc["total"], "total")
    tsum = 0
    for i, t in enumerate(doc["targets"]):
        check_dirs(t, "target%d" % i)
        th = [x for x in doc["threads"] if x["target"] == i]
        check(sum(x["total"]["ios"] for x in th) == t["total"]["ios"], "target%d: threads do not add up" % i)
        for x in th:
            check_dirs(x, "thread%d.%d" % (i, x["thread"]))
        tsum += t["total"]["ios"]
    total = doc["total"]["total"]["ios"]
    check(tsum == total, "targets do not add up to total")
    check(total >= a.min_ios, "only %d I/Os" % total)
    pts = doc["series"]["points"]
    sios = sum(p["iops"] * p["dur_s"] for p in pts)
    if pts and all("ios" in p for p in pts):
        # every counted I/O is in exactly one interval: the counts add up exactly,
        # and each point's rate is its count over its duration
        check(sum(p["ios"] for p in pts) == total,
              "series ios add up to %d, total %d" % (sum(p["ios"] for p in pts), total))
        for p in pts:
            check(p["dur_s"] > 0 and close(p["iops"] * p["dur_s"], p["ios"], 1e-9),
                  "series point at %g s: iops %g x %g s != ios %d" % (p["t_s"], p["iops"], p["dur_s"], p["ios"]))
    # no interval's p99 lies outside the run's fastest and slowest I/O (a
    # histogram bucket's value once showed p99 99090 us beside a max of 98830)
    tl = doc["total"]["total"]["lat_us"]
    for p in pts:
        if p.get("ios") and "lat_p99_us" in p:
            check(tl["min"] - 1e-6 <= p["lat_p99_us"] <= tl["max"] + 1e-6,
                  "series point at %g s: p99 %g us outside the run's min %g, max %g" % (p["t_s"], p["lat_p99_us"], tl["min"], tl["max"]))
    if total > 1000:
        check(abs(sios - total) <= 0.02 * total, "series adds up to %.0f I/Os, total %d" % (sios, total))
        check(abs(sum(p["dur_s"] for p in pts) - secs) <= 0.02 * secs + 0.01, "series durations do not cover the run")
    if a.expect_ios is not None:
        check(abs(total - a.expect_ios) <= a.tol * a.expect_ios, "ios %d, expected %g within %g%%" % (total, a.expect_ios, a.tol * 100))

for e in errors:
    print("check_result: " + e)
sys.exit(1 if errors else 0)
