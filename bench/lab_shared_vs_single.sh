#!/usr/bin/env bash
# bench/lab_shared_vs_single.sh - does the lab's shared boot (one guest,
# every controller's disk attached, the workload on one disk at a time) give
# the same per-controller figures and guest queue limits as one boot per
# controller (--boot=each)? Runs both modes alternately, ROUNDS times (the
# order swaps every round so a drift in host load hits both), then prints per
# controller and mode: IOPS and p99 (mean, min-max of the rounds, spread =
# (max - min) / mean), the guest's limits, the sampled device in-flight
# maximum, and the time per controller (image, boot, workload, whole lab / N).
# The verdict per controller: the difference of the two modes' mean IOPS and
# p99 against the larger run-to-run spread of either mode.
#
#   bench/lab_shared_vs_single.sh [IOMARK]          (default: build/iomark)
# Environment: CONTROLLERS (ide,sata,nvme,pvscsi), ROUNDS (3), FIRST (1: the
#   first round's number; FIRST=4 with the same OUT adds rounds 4.. to a run;
#   ROUNDS=0 only summarises the rounds already in OUT),
#   WORKLOAD (run options for the guest; default the lab's randread 4K QD32 x 2
#   threads, shortened: --ramp_time=1s --runtime=6s), ACCEL (auto), OUT (a new
#   folder under /var/tmp). Needs `iomark lab setup` done. One guest at a time.
# Prints a Markdown table for bench/RESULTS.md; the lab folders stay in OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
IOMARK=$(realpath "${1:-build/iomark}")
CONTROLLERS=${CONTROLLERS:-ide,sata,nvme,pvscsi}
ROUNDS=${ROUNDS:-3}
FIRST=${FIRST:-1}
WORKLOAD=${WORKLOAD:---ramp_time=1s --runtime=6s}
ACCEL=${ACCEL:-auto}
OUT=${OUT:-$(mktemp -d /var/tmp/iomark-lab-bench.XXXXXX)}
mkdir -p "$OUT"

echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "# controllers $CONTROLLERS, $ROUNDS rounds, workload: lab default + $WORKLOAD, accel $ACCEL, results in $OUT"
for r in $(seq "$FIRST" $((FIRST + ROUNDS - 1))); do
  if [ $((r % 2)) = 1 ]; then modes="shared each"; else modes="each shared"; fi
  for m in $modes; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s)
    # shellcheck disable=SC2086 # WORKLOAD is a list of options on purpose
    if ! "$IOMARK" lab --controllers="$CONTROLLERS" --boot="$m" --accel="$ACCEL" \
        --output-dir="$OUT/$m-$r" $WORKLOAD >"$OUT/$m-$r.log" 2>&1; then
      echo "# round $r $m: iomark lab failed (exit $?), see $OUT/$m-$r.log" >&2
    fi
    echo "# round $r $m: $(( $(date +%s) - start )) s, load average $load at start, $(cut -d' ' -f1 /proc/loadavg) at end"
  done
done

python3 - "$OUT" "$CONTROLLERS" <<'PY'
import glob, json, os, statistics, sys
out, ctrls = sys.argv[1], sys.argv[2].split(",")
LIM = ("adapter_queue", "lun_queue", "nr_requests", "nr_hw_queues", "max_sectors_kb")
data = {m: {c: [] for c in ctrls} for m in ("shared", "each")}
walls = {"shared": [], "each": []}
for m in data:
    for p in sorted(glob.glob(os.path.join(out, m + "-*", "lab.json"))):  # every round in OUT
        lab = json.load(open(p))
        walls[m].append(lab["wall_s"])
        for c in lab["controllers"]:
            if c["name"] in data[m] and c["status"] == "ok":
                mean = c["jobs"][0]["mean"]
                g = c["guest"]
                data[m][c["name"]].append({"round": os.path.basename(os.path.dirname(p)).split("-")[-1],
                    "iops": mean["iops"], "p99": mean["lat_p99_us"],
                    "infl": mean.get("io_path", {}).get("inflight_max"),
                    "lim": tuple(g.get(k) for k in LIM),
                    "image": c["image_s"], "boot": c["boot_s"], "jobs": c["jobs_s"]})

def stats(v):
    if not v:
        return float("nan"), float("nan"), float("nan"), float("nan")
    mu = statistics.mean(v)
    return mu, min(v), max(v), (max(v) - min(v)) / mu if mu else float("nan")

n = len(ctrls)
print("| controller | mode | runs | IOPS mean (min-max) | IOPS spread | p99 us mean (min-max) | p99 spread "
      "| limits adapter/LUN/nr_req/hwq/maxKiB | in-flight max | image s | boot s | workload s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
verdict = []
for c in ctrls:
    row = {}
    for m in ("shared", "each"):
        v = data[m][c]
        if not v:
            print("| %s | %s | 0 | - | - | - | - | - | - | - | - | - |" % (c, m))
            continue
        i = stats([x["iops"] for x in v]); p = stats([x["p99"] for x in v])
        lims = sorted({x["lim"] for x in v}, key=str)
        infl = sorted({x["infl"] for x in v}, key=str)
        row[m] = (i, p, lims)
        print("| %s | %s | %d | %.0f (%.0f-%.0f) | %.0f%% | %.0f (%.0f-%.0f) | %.0f%% | %s | %s | %.1f | %.1f | %.1f |" % (
            c, m, len(v), i[0], i[1], i[2], 100 * i[3], p[0], p[1], p[2], 100 * p[3],
            " ; ".join("/".join("-" if x is None else str(x) for x in l) for l in lims),
            ",".join(str(x) for x in infl),
            statistics.mean(x["image"] for x in v), statistics.mean(x["boot"] for x in v),
            statistics.mean(x["jobs"] for x in v)))
    if len(row) == 2:
        (si, sp, sl), (ei, ep, el) = row["shared"], row["each"]
        di = abs(si[0] - ei[0]) / ei[0]
        dp = abs(sp[0] - ep[0]) / ep[0]
        verdict.append("%s: IOPS shared/each %+.0f%% (spread %.0f%%/%.0f%%: %s), p99 %+.0f%% (spread %.0f%%/%.0f%%: %s), limits %s" % (
            c, 100 * (si[0] / ei[0] - 1), 100 * si[3], 100 * ei[3],
            "within" if di <= max(si[3], ei[3]) else "OUTSIDE",
            100 * (sp[0] / ep[0] - 1), 100 * sp[3], 100 * ep[3],
            "within" if dp <= max(sp[3], ep[3]) else "OUTSIDE",
            "equal" if sl == el else "DIFFER %s vs %s" % (sl, el)))
print()
# paired by round (both modes of a round ran back to back, so they saw about the same host load)
for c in ctrls:
    e = {x["round"]: x for x in data["each"][c]}
    ri = sorted(x["iops"] / e[x["round"]]["iops"] for x in data["shared"][c] if x["round"] in e)
    rp = sorted(x["p99"] / e[x["round"]]["p99"] for x in data["shared"][c] if x["round"] in e)
    if ri:
        print("%s: per round shared/each IOPS %s (median %.2f), p99 %s (median %.2f)" % (
            c, " ".join("%.2f" % v for v in ri), statistics.median(ri),
            " ".join("%.2f" % v for v in rp), statistics.median(rp)))
print()
for m in ("shared", "each"):
    if walls[m]:
        print("%s: whole lab %.0f s mean over %d runs (%s), %.1f s per controller" % (
            m, statistics.mean(walls[m]), len(walls[m]), ", ".join("%.0f" % w for w in walls[m]),
            statistics.mean(walls[m]) / n))
print("spread = (max - min) / mean over the rounds; 'within' = the modes' mean differ by no more than the larger spread")
for v in verdict:
    print(v)
PY
