#!/usr/bin/env bash
# Build the libFuzzer harnesses with clang (ASan + UBSan) and run each for
# SECONDS (default 30), two at a time, seeded from fuzz/corpus/ and the real
# files in tests/data/ (jobs/, results/). Prints each harness's executions; exits 1 if any
# harness found a crash, leak or undefined behaviour (the reproducer is kept
# in build-fuzz/findings/).
# usage: fuzz/run.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-30}; shift || true
CC=clang cmake -S . -B build-fuzz -DIOMARK_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
ALL=(fuzz_options fuzz_diskspd fuzz_fiojob fuzz_model fuzz_import_any fuzz_import_iomark fuzz_import_fio_json
     fuzz_import_fio_text fuzz_import_diskspd_xml fuzz_import_diskspd_text fuzz_import_cdm_text)
[ $# -gt 0 ] && ALL=("$@")
OUT=build-fuzz/findings
mkdir -p "$OUT"
rm -f build-fuzz/fuzz_*.log build-fuzz/fuzz_*.failed
seed() { # harness corpus-dir
  local h=$1 c=$2
  mkdir -p "$c"
  case $h in
    fuzz_options) cp fuzz/corpus/options/* "$c/" ;;
    fuzz_diskspd) cp fuzz/corpus/diskspd/* "$c/" ;;
    fuzz_fiojob) cp tests/data/jobs/*.fio "$c/" ;;
    fuzz_model) cp tests/data/model/*.json fuzz/corpus/model/* "$c/" ;;
    fuzz_import_*) cp tests/data/results/* "$c/"
                   cp tests/golden/* "$c/" 2>/dev/null || true ;;
  esac
}
run_one() {
  local h=$1 c=build-fuzz/corpus/$1 log=build-fuzz/$1.log
  seed "$h" "$c"
  if build-fuzz/fuzz/"$h" -max_total_time="$SECS" -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$OUT/$h-" "$c" >"$log" 2>&1; then
    echo "$h: ok, $(grep -m1 -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}') executions in ${SECS} s, corpus $(ls "$c" | wc -l) inputs"
  else
    : >"build-fuzz/$h.failed"   # any non-zero exit: a crash, leak, UB, timeout or out-of-memory
    echo "$h: FINDING (see $log, reproducer in $OUT/)"; tail -30 "$log"; return 1
  fi
}
fail=0
pids=()
for h in "${ALL[@]}"; do
  run_one "$h" & pids+=($!)
  if [ ${#pids[@]} -ge "$(nproc)" ]; then wait "${pids[0]}" || fail=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
n=${#ALL[@]}
bad=$(find build-fuzz -maxdepth 1 -name 'fuzz_*.failed' | wc -l)
echo "fuzz: $((n - bad)) passed, $bad failed"
exit $fail
