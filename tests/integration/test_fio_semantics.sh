#!/bin/bash
# test_fio_semantics.sh - fio job files run with fio's meaning (issue 19):
# the random map (each block once per pass; norandommap draws with
# replacement), counted with strace on psync and from iomark's own I/O
# accounting, against fio 3.33 runs of the same job file.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
# 1. one pass of N random reads over N blocks reads every block exactly once
#    (pread64 offsets traced; psync issues one pread64 per I/O)
cat >map.fio <<JOB
[map]
filename=$WORK/data
rw=randread
bs=4k
size=1m
ioengine=psync
JOB
if command -v strace >/dev/null; then
  # one trace file per thread (-ff: no call split by another thread's, 245 of
  # 256 matched under load), each fd with its path (-y): only the data file's
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=pread64 -o tr "$IOMARK" run map.fio --quiet --output=out.json \
    --output-format=json >/dev/null 2>err.txt || fail "map.fio under strace: $(head -c 300 err.txt)"
  cat tr.* | grep -F "<$WORK/data>" >trace.txt
  # pread64(fd, buf, 4096, OFFSET) = 4096 on the data file
  counts=$(grep -E ', 4096, [0-9]+\) += 4096' trace.txt | sed -E 's/.*, ([0-9]+)\) += 4096/\1/' \
           | sort -n | uniq -c | awk '{print $1}' | sort -u | tr '\n' ' ')
  n=$(grep -cE ', 4096, [0-9]+\) += 4096' trace.txt || true)
  distinct=$(grep -E ', 4096, [0-9]+\) += 4096' trace.txt | sed -E 's/.*, ([0-9]+)\) += 4096/\1/' | sort -u | wc -l)
  # read by hand: 1 MiB / 4 KiB = 256 blocks, each once
  if [ "$n" = 256 ] && [ "$distinct" = 256 ] && [ "$counts" = "1 " ]; then
    pass "random map: 256 reads, 256 distinct blocks, each once (strace)"
  else
    fail "random map: $n reads, $distinct distinct offsets, counts per offset: $counts"
  fi
  printf 'norandommap\n' >>map.fio
  ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=pread64 -o trace2.txt "$IOMARK" run map.fio --quiet --output=out2.json \
    --output-format=json >/dev/null 2>err.txt || fail "norandommap under strace"
  distinct=$(grep -E ', 4096, [0-9]+\) += 4096' trace2.txt | sed -E 's/.*, ([0-9]+)\) += 4096/\1/' | sort -u | wc -l)
  # with replacement about 256 (1 - 1/e) = 162 distinct blocks; far from 256
  if [ "$distinct" -ge 120 ] && [ "$distinct" -le 200 ]; then
    pass "norandommap: $distinct of 256 blocks read (draws with replacement)"
  else
    fail "norandommap: $distinct distinct blocks of 256"
  fi
else
  echo "note: strace not installed; the strace checks are skipped"
fi

# 2. bssplit on a 16 MiB region: mean read size. fio 3.33 with this job file,
#    psync, seeds 0 (default), 1, 2, 3, 4: 19152, 20586, 20510, 22134, 21318 B
#    (mean 20740); with norandommap=1, seeds 1-4: 35731, 34626, 34880, 35866 B
#    (mean 35276). A larger block over used space is cut short in fio's map.
cat >bss.fio <<JOB
[m]
filename=$WORK/bss
rw=randread
bssplit=4k/50:64k/50
size=16m
ioengine=psync
JOB
mean_of() { # job-file extra-option -> mean read size over seeds 1-4
  local total=0 s
  for s in 1 2 3 4; do
    "$IOMARK" run "$1" --randseed=$s --quiet --output-format=json --output=r.json 2>/dev/null
    total=$("$PY" -c "import json;j=json.load(open('r.json'))['jobs'][0]['read'];print($total+j['io_bytes']/j['total_ios'])")
  done
  "$PY" -c "print(round($total/4))"
}
m=$(mean_of bss.fio)
if [ "$m" -ge 18250 ] && [ "$m" -le 23230 ]; then pass "random map: mean read size $m B (fio 20740 B +-12%)"
else fail "random map: mean read size $m B, fio 20740 B"; fi
printf 'norandommap\n' >>bss.fio
m=$(mean_of bss.fio)
if [ "$m" -ge 31040 ] && [ "$m" -le 39510 ]; then pass "norandommap: mean read size $m B (fio 35276 B +-12%)"
else fail "norandommap: mean read size $m B, fio 35276 B"; fi

# 4. sequential clones on one file: fio's numjobs=4 clones each read the whole
#    region from offset 0 (read by hand from fio's HOWTO, numjobs and
#    offset_increment): 4 threads x 256 reads of offsets 0..1020k, each once
cat >clones.fio <<JOB
[c]
filename=$WORK/cl
rw=read
bs=4k
size=1m
numjobs=4
ioengine=psync
JOB
head -c 1048576 /dev/urandom >cl
if command -v strace >/dev/null; then
  mkdir -p tr
  ASAN_OPTIONS=detect_leaks=0 strace -ff -qq -e trace=pread64,fadvise64 -o tr/t "$IOMARK" run clones.fio --quiet --output=c.json \
    --output-format=json >/dev/null 2>err.txt || fail "clones.fio: $(head -c 300 err.txt)"
  whole=0
  for f in tr/t.*; do
    n=$(grep -cE ', 4096, [0-9]+\) = 4096' "$f" || true)
    [ "$n" = 256 ] || continue
    d=$(grep -E ', 4096, [0-9]+\) = 4096' "$f" | sed -E 's/.*, ([0-9]+)\) = 4096/\1/' | sort -un | sed -n '1p;$p' | tr '\n' ' ')
    u=$(grep -E ', 4096, [0-9]+\) = 4096' "$f" | sed -E 's/.*, ([0-9]+)\) = 4096/\1/' | sort -u | wc -l)
    [ "$d" = "0 1044480 " ] && [ "$u" = 256 ] && whole=$((whole + 1))
  done
  if [ "$whole" = 4 ]; then pass "4 sequential clones each read 0..1044480 once (strace)"
  else fail "sequential clones: $whole of 4 threads read the whole region"; fi
  # 5. invalidate=1 (fio's default): POSIX_FADV_DONTNEED on the existing file
  #    before the run; invalidate=0: none (the file exists, so nothing is filled)
  nadv=$(cat tr/t.* | grep -c 'fadvise64(.*POSIX_FADV_DONTNEED' || true)
  printf 'invalidate=0\n' >>clones.fio
  rm -rf tr; mkdir tr
  ASAN_OPTIONS=detect_leaks=0 strace -ff -qq -e trace=fadvise64 -o tr/t "$IOMARK" run clones.fio --quiet --output=c0.json \
    --output-format=json >/dev/null 2>&1
  nadv0=$(cat tr/t.* | grep -c 'fadvise64(.*POSIX_FADV_DONTNEED' || true)
  if [ "$nadv" = 1 ] && [ "$nadv0" = 0 ]; then pass "invalidate: 1 DONTNEED by default, 0 with invalidate=0"
  else fail "invalidate: $nadv DONTNEED by default, $nadv0 with invalidate=0"; fi
fi
"$PY" -c "import json;d=json.load(open('c.json'));n=d['iomark']['notes'];assert any('invalidate=1' in x for x in n),n" \
  && pass "the JSON notes say invalidate=1" || fail "no invalidate note in the JSON"

# 6. ioengine=null creates no file and needs no space for filesize=1T; the JSON's
#    job options are those that took effect (command-line overrides applied)
cat >null.fio <<JOB
[n]
filename=$WORK/nullfile
ioengine=null
filesize=1T
size=1T
runtime=900
time_based
JOB
if "$IOMARK" run null.fio --runtime=1 --quiet --output-format=json --output=n.json 2>err.txt && [ ! -e nullfile ]; then
  pass "ioengine=null: ran, no file"
else fail "ioengine=null: $(head -c 300 err.txt); file: $(ls -la nullfile 2>&1)"; fi
"$PY" -c "import json;d=json.load(open('n.json'));o=d['jobs'][0]['job options'];assert o['runtime']=='1',o" \
  && pass "job options: runtime=1 from the command line" || fail "job options do not show --runtime=1"


# 6. a job file without direct=1 runs buffered (fio's default direct=0): the fio-style
#    report on stdout, stderr (once) and the JSON notes say so; a direct=1 job has no page-cache notes
cat >buf.fio <<JOB
[b]
filename=$WORK/bufdata
rw=read
bs=4k
size=64k
ioengine=psync
JOB
"$IOMARK" run buf.fio >b.txt 2>b.err || fail "buf.fio: $(head -c 300 b.err)"
grep -q '^iomark: \[b\] buffered I/O through the page cache' b.txt && grep -q 'invalidate=1' b.txt \
  && [ "$(grep -c 'buffered I/O' b.err)" = 1 ] \
  && pass "buffered job: stdout report names buffered I/O and invalidate=1; stderr once (docs/fio-jobs.md)" \
  || fail "buffered job: stdout $(head -c 300 b.txt) stderr $(head -c 300 b.err)"
"$IOMARK" run buf.fio --output-format=json --output=b.json 2>/dev/null
"$PY" -c "import json;n=json.load(open('b.json'))['iomark']['notes'];assert any('buffered I/O' in x for x in n),n" \
  && pass "buffered job: JSON notes name buffered I/O" || fail "buffered job: no buffered note in the JSON"
cat >dir.fio <<JOB
[d]
filename=$WORK/dirnull
ioengine=null
direct=1
size=64k
bs=4k
rw=read
JOB
"$IOMARK" run dir.fio >d.txt 2>d.err || fail "dir.fio: $(head -c 300 d.err)"
! grep -q 'invalidate\|buffered' d.txt d.err && grep -q 'IOPS=' d.txt \
  && pass "direct=1 job: no invalidate or buffered note" || fail "direct=1 job: $(head -c 400 d.txt) $(head -c 200 d.err)"

# 3. --parse-only says what runs and creates nothing
"$IOMARK" run bss.fio --parse-only >p.txt
grep -q 'random_map=0' p.txt && grep -q 'bssplit=4096/50:65536/50' p.txt && pass "parse-only" || fail "parse-only: $(cat p.txt)"
finish
