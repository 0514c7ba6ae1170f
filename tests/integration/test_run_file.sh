#!/usr/bin/env bash
# Real runs on a temporary file: JSON valid against the schema and the
# arithmetic holds for each engine; pacing hits its rate; text output sane.
source "$(dirname "$0")/lib.sh"
F=$WORK/t.dat

for eng in io_uring libaio psync null; do
  expect_status 0 "randread $eng QD8" -- "$IOMARK" run --ioengine=$eng --iodepth=8 --size=32M --runtime=1 \
    --output-format=json --output=$WORK/$eng.json --quiet $F
  # a device shared with other work can do under 100 I/Os in that second (57 seen for
  # psync); the arithmetic checks need some I/Os, not a device speed
  if $CHECK $WORK/$eng.json --bs 4096 --min-ios $([ $eng = null ] && echo 100 || echo 10); then pass "$eng result checks"; else fail "$eng result checks"; fi
done
# the file was created at the size asked for and filled (not sparse)
[ "$(stat -c %s $F)" = 33554432 ] && pass "file created at 32 MiB" || fail "file size $(stat -c %s $F)"
[ $(( $(stat -c %b $F) * $(stat -c %B $F) )) -ge 33554432 ] && pass "file fully allocated" || fail "file is sparse"

# mixed 70/30, two threads, warm-up and cool-down excluded from the measured time;
# the workers stop at the scheduled end of the cool-down themselves, so it lasts
# what was asked however late the main thread wakes (0.745 s seen when it did not)
expect_status 0 "randrw 70/30 numjobs 2" -- "$IOMARK" run --rw=randrw --rwmixread=70 --numjobs=2 --iodepth=4 \
  --bs=8k --ramp_time=500ms --cooldown_time=500ms --runtime=2 --output-format=json --output=$WORK/mix.json --quiet $F
$CHECK $WORK/mix.json --bs 8192 --min-ios 100 && pass "mixed result checks" || fail "mixed result checks"
$PY - $WORK/mix.json <<'PY' && pass "mix near 70% reads, phases timed" || fail "mix or phases"
import json, sys
d = json.load(open(sys.argv[1]))
r, t = d["total"]["read"]["ios"], d["total"]["total"]["ios"]
du = d["duration"]
ok = abs(r / t - 0.70) < 0.05 and abs(du["measured_s"] - 2) < 0.1 and abs(du["warmup_s"] - 0.5) < 0.1 \
     and abs(du["cooldown_s"] - 0.5) < 1e-6 and len(d["threads"]) == 2
print(r / t, du)
sys.exit(0 if ok else 1)
PY

# two targets, two threads each: per-target and per-thread figures add up
expect_status 0 "two targets" -- "$IOMARK" run --numjobs=2 --iodepth=4 --size=16M --runtime=1 \
  --output-format=json --output=$WORK/two.json --quiet $F $WORK/second.dat
$CHECK $WORK/two.json --bs 4096 && pass "two-target result checks" || fail "two-target result checks"
$PY -c "import json,sys; d=json.load(open('$WORK/two.json')); sys.exit(0 if len(d['targets'])==2 and len(d['threads'])==4 and all(t['total']['ios']>0 for t in d['targets']) else 1)" \
  && pass "2 targets x 2 threads reported" || fail "target/thread breakdown"
# resolved sizes are echoed in bytes
expect_status 0 "sizes echoed" -- "$IOMARK" run --bs=8Ki --size=1.5M --runtime=1 --quiet $F
grep -q "block size 8192 B" $WORK/out && grep -q "region 1572864 B" $WORK/out && pass "resolved bytes echoed" || fail "no resolved bytes: $(head -3 $WORK/out)"

# pacing: 2 threads x 250 IOPS for 3 s. Thread I/O k is due at k / 250 s, so the
# schedule (the rate, not iomark) allows at most 750 per thread in the window: a
# pacer that runs ahead fails (and the series adds up to the total). Fewer is
# what a stalled machine does (a thread that gets no CPU near the end cannot
# issue what falls due then; 1066 of 1500 seen with ASan under two CPU burners),
# so the floor is half the schedule, still far from the null engine's unpaced
# millions. On the null engine: a shared disk may not sustain 500 IOPS.
expect_status 0 "rate_iops 250 x 2 threads" -- "$IOMARK" run --ioengine=null --rate_iops=250 --numjobs=2 --iodepth=4 --runtime=3 \
  --output-format=json --output=$WORK/rate.json --quiet $F
$CHECK $WORK/rate.json --bs 4096 --min-ios 750 && pass "paced result checks" || fail "paced result checks"
$PY - $WORK/rate.json <<'PY' && pass "paced I/O count within the schedule" || fail "paced I/O count"
import json, sys
d = json.load(open(sys.argv[1]))
per = [t["total"]["ios"] for t in d["threads"]]
ok = len(per) == 2 and all(n <= 750 for n in per) and sum(per) >= 750
pts = [(p["t_s"], p["ios"]) for p in d["series"]["points"]]
print(per, pts)
sys.exit(0 if ok and sum(n for _, n in pts) == sum(per) else 1)
PY

# coordinated omission: asked for far more IOPS than the engine can do, the
# backlog must show in the latency (measured from each I/O's intended start).
# The null engine's service is CPU work, spread evenly over the run (a shared
# disk's is not: a device that is fast at first and then stalls front-loads the
# completions and no bound on the mean holds). Scheduled at 10^9 IOPS, the
# k-th I/O is due at k ns; at most ~10^7 I/Os in 1 s are due within the first
# 10 ms, yet they complete throughout the second, so the mean is hundreds of
# ms where the service time (the unpaced mean) is well under a microsecond.
expect_status 0 "null unpaced" -- "$IOMARK" run --ioengine=null --runtime=1 --output-format=json --output=$WORK/u.json --quiet $F
expect_status 0 "null paced over capacity" -- "$IOMARK" run --ioengine=null --rate_iops=1000000000 --runtime=1 \
  --output-format=json --output=$WORK/p.json --quiet $F
$PY - $WORK/u.json $WORK/p.json <<'PY' && pass "backlog shows in paced latency" || fail "paced latency hides the backlog"
import json, sys
u = json.load(open(sys.argv[1]))["total"]["total"]
p = json.load(open(sys.argv[2]))["total"]["total"]
print(u["lat_us"]["mean"], p["lat_us"]["mean"], p["iops"])
sys.exit(0 if p["iops"] < 5e8 and p["lat_us"]["mean"] > 100000 and p["lat_us"]["mean"] > 1000 * u["lat_us"]["mean"] else 1)
PY

# bursts (fio's thinktime): 1000 I/Os, then a 1 s pause. A null-engine burst
# takes about a millisecond, so in 2.5 s bursts start at 0, 1 and 2 s: 3 bursts
# of 1000 (the configuration, not iomark, gives 3000). Each pause starts when
# its burst has drained, so bursts drift by however long the machine keeps
# the thread waiting: the run ends 500 ms from the nearest burst start, room
# for 250 ms of drift per burst on a busy machine (the 4th can only be later).
expect_status 0 "thinktime bursts" -- "$IOMARK" run --ioengine=null --iodepth=8 --thinktime=1s --thinktime_blocks=1000 \
  --runtime=2500ms --output-format=json --output=$WORK/burst.json --quiet $F
$CHECK $WORK/burst.json --bs 4096 --expect-ios 3000 --tol 0.001 && pass "3 bursts of 1000 I/Os" || fail "burst count"

# sequential write, 1 MiB blocks, write-through
expect_status 0 "seq write dsync" -- "$IOMARK" run --rw=write --bs=1M --sync=dsync --runtime=1 \
  --output-format=json --output=$WORK/w.json --quiet $F
$CHECK $WORK/w.json --bs 1048576 && pass "seq write checks" || fail "seq write checks"
grep -q '"sync":\s*"dsync"' $WORK/w.json && pass "write-through recorded" || fail "dsync not recorded"

# buffered runs are labelled in text and JSON
expect_status 0 "buffered text" -- "$IOMARK" run --direct=0 --runtime=1 --quiet $F
grep -q "BUFFERED" $WORK/out && pass "text labels buffered I/O" || fail "no buffered label"
expect_status 0 "buffered json" -- "$IOMARK" run --buffered --runtime=1 --output-format=json --quiet $F
$PY -c "import json,sys; d=json.load(open('$WORK/out')); sys.exit(0 if d['spec']['io_mode']=='buffered' else 1)" \
  && pass "JSON on stdout is only the document, io_mode buffered" || fail "stdout JSON"

# an existing smaller file is extended to --size, and the report says so in one line
truncate -s 1M $WORK/small.dat
expect_status 0 "larger size on a small existing file" -- "$IOMARK" run --size=4M --runtime=200ms $WORK/small.dat
[ "$(stat -c %s $WORK/small.dat)" = 4194304 ] && [ "$(grep -c "the existing file was 1048576 bytes" $WORK/out)" = 1 ] \
  && grep -q "iomark extended it" $WORK/out && pass "extension to 4 MiB reported" || fail "extension: $(cat $WORK/out)"
expect_status 0 "same size again, JSON" -- "$IOMARK" run --size=4M --runtime=1 --output-format=json --output=$WORK/ext.json --quiet $WORK/small.dat
$CHECK $WORK/ext.json && $PY -c "import json,sys; t=json.load(open(sys.argv[1]))['targets'][0]; sys.exit(0 if 'extended_from_bytes' not in t else 1)" $WORK/ext.json \
  && pass "a file already large enough: no extension reported" || fail "extension reported on a large enough file"
truncate -s 2M $WORK/small.dat
expect_status 0 "extension in JSON" -- "$IOMARK" run --size=4M --runtime=1 --output-format=json --output=$WORK/ext.json --quiet $WORK/small.dat
$CHECK $WORK/ext.json && $PY -c "import json,sys; t=json.load(open(sys.argv[1]))['targets'][0]; sys.exit(0 if t['extended_from_bytes'] == 2097152 and not t['created'] else 1)" $WORK/ext.json \
  && pass "JSON extended_from_bytes 2097152" || fail "JSON extension: $(head -c 600 $WORK/ext.json)"

# an existing larger file is never truncated by a smaller --size
expect_status 0 "smaller size on existing file" -- "$IOMARK" run --size=4M --runtime=1 --quiet $F
[ "$(stat -c %s $F)" = 33554432 ] && pass "existing file not truncated" || fail "file truncated"

# text output: units in headers, percentile table with sample count
expect_status 0 "text output" -- "$IOMARK" run --runtime=1 --quiet $F
for h in "IOPS" "MB/s" "MiB/s" "p99(us)" "p99.9999" "samples" "CPU"; do
  grep -qF "$h" $WORK/out && pass "text has $h" || fail "text lacks $h"
done
finish
