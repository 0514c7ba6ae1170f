#!/usr/bin/env bash
# test_lab_kvm_marker.sh - a lab that finds kvm-does-not-boot in its lab cache
# folder (IOMARK_LAB_DIR) goes to TCG and says which file to delete with its
# real path, in lab.json's accelerator_reason (not "LABDIR/...", which reads
# as the --output-dir). The lab is stopped (SIGTERM) as soon as its first
# lab.json is written, before any boot. Skips (77) without /dev/kvm, QEMU or
# a set-up lab folder (iomark lab setup) to borrow the guest image from.
source "$(dirname "$0")/lib.sh"
real=${IOMARK_LAB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/iomark/lab}
[ -r /dev/kvm ] && [ -w /dev/kvm ] || { echo "skip: /dev/kvm not usable"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "skip: qemu-system-x86_64 not installed"; exit 77; }
[ -f "$real/lab.conf" ] || { echo "skip: no lab folder set up ($real/lab.conf)"; exit 77; }

# a lab folder of its own: the set-up files by link, and the marker
lab=$WORK/labcache
mkdir -p "$lab"
for f in "$real"/*; do
  case ${f##*/} in kvm-does-not-boot | iomark-*.cpio) ;; *) ln -s "$f" "$lab/" ;; esac
done
echo "written by test_lab_kvm_marker.sh" >"$lab/kvm-does-not-boot"

IOMARK_LAB_DIR=$lab "$IOMARK" lab --controllers=virtio-blk --runtime=1s --disk-size=64M \
  --output-dir="$WORK/o" >"$WORK/out" 2>"$WORK/err" &
pid=$!
# wait for the first lab.json (written before the backing disk and any boot)
while kill -0 $pid 2>/dev/null && [ ! -s "$WORK/o/lab.json" ]; do sleep 0.2; done
kill -TERM $pid 2>/dev/null || true
rc=0
wait $pid || rc=$?
[ -s "$WORK/o/lab.json" ] && pass "lab.json written (lab exit $rc)" || fail "no lab.json: $(tail -3 "$WORK/err")"
$PY - "$WORK/o/lab.json" "$lab/kvm-does-not-boot" <<'PY' && pass "accelerator_reason names $lab/kvm-does-not-boot" || fail "accelerator_reason"
import json, sys
env = json.load(open(sys.argv[1]))["lab"]
want = "auto: a KVM guest did not boot here before (delete %s to try KVM again)" % sys.argv[2]
assert env["accelerator"] == "tcg", env["accelerator"]
assert env["accelerator_reason"] == want, (env["accelerator_reason"], want)
PY
finish
