#!/usr/bin/env bash
# The per-interval series adds up to the total I/O count exactly
# (docs/json-schema.md), whatever pauses, ramps or phase switches occur: every
# I/O counted in the total is in exactly one series point. Each case runs
# several times, since a race at a phase switch shows only in some runs.
source "$(dirname "$0")/lib.sh"
F=$WORK/t.dat
REPS=${SERIES_REPS:-3}

# exact: the points' integer counts add up to the total, per direction too,
# and to the sum over threads (the independent sum is done here, in Python)
exact() {
  $PY - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pts = d["series"]["points"]
tot = d["total"]["total"]["ios"]
# each point's count from its rate x duration (exact to ~1e-12, so rounding
# recovers the integer), and its integer "ios" must say the same
cnt = [round(p["iops"] * p["dur_s"]) for p in pts]
s = sum(cnt)
same = all(p.get("ios") == c for p, c in zip(pts, cnt))
th = sum(t["total"]["ios"] for t in d["threads"])
rd = sum(round(p["read_iops"] * p["dur_s"]) for p in pts)
wr = sum(round(p["write_iops"] * p["dur_s"]) for p in pts)
ok = same and tot > 0 and s == tot == th and rd == d["total"]["read"]["ios"] and wr == d["total"]["write"]["ios"]
print("total %d series %d threads %d read %d/%d write %d/%d points %d" %
      (tot, s, th, rd, d["total"]["read"]["ios"], wr, d["total"]["write"]["ios"], len(pts)))
sys.exit(0 if ok else 1)
PY
}

# case NAME ARGS...: REPS runs, each checked by check_result.py and exact()
case_runs() {
  local name=$1; shift
  local good=0
  for i in $(seq 1 "$REPS"); do
    if "$IOMARK" run "$@" --output-format=json --output=$WORK/s.json --quiet $F >$WORK/out 2>$WORK/err \
       && $CHECK $WORK/s.json && exact $WORK/s.json; then
      good=$((good + 1))
    else
      echo "run $i of $name: $(head -c 300 $WORK/err)"
    fi
  done
  [ "$good" = "$REPS" ] && pass "$name: series == total in $good/$REPS runs" || fail "$name: series == total in only $good/$REPS runs"
}

expect_status 0 "create target" -- "$IOMARK" run --size=16M --runtime=100ms --quiet $F

# bursts with pauses (fio's thinktime), ending inside a pause and inside a burst
case_runs "null thinktime bursts" --ioengine=null --iodepth=8 --thinktime=200ms --thinktime_blocks=1000 --runtime=1100ms
case_runs "null thinktime, long bursts" --ioengine=null --iodepth=16 --thinktime=100ms --thinktime_blocks=20000 --runtime=500ms
case_runs "file thinktime bursts" --iodepth=4 --thinktime=50ms --thinktime_blocks=200 --runtime=1200ms
# warm-up to measured switch (and measured to cool-down) under full load
case_runs "null ramp_time" --ioengine=null --ramp_time=1 --runtime=1 --iodepth=16
case_runs "null short ramp, 100 ms points" --ioengine=null --ramp_time=200ms --runtime=500ms --iodepth=16 --series_interval=100ms
case_runs "null ramp, cooldown, 2 threads, 300 ms points" --ioengine=null --ramp_time=300ms --cooldown_time=300ms \
  --numjobs=2 --iodepth=8 --runtime=1 --series_interval=300ms
case_runs "file ramp_time randrw" --rw=randrw --iodepth=8 --ramp_time=300ms --runtime=700ms
case_runs "file ramp, thinktime, cooldown" --iodepth=4 --ramp_time=300ms --thinktime=30ms --thinktime_blocks=100 \
  --cooldown_time=200ms --runtime=700ms
# few I/Os in a point: its p99 is its slowest I/O, and the histogram bucket's
# value lay past the run's max in 4 of 6 such runs before it was bounded
# (check_result.py: min <= each point's p99 <= max)
case_runs "file paced 90/s, one 1 s point" --iodepth=1 --rate_iops=90 --runtime=1s
# the phases last what was asked, to the nanosecond the JSON carries, however
# late the main thread wakes: the workers count by the scheduled window and
# stop at the scheduled end of the cool-down
good=0
for i in $(seq 1 "$REPS"); do
  "$IOMARK" run --ioengine=null --iodepth=8 --ramp_time=300ms --runtime=700ms --cooldown_time=200ms \
    --output-format=json --output=$WORK/p.json --quiet $F 2>/dev/null || continue
  $PY -c "import json,sys; du=json.load(open(sys.argv[1]))['duration']; print(du); sys.exit(0 if abs(du['warmup_s']-0.3)<1e-6 and abs(du['measured_s']-0.7)<1e-6 and abs(du['cooldown_s']-0.2)<1e-6 else 1)" $WORK/p.json && good=$((good + 1))
done
[ "$good" = "$REPS" ] && pass "warm-up 0.3 s, measured 0.7 s, cool-down 0.2 s exactly in $good/$REPS runs" || fail "phase lengths exact in only $good/$REPS runs"
finish
