#!/bin/bash
# test_fio_units.sh - sizes in job files read as fio 3.33 reads them (parse.c
# __get_mult_bytes, kb_base=1024, fio's default): K/KB, M/MB, ... binary and
# KiB, MiB, ... decimal ("opposite units"): bs=4KiB is 4000 bytes. Checked by
# hand and against fio's own parse (fio --parse-only --debug=parse,
# fio_parse_compare.py: bs, size, offset); kb_base=1000 reverses the bases and
# puts decimal units first in the normal report, as fio.
. "$(dirname "$0")/lib.sh"
cd "$WORK"
check() { # NAME JOBTEXT FIELD=VALUE...
  local name=$1 text=$2; shift 2
  printf '%b\n' "$text" >"$name.fio"
  "$IOMARK" run "$name.fio" --parse-only >"$name.p" 2>"$name.err" || { fail "$name: refused: $(cat "$name.err")"; return; }
  local kv
  for kv in "$@"; do
    grep -q " $kv " "$name.p" && pass "$name: $kv (by hand)" || fail "$name: wanted $kv in $(cat "$name.p")"
  done
  if command -v fio >/dev/null; then
    fio --parse-only --debug=parse "$name.fio" >"$name.fd" 2>&1 || true
    if "$PY" "$SRCDIR/tests/integration/fio_parse_compare.py" "$name.fd" "$name.p" >"$name.cmp"; then
      pass "$name: as fio 3.33 parses it: $(tail -1 "$name.cmp")"
    else
      fail "$name: parsed differently from fio: $(tr '\n' ' ' <"$name.cmp")"
    fi
  fi
}
# 4 x 1000; 1000^2; 8 x 1000
check kib "[a]\nfilename=$WORK/a\nbs=4KiB\nsize=1MiB\noffset=8KiB" bs=4000 size=1000000 offset=8000
# 4 x 1024; 2 x 1024^2; 16 x 1024
check kb "[b]\nfilename=$WORK/b\nbs=4kb\nsize=2MB\noffset=16k" bs=4096 size=2097152 offset=16384
check plain "[c]\nfilename=$WORK/c\nbs=512\nsize=1g" bs=512 size=1073741824
# kb_base=1000 (fio: "true units"): K = 1000, KiB = 1024, wherever kb_base stands
check kb1000 "[d]\nfilename=$WORK/d\nbs=4k\nsize=4000KiB\nkb_base=1000" bs=4000 size=4096000
check kb1000g "[global]\nkb_base=1000\n[e]\nfilename=$WORK/e\nbs=8KiB\noffset=1m" bs=8192 offset=1000000
# the normal report's units: decimal first with kb_base=1000 (fio stat.c), the
# amount moved ("io=") compared with fio's own report of the same null-engine job
for kb in 1000 1024; do
  printf '[n]\nioengine=null\nkb_base=%s\nbs=4k\nsize=4m\nrw=read\nfilename=%s/null%s\n' $kb "$WORK" $kb >n$kb.fio
  "$IOMARK" run n$kb.fio >n$kb.iom 2>&1 || true
  got=$(grep -oE 'io=[^,]*' n$kb.iom | sed -n 1p)
  if command -v fio >/dev/null; then
    want=$(fio n$kb.fio 2>&1 | grep -oE 'io=[^,]*' | sed -n 1p)
  else
    want=$([ $kb = 1000 ] && echo 'io=4000kB (3906KiB)' || echo 'io=4096KiB (4194kB)')
  fi
  [ -n "$got" ] && [ "$got" = "$want" ] && pass "kb_base=$kb: report '$got', as fio" || fail "kb_base=$kb: iomark '$got', fio '$want'"
done
expect_job_refused "kb_base=1001 refused" "[f]\nfilename=$WORK/f\nkb_base=1001" "kb_base=1001: allowed 1024 (fio's default) or 1000"
finish
