#!/usr/bin/env bash
# test_keep.sh - --keep agrees with the help and docs/options.md: run, run
# --repeat, sweep, diskspd and fio job files keep a test file they created
# (as fio keeps the files it lays out); --keep=0 removes it at the end; a file
# that existed before is never removed; mark removes its file unless --keep,
# and names a file it keeps as the others do.
# A kept file the command created is named on stderr, once, with its size
# (from stat here) and how to remove it; a file --keep=0 removed is named
# once with the size --size asked for; an existing file gets neither line,
# and with --keep=0 one line saying it stays because iomark did not create it.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
# kept_note CMD FILE: stderr holds the note for FILE exactly once
kept_note() {
  local b; b=$(stat -c %s "$2")
  [ "$(grep -cxF "iomark $1: the test file $2 it created is left in place, $((b / 1048576)) MiB ($b bytes); remove it with rm $2, or run with --keep=0 to remove it at the end" "$WORK/err")" = 1 ] \
    && pass "$1: stderr names the kept $2 ($b bytes) once" || fail "$1: no note for $2: $(cat "$WORK/err")"
}
no_note() { grep -q "it created is left in place" "$WORK/err" && fail "$1: note: $(cat "$WORK/err")" || pass "$1: no kept-file note"; }
"$IOMARK" run --help >"$WORK/help"
grep -q -- "--keep=0|1 .*keep a test file iomark created (default 1, as fio; 0: remove it at the end)" "$WORK/help" \
  && pass "run --help: --keep, default 1" || fail "run --help: $(grep -- --keep "$WORK/help")"

expect_status 0 "run creates a file" -- "$IOMARK" run --size=1M --runtime=200ms --quiet "$WORK/a.dat"
[ -f "$WORK/a.dat" ] && pass "run keeps the file it created" || fail "a.dat removed"
kept_note run "$WORK/a.dat"
expect_status 0 "run on the existing file" -- "$IOMARK" run --size=1M --runtime=200ms --quiet "$WORK/a.dat"
no_note "run on an existing file"
expect_status 0 "run on the existing file with --keep=0" -- "$IOMARK" run --size=1M --runtime=200ms --keep=0 --quiet "$WORK/a.dat"
[ -f "$WORK/a.dat" ] && pass "an existing file is never removed" || fail "existing a.dat removed"
no_note "run --keep=0 on an existing file"
grep -q "removed" "$WORK/err" && fail "--keep=0 on an existing file: $(cat "$WORK/err")" || pass "no removal line for an existing file"
[ "$(grep -cxF "iomark run: the test file $WORK/a.dat existed before the run and is left in place (--keep=0 removes only a file iomark created)" "$WORK/err")" = 1 ] \
  && pass "--keep=0 on an existing file: one line says why it stays" || fail "--keep=0 existing line: $(cat "$WORK/err")"
expect_status 0 "run --keep=0 creates a file" -- "$IOMARK" run --size=1M --runtime=200ms --keep=0 --quiet "$WORK/b.dat"
[ ! -e "$WORK/b.dat" ] && pass "--keep=0 removed the file run created" || fail "b.dat kept"
no_note "run --keep=0"
[ "$(grep -cxF "iomark run: removed the test file $WORK/b.dat it created, 1 MiB (1048576 bytes) (--keep=0)" "$WORK/err")" = 1 ] \
  && pass "--keep=0: stderr names the removed file and its size once" || fail "--keep=0 line: $(cat "$WORK/err")"
expect_status 0 "run --repeat=2 creates a file" -- "$IOMARK" run --repeat=2 --size=2M --runtime=200ms --quiet "$WORK/r.dat"
kept_note run "$WORK/r.dat"
expect_status 0 "run --repeat=2 --keep=0" -- "$IOMARK" run --repeat=2 --size=1M --runtime=200ms --keep=0 --quiet "$WORK/c.dat"
[ ! -e "$WORK/c.dat" ] && pass "--repeat with --keep=0 removed it" || fail "c.dat kept"
expect_status 2 "--keep=2 refused" -- "$IOMARK" run --size=1M --keep=2 "$WORK/d.dat"
[ ! -e "$WORK/d.dat" ] && pass "nothing created on refusal" || fail "d.dat created"

expect_status 0 "sweep default" -- "$IOMARK" sweep --iodepth=1,2 --size=1M --runtime=200ms --quiet "$WORK/s.dat"
[ -f "$WORK/s.dat" ] && pass "sweep keeps its file" || fail "s.dat removed"
kept_note sweep "$WORK/s.dat"
expect_status 0 "sweep --keep=0" -- "$IOMARK" sweep --iodepth=1,2 --size=1M --runtime=200ms --keep=0 --quiet "$WORK/s2.dat"
[ ! -e "$WORK/s2.dat" ] && pass "sweep --keep=0 removed it" || fail "s2.dat kept"

expect_status 0 "diskspd -c1M" -- "$IOMARK" diskspd -c1M -d1 -W0 "$WORK/ds.dat"
[ -f "$WORK/ds.dat" ] && pass "diskspd keeps the file -c created (as DiskSpd)" || fail "ds.dat removed"
kept_note diskspd "$WORK/ds.dat"
expect_status 0 "diskspd -c1M --keep=0" -- "$IOMARK" diskspd -c1M -d1 -W0 --keep=0 "$WORK/ds2.dat"
[ ! -e "$WORK/ds2.dat" ] && pass "diskspd --keep=0 removed it" || fail "ds2.dat kept"

printf '[j]\nfilename=%s\nsize=1M\nrw=read\nruntime=1\ntime_based=1\n' "$WORK/jf.dat" >"$WORK/t.fio"
expect_status 0 "fio job file" -- "$IOMARK" run "$WORK/t.fio" --quiet
[ -f "$WORK/jf.dat" ] && pass "job file: file kept (as fio)" || fail "jf.dat removed"
kept_note run "$WORK/jf.dat"
rm -f "$WORK/jf.dat"
expect_status 0 "fio job file --keep=0" -- "$IOMARK" run "$WORK/t.fio" --keep=0 --quiet
[ ! -e "$WORK/jf.dat" ] && pass "job file --keep=0 removed it" || fail "jf.dat kept"

expect_status 0 "mark" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=200ms --prepare=0 --pause=0 --size=1M --quiet "$WORK/m.dat"
[ ! -e "$WORK/m.dat" ] && pass "mark removes its file by default" || fail "m.dat kept"
[ ! -s "$WORK/err" ] && pass "mark: no line for its default removal" || fail "mark default removal: $(cat "$WORK/err")"
# mark --keep (and --keep=1) names the file it leaves as run does; removing it is
# mark's default, so the way back is to run without --keep
for k in --keep --keep=1; do
  expect_status 0 "mark $k" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=200ms --prepare=0 --pause=0 --size=1M --quiet $k "$WORK/mk.dat"
  [ -f "$WORK/mk.dat" ] && b=$(stat -c %s "$WORK/mk.dat") && [ "$b" = 1048576 ] && pass "mark $k kept its 1 MiB file" || fail "mark $k: mk.dat missing"
  [ "$(grep -cxF "iomark mark: the test file $WORK/mk.dat it created is left in place, 1 MiB (1048576 bytes); remove it with rm $WORK/mk.dat, or run without --keep to remove it at the end" "$WORK/err")" = 1 ] \
    && pass "mark $k: stderr names the kept file and its size once" || fail "mark $k: $(cat "$WORK/err")"
  rm -f "$WORK/mk.dat"
done
# a folder target: the file mark makes there is named the same way
mkdir -p "$WORK/md"
expect_status 0 "mark --keep on a folder" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=200ms --prepare=0 --pause=0 --size=2M --quiet --keep "$WORK/md"
[ "$(grep -cxF "iomark mark: the test file $WORK/md/iomark-test.dat it created is left in place, 2 MiB (2097152 bytes); remove it with rm $WORK/md/iomark-test.dat, or run without --keep to remove it at the end" "$WORK/err")" = 1 ] \
  && pass "mark --keep on a folder: the file made there is named" || fail "mark folder --keep: $(cat "$WORK/err")"
# a file that existed before: mark leaves it without a line (not --keep=0's)
expect_status 0 "mark on an existing file" -- "$IOMARK" mark --profile=realworld --runs=1 --runtime=200ms --prepare=0 --pause=0 --size=2M --quiet "$WORK/md/iomark-test.dat"
[ -f "$WORK/md/iomark-test.dat" ] && [ ! -s "$WORK/err" ] && pass "mark: an existing file stays, no line" || fail "mark existing: $(cat "$WORK/err")"
finish
