#!/usr/bin/env bash
# `iomark sweep` stopped by Ctrl-C (SIGINT) during its second point (of 4):
# exit 130; the text says it was interrupted, how many points were measured
# and which point was dropped (partial), lists only the first point, and does
# not judge the knee on an incomplete sweep (no "none found; IOPS still grow").
# The signal is sent once the progress line (--status-interval) shows the
# second point running (warm-up or measuring, not its "done" line), not after
# a fixed sleep alone; each point runs 6 s, so that the signal comes inside
# it on a loaded machine (at load 45 a 3 s point ended before the signal and
# the sweep exited 0).
source "$(dirname "$0")/lib.sh"
cd "$WORK"
"$IOMARK" sweep --iodepth=1,2,4,8 --rw=randread --bs=4k --size=8M --runtime=6s --ioengine=psync \
  --status-interval=1 --output="$WORK/s.txt" "$WORK/a.dat" 2>"$WORK/prog" &
pid=$!
for i in $(seq 1 1200); do
  grep -qE "T1 Q2: (warm-up|measuring)" "$WORK/prog" && break
  sleep 0.05
done
grep -qE "T1 Q2: (warm-up|measuring)" "$WORK/prog" || fail "progress never showed point T1 Q2 running: $(cat "$WORK/prog")"
sleep 0.2
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] && pass "interrupted sweep exits 130" || fail "exit $rc, wanted 130"
grep -qF "INTERRUPTED by SIGINT: 1 of 4 points measured; point T1 Q2 on $WORK/a.dat was stopped part-way and dropped" "$WORK/s.txt" \
  && pass "text names the interruption and the dropped point" || fail "text: $(cat "$WORK/s.txt")"
grep -q "^knee: not judged, sweep interrupted" "$WORK/s.txt" && ! grep -q "none found" "$WORK/s.txt" \
  && pass "knee not judged on the incomplete sweep" || fail "knee line: $(grep knee: "$WORK/s.txt")"
rows=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/' "$WORK/s.txt")
[ "$(echo "$rows" | awk '{print $1, $2}')" = "1 1" ] && pass "only point 1 x 1 listed" || fail "rows: $rows"

# the JSON document names the signal too (interrupted_by, as a run's), and so
# does the HTML report of it
"$IOMARK" sweep --iodepth=1,2 --rw=randread --bs=4k --size=8M --runtime=6s --ioengine=psync \
  --status-interval=1 --output-format=json --output="$WORK/s.json" "$WORK/a.dat" 2>"$WORK/prog2" &
pid=$!
for i in $(seq 1 1200); do grep -qE "T1 Q2: (warm-up|measuring)" "$WORK/prog2" && break; sleep 0.05; done
grep -qE "T1 Q2: (warm-up|measuring)" "$WORK/prog2" || fail "progress never showed point T1 Q2 running: $(cat "$WORK/prog2")"
sleep 0.2
kill -INT $pid
rc=0; wait $pid || rc=$?
$PY - "$WORK/s.json" "$WORK/a.dat" <<'PY' && [ "$rc" = 130 ] && pass "JSON: status interrupted, interrupted_by SIGINT" || fail "exit $rc; $(head -c 300 "$WORK/s.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "interrupted" and d["interrupted_by"] == "SIGINT", (d["status"], d.get("interrupted_by"))
# stopped in point 1 x 2 (the progress showed it): only 1 x 1 measured, 1 x 2 dropped
assert d["planned_points"] == 2 and [(p["threads"], p["iodepth"]) for p in d["points"]] == [(1, 1)], d["points"]
assert d["dropped_point"] == {"target": sys.argv[2], "threads": 1, "iodepth": 2}, d.get("dropped_point")
PY
# sweep --replay of the interrupted document reruns its whole grid, the dropped point too
"$IOMARK" sweep --replay "$WORK/s.json" --runtime=200ms --quiet --output-format=json --output="$WORK/r.json" 2>/dev/null \
  && $PY - "$WORK/r.json" "$WORK/a.dat" <<'PY' && pass "replay of the interrupted sweep: both planned points, 1 x 1 and 1 x 2" || fail "replay: $(head -c 300 "$WORK/r.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "ok" and d["planned_points"] == 2 and d["grid"] == {"threads": [1], "iodepth": [1, 2]}, d["grid"]
assert [(p["target"], p["threads"], p["iodepth"]) for p in d["points"]] == [(sys.argv[2], 1, 1), (sys.argv[2], 1, 2)]
PY
# the HTML says what the text says: how many points, which one was dropped
"$IOMARK" report -o "$WORK/s.html" "$WORK/s.json" >/dev/null 2>&1 &&
  grep -qF "source sweep interrupted (SIGINT): 1 of 2 points measured; point T1 Q2 on $WORK/a.dat was stopped part-way and dropped" "$WORK/s.html" \
  && pass "HTML report: interrupted (SIGINT), 1 of 2 points, the dropped one named" || fail "HTML: $(grep -o 'source [^<]*' "$WORK/s.html" | head -2)"
finish
