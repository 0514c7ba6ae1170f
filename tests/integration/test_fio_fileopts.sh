#!/bin/bash
# test_fio_fileopts.sh - fio's file options and job-file syntax against fio
# 3.33's own run of the same file: pre_read=1 (the reads of the region before
# the job, strace), overwrite=1 (the file written whole before a write job,
# its allocated blocks), `include FILE` (the included options take effect:
# read sizes and count, strace), and the refusals by name of
# unified_rw_reporting=mixed and lockfile=exclusive (their fio defaults run).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
cd "$WORK"

# run TOOL JOB TRACE: TOOL (fio or iomark) on JOB under strace (read/pread64 of data)
run() {
  local tool=$1 job=$2 tr=$3
  local cmd=(fio "$job" --output=/dev/null)
  [ "$tool" = iomark ] && cmd=("$IOMARK" run "$job" --quiet --output=/dev/null)
  rm -f tr.*
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=read,pread64 -o tr "${cmd[@]}" \
    >/dev/null 2>"$tr.err" || { fail "$tool $job: $(head -c 300 "$tr.err")"; return 1; }
  cat tr.* | grep -F "<$WORK/data>" | grep -E '= [0-9]+$' | sed -E 's/.* = ([0-9]+)$/\1/' >"$tr"
}
# reads N SIZE FILE: FILE has N lines, each SIZE
reads() { [ "$(wc -l <"$3")" = "$1" ] && [ "$(sort -u "$3")" = "$2" ]; }

# pre_read=1 on a write job (fio filesetup.c pre_read_file): the 256 KiB region is read
# in 4 KiB pieces before the job; the job itself reads nothing: 64 reads of 4096 in both
printf '[a]\nfilename=%s/data\nsize=256k\nbs=4k\nrw=write\nioengine=psync\npre_read=1\n' "$WORK" >pr.fio
for t in fio iomark; do
  rm -f data
  if run $t pr.fio pr.$t.tr; then
    reads 64 4096 pr.$t.tr && pass "pre_read: $t read the region first, 64 x 4096 bytes" \
      || fail "pre_read: $t: $(wc -l <pr.$t.tr) reads: $(sort -u pr.$t.tr | tr '\n' ' ')"
  fi
done
# without it nothing is read
sed -i '/pre_read/d' pr.fio
rm -f data
run iomark pr.fio pr.none && { [ ! -s pr.none ] && pass "no pre_read: no reads" || fail "no pre_read: $(wc -l <pr.none) reads"; }

# overwrite=1 with fallocate=none and random writes with replacement: the file is
# written whole first (fio extend_file), so all 1 MiB is allocated; without it some
# blocks stay holes. Each tool's file: size and 512-byte blocks.
for ow in 0 1; do
  printf '[a]\nfilename=%s/ow\nsize=1m\nbs=4k\nrw=randwrite\nnorandommap\nioengine=psync\nfallocate=none\noverwrite=%s\n' \
    "$WORK" $ow >ow$ow.fio
  rm -f ow; fio ow$ow.fio --output=/dev/null >/dev/null 2>&1; f=$(stat -c '%s %b' ow)
  rm -f ow; "$IOMARK" run ow$ow.fio --quiet --output=/dev/null >/dev/null 2>ow.err; i=$(stat -c '%s %b' ow)
  if [ $ow = 1 ]; then
    [ "$f" = "1048576 2048" ] && [ "$i" = "$f" ] && pass "overwrite=1: whole file allocated: fio $f, iomark $i" \
      || fail "overwrite=1: fio $f, iomark $i (want 1048576 2048)"
  else
    [ "${f#* }" -lt 2048 ] && [ "${i#* }" -lt 2048 ] && pass "overwrite=0: holes in both: fio $f, iomark $i" \
      || fail "overwrite=0: fio $f, iomark $i"
  fi
done

# include FILE (fio init.c): its options join the section where it stands; a relative
# name not found from the current folder is taken beside the job file
mkdir -p jobs elsewhere
printf 'size=1m\nbs=8k\n' >jobs/common.inc
printf '[global]\ninclude common.inc\nfilename=%s/data\nioengine=psync\n[a]\nrw=read\n' "$WORK" >jobs/inc.fio
head -c 1048576 /dev/zero >data
for t in fio iomark; do
  cd elsewhere; ok=0; run $t ../jobs/inc.fio ../inc.$t.tr && ok=1; cd "$WORK"
  if [ $ok = 1 ]; then
    reads 128 8192 inc.$t.tr && pass "include: $t read 1 MiB in 128 x 8192 bytes" \
      || fail "include: $t: $(wc -l <inc.$t.tr) reads of $(sort -u inc.$t.tr | tr '\n' ' ')"
  fi
done
printf '[a]\ninclude %s/sect.inc\nfilename=%s/new1\n' "$WORK" "$WORK" >sect.fio
printf 'size=1m\n[b]\n' >sect.inc
expect_status 2 "a section in an included file refused (fio: no new sections)" -- "$IOMARK" run sect.fio
expect_err_has "No new sections in included files"
expect_job_refused "include of a missing file refused" "[a]\ninclude $WORK/nope.inc\nfilename=$WORK/new1" "nope.inc"

# allow_file_create=0: a missing file is not created (fio 3.33: exit 1, "file creation
# disallowed by allow_file_create=0"; iomark refuses before the run: exit 2), an existing one runs
printf '[a]\nfilename=%s/nc\nsize=64k\nrw=write\nallow_file_create=0\n' "$WORK" >nc.fio
rc=0; fio nc.fio --output=/dev/null >/dev/null 2>&1 || rc=$?
[ "$rc" != 0 ] && [ ! -e nc ] && pass "allow_file_create=0: fio exit $rc, nothing created" || fail "fio: exit $rc"
expect_status 2 "allow_file_create=0 on a missing file refused" -- "$IOMARK" run nc.fio
expect_err_has "allow_file_create=0"
[ ! -e nc ] && pass "nothing created" || fail "allow_file_create=0 created nc"
head -c 65536 /dev/zero >nc
expect_status 0 "allow_file_create=0 on an existing file runs" -- "$IOMARK" run nc.fio --quiet --output=/dev/null

# file_append=1 (fio filesetup.c get_start_offset): the writes start at the file's size
# (100000, not a block multiple), the file grows to 165536, its first bytes stay: the
# pwrite64 offsets and lengths in order, as fio's
head -c 100000 /dev/urandom >orig
printf '[a]\nfilename=%s/ap\nsize=64k\nbs=4k\nrw=write\nioengine=psync\nfile_append=1\n' "$WORK" >ap.fio
for t in fio iomark; do
  cp orig ap; rm -f tr.*
  cmd=(fio ap.fio --output=/dev/null); [ $t = iomark ] && cmd=("$IOMARK" run ap.fio --quiet --output=/dev/null)
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=pwrite64 -o tr "${cmd[@]}" >/dev/null 2>&1 || true
  cat tr.* | grep -F "<$WORK/ap>" | sed -E 's/.*, ([0-9]+)\) += ([0-9]+)$/\1 \2/' >ap.$t.off
  echo "$(stat -c %s ap) $(cmp -s -n 100000 ap orig && echo kept || echo changed)" >ap.$t.end
done
[ "$(head -1 ap.fio.off)" = "100000 4096" ] && [ "$(wc -l <ap.fio.off)" = 16 ] && cmp -s ap.fio.off ap.iomark.off \
  && pass "file_append: 16 writes from byte 100000 in both" || fail "file_append: fio $(head -2 ap.fio.off | tr '\n' '|'), iomark $(head -2 ap.iomark.off | tr '\n' '|')"
[ "$(cat ap.fio.end)" = "165536 kept" ] && [ "$(cat ap.iomark.end)" = "165536 kept" ] \
  && pass "file_append: 165536 bytes, the first 100000 kept, in both" || fail "file_append: fio $(cat ap.fio.end), iomark $(cat ap.iomark.end)"
expect_job_refused "file_append=1 with reads refused" "[a]\nfilename=$WORK/ap\nsize=64k\nrw=read\nfile_append=1" "file_append=1"

# fio's defaults run; other values are refused by name with the reason
base="[a]\nfilename=$WORK/new1\nsize=64k\nrw=read"
expect_job_refused "unified_rw_reporting=mixed refused" "$base\nunified_rw_reporting=mixed" "reports reads and writes apart"
expect_job_refused "lockfile=exclusive refused" "$base\nlockfile=exclusive" "lockfile=exclusive"
[ ! -e new1 ] && pass "nothing created" || fail "a refused job created new1"
printf "$base\nunified_rw_reporting=none\nlockfile=none\n" >defaults.fio
expect_status 0 "unified_rw_reporting=none, lockfile=none run" -- "$IOMARK" run defaults.fio --quiet --output=/dev/null
finish
