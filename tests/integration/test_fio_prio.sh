#!/bin/bash
# test_fio_prio.sh - fio's prio/prioclass in job files: each worker thread
# sets its I/O priority with ioprio_set(2) before its I/O (fio 3.33 backend.c
# thread_main). Read back per thread with util-linux's ionice -p TID (it calls
# ioprio_get(2)), and the same job run by fio 3.33, whose job processes
# ionice reads the same way. The test waits for the state (polls), then stops
# the runs with SIGINT.
. "$(dirname "$0")/lib.sh"
command -v ionice >/dev/null || { echo "skip: no ionice"; exit 77; }
cd "$WORK"
head -c 1048576 /dev/zero >data
cat >prio.fio <<JOB
[global]
filename=$WORK/data
rw=read
bs=4k
size=1m
time_based
runtime=300
thinktime=20ms
[p]
prio=5
prioclass=2
numjobs=2
[q]
prioclass=3
[r]
prio=1
JOB
# count TASKDIR_GLOB: "BE5 IDLE BE1" counts of tasks in each state
counts() {
  local be5=0 idle=0 be1=0 t s
  for t in "$@"; do
    s=$(ionice -p "$(basename "$t")" 2>/dev/null) || continue
    case $s in "best-effort: prio 5") be5=$((be5 + 1)) ;; idle) idle=$((idle + 1)) ;; "best-effort: prio 1") be1=$((be1 + 1)) ;; esac
  done
  echo "$be5 $idle $be1"
}
# wait_prio WANT CMD: poll until the tasks of the process tree show WANT
wait_prio() {
  local want=$1 pid=$2 tries=0 got=""
  while [ $tries -lt 600 ]; do
    kill -0 "$pid" 2>/dev/null || break
    # the process's threads and its children's (fio forks a process per job)
    got=$(counts /proc/"$pid"/task/* $(for c in $(pgrep -P "$pid"); do echo /proc/"$c"/task/*; done))
    [ "$got" = "$want" ] && break
    sleep 0.1; tries=$((tries + 1))
  done
  echo "$got"
}
# prioclass=2 prio=5 x 2 clones, prioclass=3 (idle), prio=1 alone (class 0 = best-effort, as fio)
want="2 1 1"
"$IOMARK" run prio.fio --quiet --output=/dev/null 2>iom.err &
ipid=$!
got=$(wait_prio "$want" $ipid)
kill -INT $ipid 2>/dev/null || true; wait $ipid 2>/dev/null || true
[ "$got" = "$want" ] && pass "iomark threads: 2 best-effort/5, 1 idle, 1 best-effort/1 (ionice)" \
  || fail "iomark threads (best-effort/5 idle best-effort/1): $got, wanted $want; $(head -c 200 iom.err)"
if command -v fio >/dev/null; then
  fio prio.fio --output=/dev/null >/dev/null 2>&1 &
  fpid=$!
  got=$(wait_prio "$want" $fpid)
  kill -INT $fpid 2>/dev/null || true; wait $fpid 2>/dev/null || true
  [ "$got" = "$want" ] && pass "fio 3.33's job processes the same: $got" || fail "fio's processes: $got, wanted $want"
fi
expect_job_refused "prio=8 refused" "[b]\nfilename=$WORK/new\nsize=64k\nprio=8" "prio=8: allowed 0 (highest) to 7"
expect_job_refused "prioclass=4 refused" "[b]\nfilename=$WORK/new\nsize=64k\nprioclass=4" "prioclass=4: allowed 0 to 3"
[ ! -e new ] && pass "nothing created" || fail "a refused job created a file"
finish
