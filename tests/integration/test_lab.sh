#!/usr/bin/env bash
# test_lab.sh - `iomark lab` end to end: bad input is refused with exit 2,
# one controller (virtio-blk) boots under QEMU and a real iomark result comes
# back over the result channel, with --status-interval the host prints the
# progress line (boot, each run's phases, shutdown, the time left) every
# second, and a boot that overruns its bound is reported as failed with the
# reason while lab.json is still written.
# Skips (77) when QEMU, busybox, depmod or the Debian kernel package is not
# available. The guest image is cached in the lab folder (IOMARK_LAB_DIR, else
# ~/.cache/iomark/lab), so only the first run downloads the kernel.
set -u
IOMARK=${IOMARK:?IOMARK must name the iomark binary}
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

tmp=$(mktemp -d /tmp/iomark-test-lab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# --- bad input (needs no QEMU): exit 2, one line naming the option and what is
# allowed, nothing written
expect_usage() {
    local want=$1; shift
    "$IOMARK" lab --output-dir="$tmp/never" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] || fail "lab $* exited $rc, want 2: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "lab $*: want one line, got: $(cat "$tmp/err")"
    grep -q -- "$want" "$tmp/err" || fail "lab $*: message lacks '$want': $(cat "$tmp/err")"
    [ ! -e "$tmp/never" ] || fail "lab $*: wrote $tmp/never"
}
expect_usage "allowed:" --controllers=pvscsi,floppy
expect_usage "allowed: 1-100" --repeat=0
expect_usage "KEY=VALUE" --guest-param=noequals
expect_usage "allowed: writeback" --cache=bogus
expect_usage "the lab supplies the disk" /dev/sda
expect_usage "--iodepth" --iodepth=0
expect_usage "output-dir" --output=x.json
expect_usage "unknown profile; allowed: sql-oltp" --profile=nope
# the new form: -- COMMAND ARGS (checked on the host with the guest's parsers)
expect_usage "unknown command; allowed: run, diskspd" -- bogus
expect_usage "leave out -R" -- diskspd -b8K -Rxml
expect_usage "the lab supplies the disk" -- diskspd -b8K /dev/sda
expect_usage "loads, runs and checks" -- tpcc load
expect_usage "workload options go after --" --rw=read -- run --bs=8k
expect_usage "applies to --study only" --scale=0.5
expect_usage "no such study" --study=no-such-study
expect_usage "a variant is CONTROLLER+module.param=value" --controllers=pvscsi+ring_pages
# --status-interval is the host's progress line (as for run), in both forms; the
# guest's iomark (--quiet, its stderr kept on the channel) does not get it
expect_usage "status-interval=500ms: allowed: 1s to 24h" --status-interval=500ms
expect_usage "status-interval=x: allowed: 1s to 24h" -- run --status-interval x
for form in "--status-interval=1s --runtime=3s" "-- run --runtime=3s --status_interval 1s"; do
    # shellcheck disable=SC2086
    "$IOMARK" lab --output-dir="$tmp/never" --dry-run $form >"$tmp/out" 2>&1 ||
        fail "lab --dry-run $form: $(cat "$tmp/out")"
    grep -q -- "--runtime=3s" "$tmp/out" || fail "dry run lacks the workload: $(cat "$tmp/out")"
    ! grep -q -i "status.interval" "$tmp/out" || fail "the guest gets --status-interval: $(cat "$tmp/out")"
done

# the rest boots QEMU
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed (package qemu-system-x86)"
command -v busybox >/dev/null || skip "busybox not installed (package busybox-static)"
command -v depmod >/dev/null || [ -x /usr/sbin/depmod ] || [ -x /sbin/depmod ] || skip "depmod not installed (package kmod)"
command -v python3 >/dev/null || skip "python3 not installed"

# --- the guest image (set up once, then cached)
labdir=${IOMARK_LAB_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/iomark/lab}
if [ ! -f "$labdir/lab.conf" ]; then
    if ! "$IOMARK" lab setup --no-install >"$tmp/setup.log" 2>&1; then
        if grep -q -E "apt-get|apt-cache|kernel|linux-image" "$tmp/setup.log"; then
            tail -3 "$tmp/setup.log"
            skip "the Debian kernel package is not available here"
        fi
        cat "$tmp/setup.log"
        fail "iomark lab setup failed"
    fi
fi

# --- guest parameters are checked against the image's modules before anything boots
expect_usage "nvme has no parameter bogus_param; allowed:" --guest-param=nvme.bogus_param=1
expect_usage "nvme has no parameter bogus_param" --controllers=nvme+nvme.bogus_param=1
expect_usage "module nosuchmod is not in the guest image" --guest-param=nosuchmod.x=1

# --- one real boot: virtio-blk and NVMe in one guest (a shared boot), short workload,
# with status lines on stderr (a file: not a terminal)
out="$tmp/run"
start=$(date +%s)
"$IOMARK" lab --controllers=virtio-blk,nvme,pvscsi --runtime=3s --ramp_time=1s --disk-size=64M \
    --guest-param=virtio_blk.queue_depth=64 --guest-param=vmw_pvscsi.ring_pages=9999 \
    --status-interval=1s --output-dir="$out" >"$tmp/table" 2>"$tmp/err"
rc=$?
echo "lab run: exit $rc in $(( $(date +%s) - start )) s"
cat "$tmp/table"
# on failure, the guest's own account: its console and kernel log (a SCSI
# abort or reset there tells a lost completion from a slow host)
[ $rc -eq 0 ] || { cat "$tmp/err"; for f in "$out"/*.console.log "$out"/*.dmesg.txt; do
    [ -e "$f" ] && { echo "--- tail of $f"; tail -30 "$f"; }; done; fail "lab exited $rc"; }
grep -q "not VMware's" "$tmp/table" || fail "table lacks the note that QEMU's models are measured"
grep -q "^virtio-blk *virtio_blk " "$tmp/table" || fail "table lacks the virtio-blk row"
python3 - "$out" <<'EOF' || fail "result files"
import json, sys, os
out = sys.argv[1]
lab = json.load(open(os.path.join(out, "lab.json")))
assert lab["type"] == "lab", lab["type"]
assert lab["start_time"].endswith("Z") and lab["wall_s"] > 0, lab
env = lab["lab"]
assert env["accelerator"] in ("kvm", "tcg"), env
assert env["qemu_version"] and env["guest_kernel"], env
assert env["vcpus"] == 2 and env["memory_mib"] == 1024 and env["cache"] == "writeback", env
assert "not VMware's" in env["note"], env["note"]
assert env["host"]["nr_cpus"] >= 1 and env["host"]["cpu_model"], env["host"]
c = lab["controllers"][0]
assert c["name"] == "virtio-blk" and c["status"] == "ok", c
g = c["guest"]
assert g["driver"] == "virtio_blk", g
assert g["scheduler"] == "none", g          # the lab sets it alike for every controller
assert g["nr_hw_queues"] == 2, g            # one queue per vCPU (tests/data/lab-guest-logs/virtio-blk.log)
# the guest parameter reached the driver: virtqueue depth 64 -> 64 requests
assert "virtio_blk.queue_depth=64" in g["module_parameters"], g
assert g["nr_requests"] == 64, g
assert env["guest_params"] == ["virtio_blk.queue_depth=64", "vmw_pvscsi.ring_pages=9999"], env
assert "virtio_blk.queue_depth=64" in env["kernel_cmdline"], env
# iomark probe ran in the guest too (when the build has it): it reads the
# same sysfs by its own code, so the two views must agree
if "probe" in c:
    d = c["probe"]["targets"][0]["disks"][0]
    assert d["driver"] == "virtio_blk" or d["driver"].startswith("virtio"), d["driver"]
    assert d["nr_requests"] == g["nr_requests"] and d["nr_hw_queues"] == g["nr_hw_queues"], d
# the guest's own iomark document, with the lab's record added
r = json.load(open(os.path.join(out, "virtio-blk.json")))
assert r["schema"] == "iomark-result" and r["type"] == "run" and r["status"] == "ok", r["status"]
assert r["spec"]["targets"] == ["/dev/vda"], r["spec"]["targets"]
assert r["spec"]["iodepth"] == 32 and r["spec"]["numjobs"] == 2, r["spec"]
assert abs(r["spec"]["runtime_s"] - 3) < 1e-9, r["spec"]
ios = r["total"]["read"]["ios"]
assert ios > 100, ios                        # real I/O happened in the guest
assert r["total"]["read"]["errors"] == 0
assert r["lab"]["controller"] == "virtio-blk" and r["lab"]["qemu_device"] == "virtio-blk-pci"
# the table's figure is the document's
assert abs(c["mean"]["iops"] - r["total"]["total"]["iops"]) < 1e-6
# Little's law sanity (outstanding = IOPS x mean latency), at most 64 in flight.
# The window counts I/Os by completion, so one completing just after the window
# opens brings in up to the longest latency from before it: the latencies summed
# are at most 64 x (T + max latency), i.e. outstanding <= 64 x (1 + max / T)
# (a stalled TCG guest has seconds-long p99s; 77.5 seen with T = 3 s)
tt = r["total"]["total"]
outstanding = tt["iops"] * tt["lat_us"]["mean"] / 1e6
bound = 64 * (1 + tt["lat_us"]["max"] / 1e6 / r["duration"]["measured_s"])
assert 1 <= outstanding <= bound * 1.01, (outstanding, bound)
# requested vs effective guest parameter: /sys/module says 64, and the
# virtqueue depth 64 is what blk-mq got (nr_requests)
pe = c["guest_params_effective"]
assert pe == [{"parameter": "virtio_blk.queue_depth", "requested": "64", "sysfs": "64",
               "in_effect": "64", "in_effect_from": "/sys/module parameter"}], pe
# the guest disk's own counters around the run: it completed at least the
# I/Os iomark counted (the ramp adds more), and the CPU per I/O figures are
# there. In flight: a sample of /sys/block/vda/inflight is no snapshot: the
# kernel walks the tag bitmaps without a lock (block/blk-mq-tag.c
# blk_mq_queue_tag_busy_iter), so a request that completes during the walk
# and its successor on a tag not yet visited are both counted; a sample can
# exceed iomark's 64 outstanding (65 seen, ASan at load 35) but counts each
# tag at most once: at most nr_requests (64) per hardware queue (2) = 128
io = c["jobs"][0]["mean"]["io_path"]
assert io["guest_ios"] >= ios, (io["guest_ios"], ios)
assert 1 <= io["inflight_max"] <= g["nr_requests"] * g["nr_hw_queues"], io
assert 0 < io["aqu_sz"] <= g["nr_requests"] * 1.1, io
assert io["qemu_cpu_us_per_io"] > 0 and io["guest_cpu_us_per_io"] > 0, io
assert abs(io["qemu_cpu_us_per_io"] - io["qemu_cpu_s"] / io["guest_ios"] * 1e6) < 1e-6 * io["qemu_cpu_us_per_io"]
assert "includes the emulation" in lab["cpu_per_io_note"] or "TCG" in lab["cpu_per_io_note"]
# the shared boot: both controllers in boot-1, each measured on its own disk
n = lab["controllers"][1]
assert n["name"] == "nvme" and n["status"] == "ok", n
assert c["boot"] == n["boot"] == "boot-1" and c["controllers_in_boot"] == 3, (c["boot"], n["boot"])
assert n["guest"]["driver"] == "nvme" and n["guest"]["disk"].startswith("nvme"), n["guest"]
assert g["disk"].startswith("vd"), g
rn = json.load(open(os.path.join(out, "nvme.json")))
assert rn["spec"]["targets"] == ["/dev/" + n["guest"]["disk"]], rn["spec"]["targets"]
assert rn["lab"]["controller"] == "nvme" and rn["total"]["read"]["ios"] > 100
# the probe ran once for both disks; each controller keeps its own target
if "probe" in c and "probe" in n:
    assert [t["path"] for t in c["probe"]["targets"]] == ["/dev/" + g["disk"]], c["probe"]["targets"]
    assert [t["path"] for t in n["probe"]["targets"]] == ["/dev/" + n["guest"]["disk"]]
# an out-of-range guest parameter: /sys/module echoes 9999, but vmw_pvscsi
# caps the request ring at 32 pages (PVSCSI_MAX_NUM_PAGES_REQ_RING in
# drivers/scsi/vmw_pvscsi.h) of 32 requests each: can_queue 1024
pv = lab["controllers"][2]
assert pv["name"] == "pvscsi" and pv["status"] == "ok" and pv["boot"] == "boot-1", pv.get("reason")
assert pv["guest"]["can_queue"] == 1024, pv["guest"]
assert pv["guest_params_effective"] == [{"parameter": "vmw_pvscsi.ring_pages", "requested": "9999",
        "sysfs": "9999", "in_effect": "32", "in_effect_from": "scsi_host can_queue / 32"}], pv
# NVMe's in-flight at the device: at least 1, at most its tags (1023 per hardware queue)
nio = n["jobs"][0]["mean"]["io_path"]
assert 1 <= nio["inflight_max"] <= 1023 * n["guest"]["nr_hw_queues"], nio
print("result ok: %d I/Os, %.0f IOPS, %.1f outstanding; guest: %d I/Os, aqu-sz %.1f, in flight <= %d; "
      "QEMU %.0f us CPU per I/O" % (ios, c["mean"]["iops"], outstanding, io["guest_ios"], io["aqu_sz"],
                                     io["inflight_max"], io["qemu_cpu_us_per_io"]))
EOF
# the status lines: "lab 1/1 NAME: WHAT [eta mm:ss]", what the guest does as the
# result channel tells: booting, then per controller its run (warm-up 0/1 s,
# measuring N/3 s, finishing), sending results, and shutting down, in that order,
# none repeated;
# the time left never grows once the first run has started (1 s of rounding)
# and is nearly 0 at the end; the measuring counter stays within the 3 s run
python3 - "$tmp/err" "$out" <<'EOF' || { cat "$tmp/err"; fail "status lines"; }
import json, os, re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1]) if l.startswith("lab ")]
# a line each interval that says something new (a line the same as the one
# before is not printed again: a boot that overruns its estimate holds its
# time left, and at load 24 a boot took 199 s)
assert len(lines) >= 5 and all(a != b for a, b in zip(lines, lines[1:])), ("lines", lines)
units = ["virtio-blk", "nvme", "pvscsi"]
rank, first_run, etas, seen = 0, None, [], set()
for l in lines:
    m = re.match(r"^lab 1/1 (.+?): (.+) \[eta (\d\d):(\d\d)\]$", l)
    assert m, l
    name, what, eta = m.group(1), m.group(2), int(m.group(3)) * 60 + int(m.group(4))
    if what in ("booting", "shutting down"):
        assert name == "virtio-blk, nvme, pvscsi", l
        r = 0 if what == "booting" else 99
    else:
        u, rest = name.split(" ", 1)
        assert rest == "job 1/1 run 1/1", l
        i = units.index(u)
        if what == "sending results":
            r = 2 + 2 * i
        else:
            r = 1 + 2 * i
            p = re.match(r"^(warm-up|measuring) (\d+)/(\d+) s$|^finishing$", what)
            assert p, l
            if p.group(1):
                assert int(p.group(2)) <= int(p.group(3)) == (1 if p.group(1) == "warm-up" else 3), l
            if p.group(1) == "measuring":
                seen.add(u)
            if first_run is None:
                first_run = len(etas)
    assert r >= rank, ("the stages went back", l)
    rank = r
    etas.append(eta)
assert lines and lines[0].startswith("lab 1/1 virtio-blk, nvme, pvscsi: booting"), lines[:1]
assert seen == set(units), ("measuring seen for", seen)
assert first_run is not None
for a, b in zip(etas[first_run:], etas[first_run + 1:]):
    assert b <= a + 1, ("the time left grew", a, b, etas)
assert etas[-1] <= 5, ("time left at the end", etas[-1])
print("status lines: %d, stages in order, eta %d s at the first run, %d s at the end" %
      (len(lines), etas[first_run], etas[-1]))
EOF
[ ! -e "$out/disk.raw" ] || fail "backing image left behind"
# the lab report: one HTML page from lab.json with bars per controller
"$IOMARK" report "$out" -o "$tmp/lab.html" || fail "iomark report LABDIR"
grep -q "<svg" "$tmp/lab.html" && grep -q ">virtio-blk<" "$tmp/lab.html" && grep -q ">nvme<" "$tmp/lab.html" &&
    grep -q "vmw_pvscsi.ring_pages 9999 / 32" "$tmp/lab.html" ||
    fail "lab report lacks the bars"
grep -q "not VMware" "$tmp/lab.html" || fail "lab report lacks the caveats"

# --- a boot that cannot finish in its bound: reported, exit 1, lab.json written
out2="$tmp/timeout"
"$IOMARK" lab --controllers=virtio-blk --timeout=10 --runtime=60s --disk-size=16M \
    --output-dir="$out2" >"$tmp/table2" 2>"$tmp/err2"
rc=$?
[ $rc -eq 1 ] || fail "overrun boot: exit $rc, want 1"
grep -q "did not finish within 10 s" "$tmp/table2" || fail "no timeout reason in: $(cat "$tmp/table2")"
python3 -c "
import json,sys
c=json.load(open('$out2/lab.json'))['controllers'][0]
assert c['status']=='failed' and 'did not finish' in c['reason'], c
" || fail "lab.json of the overrun boot"
# --- opt-in (IOMARK_LAB_FULL=1, about 4-6 minutes): the default controllers
# report the queue limits the guest logs in tests/data/lab-guest-logs show for QEMU 7.2 + Linux 6.1
# (IDE 1/1, SATA 32/32, PVSCSI 256/254, LSI SAS1068 118/64), and
# vmw_pvscsi.ring_pages=32 raises PVSCSI's adapter queue to 32 x 32 = 1024
if [ "${IOMARK_LAB_FULL:-0}" = 1 ]; then
    "$IOMARK" lab --runtime=3s --ramp_time=1s --disk-size=64M --output-dir="$tmp/full" \
        >"$tmp/full.txt" 2>&1 || { cat "$tmp/full.txt"; fail "full lab"; }
    "$IOMARK" lab --controllers=pvscsi --guest-param=vmw_pvscsi.ring_pages=32 --runtime=3s \
        --disk-size=64M --output-dir="$tmp/pv32" >"$tmp/pv32.txt" 2>&1 ||
        { cat "$tmp/pv32.txt"; fail "pvscsi ring_pages=32"; }
    python3 - "$tmp" <<'EOF' || fail "queue limits"
import json, sys, os
want = {"pvscsi": (256, 254), "nvme": (None, 1023), "lsisas": (118, 64), "sata": (32, 32),
        "ide": (1, 1), "virtio-blk": (None, 256)}
for c in json.load(open(os.path.join(sys.argv[1], "full", "lab.json")))["controllers"]:
    g = c["guest"]
    got = (g.get("adapter_queue"), g.get("lun_queue"))
    assert c["status"] == "ok" and got == want[c["name"]], (c["name"], got)
pv = json.load(open(os.path.join(sys.argv[1], "pv32", "lab.json")))["controllers"][0]["guest"]
assert pv["can_queue"] == 1024 and "vmw_pvscsi.ring_pages=32" in pv["module_parameters"], pv
print("queue limits as the recorded guest logs show them; ring_pages=32 gives can_queue 1024")
EOF
fi
echo "PASS"
