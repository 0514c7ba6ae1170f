#!/usr/bin/env bash
# A live stack: a file on ext4 on a partition of a loop device (or on the loop
# device itself where the kernel has no partition-table support) whose backing
# file sits on this machine's disk. `iomark probe FILE` must walk
# file -> loopNp1 (partition) -> loopN (loop: backing file) -> the disk under
# the backing file, and a run on the file must monitor the device holding the
# filesystem with device counts within 2% of iomark's.
source "$(dirname "$0")/lib.sh"
need_root_loop
command -v sfdisk >/dev/null && command -v mkfs.ext4 >/dev/null || { echo "skip: needs sfdisk and mkfs.ext4"; exit 77; }
truncate -s 96M $WORK/back.img
echo 'label: dos
start=2048, type=83' | sfdisk -q $WORK/back.img >/dev/null
dev=$(losetup -f --show -P $WORK/back.img); LOOPS+=("$dev")
N=$(basename $dev)
for i in 1 2 3 4 5; do [ -e /sys/class/block/${N}p1 ] && break; sleep 0.2; done
if [ -e /sys/class/block/${N}p1 ]; then
  [ -e ${dev}p1 ] || mknod ${dev}p1 b $(tr ':' ' ' </sys/class/block/${N}p1/dev)  # no udev
  FSDEV=${N}p1
else
  # kernels built without partition-table support (these VMs): ext4 on the loop device itself
  echo "note: no partitions on $dev (kernel without partition support); using $dev whole"
  FSDEV=$N
fi
mkfs.ext4 -q -F /dev/$FSDEV
mkdir -p $WORK/mnt && mount /dev/$FSDEV $WORK/mnt && MOUNTS+=("$WORK/mnt")
# the disk under the backing file, as sysfs shows it (independent of iomark)
backdev=$(basename "$(readlink -f /sys/dev/block/$(stat -c '%Hd:%Ld' $WORK/back.img))")
backdisk=$backdev
[ -e /sys/class/block/$backdev/partition ] && backdisk=$(basename "$(dirname "$(readlink -f /sys/class/block/$backdev)")")

expect_status 0 "probe a file on the loop partition" -- "$IOMARK" probe --output-format=json $WORK/mnt
$PY - $WORK/out "$N" "$WORK/back.img" "$backdisk" "$FSDEV" <<'PY' && pass "stack: $FSDEV -> loop -> $backdisk" || fail "stack: $(head -c 1500 $WORK/out)"
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
n, back, disk, fsdev = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
assert t["kind"] == "directory" and t["filesystem"]["type"] == "ext4", (t["kind"], t["filesystem"])
st = [(l["name"], l["kind"]) for l in t["stack"]]
if fsdev != n:
    assert st[0] == (fsdev, "partition"), st
    st_loop = t["stack"][1]
else:
    st_loop = t["stack"][0]
assert (st_loop["name"], st_loop["kind"]) == (n, "loop") and st_loop["detail"] == back, st
assert st[-1] == (disk, "disk") and t["disks"][0]["name"] == disk, (st, disk)
print("stack:", " -> ".join(f"{a} ({b})" for a, b in st))
PY

# a fixed amount of I/O (2,048 reads), not a fixed time: a loaded machine does
# fewer than 1,000 reads in 2 s (547 seen at load 20), and the comparison needs a count
"$IOMARK" run --rw=randread --bs=4k --iodepth=4 --size=32M --io_size=8M --quiet \
    --output-format=json --output=$WORK/r.json $WORK/mnt/test.dat
$PY - $WORK/r.json "$FSDEV" <<'PY' && pass "file run monitors $FSDEV within 2%" || fail "file run monitor"
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
m = t["device_monitor"]
assert m["monitored"] and m["device"] == sys.argv[2], m.get("device")
a, b = t["read"]["ios"], m["read_ios"]
print(f"file on {m['device']}: iomark {a} reads, device {b} reads ({100 * abs(a - b) / a:.3f}%)")
assert a == 2048 and abs(a - b) / a <= 0.02, (a, b)
PY
finish
