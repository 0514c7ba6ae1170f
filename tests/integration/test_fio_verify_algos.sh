#!/bin/bash
# test_fio_verify_algos.sh - fio 3.33's verify= algorithms, byte for byte
# (core/fioverify.h; fio verify.c/verify.h, crc/):
#   - for each of md5 sha1 sha256 sha512 sha3-224/256/384/512 crc64 crc32
#     crc32c crc32c-intel crc16 crc7 xxhash: iomark's write job (4 x 4 KiB);
#     python recomputes each block's header crc and, where another tool has
#     the digest, the digest of the data after the header (hashlib md5, sha1
#     with fio's little-endian words, sha3-*; crc32c, crc16 (CRC-16/ARC), crc7
#     (CRC-7/MMC), crc64 (CRC-64/REDIS) bit by bit from the CRC catalogue's
#     parameters; XXH32 seed 1 from libxxhash through ctypes when installed);
#     fio 3.33 reads iomark's file with the same verify= (exit 0, 4 reads);
#     iomark reads fio 3.33's file (exit 0); one byte of fio's block 2 data
#     changed: iomark fails at byte 8192 (exit 1), fio reports offset 8192;
#   - variable block sizes (bssplit 4k/16k writes: each 4 KiB carries its own
#     header, fio's verify_interval = the smallest write): python reads every
#     4 KiB header; fio reads iomark's file with bs=4k, iomark reads fio's;
#     enospc-pressure.fio's aio-dio-verifier (randrw crc32c-intel, scaled) runs;
#   - cross-stripe-verify.fio scaled down (rw=write:112k, offset=120k,
#     offset_increment, 3 clones): iomark puts its headers at the offsets fio
#     3.33 does, and each tool verifies the other's file;
#   - verify_pattern after fio's header (surface-scan.fio: verify=meta
#     verify_pattern=0xaa555aa5 verify_interval=512; and md5 + pattern): both
#     ways, and a changed pattern byte found at the same interval by both.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "skip: no fio"; exit 77; }
cd "$WORK"
cat >algo.py <<'PY'
import ctypes, ctypes.util, hashlib, struct, sys
def crc_bits(data, width, poly, refl, init=0):
    mask = (1 << width) - 1
    c = init
    for x in data:
        if refl:
            c ^= x
            for _ in range(8):
                c = (c >> 1) ^ poly if c & 1 else c >> 1
        else:
            for i in range(7, -1, -1):
                top = ((c >> (width - 1)) & 1) ^ ((x >> i) & 1)
                c = (c << 1) & mask
                if top:
                    c ^= poly
    return c & mask
def rev(v, w):
    return int(bin(v)[2:].zfill(w)[::-1], 2)
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
xx = None
for n in ("libxxhash.so.0", ctypes.util.find_library("xxhash")):
    try:
        xx = ctypes.CDLL(n); xx.XXH32.restype = ctypes.c_uint32; break
    except Exception:
        pass
SIZE = {"md5": 16, "sha1": 20, "sha256": 64, "sha512": 128, "sha3-224": 28, "sha3-256": 32,
        "sha3-384": 48, "sha3-512": 64, "crc64": 8, "crc32": 4, "crc32c": 4, "crc32c-intel": 4,
        "crc16": 2, "crc7": 1, "xxhash": 4}
def digest(alg, d):
    if alg in ("md5",) or alg.startswith("sha3"):
        return hashlib.new(alg.replace("-", "_"), d).digest()
    if alg == "sha1":
        h = hashlib.sha1(d).digest()
        return b"".join(h[i:i + 4][::-1] for i in range(0, 20, 4))
    if alg == "sha512":  # fio fill_sha512: no final step, the field is its block buffer
        r = len(d) % 128
        return d[len(d) - r:] + d[r:128]
    if alg in ("crc32c", "crc32c-intel"):
        return struct.pack("<I", fio_crc32c(d))
    if alg == "crc16":
        return struct.pack("<H", crc_bits(d, 16, rev(0x8005, 16), True))
    if alg == "crc7":
        return bytes([crc_bits(d, 7, 0x09, False)])
    if alg == "crc64":
        return struct.pack("<Q", crc_bits(d, 64, rev(0xAD93D23594C935A9, 64), True))
    if alg == "crc32":
        return struct.pack("<I", crc_bits(d, 32, 0x04C11DB7, False))
    if alg == "xxhash" and xx:
        return struct.pack("<I", xx.XXH32(d, len(d), 1))
    return None
if sys.argv[1] == "hs":
    sys.exit(print(40 + SIZE[sys.argv[2]]))
alg, path, bs = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = open(path, "rb").read()
hs = 40 + SIZE.get(alg, 0)
bad, checked = [], 0
for k in range(len(b) // bs):
    blk = b[k * bs:(k + 1) * bs]
    magic, typ, ln, seed, off, ts, tn, thr, nio, crc = struct.unpack("<HHIQQIIHHI", blk[:40])
    if (magic, ln, off) != (0xACCA, bs, k * bs) or crc != fio_crc32c(blk[:36]):
        bad.append(k); continue
    want = digest(alg, blk[hs:])
    if want is not None:
        checked += 1
        if blk[40:hs] != want:
            bad.append(k)
print("blocks", len(b) // bs, "digests", "yes" if checked else "no", "bad", bad)
PY

for a in md5 sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 sha3-512 crc64 crc32 crc32c crc32c-intel crc16 crc7 xxhash; do
  job() { printf '[%s]\nioengine=psync\nrw=%s\nbs=4k\nsize=16k\nfilename=%s\nverify=%s\n%b' "$1" "$2" "$3" "$a" "${4:-}"; }
  job w write "$WORK/i-$a.bin" 'do_verify=0\n' >iw.fio
  job r read "$WORK/i-$a.bin" >ir.fio
  job w write "$WORK/f-$a.bin" 'do_verify=0\n' >fw.fio
  job r read "$WORK/f-$a.bin" >fr.fio
  "$IOMARK" run iw.fio >/dev/null 2>iw.err || { fail "$a: iomark write: $(tail -1 iw.err)"; continue; }
  got=$("$PY" algo.py "$a" "i-$a.bin" 4096)
  case "$a" in sha256) want="blocks 4 digests no bad []" ;; xxhash)
    want="blocks 4 digests yes bad []"; "$PY" -c "import ctypes; ctypes.CDLL('libxxhash.so.0')" 2>/dev/null \
      || want="blocks 4 digests no bad []" ;; *) want="blocks 4 digests yes bad []" ;; esac
  [ "$got" = "$want" ] && pass "$a: iomark's 4 blocks: headers and digests as python computes them ($got)" \
    || fail "$a: python on iomark's file: $got"
  rc=0; fio ir.fio --output-format=json --output=f.json >/dev/null 2>f.err || rc=$?
  e=$("$PY" -c "import json; j=json.load(open('f.json'))['jobs'][0]; print(j['error'], j['read']['total_ios'])" 2>/dev/null)
  [ "$rc" = 0 ] && [ "$e" = "0 4" ] && pass "$a: fio 3.33 verifies iomark's file" || fail "$a: fio on iomark's file: exit $rc, $e"
  fio fw.fio >/dev/null 2>&1 || fail "$a: fio write"
  expect_status 0 "$a: iomark verifies fio 3.33's file" -- "$IOMARK" run fr.fio
  hs=$("$PY" algo.py hs "$a")
  printf '\xff' | dd of="f-$a.bin" bs=1 seek=$((8192 + hs + 100)) conv=notrunc 2>/dev/null
  rc=0; "$IOMARK" run fr.fio >/dev/null 2>fr.err || rc=$?
  rc2=0; fio fr.fio >fio.out 2>&1 || rc2=$?
  [ "$rc" = 1 ] && grep -q "verify failed at byte 8192: checksum mismatch" fr.err && [ "$rc2" != 0 ] \
    && grep -q "offset 8192" fio.out && pass "$a: a changed data byte: iomark and fio 3.33 both fail at 8192" \
    || fail "$a: iomark exit $rc: $(tail -1 fr.err); fio exit $rc2: $(grep -m1 offset fio.out)"
done

# variable block sizes: fio's interval is the smallest write (init.c fixup_options)
vjob() { printf '[%s]\nioengine=psync\nrw=%s\nsize=256k\nfilename=%s\nverify=crc32c\n%b' "$1" "$2" "$3" "$4"; }
vjob w write "$WORK/v-i.bin" 'bssplit=4k/50:16k/50\ndo_verify=0\n' >vw.fio
vjob r read "$WORK/v-i.bin" 'bs=4k\n' >vr.fio
vjob w write "$WORK/v-f.bin" 'bssplit=4k/50:16k/50\ndo_verify=0\n' >vfw.fio
vjob r read "$WORK/v-f.bin" 'bs=4k\n' >vfr.fio
"$IOMARK" run vw.fio >/dev/null 2>vw.err || fail "bssplit write: $(tail -1 vw.err)"
got=$("$PY" algo.py crc32c v-i.bin 4096)
[ "$got" = "blocks 64 digests yes bad []" ] && pass "bssplit 4k/16k writes: 64 headers, one per 4 KiB, each with its crc" \
  || fail "bssplit file: $got"
expect_status 0 "fio 3.33 verifies iomark's bssplit file with bs=4k" -- fio vr.fio
fio vfw.fio >/dev/null 2>&1 || fail "fio bssplit write"
expect_status 0 "iomark verifies fio 3.33's bssplit file with bs=4k" -- "$IOMARK" run vfr.fio
printf '[aio-dio-verifier]\nverify=crc32c-intel\nverify_fatal=1\nverify_backlog=1024\nverify_async=4\nbs=4k\nrw=randrw\nfilename=%s\nsize=1m\nruntime=1\n' \
  "$WORK/ad.bin" >ad.fio
expect_status 0 "enospc-pressure.fio's aio-dio-verifier (randrw, crc32c-intel) runs" -- "$IOMARK" run ad.fio

# cross-stripe-verify.fio, scaled: 16 KiB written every 128 KiB from 120 KiB
cs() { printf '[global]\nbs=16k\nrw=%s\nverify=crc32c\nfilename=%s\noffset_increment=1m\nio_size=256k\noffset=120k\nsize=1m\n%b[write-verify]\nnumjobs=3\n' "$@"; }
cs write:112k "$WORK/cs-i.bin" 'do_verify=0\n' >csw.fio
cs write:112k "$WORK/cs-f.bin" 'do_verify=0\n' >csfw.fio
cs read:112k "$WORK/cs-i.bin" '' >csr.fio
cs read:112k "$WORK/cs-f.bin" '' >csfr.fio
truncate -s 4m cs-i.bin cs-f.bin
"$IOMARK" run csw.fio >/dev/null 2>csw.err || fail "cross-stripe write: $(tail -1 csw.err)"
fio csfw.fio >/dev/null 2>&1 || fail "fio cross-stripe write"
got=$("$PY" -c "
import struct
def heads(p):
    b = open(p, 'rb').read()
    return [(k, struct.unpack('<I', b[k + 4:k + 8])[0], struct.unpack('<Q', b[k + 16:k + 24])[0])
            for k in range(0, len(b), 1024) if b[k:k + 2] == b'\xca\xac']
a, f = heads('cs-i.bin'), heads('cs-f.bin')
print(len(a), a == f, a[0], a[-1])")
[ "$got" = "24 True (122880, 16384, 122880) (3137536, 16384, 3137536)" ] \
  && pass "cross-stripe: 24 headers at fio 3.33's offsets (120 KiB + k x 128 KiB + clone x 1 MiB)" || fail "cross-stripe: $got"
expect_status 0 "cross-stripe: fio 3.33 verifies iomark's file" -- fio csr.fio
expect_status 0 "cross-stripe: iomark verifies fio 3.33's file" -- "$IOMARK" run csfr.fio

# verify_pattern after the header
for v in meta md5; do
  pj() { printf '[%s]\nbs=64k\nioengine=sync\nverify=%s\nverify_pattern=0xaa555aa5\nverify_interval=512\nfilename=%s\nsize=256k\nrw=%s\n%b' \
    "$1" "$v" "$2" "$3" "${4:-}"; }
  pj w "$WORK/p-i.bin" write 'do_verify=0\n' >pw.fio; pj r "$WORK/p-i.bin" read >pr.fio
  pj w "$WORK/p-f.bin" write 'do_verify=0\n' >pfw.fio; pj r "$WORK/p-f.bin" read >pfr.fio
  "$IOMARK" run pw.fio >/dev/null 2>pw.err || fail "$v+pattern write: $(tail -1 pw.err)"
  got=$("$PY" -c "
import struct
b = open('p-i.bin', 'rb').read(); hs = 40 + (16 if '$v' == 'md5' else 0); pat = bytes.fromhex('aa555aa5') * 128
bad = [k for k in range(len(b) // 512) if b[k * 512:k * 512 + 2] != b'\xca\xac'
       or struct.unpack('<Q', b[k * 512 + 16:k * 512 + 24])[0] != k * 512 or b[k * 512 + hs:k * 512 + 512] != pat[hs:]]
print(len(b) // 512, bad)")
  [ "$got" = "512 []" ] && pass "$v+pattern: 512 intervals, each fio's header then the pattern" || fail "$v+pattern file: $got"
  expect_status 0 "$v+pattern: fio 3.33 verifies iomark's file" -- fio pr.fio
  fio pfw.fio >/dev/null 2>&1 || fail "fio $v+pattern write"
  expect_status 0 "$v+pattern: iomark verifies fio 3.33's file" -- "$IOMARK" run pfr.fio
  printf '\x00' | dd of=p-f.bin bs=1 seek=$((65536 + 3 * 512 + 100)) conv=notrunc 2>/dev/null
  rc=0; "$IOMARK" run pfr.fio >/dev/null 2>pfr.err || rc=$?
  fio pfr.fio >fio.out 2>&1
  [ "$rc" = 1 ] && grep -q "verify failed at byte 67072" pfr.err && grep -q "offset 67072" fio.out \
    && pass "$v+pattern: a changed byte: iomark and fio 3.33 both at the interval 67072" \
    || fail "$v+pattern: iomark exit $rc: $(tail -1 pfr.err); fio: $(grep -m1 'offset 6' fio.out)"
done
finish
