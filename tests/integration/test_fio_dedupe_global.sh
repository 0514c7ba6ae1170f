#!/bin/bash
# test_fio_dedupe_global.sh - fio's dedupe_global=1 (fio 3.33 dedupe.c
# init_dedupe_working_set_seeds with global_dedup): examples/dedupe-global.fio
# scaled down to two jobs of 16 MiB (4096 blocks of 4 KiB; dedupe 50 %,
# working set 50 % = 2048 unique writes, compress 50 %), run by iomark and by
# fio 3.33, their files counted by an independent script (sha1 of each 4 KiB
# block): the contents each file holds, those both files hold ("shared") and
# all distinct contents. With dedupe_global each job's working set is half its
# own first 1024 unique writes and half the other job's, so about 2 x 1024 x
# (1 - 1/e) = 1294 contents are in both files; without it none.
# Expected values: fio 3.33's files of the same jobs (iomark within 8 % of
# fio's shared count, 3 % of its per-file and total distinct counts; the
# binomial spread of these counts is about 1-2 %); without fio the analytic
# bounds above (shared 1100-1500).
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
job() { # GLOBAL DIR
  printf '[global]\nioengine=psync\nsize=16m\ndedupe_mode=working_set\ndedupe_global=%s\n' "$1"
  printf 'dedupe_percentage=50\nblocksize=4k\nrw=write\nbuffer_compress_percentage=50\n'
  printf 'dedupe_working_set_percentage=50\n[a]\nfilename=%s/a.bin\n[b]\nfilename=%s/b.bin\n' "$2" "$2"
}
cat >count.py <<'PY'
import hashlib, sys
def blocks(p):
    d = open(p, 'rb').read()
    return [hashlib.sha1(d[i:i + 4096]).digest() for i in range(0, len(d), 4096)]
a, b = set(blocks(sys.argv[1])), set(blocks(sys.argv[2]))
print(len(a), len(b), len(a & b), len(a | b))
PY
for g in 1 0; do
  mkdir -p "io$g" "fio$g"
  job "$g" "$WORK/io$g" >"io$g.fio"
  expect_status 0 "iomark runs dedupe_global=$g" -- "$IOMARK" run "io$g.fio" --quiet
  read -r ia ib is it < <($PY count.py "io$g/a.bin" "io$g/b.bin")
  echo "iomark dedupe_global=$g: distinct a $ia, b $ib, shared $is, all $it"
  if [ "$HAVE_FIO" = 1 ]; then
    job "$g" "$WORK/fio$g" >"fio$g.fio"
    fio "fio$g.fio" >/dev/null 2>&1 || fail "fio 3.33 failed on fio$g.fio"
    read -r fa fb fs ft < <($PY count.py "fio$g/a.bin" "fio$g/b.bin")
    echo "fio 3.33 dedupe_global=$g: distinct a $fa, b $fb, shared $fs, all $ft"
  else
    fa=$ia fb=$ib ft=$it fs=$([ "$g" = 1 ] && echo 1294 || echo 0)
  fi
  near() { # NAME GOT WANT PCT
    if awk -v a="$2" -v b="$3" -v p="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'; then
      pass "dedupe_global=$g: $1 $2, fio $3 (within $4 %)"
    else fail "dedupe_global=$g: $1 $2, fio $3 (not within $4 %)"; fi
  }
  near "distinct contents of a" "$ia" "$fa" 3
  near "distinct contents of b" "$ib" "$fb" 3
  near "distinct contents of both files" "$it" "$ft" 3
  if [ "$g" = 1 ]; then
    near "contents in both files" "$is" "$fs" 8
    [ "$is" -ge 1100 ] && [ "$is" -le 1500 ] && pass "shared $is within 1100-1500 (2 x 1024 x (1 - 1/e))" ||
      fail "shared $is outside 1100-1500"
  else
    [ "$is" = 0 ] && [ "$fs" = 0 ] && pass "without dedupe_global no content in both files (fio: $fs)" ||
      fail "without dedupe_global: $is contents in both files (fio: $fs)"
  fi
done
finish
