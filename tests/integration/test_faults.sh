#!/usr/bin/env bash
# Faults: verify mode catches a changed byte, swapped blocks and stale data
# at the right offset; I/O errors (injected, and real ones from a
# device-mapper error target) stop the thread or are counted with
# --continue_on_error; a truncated target, a full filesystem, a signal during
# file creation and 1000 threads x QD64 end cleanly.
source "$(dirname "$0")/lib.sh"
BS=65536
F=$WORK/v.dat
jget() { $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
vwrite() { "$IOMARK" run --rw=write --verify=crc32c --bs=$BS --size=1M --io_size=1M --randseed=${2:-0} --quiet "$1" >/dev/null; }
vread() { # file out.json [seed]
  "$IOMARK" run --rw=read --verify=crc32c --bs=$BS --size=1M --io_size=1M --randseed=${3:-0} \
    --output-format=json --output="$2" --quiet "$1"
}
blk() { dd if="$1" bs=$BS skip=$2 count=1 status=none; }
put() { dd of="$1" bs=$BS seek=$2 count=1 conv=notrunc status=none; }

vwrite $F
expect_status 0 "verify read of a good file" -- vread $F $WORK/ok.json
[ "$(jget $WORK/ok.json 'd["targets"][0]["verify"]["blocks_checked"]')" = 16 ] && pass "16 blocks checked" || fail "blocks checked"
[ "$(jget $WORK/ok.json 'd["targets"][0]["verify"]["mismatches"]')" = 0 ] && pass "no mismatch" || fail "mismatch on a good file"

# one changed byte in block 5
cp $F $WORK/c.dat
printf 'X' | dd of=$WORK/c.dat bs=1 seek=$((BS * 5 + 1000)) conv=notrunc status=none
expect_status 1 "changed byte detected" -- vread $WORK/c.dat $WORK/c.json
[ "$(jget $WORK/c.json 'd["targets"][0]["verify"]["first_mismatch"]["offset_bytes"]')" = $((BS * 5)) ] && pass "at block 5" || fail "wrong offset"
grep -q crc <<<"$(jget $WORK/c.json 'd["targets"][0]["verify"]["first_mismatch"]["reason"]')" && pass "reason crc" || fail "reason"

# blocks 2 and 9 swapped
cp $F $WORK/s.dat
blk $F 2 > $WORK/b2; blk $F 9 > $WORK/b9
put $WORK/s.dat 2 < $WORK/b9; put $WORK/s.dat 9 < $WORK/b2
expect_status 1 "swapped blocks detected" -- vread $WORK/s.dat $WORK/s.json
[ "$(jget $WORK/s.json 'd["targets"][0]["verify"]["first_mismatch"]["offset_bytes"]')" = $((BS * 2)) ] && pass "at block 2" || fail "swap offset"
[ "$(jget $WORK/s.json 'd["targets"][0]["verify"]["first_mismatch"]["found_offset_bytes"]')" = $((BS * 9)) ] && pass "found block 9's header" || fail "found offset"

# stale data: pass 1 (seed 1), keep block 4, pass 2 (seed 2), put the old block 4 back
vwrite $WORK/st.dat 1
blk $WORK/st.dat 4 > $WORK/old4
vwrite $WORK/st.dat 2
put $WORK/st.dat 4 < $WORK/old4
expect_status 1 "stale block detected" -- vread $WORK/st.dat $WORK/st.json 2
[ "$(jget $WORK/st.json 'd["targets"][0]["verify"]["first_mismatch"]["offset_bytes"]')" = $((BS * 4)) ] && pass "at block 4" || fail "stale offset"
[ "$(jget $WORK/st.json 'd["targets"][0]["verify"]["first_mismatch"]["found_seed"]')" = 1 ] && pass "found the old seed" || fail "stale seed"
grep -q stale <<<"$(jget $WORK/st.json 'd["targets"][0]["verify"]["first_mismatch"]["reason"]')" && pass "reason stale" || fail "reason stale"
# continue_on_error counts every mismatch: two of them here
put $WORK/st.dat 7 < $WORK/old4
expect_status 1 "continue on verify errors" -- "$IOMARK" run --rw=read --verify=crc32c --bs=$BS --size=1M --io_size=1M --randseed=2 --continue_on_error --output-format=json --output=$WORK/st2.json --quiet $WORK/st.dat
[ "$(jget $WORK/st2.json 'd["targets"][0]["verify"]["mismatches"]')" = 2 ] && pass "2 mismatches counted" || fail "mismatch count"
expect_status 2 "verify refuses a mixed pattern" -- "$IOMARK" run --rw=randrw --verify=crc32c $F
expect_err_has "--verify"

# injected EIO: the thread stops, partial results, exit 1
G=$WORK/g.dat
"$IOMARK" run --size=16M --runtime=1 --quiet $G >/dev/null
expect_status 1 "injected EIO stops the thread" -- "$IOMARK" run --inject_error=EIO:100 --iodepth=4 --runtime=2 \
  --output-format=json --output=$WORK/e.json --quiet $G
$CHECK $WORK/e.json --status error --min-ios 50 && pass "partial result valid" || fail "partial result"
[ "$(jget $WORK/e.json 'd["targets"][0]["first_error"]["errno"]')" = 5 ] && pass "errno 5 recorded" || fail "errno"
# every 10th, over a fixed amount of I/O (1 MiB of 4 KiB = 256 I/Os), not a fixed
# time: a loaded machine's file did 23 I/Os in a second (0 errors at every 100th)
expect_status 1 "injected EIO, continue" -- "$IOMARK" run --inject_error=EIO:10 --continue_on_error --io_size=1M \
  --output-format=json --output=$WORK/ec.json --quiet $G
$PY - $WORK/ec.json <<'PY' && pass "errors counted, run completed" || fail "continue_on_error counts"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["total"]["total"]
# every 10th I/O failed: errors = floor(attempts / 10), attempts = ios + errors
ok = t["errors"] >= 20 and abs(t["errors"] - (t["ios"] + t["errors"]) / 10) <= 2 and d["status"] != "interrupted"
print(t["errors"], t["ios"])
sys.exit(0 if ok else 1)
PY

# 1000 threads x iodepth 64 on the null engine
expect_status 0 "1000 threads x QD64 null" -- "$IOMARK" run --ioengine=null --numjobs=1000 --iodepth=64 --runtime=1 --quiet \
  --output-format=json --output=$WORK/t1000.json $G
[ "$(jget $WORK/t1000.json 'len(d["threads"])')" = 1000 ] && pass "1000 threads reported" || fail "threads"
expect_status 2 "5000 threads refused" -- "$IOMARK" run --ioengine=null --numjobs=5000 --runtime=1 $G

# a file that is not a whole number of blocks: no I/O passes the end, the tail is reported
head -c $(( (1 << 20) + 1000 )) /dev/urandom > $WORK/odd.dat
expect_status 0 "file of 1 MiB + 1000 bytes" -- "$IOMARK" run --direct=0 --iodepth=8 --runtime=1 \
  --output-format=json --output=$WORK/odd.json --quiet $WORK/odd.dat
[ "$(jget $WORK/odd.json 'd["targets"][0]["unused_tail_bytes"]')" = 1000 ] && pass "tail of 1000 bytes reported" || fail "tail"
$CHECK $WORK/odd.json --bs 4096 && pass "odd-size result checks (no short reads)" || fail "odd-size checks"

# wait_running PID: until the run's worker threads exist (the target is open),
# instead of assuming how long start-up takes on a busy machine; 60 s at most
wait_running() {
  local n
  for _ in $(seq 600); do
    n=$(awk '/^Threads:/ {print $2}' /proc/$1/status 2>/dev/null || true)
    [ "${n:-0}" -ge 2 ] && return 0
    sleep 0.1
  done
  echo "process $1 never started its workers"; return 1
}
# a target removed during the run: the open file lives on, the run completes
"$IOMARK" run --size=16M --runtime=100ms --quiet $WORK/rm.dat >/dev/null
"$IOMARK" run --runtime=2 --output-format=json --output=$WORK/rm.json --quiet $WORK/rm.dat &
pid=$!; wait_running $pid; sleep 0.7; rm -f $WORK/rm.dat
rc=0; wait $pid || rc=$?
[ $rc = 0 ] && $CHECK $WORK/rm.json --bs 4096 && pass "removed target: run completes" || fail "removed target exit $rc"

# a target truncated during the run: a clear error, no crash
"$IOMARK" run --size=64M --runtime=1 --quiet $WORK/tr.dat >/dev/null
"$IOMARK" run --runtime=10 --output-format=json --output=$WORK/tr.json --quiet $WORK/tr.dat 2>$WORK/tr.err &
pid=$!; wait_running $pid; sleep 1; truncate -s 0 $WORK/tr.dat
rc=0; wait $pid || rc=$?
[ $rc = 1 ] && pass "truncated target: exit 1" || fail "truncated target exit $rc"
grep -q "short transfer" $WORK/tr.err && pass "truncation reported" || fail "truncation message: $(cat $WORK/tr.err)"

# signal while the test file is being created: removed, exit 130, valid document
"$IOMARK" run --size=8G --output-format=json --output=$WORK/sig.json --quiet $WORK/big.dat 2>/dev/null &
# (the signal goes once the file exists: the handler is installed before it is created)
pid=$!; for _ in $(seq 600); do [ -e $WORK/big.dat ] && break; sleep 0.1; done; sleep 0.2; kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] && pass "interrupted creation: exit 130" || fail "interrupted creation exit $rc"
[ ! -e $WORK/big.dat ] && pass "half-created file removed" || fail "file left behind"
[ "$(jget $WORK/sig.json 'd["status"]')" = interrupted ] && pass "interrupted document" || fail "document"

if [ "$(id -u)" = 0 ]; then
  # a full filesystem mid-run (tmpfs of 8 MiB, a sparse 64 MiB file): ENOSPC reported with its offset
  mkdir -p $WORK/small
  if mount -t tmpfs -o size=8M tmpfs $WORK/small; then
    MOUNTS+=("$WORK/small")
    truncate -s 64M $WORK/small/f.dat
    expect_status 1 "ENOSPC during the run" -- "$IOMARK" run --rw=write --bs=1M --direct=0 --runtime=2 \
      --output-format=json --output=$WORK/nospc.json --quiet $WORK/small/f.dat
    [ "$(jget $WORK/nospc.json 'd["targets"][0]["first_error"]["errno"]')" = 28 ] && pass "errno 28 (ENOSPC)" || fail "ENOSPC errno"
    expect_status 2 "free space checked before creating" -- "$IOMARK" run --size=16M $WORK/small/new.dat
    [ ! -e $WORK/small/new.dat ] && pass "nothing created on a full filesystem" || fail "created"
  fi
  # real EIO from a device-mapper error target between 8 and 9 MiB
  if command -v dmsetup >/dev/null && losetup -f >/dev/null 2>&1; then
    truncate -s 16M $WORK/dm.img
    new_loop $WORK/dm.img; L=$LOOP_DEV
    NAME=iomark-test-$$
    if printf '0 16384 linear %s 0\n16384 2048 error\n18432 14336 linear %s 18432\n' $L $L | dmsetup create $NAME 2>/dev/null; then
      expect_status 1 "real EIO from dm-error" -- "$IOMARK" run --rw=read --bs=64k --io_size=16M --output-format=json \
        --output=$WORK/dm.json --quiet /dev/mapper/$NAME
      off=$(jget $WORK/dm.json 'd["targets"][0]["first_error"]["offset_bytes"]')
      [ "$off" -ge $((8 << 20)) ] && [ "$off" -lt $((9 << 20)) ] && pass "EIO at byte $off, inside the bad range" || fail "EIO offset $off"
      [ "$(jget $WORK/dm.json 'd["targets"][0]["first_error"]["errno"]')" = 5 ] && pass "errno EIO" || fail "dm errno"
      expect_status 1 "dm-error, continue" -- "$IOMARK" run --rw=read --bs=64k --io_size=16M --continue_on_error \
        --output-format=json --output=$WORK/dm2.json --quiet /dev/mapper/$NAME
      # 1 MiB bad = 16 blocks of 64 KiB fail, 240 succeed (computed from the table)
      [ "$(jget $WORK/dm2.json 'd["total"]["total"]["errors"]')" = 16 ] && [ "$(jget $WORK/dm2.json 'd["total"]["total"]["ios"]')" = 240 ] \
        && pass "16 bad blocks, 240 good" || fail "dm counts $(jget $WORK/dm2.json 'd["total"]["total"]')"
      dmsetup remove $NAME
    else
      echo "skip: dmsetup create failed (no device-mapper)"
    fi
  fi
fi
finish
