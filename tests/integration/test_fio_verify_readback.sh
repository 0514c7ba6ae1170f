#!/bin/bash
# test_fio_verify_readback.sh - fio's read-back of a job's own writes
# (do_verify=1, fio's default; verify_backlog=N; core/layers.h):
#   - a FUSE file whose bytes 64-128 KiB lose every write (the write reports
#     success, the bytes stay as they were: faildisk.c FAILDISK_LOST_WRITES):
#     a direct write job with verify=crc32c fails (exit 1) at byte 65536 with
#     fio's "bad magic header", as fio 3.33 does on the same file ("bad magic
#     header ... offset 65536", exit 1);
#   - with verify_backlog=4 both tools stop at that backlog: the block at
#     192 KiB is never written (it still holds the file's initial bytes) in
#     iomark's run and in fio's;
#   - writes that overlap (randwrite, bssplit 4k/16k, norandommap, 4 passes
#     worth of io_size): only the latest of overlapping writes is checked, so
#     the job passes (exit 0), as in fio 3.33; and enospc-pressure.fio's
#     aio-dio-verifier (randrw, crc32c-intel, verify_backlog) passes;
#   - do_verify=0: nothing is read back (the lost writes go unnoticed, exit 0,
#     as in fio).
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "skip: no fio"; exit 77; }
cd "$WORK"
printf '[w]\nioengine=psync\nrw=randwrite\nbssplit=4k/50:16k/50\nnorandommap=1\nsize=256k\nio_size=1m\nfilename=%s\nverify=crc32c\n' \
  "$WORK/ov.bin" >ov.fio
expect_status 0 "overlapping bssplit writes: the latest of each checked, the job passes" -- "$IOMARK" run ov.fio
expect_status 0 "fio 3.33 passes the same job" -- fio ov.fio
printf '[aio-dio-verifier]\nverify=crc32c-intel\nverify_fatal=1\nverify_backlog=64\nbs=4k\nrw=randrw\nfilename=%s\nsize=1m\nio_size=2m\n' \
  "$WORK/ad.bin" >ad.fio
expect_status 0 "aio-dio-verifier (randrw, backlog 64) passes" -- "$IOMARK" run ad.fio

[ -e /dev/fuse ] && pkg-config --exists fuse3 || { echo "skip: needs /dev/fuse and libfuse3-dev"; finish; }
cc -O1 -o faildisk "$SRCDIR/tests/integration/faildisk.c" $(pkg-config --cflags --libs fuse3) \
  || { echo "skip: cannot build the FUSE helper"; finish; }
mount_lost() { # start a fresh FUSE file: 1 MiB, writes to 64-128 KiB lost
  mkdir -p "$WORK/fuse"
  FAILDISK_BYTES=$((1 << 20)) FAILDISK_BAD_START=65536 FAILDISK_BAD_END=131072 FAILDISK_LOST_WRITES=1 \
    ./faildisk "$WORK/fuse" & fpid=$!
  for i in $(seq 50); do [ -e "$WORK/fuse/disk.img" ] && break; sleep 0.1; done
  [ -e "$WORK/fuse/disk.img" ] || { echo "skip: FUSE mount did not appear"; kill $fpid; finish; }
  MOUNTS=("$WORK/fuse") # unmounted at exit if a check leaves it
}
umount_lost() { fusermount3 -u "$WORK/fuse" 2>/dev/null || umount "$WORK/fuse"; wait $fpid 2>/dev/null; MOUNTS=(); }
IMG=$WORK/fuse/disk.img
lj() { printf '[w]\nioengine=psync\nrw=write\nbs=4k\nsize=256k\ndirect=1\nfilename=%s\nverify=crc32c\n%b' "$IMG" "${1:-}"; }
untouched() { # the block at 192 KiB still holds faildisk's initial bytes (i * 131 + 7)
  "$PY" -c "
import sys
b = open('$IMG', 'rb').read()[196608:200704]
sys.exit(0 if all(x == (i * 131 + 7) & 255 for i, x in zip(range(196608, 200704), b)) else 1)"
}
lj >l.fio
lj 'verify_backlog=4\n' >lb.fio
lj 'do_verify=0\n' >l0.fio

mount_lost
rc=0; "$IOMARK" run l.fio >/dev/null 2>l.err || rc=$?
[ "$rc" = 1 ] && grep -q "verify failed at byte 65536: bad fio verify header.*: bad magic header" l.err \
  && pass "lost writes: iomark's read-back fails at 65536 (bad magic header)" || fail "iomark: exit $rc: $(tail -1 l.err)"
umount_lost; mount_lost
rc=0; fio l.fio >f.out 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "bad magic header.*offset 65536" f.out && pass "fio 3.33 fails the same way at 65536" \
  || fail "fio: exit $rc: $(grep -m1 verify f.out)"
umount_lost; mount_lost
rc=0; "$IOMARK" run lb.fio >/dev/null 2>lb.err || rc=$?
[ "$rc" = 1 ] && grep -q "verify failed at byte 65536" lb.err && untouched \
  && pass "verify_backlog=4: iomark fails at 65536 and stops (192 KiB never written)" \
  || fail "iomark backlog: exit $rc: $(tail -1 lb.err)"
umount_lost; mount_lost
rc=0; fio lb.fio >f.out 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "offset 65536" f.out && untouched \
  && pass "verify_backlog=4: fio 3.33 fails at 65536 and stops too" || fail "fio backlog: exit $rc"
umount_lost; mount_lost
expect_status 0 "do_verify=0: nothing read back (as fio)" -- "$IOMARK" run l0.fio
umount_lost
finish
