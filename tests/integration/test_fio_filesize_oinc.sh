#!/bin/bash
# test_fio_filesize_oinc.sh - fio's filesize= with offset_increment clones: the
# file is filesize bytes and clone k's region runs from k x offset_increment to
# the file's end (fio filesetup.c setup_files). Expected values from fio 3.33's
# runs of the same jobs (file size, written extents, bytes per clone).
. "$(dirname "$0")/lib.sh"
cd "$WORK"
cat >nz.py <<'PY'
import sys
d = open(sys.argv[1], 'rb').read(); B = 1 << 20
runs, cur = [], None
for i in range(0, len(d), B):
    nz = any(d[i:i + B])
    if nz and cur is None: cur = i // B
    if not nz and cur is not None: runs.append((cur, i // B)); cur = None
if cur is not None: runs.append((cur, len(d) // B))
print(len(d), runs)
PY
# the trial's job: fio 3.33 created a 33,554,432-byte file (not 48 MiB) and, on a
# zeroed 32 MiB file, wrote MiB [0,4) [8,12) [16,20)
cat >oi.fio <<'JOB'
[global]
filename=shared.dat
filesize=32m
rw=write
bs=64k
[clones]
size=4m
numjobs=3
offset_increment=8m
JOB
if "$IOMARK" run oi.fio --quiet --output-format=json --output=oi.json 2>err.txt; then
  s=$(stat -c %s shared.dat)
  [ "$s" = 33554432 ] && pass "filesize=32m with offset_increment: a 32 MiB file (fio 3.33)" || fail "file size $s"
else
  fail "oi.fio: $(head -c 300 err.txt)"
fi
grep -q "each cover the whole region" oi.json && fail "note says clones cover the whole region" || pass "no whole-region note with offset_increment"
rm -f shared.dat; truncate -s 32m shared.dat
"$IOMARK" run oi.fio --quiet --output-format=json --output=oi.json 2>err.txt
r=$($PY nz.py shared.dat)
[ "$r" = "33554432 [(0, 4), (8, 12), (16, 20)]" ] && pass "clones wrote MiB 0-4, 8-12, 16-20 as fio 3.33" || fail "extents: $r"
# without size=: fio 3.33 wrote the whole file; clones 32, 24 and 16 MiB
sed -i '/^size=4m/d' oi.fio
rm -f shared.dat; truncate -s 32m shared.dat
if "$IOMARK" run oi.fio --quiet --output-format=json --output=oi2.json 2>err.txt; then
  $PY - oi2.json <<'PY' && pass "without size=: each clone to the file's end (32, 24, 16 MiB as fio 3.33)" || fail "per-clone bytes"
import json, sys
b = sorted(x["write"]["io_bytes"] for x in json.load(open(sys.argv[1]))["jobs"])
assert b == [16777216, 25165824, 33554432], b
PY
  r=$($PY nz.py shared.dat)
  [ "$r" = "33554432 [(0, 32)]" ] && pass "file stays 32 MiB" || fail "extents: $r"
else
  fail "oi.fio without size: $(head -c 300 err.txt)"
fi
finish
