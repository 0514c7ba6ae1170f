#!/bin/bash
# test_fio_openfiles.sh - fio's openfiles (HOWTO: at most N of a job's files
# open at once; default nrfiles) in job files: iomark keeps every file of a
# job open (one thread each), so it accepts openfiles >= the job's files (no
# effect: fio's amounts, size split over the files, from iomark's JSON and
# the files' sizes) and refuses a smaller value by name (exit 2, one line,
# nothing created).
. "$(dirname "$0")/lib.sh"
cd "$WORK"
printf '[o]\nfilename=%s/a:%s/b\nrw=write\nbs=4k\nsize=128k\nopenfiles=2\n' "$WORK" "$WORK" >ok.fio
expect_status 0 "openfiles=2 with 2 files runs" -- "$IOMARK" run ok.fio --quiet --output-format=json --output=ok.json
# fio: size=128k is the job's total over its 2 files: 64 KiB written to each
n=$($PY -c "import json; j=json.load(open('ok.json'))['jobs']; print(sum(x['write']['io_bytes'] for x in j))")
[ "$n" = 131072 ] && pass "128 KiB written in all (fio's size over both files)" || fail "wrote $n bytes"
[ "$(stat -c %s a)" = 65536 ] && [ "$(stat -c %s b)" = 65536 ] && pass "each file 64 KiB" || fail "file sizes $(stat -c %s a b | tr '\n' ' ')"
printf '[o]\nfilename=%s/c:%s/d\nrw=write\nbs=4k\nsize=128k\nopenfiles=1\n' "$WORK" "$WORK" >one.fio
expect_status 2 "openfiles=1 with 2 files refused" -- "$IOMARK" run one.fio
expect_err_has "line 6: openfiles=1: iomark keeps all 2 files of [o] open"
[ ! -e c ] && [ ! -e d ] && pass "nothing created" || fail "a refused job created files"
expect_job_refused "openfiles=0 refused" "[o]\nfilename=$WORK/e\nopenfiles=0" "openfiles=0: a whole number of files, at least 1"
finish
