#!/usr/bin/env bash
# `iomark mark` stopped by Ctrl-C (SIGINT) during a counted run: as `run
# --repeat`, the partial run stays in each_run with "status": "interrupted"
# and "counted": false, is in no figure (best, mean, min-max), and the text
# table marks it; a direction whose only run was interrupted reports no
# figure ("-" in text, null in JSON). The signal is sent once the progress
# line (--status-interval) shows the wanted run measuring with figures, not
# after a fixed sleep. Expected values are read from the document's own runs.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
# mark_until WHAT OPTS... : start a mark (2 runs of 8 s after a 1 s
# preparation run), wait until its progress shows WHAT measuring with figures
# (the runner's first rates come a second into the run: I/O has been done, on
# however busy a machine), send SIGINT; exit status in $rc. The runs are 8 s,
# not 3: on a loaded machine (ASan, a dozen tests on two cores) a run's start
# has taken over a second, so a 3 s run could pass with no line with figures
# ("measuring 1/3 s [eta ..]", then "finishing") and end before the signal.
mark_until() {
  local what=$1; shift
  local want="SEQ1M Q8T1 read $what: measuring [0-9]+/8 s, "
  : >"$WORK/prog"
  "$IOMARK" mark --runs=2 --prepare=1s --pause=0 --runtime=8s --size=32M --status-interval=1 \
    "$@" "$WORK" 2>"$WORK/prog" &
  local pid=$! start=$SECONDS alive=yes
  # a wall-clock budget, not a count of polls: on a loaded machine (CTest
  # running a dozen tests on two cores, ASan) the polls themselves slow down
  # and the preparation (file fill + 1 s run) has taken over a minute
  while [ $((SECONDS - start)) -lt 200 ]; do
    grep -qE "$want" "$WORK/prog" && break
    kill -0 $pid 2>/dev/null || { alive=no; break; }
    sleep 0.05
  done
  grep -qE "$want" "$WORK/prog" ||
    fail "progress never showed '$want' in $((SECONDS - start)) s (iomark still running: $alive): $(cat "$WORK/prog")"
  kill -INT $pid
  rc=0; wait $pid || rc=$?
}

# A: stopped in run 1/2: the only counted run is partial
mark_until "run 1/2" --output-format=json --output="$WORK/a.json"
[ "$rc" = 130 ] && pass "interrupted mark exits 130" || fail "exit $rc, wanted 130"
$PY - "$WORK/a.json" <<'PY' && pass "run 1 kept as interrupted, uncounted, no figure" || fail "A: $(cat "$WORK/a.json" | head -c 3000)"
import json, os, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(os.environ["SRCDIR"] + "/docs/mark.schema.json")), cls=jsonschema.Draft202012Validator)
assert d["status"] == "interrupted" and d["interrupted_by"] == "SIGINT"
x = d["tests"][0]["read"]
runs = x["each_run"]
assert [(r["phase"], r["status"], r["counted"]) for r in runs] == \
    [("prepare", "ok", False), ("run", "interrupted", False)], runs
assert 0 < runs[1]["measured_s"] < 8 and runs[1]["ios"] > 0, runs[1]
assert x["counted_runs"] == 0 and x["mb_per_s"] is None and x["iops"] is None, x
assert x["min"] is None and x["mean"] is None and x["max"] is None, x
assert d["tests"][0]["write"] is None and d["tests"][1]["read"] is None
PY

# B: stopped in run 2/2: best, mean and min-max are run 1's alone
mark_until "run 2/2" --output-format=json --output="$WORK/b.json"
[ "$rc" = 130 ] && pass "exit 130 (run 2)" || fail "exit $rc, wanted 130"
$PY - "$WORK/b.json" <<'PY' && pass "run 2 interrupted: figures from run 1 only" || fail "B: $(cat "$WORK/b.json" | head -c 3000)"
import json, os, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(os.environ["SRCDIR"] + "/docs/mark.schema.json")), cls=jsonschema.Draft202012Validator)
x = d["tests"][0]["read"]
runs = x["each_run"]
assert [(r["phase"], r["status"], r["counted"]) for r in runs] == \
    [("prepare", "ok", False), ("run", "ok", True), ("run", "interrupted", False)], runs
r1, r2 = runs[1], runs[2]
assert r2["measured_s"] < 8 and r2["ios"] > 0
assert x["counted_runs"] == 1 and x["mb_per_s"] == r1["mb_per_s"] and x["iops"] == r1["iops"]
assert x["ios"] == r1["ios"] and x["measured_s"] == r1["measured_s"]
for k in ("min", "mean", "max"):
    assert abs(x[k]["mb_per_s"] - r1["mb_per_s"]) <= 1e-9 * r1["mb_per_s"], (k, x[k])
PY
# the importer keeps run 1 only
"$IOMARK" compare --output-format=json "$WORK/b.json" "$WORK/b.json" >"$WORK/c.json" 2>"$WORK/cerr" || fail "compare failed: $(cat "$WORK/cerr")"
$PY - "$WORK/b.json" "$WORK/c.json" <<'PY' && pass "compare imports only the counted run" || fail "compare: $(head -c 2000 "$WORK/c.json")"
import json, sys
b = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
want = b["tests"][0]["read"]["each_run"][1]["iops"]
w = [w for w in c["workloads"] if w["name"] == "SEQ1M Q8T1 read"]
assert len(w) == 1 and len(c["workloads"]) == 1, [w["name"] for w in c["workloads"]]
m = [m for m in w[0]["metrics"] if m["key"] == "iops"][0]
assert m["values"][0]["n"] == 1 and abs(m["values"][0]["mean"] - want) <= 1e-6 * want, m["values"][0]
PY

# C: text, stopped in run 1/2: "-" and the run marked
mark_until "run 1/2" --output="$WORK/c.txt"
[ "$rc" = 130 ] && pass "exit 130 (text)" || fail "exit $rc, wanted 130"
grep -q "^INTERRUPTED by SIGINT" "$WORK/c.txt" && pass "text says interrupted" || fail "text: $(cat "$WORK/c.txt")"
sed -n '/^\[Read\]/,/^\[Write\]/p' "$WORK/c.txt" | grep -A1 "^SEQ1M Q8T1" >"$WORK/row"
awk 'NR==1 {exit !($3 == "-" && $4 == "-" && $5 == "-")}' "$WORK/row" && grep -q "(run 1/2 interrupted after [0-9.]* s: not in the statistics)" "$WORK/row" \
  && pass "text row shows '-' and marks run 1/2" || fail "text row: $(cat "$WORK/row")"
[ ! -e "$WORK/iomark-test.dat" ] && pass "test file removed" || fail "test file left behind"

# D: the reader of the progress lines goes away (`... 2>&1 | head -1`): the
# next line's write fails with SIGPIPE, which stops the run as Ctrl-C does
# (exit 128 + 13) instead of killing iomark with its 32 MiB test file left
# (141c9a5 left it). The document names the signal.
set +e
"$IOMARK" mark --runs=2 --prepare=1s --pause=0 --runtime=8s --size=32M --status-interval=1 \
  --output-format=json --output="$WORK/d.json" "$WORK" 2>&1 | head -1 >"$WORK/d.first"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 141 ] && pass "closed reader: exit 141" || fail "closed reader: exit $rc, wanted 141 (first line: $(cat "$WORK/d.first"))"
[ ! -e "$WORK/iomark-test.dat" ] && pass "closed reader: test file removed" || fail "closed reader: test file left behind"
$PY - "$WORK/d.json" <<'PY' && pass "closed reader: document says SIGPIPE" || fail "D: $(head -c 2000 "$WORK/d.json")"
import json, os, sys
import jsonschema
d = json.load(open(sys.argv[1]))
jsonschema.validate(d, json.load(open(os.environ["SRCDIR"] + "/docs/mark.schema.json")), cls=jsonschema.Draft202012Validator)
assert d["status"] == "interrupted" and d["interrupted_by"] == "SIGPIPE", (d["status"], d.get("interrupted_by"))
PY
finish
