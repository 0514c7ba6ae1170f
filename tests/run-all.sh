#!/usr/bin/env bash
# Build iomark twice (release, and Debug with ASan+UBSan) and run the whole
# test suite on both. Both passes run even if the first has failures; the
# exit status is non-zero if either failed (or a build failed).
# The last line is one summary for the whole run, "N passed, N failed",
# summing both CTest passes (skipped tests are in neither; a failed build
# counts as one failure); it is non-zero failed exactly when the exit status is.
# With IOMARK_SUMMARY_FILE set (as .ci/run does) the counts are also written
# there as "PASSED FAILED" and the line is printed as "tests: ...", so that
# the caller's own summary is the only plain one.
# IOMARK_TEST_JOBS sets how many tests CTest runs at once (ctest -j; default
# nproc): most tests sleep through fixed-length runs, so they can overlap.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
test_jobs=${IOMARK_TEST_JOBS:-$jobs}
case $test_jobs in ''|*[!0-9]*|0) echo "run-all: IOMARK_TEST_JOBS=$test_jobs: a positive whole number" >&2; exit 2 ;; esac
status=0 passed=0 failed=0 skipped=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run_ctest LABEL ctest-args...: run CTest, add its counts from its own summary
# ("N% tests passed, F tests failed out of T" and the "(Skipped)" list)
run_ctest() {
  local label=$1; shift
  ctest "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local line f t s
  line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$line" ]; then
    echo "run-all: $label: no CTest summary (exit $rc); counted as one failure"
    failed=$((failed + 1)) status=1
    return
  fi
  f=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
  t=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
  s=$(grep -cE '^[[:space:]]+[0-9]+ - .* \((Skipped|Disabled)\)$' "$log" || true)
  passed=$((passed + t - f - s)) failed=$((failed + f)) skipped=$((skipped + s))
  if [ "$rc" != 0 ]; then
    status=1
    [ "$f" = 0 ] && { echo "run-all: $label: ctest exit $rc without a failed test; counted as one failure"; failed=$((failed + 1)); }
  fi
  echo "run-all: $label: $((t - f - s)) passed, $f failed, $s skipped"
}

# build DIR LABEL cmake-args...: configure and build; a failure counts as one
build() {
  local dir=$1 label=$2; shift 2
  if cmake -S . -B "$dir" "$@" >/dev/null && cmake --build "$dir" -j"$jobs"; then
    return 0
  fi
  echo "run-all: $label build failed; counted as one failure"
  failed=$((failed + 1)) status=1
  return 1
}

summary() {
  [ "$skipped" -gt 0 ] && echo "run-all: $skipped test(s) skipped (exit 77), counted in neither"
  if [ -n "${IOMARK_SUMMARY_FILE:-}" ]; then
    echo "$passed $failed" >"$IOMARK_SUMMARY_FILE"
    echo "tests: $passed passed, $failed failed"
  else
    echo "$passed passed, $failed failed"
  fi
  exit $status
}

build build release -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIOMARK_WERROR=ON || summary
run_ctest release --test-dir build --output-on-failure -j"$test_jobs"
build build-asan ASan -DCMAKE_BUILD_TYPE=Debug -DIOMARK_SANITIZE=ON -DIOMARK_WERROR=ON || summary
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_ctest ASan --test-dir build-asan --output-on-failure -j"$test_jobs"
summary
