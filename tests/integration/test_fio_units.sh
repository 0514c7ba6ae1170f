#!/bin/bash
# test_fio_units.sh - sizes in job files read as fio 3.33 reads them (parse.c
# __get_mult_bytes, kb_base=1024, fio's default): K/KB, M/MB, ... binary and
# KiB, MiB, ... decimal ("opposite units"): bs=4KiB is 4000 bytes. Checked by
# hand and against fio's own parse (fio --parse-only --debug=parse,
# fio_parse_compare.py: bs, size, offset).
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
finish
