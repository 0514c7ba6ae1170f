#!/bin/bash
# iomark mark under mpirun (docs/mpi.md), 2 ranks on this machine, one small
# file each (%r):
# - every run of every test and direction: the document's (all hosts) I/Os
#   = the sum of the per_rank I/Os = the host row's I/Os, and its rate is
#   over the slowest rank's measured time;
# - the last run (RND4K Q1T1 write): its I/Os = the number of latencies the
#   ranks logged in check mode (IOMARK_LATENCY_LOG), its mean latency = the
#   mean of the union, its p99 = the nearest-rank p99 of the union (computed
#   here, independent of the histogram merge), within the histogram's bucket
#   width (1/64 of the value, stats/hist.h);
# - the document passes docs/mark.schema.json;
# - the text table says the figures are all hosts';
# - ranks given different marks (--runs) are refused on all ranks, exit 2;
# - a rank whose folder does not exist: every rank exits non-zero, rank 0
#   names rank 1 and its host, and the other rank's file is removed.
# - a %r target naming folders: each rank's iomark-test.RANK.dat in its own
#   folder; with rank 1's folder missing rank 1 is named (exit 2 on rank 1,
#   1 on rank 0), one "iomark mark:" prefix per line, nothing created;
# - a target ending in a lone %: one clear line, exit 2.
# - Ctrl-C on mpirun: an interrupted document from rank 0 whose finished
#   runs are each the sum of the ranks'.
# Skips (77) when mpirun is absent or iomark was built without MPI.
. "${SRCDIR:?}/tests/integration/mpi_env.sh" mpimark

MARK="mark --runs=2 --prepare=0 --pause=0 --runtime=500ms --size=16m"
IOMARK_LATENCY_LOG="$D/lat" timeout 300 $MPIRUN -np 2 "$IOMARK" $MARK --quiet \
    --output-format=json --output="$D/mark.json" "$D/m.%r.dat" || fail "mpirun -np 2 iomark mark failed"
[ ! -e "$D/m.0.dat" ] && [ ! -e "$D/m.1.dat" ] || fail "the ranks' test files were not removed"
/usr/bin/python3 - "$D" "$(hostname -s)" "${SRCDIR:?}" <<'PY' || exit 1
import glob, json, math, sys
d, host = sys.argv[1], sys.argv[2]
doc = json.load(open(d + "/mark.json"))
assert doc["status"] == "ok", doc.get("error")
import jsonschema
jsonschema.validate(doc, json.load(open(sys.argv[3] + "/docs/mark.schema.json")),
                    cls=jsonschema.Draft202012Validator)
m = doc["mpi"]
assert m["ranks"] == 2 and m["own_targets"] is True, m
assert [h["host"] for h in m["hosts"]] == [host] and m["hosts"][0]["ranks"] == 2, m["hosts"]
assert [r["rank"] for r in m["per_rank"]] == [0, 1], m["per_rank"]
n = nzero = 0
for ti, t in enumerate(doc["tests"]):
    for w in ("read", "write"):
        runs = t[w]["each_run"]
        assert len(runs) == 2, (t["name"], w, len(runs))
        for k, run in enumerate(runs):
            ranks = [r["tests"][ti][w]["each_run"][k] for r in m["per_rank"]]
            hostrun = m["hosts"][0]["tests"][ti][w]["each_run"][k]
            s = sum(r["ios"] for r in ranks)
            # a 0.5 s run can complete no I/O while the disk stalls (as test_mark):
            # the sums must still agree; most runs must have moved data (below)
            assert run["ios"] == s == hostrun["ios"], (t["name"], w, k, run["ios"], s)
            nzero += s == 0
            slowest = max(r["measured_s"] for r in ranks)
            assert abs(run["measured_s"] - slowest) < 1e-9, (run["measured_s"], slowest)
            assert abs(run["iops"] - run["ios"] / slowest) <= 1e-6 * run["iops"] + 1e-9
            n += 1
assert 2 * nzero < n, ("runs without I/O", nzero, n)
print("runs checked: %d (%d without I/O); every total = the sum of its ranks" % (n, nzero))
# the last run's latencies, logged by both ranks
last = doc["tests"][-1]["write"]["each_run"][-1]
lat = []
files = sorted(glob.glob(d + "/lat.r*"))
assert len(files) == 2, files
for f in files:
    lat += [int(x) for x in open(f)]
assert len(lat) == last["ios"], (len(lat), last["ios"])
if not lat:   # the run completed no I/O (a stalled disk): nothing more to compare
    print("last run: no I/O, no latencies logged")
    sys.exit(0)
mean = sum(lat) / len(lat) / 1000.0
lat.sort()
p99 = lat[max(1, math.ceil(0.99 * len(lat))) - 1] / 1000.0
print("last run: %d I/Os; mean %.3f us (document %.3f); p99 %.3f us (document %.3f)" %
      (len(lat), mean, last["lat_mean_us"], p99, last["lat_p99_us"]))
assert abs(last["lat_mean_us"] - mean) <= 0.01 + 1e-6 * mean
assert abs(last["lat_p99_us"] - p99) <= p99 / 64 + 0.001
PY
[ $? = 0 ] || exit 1

# text: the all-hosts line
timeout 300 $MPIRUN -np 2 "$IOMARK" mark --profile=peak --runs=1 --prepare=0 --pause=0 \
    --runtime=300ms --size=16m --quiet "$D/t.%r.dat" >"$D/mark.txt" || fail "text mark failed"
grep -q "MPI: 2 ranks on 1 host" "$D/mark.txt" || fail "no MPI line: $(cat "$D/mark.txt")"
grep -q "^RND4K Q32T1 " "$D/mark.txt" || fail "no table: $(cat "$D/mark.txt")"

# different marks on the ranks (rank 1: --runs=2): refused on every rank
out=$(timeout 60 $MPIRUN -np 2 sh -c '"$0" mark --runs=$((1 + OMPI_COMM_WORLD_RANK)) --prepare=0 \
    --pause=0 --runtime=300ms --size=1m --quiet "$1/w.%r"; echo $? >"$1/wrc.$OMPI_COMM_WORLD_RANK"' \
    "$IOMARK" "$D" 2>&1)
for r in 0 1; do [ "$(cat "$D/wrc.$r")" = 2 ] || fail "rank $r: exit $(cat "$D/wrc.$r") for different marks"; done
echo "$out" | grep -q "rank 1 on .* was given another workload than rank 0's" || fail "mismatch message: $out"
[ ! -e "$D/w.0" ] && [ ! -e "$D/w.1" ] || fail "files created for a refused mark"

# rank 1's folder is missing: every rank fails, rank 0's document names rank 1
mkdir "$D/d0"
timeout 60 $MPIRUN -np 2 sh -c '"$0" mark --runs=1 --prepare=0 --pause=0 --runtime=300ms \
    --size=1m --quiet --output-format=json --output="$1/fail.json" "$1/d%r/x.dat"; \
    echo $? >"$1/frc.$OMPI_COMM_WORLD_RANK"' "$IOMARK" "$D"
for r in 0 1; do
    [ -f "$D/frc.$r" ] && [ "$(cat "$D/frc.$r")" != 0 ] || fail "rank $r: exit $(cat "$D/frc.$r" 2>/dev/null)"
done
python3 - "$D/fail.json" "$(hostname -s)" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
print("missing folder:", doc.get("error"))
assert doc["status"] == "error"
assert doc["mpi"]["failed_rank"] == 1 and doc["mpi"]["failed_host"] == sys.argv[2], doc["mpi"]
assert "d1" in doc["error"], doc["error"]
PY
[ ! -e "$D/d0/x.dat" ] || fail "rank 0 created its file though rank 1 failed its check"

# a %r folder (f0, f1 exist): each rank's own iomark-test.RANK.dat in its
# folder (kept with --keep to see which files were used), every rank exit 0
mkdir "$D/f0" "$D/f1"
timeout 300 $MPIRUN -np 2 sh -c '"$0" mark --profile=peak --runs=1 --prepare=0 --pause=0 \
    --runtime=200ms --size=1m --quiet --keep --output-format=json --output="$1/fold.json" "$1/f%r" \
    2>"$1/fold.err.$OMPI_COMM_WORLD_RANK"; echo $? >"$1/foldrc.$OMPI_COMM_WORLD_RANK"' "$IOMARK" "$D"
for r in 0 1; do
    [ "$(cat "$D/foldrc.$r")" = 0 ] || fail "%r folder: rank $r exit $(cat "$D/foldrc.$r"): $(cat "$D/fold.err.$r")"
    [ "$(ls "$D/f$r")" = "iomark-test.$r.dat" ] || fail "%r folder: rank $r used: $(ls "$D/f$r")"
    [ "$(stat -c %s "$D/f$r/iomark-test.$r.dat")" = 1048576 ] || fail "rank $r: file size"
done
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["status"] == "ok", d' \
    "$D/fold.json" || fail "%r folder: the document is not ok"
# only f0 exists: rank 1 (whose folder is missing) refuses with exit 2 and is
# the rank named, once per line (no doubled "iomark mark: " prefix); rank 0
# exits 1; nothing is created in f0
rm -rf "$D/f1" "$D/f0/iomark-test.0.dat"
timeout 60 $MPIRUN -np 2 sh -c '"$0" mark --runs=1 --prepare=0 --pause=0 --runtime=200ms \
    --size=1m --quiet --output-format=json --output="$1/f1.json" "$1/f%r"; \
    echo $? >"$1/f1rc.$OMPI_COMM_WORLD_RANK"' "$IOMARK" "$D" 2>"$D/f1.err"
[ "$(cat "$D/f1rc.0")" = 1 ] && [ "$(cat "$D/f1rc.1")" = 2 ] ||
    fail "missing %r folder: exits $(cat "$D/f1rc.0") $(cat "$D/f1rc.1"), expected 1 (rank 0) 2 (rank 1)"
grep -q "^iomark mark: rank 1 on .*: target $D/f1: folder does not exist" "$D/f1.err" ||
    fail "missing %r folder: rank 1 not named: $(cat "$D/f1.err")"
! grep -q "iomark mark: .*iomark mark:" "$D/f1.err" || fail "doubled prefix: $(cat "$D/f1.err")"
! grep -q "rank 0 on" "$D/f1.err" || fail "rank 0 named: $(cat "$D/f1.err")"
python3 - "$D/f1.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["status"] == "error" and doc["mpi"]["failed_rank"] == 1, doc
PY
[ -z "$(ls "$D/f0")" ] || fail "rank 0 created $(ls "$D/f0") though rank 1's folder is missing"

# a target ending in a lone %: one line, one prefix, exit 2
timeout 60 $MPIRUN -np 2 "$IOMARK" mark --runs=1 --prepare=0 --pause=0 --runtime=200ms --size=1m \
    "$D/p%" 2>"$D/pct.err" && fail "a target ending in % was accepted"
grep -qx "iomark mark: target $D/p%: a % at the end is not a pattern; allowed: %r (rank), %h (host), %n (ranks), %% (a %)" \
    "$D/pct.err" || fail "lone %: $(cat "$D/pct.err")"

# Ctrl-C on mpirun part-way (Open MPI sends the ranks SIGTERM 10 s later, as
# set above): rank 0 writes the partial table, marked interrupted, and every
# finished run is still the sum of its ranks
mpirun --allow-run-as-root --oversubscribe -np 2 "$IOMARK" mark --runs=5 --prepare=0 --pause=0 \
    --runtime=2s --size=16m --quiet --output-format=json --output="$D/int.json" "$D/i.%r.dat" &
pid=$!
for i in $(seq 1 300); do
    [ "$(stat -c %s "$D/i.0.dat" "$D/i.1.dat" 2>/dev/null | grep -c '^16777216$')" = 2 ] && break
    sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc != 0 ] || fail "an interrupted mark exited 0"
python3 - "$D/int.json" <<'PY' || exit 1
import json, sys
doc = json.load(open(sys.argv[1]))
print("interrupted mark:", doc["status"], doc.get("interrupted_by"))
assert doc["status"] == "interrupted", doc["status"]
ran = nzero = 0
for ti, t in enumerate(doc["tests"]):
    for w in ("read", "write"):
        if t[w] is None:
            continue
        for k, run in enumerate(t[w]["each_run"]):
            s = sum(r["tests"][ti][w]["each_run"][k]["ios"] for r in doc["mpi"]["per_rank"])
            assert run["ios"] == s, (t["name"], w, k, run["ios"], s)
            ran += 1
assert ran >= 1 and doc["tests"][-1]["write"] is None, ran
print("runs kept:", ran)
PY
[ $? = 0 ] || exit 1
echo PASS
