#!/bin/bash
# test_fio_verify_pattern.sh - fio's verify=pattern with verify_pattern,
# verify_interval and verify_dump (core/layers.c; fio 3.33 verify.c
# verify_io_u_pattern, dump_buf):
#   - a write job lays the pattern over every block, nothing else (python
#     checks the file; fio 3.33's file of the same job is byte for byte equal);
#   - a read job over the clean file passes;
#   - one byte changed at 8192 + 1000: the read job fails (exit 1) at the
#     512-byte interval holding it, 8704, byte 488 of it, got 0x00 where the
#     pattern has 0xaa (fio 3.33 on the same file: "got pattern '00', wanted
#     'aa'", "bad pattern block offset 488"); verify_dump writes that
#     interval as read and as expected (<file>.8704.received/.expected);
#   - verify_pattern without verify=pattern (fio then writes its own header
#     before the pattern: test_fio_verify_algos.sh) on ioengine=null runs
#     (exit 0): fio checks no fake I/O (verify.c verify_io_u, FIO_FAKEIO).
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
mk() { # NAME RW FILE [extra lines]
  printf '[%s]\nioengine=psync\nrw=%s\nbs=4k\nsize=64k\nfilename=%s\nverify=pattern\nverify_pattern=0xaa555aa5\n%b' \
    "$1" "$2" "$3" "${4:-}"
}
mk w write "$WORK/v.bin" 'do_verify=0\n' >w.fio
"$IOMARK" run w.fio >/dev/null 2>w.err || fail "write job: $(cat w.err)"
"$PY" -c "import sys; b=open('v.bin','rb').read(); sys.exit(0 if b == bytes.fromhex('aa555aa5') * 16384 else 1)" \
  && pass "the written file is the pattern, repeated" || fail "the written file is not the pattern"
if [ "$HAVE_FIO" = 1 ]; then
  mk w write "$WORK/fv.bin" 'do_verify=0\n' >fw.fio
  fio fw.fio >/dev/null 2>&1 || fail "fio fw.fio"
  cmp -s v.bin fv.bin && pass "byte for byte as fio 3.33's file of the same job" || fail "differs from fio's file"
fi
mk r read "$WORK/v.bin" 'verify_interval=512\nverify_dump=1\n' >r.fio
expect_status 0 "read job over the clean file passes" -- "$IOMARK" run r.fio --output-format=json --output=clean.json
printf '\x00' | dd of=v.bin bs=1 seek=$((8192 + 1000)) conv=notrunc 2>/dev/null
rc=0; "$IOMARK" run r.fio --output-format=json --output=bad.json 2>r.err || rc=$?
[ "$rc" = 1 ] && pass "a changed byte fails the read job (exit 1)" || fail "exit $rc: $(cat r.err)"
grep -q "verify failed at byte 8704: bad pattern .*got 0x00, wanted 0xaa, byte 488 of the interval" r.err \
  && pass "reported at the interval 8704, byte 488, got 0x00 wanted 0xaa" || fail "message: $(cat r.err)"
"$PY" -c "
import sys
rec = open('v.bin.8704.received', 'rb').read(); exp = open('v.bin.8704.expected', 'rb').read()
want = bytes.fromhex('aa555aa5') * 128
ok = len(rec) == 512 and exp == want and rec[488] == 0 and rec[:488] == want[:488] and rec[489:] == want[489:]
sys.exit(0 if ok else 1)" && pass "verify_dump: the interval as read and as expected" || fail "dump files: $(ls)"
printf '[x]\nioengine=null\nsize=1m\nverify_pattern=0xaa\n' >hdr.fio
expect_status 0 "verify_pattern alone on ioengine=null: runs, nothing checked (as fio)" -- "$IOMARK" run hdr.fio
printf '[x]\nioengine=null\nsize=1m\nverify=pattern\nverify_pattern="ab\n' >bad.fio
expect_status 2 "a bad pattern refused" -- "$IOMARK" run bad.fio
expect_err_has "verify_pattern="
finish
