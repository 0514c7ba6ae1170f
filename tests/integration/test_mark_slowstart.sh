#!/usr/bin/env bash
# A target whose first 3 s are slow (a FUSE file that sleeps 50 ms per request
# until 3 s after its first request, then runs at memory speed, like a cold
# cloud volume): `iomark mark` spends them in the uncounted 3 s preparation
# run, reports the best counted run, and keeps the preparation run in the
# JSON marked uncounted. Expected figures are recomputed from the runs.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "skip: needs root for FUSE"; exit 77; }
[ -e /dev/fuse ] && pkg-config --exists fuse3 || { echo "skip: needs /dev/fuse and libfuse3-dev"; exit 77; }
cc -O1 -o $WORK/slowdisk "$SRCDIR/tests/integration/slowdisk.c" $(pkg-config --cflags --libs fuse3) \
  || { echo "skip: cannot build the FUSE helper"; exit 77; }
mkdir -p $WORK/fuse
SLOWDISK_BYTES=$((64 << 20)) SLOWDISK_SLOW_MS=3000 SLOWDISK_DELAY_US=50000 $WORK/slowdisk $WORK/fuse & fpid=$!
for i in $(seq 50); do [ -e $WORK/fuse/disk.img ] && break; sleep 0.1; done
[ -e $WORK/fuse/disk.img ] || { echo "skip: FUSE mount did not appear"; kill $fpid; exit 77; }
MOUNTS+=("$WORK/fuse")

# --force: without it mark first probes the existing file for a filesystem
# signature (libblkid, the reads of blkid -p), and those ~48 requests at 50 ms
# (2.4 s) would spend the slow seconds before the preparation run starts
expect_status 0 "mark realworld on a slow-start target" -- "$IOMARK" mark --profile=realworld --runs=2 --runtime=1 \
  --prepare=3s --pause=0 --size=64M --force --output-format=json --output=$WORK/s.json --quiet $WORK/fuse/disk.img
[ -e $WORK/fuse/disk.img ] && pass "existing target kept" || fail "target removed"
$PY - $WORK/s.json <<'PY' && pass "preparation run excluded, best counted run reported" || fail "slow start"
import json, sys, os, jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(os.environ["SRCDIR"] + "/docs/mark.schema.json")), cls=jsonschema.Draft202012Validator)
x = d["tests"][0]["read"]          # SEQ1M Q1T1 read: the first test, over the slow seconds
prep, runs = x["each_run"][0], x["each_run"][1:]
print("prepare %.1f MB/s, runs %s MB/s, reported %.1f MB/s" % (prep["mb_per_s"], [round(r["mb_per_s"], 1) for r in runs], x["mb_per_s"]))
checks = {
    "preparation run uncounted": prep["counted"] is False and prep["phase"] == "prepare",
    "two counted runs": all(r["counted"] for r in runs) and len(runs) == 2,
    # the slow seconds fell in the preparation run: slower than every counted run
    "preparation slower": prep["mb_per_s"] < min(r["mb_per_s"] for r in runs),
    "preparation latency higher": prep["lat_mean_us"] > max(r["lat_mean_us"] for r in runs),
    # reported: the best counted run (not the preparation run), the lowest counted mean latency
    "best counted MB/s": x["mb_per_s"] == max(r["mb_per_s"] for r in runs),
    "lowest counted latency": x["lat_mean_us"] == min(r["lat_mean_us"] for r in runs if r["mb_per_s"] > 0),
    # the spread and mean leave the preparation run out too
    "mean of counted": abs(x["mean"]["mb_per_s"] - sum(r["mb_per_s"] for r in runs) / 2) <= 1e-9 * x["mean"]["mb_per_s"],
    "min of counted": x["min"]["mb_per_s"] == min(r["mb_per_s"] for r in runs) > prep["mb_per_s"],
    "measured time of counted": abs(x["measured_s"] - sum(r["measured_s"] for r in runs)) <= 1e-9,
}
bad = [k for k, v in checks.items() if not v]
print("failed checks:", bad, "prep lat %.0f us, runs lat %s us" % (prep["lat_mean_us"], [round(r["lat_mean_us"]) for r in runs]))
ok = not bad
sys.exit(0 if ok else 1)
PY
finish
