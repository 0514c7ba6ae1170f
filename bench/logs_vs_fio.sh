#!/bin/bash
# logs_vs_fio.sh [SECONDS] [RATE] - the cost of fio's write_*_log in iomark and in
# fio 3.33, one run each, same job file: the null engine, 4 KiB random reads at
# QD1 paced to RATE I/Os per second (so both keep the same number of samples),
# without logs, with per-I/O logs (log_avg_msec=0) and with averaged logs
# (log_avg_msec=1000). Prints one Markdown row per case: IOPS and CPU per I/O
# (each tool's usr_cpu + sys_cpu of its JSON over its I/O count), and the load
# average at the start. Run from the build directory's parent:
#   IOMARK=build/iomark bench/logs_vs_fio.sh 5 200000
set -euo pipefail
SECS=${1:-5}
RATE=${2:-200000}
IOMARK=${IOMARK:-build/iomark}
W=$(mktemp -d /var/tmp/iomark-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(uname -r)"
echo "| case | iomark IOPS | iomark CPU us/IO | fio IOPS | fio CPU us/IO |"
echo "|---|---|---|---|---|"
for mode in none perio avg; do
  logs=""
  [ $mode = perio ] && logs=$'write_lat_log=L\nwrite_bw_log=L\nwrite_iops_log=L\nlog_avg_msec=0'
  [ $mode = avg ] && logs=$'write_lat_log=L\nwrite_bw_log=L\nwrite_iops_log=L\nlog_avg_msec=1000'
  printf '[j]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\nnorandommap\ntime_based\nruntime=%s\nrate_iops=%s\n%s\n' \
    "$SECS" "$RATE" "$logs" >"$W/j.fio"
  row="| $mode"
  for tool in iomark fio; do
    mkdir -p "$W/$tool.$mode"
    ( cd "$W/$tool.$mode"
      if [ $tool = iomark ]; then "$OLDPWD/$IOMARK" run "$W/j.fio" --quiet --output-format=json --output=r.json
      else fio "$W/j.fio" --output-format=json --output=r.json >/dev/null; fi )
    row="$row | $(python3 - "$W/$tool.$mode/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r = j["read"]
secs = j["job_runtime"] / 1000.0
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * secs
print("%.0f | %.3f" % (r["iops"], cpu / r["total_ios"] * 1e6))
PY
)"
  done
  echo "$row |"
done
