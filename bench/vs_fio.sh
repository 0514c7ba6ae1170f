#!/usr/bin/env bash
# iomark against fio (Debian's fio) on the same targets in one run,
# alternating the two tools, for the cases of issue 2:
#   null engine 4K QD1 and QD32;
#   RAM-backed loop device (file on /dev/shm, O_DIRECT) 4K randread QD1, QD32 (io_uring);
#   a file on the machine's disk: 4K randread QD32 and 1M sequential read.
# For each case it prints both tools' IOPS, mean and p99 latency (submission
# to completion), CPU per I/O (each tool's own figure: iomark's process CPU
# over its measured time, fio's job thread), and the ratios iomark/fio; then
# a second line from bench/proc_cpu.py, the same for both tools: the whole
# process's CPU (every thread, io_uring io-wq workers included) over the I/Os
# /proc/diskstats counted on the device while it ran. Needs root for the loop
# device.
#
# usage: bench/vs_fio.sh [RUNTIME_S] [ROUNDS]   (defaults 10 s, 2 rounds)
#        BENCH_CASES=REGEX limits the run to the cases whose name matches (grep -E)
set -euo pipefail
cd "$(dirname "$0")/.."
RT=${1:-10}
ROUNDS=${2:-2}
IOMARK=${IOMARK:-./build/iomark}
[ -x "$IOMARK" ] || { echo "build iomark first (bash scripts/setup.sh)"; exit 2; }
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 2; }
W=$(mktemp -d /var/tmp/iomark-bench.XXXXXX)
LOOP=""
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$W" /dev/shm/iomark-bench.img; }
trap cleanup EXIT

# targets
DISKFILE=$W/disk.dat
"$IOMARK" run --size=2G --runtime=1 --quiet "$DISKFILE" >/dev/null   # creates and fills it
if [ "$(id -u)" = 0 ]; then
  dd if=/dev/urandom of=/dev/shm/iomark-bench.img bs=1M count=1024 status=none
  LOOP=$(losetup -f --show --direct-io=on /dev/shm/iomark-bench.img)
fi

# name | iomark options | fio options | target
CASES=(
  "null 4K QD1|--ioengine=null --rw=randread --bs=4k --iodepth=1|--ioengine=null --size=2G --rw=randread --bs=4k --iodepth=1|$DISKFILE"
  "null 4K QD32|--ioengine=null --rw=randread --bs=4k --iodepth=32|--ioengine=null --size=2G --rw=randread --bs=4k --iodepth=32|$DISKFILE"
)
if [ -n "$LOOP" ]; then
  CASES+=(
    "ramloop 4K randread QD1|--ioengine=io_uring --rw=randread --bs=4k --iodepth=1|--ioengine=io_uring --fixedbufs=1 --registerfiles=1 --rw=randread --bs=4k --iodepth=1|$LOOP"
    "ramloop 4K randread QD32|--ioengine=io_uring --rw=randread --bs=4k --iodepth=32|--ioengine=io_uring --fixedbufs=1 --registerfiles=1 --rw=randread --bs=4k --iodepth=32|$LOOP"
    "ramloop 1M seqread QD8|--ioengine=io_uring --rw=read --bs=1M --iodepth=8|--ioengine=io_uring --fixedbufs=1 --registerfiles=1 --rw=read --bs=1M --iodepth=8|$LOOP"
    "ramloop 1M seqread QD1|--ioengine=io_uring --rw=read --bs=1M --iodepth=1|--ioengine=io_uring --fixedbufs=1 --registerfiles=1 --rw=read --bs=1M --iodepth=1|$LOOP"
  )
fi
CASES+=(
  "disk 4K randread QD32|--ioengine=io_uring --rw=randread --bs=4k --iodepth=32|--ioengine=io_uring --fixedbufs=1 --registerfiles=1 --rw=randread --bs=4k --iodepth=32|$DISKFILE"
  "disk 1M seqread QD8|--ioengine=io_uring --rw=read --bs=1M --iodepth=8|--ioengine=io_uring --fixedbufs=1 --registerfiles=1 --rw=read --bs=1M --iodepth=8|$DISKFILE"
)

echo "# iomark $("$IOMARK" --version | cut -d' ' -f2) vs $(fio --version), $(date -u +%Y-%m-%dT%H:%MZ)"
echo "# $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), ${RT}s per run, $ROUNDS rounds, direct I/O"
for c in "${CASES[@]}"; do
  IFS='|' read -r name iopt fopt target <<<"$c"
  [ -z "${BENCH_CASES:-}" ] || grep -qE -- "$BENCH_CASES" <<<"$name" || continue
  bs=$(grep -oE -- '--bs=[0-9]+[kKmM]' <<<"$iopt" | cut -d= -f2)
  case $bs in *[kK]) bs=$(( ${bs%?} * 1024 )) ;; *[mM]) bs=$(( ${bs%?} * 1048576 )) ;; esac
  FROM=$(( RT / 5 + 1 )); TO=$(( RT - RT / 5 ))   # a window inside both tools' run time
  for r in $(seq 1 "$ROUNDS"); do
    # shellcheck disable=SC2086
    bench/proc_cpu.py "$W/i.$r.proc.json" "$target" "$bs" "$FROM" "$TO" -- \
      "$IOMARK" run $iopt --runtime=${RT}s --randseed=$r --output-format=json --output="$W/i.$r.json" --quiet "$target"
    # shellcheck disable=SC2086
    bench/proc_cpu.py "$W/f.$r.proc.json" "$target" "$bs" "$FROM" "$TO" -- \
      fio --name=bench $fopt --direct=1 --filename="$target" --runtime=$RT --time_based \
        --lat_percentiles=1 --randrepeat=0 --output-format=json --output="$W/f.$r.json" >/dev/null
  done
  /usr/bin/python3 bench/compare_fio.py "$name" "$W" "$ROUNDS"
done
