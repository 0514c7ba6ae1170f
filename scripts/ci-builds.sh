#!/usr/bin/env bash
# ci-builds.sh - the builds CI requires to be warning-free: GCC and Clang
# (CC=clang; Debian 12 ships Clang 14), each as Release and RelWithDebInfo,
# with warnings as errors (-DIOMARK_WERROR=ON). Builds only (every target,
# tests included, so their code is compiled too); the test suite runs in
# tests/run-all.sh. Build trees: build-ci/<cc>-<type>/ (log beside each).
# Prints one line per build; exit 1 if any build failed (its log's tail is
# printed), 0 otherwise.
# usage: scripts/ci-builds.sh
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
status=0
mkdir -p build-ci
for cc in gcc clang; do
  command -v $cc >/dev/null || { echo "ci-builds: $cc: not installed"; status=1; continue; }
  ver=$($cc -dumpversion)
  for type in Release RelWithDebInfo; do
    dir=build-ci/$cc-$type
    start=$(date +%s)
    if CC=$cc cmake -S . -B $dir -DCMAKE_BUILD_TYPE=$type -DIOMARK_WERROR=ON >$dir.log 2>&1 &&
       cmake --build $dir -j"$jobs" >>$dir.log 2>&1; then
      echo "ci-builds: $cc $ver $type -Werror: ok ($(( $(date +%s) - start )) s)"
    else
      tail -40 $dir.log
      echo "ci-builds: $cc $ver $type -Werror: FAILED (log: $dir.log)"
      status=1
    fi
  done
done
exit $status
