#!/usr/bin/env bash
# iomark probe from the command line: the live machine's disk, captured trees
# through --sysfs-root and IOMARK_SYSFS_ROOT, JSON, and refusals.
source "$(dirname "$0")/lib.sh"
TREES=$SRCDIR/tests/data/sysfs

# captured trees: text and JSON agree with the lab log (pvscsi.log: can_queue
# 256, queue_depth 254, "setting ring_pages to 8")
expect_status 0 "probe pvscsi tree" -- "$IOMARK" probe --sysfs-root=$TREES/pvscsi sda
grep -q "driver vmw_pvscsi, controller VMware PVSCSI \[15ad:07c0" $WORK/out \
  && grep -q "vmw_pvscsi.ring_pages=32 vmw_pvscsi.cmd_per_lun=254" $WORK/out \
  && grep -q "KB 2053145" $WORK/out && pass "pvscsi text: driver, id, advice with source" \
  || fail "pvscsi text: $(cat $WORK/out)"
expect_status 0 "probe via IOMARK_SYSFS_ROOT, JSON to a file" -- env IOMARK_SYSFS_ROOT=$TREES/lsisas \
  "$IOMARK" probe --output-format=json --output=$WORK/p.json /dev/sda
$PY - $WORK/p.json <<'PY' && pass "lsisas JSON fields" || fail "lsisas JSON fields"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "iomark-probe" and d["schema_version"] == 1 and d["type"] == "probe"
assert d["host"]["hypervisor"] == "KVM/QEMU"
k = d["targets"][0]["disks"][0]
# mptsas1068.log: can_queue=118 cmd_per_lun=7 queue_depth=64 nr_requests=236 max_hw_sectors_kb=4096
assert (k["driver"], k["adapter_queue"], k["cmd_per_lun"], k["lun_queue"], k["nr_requests"],
        k["max_hw_sectors_kb"], k["pci"]["id"]) == ("mptsas", 118, 7, 64, 236, 4096, "1000:0054"), k
assert any("LUN queue 64 bind" in a["text"] and "Linux drivers" in a["source"] for a in d["advice"])
PY
# no target: every disk of the tree (loop devices are not disks)
expect_status 0 "every disk" -- "$IOMARK" probe --sysfs-root=$TREES/virtio_scsi --output-format=json
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [t["path"] for t in d["targets"]] == ["sda"] else 1)' $WORK/out \
  && pass "every disk: sda only" || fail "every disk: $(head -c 300 $WORK/out)"
# --outstanding above the LUN queue (virtio-scsi: 128)
expect_status 0 "--outstanding=200" -- "$IOMARK" probe --sysfs-root=$TREES/virtio_scsi --outstanding=200 sda
grep -q "200 outstanding I/Os asked for .* is 128: 72 wait" $WORK/out && pass "depth advice" \
  || fail "depth advice: $(cat $WORK/out)"

# refusals: one line naming the option, exit 2, nothing written
expect_status 2 "unknown option" -- "$IOMARK" probe --frobnicate
expect_err_has "--frobnicate: unknown option; allowed:"
expect_status 2 "bad format" -- "$IOMARK" probe --output-format=xml
expect_err_has "--output-format=xml: allowed: normal, json"
expect_status 2 "missing root" -- "$IOMARK" probe --sysfs-root=$WORK/nothere
expect_err_has "--sysfs-root=$WORK/nothere: allowed"
expect_status 2 "bad outstanding" -- "$IOMARK" probe --outstanding=-3
expect_err_has "--outstanding=-3: allowed: a whole number"
expect_status 2 "output folder missing" -- "$IOMARK" probe --output=$WORK/no/dir/p.json
expect_err_has "--output=$WORK/no/dir/p.json: folder"
expect_status 2 "no such target" -- "$IOMARK" probe $WORK/missing.dat
expect_err_has "missing.dat: No such file"
expect_status 2 "unknown device in a tree" -- "$IOMARK" probe --sysfs-root=$TREES/nvme sdq
expect_err_has "sdq: not a block device"
[ ! -e $WORK/no ] && pass "nothing written" || fail "something written"

# live machine: a file in the source tree has a filesystem and a mount
expect_status 0 "probe a file here" -- "$IOMARK" probe --output-format=json "$SRCDIR/CMakeLists.txt"
$PY - $WORK/out <<'PY' && pass "file: filesystem and mount found" || fail "file probe: $(head -c 400 $WORK/out)"
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
assert t["kind"] == "file" and t["filesystem"]["type"] and t["filesystem"]["mountpoint"].startswith("/")
PY
# a folder is called a directory, not a file (text and JSON); a file stays a file
expect_status 0 "probe a directory" -- "$IOMARK" probe "$WORK"
grep -q "^$WORK: directory on " $WORK/out && ! grep -q "^$WORK: file on " $WORK/out \
  && pass "text: directory on ..." || fail "directory text: $(head -c 400 $WORK/out)"
expect_status 0 "probe a directory, JSON" -- "$IOMARK" probe --output-format=json "$WORK"
$PY -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))['targets'][0]['kind'] == 'directory' else 1)" $WORK/out \
  && pass "JSON kind directory" || fail "directory JSON: $(head -c 400 $WORK/out)"
expect_status 0 "probe a file, text" -- "$IOMARK" probe "$SRCDIR/CMakeLists.txt"
grep -q "^$SRCDIR/CMakeLists.txt: file on " $WORK/out && pass "text: file on ..." || fail "file text: $(head -c 400 $WORK/out)"
# live machine: the virtio disk of these VMs (skip the check where there is none)
if [ -e /sys/block/vda ]; then
  expect_status 0 "probe /dev/vda" -- "$IOMARK" probe --output-format=json /dev/vda
  want_drv=$(basename "$(readlink -f /sys/block/vda/device/driver)")
  $PY - $WORK/out "$want_drv" <<'PY' && pass "vda: driver virtio_blk, queue figures from sysfs" || fail "vda: $(head -c 600 $WORK/out)"
import json, sys
k = json.load(open(sys.argv[1]))["targets"][0]["disks"][0]
want = {"nr_requests": int(open("/sys/block/vda/queue/nr_requests").read()),
        "max_sectors_kb": int(open("/sys/block/vda/queue/max_sectors_kb").read()),
        "nr_hw_queues": sum(1 for e in __import__("os").listdir("/sys/block/vda/mq") if e.isdigit())}
assert sys.argv[2] == "virtio_blk" and k["driver"] == "virtio_blk", (sys.argv[2], k["driver"])
assert k["kind"] == "virtio" and k["lun_queue"] is None
for f, v in want.items():
    assert k[f] == v, (f, k[f], v)
print("vda:", k["driver"], k["controller"], k["pci"], "nr_requests", k["nr_requests"], "hw queues", k["nr_hw_queues"])
PY
else
  echo "note: no /dev/vda here; live virtio check skipped"
fi
finish
