#!/usr/bin/python3
"""Summarise one bench case: rounds of iomark (i.N.json) and fio (f.N.json).

Each figure is the mean over the rounds. CPU per I/O is the tool's own
process CPU time (user + system) over its measured phase divided by its
I/O count: iomark's cpu.process_cpu_us_per_io; for fio, (usr_cpu + sys_cpu)
percent of the job's runtime, as fio reports them.
"""
import json, sys

name, d, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def mean(xs):
    return sum(xs) / len(xs)
I = {"iops": [], "mean": [], "p99": [], "cpu": []}
F = {"iops": [], "mean": [], "p99": [], "cpu": []}
for r in range(1, rounds + 1):
    i = json.load(open("%s/i.%d.json" % (d, r)))
    t = i["total"]["total"]
    I["iops"].append(t["iops"])
    I["mean"].append(t["lat_us"]["mean"])
    I["p99"].append(t["lat_us"]["percentiles"]["99"])
    I["cpu"].append(i["cpu"]["process_cpu_us_per_io"])
    f = json.load(open("%s/f.%d.json" % (d, r)))
    j = f["jobs"][0]
    rd = j["read"]
    ios = rd["total_ios"]
    runtime_s = rd["runtime"] / 1000.0
    F["iops"].append(rd["iops"])
    F["mean"].append(rd["lat_ns"]["mean"] / 1000.0)
    F["p99"].append(rd["lat_ns"]["percentile"]["99.000000"] / 1000.0)
    F["cpu"].append((j["usr_cpu"] + j["sys_cpu"]) / 100.0 * runtime_s * 1e6 / max(ios, 1))
i_iops, f_iops = mean(I["iops"]), mean(F["iops"])
i_cpu, f_cpu = mean(I["cpu"]), mean(F["cpu"])
print("%-26s iomark %11.0f IOPS mean %8.2f us p99 %8.2f us cpu %6.3f us/IO | "
      "fio %11.0f IOPS mean %8.2f us p99 %8.2f us cpu %6.3f us/IO | "
      "ratio IOPS %.3f, IOPS/CPU %.3f, mean lat %.3f"
      % (name, i_iops, mean(I["mean"]), mean(I["p99"]), i_cpu,
         f_iops, mean(F["mean"]), mean(F["p99"]), f_cpu,
         i_iops / f_iops, (f_cpu / i_cpu) if i_cpu > 0 else float("inf"),
         mean(I["mean"]) / mean(F["mean"])))

# Whole-process figures from bench/proc_cpu.py (when present): CPU of every
# thread of each tool (fio's io-wq workers and main process included) per I/O
# in the same window of its run, the same measurement for both tools.
# I/Os per CPU-second, per round, mean and best of the rounds.
def proc(tool, r):
    try:
        p = json.load(open("%s/%s.%d.proc.json" % (d, tool, r)))
    except OSError:
        return None
    return p["ios"] / p["cpu_s"] if p["cpu_s"] > 0 else None

pi = [proc("i", r) for r in range(1, rounds + 1)]
pf = [proc("f", r) for r in range(1, rounds + 1)]
if all(x is not None for x in pi + pf):
    print("%-26s all threads: I/Os per CPU-second iomark mean %.0f best %.0f | "
          "fio mean %.0f best %.0f | ratio mean %.3f best %.3f | rounds %s"
          % (name, mean(pi), max(pi), mean(pf), max(pf), mean(pi) / mean(pf), max(pi) / max(pf),
             " ".join("%.0f/%.0f" % (a, b) for a, b in zip(pi, pf))))
