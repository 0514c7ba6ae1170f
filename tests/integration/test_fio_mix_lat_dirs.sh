#!/bin/bash
# test_fio_mix_lat_dirs.sh - a paced read/write mix keeps each direction's
# latency apart (issue 19 item 3). fio 3.33's examples/exitwhat.fio, scaled
# (file under $WORK, filesize=16m) with write_lat_log=ew in [fast1] (randrw,
# libaio, iodepth=32, rate=300,300,300, numjobs=3, group_reporting): each clone
# issues its first read and its first write at once, and fio submits each I/O
# on its own (iodepth_batch=1: ioengines.c td_io_queue commits at
# io_u_queued >= iodepth_batch) with its own start time (io_u.c get_io_u), so
# with buffered libaio (io_submit does the I/O) the two latencies differ. For
# fio 3.33's run and iomark's of the same file:
#   - fast1's read and write total_ios equal fio's (3 and 3);
#   - fast1's JSON read lat_ns min/max are the least/largest read entries of
#     its per-I/O latency logs (ew_lat.N.log, direction 0), the write ones of
#     the write entries (direction 1): each direction's figures come from its
#     own I/Os;
#   - read and write (min, max, mean) are not the same triple, as in fio's.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: no fio"; exit 77; }
EX=/usr/share/doc/fio/examples/exitwhat.fio
[ -r "$EX" ] || EX=$SRCDIR/tests/data/fio-examples/exitwhat.fio
[ -r "$EX" ] || { echo "skip: no exitwhat.fio"; exit 77; }
cd "$WORK"
for t in fio iom; do
  mkdir -p "$t"
  sed -e "s#/tmp/test#$WORK/test#" -e 's/filesize=1G/filesize=16m/' \
    -e 's/^\[fast1\]$/[fast1]\nwrite_lat_log=ew/' "$EX" >"$t/ew.fio"
  rm -f "$WORK/test"
  if [ $t = fio ]; then
    (cd $t && fio ew.fio --output-format=json --output=out.json >/dev/null 2>&1) || fail "fio failed"
  else
    (cd $t && "$IOMARK" run --quiet ew.fio --output-format=json --output=out.json >/dev/null 2>&1) ||
      fail "iomark failed"
  fi
done
"$PY" - "$WORK" >checks.txt <<'PYEOF' || fail "the checks did not run"
import glob, json, os, sys
w = sys.argv[1]
def fast1(t):
    return [j for j in json.load(open(os.path.join(w, t, 'out.json')))['jobs'] if j['jobname'] == 'fast1'][0]
f = fast1('fio')
for t in ('fio', 'iom'):
    j = fast1(t)
    for d in ('read', 'write'):
        a, b = j[d]['total_ios'], f[d]['total_ios']
        print(('ok: ' if a == b else 'FAIL: ') + '%s fast1 %s total_ios %d, fio %d' % (t, d, a, b))
    logs = sorted(glob.glob(os.path.join(w, t, 'ew_lat.*.log')))
    vals = {0: [], 1: []}
    for p in logs:
        for line in open(p):
            x = [s.strip() for s in line.split(',')]
            if len(x) >= 3 and x[2] in ('0', '1'):
                vals[int(x[2])].append(int(x[1]))
    for k, d in ((0, 'read'), (1, 'write')):
        lat = j[d]['lat_ns']
        got = (lat['min'], lat['max'])
        want = (min(vals[k]), max(vals[k])) if vals[k] else None
        print(('ok: ' if got == want and len(vals[k]) == j[d]['total_ios'] else 'FAIL: ') +
              '%s fast1 %s lat_ns min/max %s = its own %d logged I/Os\' %s (%d logs)' %
              (t, d, got, len(vals[k]), want, len(logs)))
    r, wr = j['read']['lat_ns'], j['write']['lat_ns']
    tr = (r['min'], r['max'], round(r['mean']))
    tw = (wr['min'], wr['max'], round(wr['mean']))
    print(('ok: ' if tr != tw else 'FAIL: ') + '%s fast1 read lat %s, write lat %s differ' % (t, tr, tw))
PYEOF
while read -r line; do
  case "$line" in ok:*) pass "${line#ok: }" ;; *) fail "${line#FAIL: }" ;; esac
done <checks.txt
finish
