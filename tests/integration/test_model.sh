#!/usr/bin/env bash
# iomark model: fit on a recorded sweep (tests/data/model), predictions checked
# against an independent product-form computation in Python (normalising
# constants, not MVA's recursion), the burst means, determinism, --check, and
# refusals (one line, exit 2, nothing written).
source "$(dirname "$0")/lib.sh"
D=$SRCDIR/tests/data/model
SWEEP=$D/sweep_file_vda.json
export PYTHONPATH=$SRCDIR/tests/integration
[ -f "$SWEEP" ] || { echo "FAIL: $SWEEP not found (part of the repository)"; exit 1; }
FIT=$WORK/fit.json

expect_status 0 "fit on a sweep" -- "$IOMARK" model fit --output=$FIT "$SWEEP"
grep -q "fit error: IOPS rms" $WORK/out && pass "fit text" || fail "fit text: $(head -20 $WORK/out)"
cp $WORK/err $WORK/fit.err

$PY - "$SWEEP" "$FIT" $WORK/fit.err <<'PY' && pass "FIT document: S, host time, c, per-point predictions and errors; a poor fit flagged and warned" || fail "FIT document"
import json, math, sys
sw = json.load(open(sys.argv[1])); fit = json.load(open(sys.argv[2]))
assert fit["schema"] == "iomark-model" and fit["type"] == "model_fit"
pts = [p for p in sw["points"] if p["result"]["status"] == "ok"]
# the lowest-load point: fewest outstanding I/O, then fewest threads
low = min(pts, key=lambda p: (p["threads"] * p["iodepth"], p["threads"]))
tot = low["result"]["total"]["total"]
dev = fit["device"]
S = tot["lat_us"]["mean"]
assert abs(dev["service_mean_us"] - S) < 1e-6 * S, (dev["service_mean_us"], S)
N = low["threads"] * low["iodepth"]
z = max(0.0, N / tot["iops"] * 1e6 - S)
assert abs(dev["host_us_per_io"] - z) < 1e-6 * max(z, 1), (dev["host_us_per_io"], z)
q = dev["service_quantiles"]
assert q[0]["p"] == 0 and abs(q[0]["us"] - tot["lat_us"]["min"]) < 1e-9
assert q[-1]["p"] == 100 and abs(q[-1]["us"] - tot["lat_us"]["max"]) < 1e-9
c = dev["parallelism"]; assert c >= 1
lim = fit["limits"]
L = min([v for v in (lim["adapter_queue"], lim["lun_queue"],
                     (lim["nr_requests"] or 0) * (lim["nr_hw_queues"] or 1)) if v] or [0])
assert (lim["effective"] or 0) == L

from model_pf import product_form

sse = 0
for fp in fit["points"]:
    X, R = product_form(S * 1e-6, c, z * 1e-6, L, fp["threads"], fp["threads"] * fp["iodepth"])
    assert abs(fp["predicted"]["iops"] - X) < 1e-6 * X, (fp, X)
    assert abs(fp["predicted"]["lat_mean_us"] - R * 1e6) < 1e-6 * R * 1e6, (fp, R)
    e = 100 * (fp["predicted"]["iops"] - fp["measured"]["iops"]) / fp["measured"]["iops"]
    assert abs(fp["error_pct"]["iops"] - e) < 1e-9
    sse += math.log(X / fp["measured"]["iops"]) ** 2
# c is the least-squares optimum: nearby values are no better
for f in (0.9, 1.1):
    s2 = sum(math.log(product_form(S * 1e-6, max(1, c * f), z * 1e-6, L, fp["threads"],
             fp["threads"] * fp["iodepth"])[0] / fp["measured"]["iops"]) ** 2 for fp in fit["points"])
    assert s2 >= sse - 1e-9, (f, s2, sse)
assert len(fit["points"]) == len(pts)
# the fit's rms errors from the product-form predictions against the measured points:
# above 25% (IOPS or mean latency) the fit is poor, in the document and on stderr
ex, er = [], []
for fp in fit["points"]:
    X, R = product_form(S * 1e-6, c, z * 1e-6, L, fp["threads"], fp["threads"] * fp["iodepth"])
    ex.append(100 * (X - fp["measured"]["iops"]) / fp["measured"]["iops"])
    er.append(100 * (R * 1e6 - fp["measured"]["lat_mean_us"]) / fp["measured"]["lat_mean_us"])
rms = lambda v: math.sqrt(sum(x * x for x in v) / len(v))
rx, rr = rms(ex), rms(er)
assert abs(fit["fit"]["rms_iops_error_pct"] - rx) < 1e-6 * rx and abs(fit["fit"]["rms_lat_mean_error_pct"] - rr) < 1e-6 * rr
assert rx > 25 and fit["fit"]["poor"] is True and fit["fit"]["poor_above_pct"] == 25, (rx, rr, fit["fit"])
assert fit["incomplete_sources"] == []
err = open(sys.argv[3]).read()
want = (f"iomark model: warning: fit: a poor fit: rms error over its {len(pts)} points IOPS {rx:.1f}%, "
        f"mean latency {rr:.1f}% (above 25%): the model does not describe these measurements; "
        "its predictions are not reliable\n")
assert err == want, (err, want)
PY

# a fit within 25% on both: not poor (the sweep's lowest point alone, the
# service-time point itself: 0% error by construction), and for that reason
# one warning: one outstanding-I/O level says nothing of other depths
expect_status 0 "fit on one point" -- "$IOMARK" model fit --max-outstanding=1 --output-format=json "$SWEEP"
$PY -c "import json,sys; f=json.load(open('$WORK/out'))['fit']; sys.exit(not (f['poor'] is False and abs(f['rms_iops_error_pct']) < 1e-9 and abs(f['rms_lat_mean_error_pct']) < 1e-9))" \
  && pass "one-point fit: poor false, 0% error" || fail "one-point fit: $(head -c 400 $WORK/out)"
expect_err_has "iomark model: warning: fit: its 1 point is at one outstanding-I/O level (1): the model is fitted to that level, so its error there says nothing of other depths"
# either metric counts: the IDE lab sweep's IOPS rms is under 25%, its mean latency's over
expect_status 0 "fit on the IDE lab sweep" -- "$IOMARK" model fit --output=$WORK/idefit.json "$D/lab_ide.json"
$PY - $WORK/idefit.json $WORK/err <<'PY' && pass "poor by mean latency alone (IDE lab sweep)" || fail "IDE fit: $(cat $WORK/err)"
import json, math, sys
fit = json.load(open(sys.argv[1])); err = open(sys.argv[2]).read()
p = fit["points"]
rms = lambda k, m: math.sqrt(sum((100 * (x["predicted"][k] - x["measured"][k]) / x["measured"][k]) ** 2 for x in p) / len(p))
rx, rr = rms("iops", 0), rms("lat_mean_us", 0)
assert rx < 25 < rr, (rx, rr)
assert fit["fit"]["poor"] is True
assert err.count("\n") == 1 and f"IOPS {rx:.1f}%, mean latency {rr:.1f}% (above 25%)" in err, err
PY

# a sweep stopped by SIGINT during its second point (of 3): fitted on the one point it
# has, with a warning naming the file, the signal and the points, and in the FIT
"$IOMARK" sweep --iodepth=1,2,4 --rw=randread --bs=4k --size=8M --runtime=3s --ioengine=psync \
  --status-interval=1 --output-format=json --output=$WORK/int.json $WORK/int.dat 2>$WORK/prog &
pid=$!
for i in $(seq 1 300); do grep -q "T1 Q2" $WORK/prog && break; sleep 0.05; done
sleep 0.2
kill -INT $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] && pass "sweep interrupted (exit 130)" || fail "sweep exit $rc: $(tail -3 $WORK/prog)"
expect_status 0 "fit on an interrupted sweep" -- "$IOMARK" model fit --output=$WORK/intfit.json $WORK/int.json
# two warning lines: the interrupted sweep, and its one point at one level
grep -qxF "iomark model: warning: fit: $WORK/int.json: the sweep was interrupted by SIGINT: 1 of 3 points measured; the fit uses only those" $WORK/err \
  && grep -q "^iomark model: warning: fit: its 1 point is at one outstanding-I/O level (1): " $WORK/err && [ "$(wc -l <$WORK/err)" = 2 ] \
  && pass "warnings: the interrupted sweep, one level" || fail "warnings: $(cat $WORK/err)"
$PY - $WORK/int.json $WORK/intfit.json <<'PY' && pass "FIT of the interrupted sweep: incomplete_sources names it (SIGINT, 1 of 3), one point fitted" || fail "interrupted FIT: $(head -c 600 $WORK/intfit.json)"
import json, sys
sw = json.load(open(sys.argv[1])); fit = json.load(open(sys.argv[2]))
assert sw["status"] == "interrupted" and sw["interrupted_by"] == "SIGINT" and len(sw["points"]) == 1
assert fit["incomplete_sources"] == [{"source": sys.argv[1], "status": "interrupted", "interrupted_by": "SIGINT",
                                      "points_measured": 1, "planned_points": 3}], fit["incomplete_sources"]
assert len(fit["points"]) == 1 and fit["fit"]["poor"] is False
PY

# several run documents (the sweep's points as separate files) fit the same device
$PY - "$SWEEP" $WORK <<'PY'
import json, sys
sw = json.load(open(sys.argv[1]))
for i, p in enumerate(sw["points"]):
    json.dump(p["result"], open(f"{sys.argv[2]}/run{i}.json", "w"))
PY
expect_status 0 "fit on run documents" -- "$IOMARK" model fit --output-format=json --output=$WORK/fit_runs.json $WORK/run*.json
$PY - "$FIT" $WORK/fit_runs.json <<'PY' && pass "run documents give the sweep's fit" || fail "run documents"
import json, sys
a = json.load(open(sys.argv[1]))["device"]; b = json.load(open(sys.argv[2]))["device"]
for k in ("service_mean_us", "parallelism", "host_us_per_io"):
    assert abs(a[k] - b[k]) <= 1e-9 * max(abs(a[k]), 1), (k, a[k], b[k])
PY

# prediction: closed loop, two what-ifs, JSON
expect_status 0 "predict closed loop" -- "$IOMARK" model $FIT --what-if lun_queue=8,adapter_queue=16 \
  --what-if lun_queue=254,adapter_queue=1024,parallelism=64 --workload threads=8,iodepth=8 \
  --output-format=json --output=$WORK/pred.json
$PY - "$FIT" $WORK/pred.json <<'PY' && pass "closed-loop predictions: MVA by product form, split adds up, Little" || fail "closed-loop predictions"
import json, math, sys
from model_pf import marginal
fit = json.load(open(sys.argv[1])); pr = json.load(open(sys.argv[2]))
S = fit["device"]["service_mean_us"] * 1e-6; z = fit["device"]["host_us_per_io"] * 1e-6
sc = pr["scenarios"]; assert len(sc) == 3 and pr["type"] == "model_prediction"
assert sc[1]["limits"]["effective"] == 8 and sc[2]["limits"]["effective"] == min(254, fit["limits"]["effective"] or 254)
for s in sc:
    T, N, L, c = 8, 64, s["limits"]["effective"] or 0, s["parallelism"]
    mu_d, p = marginal(S, c, z, L, T, N)
    X = sum(p[j] * mu_d(j) for j in range(1, N + 1))
    g = sum(p[j] * max(0, j - L) for j in range(N + 1)) / X if L else 0
    mva, des = s["mva"], s["des"]
    assert abs(mva["iops"] - X) < 1e-6 * X, (mva["iops"], X)
    assert abs(mva["guest_wait_us"] - g * 1e6) < 1e-6 * max(g * 1e6, 1), (mva["guest_wait_us"], g)
    for o in (mva, des):
        parts = o["guest_wait_us"] + o["queue_wait_us"] + o["device_us"]
        assert abs(parts - o["lat_mean_us"]) < 1e-6 * o["lat_mean_us"], o
    # Little's law on the simulation: N = X (latency + host time)
    assert abs(des["iops"] * (des["lat_mean_us"] + des["host_us"]) * 1e-6 - N) < 0.01 * N, des
    assert des["lat_p99_us"] >= des["device_us"] and mva["lat_p99_us"] is None
# a limit of 8 below the outstanding 64 makes I/O wait in the guest
assert sc[1]["mva"]["guest_wait_us"] > 0 and sc[1]["des"]["guest_wait_us"] > 0
PY

# burst form, and the same seed gives the same figures
expect_status 0 "burst" -- "$IOMARK" model $FIT --what-if adapter_queue=256,lun_queue=64,parallelism=512 \
  --what-if adapter_queue=1024,lun_queue=254,parallelism=512 --burst 800 --seed=7 --output-format=json --output=$WORK/b1.json
expect_status 0 "burst again" -- "$IOMARK" model $FIT --what-if adapter_queue=256,lun_queue=64,parallelism=512 \
  --what-if adapter_queue=1024,lun_queue=254,parallelism=512 --burst 800 --seed=7 --output-format=json --output=$WORK/b2.json
$PY - "$FIT" $WORK/b1.json $WORK/b2.json <<'PY' && pass "burst means (exponential closed form), 64 vs 254, deterministic" || fail "burst"
import json, math, sys
fit = json.load(open(sys.argv[1])); b1 = json.load(open(sys.argv[2])); b2 = json.load(open(sys.argv[3]))
S = fit["device"]["service_mean_us"]
for s in b1["scenarios"][1:]:
    L = s["limits"]["effective"]; k = min(L, 512); n = 800
    step = S / k
    g = sum(max(0, i - L) * step for i in range(1, n + 1)) / n
    mean = S + sum(max(0, i - k) * step for i in range(1, n + 1)) / n
    span = max(0, n - k) * step + S * sum(1 / j for j in range(1, min(n, k) + 1))
    m = s["mva"]
    assert abs(m["guest_wait_us"] - g) < 1e-6 * g and abs(m["lat_mean_us"] - mean) < 1e-6 * mean, (m, g, mean)
    assert abs(m["makespan_ms"] * 1e3 - span) < 1e-6 * span
    assert s["des"]["bursts"] >= 1 and s["des"]["ios"] == 800 * s["des"]["bursts"]
a, b = b1["scenarios"][1], b1["scenarios"][2]
assert a["limits"]["effective"] == 64 and b["limits"]["effective"] == min(254, fit["limits"]["effective"] or 254)
assert b["mva"]["lat_mean_us"] < a["mva"]["lat_mean_us"] and b["des"]["lat_p99_us"] < a["des"]["lat_p99_us"]
for x, y in zip(b1["scenarios"], b2["scenarios"]):
    assert x["des"] == y["des"] and x["mva"] == y["mva"]
PY

# 8 LUNs on one adapter: MVA per LUN with the adapter's share (256 / 8 = 32), summed
expect_status 0 "8 LUNs" -- "$IOMARK" model $FIT --what-if adapter_queue=256,lun_queue=64,parallelism=512 \
  --workload threads=8,iodepth=100,luns=8 --output-format=json --output=$WORK/luns.json
$PY - "$FIT" $WORK/luns.json <<'PY' && pass "8 LUNs: adapter share per LUN, throughput summed" || fail "8 LUNs"
import json, math, sys
fit = json.load(open(sys.argv[1])); pr = json.load(open(sys.argv[2]))
S = fit["device"]["service_mean_us"] * 1e-6; z = fit["device"]["host_us_per_io"] * 1e-6
s = pr["scenarios"][1]
assert s["workload"]["luns"] == 8
N, T, L, c = 100, 1, 32, 512          # one LUN: 100 I/Os, 1 thread, 32 adapter slots
def mu_d(j): return min(j, L, c) / S
if z > 0:
    lf_d = [0.0]; lf_h = [0.0]
    for j in range(1, N + 1):
        lf_d.append(lf_d[-1] - math.log(mu_d(j))); lf_h.append(lf_h[-1] - math.log(min(j, T) / z))
    w = [lf_d[j] + lf_h[N - j] for j in range(N + 1)]; m = max(w)
    p = [math.exp(x - m) for x in w]; t = sum(p); p = [x / t for x in p]
else:
    p = [0.0] * N + [1.0]
X = 8 * sum(p[j] * mu_d(j) for j in range(1, N + 1))
assert abs(s["mva"]["iops"] - X) < 1e-6 * X, (s["mva"]["iops"], X)
# the simulated shared adapter queue keeps 256 I/Os in service: X = 256 / S within 2%
assert abs(s["des"]["iops"] - 256 / S) < 0.02 * 256 / S, (s["des"]["iops"], 256 / S)
PY
expect_status 2 "luns must divide threads" -- "$IOMARK" model $FIT --workload threads=8,iodepth=4,luns=3
expect_err_has "luns=3 must divide threads"

# text output has both methods side by side
expect_status 0 "text" -- "$IOMARK" model $FIT --what-if lun_queue=254,adapter_queue=1024 --workload threads=8,iodepth=64
grep -q "MVA (mean)" $WORK/out && grep -q "DES (tail)" $WORK/out && grep -q "guest wait" $WORK/out \
  && pass "text table" || fail "text table: $(cat $WORK/out)"

# --check: the fit predicting the sweep's own points agrees with the FIT's predictions
expect_status 0 "check" -- "$IOMARK" model $FIT --check "$SWEEP" --output-format=json --output=$WORK/chk.json
[ ! -s $WORK/err ] && pass "check of the FIT's own sweep: no warning" || fail "check warned: $(cat $WORK/err)"
$PY - "$FIT" $WORK/chk.json <<'PY' && pass "check document" || fail "check document"
import json, sys
fit = json.load(open(sys.argv[1])); chk = json.load(open(sys.argv[2]))
assert chk["type"] == "model_check" and len(chk["points"]) == len(fit["points"])
for a, b in zip(fit["points"], chk["points"]):
    assert abs(a["predicted"]["iops"] - b["predicted"]["iops"]) < 1e-9 * a["predicted"]["iops"]
PY

# --check on documents of another target without probe limits: checked, with one warning line
# (the fixture's target ./t.dat and L = nr_requests 256 x nr_hw_queues 1, read from its probe)
$PY - "$SWEEP" $WORK/other.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    p["result"]["spec"]["targets"] = ["/dev/sdz"]
    for t in p["result"]["targets"]:
        t.pop("probe", None)
json.dump(d, open(sys.argv[2], "w"))
PY
expect_status 0 "check of another target" -- "$IOMARK" model $FIT --check $WORK/other.json
expect_err_has "iomark model: warning: --check=$WORK/other.json; target /dev/sdz, the FIT's is ./t.dat; no queue limits in its probe, so predicted with none (L = 0; the FIT's L = 256)"
grep -q "L = 0" $WORK/out && pass "check text still printed" || fail "check text: $(head -5 $WORK/out)"

# each given option or file is checked in argv order before a missing one is reported;
# mistyped names get the nearest known one (edit distance)
for args in "$FIT --what-if lun_qeue=4|--what-if=lun_qeue=4: unknown key lun_qeue; did you mean lun_queue? allowed: adapter_queue" \
            "$FIT --what-if lun_queue=abc|--what-if=lun_queue=abc: lun_queue=abc: allowed: an integer 0..1000000" \
            "$FIT --what-if parallelism=0.5|--what-if=parallelism=0.5: parallelism=0.5: allowed: a number 1..1000000" \
            "$SWEEP|not a FIT document" \
            "$WORK/nothere.json|$WORK/nothere.json: cannot read: No such file or directory" \
            "$FIT --wokload threads=1,iodepth=1|--wokload: unknown option; did you mean --workload?" \
            "$FIT --workload thread=2,iodepth=1|--workload=thread=2,iodepth=1: unknown key thread; did you mean threads?" \
            "$FIT --workload threads=3,iodepth=4,luns=2|--workload=threads=3,iodepth=4,luns=2: luns=2 must divide threads (thread t runs on LUN t % luns)" \
            "fitt $SWEEP|fitt: unknown sub-command; did you mean fit?" \
            "fit --ouput=$WORK/never.out $SWEEP|--ouput=$WORK/never.out: unknown option of 'model fit'; did you mean --output?"; do
  a=${args%%|*}; msg=${args#*|}
  # shellcheck disable=SC2086
  expect_status 2 "refused in argv order: $a" -- "$IOMARK" model $a --output=$WORK/never.out
  expect_err_has "$msg"
  grep -q -e "--workload: missing" -e "%%" $WORK/err && fail "$a: $(cat $WORK/err)" || pass "no missing-option or %% text ($a)"
  [ ! -e $WORK/never.out ] && pass "nothing written ($a)" || fail "wrote output for $a"
done

# refusals: one line naming option and value, exit 2, nothing written
for args in "--what-if lun_queue=abc --workload threads=1,iodepth=1|--what-if=lun_queue=abc: lun_queue=abc: allowed" \
            "--what-if depth=4 --workload threads=1,iodepth=1|unknown key depth" \
            "--workload threads=0,iodepth=4|--workload=threads=0,iodepth=4: allowed" \
            "--workload threads=200,iodepth=200|1 <= T x D <= 16384" \
            "--burst 0|--burst=0: allowed" \
            "--burst 800 --des-ios=5|--des-ios=5: allowed" \
            "--what-if parallelism=0.5 --burst 10|parallelism=0.5: allowed" \
            "--output-format=xml --burst 10|--output-format=xml: allowed: normal, json" \
            "|--workload: missing"; do
  a=${args%%|*}; msg=${args#*|}
  # shellcheck disable=SC2086
  expect_status 2 "refused: $a" -- "$IOMARK" model $FIT $a --output=$WORK/never.out
  expect_err_has "$msg"
  [ ! -e $WORK/never.out ] && pass "nothing written ($a)" || fail "wrote output for $a"
done
expect_status 2 "fit of a non-result" -- "$IOMARK" model fit --output=$WORK/never.json "$SRCDIR/README.md"
expect_err_has "not JSON"
expect_status 2 "fit of another tool's JSON" -- "$IOMARK" model fit --output=$WORK/never.json "$SRCDIR/tests/data/results/fio_json_1.json"
expect_err_has "not an iomark result"
# a repeat's runs are all at one depth: refused, saying how to get points at several
"$IOMARK" run --ioengine=null --runtime=100ms --size=1M --repeat=2 --quiet --output-format=json \
  --output=$WORK/rep.json $WORK/rep.dat >/dev/null 2>&1 || fail "a repeat of null runs"
expect_status 2 "fit of a repeat document" -- "$IOMARK" model fit --output=$WORK/never.json $WORK/rep.json
expect_err_has "$WORK/rep.json: type repeat; allowed: sweep, run; the model needs points at several outstanding-I/O levels: make them with iomark sweep (e.g. --iodepth=1,4,16,64)"
# a paced point (its IOPS the pacer's, not the queue's) is refused, naming the option
$PY - $WORK/run0.json $WORK <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))  # a recorded run: spec.rate_iops, no spec.options
r["spec"]["rate_iops"] = 2000
json.dump(r, open(sys.argv[2] + "/paced_iops.json", "w"))
r["spec"]["rate_iops"] = 0
r["spec"]["options"] = {"rate_iops": None, "thinktime": "5000000ns"}  # as iomark run writes it
json.dump(r, open(sys.argv[2] + "/paced_think.json", "w"))
PY
for p in "paced_iops:rate_iops=2000" "paced_think:thinktime=5000000ns"; do
  expect_status 2 "fit of a paced run (${p#*:})" -- "$IOMARK" model fit --output=$WORK/never.json $WORK/run1.json $WORK/${p%%:*}.json
  expect_err_has "$WORK/${p%%:*}.json: a paced run (${p#*:}): the model fits closed-loop points"
  [ ! -e $WORK/never.json ] && pass "nothing written (${p#*:})" || fail "wrote a FIT of a paced run"
done
expect_status 2 "a sweep is not a FIT" -- "$IOMARK" model "$SWEEP" --burst 10
expect_err_has "not a FIT document"
# damaged FIT documents are refused with the field named
$PY - "$FIT" $WORK <<'PY'
import json, sys
fit = json.load(open(sys.argv[1])); w = sys.argv[2]
def put(name, f):
    d = json.loads(json.dumps(fit)); f(d); json.dump(d, open(f"{w}/{name}.json", "w"))
put("bad_c", lambda d: d["device"].update(parallelism=0.5))
put("bad_s", lambda d: d["device"].pop("service_mean_us"))
put("bad_q", lambda d: d["device"]["service_quantiles"].reverse())
put("bad_type", lambda d: d.update(type="model_prediction"))
PY
for b in bad_c:device.parallelism bad_s:device.service_mean_us bad_q:device.service_quantiles bad_type:"not a FIT document"; do
  expect_status 2 "damaged FIT ${b%%:*}" -- "$IOMARK" model $WORK/${b%%:*}.json --burst 10
  expect_err_has "${b#*:}"
done
expect_status 2 "--check with --burst" -- "$IOMARK" model $FIT --check "$SWEEP" --burst 10
expect_err_has "not allowed with --what-if, --workload or --burst"
expect_status 2 "output folder missing" -- "$IOMARK" model $FIT --burst 10 --output=$WORK/no/such/p.json
expect_err_has "--output=$WORK/no/such/p.json: folder $WORK/no does not exist" # the first missing one
expect_status 2 "fit output folder missing" -- "$IOMARK" model fit --output=$WORK/no/f.json "$SWEEP"
expect_err_has "folder $WORK/no does not exist"
expect_status 2 "fit needs documents" -- "$IOMARK" model fit
expect_err_has "no document given"
[ ! -e $WORK/never.json ] && pass "nothing written by refused fits" || fail "refused fit wrote a file"
finish
