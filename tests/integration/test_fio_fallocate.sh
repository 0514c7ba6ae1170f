#!/bin/bash
# test_fio_fallocate.sh - fio's fallocate in job files (none, native, posix,
# keep, truncate, 0, 1): how a new file of a write job is laid out (fio 3.33
# filesetup.c extend_file; a job that reads gets its file written at layout
# whatever the mode). For each mode fio 3.33 and iomark run the same job
# (size=1m, io_size=256k: a quarter written) on the same filesystem; the
# file's size and allocated blocks (stat) must be fio's.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
one() { # MODE RW
  printf '[f]\nfilename=%s/fa.dat\nrw=%s\nbs=4k\nsize=1m\nio_size=256k\nfallocate=%s\n' "$WORK" "$2" "$1" >fa.fio
  rm -f fa.dat
  fio fa.fio --output=/dev/null >/dev/null 2>fio.err || { fail "fallocate=$1 rw=$2: fio failed: $(head -c 200 fio.err)"; return; }
  local want; want=$(stat -c '%s %b' fa.dat)
  rm -f fa.dat
  "$IOMARK" run fa.fio --quiet --output=/dev/null 2>iom.err || { fail "fallocate=$1 rw=$2: iomark failed: $(head -c 200 iom.err)"; return; }
  local got; got=$(stat -c '%s %b' fa.dat)
  [ "$got" = "$want" ] && pass "fallocate=$1 rw=$2: size and 512-byte blocks '$got', as fio 3.33" \
    || fail "fallocate=$1 rw=$2: fio '$want', iomark '$got' (size, blocks)"
}
for m in none native posix keep truncate 0 1; do one $m write; done
one none read
one keep randread
expect_job_refused "fallocate=sometimes refused" "[b]\nfilename=$WORK/new\nrw=write\nsize=64k\nfallocate=sometimes" \
  "fallocate=sometimes: allowed none, native, posix, keep, truncate, 0, 1"
[ ! -e new ] && pass "nothing created" || fail "a refused job created a file"
finish
