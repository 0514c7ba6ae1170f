#!/bin/bash
# test_fio_cmdprio.sh - fio's per-I/O priorities (cmdprio_percentage,
# cmdprio_class, cmdprio, cmdprio_bssplit; fio 3.33 engines/cmdprio.c) and
# log_prio (iolog.c flush_samples). The witness is the kernel: the block layer's
# tracepoint block_rq_issue carries each request's ioprio (Linux 6.x
# include/trace/events/block.h), traced in a private tracefs instance on a loop
# device. Expected shares come from the job (e.g. 20 %) with a binomial
# tolerance of 4.5 standard deviations (a false failure about once in 150,000
# runs); fio 3.33 runs the same job files and is held to the same bounds, and
# its log files' priority column is compared with iomark's.
. "$(dirname "$0")/lib.sh"
need_root_loop
TR=/sys/kernel/tracing
[ -e $TR/instances ] || mount -t tracefs nodev $TR 2>/dev/null || true
FMT=$TR/events/block/block_rq_issue/format
[ -e "$FMT" ] && grep -q "field:unsigned short ioprio" "$FMT" \
  || { echo "skip: no tracefs or block_rq_issue without ioprio (needs Linux 6.x)"; exit 77; }
INST=$TR/instances/iomark-cmdprio.$$
mkdir "$INST" || { echo "skip: cannot make a tracefs instance"; exit 77; }
cleanup_more() { echo 0 >"$INST/events/block/block_rq_issue/enable" 2>/dev/null; rmdir "$INST" 2>/dev/null; }
echo 8192 >"$INST/buffer_size_kb"
cd "$WORK"
truncate -s 64m back.img
new_loop "$WORK/back.img"
DEV=$LOOP_DEV
devno=$(( (0x$(stat -c %t "$DEV") << 20) | 0x$(stat -c %T "$DEV") ))
echo "dev == $devno" >"$INST/events/block/block_rq_issue/filter"

# traced CMD...: run CMD with the tracepoint on; the issued requests of $DEV are then
# in trace.txt as "class,level bytes rwbs" lines (the print format's "be,0,4": class, hint, level)
traced() {
  echo >"$INST/trace"
  echo 1 >"$INST/events/block/block_rq_issue/enable"
  local rc=0
  "$@" >run.out 2>run.err || rc=$?
  echo 0 >"$INST/events/block/block_rq_issue/enable"
  grep -q "overrun: [1-9]" "$INST"/per_cpu/cpu*/stats && { fail "trace buffer overrun"; return 1; }
  sed -n 's/.*block_rq_issue: [0-9,]* \([A-Z]*\) \([0-9]*\) () [0-9]* + [0-9]* \([a-z]*\),[0-9]*,\([0-9]*\) .*/\3,\4 \2 \1/p' \
    "$INST/trace" >trace.txt
  return $rc
}
# bytes CLASS_LEVEL: bytes the kernel issued with that priority ("idle,5"); all: every request
bytes() { awk -v k="$1" '$1 == k || k == "all" { s += $2 } END { print s + 0 }' trace.txt; }
# bytes_dir CLASS_LEVEL R|W: the same for reads or writes only (rwbs starts with R or W),
# read-ahead left out (RA: iomark's buffered look for a file system before it writes a device)
bytes_dir() { awk -v k="$1" -v d="$2" '($1 == k || k == "all") && substr($3, 1, 1) == d && $3 !~ /A/ { s += $2 } END { print s + 0 }' trace.txt; }
# within N P K: K successes of N trials within 4.5 binomial standard deviations of N*P
within() {
  awk -v n="$1" -v p="$2" -v k="$3" 'BEGIN { sd = sqrt(n * p * (1 - p)); d = k - n * p;
    if (d < 0) d = -d; exit !(n > 0 && d <= 4.5 * sd) }'
}

# 1. cmdprio_percentage: 4096 random 4 KiB reads (16 MiB, each block once), 20 % idle/5
cat >perc.fio <<JOB
[global]
filename=$DEV
direct=1
write_lat_log=$WORK/lat
log_prio=1
[r]
rw=randread
bs=4k
size=16m
iodepth=8
ioengine=libaio
cmdprio_percentage=20
cmdprio_class=3
cmdprio=5
JOB
check_perc() { # WHO: the trace of a run of perc.fio
  local all=$(bytes all) hi=$(bytes idle,5)
  [ "$all" = 16777216 ] && pass "$1: the kernel issued 16 MiB" || fail "$1: kernel bytes $all, wanted 16777216"
  within 4096 0.20 $((hi / 4096)) && pass "$1: $((hi / 4096)) of 4096 reads idle/5 in the kernel (20 % +- 4.5 sd)" \
    || fail "$1: $((hi / 4096)) of 4096 reads idle/5, wanted 819 +- 115"
  [ "$(awk '$1 != "idle,5" { print $1 }' trace.txt | sort -u | wc -l)" -le 1 ] \
    && pass "$1: the other reads share one priority" || fail "$1: other priorities: $(cut -d' ' -f1 trace.txt | sort | uniq -c | tr '\n' ' ')"
}
if traced "$IOMARK" run perc.fio --output=iom.json --output-format=json; then
  check_perc "iomark libaio"
  # log_prio=1: fio's last column as 0x%04x: idle/5 = 3 << 13 | 5 = 0x6005, the others 0x0000
  log=lat_clat.1.log
  n=$(wc -l <"$log"); k=$(grep -c ', 0x6005$' "$log" || true); z=$(grep -c ', 0x0000$' "$log" || true)
  [ "$n" = 4096 ] && [ $((k + z)) = "$n" ] && pass "iomark log: 4096 lines, 0x6005 or 0x0000" \
    || fail "iomark log: $n lines, $k of 0x6005, $z of 0x0000"
  within 4096 0.20 "$k" && pass "iomark log: $k lines 0x6005" || fail "iomark log: $k lines 0x6005"
  [ "$k" = $(( $(bytes idle,5) / 4096 )) ] && pass "iomark log's 0x6005 lines = the kernel's idle/5 reads" \
    || fail "iomark log's 0x6005 lines $k, kernel $(( $(bytes idle,5) / 4096 ))"
else
  fail "iomark run perc.fio: $(head -c 300 run.err)"
fi
rm -f lat_*.log
if traced "$IOMARK" run --rw=randread --bs=4k --size=16m --io_size=16m --iodepth=8 --ioengine=io_uring \
     --cmdprio_percentage=20 --cmdprio_class=3 --cmdprio=5 --quiet "$DEV"; then
  check_perc "iomark io_uring (native options)"
else
  fail "iomark io_uring run: $(head -c 300 run.err)"
fi
if command -v fio >/dev/null; then
  if traced fio perc.fio --output=/dev/null; then
    check_perc "fio 3.33"
    fk=$(grep -c ', 0x6005$' lat_clat.1.log || true); fz=$(grep -c ', 0x0000$' lat_clat.1.log || true)
    [ $((fk + fz)) = "$(wc -l <lat_clat.1.log)" ] && pass "fio's log: the same two values (0x6005, 0x0000)" \
      || fail "fio's log has other values: $(awk -F', ' '{print $NF}' lat_clat.1.log | sort | uniq -c | tr '\n' ' ')"
  else
    fail "fio perc.fio: $(head -c 300 run.err)"
  fi
fi
rm -f lat_*.log

# 2. log_prio=0 (fio's default): the column is 1 for a real-time I/O, else 0
sed -e 's/^log_prio=1/log_prio=0/' -e 's/^cmdprio_class=3/cmdprio_class=1/' perc.fio >rt.fio
if traced "$IOMARK" run rt.fio --quiet --output=/dev/null; then
  k=$(grep -c ', 1$' lat_clat.1.log || true); n=$(wc -l <lat_clat.1.log)
  [ "$k" = $(( $(bytes rt,5) / 4096 )) ] && within 4096 0.20 "$k" \
    && pass "log_prio=0: $k of $n lines end in 1 = the kernel's real-time reads" \
    || fail "log_prio=0: $k lines end in 1, kernel rt/5 reads $(( $(bytes rt,5) / 4096 ))"
else
  fail "iomark rt.fio: $(head -c 300 run.err)"
fi
rm -f lat_*.log

# 3. cmdprio_bssplit, both forms (the corpus's cmdprio-bssplit.fio, reads only):
#    64k reads 25 % rt/1 and 75 % idle/2, 1024k reads none; short form: 64k all rt/0
cat >bss.fio <<JOB
[global]
filename=$DEV
direct=1
rw=randread
ioengine=libaio
iodepth=8
size=48m
loops=4
bssplit=64k/40:1024k/60
norandommap=1
[adv]
cmdprio_bssplit=64k/25/1/1:64k/75/3/2:1024k/0
[short]
stonewall
cmdprio_bssplit=64k/100:1024k/0
cmdprio_class=1
cmdprio=0
JOB
check_bss() { # WHO
  local rt=$(bytes rt,1) id=$(bytes idle,2) rt0=$(bytes rt,0) all=$(bytes all)
  local n64=$(( (rt + id) / 65536 ))
  [ $((rt % 65536)) = 0 ] && [ $((id % 65536)) = 0 ] && [ "$n64" -gt 50 ] \
    && within "$n64" 0.25 $((rt / 65536)) \
    && pass "$1 [adv]: $((rt / 65536)) of $n64 64k reads rt/1, the rest idle/2 (25 % +- 4.5 sd)" \
    || fail "$1 [adv]: rt/1 $rt bytes, idle/2 $id bytes"
  # the reads without a priority are the 1024k ones (the kernel splits them into pieces of
  # any size, so they are counted by bytes); 40 % of the job's reads are 64k (bssplit)
  local n1m=$(( (all - rt - id - rt0 + 524288) / 1048576 )) n64all=$(( (rt + id + rt0) / 65536 ))
  within $((n64all + n1m)) 0.40 "$n64all" \
    && pass "$1: $n64all of $((n64all + n1m)) reads are 64k with a priority (bssplit's 40 % +- 4.5 sd)" \
    || fail "$1: $n64all 64k reads with a priority, $n1m MiB without"
  [ "$rt0" -gt 0 ] && [ $((rt0 % 65536)) = 0 ] && pass "$1 [short]: $((rt0 / 65536)) 64k reads rt/0" \
    || fail "$1 [short]: rt/0 $rt0 bytes"
}
if traced "$IOMARK" run bss.fio --quiet --output=/dev/null; then check_bss iomark
else fail "iomark bss.fio: $(head -c 300 run.err)"; fi
if command -v fio >/dev/null; then
  if traced fio bss.fio --output=/dev/null; then check_bss "fio 3.33"
  else fail "fio bss.fio: $(head -c 300 run.err)"; fi
fi

# 4. READ,WRITE values: randrw, 10 % of the reads idle/7 and 40 % of the writes real-time/2
cat >rw.fio <<JOB
[w]
filename=$DEV
direct=1
rw=randrw
bs=4k
size=16m
iodepth=8
ioengine=io_uring
cmdprio_percentage=10,40
cmdprio_class=3,1
cmdprio=7,2
JOB
check_rw() { # WHO
  local nr=$(( $(bytes_dir all R) / 4096 )) nw=$(( $(bytes_dir all W) / 4096 ))
  local ri=$(( $(bytes_dir idle,7 R) / 4096 )) wr=$(( $(bytes_dir rt,2 W) / 4096 ))
  local cross=$(( $(bytes_dir idle,7 W) + $(bytes_dir rt,2 R) ))
  [ $((nr + nw)) = 4096 ] && within "$nr" 0.10 "$ri" && within "$nw" 0.40 "$wr" && [ "$cross" = 0 ] \
    && pass "$1: $ri of $nr reads idle/7 (10 %), $wr of $nw writes rt/2 (40 %), +- 4.5 sd" \
    || fail "$1: reads $ri/$nr idle/7, writes $wr/$nw rt/2, crossed $cross bytes"
}
if traced "$IOMARK" run rw.fio --quiet --output=/dev/null; then check_rw iomark
else fail "iomark rw.fio: $(head -c 300 run.err)"; fi
if command -v fio >/dev/null; then
  if traced fio rw.fio --output=/dev/null; then check_rw "fio 3.33"
  else fail "fio rw.fio: $(head -c 300 run.err)"; fi
fi

# 5. refusals: engines other than io_uring/libaio (fio: an option of those engines only)
expect_job_refused "cmdprio with psync refused" \
  "[b]\nfilename=$WORK/new\nsize=64k\nioengine=psync\ncmdprio_percentage=20" "cmdprio_percentage"
expect_job_refused "cmdprio_class=0 refused" \
  "[b]\nfilename=$WORK/new\nsize=64k\nioengine=libaio\ncmdprio_percentage=20\ncmdprio_class=0" "cmdprio_class=0"
expect_job_refused "both forms refused" \
  "[b]\nfilename=$WORK/new\nsize=64k\nioengine=libaio\ncmdprio_percentage=20\ncmdprio_bssplit=4k/10" "mutually exclusive"
expect_status 2 "native --cmdprio_percentage with --ioengine=null refused" -- \
  "$IOMARK" run --ioengine=null --cmdprio_percentage=5 --size=1m "$WORK/new2"
expect_err_has "cmdprio_percentage"
expect_job_refused "one size's entries over 100 % refused" \
  "[b]\nfilename=$WORK/new\nsize=64k\nioengine=libaio\ncmdprio_bssplit=64k/60/1/1:64k/60/3/2" "more than 100"
[ ! -e new ] && [ ! -e new2 ] && pass "nothing created" || fail "a refused job created a file"
finish
