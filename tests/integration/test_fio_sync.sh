#!/bin/bash
# test_fio_sync.sh - fio's syncs in job files (fsync=N, fdatasync=N, end_fsync,
# fsync_on_close, write_barrier): the fsync(2)/fdatasync(2)/pwrite64(2) calls
# iomark makes on the data file (strace) against the ones fio 3.33 makes for
# the same job file, and fio's JSON "sync" block (total_ios, lat_ns.N) against
# iomark's fio-format JSON. Where the sync sequence depends on random draws
# (rw=randrw), each tool's own trace is checked against fio's rule
# (io_u.c get_rw_ddir: before an I/O, a sync when the writes issued W > 0 are a
# multiple of N and the last I/O was not a sync), computed here from the trace.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
cd "$WORK"

# job NAME LINES...: a job file NAME.fio on $WORK/data (1 MiB, 4 KiB writes)
job() {
  local name=$1; shift
  printf '[%s]\nfilename=%s/data\nsize=1m\nbs=4k\nrw=write\nioengine=psync\n' "$name" "$WORK" >"$name.fio"
  local l; for l in "$@"; do echo "$l" >>"$name.fio"; done
}
# trace TOOL NAME: run TOOL (fio or iomark) on NAME.fio under strace; NAME.TOOL.tr holds
# the data file's pread64/pwrite64/fsync/fdatasync calls, one name a line in order
# (one thread: in order; more: all threads'), NAME.TOOL.json fio's JSON
trace() {
  local tool=$1 name=$2
  head -c 1048576 /dev/zero >data # laid out already: neither tool writes it first
  rm -f tr.*
  local cmd=(fio "$name.fio" --output-format=json --output="$name.$tool.json")
  [ "$tool" = iomark ] && cmd=("$IOMARK" run "$name.fio" --quiet --output-format=json
                               --output="$name.$tool.json")
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -e trace=pread64,pwrite64,fsync,fdatasync \
    -o tr "${cmd[@]}" >/dev/null 2>"$name.$tool.err" \
    || { fail "$name: $tool failed: $(head -c 300 "$name.$tool.err")"; return 1; }
  cat tr.* | grep -F "<$WORK/data>" | sed -E 's/^([a-z0-9]+)\(.*/\1/' >"$name.$tool.tr"
}
# count NAME TOOL CALL: how many CALL lines NAME.TOOL.tr has
count() { grep -cx "$3" "$1.$2.tr" || true; }
# jsync NAME TOOL: "total_ios N" of the jobs' "sync" blocks, summed
jsync() {
  $PY -c 'import json,sys
j=json.load(open(sys.argv[1]))["jobs"]
print(sum(x["sync"]["total_ios"] for x in j), sum(x["sync"]["lat_ns"]["N"] for x in j))' "$1.$2.json"
}
# same NAME: fio's and iomark's counts of each call and their JSON sync blocks agree
same() {
  local name=$1 c f i
  trace fio "$name" && trace iomark "$name" || return 0
  for c in pwrite64 fsync fdatasync; do
    f=$(count "$name" fio $c); i=$(count "$name" iomark $c)
    [ "$f" = "$i" ] && pass "$name: $c calls: fio $f, iomark $i" || fail "$name: $c calls: fio $f, iomark $i"
  done
  f=$(jsync "$name" fio); i=$(jsync "$name" iomark)
  [ "$f" = "$i" ] && pass "$name: JSON sync total_ios/N: fio $f, iomark $i" \
    || fail "$name: JSON sync total_ios/N: fio $f, iomark $i"
}

# fsync=8 over 256 writes: a sync before the 9th, 17th, ... 249th write: 31 (by hand
# (256-1)/8; the job ends after the 256th without asking for another I/O)
job fs8 fsync=8
same fs8
[ "$(count fs8 iomark fsync)" = 31 ] && pass "fs8: 31 fsyncs by hand" || fail "fs8: $(count fs8 iomark fsync) fsyncs, by hand 31"
# fdatasync=8: fdatasync(2) instead; fio's JSON counts them in lat_ns.N, not in total_ios
job fds8 fdatasync=8
same fds8
[ "$(jsync fds8 iomark)" = "0 31" ] && pass "fds8: total_ios 0, N 31 (fio stat.c)" || fail "fds8: $(jsync fds8 iomark)"
# both: fsync first when both are due (writes 8, 16, ...), fdatasync at 4, 12, ...
job both fsync=8 fdatasync=4
same both
# end_fsync and fsync_on_close: one fsync per thread at the end, not counted in "sync"
job endfs end_fsync=1
same endfs
job onclose fsync_on_close=1
same onclose
job endboth fsync_on_close=1 end_fsync=1
same endboth
job endfs2 end_fsync=1 numjobs=2
same endfs2
job endfs8 end_fsync=1 fsync=8
same endfs8
# a job without writes syncs nothing (fio should_fsync: td_write)
job rdsync rw=read fsync=4 end_fsync=1
same rdsync
# write_barrier: fio 3.33 marks every Nth write with a flag no engine reads
job barrier write_barrier=4
same barrier
# libaio: the sync is done at once after the queued writes are submitted
job aio ioengine=libaio iodepth=8 direct=1 fsync=4
same aio
[ "$(count aio iomark fsync)" = 63 ] && pass "aio: 63 fsyncs by hand (255/4)" || fail "aio: $(count aio iomark fsync) fsyncs, by hand 63"

# rw=randrw: the write/read sequence is random; each tool's trace follows fio's rule
rule() {
  $PY - "$1" "$2" <<'EOF'
import sys
n = int(sys.argv[2]); w = 0; last = False; syncs = 0
for i, call in enumerate(open(sys.argv[1]).read().split()):
    due = w > 0 and w % n == 0 and not last
    if (call == "fsync") != due:
        print(f"call {i} {call}: a sync was {'due' if due else 'not due'} (writes {w})"); sys.exit(1)
    if call == "fsync":
        last = True; syncs += 1
    else:
        last = False; w += call == "pwrite64"
print(f"{w} writes, {syncs} fsyncs")
EOF
}
job rrw rw=randrw fsync=4 size=256k
trace fio rrw && trace iomark rrw
for t in fio iomark; do
  if out=$(rule "rrw.$t.tr" 4); then pass "rrw: $t's sequence follows fio's rule: $out";
  else fail "rrw: $t: $out"; fi
done
[ "$(count rrw iomark fsync)" -gt "$(( $(count rrw iomark pwrite64) / 4 ))" ] \
  && pass "rrw: syncs between reads repeat as fio's (more than writes/4)" \
  || fail "rrw: $(count rrw iomark fsync) fsyncs for $(count rrw iomark pwrite64) writes"

# io_uring: IORING_OP_FSYNC (not seen by strace): the JSON count by hand, 255/4 = 63.
# (fio 3.33 issues more at depth > 1: while a sync is in flight its last_was_sync is
# still false, so each free slot gets another sync; iomark issues one per N writes.)
job uring ioengine=io_uring iodepth=8 fsync=4 direct=1
if trace iomark uring; then
  [ "$(jsync uring iomark)" = "63 63" ] && pass "uring: JSON sync 63 63" || fail "uring: JSON sync $(jsync uring iomark)"
fi
job uringd ioengine=io_uring iodepth=8 fdatasync=4
if trace iomark uringd; then
  [ "$(jsync uringd iomark)" = "0 63" ] && pass "uringd: JSON sync 0 63" || fail "uringd: JSON sync $(jsync uringd iomark)"
fi

# bad values: exit 2, one line naming the option
expect_job_refused "fsync=abc refused" "[b]\nfilename=$WORK/new1\nrw=write\nsize=64k\nfsync=abc" "fsync=abc"
expect_job_refused "end_fsync=2 refused" "[b]\nfilename=$WORK/new1\nrw=write\nsize=64k\nend_fsync=2" "end_fsync=2"
[ ! -e new1 ] && pass "nothing created" || fail "a refused job created new1"
finish
