#!/usr/bin/env bash
# Trims, fio's third data direction (rw=trim/randtrim/trimwrite/randtrimwrite):
# counts against independent arithmetic and against fio 3.33's own run of the
# same job file, on a RAM-backed loop device with discard (a /dev/shm file: the
# loop driver punches a hole in it) and on a file (a punched hole); the data
# afterwards (trimmed = zeros, outside untouched, trimwrite = written again);
# the refusal of a device without discard; and trims in every reporter (iomark
# JSON and text, fio JSON and text, compare of both tools' documents).
source "$(dirname "$0")/lib.sh"
need_root_loop
command -v fio >/dev/null || { echo "skip: needs fio"; exit 77; }
SHM=$(mktemp -d /dev/shm/iomark-trim.XXXXXX)
cleanup_more() { # loops backed by $SHM (lib.sh's cleanup then does the rest)
  local l b
  for l in "${LOOPS[@]:-}"; do
    [ -n "$l" ] || continue
    b=$(losetup -n -O BACK-FILE "$l" 2>/dev/null || true)
    case "$b" in "$SHM"/*) losetup -d "$l" 2>/dev/null || true ;; esac
  done
  rm -rf "$SHM"
}

# reset_loop DEV: remove the (detached) loop device and add it again
# (LOOP_CTL_REMOVE, LOOP_CTL_ADD of linux/loop.h): a new queue with the
# driver's own limits. The refusal below turns discard off through sysfs, and
# that setting outlives the binding: a later attach of the same number had no
# discard (discard_max_bytes 0, and no value other than 0 can be written back
# while discard_granularity is 0). Best effort: when another test has already
# attached the number (EBUSY) it says so and goes on.
reset_loop() {
  $PY - "${1#/dev/loop}" <<'PY' || true
import errno, fcntl, os, sys, time
n = int(sys.argv[1])
fd = os.open("/dev/loop-control", os.O_RDWR)
for _ in range(20):
    try:
        fcntl.ioctl(fd, 0x4C81, n)  # LOOP_CTL_REMOVE
        fcntl.ioctl(fd, 0x4C80, n)  # LOOP_CTL_ADD
        sys.exit(0)
    except OSError as e:
        if e.errno != errno.EBUSY:
            raise
        time.sleep(0.1)
print("note: loop%d busy, not reset" % n)
PY
}
discard_of() { cat /sys/block/$(basename "$1")/queue/discard_max_bytes; }

# a 64 MiB device of 0xab bytes (so a trimmed block, zeros, is told from the rest)
$PY -c "open('$SHM/dev.img','wb').write(b'\xab' * (64 << 20))"
new_loop $SHM/dev.img; D=$LOOP_DEV
if [ "$(discard_of $D)" = 0 ] && [ "$(cat /sys/block/$(basename $D)/queue/discard_max_hw_bytes)" -gt 0 ]; then
  # discard turned off by an earlier run's refusal (before reset_loop): reset it once
  drop_loop $D; reset_loop $D; new_loop $SHM/dev.img; D=$LOOP_DEV
fi
[ "$(discard_of $D)" -gt 0 ] || { echo "skip: loop without discard"; exit 77; }

# jq-less field reader: tool JSON, then a path of keys (fio: jobs[0])
field() { $PY - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    d = d[int(k)] if isinstance(d, list) else d[k]
print(d)
PY
}

# ---- randtrim, fixed io_size, on the device: iomark's job-file run and fio's ----
BS=4096; IOSZ=$((1 << 20)); WANT=$((IOSZ / BS))     # 256 trims, by arithmetic
cat >$WORK/rt.fio <<EOF
[rt]
filename=$D
rw=randtrim
bs=4k
size=16m
io_size=1m
ioengine=psync
EOF
expect_status 0 "iomark runs rw=randtrim from a job file" -- "$IOMARK" run $WORK/rt.fio --output-format=json --output=$WORK/rt_iom.json
expect_status 0 "fio 3.33 runs the same job file" -- fio $WORK/rt.fio --output-format=json --output=$WORK/rt_fio.json
n_iom=$(field $WORK/rt_iom.json jobs 0 trim total_ios); n_fio=$(field $WORK/rt_fio.json jobs 0 trim total_ios)
[ "$n_iom" = "$WANT" ] && pass "iomark: $n_iom trims = io_size/bs" || fail "iomark: $n_iom trims, wanted $WANT"
[ "$n_fio" = "$n_iom" ] && pass "fio 3.33 reports the same $n_fio trims" || fail "fio $n_fio trims, iomark $n_iom"
r=$(field $WORK/rt_iom.json jobs 0 read total_ios); w=$(field $WORK/rt_iom.json jobs 0 write total_ios)
[ "$r$w" = "00" ] && pass "no reads or writes in a randtrim job" || fail "reads $r writes $w"
tb=$(field $WORK/rt_iom.json jobs 0 trim io_bytes)
[ "$tb" = "$IOSZ" ] && pass "trim io_bytes = io_size" || fail "trim io_bytes $tb"

# fio's text: the trim lines and the issued counts, as fio prints them
expect_status 0 "iomark fio-text output" -- "$IOMARK" run $WORK/rt.fio --output=$WORK/rt_iom.txt
fio $WORK/rt.fio --output=$WORK/rt_fio.txt
iss_iom=$(grep -o 'issued rwts: total=[0-9,]*' $WORK/rt_iom.txt); iss_fio=$(grep -o 'issued rwts: total=[0-9,]*' $WORK/rt_fio.txt)
[ "$iss_iom" = "$iss_fio" ] && [ "$iss_fio" = "issued rwts: total=0,0,$WANT,0" ] && pass "issued line as fio's: $iss_iom" || fail "issued: iomark '$iss_iom', fio '$iss_fio'"
grep -q '^  trim: IOPS=' $WORK/rt_iom.txt && grep -q '^   TRIM: bw=' $WORK/rt_iom.txt && pass "trim: and TRIM: lines (fio's text)" || fail "trim lines missing: $(cat $WORK/rt_iom.txt)"

# ---- native --rw=randtrim through io_uring at depth 8: the iomark document ----
expect_status 0 "native randtrim, io_uring, iodepth 8" -- "$IOMARK" run --rw=randtrim --bs=64k --size=16m --io_size=4m --iodepth=8 --ioengine=io_uring --output-format=json --output=$WORK/nat.json --quiet $D
$CHECK $WORK/nat.json --bs 65536 && pass "iomark document checks (schema, read+write+trim = total)" || fail "document checks"
n=$(field $WORK/nat.json total trim ios); t=$(field $WORK/nat.json total total ios)
# the device monitor (/proc/diskstats fields 15-18) saw the same trims: discarded bytes exact
db=$(field $WORK/nat.json targets 0 device_monitor discard_bytes); di=$(field $WORK/nat.json targets 0 device_monitor discard_ios)
[ "$db" = $((4 << 20)) ] && [ "$di" -ge 1 ] && pass "device monitor: $di discards, $db bytes = 4 MiB" || fail "device monitor: discards $di bytes $db"
[ "$n" = $(((4 << 20) / 65536)) ] && [ "$t" = "$n" ] && pass "native: $n trims = 4 MiB / 64 KiB, total the same" || fail "native: trims $n total $t"

# iomark's own documents of a trim run read back (compare): JSON and text report
expect_status 0 "native randtrim, text report" -- "$IOMARK" run --rw=randtrim --bs=64k --size=16m --io_size=4m --iodepth=8 --ioengine=io_uring --output=$WORK/nat.txt $D
grep -qE '^  trim +[0-9.]+ ' $WORK/nat.txt && pass "text report has a trim row" || fail "no trim row: $(head -12 $WORK/nat.txt)"
grep -qE 'device I/Os [0-9]+ \(read [0-9]+, write [0-9]+, discard [0-9]+\)' $WORK/nat.txt && pass "text device view counts discards" || fail "device line: $(grep 'device I/Os' $WORK/nat.txt)"
expect_status 0 "compare reads iomark's trim JSON and text" -- "$IOMARK" compare --output-format=json $WORK/nat.json $WORK/nat.txt
$PY - $WORK/out $WORK/nat.json $WORK/nat.txt <<'PY' && pass "compare: IOPS = the documents' trim IOPS" || fail "compare of iomark docs: $(head -c 400 $WORK/out)"
import json, re, sys
v = [m for m in json.load(open(sys.argv[1]))["workloads"][0]["metrics"] if m["key"] == "iops"][0]["values"]
j = json.load(open(sys.argv[2]))["total"]["trim"]["iops"]
t = float(re.search(r"^  trim +([0-9.]+) ", open(sys.argv[3]).read(), re.M).group(1))
sys.exit(0 if abs(v[0]["mean"] - j) <= 1e-6 * j and abs(v[1]["mean"] - t) <= 0.05 + 1e-9 * t else 1)
PY

# ---- sequential trim of [32 MiB, 33 MiB) (the runs above stayed below 16 MiB):
# zeros there, 0xab around ----
expect_status 0 "rw=trim over 1 MiB of the device" -- "$IOMARK" run --rw=trim --bs=64k --offset=32m --size=1m --io_size=1m --ioengine=psync --quiet $D
$PY - $D <<'PY' && pass "trimmed range reads zeros, the rest is untouched" || fail "device data after trim"
import sys
M = 1 << 20
f = open(sys.argv[1], 'rb'); f.seek(31 * M); d = f.read(3 * M)
sys.exit(0 if d[M:2 * M] == bytes(M) and d[:M] == b'\xab' * M and d[2 * M:] == b'\xab' * M else 1)
PY

# ---- trimwrite: trims == writes == io_size/bs, each trimmed block written again ----
cat >$WORK/tw.fio <<EOF
[tw]
filename=$D
rw=trimwrite
bs=4k
offset=8m
size=1m
io_size=256k
ioengine=psync
EOF
expect_status 0 "iomark runs rw=trimwrite" -- "$IOMARK" run $WORK/tw.fio --output-format=json --output=$WORK/tw_iom.json
expect_status 0 "fio runs rw=trimwrite" -- fio $WORK/tw.fio --output-format=json --output=$WORK/tw_fio.json
W=$(((256 << 10) / BS))
for tool in iom fio; do
  t=$(field $WORK/tw_$tool.json jobs 0 trim total_ios); w=$(field $WORK/tw_$tool.json jobs 0 write total_ios)
  [ "$t" = "$W" ] && [ "$w" = "$W" ] && pass "$tool trimwrite: $t trims = $w writes = 256k/4k" || fail "$tool trimwrite: trims $t writes $w, wanted $W"
done
expect_status 0 "native randtrimwrite, libaio, iodepth 4" -- "$IOMARK" run --rw=randtrimwrite --bs=4k --offset=16m --size=1m --io_size=1m --iodepth=4 --ioengine=libaio --output-format=json --output=$WORK/rtw.json --quiet $D
t=$(field $WORK/rtw.json total trim ios); w=$(field $WORK/rtw.json total write ios)
[ "$t" = 256 ] && [ "$w" = 256 ] && pass "randtrimwrite: 256 trims, 256 writes" || fail "randtrimwrite: trims $t writes $w"
# each block was trimmed before its write landed: no 4 KiB block of the range is zeros
$PY - $D <<'PY' && pass "every trimmed block holds data written after its trim" || fail "a block still zero after randtrimwrite"
import sys
f = open(sys.argv[1], 'rb'); f.seek(16 << 20); d = f.read(1 << 20)
sys.exit(0 if all(d[i:i + 4096] != bytes(4096) for i in range(0, 1 << 20, 4096)) else 1)
PY

# ---- compare reads trims from both tools' fio-format documents ----
expect_status 0 "compare of iomark's and fio's trimwrite JSON" -- "$IOMARK" compare $WORK/tw_fio.json $WORK/tw_iom.json
grep -q "trim IOPS" $WORK/out && pass "compare shows a trim IOPS row" || fail "no trim IOPS row: $(head -30 $WORK/out)"
expect_status 0 "compare of fio's randtrim JSON and text and iomark's JSON" -- "$IOMARK" compare --output-format=json $WORK/rt_fio.json $WORK/rt_fio.txt $WORK/rt_iom.json
$PY - $WORK/out $WORK/rt_fio.json $WORK/rt_fio.txt $WORK/rt_iom.json <<'PY' && pass "compare: IOPS of each input = its document's trim IOPS" || fail "compare json: $(head -c 600 $WORK/out)"
import json, re, sys
cmp = json.load(open(sys.argv[1]))
iops = [m for m in cmp["workloads"][0]["metrics"] if m["key"] == "iops"][0]["values"]
fj = json.load(open(sys.argv[2]))["jobs"][0]["trim"]["iops"]
m = re.search(r"^  trim: IOPS=([0-9.]+)(k?),", open(sys.argv[3]).read(), re.M)
ft = float(m.group(1)) * (1000 if m.group(2) else 1)
ij = json.load(open(sys.argv[4]))["jobs"][0]["trim"]["iops"]
ok = abs(iops[0]["mean"] - fj) <= 1e-6 * fj and abs(iops[2]["mean"] - ij) <= 1e-6 * ij
ok = ok and abs(iops[1]["mean"] - ft) <= 0.01 * ft  # fio's text rounds IOPS (num2str)
print(iops[0]["mean"], fj, iops[1]["mean"], ft, iops[2]["mean"], ij)
sys.exit(0 if ok else 1)
PY

# --repeat: a trim summary over the runs (mean of the runs' own trim IOPS)
expect_status 0 "--repeat 2 of a randtrim" -- "$IOMARK" run --repeat 2 --rw=randtrim --bs=64k --size=4m --io_size=1m --ioengine=psync --output-format=json --output=$WORK/rp.json --quiet $WORK/rp.dat
$PY - $WORK/rp.json <<'PY' && pass "repeat: summary.trim = the runs' trim IOPS" || fail "repeat summary: $(head -c 400 $WORK/rp.json)"
import json, sys
d = json.load(open(sys.argv[1]))
v = [r["total"]["trim"]["iops"] for r in d["runs"]]
s = d["summary"]["trim"]["iops"]
ok = s["n"] == 2 and abs(s["mean"] - sum(v) / 2) <= 1e-9 * s["mean"] and all(r["total"]["trim"]["ios"] == 16 for r in d["runs"])
sys.exit(0 if ok else 1)
PY

# ---- a file: the range punched (zeros), the size kept; counts as fio's falloc engine ----
F=$WORK/data.bin
$PY -c "open('$F','wb').write(b'\xab' * (4 << 20))"
expect_status 0 "rw=trim on a file (io_uring: IORING_OP_FALLOCATE)" -- "$IOMARK" run --rw=trim --bs=64k --offset=128k --size=256k --io_size=256k --ioengine=io_uring --output-format=json --output=$WORK/f.json --quiet $F
[ "$(field $WORK/f.json total trim ios)" = 4 ] && pass "file: 4 trims = 256 KiB / 64 KiB" || fail "file trims $(field $WORK/f.json total trim ios)"
$PY - $F <<'PY' && pass "file: trimmed range reads zeros, rest and size kept" || fail "file data after trim"
import sys
d = open(sys.argv[1], 'rb').read()
K = 1024
sys.exit(0 if len(d) == 4 << 20 and d[128 * K:384 * K] == bytes(256 * K)
         and d[:128 * K] == b'\xab' * (128 * K) and d[384 * K:] == b'\xab' * (len(d) - 384 * K) else 1)
PY
cmp -s -n $((128 << 10)) $F <(head -c $((128 << 10)) /dev/zero) && fail "cmp: start of the file is zeros" || pass "cmp: untrimmed start differs from zeros"
cmp -s -i $((128 << 10)):0 -n $((256 << 10)) $F /dev/zero && pass "cmp: trimmed range equals /dev/zero" || fail "cmp: trimmed range not zeros"
for eng in psync falloc; do # fio's psync trims a file with BLKDISCARD and fails; its falloc engine punches
  cat >$WORK/ft_$eng.fio <<EOF
[ft]
filename=$F
rw=randtrim
bs=4k
size=2m
io_size=512k
$([ $eng = falloc ] && echo ioengine=falloc || echo ioengine=psync)
EOF
done
expect_status 0 "iomark randtrim of a file (psync: punched holes)" -- "$IOMARK" run $WORK/ft_psync.fio --output-format=json --output=$WORK/ft_iom.json
expect_status 0 "fio randtrim of the file (falloc engine)" -- fio $WORK/ft_falloc.fio --output-format=json --output=$WORK/ft_fio.json
a=$(field $WORK/ft_iom.json jobs 0 trim total_ios); b=$(field $WORK/ft_fio.json jobs 0 trim total_ios)
[ "$a" = 128 ] && [ "$b" = "$a" ] && pass "file randtrim: iomark $a = fio $b = 512k/4k" || fail "file randtrim: iomark $a fio $b"

# ---- bs third value: trims take it (fio HOWTO blocksize) ----
cat >$WORK/bs3.fio <<EOF
[b]
filename=$D
rw=randtrim
bs=4k,8k,16k
size=16m
io_size=1m
ioengine=psync
EOF
expect_status 0 "bs=4k,8k,16k randtrim" -- "$IOMARK" run $WORK/bs3.fio --output-format=json --output=$WORK/bs3.json
fio $WORK/bs3.fio --output-format=json --output=$WORK/bs3_fio.json
a=$(field $WORK/bs3.json jobs 0 trim total_ios); b=$(field $WORK/bs3_fio.json jobs 0 trim total_ios)
[ "$a" = $(((1 << 20) / 16384)) ] && [ "$b" = "$a" ] && pass "bs third value: $a trims of 16 KiB, fio $b" || fail "bs third value: iomark $a fio $b"

# bssplit's third value: the trims' own mix (16k and 32k here); with norandommap no
# block is cut, so every trim is 16 or 32 KiB: bytes between 16k and 32k per trim, in 16k steps
printf '[b]\nfilename=%s\nrw=randtrim\nbssplit=4k/100,8k/100,16k/50:32k/50\nnorandommap=1\nsize=16m\nio_size=2m\nioengine=psync\n' "$D" >$WORK/bss3.fio
expect_status 0 "bssplit third value: parse" -- "$IOMARK" run $WORK/bss3.fio --parse-only
grep -q ' bssplit=16384/50:32768/50 ' $WORK/out && ! grep -q 'bssplit_write' $WORK/out && pass "trims take bssplit's third list" || fail "parse: $(cat $WORK/out)"
expect_status 0 "bssplit third value: run" -- "$IOMARK" run $WORK/bss3.fio --output-format=json --output=$WORK/bss3.json
n=$(field $WORK/bss3.json jobs 0 trim total_ios); b=$(field $WORK/bss3.json jobs 0 trim io_bytes)
[ "$n" -gt 0 ] && [ $((b % 16384)) = 0 ] && [ "$b" -ge $((n * 16384)) ] && [ "$b" -le $((n * 32768)) ] && pass "$n trims of 16 or 32 KiB ($b bytes)" || fail "bssplit trims: $n trims, $b bytes"

# ---- refusals: no discard; verify with trims; nothing written ----
$PY -c "open('$SHM/nod.img','wb').write(b'\xcd' * (8 << 20))"
new_loop $SHM/nod.img; N=$LOOP_DEV
echo 0 >/sys/block/$(basename $N)/queue/discard_max_bytes
before=$(sha1sum <$N)
expect_status 2 "randtrim on a loop device with discard off refused" -- "$IOMARK" run --rw=randtrim --size=1m --io_size=64k $N
expect_err_has "discard_max_bytes"
grep -q '^iomark run: --rw=randtrim: ' $WORK/err && pass "one line: iomark run: --rw=randtrim: ..." || fail "message form: $(cat $WORK/err)"
[ "$(sha1sum <$N)" = "$before" ] && pass "device unchanged by the refusal" || fail "device changed"
expect_status 2 "trimwrite with --verify refused" -- "$IOMARK" run --rw=trimwrite --verify=crc32c --size=1m --io_size=64k $D
expect_err_has "--verify"
drop_loop $N; reset_loop $N
# fio 3.33 has no rwmixtrim (fio: "Bad option <rwmixtrim=10>"): iomark refuses it by name too
printf '[x]\nfilename=%s\nrw=randrw\nrwmixtrim=10\nsize=1m\n' "$F" >$WORK/mix.fio
rc=0; fio --parse-only $WORK/mix.fio >/dev/null 2>&1 || rc=$?
[ "$rc" != 0 ] && pass "fio 3.33 refuses rwmixtrim" || fail "fio took rwmixtrim"
expect_status 2 "iomark refuses rwmixtrim" -- "$IOMARK" run $WORK/mix.fio
expect_err_has "rwmixtrim=10"
finish
