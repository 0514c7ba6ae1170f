#!/bin/bash
# test_fio_filesets.sh - fio job files whose jobs use several files, clones and
# passes, read as fio 3.33 reads them (issue 12 items 9 and 11, issue 19).
# Every expected value comes from fio 3.33's own run of the same job (its JSON
# total_ios/io_bytes, file sizes it laid out, or pread64 offsets traced with
# strace on psync), noted beside each check.
. "$(dirname "$0")/lib.sh"
cd "$WORK"
# jobs NAME... of a JSON report: "name ios bytes" per entry, in order
counts() { $PY -c "
import json, sys
for j in json.load(open(sys.argv[1]))['jobs']:
    d = j['read'] if j['read']['total_ios'] else j['write']
    print(j['jobname'], d['total_ios'], d['io_bytes'])" "$1"; }
# expect_counts JOBFILE WANT WHAT: run it; its "name ios bytes " list must be WANT (fio's)
expect_counts() {
  if "$IOMARK" run "$1" --quiet --output-format=json --output="$1.json" 2>err.txt; then
    local got; got=$(counts "$1.json" | tr '\n' ' ')
    [ "$got" = "$2" ] && pass "$3 (fio 3.33's counts)" || fail "$3: got '$got', fio 3.33: '$2'"
  else
    fail "$3: $(head -c 300 err.txt)"
  fi
}

# --- [global] filename= and a section's own filename= ---------------------
# fio 3.33 adds the section's files to the [global]'s (--debug=file: "dup
# files: 2", then c.dat "added at 2"); a name given again is one more file
# entry. fio's run of this job: a.dat, b.dat and c.dat laid out with 32768
# bytes each (96k over 3 entries), 24 reads in [j1]; [j2] has 4 entries (a, b,
# a, b), 24 reads, 6 per entry at offsets 0..20480.
cat >g.fio <<JOB
[global]
filename=$WORK/a.dat:$WORK/b.dat
size=96k
bs=4k
ioengine=psync
rw=read
[j1]
filename=$WORK/c.dat
[j2]
filename=$WORK/a.dat:$WORK/b.dat
JOB
"$IOMARK" run g.fio --parse-only >parse.txt 2>err.txt || true
grep -q "^\[j1\] .* files=$WORK/a.dat:$WORK/b.dat:$WORK/c.dat\$" parse.txt &&
  grep -q "^\[j2\] .* files=$WORK/a.dat:$WORK/b.dat:$WORK/a.dat:$WORK/b.dat\$" parse.txt &&
  pass "[global] filename + section filename: the section's files added (fio --debug=file)" ||
  fail "[global]+section filename: $(cat parse.txt err.txt)"
if "$IOMARK" run g.fio --quiet --output-format=json --output=g.json 2>err.txt; then
  got=$(counts g.json | tr '\n' ' ')
  sizes=$(stat -c %s a.dat b.dat c.dat | tr '\n' ' ')
  [ "$got" = "j1 24 98304 j2 24 98304 " ] && [ "$sizes" = "32768 32768 32768 " ] &&
    pass "[global]+section files: 24 reads each, files 32768 bytes (fio 3.33: same)" ||
    fail "[global]+section files: $got; sizes $sizes (fio: j1 24, j2 24; 32768 each)"
else
  fail "[global]+section files run: $(head -c 300 err.txt)"
fi

# --- no wrap inside a size-based pass, for every shape --------------------
# 30 KiB files (22 KiB for c22), bs=4k, no size: fio 3.33 reads 7 blocks per
# pass of a30 and 5 of c22, never the tail and never offset 0 twice in a pass:
#   loops=2 -> 14 reads; numjobs=2 -> 7 per clone; a30:b30 -> 14;
#   a30:c22 -> 12; randread over a30:c22 with loops=3 -> 36 (fio's JSON)
head -c 30720 /dev/urandom >a30; head -c 30720 /dev/urandom >b30; head -c 22528 /dev/urandom >c22
cat >nw.fio <<JOB
[global]
ioengine=psync
bs=4k
rw=read
[loops2]
filename=$WORK/a30
loops=2
[clones2]
stonewall
filename=$WORK/a30
numjobs=2
[twofiles]
stonewall
filename=$WORK/a30:$WORK/b30
[unequal]
stonewall
filename=$WORK/a30:$WORK/c22
[randmap]
stonewall
rw=randread
filename=$WORK/a30:$WORK/c22
loops=3
JOB
expect_counts nw.fio "loops2 14 57344 clones2 7 28672 clones2 7 28672 twofiles 14 57344 unequal 12 49152 randmap 36 147456 " \
  "no wrap: loops, clones, several files, unequal files, random map"
# the offsets themselves (strace on psync): fio 3.33 reads 0, 4096, ..., 24576
# four times each with numjobs=2 loops=2 on a30, never 28672
if command -v strace >/dev/null; then
  cat >s.fio <<JOB
[j]
ioengine=psync
bs=4k
rw=read
filename=$WORK/a30
numjobs=2
loops=2
JOB
  strace -f -e trace=pread64 -o s.tr "$IOMARK" run s.fio --quiet >/dev/null 2>err.txt || true
  offs=$(grep -oE ', 4096, [0-9]+\) = 4096' s.tr | awk '{print $3}' | tr -d ')' | sort -n | uniq -c |
         awk '{printf "%s:%s ", $2, $1}')
  [ "$offs" = "0:4 4096:4 8192:4 12288:4 16384:4 20480:4 24576:4 " ] &&
    pass "no wrap: offsets 0..24576 four times each (fio 3.33, strace)" ||
    fail "no wrap offsets: $offs (fio 3.33: 0..24576 four times each)"
fi

# --- offset_increment: clone k starts at offset + k * offset_increment --------
# fio 3.33 on a 1 MiB file, numjobs=3, offset=8k, offset_increment=256k,
# size=128k: each clone 32 reads, clone k over [8k + k*256k, + 128k) (strace:
# first/last offsets 8192/135168, 270336/397312, 532480/659456); without size,
# io_size=64k: 16 reads from 0, 262144, 524288 (last 61440, 323584, 585728)
head -c 1048576 /dev/urandom >m1
cat >oi.fio <<JOB
[j]
ioengine=psync
bs=4k
rw=read
filename=$WORK/m1
numjobs=3
offset=8k
offset_increment=256k
size=128k
[k]
stonewall
ioengine=psync
bs=4k
rw=read
filename=$WORK/m1
numjobs=3
offset_increment=256k
io_size=64k
JOB
expect_counts oi.fio "j 32 131072 j 32 131072 j 32 131072 k 16 65536 k 16 65536 k 16 65536 " \
  "offset_increment: 32 reads per clone with size, 16 with io_size"
if command -v strace >/dev/null; then
  strace -f -e trace=pread64 -o oi.tr "$IOMARK" run oi.fio --quiet >/dev/null 2>err.txt || true
  ranges=$(awk '/4096, [0-9]+\) = 4096/ {match($0, /4096, [0-9]+\)/); o=substr($0, RSTART+6, RLENGTH-7)+0;
                p=$1; if (!(p in mn) || o < mn[p]) mn[p]=o; if (o > mx[p]) mx[p]=o; n[p]++}
               END {for (p in n) print mn[p] "-" mx[p] "/" n[p]}' oi.tr | sort -n | tr '\n' ' ')
  want="0-61440/16 8192-135168/32 262144-323584/16 270336-397312/32 524288-585728/16 532480-659456/32 "
  [ "$ranges" = "$want" ] && pass "offset_increment: each clone's offsets as fio 3.33's (strace)" ||
    fail "offset_increment offsets: '$ranges', fio 3.33: '$want'"
fi

# --- nrfiles, filename_format, file_service_type --------------------------
# fio 3.33's run of this job (directory=$WORK/nf): [nj] makes nj.0.0 .. nj.1.2,
# 32768 bytes each (96k over 3 files per clone), 24 reads per clone; [fmt]
# data.0.0.fmt and data.0.1.fmt (32768 each), 16 reads; [named]: with filename=
# nrfiles is not used (one file x, 49152 bytes, 12 reads); [cu]: $clientuid is
# empty outside client mode: my..0.0.cu, my..0.1.cu (4096 each), 2 reads
mkdir -p nf
cat >nf.fio <<JOB
[global]
ioengine=psync
bs=4k
rw=read
directory=$WORK/nf
[nj]
nrfiles=3
numjobs=2
size=96k
[fmt]
stonewall
nrfiles=2
filename_format=data.\$jobnum.\$filenum.\$jobname
size=64k
file_service_type=sequential
[named]
stonewall
filename=x
nrfiles=3
size=48k
[cu]
stonewall
filename_format=my.\$clientuid.\$jobnum.\$filenum.\$jobname
size=8k
nrfiles=2
file_service_type=random:4
JOB
expect_counts nf.fio "nj 24 98304 nj 24 98304 fmt 16 65536 named 12 49152 cu 2 8192 " \
  "nrfiles/filename_format: reads per clone"
files=$(cd nf && stat -c '%n=%s' * | sort | tr '\n' ' ')
[ "$files" = "data.0.0.fmt=32768 data.0.1.fmt=32768 my..0.0.cu=4096 my..0.1.cu=4096 nj.0.0=32768 nj.0.1=32768 nj.0.2=32768 nj.1.0=32768 nj.1.1=32768 nj.1.2=32768 x=49152 " ] &&
  pass "nrfiles/filename_format: the files fio 3.33 lays out, named and sized as fio's" ||
  fail "nrfiles files: $files"
finish
