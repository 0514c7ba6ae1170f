# lib.sh - helpers for integration tests (sourced). Environment from CTest:
# IOMARK (binary), SRCDIR (source root).
set -euo pipefail
: "${IOMARK:?set IOMARK to the iomark binary}"
: "${SRCDIR:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
PY=/usr/bin/python3          # Debian's python with python3-jsonschema
CHECK="$PY $SRCDIR/tests/integration/check_result.py"
WORK=$(mktemp -d /var/tmp/iomark-test.XXXXXX)
LOOPS=()
MOUNTS=()
cleanup() {
  # a test's own clean-up (its servers, tracing, devices) first, when it defines one
  if declare -F cleanup_more >/dev/null; then cleanup_more || true; fi
  for m in "${MOUNTS[@]:-}"; do [ -n "$m" ] && { umount "$m" 2>/dev/null || { sleep 1; umount -l "$m"; }; }; done
  # detach only a device still backed by a file of this test's $WORK: a test that
  # detached one itself may have seen its number reused by a test running beside it
  # (test_loopdev's 4K-sector device, then test_probe_monitor's, detached under it)
  local l b
  for l in "${LOOPS[@]:-}"; do
    [ -n "$l" ] || continue
    b=$(losetup -n -O BACK-FILE "$l" 2>/dev/null || true)
    case "$b" in "$WORK"/*) losetup -d "$l" 2>/dev/null || true ;; esac
  done
  rm -rf "$WORK"
}
# set -e ends a test at a failed command that is not a check, without a word
# (seen: a SIGPIPE'd pipeline in an assignment); the ERR trap keeps the first
# such command (set -E: also inside functions) and the exit names it
set -E
IOM_STOPPED_AT=
trap 'iom_rc=$?; [ -n "$IOM_STOPPED_AT" ] || IOM_STOPPED_AT="line $LINENO: $BASH_COMMAND (status $iom_rc)"' ERR
iom_exit() {
  local rc=$?
  trap - ERR
  if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ -z "${IOM_FINISHED:-}" ] && [ -n "$IOM_STOPPED_AT" ]; then
    echo "FAIL: $(basename "$0") stopped at $IOM_STOPPED_AT"
  fi
  cleanup
}
trap iom_exit EXIT
fails=0
passes=0
pass() { passes=$((passes + 1)); echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
# expect_status WANT DESCRIPTION -- command...
expect_status() {
  local want=$1 desc=$2; shift 3
  local rc=0
  "$@" >"$WORK/out" 2>"$WORK/err" || rc=$?
  if [ "$rc" = "$want" ]; then pass "$desc (exit $rc)"; else fail "$desc: exit $rc, wanted $want; stderr: $(head -c 400 "$WORK/err")"; fi
}
# expect_err_has TEXT: the last command's stderr contains TEXT and is one line
expect_err_has() {
  if grep -qF -- "$1" "$WORK/err" && [ "$(wc -l <"$WORK/err")" -le 1 ]; then pass "message has '$1'";
  else fail "message lacks '$1' or is not one line: $(cat "$WORK/err")"; fi
}
# expect_job_refused DESC JOBTEXT TEXT: `iomark run` of a job file holding
# JOBTEXT (printf's %b escapes: \n) exits 2 with a one-line message holding TEXT
expect_job_refused() {
  printf '%b\n' "$2" >"$WORK/refused.fio"
  expect_status 2 "$1" -- "$IOMARK" run "$WORK/refused.fio"
  expect_err_has "$3"
}
# tmpfs_at DIR SIZE: a tmpfs of SIZE (mount's size=) at DIR, unmounted at exit;
# skips the test (exit 77) without root or tmpfs
tmpfs_at() {
  [ "$(id -u)" = 0 ] || { echo "skip: mounting a tmpfs needs root"; exit 77; }
  mkdir -p "$1"
  mount -t tmpfs -o size="$2" iomark-test "$1" || { echo "skip: no tmpfs mount"; exit 77; }
  MOUNTS+=("$1")
}
need_root_loop() {
  if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null || ! losetup -f >/dev/null 2>&1; then
    echo "skip: needs root and loop devices"; exit 77
  fi
}
# new_loop FILE [SECTOR_SIZE]: attach FILE, set $LOOP_DEV, and remember it for
# cleanup (not through $(...), whose subshell would lose the cleanup list)
new_loop() {
  if [ -n "${2:-}" ]; then LOOP_DEV=$(losetup -f --show --sector-size "$2" "$1"); else LOOP_DEV=$(losetup -f --show "$1"); fi
  LOOPS+=("$LOOP_DEV")
}
# drop_loop DEV: detach DEV now and forget it, so the cleanup at exit does not
# detach the same name again once another test has attached it (a free loop
# name is reused at once: a concurrent test's device was detached that way)
drop_loop() {
  local keep=() l
  losetup -d "$1" 2>/dev/null || true
  for l in "${LOOPS[@]:-}"; do [ -n "$l" ] && [ "$l" != "$1" ] && keep+=("$l"); done
  LOOPS=("${keep[@]:-}")
}
# finish: the counts, then exit (1 when a check failed); also ends a test
# that skips its remaining part
finish() {
  echo "$passes passed, $fails failed"
  IOM_FINISHED=1
  [ "$fails" = 0 ] && exit 0
  exit 1
}
