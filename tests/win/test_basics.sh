#!/usr/bin/env bash
# Windows build under Wine: option parsing, refusals (exit 2, one line,
# nothing written), a file run whose bytes = I/Os x block size, a DiskSpd
# command line -> DiskSpd XML that iomark reads back, the lab refusal.
# Environment from tests/windows.cmake: IOMARK (iomark.exe), IOMARK_EMU
# (the emulator command, "env WINEDEBUG=-all DISPLAY= wine64"), SRCDIR.
# Expected values come from the command lines (block size, sizes), counted
# independently by Python from the result files.
set -euo pipefail
: "${IOMARK:?}" "${IOMARK_EMU:?}"
WORK=$(mktemp -d /var/tmp/iomark-wintest.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"
fails=0 passes=0
pass() { passes=$((passes + 1)); echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
# im ARGS...: run iomark.exe under the emulator; stdout/stderr to out/err, status in rc
im() { rc=0; $IOMARK_EMU "$IOMARK" "$@" >out 2>err </dev/null || rc=$?; }
# Wine may print its own diagnostics on stderr ("wine: ..."); ignore those lines
errlines() { grep -v '^wine: \|^[0-9a-f]*:err:\|^[0-9a-f]*:fixme:' err || true; }
want() { # STATUS DESCRIPTION [TEXT]: last status and one stderr line containing TEXT
  local e; e=$(errlines)
  if [ "$rc" != "$1" ]; then fail "$2: exit $rc, wanted $1; stderr: $(head -c 300 err)"; return; fi
  if [ -n "${3:-}" ]; then
    if grep -qF -- "$3" <<<"$e" && [ "$(grep -c . <<<"$e")" -le 1 ]; then pass "$2 (exit $rc, '$3')"
    else fail "$2: stderr lacks one line with '$3': $e"; fi
  else pass "$2 (exit $rc)"; fi
}

# --- option parsing and refusals -----------------------------------------------
im --version;                                   want 0 "--version"
grep -q '^iomark ' out && pass "version printed" || fail "version: $(cat out)"
im run --bs=abc --size=1M f1.dat;               want 2 "--bs=abc" "--bs"
[ ! -e f1.dat ] && pass "nothing written for --bs=abc" || fail "f1.dat created"
im run --ioengine=io_uring --size=1M f1.dat;    want 2 "io_uring on Windows" "iocp"
im run --rw=sideways --size=1M f1.dat;          want 2 "--rw=sideways" "--rw"
# unbuffered I/O needs sector multiples (FILE_FLAG_NO_BUFFERING): 4097 is none
im run --bs=4097 --direct=1 --size=1M f1.dat;   want 2 "--bs=4097 with --direct" "--bs"
[ ! -e f1.dat ] && pass "nothing written for a misaligned block" || fail "f1.dat created"
im run --size=1M nofolder/f.dat;                want 2 "missing folder" "does not exist"
im diskspd -b4K -w101 -c1M f2.dat;              want 2 "DiskSpd -w101" "-w101"
[ ! -e f2.dat ] && pass "nothing written for -w101" || fail "f2.dat created"
im diskspd -b4K -d1 -XYZ f2.dat;                want 2 "DiskSpd unknown flag"
im lab run;                                     want 2 "lab" "lab runs on Linux only"
im tpcc --db=pg:host=x;                         want 2 "tpcc on PostgreSQL" "PostgreSQL"
im run --rw=write --size=1M '\\.\PhysicalDrive0'
if [ "$rc" = 2 ] || [ "$rc" = 1 ]; then pass "raw disk write refused or unavailable (exit $rc)"
else fail "raw disk write: exit $rc"; fi

# --- a file run: bytes = I/Os x block size, file created at the size asked ----
im run --rw=randrw --bs=8k --iodepth=4 --numjobs=2 --size=8M --runtime=1 --keep \
   --output-format=json --output=run.json f3.dat
want 0 "file run"
[ "$(stat -c %s f3.dat 2>/dev/null)" = 8388608 ] && pass "test file 8 MiB" || fail "f3.dat size $(stat -c %s f3.dat 2>&1)"
if python3 - run.json 8192 <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); bs = int(sys.argv[2])
t = d["total"]; ios = t["read"]["ios"] + t["write"]["ios"]
by = t["read"]["bytes"] + t["write"]["bytes"]
assert ios > 0, "no I/O"
assert by == ios * bs, f"bytes {by} != ios {ios} x {bs}"
for k in ("read", "write"):
    assert t[k]["bytes"] == t[k]["ios"] * bs, k
    assert t[k]["errors"] == 0, k
assert d["engine"] == "iocp" or d["engine"].get("name") == "iocp", d["engine"]
th = d["threads"]; assert len(th) == 2, len(th)
print(f"ios {ios} bytes {by}")
PY
then pass "bytes = I/Os x 8 KiB, engine iocp, 2 threads"; else fail "run.json figures"; fi

# --- DiskSpd line -> DiskSpd XML -> read back --------------------------------------
im diskspd -b8K -d1 -W0 -o4 -t2 -r -w30 -Sh -L -Rxml -c16M ds.dat
want 0 "diskspd -Rxml"
cp out ds.xml
if python3 - ds.xml <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == "Results", r.tag
ts = r.find("TimeSpan")
th = ts.findall("Thread"); assert len(th) == 2, len(th)
tot = 0
for t in th:
    for tg in t.findall("Target"):
        b, n = int(tg.findtext("BytesCount")), int(tg.findtext("IOCount"))
        assert b == n * 8192, (b, n)
        tot += n
assert tot > 0
p = r.find("Profile/TimeSpans/TimeSpan/Targets/Target")
assert p.findtext("BlockSize") == "8192", p.findtext("BlockSize")
assert p.findtext("WriteRatio") == "30", p.findtext("WriteRatio")
assert p.findtext("DisableOSCache") == "true" or p.findtext("DisableAllCache") == "true"
print("ios", tot)
PY
then pass "XML: 2 threads, bytes = I/Os x 8 KiB, -w30, -Sh"; else fail "ds.xml content"; fi
im compare ds.xml ds.xml
want 0 "compare reads the XML back"
grep -q "diskspd-xml" out && pass "imported as diskspd-xml" || fail "compare output: $(head -5 out)"

# --- text layout of the acceptance command (short) ------------------------------------
im diskspd -b8K -d1 -o4 -t2 -r -w30 -Sh -L -c8M t.dat
want 0 "diskspd text"
for s in "Total IO" "Read IO" "Write IO" "CPU |" "%-ile" "total:"; do
  grep -qF "$s" out && pass "layout has '$s'" || fail "layout lacks '$s'"
done

# --- TPC-C on SQLite (the cross-built SQLite), checked by Linux's sqlite3 shell ----
if command -v sqlite3 >/dev/null && [ -n "${SRCDIR:-}" ]; then
  im tpcc --db=sqlite:tp.db --scale_test --ramp_time=0 --runtime=2s --seed=7 --quiet \
     --output-format=json --output=tp.json
  want 0 "tpcc on SQLite"
  if python3 -c 'import json,sys; d=json.load(open("tp.json")); s=json.dumps(d); assert "nopm" in s.lower(), s[:200]' 2>/dev/null
  then pass "tpcc JSON has NOPM"; else fail "tp.json: $(head -c 200 tp.json 2>&1)"; fi
  # TPC-C consistency conditions 1-4, SQL written independently of iomark
  viol=$(sqlite3 -batch -noheader tp.db <"$SRCDIR/tests/integration/tpcc_consistency.sql" | tr -d '\r' | sort -u | tr '\n' ' ')
  [ "$viol" = "0 " ] && pass "consistency conditions 1-4 hold (sqlite3 CLI)" || fail "consistency: $viol"
else
  echo "skip: tpcc part (sqlite3 CLI missing)"
fi

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
