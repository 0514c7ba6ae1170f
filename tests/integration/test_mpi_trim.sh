#!/usr/bin/env bash
# Trims under mpirun (docs/mpi.md): 2 ranks each trim io_size/bs blocks of
# their own file; the merged document's trim figures are the sum of the
# ranks' (independent arithmetic: 2 x 256 KiB / 4 KiB), per rank too, and
# read + write + trim = total holds (check_result.py).
# Skips (77) when mpirun is absent or iomark was built without MPI.
. "${SRCDIR:?}/tests/integration/mpi_env.sh" mpitrim

timeout 120 $MPIRUN -np 2 "$IOMARK" run --rw=randtrim --bs=4k --size=1m --io_size=256k \
    --ioengine=psync --quiet --output-format=json --output="$D/trim.json" "$D/t.%r.dat" \
    || fail "mpirun -np 2 iomark run --rw=randtrim failed"
python3 "$SRCDIR/tests/integration/check_result.py" "$D/trim.json" --bs 4096 || fail "merged document's invariants"
python3 - "$D/trim.json" <<'PY' || fail "merged trim figures"
import json, sys
d = json.load(open(sys.argv[1]))
per = (256 * 1024) // 4096                      # 64 trims per rank
t = d["total"]
ok = t["trim"]["ios"] == 2 * per and t["total"]["ios"] == 2 * per and t["read"]["ios"] == 0 \
    and t["write"]["ios"] == 0 and t["trim"]["bytes"] == 2 * per * 4096
ranks = d["mpi"]["per_rank"]
ok = ok and len(ranks) == 2 and all(r["total"]["ios"] == per for r in ranks)
ok = ok and all(x["trim"]["ios"] == per for x in d["targets"])
print("trims", t["trim"]["ios"], "per rank", [r["total"]["ios"] for r in ranks])
sys.exit(0 if ok else 1)
PY
echo "ok: merged trims = the sum of 2 ranks' ($((2 * 256 / 4)))"
