#!/usr/bin/env bash
# Block devices (loop): runs, device size/sector detection, direct-I/O
# alignment refusal, and the data-safety refusals (filesystem signature,
# partition table, mounted) that --force overrides.
source "$(dirname "$0")/lib.sh"
need_root_loop
truncate -s 64M $WORK/back.img
dd if=/dev/urandom of=$WORK/back.img bs=1M count=64 conv=notrunc status=none
new_loop $WORK/back.img; D=$LOOP_DEV
expect_status 0 "randread on $D" -- "$IOMARK" run --iodepth=16 --runtime=1 --output-format=json --output=$WORK/r.json --quiet $D
$CHECK $WORK/r.json --bs 4096 && pass "loop result checks" || fail "loop result checks"
$PY - $WORK/r.json $(basename $D) <<'PY' && pass "device recorded" || fail "device recorded"
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
sys.exit(0 if t["kind"] == "block_device" and t["device"] == sys.argv[2] and t["size_bytes"] == 64 << 20 else 1)
PY
expect_status 0 "write to a blank loop device" -- "$IOMARK" run --rw=randwrite --runtime=1 --quiet $D

# 4096-byte logical sectors: 512-byte direct I/O refused up front, 4 KiB fine, 12 KiB fine
new_loop $WORK/back.img 4096; D4=$LOOP_DEV
expect_status 2 "512 B on 4K-sector device" -- "$IOMARK" run --bs=512 --runtime=1 $D4
expect_err_has "logical block size (4096"
expect_status 0 "12 KiB (not a power of two) on 4K-sector device" -- "$IOMARK" run --bs=12k --runtime=1 --quiet $D4
expect_status 2 "offset not sector-aligned" -- "$IOMARK" run --offset=512 --runtime=1 $D4
expect_err_has "--offset: 512 bytes is not a multiple of $D4's logical block size (4096 bytes)"
drop_loop $D4

# a filesystem signature: writes refused without --force, reads allowed
mkfs.ext4 -q -F $D
expect_status 2 "write to ext4 device refused" -- "$IOMARK" run --rw=write --runtime=1 $D
expect_err_has "ext4"
expect_status 0 "read from ext4 device allowed" -- "$IOMARK" run --rw=read --runtime=1 --quiet $D
# mounted: refused even for... writes; say where it is mounted
mkdir -p $WORK/mnt
mount $D $WORK/mnt && MOUNTS+=("$WORK/mnt")
expect_status 2 "write to mounted device refused" -- "$IOMARK" run --rw=randwrite --runtime=1 $D
expect_err_has "mounted"
# a file on the mounted filesystem, io_uring (its file registered with the
# ring): once iomark has exited the filesystem unmounts at once. The ring's
# teardown runs later in a kernel worker; while it held the registered file,
# umount failed with EBUSY in 4 of 5 tries (fixed: the file is unregistered
# first, 8 of 8 after). Three runs, each unmounted without a retry.
busy=0
for i in 1 2 3; do
  expect_status 0 "io_uring run on the mounted filesystem ($i)" -- "$IOMARK" run --ioengine=io_uring --runtime=300ms --size=8M --quiet --output=/dev/null $WORK/mnt/t.dat
  grep -q "io_uring is unavailable" $WORK/err && { echo "note: io_uring unavailable here, libaio used"; break; }
  umount $WORK/mnt 2>/dev/null || { busy=$((busy + 1)); sleep 2; umount $WORK/mnt; }
  mount $D $WORK/mnt
done
[ "$busy" = 0 ] && pass "unmounted right after each io_uring run" || fail "umount busy after $busy of 3 io_uring runs"
rm -f $WORK/mnt/t.dat
umount $WORK/mnt || { sleep 1; umount $WORK/mnt; }
MOUNTS=()
expect_status 0 "--force overrides the signature" -- "$IOMARK" run --rw=randwrite --runtime=1 --force --quiet $D

# a partition table
wipefs -q -a $D
echo 'label: dos' | sfdisk -q $D >/dev/null 2>&1
expect_status 2 "write to partitioned device refused" -- "$IOMARK" run --rw=write --runtime=1 $D
expect_err_has "partition table"
finish
