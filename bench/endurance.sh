#!/usr/bin/env bash
# Endurance: iomark at full rate for a long time; resident memory (VmRSS) is
# sampled every 10 s. Prints the RSS after the first minute, the largest RSS
# after it, and the growth, for the null engine and a RAM-backed loop device.
# usage: bench/endurance.sh [SECONDS] [null|ramloop|both]   (default 3600, both)
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-3600}
WHICH=${2:-both}
IOMARK=${IOMARK:-./build/iomark}
W=$(mktemp -d /var/tmp/iomark-endurance.XXXXXX)
LOOP=""
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$W" /dev/shm/iomark-endurance.img; }
trap cleanup EXIT

watch_rss() { # name pid
  local name=$1 pid=$2 t=0 rss first="" max=0
  while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
    if [ "$t" -ge 60 ]; then
      [ -z "$first" ] && first=$rss
      [ "$rss" -gt "$max" ] && max=$rss
    fi
    echo "$t $rss" >> "$W/$name.rss"
    sleep 10; t=$((t + 10))
  done
  echo "$name: ${SECS}s, RSS after 60 s ${first:-?} KiB, max after that ${max} KiB, growth $(( max - ${first:-0} )) KiB ($( [ $(( max - ${first:-0} )) -le 1024 ] && echo 'within 1 MiB' || echo 'OVER 1 MiB'))"
}

echo "# iomark $(git rev-parse --short HEAD 2>/dev/null), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) CPUs, kernel $(uname -r)"
if [ "$WHICH" = null ] || [ "$WHICH" = both ]; then
  "$IOMARK" run --size=1G --runtime=1 --quiet "$W/null.dat" >/dev/null
  "$IOMARK" run --ioengine=null --iodepth=32 --runtime=${SECS}s --quiet --output-format=json --output="$W/null.json" "$W/null.dat" &
  watch_rss null $! &
fi
if [ "$WHICH" = ramloop ] || [ "$WHICH" = both ]; then
  dd if=/dev/urandom of=/dev/shm/iomark-endurance.img bs=1M count=512 status=none
  LOOP=$(losetup -f --show --direct-io=on /dev/shm/iomark-endurance.img)
  "$IOMARK" run --iodepth=32 --runtime=${SECS}s --quiet --output-format=json --output="$W/loop.json" "$LOOP" &
  watch_rss ramloop $! &
fi
wait
for f in "$W"/*.json; do
  /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); t=d['total']['total']; print(sys.argv[1].split('/')[-1], d['status'], int(t['ios']), 'I/Os', round(t['iops']), 'IOPS', len(d['series']['points']), 'series points')" "$f"
done
