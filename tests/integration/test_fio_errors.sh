#!/bin/bash
# test_fio_errors.sh - fio's per-class error handling in job files
# (continue_on_error none/read/write/io/verify/all/0/1, ignore_error lists of
# errno names or numbers, error_dump; fio 3.33 td_error.c, backend.c
# break_on_this_error): real ENOSPC errors from a 1 MiB tmpfs, a 2 MiB sparse
# file written with bs=64k (16 writes fit, 16 fail), each job run by fio 3.33
# and by iomark; the exit status, fio's JSON error, total_err, first_error and
# written bytes must be fio's own.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
tmpfs_at "$WORK/mnt" 1m

# fields TOOL JSON RC: "rc error total_err first_error write_bytes" (- when absent)
fields() {
  $PY - "$2" "$3" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))['jobs'][0]
g = lambda k: j[k] if k in j else '-'
print(sys.argv[2], g('error'), g('total_err'), g('first_error'), j['write']['io_bytes'])
PY
}
run_case() { # NAME OPTIONS...
  local name=$1; shift
  { printf '[%s]\nfilename=%s/mnt/f\nrw=write\nbs=64k\nsize=2m\nioengine=psync\n' "$name" "$WORK"
    printf '%s\n' "$@"; } >"$name.fio"
  local rc
  rm -f mnt/f; truncate -s 2M mnt/f; rc=0
  fio "$name.fio" --output-format=json --output="$name.fio.json" 2>"$name.fio.err" >/dev/null || rc=$?
  local want; want=$(fields fio "$name.fio.json" $rc 2>/dev/null || echo "no report, exit $rc")
  rm -f mnt/f; truncate -s 2M mnt/f; rc=0
  "$IOMARK" run "$name.fio" --quiet --output-format=json --output="$name.iom.json" 2>"$name.iom.err" >/dev/null || rc=$?
  local got; got=$(fields iomark "$name.iom.json" $rc 2>/dev/null || echo "no report, exit $rc")
  [ "$got" = "$want" ] && pass "$name ($*): rc error total_err first_error bytes = $got, as fio 3.33" \
    || fail "$name ($*): fio $want, iomark $got ($(head -c 200 "$name.iom.err"))"
}
# ENOSPC is not in fio's default list (EIO, EILSEQ): fatal, counted once
run_case wdefault continue_on_error=write
# the write list names it: the job goes on, 16 errors, exit 0
run_case wenospc continue_on_error=write ignore_error=,ENOSPC
# a list alone sets its class (fio ignore_error_type)
run_case listonly ignore_error=,ENOSPC
# a later continue_on_error=none clears it again: fatal, no total_err
run_case nonelast ignore_error=,ENOSPC continue_on_error=none
# numbers, several per list, all classes
run_case numeric continue_on_error=all ignore_error=EIO,5:28,84
run_case one continue_on_error=1 ignore_error=:,ENOSPC
# a class that is not the write's: fatal, not counted
run_case readonly continue_on_error=read ignore_error=ENOSPC
run_case verifyonly continue_on_error=verify
run_case io continue_on_error=io ignore_error=,ENOSPC:EIO
# error_dump=1: every non-fatal error on stderr, one line each, as fio
run_case dump continue_on_error=write ignore_error=,ENOSPC error_dump=1
nf=$(grep -c 'io_u error on file .*No space left on device: write offset=' dump.fio.err || true)
ni=$(grep -c 'io_u error on file .*No space left on device: write offset=' dump.iom.err || true)
[ "$nf" = 16 ] && [ "$ni" = 16 ] && pass "error_dump: 16 lines from fio and from iomark" \
  || fail "error_dump: fio $nf lines, iomark $ni"
ni=$(grep -c 'io_u error' wenospc.iom.err || true)
[ "$ni" = 0 ] && pass "no error_dump: no error lines" || fail "without error_dump: $ni error lines"

# refusals: exit 2, one line naming the option, nothing created
J="[b]\nfilename=$WORK/new1\nrw=write\nsize=64k"
expect_job_refused "continue_on_error=sometimes refused" "$J\ncontinue_on_error=sometimes" \
  "continue_on_error=sometimes: allowed none, read, write, io, verify, all"
expect_job_refused "ignore_error=,ENOSPACE refused" "$J\nignore_error=,ENOSPACE" "ignore_error=,ENOSPACE: ENOSPACE"
expect_job_refused "four ignore_error lists refused" "$J\nignore_error=EIO,EIO,EIO,EIO" "at most three lists"
[ ! -e new1 ] && pass "nothing created" || fail "a refused job created new1"
finish
