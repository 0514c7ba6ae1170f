#!/usr/bin/env bash
# Install what iomark needs on Debian 12 and build it in ./build.
#   bash scripts/setup.sh          build dependencies only (.ci/packages-build.txt)
#   bash scripts/setup.sh --tests  also what the test suite uses (.ci/packages.txt:
#                                  fio, QEMU, PostgreSQL, clang, FUSE, ...)
# The last line says where the binary is: "built ./build/iomark (iomark
# VERSION); try ./build/iomark --help" (the full path when run from elsewhere).
set -euo pipefail
CALLER=$(pwd -P)
cd "$(dirname "$0")/.."
ROOT=$(pwd -P)
LIST=.ci/packages-build.txt
[ "${1:-}" = "--tests" ] && LIST=.ci/packages.txt
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "installing $(wc -l < $LIST) Debian packages from $LIST ..." >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $(cat $LIST) >/dev/null
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
# the last line: where the binary is, as the caller would type it
BIN=./build/iomark
[ "$CALLER" = "$ROOT" ] || BIN=$ROOT/build/iomark
echo "built $BIN ($(./build/iomark --version)); try $BIN --help"
