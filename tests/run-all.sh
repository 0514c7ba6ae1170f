#!/usr/bin/env bash
# Build iomark twice (release, and Debug with ASan+UBSan) and run the whole
# test suite on both. Both passes run even if the first has failures; the
# exit status is non-zero if either failed.
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
status=0
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIOMARK_WERROR=ON >/dev/null || exit 1
cmake --build build -j"$jobs" || exit 1
ctest --test-dir build --output-on-failure -j"$jobs" || status=1
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DIOMARK_SANITIZE=ON -DIOMARK_WERROR=ON >/dev/null || exit 1
cmake --build build-asan -j"$jobs" || exit 1
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" || status=1
exit $status
