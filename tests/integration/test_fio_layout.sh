#!/bin/bash
# test_fio_layout.sh - how a job file's new file is laid out, syscall by
# syscall, as fio 3.33 (filesetup.c extend_file): the fallocate mode (default
# native: fallocate(fd, 0, 0, size)), and only for a job that reads or has
# overwrite=1: ftruncate to the size, write(2)s of the largest write block size,
# fsync. A write-only job's file is only allocated, then gets just the job's
# own pwrite64s. fio 3.33 and iomark run each job under strace; the calls on the
# data file (name, arguments; writes and pwrite64s by count and length) must
# be the same lists.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
cd "$WORK"
mkdir d
cat >sum.py <<'PYEOF'
import re, sys, collections
c = collections.Counter()
for line in sys.stdin:
    m = re.search(r'\b(pwrite64|write)\(\d+<[^>]*>, "(?:[^"\\]|\\.)*"(?:\.\.\.)?, (\d+)', line)
    if m:
        c["%s len %s" % m.groups()] += 1
        continue
    m = re.search(r'\b(fallocate|ftruncate|fsync|fdatasync)\(\d+<[^>]*>(.*?)\)\s+=', line)
    if m:
        c[m.group(1) + m.group(2)] += 1
for k in sorted(c):
    print(c[k], k)
PYEOF
summary() { # TRACE-PREFIX -> sorted "count call args" of the calls on d/*
  cat "$1".* | grep -F "<$WORK/d/" | $PY sum.py
}
one() { # NAME JOBTEXT (printf %b)
  printf "%b\n" "$2" >"$1.fio"
  local t
  for t in fio iom; do
    rm -f d/* "$t".tr.*
    if [ $t = fio ]; then set -- "$1" "$2" fio "$1.fio"; else set -- "$1" "$2" "$IOMARK" run "$1.fio" --quiet; fi
    ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -o "$t.tr" \
      -e trace=fallocate,ftruncate,write,pwrite64,fsync,fdatasync "${@:3}" --output=/dev/null \
      >/dev/null 2>"$t.err" || { fail "$1: $t failed: $(head -c 300 "$t.err")"; return; }
    summary "$t.tr" >"$1.$t.sum"
  done
  if [ -s "$1.fio.sum" ] && cmp -s "$1.fio.sum" "$1.iom.sum"; then
    pass "$1: as fio 3.33: $(tr '\n' ';' <"$1.fio.sum")"
  else
    fail "$1: fio: $(tr '\n' ';' <"$1.fio.sum") iomark: $(tr '\n' ';' <"$1.iom.sum")"
  fi
}
F="filename=$WORK/d/l.dat\nsize=1m"
# the trial's oi.fio: one shared 32 MiB file, three clones write 4 MiB each
one clones "[global]\nfilename=$WORK/d/shared.dat\nfilesize=32m\nrw=write\nbs=64k\n[clones]\nsize=4m\nnumjobs=3\noffset_increment=8m"
one write "[j]\n$F\nbs=16k\nrw=write"
one read "[j]\n$F\nbs=4k\nrw=read"
one read_wbs "[j]\n$F\nbs=4k,64k\nrw=randread"
one overwrite "[j]\n$F\nbs=16k\nrw=write\noverwrite=1"
one none "[j]\n$F\nbs=16k\nrw=randwrite\nfallocate=none"
one none_read "[j]\n$F\nbs=8k\nrw=read\nfallocate=none"
one keep_read "[j]\n$F\nbs=4k\nrw=read\nfallocate=keep"
one truncate_rw "[j]\n$F\nbs=16k\nrw=write\nfallocate=truncate"
one posix "[j]\n$F\nbs=16k\nrw=write\nfallocate=posix"
finish
