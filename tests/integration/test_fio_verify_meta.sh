#!/bin/bash
# test_fio_verify_meta.sh - fio's verify=meta blocks (core/verify.h
# iom_verify_meta_*; fio 3.33 verify.h struct verify_header, verify.c):
#   - iomark's write job lays fio's 40-byte header on each 4 KiB block: python
#     reads every header (magic 0xacca, type 1 = VERIFY_HDR_ONLY, len 4096,
#     the block's offset) and recomputes its crc32 with its own CRC-32C table
#     (fio's crc32c_sw: initial ~0, no final inversion);
#   - an iomark read job passes over the file, and fio 3.33's read job with
#     verify=meta passes over it too (fio reads iomark's headers);
#   - fio 3.33's own verify=meta file: iomark's read job passes; one byte
#     changed in block 3's header (its offset field): iomark fails at 12288
#     (exit 1), as fio 3.33 does ("bad header offset ... at file ... offset
#     12288"), and verify_dump writes the block as <file>.12288.hdr_fail.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
mk() { # NAME RW FILE EXTRA
  printf '[%s]\nioengine=psync\nrw=%s\nbs=4k\nsize=64k\nfilename=%s\nverify=meta\n%b' "$1" "$2" "$3" "${4:-}"
}
mk w write "$WORK/m.bin" 'do_verify=0\n' >w.fio
mk r read "$WORK/m.bin" 'verify_dump=1\n' >r.fio
"$IOMARK" run w.fio >/dev/null 2>w.err || fail "write: $(cat w.err)"
cat >hdr.py <<'PY'
import struct, sys
T = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    T.append(c)
def fio_crc32c(b):
    c = 0xFFFFFFFF
    for x in b:
        c = T[(c ^ x) & 0xFF] ^ (c >> 8)
    return c
b = open(sys.argv[1], "rb").read()
bad = []
for k in range(len(b) // 4096):
    h = b[k * 4096:k * 4096 + 40]
    magic, typ, ln, seed, off, ts, tn, thr, nio, crc = struct.unpack("<HHIQQIIHHI", h)
    if (magic, typ, ln, off) != (0xACCA, 1, 4096, k * 4096) or crc != fio_crc32c(h[:36]):
        bad.append(k)
print("blocks", len(b) // 4096, "bad", bad)
PY
got=$("$PY" hdr.py m.bin)
[ "$got" = "blocks 16 bad []" ] && pass "16 fio headers, each with its offset and a header crc python recomputes" \
  || fail "headers: $got"
expect_status 0 "iomark reads its verify=meta file back" -- "$IOMARK" run r.fio
if [ "$HAVE_FIO" = 1 ]; then
  rc=0; fio r.fio --output-format=json --output=f.json >/dev/null 2>f.err || rc=$?
  e=$("$PY" -c "import json; d=json.load(open('f.json')); j=d['jobs'][0]; print(j['error'], j['read']['total_ios'])")
  [ "$rc" = 0 ] && [ "$e" = "0 16" ] && pass "fio 3.33 verifies iomark's verify=meta file (error 0, 16 reads)" \
    || fail "fio on iomark's file: exit $rc, $e, $(head -c 300 f.err)"
  mk w write "$WORK/f.bin" 'do_verify=0\n' >fw.fio
  mk r read "$WORK/f.bin" 'verify_dump=1\n' >fr.fio
  fio fw.fio >/dev/null 2>&1 || fail "fio fw.fio"
  expect_status 0 "iomark reads fio 3.33's verify=meta file" -- "$IOMARK" run fr.fio
  printf '\x00' | dd of=f.bin bs=1 seek=$((3 * 4096 + 17)) conv=notrunc 2>/dev/null
  rc=0; "$IOMARK" run fr.fio 2>fr.err >/dev/null || rc=$?
  [ "$rc" = 1 ] && grep -q "verify failed at byte 12288: bad fio verify header" fr.err && [ -s f.bin.12288.hdr_fail ] \
    && pass "a changed header byte of fio's file: found at 12288, dumped (exit 1)" || fail "exit $rc: $(cat fr.err)"
  rc=0; fio fr.fio >fio.out 2>&1 || rc=$?
  grep -q "offset 12288" fio.out && pass "fio 3.33 reports the same block (offset 12288)" || fail "fio: $(head -c 300 fio.out)"
fi
# flip every bit of a crc byte (a fixed 0x00 changes nothing when the byte already
# is 0: the header carries a time, so about 1 run in 256; most likely the one failure seen)
$PY -c "import sys; f = open('m.bin', 'r+b'); f.seek(5 * 4096 + 37); b = f.read(1)[0]; f.seek(5 * 4096 + 37); f.write(bytes([b ^ 0xff]))"
rc=0; "$IOMARK" run r.fio 2>r.err >/dev/null || rc=$?
[ "$rc" = 1 ] && grep -q "verify failed at byte 20480" r.err && pass "a changed crc byte of iomark's file: found at 20480" \
  || fail "exit $rc: $(cat r.err)"
finish
