#!/usr/bin/env python3
"""Independent computation of fio's steady-state criteria (fio HOWTO
"steadystate": least-squares slope of the last ss_dur samples, or their largest
deviation from the mean; with a % limit relative to the mean) over a recorded
series, for tests/unit/test_steady.c. Uses python's statistics.linear_regression
for the slope, not iomark's code. fio divides the slope by the mean in whole
units (steadystate.c: sum_y / dur, integer), so the mean here is sum // n for the
slope criterion. Prints, per case, the first sample index (1-based) at which the
criterion is met (0: never) and the criterion then (or at the last sample)."""
import statistics

# fio 3.33, psync O_DIRECT 4k randread, log_avg_msec=1000 (tests/data/SOURCES.md)
IOPS = [2092, 4308, 3773, 4864, 6791, 5323, 8077, 8231, 7649, 7324, 9405]
BW_KIB = [8368, 17233, 15092, 19457, 27165, 21292, 32309, 32926, 30598, 29297, 37621]
BW = [k * 1024 for k in BW_KIB]

def criterion(win, slope, pct):
    n = len(win)
    if slope:
        s = statistics.linear_regression(range(n), win).slope
        return 100.0 * s / (sum(win) // n) if pct else s
    mean = sum(win) / n
    dev = max(abs(y - mean) for y in win)
    return 100.0 * dev / mean if pct else dev

CASES = [  # (name, series, slope, pct, limit, dur)
    ("iops_slope:10%", IOPS, True, True, 10.0, 4),
    ("iops_slope:2%", IOPS, True, True, 2.0, 4),
    ("iops:20%", IOPS, False, True, 20.0, 3),
    ("iops:500", IOPS, False, False, 500.0, 3),
    ("bw_slope:1000000", BW, True, False, 1000000.0, 4),
    ("bw:12%", BW, False, True, 12.0, 4),
]
for name, ser, slope, pct, limit, dur in CASES:
    got, crit = 0, None
    for i in range(dur, len(ser) + 1):
        crit = criterion(ser[i - dur:i], slope, pct)
        if (abs(crit) if slope else crit) < limit:
            got = i
            break
    print(f"{name}: attained at {got}, criterion {crit:.9f}")
