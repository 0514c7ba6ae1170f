#!/bin/bash
# test_fio_buffers.sh - fio's buffer contents in job files (core/bufgen.h,
# workload/pattern.h), measured on the written files:
#   buffer_compress_percentage=60 (chunk 512): gzip's size of the file is the
#     random 40 % plus little (bounds 0.40-0.44 of the file);
#   dedupe_percentage=50: the share of 4 KiB blocks that repeat another
#     (counted with python) is 50 % within 5 points (6 standard deviations of
#     the binomial over 4096 blocks);
#   dedupe 30 + compress 50: 30 % repeated blocks within 5 points, and in
#     every 512-byte chunk (fio's default buffer_compress_chunk) the first 256
#     bytes random, the last 256 zeros (fio: random first, then zeros);
#   dedupe_mode=working_set (dedupe 50 %, working set 10 % of 16 MiB = 409
#     writes of 4 KiB, fio's HOWTO and dedupe.c): 50 % repeated blocks within
#     5 points, at most 409 distinct contents repeated, each first written
#     within the first 1000 blocks (409 unique writes take 818 writes on
#     average at 50 %, 6 standard deviations below 1000);
#   buffer_compress_percentage=100: all zeros;
#   buffer_pattern: "abc", and 0xdeadbeef"xy"-12 = de ad be ef 78 79 f4 ff ff ff
#     (fio lib/pattern.c: hex as written, text, a decimal in its fewest bytes
#     least significant first), repeated over each block;
# and, where fio 3.33 is installed, its files of the same job: the pattern files
# byte for byte, the others within the same bounds.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
job() { # DIR: the job file writing its files into DIR
  cat <<JOB
[global]
ioengine=psync
rw=write
bs=4k
size=16m
[c]
filename=$1/c.bin
buffer_compress_percentage=60
buffer_compress_chunk=512
[d]
filename=$1/d.bin
dedupe_percentage=50
[dc]
filename=$1/dc.bin
dedupe_percentage=30
buffer_compress_percentage=50
[ws]
filename=$1/ws.bin
dedupe_percentage=50
dedupe_mode=working_set
dedupe_working_set_percentage=10
[z]
filename=$1/z.bin
size=1m
buffer_compress_percentage=100
[p]
filename=$1/p.bin
size=1m
buffer_pattern="abc"
[h]
filename=$1/h.bin
size=1m
buffer_pattern=0xdeadbeef"xy"-12
JOB
}
cat >measure.py <<'PY'
import collections, gzip, sys
d = sys.argv[1]
def blocks(name):
    b = open(f"{d}/{name}", "rb").read()
    return b, [b[i:i + 4096] for i in range(0, len(b), 4096)]
def dup(bl):
    return 1 - len(collections.Counter(bl)) / len(bl)
out = []
b, bl = blocks("c.bin")
r = len(gzip.compress(b, 6)) / len(b)
out.append(f"c:{'ok' if 0.40 <= r <= 0.44 else 'bad'}:gzip={r:.4f}")
b, bl = blocks("d.bin")
f = dup(bl)
out.append(f"d:{'ok' if 0.45 <= f <= 0.55 and len(b) == 16 << 20 else 'bad'}:dup={f:.4f}")
b, bl = blocks("dc.bin")
f = dup(bl)
halves = all(b[i + 256:i + 512] == bytes(256) and b[i:i + 256] != bytes(256)
             for i in range(0, len(b), 512))
out.append(f"dc:{'ok' if 0.25 <= f <= 0.35 and halves else 'bad'}:dup={f:.4f},halves={halves}")
b, bl = blocks("ws.bin")
f = dup(bl)
first = {}
for i, x in enumerate(bl):
    first.setdefault(x, i)
cnt = collections.Counter(bl)
rep = [x for x, n in cnt.items() if n > 1]
late = max((first[x] for x in rep), default=0)
ok = 0.45 <= f <= 0.55 and len(rep) <= 409 and late < 1000
out.append(f"ws:{'ok' if ok else 'bad'}:dup={f:.4f},repeated={len(rep)},last_first={late}")
b, bl = blocks("z.bin")
out.append(f"z:{'ok' if b == bytes(1 << 20) else 'bad'}")
b, bl = blocks("p.bin")
out.append(f"p:{'ok' if b == (b'abc' * 1366)[:4096] * 256 else 'bad'}")
pat = bytes.fromhex("deadbeef7879f4ffffff")
b, bl = blocks("h.bin")
out.append(f"h:{'ok' if b == (pat * 410)[:4096] * 256 else 'bad'}:{b[:10].hex()}")
print(" ".join(out))
PY
mkdir -p i f
job "$WORK/i" >i.fio
"$IOMARK" run i.fio --output-format=json --output=i.json 2>i.err || fail "iomark: $(cat i.err)"
got=$("$PY" measure.py i)
for x in $got; do case "$x" in *:ok*) pass "iomark $x" ;; *) fail "iomark $x" ;; esac; done
if [ "$HAVE_FIO" = 1 ]; then
  job "$WORK/f" >f.fio
  fio f.fio --output-format=json --output=f.json >/dev/null 2>&1 || fail "fio f.fio"
  fgot=$("$PY" measure.py f)
  for x in $fgot; do case "$x" in *:ok*) pass "fio 3.33 $x (the same bounds)" ;; *) fail "fio 3.33 $x" ;; esac; done
  cmp -s i/p.bin f/p.bin && cmp -s i/h.bin f/h.bin && cmp -s i/z.bin f/z.bin \
    && pass "pattern and zero files byte for byte as fio 3.33's" || fail "pattern files differ from fio's"
fi
printf '[x]\nioengine=null\nsize=1m\nbuffer_pattern="abc\n' >bad.fio
expect_status 2 "an unterminated string refused" -- "$IOMARK" run bad.fio --output-format=json --output=bad.json
expect_err_has "buffer_pattern"
printf '[x]\nioengine=null\nsize=1m\nbuffer_pattern=99999999999\n' >bad2.fio
expect_status 2 "a decimal above INT_MAX refused (fio: INT_MIN..INT_MAX)" -- "$IOMARK" run bad2.fio
[ ! -e bad.json ] && pass "nothing written for the refused file" || fail "bad.json written"
printf '[x]\nioengine=null\nsize=1m\ndedupe_percentage=60\ndedupe_mode=working_set\ndedupe_working_set_percentage=50\n' >ws.fio
expect_status 2 "working set + dedupe above 100 % refused (fio init.c)" -- "$IOMARK" run ws.fio
finish
