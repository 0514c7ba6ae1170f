#!/bin/bash
# cmdprio_cost.sh - user-space instructions per I/O (valgrind's callgrind, so the
# machine's load does not matter) of iomark's hot loop: without per-I/O
# priorities (null engine and io_uring) and with cmdprio_percentage=20 (io_uring),
# for the build under test and, when BASE names another iomark binary (e.g. the
# commit before), for that one too. Each figure is the difference between a run
# of 3 x N and one of N 4 KiB reads over 2 N I/Os, so set-up and exit cancel out.
# Usage: IOMARK=build/iomark [BASE=/path/to/old/iomark] bench/cmdprio_cost.sh [N_MIB]
set -euo pipefail
: "${IOMARK:?set IOMARK to the iomark binary}"
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
N=${1:-128}
DIR=$(mktemp -d /var/tmp/iomark-cmdprio-bench.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
truncate -s 64m "$DIR/f"
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
# per_io BIN ARGS...: instructions per I/O (two decimals)
per_io() {
  local b=$1; shift
  local a c
  a=$(ir "$b" run "$@" --rw=randread --bs=4k --size=64m --io_size=${N}m --iodepth=8 --quiet "$DIR/f")
  c=$(ir "$b" run "$@" --rw=randread --bs=4k --size=64m --io_size=$((3 * N))m --iodepth=8 --quiet "$DIR/f")
  awk -v a="$a" -v c="$c" -v n="$((2 * N * 256))" 'BEGIN { printf "%.2f", (c - a) / n }'
}
echo "| binary | null | io_uring (buffered) | io_uring, cmdprio_percentage=20 |"
echo "|---|---|---|---|"
for b in ${BASE:-} "$IOMARK"; do
  cp=$( "$b" run --help 2>&1 | grep -c -- --cmdprio_percentage >/dev/null \
        && per_io "$b" --ioengine=io_uring --direct=0 --cmdprio_percentage=20 --cmdprio_class=2 || echo "-")
  echo "| $b | $(per_io "$b" --ioengine=null) | $(per_io "$b" --ioengine=io_uring --direct=0) | $cp |"
done
