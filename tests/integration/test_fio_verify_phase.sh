#!/bin/bash
# test_fio_verify_phase.sh - fio's verify phase (do_verify=1, fio 3.33
# backend.c do_verify, iolog.c log_io_piece, verify.c get_next_verify): a
# write job with verify reads back and checks every block it wrote, and the
# verify failure's accounting. Every expected value is fio 3.33's own run of
# the same job file on the same kind of file, traced with strace (pread64 and
# pwrite64 on the data file only):
#   - rw=write, psync, verify=meta / pattern / crc32c: the sequence of
#     (call, length, offset) equals fio's (256 writes, then 256 reads in offset
#     order), and JSON read total_ios/io_bytes equal fio's;
#   - rw=randwrite (random map): fio reads back in write order; iomark's reads
#     are its writes in the same order (the generators differ, the rule is
#     checked on both traces); norandommap=1: reads are the distinct written
#     offsets in offset order (fio's rb-tree), on both traces;
#   - do_verify=0: no read in either;
#   - a byte inverted in what pread returns for block 5 (LD_PRELOAD
#     flipread.so): exit status, JSON error (84, EILSEQ), read total_ios and
#     io_bytes (the failing read counts) equal fio's;
#   - a read job expecting another pattern (j4 pw.fio/pr.fio): error 84 and
#     read total_ios 1, as fio;
#   - the native --verify=crc32c --io_size write run reads back too; with
#     --do_verify=0 or a time-based run it does not.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "skip: no fio"; exit 77; }
command -v strace >/dev/null || { echo "skip: no strace"; exit 77; }
cc -O1 -shared -fPIC -o "$WORK/flipread.so" "$SRCDIR/tests/integration/flipread.c" -ldl ||
  { echo "skip: no C compiler"; exit 77; }
strace -f -qq -e trace=pread64 -o /dev/null true 2>/dev/null || { echo "skip: strace cannot trace here"; exit 77; }
cd "$WORK"
F=$WORK/d.bin

mkjob() { # VERIFY RW [extra lines]
  printf '[m]\nfilename=%s\nsize=1m\nbs=4k\nrw=%s\nioengine=psync\nverify=%s\n%b' "$F" "$2" "$1" "${3:-}"
}
# trace TOOL OUT.tr OUT.json JOB: the data file is 1 MiB before each run (fio
# lays out no file for a write job; iomark then writes none either)
trace() {
  local tool=$1 tr=$2 js=$3 job=$4 rc=0
  rm -f "$F"; truncate -s 1M "$F"
  if [ "$tool" = fio ]; then
    strace -f -qq -e trace=pread64,pwrite64 -P "$F" -o "$tr" fio "$job" --output-format=json --output="$js" >/dev/null 2>&1 || rc=$?
  else
    ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=pread64,pwrite64 -P "$F" -o "$tr" "$IOMARK" run "$job" --output-format=json --output="$js" >/dev/null 2>&1 || rc=$?
  fi
  echo $rc
}
calls() { # TRACE -> "pwrite64 4096 0" lines
  sed -nE 's/^[0-9]+ +(pread64|pwrite64)\([0-9]+, .*, ([0-9]+), ([0-9]+)\) = .*/\1 \2 \3/p' "$1"
}
jget() { "$PY" -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print($2)" "$1"; }
rule() { # TRACE in_order|sorted: the reads follow fio's rule for the writes
  calls "$1" | "$PY" -c "
import sys
w=[];r=[]
for l in sys.stdin:
    c,n,o=l.split(); (w if c=='pwrite64' else r).append(int(o))
ok = r == w if sys.argv[1] == 'in_order' else r == sorted(set(w))
print(len(w), len(r)); sys.exit(0 if ok and r else 1)" "$2"
}

for v in meta pattern crc32c; do
  extra=''; [ $v = pattern ] && extra='verify_pattern=0xaa\n'
  mkjob $v write "$extra" >w_$v.fio
  trace fio fio_$v.tr fio_$v.json w_$v.fio >/dev/null
  trace iom iom_$v.tr iom_$v.json w_$v.fio >/dev/null
  calls fio_$v.tr >fio_$v.c; calls iom_$v.tr >iom_$v.c
  [ "$(grep -c pread64 fio_$v.c)" = 256 ] || fail "verify=$v: fio 3.33 read back $(grep -c pread64 fio_$v.c) blocks, expected 256"
  cmp -s fio_$v.c iom_$v.c && pass "verify=$v: $(wc -l <iom_$v.c) pwrite64/pread64 calls, lengths and offsets as fio's" ||
    fail "verify=$v: calls differ from fio's: $(diff fio_$v.c iom_$v.c | head -4 | tr '\n' ' ')"
  for k in "j['read']['total_ios']" "j['read']['io_bytes']" "j['write']['total_ios']" "j['error']"; do
    a=$(jget fio_$v.json "$k"); b=$(jget iom_$v.json "$k")
    [ "$a" = "$b" ] && pass "verify=$v: JSON $k = $b as fio" || fail "verify=$v: JSON $k = $b, fio $a"
  done
done

# random patterns: fio's order rule, checked on fio's trace and on iomark's
mkjob meta randwrite >rw.fio
mkjob meta randwrite 'norandommap=1\n' >rwn.fio
for j in rw:in_order rwn:sorted; do
  n=${j%%:*}; r=${j#*:}
  trace fio fio_$n.tr fio_$n.json $n.fio >/dev/null
  trace iom iom_$n.tr iom_$n.json $n.fio >/dev/null
  fr=$(rule fio_$n.tr $r) || fail "$n.fio: fio's own trace does not follow the $r rule ($fr)"
  ir=$(rule iom_$n.tr $r) && pass "$n.fio: reads back $r ($ir writes/reads; fio $fr)" ||
    fail "$n.fio: iomark's reads do not follow fio's $r rule ($ir; fio $fr)"
done
[ "$(rule iom_rw.tr in_order)" = "$(rule fio_rw.tr in_order)" ] && pass "rw.fio: as many writes and reads as fio" ||
  fail "rw.fio: counts differ from fio's"

# do_verify=0: writes only
mkjob meta write 'do_verify=0\n' >nv.fio
trace fio fio_nv.tr fio_nv.json nv.fio >/dev/null
trace iom iom_nv.tr iom_nv.json nv.fio >/dev/null
a=$(calls fio_nv.tr | grep -c pread64 || true); b=$(calls iom_nv.tr | grep -c pread64 || true)
[ "$a" = 0 ] && [ "$b" = 0 ] && pass "do_verify=0: no read (fio: $a)" || fail "do_verify=0: iomark $b reads, fio $a"

# a changed byte in block 5, seen by the verify phase
for v in meta pattern crc32c; do
  for t in fio iom; do
    rm -f "$F"; truncate -s 1M "$F"; rc=0
    if [ $t = fio ]; then
      FLIPREAD_FILE=$F FLIPREAD_AT=$((5 * 4096 + 20)) LD_PRELOAD=$WORK/flipread.so \
        fio w_$v.fio --output-format=json --output=c_$t.json >/dev/null 2>c_$t.err || rc=$?
    else
      # an ASan build's runtime is not first with LD_PRELOAD: allow it
      ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 \
        FLIPREAD_FILE=$F FLIPREAD_AT=$((5 * 4096 + 20)) LD_PRELOAD=$WORK/flipread.so \
        "$IOMARK" run w_$v.fio --output-format=json --output=c_$t.json >/dev/null 2>c_$t.err || rc=$?
    fi
    echo $rc >c_$t.rc
  done
  [ "$(cat c_iom.rc)" = "$(cat c_fio.rc)" ] && pass "corrupt verify=$v: exit $(cat c_iom.rc) as fio" ||
    fail "corrupt verify=$v: exit $(cat c_iom.rc), fio $(cat c_fio.rc)"
  for k in "j['error']" "j['read']['total_ios']" "j['read']['io_bytes']" "j['write']['total_ios']"; do
    a=$(jget c_fio.json "$k"); b=$(jget c_iom.json "$k")
    [ "$a" = "$b" ] && pass "corrupt verify=$v: JSON $k = $b as fio" || fail "corrupt verify=$v: JSON $k = $b, fio $a"
  done
  grep -q "verify failed at byte 20480" c_iom.err && pass "corrupt verify=$v: the message names block 5 (20480)" ||
    fail "corrupt verify=$v: message: $(cat c_iom.err)"
done

# a read job expecting another pattern (fio: error 84, the failing read counted)
printf '[w]\nfilename=%s\nsize=64k\nbs=4k\nrw=write\nverify=pattern\nverify_pattern=0xaa\ndo_verify=0\n' "$F" >pw.fio
printf '[r]\nfilename=%s\nsize=64k\nbs=4k\nrw=read\nverify=pattern\nverify_pattern=0xbb\n' "$F" >pr.fio
rm -f "$F"; fio pw.fio >/dev/null 2>&1 || fail "fio pw.fio"
rc=0; fio pr.fio --output-format=json --output=pr_fio.json >/dev/null 2>&1 || rc=$?; frc=$rc
rc=0; "$IOMARK" run pr.fio --output-format=json --output=pr_iom.json >/dev/null 2>&1 || rc=$?
[ "$rc" = "$frc" ] && pass "pattern mismatch: exit $rc as fio" || fail "pattern mismatch: exit $rc, fio $frc"
for k in "j['error']" "j['read']['total_ios']" "j['read']['io_bytes']"; do
  a=$(jget pr_fio.json "$k"); b=$(jget pr_iom.json "$k")
  [ "$a" = "$b" ] && pass "pattern mismatch: JSON $k = $b as fio" || fail "pattern mismatch: JSON $k = $b, fio $a"
done

# native --verify: a size-ended write run reads back; --do_verify=0 or time-based: no read
nat() { # OUT.tr ARGS...
  local tr=$1; shift
  rm -f "$F"; truncate -s 1M "$F"
  ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=pread64,pwrite64 -P "$F" -o "$tr" "$IOMARK" run --rw=write --bs=4k --size=1m \
    --ioengine=psync --verify=crc32c --quiet "$@" "$F" >/dev/null 2>&1 || fail "native run $*"
}
nat n1.tr --io_size=1m
rule n1.tr sorted >/dev/null && [ "$(calls n1.tr | grep -c pread64)" = 256 ] &&
  pass "native --verify --io_size=1m: 256 blocks read back in offset order" || fail "native verify phase: $(rule n1.tr sorted)"
nat n2.tr --io_size=1m --do_verify=0
[ "$(calls n2.tr | grep -c pread64 || true)" = 0 ] && pass "native --do_verify=0: no read" || fail "native --do_verify=0 read"
nat n3.tr --runtime=1
[ "$(calls n3.tr | grep -c pread64 || true)" = 0 ] && pass "native time-based write: no verify phase (fio: runtime ends the job)" ||
  fail "native time-based write read back"
finish
