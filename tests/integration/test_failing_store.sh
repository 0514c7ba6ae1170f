#!/usr/bin/env bash
# Real I/O errors: a loop device over a FUSE file whose bytes 8-9 MiB fail
# with EIO. iomark reports the error with its offset and errno, stops the
# thread (or counts every failed block with --continue_on_error).
source "$(dirname "$0")/lib.sh"
need_root_loop
[ -e /dev/fuse ] && pkg-config --exists fuse3 || { echo "skip: needs /dev/fuse and libfuse3-dev"; exit 77; }
cc -O1 -o $WORK/faildisk "$SRCDIR/tests/integration/faildisk.c" $(pkg-config --cflags --libs fuse3) \
  || { echo "skip: cannot build the FUSE helper"; exit 77; }
mkdir -p $WORK/fuse
FAILDISK_BYTES=$((16 << 20)) FAILDISK_BAD_START=$((8 << 20)) FAILDISK_BAD_END=$((9 << 20)) \
  $WORK/faildisk $WORK/fuse & fpid=$!
for i in $(seq 50); do [ -e $WORK/fuse/disk.img ] && break; sleep 0.1; done
[ -e $WORK/fuse/disk.img ] || { echo "skip: FUSE mount did not appear"; kill $fpid; exit 77; }
MOUNTS+=("$WORK/fuse")
IMG=$WORK/fuse/disk.img

# (FUSE accepts O_DIRECT on this kernel, so both paths see the error)
expect_status 1 "direct reads hit the bad range" -- "$IOMARK" run --rw=read --bs=64k --io_size=16M --quiet $IMG
grep -q "Input/output error" $WORK/err && pass "EIO named" || fail "EIO message: $(cat $WORK/err)"
expect_status 1 "buffered reads hit the bad range" -- "$IOMARK" run --direct=0 --rw=read --bs=64k --io_size=16M \
  --output-format=json --output=$WORK/f.json --quiet $IMG
$PY - $WORK/f.json <<'PY' && pass "EIO at 8 MiB on the file" || fail "file EIO"
import json, sys
e = json.load(open(sys.argv[1]))["targets"][0]["first_error"]
sys.exit(0 if e["errno"] == 5 and (8 << 20) <= e["offset_bytes"] < (9 << 20) else 1)
PY

new_loop $IMG; L=$LOOP_DEV
expect_status 1 "loop device over the failing file" -- "$IOMARK" run --rw=read --bs=64k --io_size=16M \
  --output-format=json --output=$WORK/l.json --quiet $L
$CHECK $WORK/l.json --bs 65536 --status error && pass "partial result valid" || fail "partial result"
$PY - $WORK/l.json <<'PY' && pass "EIO reported at its offset" || fail "loop EIO"
import json, sys
d = json.load(open(sys.argv[1]))
e = d["targets"][0]["first_error"]
# sequential 64 KiB reads: 128 good blocks before the bad range, then the error
ok = e["errno"] == 5 and e["offset_bytes"] == 8 << 20 and d["total"]["read"]["errors"] == 1
print(e, d["total"]["read"]["ios"])
sys.exit(0 if ok else 1)
PY
expect_status 1 "continue on error" -- "$IOMARK" run --rw=read --bs=64k --io_size=16M --continue_on_error \
  --output-format=json --output=$WORK/c.json --quiet $L
$PY - $WORK/c.json <<'PY' && pass "16 failed blocks of 64 KiB, 240 good" || fail "counts"
import json, sys
t = json.load(open(sys.argv[1]))["total"]["read"]
print(t["errors"], t["ios"])
sys.exit(0 if t["errors"] == 16 and t["ios"] == 240 else 1)
PY
drop_loop $L
umount $WORK/fuse 2>/dev/null || { sleep 1; umount -l $WORK/fuse; }
MOUNTS=()
wait $fpid 2>/dev/null || true
finish
