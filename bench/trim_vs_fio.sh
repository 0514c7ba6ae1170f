#!/usr/bin/env bash
# Trims (fio's third data direction), iomark against fio in one run,
# alternating the two tools on the same target:
#   RAM-backed loop device (a /dev/shm file: the loop driver punches holes),
#     4K randtrim QD1 with psync (BLKDISCARD per I/O in both tools) and
#     64K randtrim QD8 with io_uring (iomark: the block layer's discard
#     command, BLOCK_URING_CMD_DISCARD; fio 3.33's io_uring engine trims
#     synchronously, FIO_ASYNCIO_SYNC_TRIM);
#   a file on the machine's disk, 64K randtrim QD1: iomark psync (punched
#     hole) against fio's falloc engine (fio's psync cannot trim a file).
# Per case: both tools' trim IOPS, mean and p99 latency, CPU per trim (each
# tool's own process/thread CPU over its trims), and iomark/fio ratios. Every
# run starts from the same state: the target is written full of the same
# random data first (a trim of a hole costs far less than one of data: on the
# disk file 130 trims/s at first, over 500,000/s once all is punched).
# With OLD_IOMARK=path (an iomark built before trims), also the null engine
# 4K randread at QD1 and QD32, old against this build: instructions per I/O of
# jobs without trims (valgrind's callgrind).
# Needs root (loop device).
#
# usage: bench/trim_vs_fio.sh [RUNTIME_S] [ROUNDS]   (defaults 5 s, 2 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
RT=${1:-5}
ROUNDS=${2:-2}
IOMARK=${IOMARK:-./build/iomark}
[ -x "$IOMARK" ] || { echo "build iomark first (bash scripts/setup.sh)"; exit 2; }
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root for the loop device"; exit 2; }
W=$(mktemp -d /var/tmp/iomark-trimbench.XXXXXX)
IMG=$(mktemp /dev/shm/iomark-trimbench.XXXXXX)
SRC=$(mktemp /dev/shm/iomark-trimbench-src.XXXXXX)
LOOP=""
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$W" "$IMG" "$SRC"; }
trap cleanup EXIT
MB=256
dd if=/dev/urandom of="$SRC" bs=1M count=$MB status=none
cp "$SRC" "$IMG"
LOOP=$(losetup -f --show "$IMG")
DISKFILE=$W/disk.dat
refill() { # TARGET: the same data again, written through
  if [ -b "$1" ]; then dd if="$SRC" of="$1" bs=1M oflag=direct status=none
  else cp "$SRC" "$1"; fi
  sync
}

# name | iomark options | fio options | target
CASES=(
  "ramloop 4K randtrim QD1 psync|--ioengine=psync --rw=randtrim --bs=4k --iodepth=1|--ioengine=psync --rw=randtrim --bs=4k --iodepth=1|$LOOP"
  "ramloop 64K randtrim QD8 io_uring|--ioengine=io_uring --rw=randtrim --bs=64k --iodepth=8|--ioengine=io_uring --rw=randtrim --bs=64k --iodepth=8|$LOOP"
  "disk file 64K randtrim QD1|--ioengine=psync --rw=randtrim --bs=64k --iodepth=1|--ioengine=falloc --rw=randtrim --bs=64k --iodepth=1|$DISKFILE"
)
echo "# iomark $("$IOMARK" --version | cut -d' ' -f2) vs $(fio --version), $(date -u +%Y-%m-%dT%H:%MZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $(nproc) CPUs, kernel $(uname -r), ${RT}s per run, $ROUNDS rounds, region $MB MiB (refilled before each run), offsets drawn with replacement (fio: norandommap; iomark: its default)"
report() { # NAME ROUNDS: means over the rounds of both tools' figures
  /usr/bin/python3 - "$W" "$@" <<'PY'
import json, sys
w, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def mean(v): return sum(v) / len(v)
I, F = [], []
for r in range(1, rounds + 1):
    d = json.load(open("%s/i.%d.json" % (w, r)))
    t, c = d["total"]["trim"], d["cpu"]
    s = d["duration"]["measured_s"]
    I.append((t["iops"], t["lat_us"]["mean"], t["lat_us"]["percentiles"]["99"],
              (c["process_user_s"] + c["process_system_s"]) * 1e6 / max(t["ios"], 1)))
    j = json.load(open("%s/f.%d.json" % (w, r)))["jobs"][0]
    x = j["trim"]
    cpu_s = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1000.0
    F.append((x["iops"], x["lat_ns"]["mean"] / 1e3, x["clat_ns"]["percentile"]["99.000000"] / 1e3,
              cpu_s * 1e6 / max(x["total_ios"], 1)))
i = [mean([v[k] for v in I]) for k in range(4)]
f = [mean([v[k] for v in F]) for k in range(4)]
print("| %s | %.0f | %.1f | %.1f | %.2f | %.0f | %.1f | %.1f | %.2f | %.2f | %.2f |" % (
    name, i[0], i[1], i[2], i[3], f[0], f[1], f[2], f[3], i[0] / f[0], f[3] / i[3]))
PY
}
echo "| case | iomark IOPS | mean us | p99 us | CPU us/trim | fio IOPS | mean us | p99 us | CPU us/trim | IOPS ratio | CPU ratio (fio/iomark) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for c in "${CASES[@]}"; do
  IFS='|' read -r name iopt fopt target <<<"$c"
  for r in $(seq 1 "$ROUNDS"); do
    refill "$target"
    # shellcheck disable=SC2086
    "$IOMARK" run $iopt --size=${MB}m --runtime=${RT}s --randseed=$r --force \
      --output-format=json --output="$W/i.$r.json" --quiet "$target"
    refill "$target"
    # shellcheck disable=SC2086
    fio --name=bench $fopt --filename="$target" --size=${MB}m --runtime=$RT --time_based \
      --norandommap --randrepeat=0 --output-format=json --output="$W/f.$r.json" >/dev/null
  done
  report "$name" "$ROUNDS"
done

[ -n "${OLD_IOMARK:-}" ] || exit 0
command -v valgrind >/dev/null || { echo "OLD_IOMARK needs valgrind (callgrind counts instructions)"; exit 2; }
# Instructions per I/O of a job without trims (null engine, 4K randread), old
# build against this one: callgrind's instruction count (exact, not disturbed by
# the machine's load) of a run of 25,600 I/Os subtracted from one of 51,200,
# over the 25,600 I/Os between them (start-up and set-up cancel out).
echo
echo "| null engine 4K randread, no trims | old build: instructions per I/O | this build | this / old |"
echo "|---|---|---|---|"
for qd in 1 32; do
  declare -A ir=()
  for b in old new; do
    bin=$IOMARK; [ $b = old ] && bin=$OLD_IOMARK
    for sz in 100m 200m; do
      valgrind --tool=callgrind --callgrind-out-file="$W/cg.out" "$bin" run --ioengine=null \
        --rw=randread --bs=4k --iodepth=$qd --size=2g --io_size=$sz --runtime=600s \
        --series_interval=600s --quiet --output-format=json --output="$W/cg.json" \
        "$W/null.dat" >"$W/cg.log" 2>&1
      ir[$b.$sz]=$(grep -o 'Collected : [0-9]*' "$W/cg.log" | grep -o '[0-9]*$')
    done
  done
  /usr/bin/python3 -c "
o = (${ir[old.200m]} - ${ir[old.100m]}) / 25600.0; n = (${ir[new.200m]} - ${ir[new.100m]}) / 25600.0
print('| QD$qd | %.1f | %.1f | %.3f |' % (o, n, n / o))"
done
