#!/bin/bash
# test_issue12_rest.sh - issue 12 items 9, 10, 11 and 15: fio job files read
# as fio 3.33 reads them, and the null engine without a file. Expected values
# come from fio 3.33 runs of the same job files (noted beside each check) or
# from reading the input by hand.
. "$(dirname "$0")/lib.sh"
cd "$WORK"
jget() { $PY -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['jobs'][0]['read'][sys.argv[2]])" "$@"; }

# 9. several filename= lines in one section: every file is used.
#    fio 3.33 (--debug=file: "added at 0", "added at 1"): a.dat and b.dat each
#    laid out with 32768 bytes (size=64k split over 2 files); 16 reads of 4 KiB.
cat >two.fio <<JOB
[job]
ioengine=psync
rw=read
bs=4k
size=64k
filename=$WORK/a.dat
filename=$WORK/b.dat
JOB
if "$IOMARK" run two.fio --quiet --output=two.json --output-format=json 2>err.txt; then
  sa=$(stat -c %s a.dat 2>/dev/null || echo none); sb=$(stat -c %s b.dat 2>/dev/null || echo none)
  n=$(jget two.json total_ios)
  if [ "$sa" = 32768 ] && [ "$sb" = 32768 ] && [ "$n" = 16 ]; then
    pass "two filename= lines: both files (32768 bytes each), 16 reads"
  else
    fail "two filename= lines: a.dat=$sa b.dat=$sb reads=$n (fio: 32768, 32768, 16)"
  fi
else
  fail "two filename= lines: $(head -c 300 err.txt)"
fi

# 10. time_based without runtime: fio 3.33 prints "fio: time_based requires a
#     runtime/timeout setting" and runs size-based: size=64k bs=4k -> 16 reads.
cat >tb.fio <<JOB
[job]
ioengine=psync
rw=read
bs=4k
size=64k
time_based
filename=$WORK/c.dat
JOB
if "$IOMARK" run tb.fio --quiet --output=tb.json --output-format=json 2>err.txt; then
  n=$(jget tb.json total_ios)
  [ "$n" = 16 ] && pass "time_based without runtime: size-based, 16 reads" \
    || fail "time_based without runtime: $n reads (fio: 16)"
  grep -q 'time_based requires a runtime' err.txt && pass "time_based without runtime: warned" \
    || fail "time_based without runtime: no warning: $(head -c 300 err.txt)"
else
  fail "time_based without runtime refused: $(head -c 300 err.txt)"
fi

# 11. a 30 KiB file read sequentially with bs=4k, size-based: fio 3.33 does 7
#     reads (28672 bytes; 30720 / 4096 = 7 whole blocks), with and without size=.
head -c 30720 /dev/zero >t.dat
printf '[job]\nioengine=psync\nrw=read\nbs=4k\nfilename=%s/t.dat\n' "$WORK" >tail.fio
printf '[job]\nioengine=psync\nrw=read\nbs=4k\nsize=30k\nfilename=%s/s.dat\n' "$WORK" >size.fio
for j in tail size; do
  if "$IOMARK" run $j.fio --quiet --output=$j.json --output-format=json 2>err.txt; then
    n=$(jget $j.json total_ios); b=$(jget $j.json io_bytes)
    [ "$n" = 7 ] && [ "$b" = 28672 ] && pass "$j.fio: 7 reads, 28672 bytes, no wrap" \
      || fail "$j.fio: $n reads, $b bytes (fio: 7, 28672)"
  else
    fail "$j.fio: $(head -c 300 err.txt)"
  fi
done
if command -v strace >/dev/null; then
  # one trace file per thread (-ff: no call split by another thread's), each
  # fd with its path (-y): only the reads of t.dat
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=pread64 -o tr "$IOMARK" run tail.fio --quiet --output=x.json \
    --output-format=json >/dev/null 2>&1 || true
  offs=$(cat tr.* | grep -F "<$WORK/t.dat>" | grep -E ', 4096, [0-9]+\) += 4096' | sed -E 's/.*, ([0-9]+)\) += 4096/\1/' | tr '\n' ' ')
  [ "$offs" = "0 4096 8192 12288 16384 20480 24576 " ] && pass "tail.fio: offsets 0..24576 once each (strace)" \
    || fail "tail.fio: offsets read: $offs"
fi

# the same with the native options: fio 3.33 --name=x --rw=read --bs=4k
# --io_size=30k on the 30 KiB file does 7 reads
if "$IOMARK" run --ioengine=psync --rw=read --bs=4k --io_size=30k --quiet \
    --output-format=json --output=nat.json "$WORK/t.dat" 2>err.txt; then
  n=$($PY -c "import json; j=json.load(open('nat.json')); print(j['total']['read']['ios'])" 2>&1)
  [ "$n" = 7 ] && pass "run --io_size=30k: 7 reads" || fail "run --io_size=30k: $n reads (fio: 7)"
else
  fail "run --io_size=30k: $(head -c 300 err.txt)"
fi

# 15. --ioengine=null: no target needed; nothing created; a named target is not
#     created either. fio's null engine needs size= ("you need to specify size=").
mkdir n && cd n
expect_status 0 "null engine without a target" -- "$IOMARK" run --ioengine=null --rw=read --bs=4k \
  --size=1m --runtime=1 --quiet --output-format=json --output=../null.json
[ -z "$(ls -A .)" ] && pass "null engine without a target: nothing created" || fail "null engine created: $(ls -A .)"
expect_status 0 "null engine with a target" -- "$IOMARK" run --ioengine=null --rw=read --bs=4k \
  --size=1m --runtime=1 --quiet --output-format=json --output=../null2.json "$WORK/n/tgt.dat"
[ ! -e tgt.dat ] && pass "null engine with a target: target not created" || fail "null engine created tgt.dat"
expect_status 2 "null engine without --size" -- "$IOMARK" run --ioengine=null --rw=read --runtime=1 --quiet
expect_err_has "--ioengine=null"
cd ..
finish
