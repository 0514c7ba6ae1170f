#!/usr/bin/env python3
"""Check an `iomark tpcc` JSON result (type "tpcc") for the documented fields
and for internal arithmetic that the test can verify independently:
  tpm  = sum(calls) / measured minutes
  nopm = new_orders / measured minutes
  new_orders (from sum(d_next_o_id)) agrees with the driver's committed
  New-Orders within 2 per virtual user (transactions in flight at the two
  ends of the measured interval) plus the New-Orders the two sampling gaps
  can hold (nopm_sampling_gap_ms: the samples' distance from the boundaries,
  seconds under load), bounded by twice the measured rate over the gaps
  min <= p50 <= p95 <= p99 <= max per transaction
  the mix: each type's share within 5 binomial standard deviations of its
  weight / sum(weights); New-Order rollbacks within 5 sd of 1%.
usage: tpcc_json_check.py FILE ENGINE VU WAREHOUSES [--interrupted]
"""
import json, math, sys

path, engine, vu, wh = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
interrupted = "--interrupted" in sys.argv
d = json.load(open(path))
errs = []
def need(cond, msg):
    if not cond:
        errs.append(msg)

need(d.get("schema") == "iomark-result" and d.get("type") == "tpcc", "schema/type")
need(d.get("status") == ("interrupted" if interrupted else "ok"), "status %s" % d.get("status"))
need(d.get("warehouses") == wh and d.get("vu") == vu, "warehouses/vu")
need(d.get("scale_test") is True and "scale_note" in d, "scale test label")
db = d.get("db", {})
need(db.get("engine") == engine, "db.engine %s" % db.get("engine"))
need(db.get("size_bytes", 0) > 0, "db.size_bytes")
need("data" in db and "log" in db and db["data"].get("majmin") and db["log"].get("majmin"),
     "db.data/db.log devices")
names = ["new_order", "payment", "delivery", "order_status", "stock_level"]
t = d.get("transactions", {})
fields = ["calls", "min_ms", "mean_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms", "stddev_ms"]
for n in names:
    x = t.get(n)
    need(x is not None and all(f in x for f in fields), "transactions.%s fields" % n)
    if x and x["calls"] > 0:
        need(x["min_ms"] <= x["p50_ms"] <= x["p95_ms"] <= x["p99_ms"] <= x["max_ms"],
             "%s percentiles not ordered: %s" % (n, x))
        need(x["min_ms"] <= x["mean_ms"] <= x["max_ms"], "%s mean outside [min, max]" % n)
calls = sum(t[n]["calls"] for n in names)
minutes = d["duration"]["measured_s"] / 60.0
need(minutes > 0, "measured_s > 0")
need(calls > 0, "no calls")
if minutes > 0:
    need(abs(d["tpm"] - calls / minutes) <= 1e-6 * max(1, d["tpm"]), "tpm != calls / minutes")
    need(abs(d["nopm"] - d["new_orders"] / minutes) <= 1e-6 * max(1, d["nopm"]),
         "nopm != new_orders / minutes")
committed_no = t["new_order"]["calls"] - t["new_order"]["rollbacks"]
gap = d.get("nopm_sampling_gap_ms", {})
need(gap.get("start", -1) >= 0 and gap.get("end", -1) >= 0, "nopm_sampling_gap_ms")
gap_s = (gap.get("start", 0) + gap.get("end", 0)) / 1000.0
rate = committed_no / d["duration"]["measured_s"] if d["duration"]["measured_s"] > 0 else 0
allowed = 2 * vu + math.ceil(2 * rate * gap_s)
need(abs(d["new_orders"] - committed_no) <= allowed,
     "new_orders %s (sum(d_next_o_id)) vs %s committed New-Orders (allowed %d: gaps %.1f ms)"
     % (d["new_orders"], committed_no, allowed, gap_s * 1000))
mix = d["mix"]
tot = sum(mix[n] for n in names)
for n in names:
    p = mix[n] / tot
    sd = math.sqrt(calls * p * (1 - p))
    need(abs(t[n]["calls"] - calls * p) <= 5 * sd + 1,
         "%s share %d of %d, expected %.0f" % (n, t[n]["calls"], calls, calls * p))
no = t["new_order"]["calls"]
sd = math.sqrt(no * 0.01 * 0.99)
need(abs(t["new_order"]["rollbacks"] - 0.01 * no) <= 5 * sd + 1,
     "rollbacks %d of %d New-Orders" % (t["new_order"]["rollbacks"], no))
need(d["rollbacks"] == sum(t[n]["rollbacks"] for n in names), "rollbacks total")
need(d["retries"] == sum(t[n]["retries"] for n in names), "retries total")
cpu = d.get("cpu", {})
need(cpu.get("nr_cpus", 0) >= 1 and 0 <= cpu.get("busy_pct", -1) <= 100.0001, "cpu object")
if cpu.get("busy_cores", 0) > 0:
    need(abs(cpu["nopm_per_busy_core"] - d["nopm"] / cpu["busy_cores"]) <= 1e-6 * max(1, d["nopm"]),
         "nopm_per_busy_core != nopm / busy_cores")
if engine == "postgresql":
    need(d.get("tpm_db", 0) > 0, "tpm_db missing on PostgreSQL")
print("calls %d, nopm %.0f, tpm %.0f, new_orders %d vs committed %d (allowed %d: sampling gaps %.1f ms)" %
      (calls, d["nopm"], d["tpm"], d["new_orders"], committed_no, allowed, gap_s * 1000))
for e in errs:
    print("json check:", e)
sys.exit(1 if errs else 0)
