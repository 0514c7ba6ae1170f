#!/bin/bash
# test_fio_cache.sh - buffered job files and the page cache as fio 3.33: the
# default fadvise_hint=1 advises POSIX_FADV_RANDOM (random jobs) or
# POSIX_FADV_SEQUENTIAL over the file at open (ioengines.c td_io_open_file),
# and invalidate=1 drops the cached pages before the run and again at each new
# pass over the file (backend.c thread_main reopens per loop; io_u.c
# loop_cache_invalidate on a time_based wrap). Expected counts from strace of
# fio 3.33 running the same job (noted beside each check).
. "$(dirname "$0")/lib.sh"
cd "$WORK"
if ! command -v strace >/dev/null; then
  echo "strace not installed"; exit 77
fi
cat >c.fio <<JOB
[j]
filename=$WORK/k.dat
size=1m
rw=randread
loops=3
[s]
stonewall
filename=$WORK/k.dat
size=1m
rw=read
JOB
# fio 3.33 (strace -f -e trace=fadvise64, new file): 5 x POSIX_FADV_DONTNEED
# (layout, each of j's 3 loops, s's open), POSIX_FADV_RANDOM over (0, 1048576)
# for j and one POSIX_FADV_SEQUENTIAL over (0, 1048576) for s
ASAN_OPTIONS=detect_leaks=0 strace -f -qq -y -e trace=fadvise64 -o tr.txt "$IOMARK" run c.fio \
  --quiet --output=out.json --output-format=json >/dev/null 2>err.txt || fail "c.fio under strace: $(head -c 300 err.txt)"
d=$(grep -c 'k.dat>.*POSIX_FADV_DONTNEED) = 0' tr.txt)
[ "$d" = 5 ] && pass "5 cache drops: creation, before j, after j's passes 1 and 2, before s (fio 3.33: 5)" \
  || fail "DONTNEED count $d: $(grep -c . tr.txt) lines"
grep -q 'k.dat>, 0, 1048576, POSIX_FADV_RANDOM) = 0' tr.txt && pass "randread: POSIX_FADV_RANDOM over the file (fio 3.33)" \
  || fail "no FADV_RANDOM: $(head -c 400 tr.txt)"
grep -q 'k.dat>, 0, 1048576, POSIX_FADV_SEQUENTIAL) = 0' tr.txt && pass "read: POSIX_FADV_SEQUENTIAL (fio 3.33)" \
  || fail "no FADV_SEQUENTIAL"
# fadvise_hint=0: no advice (fio's HOWTO: "no hint"); invalidate=0: no drop
# before the run or at each pass (only the creation's, here the file exists)
printf '[j]\nfilename=%s/k.dat\nsize=1m\nrw=randread\nloops=3\nfadvise_hint=0\ninvalidate=0\n' "$WORK" >n.fio
ASAN_OPTIONS=detect_leaks=0 strace -f -qq -y -e trace=fadvise64 -o tr2.txt "$IOMARK" run n.fio \
  --quiet --output=out2.json --output-format=json >/dev/null 2>err.txt || fail "n.fio: $(head -c 300 err.txt)"
[ "$(grep -c 'k.dat>' tr2.txt)" = 0 ] && pass "fadvise_hint=0 invalidate=0: no fadvise calls" || fail "calls: $(cat tr2.txt)"
printf '[j]\nfilename=%s/k.dat\nsize=1m\nfadvise_hint=sometimes\n' "$WORK" >bad.fio
expect_status 2 "fadvise_hint=sometimes refused" -- "$IOMARK" run bad.fio --parse-only
finish
