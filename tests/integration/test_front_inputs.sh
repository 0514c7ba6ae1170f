#!/usr/bin/env bash
# Issue 12 items 7 and 8: DiskSpd -T past the end of the file and typographic
# dashes pasted from web pages. Expected behaviour from DiskSpd itself
# (github.com/microsoft/diskspd IORequestGenerator.cpp refuses a thread whose
# base offset + thread stride x thread number leaves no room for one block:
# "The file is too small") and from the inputs read by hand.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# 7. -c10M -t4 -T5M: thread 3 would start at 15 MiB of a 10 MiB file -> refuse
expect_status 2 "-t4 -T5M in a 10 MiB file" -- "$IOMARK" diskspd -c10M -t4 -T5M -b4K -d1 -s f.dat
expect_err_has "file too small"
[ ! -e f.dat ] && pass "nothing created" || fail "f.dat created"
# thread 2 would start at 10 MiB: no room for a 4 KiB block
expect_status 2 "-t3 -T5M in a 10 MiB file" -- "$IOMARK" diskspd -c10M -t3 -T5M -b4K -d1 -s f.dat
expect_err_has "file too small"
# -B counts: 1 MiB + 2 x 4 MiB + 4 KiB > 9 MiB
expect_status 2 "-B1M -t3 -T4M in a 9 MiB file" -- "$IOMARK" diskspd -c9M -B1M -t3 -T4M -b4K -d1 -s f.dat
expect_err_has "file too small"
# the last start that fits: thread 1 at 5 MiB, 5 MiB + 4 KiB <= 10 MiB
expect_status 0 "-t2 -T5M in a 10 MiB file runs" -- "$IOMARK" diskspd -c10M -t2 -T5M -b4K -d1 -s f.dat
rm -f f.dat
# an existing file (size known only when opened): the same refusal, exit 2
truncate -s 10M e.dat
expect_status 2 "-t4 -T5M on an existing 10 MiB file" -- "$IOMARK" diskspd -t4 -T5M -b4K -d1 -s e.dat
grep -qF "file too small" err && pass "existing file: file too small" || fail "existing file: $(cat err)"
[ "$(stat -c %s e.dat)" = 10485760 ] && pass "existing file untouched" || fail "e.dat changed"

# 8. typographic dashes: U+2013 en dash, U+2014 em dash, U+2212 minus sign
en=$'\u2013'; em=$'\u2014'; minus=$'\u2212'
expect_status 2 "diskspd ${en}b8K" -- "$IOMARK" diskspd -c16M -d1 "${en}b8K" iotest.dat
expect_err_has "${en}b8K: looks like an option with a typographic dash; use -b8K"
expect_status 2 "diskspd ${em}o4" -- "$IOMARK" diskspd -c16M -d1 -b8K "${em}o4" iotest.dat
expect_err_has "use -o4"
expect_status 2 "run ${minus}${minus}bs=8k" -- "$IOMARK" run --size=16M --runtime=1 "${minus}${minus}bs=8k" x.dat
expect_err_has "use --bs=8k"
expect_status 2 "run ${en}-iodepth=4 (en dash + hyphen)" -- "$IOMARK" run --size=16M --runtime=1 x.dat "${en}-iodepth=4"
expect_err_has "use --iodepth=4"
expect_status 2 "compare ${en}x (shared parser)" -- "$IOMARK" compare "${en}x"
expect_err_has "use -x"
left=$(ls -A | grep -vxE "err|out" || true)
[ "$left" = "e.dat" ] && pass "nothing created by the refusals" || fail "files left: $left"
finish
