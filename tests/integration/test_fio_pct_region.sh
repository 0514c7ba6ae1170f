#!/bin/bash
# test_fio_pct_region.sh - offset=N% / size=N% with filesize=, filesize= with an
# offset, and rw=read:N skips, each against fio 3.33's own run of the same job:
# the file's size after the run and every read's offset (fio: --write_iolog;
# iomark: pread64 traced with strace). fio 3.33 filesetup.c setup_files and
# get_start_offset: the offset is N % of the file's real size (0 for a file not
# made yet) aligned up to the smallest block size; with filesize= the region runs
# from the offset to filesize; size=N% is N % of offset + region, at most the
# region, whole blocks; a file shorter than offset + region is laid out to that.
# io_u.c get_next_seq_offset/get_next_offset/fill_io_u: a skip's walk (see
# docs/fio-jobs.md). The counts, first/last offsets and sizes in the comments were
# read from fio 3.33's runs on 2026-12-01 (the first three: issue 19's trial).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
cd "$WORK"

# check NAME "OPTIONS" EXIST WANT: run [NAME] (OPTIONS: printf %b lines) on $WORK/f.dat,
# beforehand EXIST bytes of zeros in it (0: no file); fio's and iomark's "size N reads
# COUNT FIRST..LAST" must both be WANT and their offset lists equal
check() {
  local name=$1 opts=$2 exist=$3 want=$4 t got
  printf '[%s]\nioengine=psync\nfilename=%s/f.dat\n%b\n' "$name" "$WORK" "$opts" >"$name.fio"
  for t in fio iomark; do
    rm -f f.dat tr.*
    [ "$exist" = 0 ] || head -c "$exist" /dev/zero >f.dat
    if [ $t = fio ]; then
      rm -f "$name.iolog"
      fio "$name.fio" --write_iolog="$name.iolog" --output=/dev/null >/dev/null 2>&1 \
        || { fail "$name: fio failed"; return; }
      awk '$2 ~ /f.dat$/ && $3 == "read" {print $4}' "$name.iolog" >"$name.$t.off"
    else
      ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=pread64 -o tr \
        "$IOMARK" run "$name.fio" --quiet --output=/dev/null >/dev/null 2>"$name.err" \
        || { fail "$name: iomark failed: $(head -c 300 "$name.err")"; return; }
      cat tr.* | grep -F "<$WORK/f.dat>" | grep -E '= [0-9]+$' \
        | sed -E 's/.*, ([0-9]+)\) += [0-9]+$/\1/' >"$name.$t.off"
    fi
    got="size $(stat -c %s f.dat) reads $(wc -l <"$name.$t.off") $(head -1 "$name.$t.off")..$(tail -1 "$name.$t.off")"
    [ "$got" = "$want" ] && pass "$name: $t: $got" || fail "$name: $t: got '$got', fio 3.33 gave '$want'"
  done
  cmp -s "$name.fio.off" "$name.iomark.off" && pass "$name: every offset as fio's" \
    || fail "$name: offsets differ: fio $(head -c 200 "$name.fio.off" | tr '\n' ' ') iomark $(head -c 200 "$name.iomark.off" | tr '\n' ' ')"
}

# the trial's pct.fio: a new file is 1 MiB (25 % of 4m from offset 0: the file's real
# size is 0 when fio takes 25 % of it), 256 reads 0 .. 1044480
check pct 'filesize=4m\nrw=read\nbs=4k\noffset=25%\nsize=25%' 0 "size 1048576 reads 256 0..1044480"
# rw=read:4k: 128 reads reach 1040384, the skip passes the end, the walk wraps to 0
check pct4k 'filesize=4m\nrw=read:4k\nbs=4k\noffset=25%\nsize=25%' 0 "size 1048576 reads 256 0..1040384"
# an existing 4 MiB file, bs=4KiB (4000 bytes): offset 1048576 up to 1052000, region
# 1048000; 130 reads, the last (2096384) starting inside it and ending past it
check pctex 'filesize=4m\nrw=read:4k\nbs=4KiB\noffset=25%\nsize=25%' 4194304 "size 4194304 reads 130 1052000..2096384"
# size=50% from offset 80 %: cut to the region (80 % .. the end), 204 reads
check cap 'filesize=4m\nrw=read\nbs=4k\noffset=80%\nsize=50%' 4194304 "size 4194304 reads 204 3358720..4190208"
# an existing 1 MiB file, filesize=4m: offset 25 % of 1 MiB, size 25 % of 4 MiB, the
# file grown to 1310720
check grow 'filesize=4m\nrw=read\nbs=4k\noffset=25%\nsize=25%' 1048576 "size 1310720 reads 256 262144..1306624"
# filesize= with an absolute offset: the file stays filesize (iomark made 5 MiB before)
check fsoff 'filesize=4m\nrw=read:4k\nbs=4KiB\noffset=1052000\nsize=1048000' 4194304 "size 4194304 reads 262 1052000..3165056"
check fsoffnew 'filesize=4m\nrw=read\nbs=4k\noffset=1m\nsize=1m' 0 "size 4194304 reads 256 1048576..2093056"
# a skip whose last read ends at the file's end does not wrap: 86 reads a pass, 2 loops
check nowrap 'rw=read:8k\nbs=4k\nsize=1m\nloops=2' 0 "size 1048576 reads 172 0..1044480"
# a region inside a larger file: one pass, no wrap
check inside 'rw=read:8k\nbs=4k\noffset=64k\nsize=1m' 4194304 "size 4194304 reads 86 65536..1110016"
finish
