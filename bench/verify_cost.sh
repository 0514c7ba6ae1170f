#!/bin/bash
# verify_cost.sh - user-space instructions per I/O (valgrind's callgrind, so the
# machine's load does not matter) of:
#   - runs without verify (null engine: sequential 4 KiB writes with one size
#     and with bssplit, random 4 KiB reads), for the build under test and, when
#     BASE names another iomark binary (e.g. main before the change), for that
#     one too: verify is a layer stacked only when asked for;
#   - 4 KiB sequential writes on the null engine with each fio verify= algorithm
#     (the cost of filling fio's block: data, header, digest), iomark and fio
#     3.33 in the same run (fio's null engine also fills verify blocks; neither
#     tool checks reads of a fake engine);
# Each figure is the difference between a run of 3 x N and one of N MiB over the
# 2 N x 256 I/Os between them, so set-up and exit cancel out.
# Usage: IOMARK=build/iomark [BASE=/path/to/old/iomark] bench/verify_cost.sh [N_MIB]
set -euo pipefail
: "${IOMARK:?set IOMARK to the iomark binary}"
command -v valgrind >/dev/null || { echo "needs valgrind" >&2; exit 1; }
N=${1:-64}
DIR=$(mktemp -d /var/tmp/iomark-verify-bench.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
diff_io() { awk -v a="$1" -v c="$2" -v n="$((2 * N * 256))" 'BEGIN { printf "%.2f", (c - a) / n }'; }
# iomark_io BIN ARGS...: instructions per I/O of a native null-engine run
iomark_io() {
  local b=$1; shift
  diff_io "$(ir "$b" run --ioengine=null --size=64m --io_size=${N}m "$@" --quiet "$DIR/f")" \
          "$(ir "$b" run --ioengine=null --size=64m --io_size=$((3 * N))m "$@" --quiet "$DIR/f")"
}
# fio_io ARGS...: the same with fio 3.33
fio_io() {
  diff_io "$(ir fio --name=j --ioengine=null --size=64m --io_size=${N}m "$@" --output=/dev/null)" \
          "$(ir fio --name=j --ioengine=null --size=64m --io_size=$((3 * N))m "$@" --output=/dev/null)"
}
echo "| binary | seq write 4k | seq write bssplit 4k/16k | rand read 4k |"
echo "|---|---|---|---|"
for b in ${BASE:-} "$IOMARK"; do
  echo "| $b | $(iomark_io "$b" --rw=write --bs=4k) | $(iomark_io "$b" --rw=write --bssplit=4k/50:16k/50) |" \
       "$(iomark_io "$b" --rw=randread --bs=4k) |"
done
echo
echo "| verify= | iomark | fio 3.33 |"
echo "|---|---|---|"
for a in meta crc7 crc16 crc32 crc32c-intel crc64 xxhash md5 sha1 sha256 sha512 sha3-256; do
  echo "| $a | $(iomark_io "$IOMARK" --rw=write --bs=4k --verify=$a --do_verify=0) |" \
       "$(fio_io --rw=write --bs=4k --verify=$a --do_verify=0) |"
done
