#!/bin/bash
# test_fio_paced_lat.sh - a paced I/O's latency in a job file counts from its
# actual submission, as fio's (fio 3.33 io_u.c get_io_u sets start_time after
# rate_ddir has slept to the I/O's due time), not from its intended start (the
# native runs' way, docs/measurement.md). The same job, paced (rate_iops=100)
# and unpaced, runs under fio 3.33 and iomark; fio's own ratio of paced to
# unpaced latency (minimum, median) bounds iomark's: counted from the intended
# start, every paced I/O would carry its thread's wake-up lateness (tens of
# microseconds and more on a loaded machine), hundreds of times fio's ratio
# with the null engine. No absolute time is asserted.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
job() { # ENGINE RATE
  printf '[w]\nioengine=%s\nfilename=%s/pl.dat\nsize=8m\nbs=4k\ntime_based\nruntime=2\nrw=randwrite\nrate_iops=%s\n' \
    "$1" "$WORK" "$2" >"$1$2.fio"
}
stats() { # JSON -> "min p50" of the writes' lat_ns / clat_ns median
  $PY -c 'import json,sys
w=json.load(open(sys.argv[1]))["jobs"][0]["write"]
print(w["lat_ns"]["min"], w["clat_ns"]["percentile"]["50.000000"], w["total_ios"])' "$1"
}
check() { # ENGINE MINFACTOR P50FACTOR
  local e=$1 r
  for r in 100 0; do
    job "$e" "$r"
    rm -f pl.dat
    fio "$e$r.fio" --output-format=json --output="fio$e$r.json" >/dev/null 2>fio.err ||
      { fail "$e: fio failed: $(head -c 200 fio.err)"; return; }
    rm -f pl.dat
    "$IOMARK" run "$e$r.fio" --quiet --output-format=json --output="iom$e$r.json" 2>iom.err ||
      { fail "$e: iomark failed: $(head -c 200 iom.err)"; return; }
  done
  local out
  out=$($PY - "$(stats fio${e}100.json)" "$(stats fio${e}0.json)" "$(stats iom${e}100.json)" \
    "$(stats iom${e}0.json)" "$2" "$3" <<'PYEOF'
import sys
fp, fu, ip, iu = [list(map(float, a.split())) for a in sys.argv[1:5]]
kmin, kp50 = float(sys.argv[5]), float(sys.argv[6])
ok = True
# 2 s at 100 IOPS: the first I/O at once, then one every 10 ms (fio: 200 or 201)
if not 190 <= ip[2] <= 201:
    print("paced I/Os %d, fio %d" % (ip[2], fp[2])); ok = False
for i, name, k in ((0, "min", kmin), (1, "p50", kp50)):
    rf = fp[i] / max(fu[i], 1.0)
    ri = ip[i] / max(iu[i], 1.0)
    print("%s paced/unpaced: fio %.0f/%.0f = %.1f, iomark %.0f/%.0f = %.1f (bound %.0fx fio's)"
          % (name, fp[i], fu[i], rf, ip[i], iu[i], ri, k))
    if ri > k * rf:
        ok = False
sys.exit(0 if ok else 1)
PYEOF
  ) && pass "$e: $(echo $out)" || fail "$e: $(echo $out)"
}
check null 10 5      # the engine costs nothing: the ratio is the wake-up's own cost
check psync 5 4      # buffered writes (the trial's ratew.fio)
finish
