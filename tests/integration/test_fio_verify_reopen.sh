#!/bin/bash
# test_fio_verify_reopen.sh - fio 3.33's verify phase as seen by the kernel, and
# its per-direction runtime. Every expected value is fio 3.33's own run of the
# same job file, traced with strace (-P on the data file: openat, close, fsync,
# fdatasync, fadvise64, pread64, pwrite64):
#   - the calls from the last openat of the file to the end (the verify phase's
#     reopen: fio backend.c clear_io_state closes the file after the writes,
#     verify.c get_next_verify -> td_io_open_file opens it again, drops its
#     cache (invalidate=1, fadvise64 DONTNEED over the file's range) and gives
#     the fadvise hint) equal fio's, pread64 runs collapsed, open flags without
#     O_CREAT/O_CLOEXEC/O_LARGEFILE; the call before that openat is close, and
#     fsync/fdatasync are called as often as fio calls them after its first
#     read-write open (0; 1 with end_fsync=1). Jobs: psync buffered randwrite,
#     end_fsync=1, libaio direct=1, io_uring buffered.
#   - runtime per direction (fio backend.c thread_main update_runtime: the
#     writes' time is runtime[WRITE], the verify phase's runtime[READ], each
#     rounded up to the ms; job_runtime is total_run_time, the time since the
#     thread's epoch, rounded down). fio's JSON: read.runtime + write.runtime
#     <= job_runtime + 2 ms, no equality: the time outside both phases (from
#     epoch to the first phase, clear_io_state between them) counts in
#     job_runtime alone, a few ms on a loaded machine (97 + 54 vs 175 ms seen).
#     iomark's JSON: read.runtime + write.runtime = job_runtime within 2 ms (it
#     times the two phases back to back, stats/result.h iom_thread_dir_runtime),
#     each below it. On both, each direction's iops is its total_ios over its
#     own runtime.
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null || { echo "skip: no fio"; exit 77; }
command -v strace >/dev/null || { echo "skip: no strace"; exit 77; }
strace -f -qq -e trace=close -o /dev/null true 2>/dev/null || { echo "skip: strace cannot trace here"; exit 77; }
cd "$WORK"
F=$WORK/ver.dat

run() { # TOOL JOB TRACE JSON
  rm -f "$F"
  local tr="strace -f -qq -e trace=openat,close,fsync,fdatasync,fadvise64,pread64,pwrite64 -P $F -o $3"
  if [ "$1" = fio ]; then
    $tr fio "$2" --output-format=json --output="$4" >/dev/null 2>&1 || echo "fio exit $?"
  else
    ASAN_OPTIONS=detect_leaks=0 $tr "$IOMARK" run --quiet "$2" --output-format=json --output="$4" >/dev/null 2>&1 ||
      echo "iomark exit $?"
  fi
}
# SEQ TRACE: "tail" (from the last openat, I/O runs collapsed), "before" (the call
# before it) and "syncs" (fsync/fdatasync after the first O_RDWR open)
seq() {
  "$PY" - "$1" "$2" <<'PYEOF'
import re, sys
calls = []
pend = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\d+)\s+(.*)', line.strip())
    if not m:
        continue
    pid, rest = m.groups()
    if rest.endswith('<unfinished ...>'):
        pend[pid] = rest[:-len('<unfinished ...>')]
        continue
    r = re.match(r'<\.\.\. \w+ resumed>(.*)', rest)
    if r:
        rest = pend.pop(pid, '') + r.group(1)
    m = re.match(r'(\w+)\((.*)\)\s*=\s*(-?\d+)', rest)
    if not m:
        continue
    call, args, ret = m.groups()
    a = [x.strip() for x in args.split(',')]
    if call == 'openat':
        fl = [f for f in a[2].split('|') if f not in ('O_CREAT', 'O_CLOEXEC', 'O_LARGEFILE')]
        calls.append('openat ' + '|'.join(fl))
    elif call == 'fadvise64':
        calls.append('fadvise64 ' + ','.join(a[1:]))
    else:
        calls.append(call)
last = max(i for i, c in enumerate(calls) if c.startswith('openat'))
first = min(i for i, c in enumerate(calls) if c.startswith('openat O_RDWR'))
if sys.argv[2] == 'syncs':
    print(sum(c in ('fsync', 'fdatasync') for c in calls[first:]))
elif sys.argv[2] == 'before':
    print(calls[last - 1])
else:
    out = []
    for c in calls[last:]:
        if out and out[-1][0] == c:
            out[-1][1] += 1
        else:
            out.append([c, 1])
    print('; '.join(c if c in ('pread64', 'pwrite64') or n == 1 else '%s x%d' % (c, n) for c, n in out))
PYEOF
}
jget() { "$PY" -c "import json,sys; j=json.load(open(sys.argv[1]))['jobs'][0]; print($2)" "$1"; }

i=0
for opts in "ioengine=psync" "ioengine=psync\nend_fsync=1" "ioengine=libaio\ndirect=1\niodepth=4" "ioengine=io_uring\niodepth=4"; do
  i=$((i + 1))
  printf '[vw]\nfilename=%s\nsize=2m\nbs=8k\nrw=randwrite\nverify=crc32c\n%b\n' "$F" "$opts" >v$i.fio
  name=$(printf '%b' "$opts" | tr '\n' ' ')
  run fio v$i.fio fio$i.tr fio$i.json
  run iom v$i.fio iom$i.tr iom$i.json
  for k in tail before syncs; do
    a=$(seq fio$i.tr $k); b=$(seq iom$i.tr $k)
    [ "$a" = "$b" ] && pass "$name: verify phase $k as fio 3.33: $b" || fail "$name: verify phase $k: iomark '$b', fio '$a'"
  done
  a=$(jget fio$i.json "j['read']['total_ios'], j['error']"); b=$(jget iom$i.json "j['read']['total_ios'], j['error']")
  [ "$a" = "$b" ] && pass "$name: read total_ios, error = $b as fio" || fail "$name: read total_ios, error = $b, fio $a"
done

# per-direction runtime: 4096 writes then 4096 verify reads, buffered
printf '[vw]\nfilename=%s\nsize=16m\nbs=4k\nrw=randwrite\nverify=crc32c\nioengine=psync\n' "$F" >rt.fio
rm -f "$F"; fio rt.fio --output-format=json --output=fio_rt.json >/dev/null 2>&1 || fail "fio rt.fio failed"
rm -f "$F"; "$IOMARK" run --quiet rt.fio --output-format=json --output=iom_rt.json >/dev/null 2>&1 || fail "iomark rt.fio failed"
for t in fio iom; do
  v=$(jget ${t}_rt.json "j['read']['runtime'], j['write']['runtime'], j['job_runtime']")
  if [ $t = fio ]; then rel="read.runtime + write.runtime <= job_runtime + 2"; else rel="read.runtime + write.runtime = job_runtime"; fi
  jget ${t}_rt.json "j" | "$PY" -c "
import ast, sys
j = ast.literal_eval(sys.stdin.read())
r, w, t = j['read']['runtime'], j['write']['runtime'], j['job_runtime']
if '$t' == 'fio':
    ok = 0 < r and 0 < w and r + w <= t + 2
else:
    ok = 0 < r < t and 0 < w < t and abs(r + w - t) <= 2
for d in ('read', 'write'):
    x = j[d]
    want = x['total_ios'] * 1000.0 / x['runtime']
    ok = ok and x['total_ios'] == 4096 and abs(x['iops'] - want) <= want * (0.5 / x['runtime'] + 0.01)
sys.exit(0 if ok else 1)" && pass "$t: $rel, each direction's iops = total_ios/its runtime ($v ms)" ||
    fail "$t: not $rel or iops off: runtime per direction (read, write, job_runtime) = $v; iops $(jget ${t}_rt.json "j['read']['iops'], j['write']['iops']")"
done
echo "fio 3.33 read/write/job runtime: $(jget fio_rt.json "j['read']['runtime'], j['write']['runtime'], j['job_runtime']") ms; iomark: $(jget iom_rt.json "j['read']['runtime'], j['write']['runtime'], j['job_runtime']") ms"

# libaio's submissions, the verify phase's too: fio submits each I/O on its own
# (iodepth_batch=1): io_submit calls and their nr values as fio's
printf '[vl]\nfilename=%s\nioengine=libaio\ndirect=1\niodepth=8\nsize=4m\nbs=16k\nrw=randwrite\nverify=md5\n' "$F" >vl.fio
subs() { # TRACE: "calls N nr=1:K ..." from io_submit lines
  "$PY" - "$1" <<'PYEOF'
import re, sys, collections
c = collections.Counter()
for line in open(sys.argv[1]):
    m = re.search(r'io_submit\(0x[0-9a-f]+, (\d+),', line)
    if m:
        c[int(m.group(1))] += 1
print("calls", sum(c.values()), " ".join("nr=%d:%d" % kv for kv in sorted(c.items())))
PYEOF
}
for t in fio iom; do
  rm -f "$F"
  if [ $t = fio ]; then strace -f -qq -e trace=io_submit -o vl_$t.tr fio vl.fio --output=/dev/null >/dev/null 2>&1 || fail "fio vl.fio"
  else ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=io_submit -o vl_$t.tr "$IOMARK" run --quiet vl.fio >/dev/null 2>&1 || fail "iomark vl.fio"; fi
done
a=$(subs vl_fio.tr); b=$(subs vl_iom.tr)
[ "$a" = "$b" ] && pass "libaio iodepth=8 verify: io_submit $b as fio 3.33" || fail "libaio verify io_submit: iomark '$b', fio '$a'"

finish
