#!/bin/bash
# test_fio_lattarget.sh - fio's latency_target / latency_window /
# latency_percentile / latency_run in job files (core/lattarget.h), against
# fio 3.33's own run of the same job files where fio is installed, and against
# what the search must find on devices whose answer is known:
#   - ioengine=null (completions in well under 1 s): every window passes a 1 s
#     target, so the depth is the iodepth, and the search ends the job after
#     its windows (1 2 4 8 16, then the final window: 6 x 100 ms), long before
#     runtime=30;
#   - O_DIRECT reads (a few us at least: a system call and a block request) miss
#     a 1 us target: with latency_percentile=50 every window fails and the depth
#     stays 1 (the job runs its runtime); with the default 100 the first miss at
#     depth 1 fails the job with ETIMEDOUT (110), fio's lat_fatal.
# JSON fields as fio 3.33: latency_target in ns, latency_window in us.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
head -c 4194304 /dev/urandom >data.bin
j() { "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); x=d['jobs'][0]; print($2)" "$1"; }

cat >null.fio <<JOB
[n]
ioengine=null
size=1g
rw=randread
iodepth=16
latency_target=1s
latency_window=100ms
time_based
runtime=30
JOB
t0=$(date +%s)
"$IOMARK" run null.fio --output-format=json --output=n.json 2>n.err || fail "null.fio: $(cat n.err)"
t1=$(date +%s)
got=$(j n.json "x['latency_depth'], x['latency_target'], x['latency_window'], x['latency_percentile'], x['error']")
[ "$got" = "16 1000000000 100000 100 0" ] && pass "null, 1 s target: depth 16 = iodepth, fields $got" \
  || fail "null, 1 s target: $got, wanted 16 1000000000 100000 100 0"
[ $((t1 - t0)) -lt 20 ] && pass "null: the search ended the job after its windows ($((t1 - t0)) s < runtime 30)" \
  || fail "null: ran $((t1 - t0)) s: the search did not end the job"
"$IOMARK" run null.fio >n.txt 2>/dev/null || true
grep -q "latency   : target=1000000000, window=100000, percentile=100.00%, depth=16" n.txt \
  && pass "normal report: fio's latency line" || fail "normal report: $(grep latency n.txt)"

cat >miss.fio <<JOB
[m]
ioengine=libaio
direct=1
filename=$WORK/data.bin
size=4m
rw=randread
iodepth=8
latency_target=1
latency_window=50ms
latency_percentile=50
time_based
runtime=1
JOB
sed -e 's/^latency_percentile=50$//' miss.fio >fatal.fio
"$IOMARK" run miss.fio --output-format=json --output=m.json 2>m.err || fail "miss.fio: $(cat m.err)"
got=$(j m.json "x['latency_depth'], x['latency_target'], x['latency_percentile'], x['error'], x['read']['total_ios'] > 0")
[ "$got" = "1 1000 50 0 True" ] && pass "1 us target, percentile 50: stays at depth 1 ($got)" \
  || fail "1 us target, percentile 50: $got, wanted 1 1000 50 0 True"
rc=0; "$IOMARK" run fatal.fio --output-format=json --output=f.json 2>f.err || rc=$?
got=$(j f.json "x['error'], x['latency_depth']")
[ "$rc" = 1 ] && [ "$got" = "110 1" ] && grep -q "exceeds specified max (1000 nsec)" f.err \
  && pass "1 us target, percentile 100: ETIMEDOUT at depth 1, exit 1 ($(head -c 120 f.err))" \
  || fail "percentile 100: exit $rc, $got, $(cat f.err)"
if [ "$HAVE_FIO" = 1 ]; then
  fio null.fio --output-format=json --output=fn.json >/dev/null 2>&1 || fail "fio null.fio"
  fio miss.fio --output-format=json --output=fm.json >/dev/null 2>&1 || fail "fio miss.fio"
  rc=0; fio fatal.fio --output-format=json --output=ff.json >/dev/null 2>&1 || rc=$?
  for p in "n.json fn.json" "m.json fm.json" "f.json ff.json"; do
    set -- $p
    a=$(j "$1" "x['latency_depth'], x['latency_target'], x['latency_window'], float(x['latency_percentile']), x['error']")
    b=$(j "$2" "x['latency_depth'], x['latency_target'], x['latency_window'], float(x['latency_percentile']), x['error']")
    [ "$a" = "$b" ] && pass "fio 3.33 agrees on $1: $b" || fail "$1: iomark $a, fio 3.33 $b"
  done
  [ "$rc" = 1 ] && pass "fio 3.33 exits 1 on fatal.fio too" || fail "fio fatal.fio exit $rc"
fi

# latency_run=1: the search keeps going, the job runs its runtime (1 s here)
sed -e 's/^runtime=30$/runtime=1/' -e 's/^iodepth=16$/iodepth=16\nlatency_run=1/' null.fio >run.fio
"$IOMARK" run run.fio --output-format=json --output=r.json 2>r.err || fail "run.fio: $(cat r.err)"
got=$(j r.json "x['job_runtime'] >= 990, x['latency_depth']")
[ "$got" = "True 16" ] && pass "latency_run=1: runs its 1 s runtime at depth 16" \
  || fail "latency_run=1: $got"

printf '[x]\nioengine=null\nsize=1m\nlatency_target=1ms\nlatency_percentile=101\n' >bad.fio
expect_status 2 "latency_percentile=101 refused" -- "$IOMARK" run bad.fio --output-format=json --output=bad.json
expect_err_has "latency_percentile=101"
[ ! -e bad.json ] && pass "nothing written for the refused file" || fail "bad.json written"
finish
