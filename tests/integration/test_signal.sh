#!/usr/bin/env bash
# SIGINT / SIGTERM mid-run: results gathered so far, marked interrupted,
# valid JSON, exit 130 / 143; a text report is printed too.
source "$(dirname "$0")/lib.sh"
F=$WORK/s.dat
# wait_running PID: until the run's worker threads exist (the measured phase,
# or the warm-up, starts as they are set up), instead of assuming how long
# start-up takes on a busy machine or in a sanitizer build; 60 s at most
wait_running() {
  local n
  for _ in $(seq 600); do
    n=$(awk '/^Threads:/ {print $2}' /proc/$1/status 2>/dev/null || true)
    [ "${n:-0}" -ge 2 ] && return 0
    sleep 0.1
  done
  echo "process $1 never started its workers"; return 1
}
"$IOMARK" run --size=16M --runtime=1 --quiet $F >/dev/null
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 130 || echo 143)
  "$IOMARK" run --runtime=60 --iodepth=4 --output-format=json --output=$WORK/$sig.json --quiet $F &
  pid=$!
  wait_running $pid
  sleep 1.5
  kill -$sig $pid
  rc=0; wait $pid || rc=$?
  [ $rc = $want ] && pass "SIG$sig exit $rc" || fail "SIG$sig exit $rc, wanted $want"
  $CHECK $WORK/$sig.json --bs 4096 --status interrupted --min-ios 10 && pass "SIG$sig JSON valid" || fail "SIG$sig JSON"
  $PY - $WORK/$sig.json $sig <<'PY' && pass "SIG$sig measured about 1.5 s" || fail "SIG$sig measured time"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["duration"]["measured_s"]
print(s, d.get("interrupted_by"))
sys.exit(0 if 1.0 < s < 3.0 and d["interrupted_by"] == "SIG" + sys.argv[2] else 1)
PY
done
# text mode prints the partial report on stdout
"$IOMARK" run --runtime=60 --quiet $F > $WORK/text.out &
pid=$!
wait_running $pid
sleep 1.2
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] && pass "text run exit 130" || fail "text run exit $rc"
grep -qE "^  measured [0-9.]+ s \(.*\)  INTERRUPTED by SIGINT: partial results$" $WORK/text.out && grep -q "IOPS" $WORK/text.out \
  && pass "partial text report, the signal named as in mark's" || fail "no partial report: $(cat $WORK/text.out)"
# the progress line's last word on an interrupted run is the signal, not "done"
# (its figures are the partial ones the table shows; no eta: nothing is left)
"$IOMARK" run --runtime=60 --status-interval=1 $F > $WORK/prog.out 2> $WORK/prog.err &
pid=$!
wait_running $pid
sleep 2.5
kill -INT $pid
rc=0; wait $pid || rc=$?
last=$(grep "^run 1/1 " $WORK/prog.err | tail -1)
grep -qE "^run 1/1 .*s\.dat: interrupted by SIGINT, partial: [0-9]+ IOPS, [0-9.]+ MiB/s$" <<<"$last" &&
  ! grep -q ": done" $WORK/prog.err && [ $rc = 130 ] &&
  pass "progress ends 'interrupted by SIGINT' with the partial figures: $last" ||
  fail "progress of an interrupted run (exit $rc): $(tail -3 $WORK/prog.err)"
# interrupted during warm-up: still a valid document, nothing measured
"$IOMARK" run --ramp_time=30 --runtime=10 --output-format=json --output=$WORK/ramp.json --quiet $F &
pid=$!
wait_running $pid
sleep 1
kill -INT $pid
rc=0; wait $pid || rc=$?
[ $rc = 130 ] && pass "warm-up interrupt exit 130" || fail "warm-up interrupt exit $rc"
$CHECK $WORK/ramp.json --status interrupted --min-ios 0 && pass "warm-up interrupt JSON valid" || fail "warm-up JSON"
# SIGHUP during the cool-down: the measured phase is complete, the document valid, exit 129
"$IOMARK" run --runtime=1 --cooldown_time=30 --output-format=json --output=$WORK/hup.json --quiet $F &
pid=$!
wait_running $pid
sleep 2
kill -HUP $pid
rc=0; wait $pid || rc=$?
[ $rc = 129 ] && pass "SIGHUP in cool-down exit 129" || fail "SIGHUP exit $rc"
$CHECK $WORK/hup.json --bs 4096 --status interrupted && pass "cool-down interrupt JSON valid" || fail "cool-down JSON"
$PY - $WORK/hup.json <<'PY' && pass "measured phase complete, cool-down cut" || fail "phases after SIGHUP"
import json, sys
d = json.load(open(sys.argv[1]))
du = d["duration"]
sys.exit(0 if abs(du["measured_s"] - 1) < 0.05 and 0.5 < du["cooldown_s"] < 5 and d["interrupted_by"] == "SIGHUP" else 1)
PY
finish
