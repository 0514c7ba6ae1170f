#!/bin/bash
# test_fio_steady.sh - fio's steady state in job files (ss / ss_dur / ss_ramp,
# stats/steady.h): a paced null job (rate_iops=2000: steady by construction)
# reaches its criterion and ends long before runtime; the JSON's "steadystate"
# object has fio 3.33's layout, and its criterion is recomputed here from its
# own data arrays by an independent formula (python's statistics); an
# unreachable limit runs the whole runtime with attained 0; fio 3.33 runs the
# same file and agrees on the verdicts. Times: only loose upper bounds.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
cat >ss.fio <<'JOB'
[global]
ioengine=null
size=1g
rw=randread
time_based
runtime=40
rate_iops=2000
[dev]
ss=iops:50%
ss_dur=3s
[slope]
new_group
ss=bw_slope:20%
ss_dur=4
ss_ramp=1
[never]
new_group
runtime=3
ss=iops_slope:0%
ss_dur=2
JOB
"$IOMARK" run ss.fio --output-format=json --output=i.json 2>i.err || fail "ss.fio: $(cat i.err)"
cat >check.py <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
out = []
for j in d["jobs"]:
    s = j["steadystate"]
    crit, pct = s["ss"].split(":")[0], s["ss"].endswith("%")
    y = s["data"]["iops"] if crit.startswith("iops") else s["data"]["bw"]
    n = len(y)
    if crit.endswith("_slope"):
        v = statistics.linear_regression(range(n), y).slope
        v = 100.0 * v / (sum(y) // n) if pct else v
    else:
        m = sum(y) / n
        v = max(abs(a - m) for a in y)
        v = 100.0 * v / m if pct else v
    got = float(s["criterion"].rstrip("%"))
    ok = abs(got - v) <= 1e-5 + 1e-4 * abs(v)
    out.append(f"{j['jobname']}:{s['ss']}:{s['duration']}:{n}:{s['attained']}:{'same' if ok else f'{got}!={v}'}:{j['job_runtime']}")
print(" ".join(out))
PY
got=$("$PY" check.py i.json)
echo "iomark: $got"
set -- $got
case "$1" in dev:iops:50.000000%:3:3:1:same:*) pass "dev: iops:50% attained, criterion = python's from the data ($1)" ;; *) fail "dev: $1" ;; esac
case "$2" in slope:bw_slope:20.000000%:4:4:1:same:*) pass "slope: bw_slope:20% attained, criterion = python's ($2)" ;; *) fail "slope: $2" ;; esac
case "$3" in never:iops_slope:0.000000%:2:2:0:same:*) pass "never: iops_slope:0% not attained, criterion = python's ($3)" ;; *) fail "never: $3" ;; esac
rt1=${1##*:}; rt2=${2##*:}; rt3=${3##*:}
[ "$rt1" -lt 30000 ] && [ "$rt2" -lt 30000 ] && pass "attained jobs ended before runtime=40 ($rt1, $rt2 ms)" \
  || fail "attained jobs ran $rt1, $rt2 ms"
[ "$rt3" -ge 2900 ] && pass "the job that never attains runs its runtime ($rt3 ms)" || fail "never: $rt3 ms"
[ "$rt2" -ge 5000 ] && pass "ss_ramp=1: 4 samples from 2 s on end the job at 5 s or later ($rt2 ms)" \
  || fail "slope ended at $rt2 ms, before ss_ramp + 1 s + 4 samples"
"$IOMARK" run ss.fio >n.txt 2>/dev/null || true
[ "$(grep -c '^  steadystate  : attained=' n.txt)" = 3 ] && grep -q "attained=no,.*iops slope=" n.txt \
  && pass "normal report: fio's steadystate lines" || fail "normal report: $(grep steadystate n.txt)"
if [ "$HAVE_FIO" = 1 ]; then
  fio ss.fio --output-format=json --output=f.json >/dev/null 2>&1 || fail "fio ss.fio"
  fgot=$("$PY" check.py f.json)
  echo "fio 3.33: $fgot"
  strip() { for x in "$@"; do echo -n "${x%:*:*} "; done; }
  [ "$(strip $fgot)" = "$(strip $got)" ] && pass "fio 3.33 agrees: $(strip $fgot)" \
    || fail "fio 3.33: $(strip $fgot); iomark: $(strip $got)"
fi
printf '[x]\nioengine=null\nsize=1m\nss=foo:1\nss_dur=2\n' >bad.fio
expect_status 2 "ss=foo:1 refused" -- "$IOMARK" run bad.fio --output-format=json --output=bad.json
expect_err_has "ss=foo:1"
[ ! -e bad.json ] && pass "nothing written for the refused file" || fail "bad.json written"
finish
