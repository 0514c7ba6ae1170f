#!/bin/bash
# test_fio_fill.sh - fio's fill_device (alias fill_fs) in job files: a new
# file on a 16 MiB tmpfs is written sequentially until ENOSPC, which ends the
# job without an error (fio 3.33 backend.c). The bytes written must equal the
# free space df reported before the run, fio 3.33's own bytes for the same
# job, and the file's allocated size (stat); exit 0 and fio's error 0, as fio.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
tmpfs_at "$WORK/mnt" 16m
printf '[fill]\nfilename=%s/mnt/fill\nrw=write\nbs=64k\nfill_device=1\nioengine=psync\n' "$WORK" >fill.fio
res() { $PY -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print(j['error'], j['write']['io_bytes'])" "$1"; }

free=$(df -B1 --output=avail mnt | tail -1 | tr -d ' ')
rc=0; fio fill.fio --output-format=json --output=fio.json >/dev/null 2>&1 || rc=$?
want="$rc $(res fio.json)"
rm -f mnt/fill
free2=$(df -B1 --output=avail mnt | tail -1 | tr -d ' ')
rc=0; "$IOMARK" run fill.fio --quiet --output-format=json --output=iom.json >/dev/null 2>err.txt || rc=$?
got="$rc $(res iom.json 2>/dev/null || echo none)"
alloc=$(( $(stat -c '%b * %B' mnt/fill) ))
[ "$free" = "$free2" ] && [ "$free" -ge $((8 << 20)) ] && pass "df: $free bytes free before each run" \
  || fail "free space before the runs: $free and $free2"
[ "$got" = "0 0 $free" ] && pass "iomark: exit 0, error 0, $free bytes written = df's free space" \
  || fail "iomark: '$got' (exit, error, bytes), wanted '0 0 $free': $(head -c 300 err.txt)"
[ "$got" = "$want" ] && pass "fio 3.33 the same: $want" || fail "fio '$want', iomark '$got'"
[ "$alloc" = "$free" ] && pass "the file holds $alloc bytes (stat)" || fail "file allocation $alloc, free was $free"
left=$(df -B1 --output=avail mnt | tail -1 | tr -d ' ')
[ "$left" = 0 ] && pass "the filesystem is full afterwards" || fail "$left bytes left"

# refusals: exit 2, one line, nothing created
rm -f mnt/fill
expect_job_refused "fill_device with rw=randwrite refused" \
  "[f]\nfilename=$WORK/mnt/new\nrw=randwrite\nfill_device=1" "fill_device: iomark fills with a plain sequential write"
[ ! -e mnt/new ] && pass "nothing created" || fail "a refused job created mnt/new"
finish
