#!/bin/bash
# test_fio_block_error.sh - fio's block_error_percentiles=1 (fio 3.33: per
# trim-sized block of the job's single file, the trims completed on it,
# io_u.c trim_block_info; the JSON's "block" object and the normal report's
# "block lifetime percentiles" from stat.c calc_block_percentiles: blocks
# sorted by category then trim count, percentile p taking the block at
# p x (n - unwritten) / 100 + unwritten). Expected values read from the jobs
# by hand:
#   rw=trim bs=4k size=1m io_size=1536k: 384 trims over 256 blocks, the
#     second pass over the first 128 only: 128 blocks trimmed once, 128
#     twice; percentile p is 1 when p x 256 / 100 < 128, else 2; trimmed=256;
#   rw=randtrim loops=3 (random map: each block once a pass): all 3;
#   offset=256k size=512k: 128 blocks (the region's), all 1;
#   rw=write: no trim, no "block" object (fio 3.33's own run of the same job
#     writes none either, checked when fio is installed);
#   two files: refused (fio 3.33 init.c: single file per job only);
#   write failures from real ENOSPC (below).
# fio 3.33 itself aborts (SIGABRT, stat.c compare_block_infos reads 64-bit
# words from its 32-bit block array) on any job that trimmed with this
# option, so its numbers cannot be compared; the test prints what fio did.
. "$(dirname "$0")/lib.sh"

cd "$WORK"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
run() { # NAME JOBTEXT: iomark's JSON into NAME.json, normal output into NAME.txt
  printf '%b' "$2" >"$1.fio"
  expect_status 0 "$1: iomark runs it" -- "$IOMARK" run "$1.fio" --quiet --output-format=json --output="$1.json"
  "$IOMARK" run "$1.fio" --quiet >"$1.txt" 2>&1 || true
}
# check NAME EXPR: a python expression over b (the job's "block" object) and p(x) (its percentile x)
check() {
  if $PY - "$1.json" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
b = j.get("block")
p = lambda x: b["percentiles"]["%f" % x]
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
  then pass "$1: $2"; else fail "$1: $2 does not hold: $(head -c 600 "$1.json" | tr '\n' ' ')"; fi
}
PCTS="1 5 10 20 30 40 50 60 70 80 90 95 99 99.5 99.9 99.95 99.99"
run seq "[t]\nfilename=$WORK/f\nrw=trim\nbs=4k\nsize=1m\nio_size=1536k\nblock_error_percentiles=1\n"
for x in $PCTS; do
  want=$(awk -v x="$x" 'BEGIN { print (int(x * 256 / 100) < 128 ? 1 : 2) }')
  check seq "p($x) == $want"
done
check seq 'b["states"] == {"unwritten": 0, "trimmed": 256, "written": 0, "trim failure": 0, "write failure": 0}'
grep -q '^  block lifetime percentiles :$' seq.txt && grep -q '^   | 1.00th=1, 5.00th=1, 10.00th=1, 20.00th=1, 30.00th=1, 40.00th=1, 50.00th=2,$' seq.txt &&
  grep -q '^        states               : unwritten=0, trimmed=256, written=0, trim failure=0, write failure=0$' seq.txt &&
  pass "seq: fio's normal-report lines" || fail "seq: normal report: $(grep -A4 'block lifetime' seq.txt)"
run rnd "[t]\nfilename=$WORK/f\nrw=randtrim\nbs=4k\nsize=1m\nloops=3\nblock_error_percentiles=1\n"
check rnd 'all(v == 3 for v in b["percentiles"].values()) and b["states"]["trimmed"] == 256'
run off "[t]\nfilename=$WORK/f\nrw=trim\nbs=4k\noffset=256k\nsize=512k\nblock_error_percentiles=1\n"
check off 'all(v == 1 for v in b["percentiles"].values()) and b["states"]["trimmed"] == 128 and sum(b["states"].values()) == 128'
run wr "[t]\nfilename=$WORK/f\nrw=write\nbs=4k\nsize=1m\nblock_error_percentiles=1\n"
check wr 'b is None and j["write"]["total_ios"] == 256'
if [ "$HAVE_FIO" = 1 ]; then
  fio --output-format=json --output=fwr.json wr.fio >/dev/null 2>&1 && check fwr 'b is None and j["write"]["total_ios"] == 256' ||
    fail "fio 3.33 failed on wr.fio"
  frc=0; sed 's/^rw=trim$/rw=trim\nioengine=falloc/' seq.fio >fseq.fio
  frc=$(sh -c 'fio --output-format=json --output=fseq.json fseq.fio >/dev/null 2>fseq.err; echo $?' 2>/dev/null)
  echo "fio 3.33 on seq.fio (falloc engine): exit $frc $(grep -m1 -o 'Assertion.*' fseq.err || true)"
fi
# write failures, from real ENOSPC: a 1 MiB tmpfs, a 2 MiB sparse file, bs=64k (16
# writes fit, 16 fail), verify=crc32c and continue_on_error. fio 3.33 marks a
# failed write's block only when the error reaches io_completed (iolog.c
# unlog_io_piece on a write logged for verify): with libaio, not with its sync
# engines (backend.c io_queue_event drops the error first). psync: no "block"
# object, in iomark and in fio's own run; libaio: 16 blocks "write failure", 16
# unwritten, every percentile 0 (fio 3.33 aborts in its sort, so by hand).
if [ "$(id -u)" = 0 ] && mkdir -p "$WORK/mnt" && mount -t tmpfs -o size=1m iomark-test "$WORK/mnt"; then
  MOUNTS+=("$WORK/mnt")
  for e in psync libaio; do
    printf '[w]\nfilename=%s/mnt/f\nrw=write\nbs=64k\nsize=2m\nioengine=%s\nverify=crc32c\ncontinue_on_error=all\nignore_error=,ENOSPC\nblock_error_percentiles=1\n' "$WORK" "$e" >"en$e.fio"
    rm -f mnt/f; truncate -s 2M mnt/f
    expect_status 0 "en$e: iomark runs it" -- "$IOMARK" run "en$e.fio" --quiet --output-format=json --output="en$e.json"
  done
  check enpsync 'b is None and j["total_err"] == 16'
  check enlibaio 'j["total_err"] == 16 and all(v == 0 for v in b["percentiles"].values()) and b["states"] == {"unwritten": 16, "trimmed": 0, "written": 0, "trim failure": 0, "write failure": 16}'
  if [ "$HAVE_FIO" = 1 ]; then
    rm -f mnt/f; truncate -s 2M mnt/f
    fio --output-format=json --output=fenpsync.json enpsync.fio >/dev/null 2>&1 && check fenpsync 'b is None and j["total_err"] == 16' ||
      fail "fio 3.33 failed on enpsync.fio"
  fi
else
  echo "skip: write failures need root for a tmpfs"
fi
printf '[t]\nfilename=%s/a:%s/b\nrw=trim\nsize=1m\nblock_error_percentiles=1\n' "$WORK" "$WORK" >two.fio
expect_status 2 "two files refused" -- "$IOMARK" run two.fio --parse-only
expect_err_has "block_error_percentiles: fio's block error histogram is only available with a single file per job"
finish
