#!/usr/bin/env bash
# Where each tool's CPU per I/O goes: user space vs the kernel, iomark against
# fio 3.x on the same RAM-backed loop device, alternating, in one run.
#
# Both tools' processes are timed whole by GNU time (%U user, %S system CPU
# seconds: getrusage(2) of the child and its threads); the I/Os are the
# device's own count (/proc/diskstats reads completed, field 4,
# Documentation/admin-guide/iostats.rst) over each process's life, so neither
# tool's bookkeeping is trusted. It prints, per tool, user and system
# microseconds per I/O, and at the end the ratio fio/iomark of CPU per I/O and
# the bound on that ratio: fio's total over iomark's system time alone, i.e.
# what the ratio would be if iomark spent no user time at all. When both tools
# drive the same kernel path (io_uring, the block layer and the loop driver)
# their system time per I/O is alike and that bound is the most any user-space
# change can reach.
#
# usage: bench/cpu_split.sh [RUNTIME_S] [ROUNDS] [IODEPTH] [BS]   (defaults 10 3 32 4k)
# Needs root (loop device) and fio; IOMARK=path overrides ./build/iomark.
set -euo pipefail
cd "$(dirname "$0")/.."
RT=${1:-10} ROUNDS=${2:-3} QD=${3:-32} BS=${4:-4k}
IOMARK=${IOMARK:-./build/iomark}
[ -x "$IOMARK" ] || { echo "build iomark first (bash scripts/setup.sh)"; exit 2; }
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 2; }
[ "$(id -u)" = 0 ] || { echo "needs root for the loop device"; exit 2; }
IMG=$(mktemp /dev/shm/iomark-cpusplit.XXXXXX)
LOOP=""
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -f "$IMG"; }
trap cleanup EXIT
dd if=/dev/urandom of="$IMG" bs=1M count=1024 status=none
LOOP=$(losetup -f --show --direct-io=on "$IMG")
DEV=$(basename "$LOOP")
reads() { awk -v d="$DEV" '$3 == d { print $4 }' /proc/diskstats; }

# measure TOOL CMD...: prints "user_us_per_io sys_us_per_io ios"
measure() {
  local tool=$1; shift
  local before after t tf
  tf=$(mktemp)
  before=$(reads)
  /usr/bin/time -o "$tf" -f '%U %S' "$@" >/dev/null 2>&1
  after=$(reads)
  t=$(tail -1 "$tf"); rm -f "$tf"
  awk -v t="$t" -v n=$((after - before)) -v tool="$tool" 'BEGIN {
    split(t, c, " "); printf "%s %.4f %.4f %d\n", tool, c[1] * 1e6 / n, c[2] * 1e6 / n, n }'
}

echo "# cpu_split: iomark $("$IOMARK" --version 2>/dev/null | head -1 | awk '{print $2}') vs $(fio --version), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# 4K-class case: rw=randread bs=$BS iodepth=$QD, io_uring, direct, ${RT}s per run, $ROUNDS rounds; per I/O in us"
OUT=$(mktemp)
for r in $(seq "$ROUNDS"); do
  measure iomark "$IOMARK" run --ioengine=io_uring --rw=randread --bs="$BS" --iodepth="$QD" \
    --runtime="$RT" --direct=1 --force --quiet "$LOOP" | tee -a "$OUT"
  measure fio fio --name=cpusplit --filename="$LOOP" --ioengine=io_uring --rw=randread --bs="$BS" \
    --iodepth="$QD" --runtime="$RT" --time_based --direct=1 --fixedbufs=1 --registerfiles=1 \
    --norandommap | tee -a "$OUT"
done
awk '{ u[$1] += $2; s[$1] += $3; n[$1]++ }
  END {
    for (t in n) printf "%-7s mean user %.3f  system %.3f  total %.3f us per I/O\n", t, u[t]/n[t], s[t]/n[t], (u[t]+s[t])/n[t]
    fi = (u["fio"]+s["fio"])/n["fio"]; io = (u["iomark"]+s["iomark"])/n["iomark"]; is = s["iomark"]/n["iomark"]
    printf "ratio fio/iomark CPU per I/O %.2fx; bound with iomark user time 0: %.2fx\n", fi/io, fi/is
  }' "$OUT"
rm -f "$OUT"
