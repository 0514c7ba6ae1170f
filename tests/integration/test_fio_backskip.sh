#!/bin/bash
# test_fio_backskip.sh - fio's backward skips (rw=read:-8k, rw=write:-12k; fio
# HOWTO "rw", io_u.c get_next_seq_offset) in job files: the offsets iomark
# issues (pread64/pwrite64 traced with strace on psync) against the offsets
# fio 3.33 issues for the same job file (its own --write_iolog), in order, and
# the refusals of what iomark does not run (mixed patterns, a skip smaller
# than the block).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
cd "$WORK"
head -c 65536 /dev/urandom >data

# CASE NAME RW SIZE [EXTRA]: fio's offsets == iomark's (sorted when SORT=1: clones interleave)
check() {
  local name=$1 rw=$2 size=$3 extra=${4:-} sort=${5:-0}
  printf '[%s]\nfilename=%s/data\nrw=%s\nbs=4k\nsize=%s\nioengine=psync\n%s\n' \
    "$name" "$WORK" "$rw" "$size" "$extra" >"$name.fio"
  rm -f "$name.iolog"
  fio "$name.fio" --write_iolog="$name.iolog" --output=/dev/null >/dev/null 2>&1 || { fail "$name: fio failed"; return; }
  awk '$2 ~ /data$/ && ($3 == "read" || $3 == "write") {print $4}' "$name.iolog" >"$name.fio.off"
  rm -f tr.*
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=pread64,pwrite64 -o tr \
    "$IOMARK" run "$name.fio" --quiet --output=/dev/null >/dev/null 2>"$name.err" \
    || { fail "$name: iomark failed: $(head -c 300 "$name.err")"; return; }
  # one trace file per thread; a single-clone job has its I/Os in one, in order
  cat tr.* | grep -F "<$WORK/data>" | grep -E '= [0-9]+$' \
    | sed -E 's/.*, ([0-9]+)\) += [0-9]+$/\1/' >"$name.iom.off"
  if [ "$sort" = 1 ]; then sort -n -o "$name.fio.off" "$name.fio.off"; sort -n -o "$name.iom.off" "$name.iom.off"; fi
  local n; n=$(wc -l <"$name.fio.off")
  if [ "$n" -gt 0 ] && cmp -s "$name.fio.off" "$name.iom.off"; then
    pass "$name ($rw size=$size $extra): $n offsets as fio 3.33: $(head -5 "$name.fio.off" | tr '\n' ' ')..."
  else
    fail "$name ($rw size=$size $extra): fio $(tr '\n' ' ' <"$name.fio.off"), iomark $(tr '\n' ' ' <"$name.iom.off")"
  fi
}
# fio's backwards-read.fio pattern on 64 KiB: 0, then 56k down to 0 (16 reads)
check back8 read:-8k 64k
# two loops: the walk goes on (fio 3.33: 0 56k .. 4k 0 56k .. 0)
check back8loop read:-8k 64k loops=2
# a size that is not a whole number of blocks: fio does 8 reads for 30 KiB
check back30k read:-8k 30k
# a 12k skip on a 32 KiB region of a 64 KiB file: 0 20k 12k 4k 20k 12k 4k 20k
check backw12 write:-12k 32k
# a skip of one block re-reads the first block
check back4 read:-4k 16k
# two clones on one file each walk the whole region (fio)
check backclones read:-8k 64k numjobs=2 1
# and the table independent of both tools: read:-8k, bs=4k, 64 KiB = 0, 56k, 52k, ..., 4k, 0
want="0 $(seq 57344 -4096 0 | tr '\n' ' ')"
got=$(tr '\n' ' ' <back8.iom.off)
[ "$got" = "$want" ] && pass "read:-8k on 64 KiB by hand: $want" || fail "read:-8k on 64 KiB: $got, by hand $want"

# refusals: exit 2, one line naming the option, nothing created
expect_job_refused "rw=rw:-8k refused" "[m]\nfilename=$WORK/new1\nrw=rw:-8k\nbs=4k\nsize=64k" "rw=rw:-8k"
[ ! -e new1 ] && pass "nothing created" || fail "rw=rw:-8k created new1"
expect_job_refused "rw=read:-2k with bs=4k refused" "[s]\nfilename=$WORK/new2\nrw=read:-2k\nbs=4k\nsize=64k" \
  "at least the block size"
[ ! -e new2 ] && pass "nothing created" || fail "rw=read:-2k created new2"
finish
