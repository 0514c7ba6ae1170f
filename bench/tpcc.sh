#!/usr/bin/env bash
# bench/tpcc.sh - load time per warehouse and NOPM per CPU core of
# `iomark tpcc` on SQLite (embedded, WAL + synchronous=FULL) and PostgreSQL
# (a throw-away server from tests/integration/pg-server.sh, default settings,
# fsync on), on this machine, full TPC-C scale (no --scale_test).
#
#   bench/tpcc.sh [IOMARK]          (default: build-tpcc/iomark)
# Environment: WAREHOUSES (2), VUS ("1 2 4"), RAMP (20s), RUNTIME (60s),
#              DIR (folder for the SQLite file and the PostgreSQL cluster,
#              default a new folder under /var/tmp, i.e. on the root disk).
# Prints one Markdown table row per run, for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
IOMARK=${1:-build-tpcc/iomark}
W=${WAREHOUSES:-2}
VUS=${VUS:-1 2 4}
RAMP=${RAMP:-20s}
RUNTIME=${RUNTIME:-60s}
DIR=${DIR:-$(mktemp -d /var/tmp/iomark-tpcc-bench.XXXXXX)}
chmod 755 "$DIR" # the PostgreSQL server runs as user postgres and must reach $DIR/pg
NCPU=$(nproc)
OUT=$DIR/results
mkdir -p "$OUT"
PGDIR=$DIR/pg
cleanup() { bash tests/integration/pg-server.sh stop "$PGDIR" >/dev/null 2>&1 || true; }
trap cleanup EXIT

row() { # ENGINE LOADJSON RUNJSON
  python3 - "$@" "$NCPU" <<'PY'
import json, sys
eng, lj, rj, ncpu = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
l = json.load(open(lj))["load"]; r = json.load(open(rj)); t = r["transactions"]
dev = r["db"].get("data", {}).get("device", "?")
c = r.get("cpu", {})
print("| %s | %d | %d | %.1f | %.1f | %.0f | %.0f | %.2f | %.0f | %s | %.0f | %.2f | %.2f | %.2f | %s |" % (
    eng, r["warehouses"], r["vu"], l["time_per_warehouse_s"], l["size_bytes"] / 2**20 / r["warehouses"],
    r["nopm"], r["nopm"] / ncpu, c.get("busy_cores", 0), c.get("nopm_per_busy_core", 0),
    ("%.0f" % r["tpm"]) + (" / %.0f" % r["tpm_db"] if "tpm_db" in r else ""),
    r["duration"]["measured_s"], t["new_order"]["mean_ms"], t["new_order"]["p99_ms"],
    t["payment"]["mean_ms"], dev))
PY
}

echo "machine: $(uname -r), $NCPU CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), folder $DIR"
echo "| engine | warehouses | VU | load s/warehouse | MiB/warehouse | NOPM | NOPM per core ($NCPU) | busy cores | NOPM per busy core | TPM (driver / db) | measured s | NEWORD mean ms | NEWORD p99 ms | PAYMENT mean ms | data device |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"

# SQLite
"$IOMARK" tpcc load --db=sqlite:"$DIR" --warehouses="$W" --quiet --output-format=json --output="$OUT/sqlite-load.json"
for vu in $VUS; do
  "$IOMARK" tpcc run --db=sqlite:"$DIR" --vu="$vu" --ramp_time="$RAMP" --runtime="$RUNTIME" --quiet \
    --output-format=json --output="$OUT/sqlite-run-$vu.json"
  row sqlite "$OUT/sqlite-load.json" "$OUT/sqlite-run-$vu.json"
done
"$IOMARK" tpcc check --db=sqlite:"$DIR" >/dev/null || echo "WARNING: SQLite consistency check failed"

# PostgreSQL
if URI=$(bash tests/integration/pg-server.sh start "$PGDIR"); then
  "$IOMARK" tpcc load --db="$URI" --warehouses="$W" --quiet --output-format=json --output="$OUT/pg-load.json"
  for vu in $VUS; do
    "$IOMARK" tpcc run --db="$URI" --vu="$vu" --ramp_time="$RAMP" --runtime="$RUNTIME" --quiet \
      --output-format=json --output="$OUT/pg-run-$vu.json"
    row postgresql "$OUT/pg-load.json" "$OUT/pg-run-$vu.json"
  done
  "$IOMARK" tpcc check --db="$URI" >/dev/null || echo "WARNING: PostgreSQL consistency check failed"
else
  echo "(PostgreSQL not available: skipped)"
fi
echo "JSON results in $OUT"
