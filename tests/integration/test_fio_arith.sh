#!/bin/bash
# test_fio_arith.sh - computed values in a job file, against the installed fio:
# a built-in variable with + - * / (fio 3.33 options.c bc_calc: through bc) gives
# the same block size in fio's run and in iomark's; a value in parentheses is
# fio's arithmetic only in a fio built with lex/yacc (parse.c CONFIG_ARITHMETIC):
# Debian's fio 3.33-3 refuses it ("failed parsing"), a build with it reads
# (2*1024*1024) as 2097152 (by hand), which iomark does; units inside the
# parentheses are refused by iomark by name (docs/fio-jobs.md).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"

# bs=2*$pagesize: fio's reads (its write_iolog) and iomark's parsed bs are one size
pg=$(getconf PAGESIZE)
printf '[k]\nioengine=psync\nfilename=%s/k.dat\nsize=64k\nbs=2*$pagesize\nrw=read\n' "$WORK" >k.fio
if command -v bc >/dev/null; then
  fio k.fio --write_iolog=k.iolog --output=/dev/null >/dev/null 2>&1 || fail "fio failed on bs=2*\$pagesize"
  fbs=$(awk '$3 == "read" {print $5; exit}' k.iolog)
  ibs=$("$IOMARK" run --parse-only k.fio 2>/dev/null | grep -o ' bs=[0-9]*' | sed -n 1p | cut -d= -f2)
  [ "$fbs" = $((2 * pg)) ] && [ "$ibs" = "$fbs" ] \
    && pass "bs=2*\$pagesize: fio reads $fbs bytes, iomark bs=$ibs (2 x $pg by hand)" \
    || fail "bs=2*\$pagesize: fio $fbs, iomark $ibs, by hand $((2 * pg))"
else
  echo "note: no bc here: fio 3.33 cannot compute bs=2*\$pagesize without it"
fi

# size=(2*1024*1024): refused by a fio without lex/yacc, 2 MiB in one with it; iomark 2 MiB
printf '[a]\nioengine=psync\nfilename=%s/a.dat\nsize=(2*1024*1024)\nbs=4k\nrw=read\n' "$WORK" >a.fio
rc=0; fio a.fio --output-format=json --output=a.fio.json >a.out 2>&1 || rc=$?
if [ $rc != 0 ] && grep -q 'failed parsing size=(2\*1024\*1024)' a.out; then
  pass "this fio ($(fio --version)) is built without arithmetic: 'failed parsing size=(2*1024*1024)', exit $rc"
elif [ $rc = 0 ]; then
  fb=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["io_bytes"])' a.fio.json)
  [ "$fb" = 2097152 ] && pass "this fio evaluates (2*1024*1024): read $fb bytes" || fail "fio read $fb bytes"
else
  fail "fio: exit $rc: $(head -c 300 a.out)"
fi
rm -f a.dat
"$IOMARK" run a.fio --quiet --output-format=json --output=a.iom.json >/dev/null 2>a.err || fail "iomark: $(cat a.err)"
ib=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["io_bytes"])' a.iom.json 2>/dev/null || echo none)
[ "$ib" = 2097152 ] && pass "iomark reads (2*1024*1024) = 2097152 bytes (by hand)" || fail "iomark read $ib bytes"

# units inside parentheses: refused with one line naming the option
expect_job_refused "bs=(4k*2) refused" "[u]\nfilename=$WORK/u.dat\nsize=64k\nbs=(4k*2)\nrw=read" \
  "line 4: bs=(4k*2): iomark's arithmetic takes whole numbers"
[ ! -e u.dat ] && pass "nothing made" || fail "u.dat made"
finish
