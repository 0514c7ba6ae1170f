#!/usr/bin/env bash
# io_uring refused by the kernel (seccomp, as in containers): iomark says so,
# falls back to libaio, and the result records the engine actually used.
source "$(dirname "$0")/lib.sh"
cc -O1 -o $WORK/no_uring "$SRCDIR/tests/integration/no_uring.c" || { echo "skip: no C compiler"; exit 77; }
F=$WORK/f.dat
"$IOMARK" run --size=16M --runtime=1 --quiet $F >/dev/null
expect_status 0 "run with io_uring refused" -- $WORK/no_uring "$IOMARK" run --runtime=1 --iodepth=8 \
  --output-format=json --output=$WORK/r.json --quiet $F
grep -q "io_uring is unavailable" $WORK/err && grep -q "using libaio" $WORK/err && pass "fallback announced on stderr" || fail "no announcement: $(cat $WORK/err)"
$CHECK $WORK/r.json --bs 4096 && pass "fallback result checks" || fail "fallback result checks"
$PY - $WORK/r.json <<'PY' && pass "engine libaio recorded with the reason" || fail "engine not recorded"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["engine"] == "libaio" and d["spec"]["ioengine"] == "io_uring" and "io_uring" in d["engine_note"] else 1)
PY
# without the filter the same command uses io_uring
expect_status 0 "run normally" -- "$IOMARK" run --runtime=1 --output-format=json --output=$WORK/n.json --quiet $F
grep -q '"engine":\s*"io_uring"' $WORK/n.json && pass "io_uring used when available" || fail "io_uring not used"

# a target that cannot be opened for writing is refused like every other
# cannot-open error: exit 2, one line naming the target, nothing written
if chattr +i $F 2>/dev/null; then
  expect_status 2 "write to an immutable file" -- "$IOMARK" run --rw=write --runtime=1 --output-format=json --output=$WORK/e.json $F
  chattr -i $F
  # the file's owner and mode from stat; an immutable file is named as such
  expect_err_has "target $F: cannot open for reading and writing: Operation not permitted (owner uid $(stat -c %u $F), mode $(stat -c %a $F): the file is immutable, and iomark needs to write it for --rw=write; lsattr shows the i flag, chattr -i clears it)"
  [ ! -e $WORK/e.json ] && pass "no output document for a refusal" || fail "output written for a refusal"
else
  echo "skip: chattr +i not supported here"
fi

# 64-bit offsets: a sparse 3 TiB file, random reads in a region past 2 TiB
truncate -s 3T $WORK/big.dat
expect_status 0 "random reads past 2 TiB" -- "$IOMARK" run --offset=2T --size=1T --runtime=1 --iodepth=4 \
  --output-format=json --output=$WORK/big.json $WORK/big.dat
grep -q "sparse" $WORK/err && pass "sparse target warned" || fail "no sparse warning"
$CHECK $WORK/big.json --bs 4096 && pass "big file result checks" || fail "big file result checks"
$PY - $WORK/big.json <<'PY' && pass "region recorded past 2 TiB" || fail "region"
import json, sys
t = json.load(open(sys.argv[1]))["targets"][0]
sys.exit(0 if t["region_start_bytes"] == 2 << 40 and t["region_bytes"] == 1 << 40 and t["size_bytes"] == 3 << 40 else 1)
PY
# the live progress line appears on a terminal (script(1) gives one), not in a pipe
if command -v script >/dev/null; then
  script -qec "$IOMARK run --runtime=2500ms $F" /dev/null > $WORK/tty.out 2>&1 || true
  grep -q "measuring" $WORK/tty.out && grep -q "eta 00:0" $WORK/tty.out && pass "progress line on a terminal" || fail "no progress line"
  "$IOMARK" run --runtime=1500ms $F 2>$WORK/pipe.err >/dev/null
  [ ! -s $WORK/pipe.err ] && pass "silent when not a terminal" || fail "stderr in a pipe: $(cat $WORK/pipe.err)"
fi
finish
