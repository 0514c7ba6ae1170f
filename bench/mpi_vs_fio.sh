#!/bin/bash
# bench/mpi_vs_fio.sh [SECONDS] [ROUNDS] - iomark under mpirun against fio with
# two jobs, on two RAM-backed loop devices (files on /dev/shm, direct I/O),
# 4K random read, QD32, io_uring, alternating in one run:
#   A. mpirun -np 1 iomark run ... on device 1          (one rank)
#   B. mpirun -np 2 iomark run ... DEV.%r               (two ranks, one device each)
#   C. fio --name=j0 --filename=dev1 --name=j1 --filename=dev2 (two jobs)
# Prints one line per case and round, then the means and the ratios
# B/C and B/A. Needs root (loop devices), mpirun (openmpi-bin) and fio.
set -eu
RT=${1:-10}
ROUNDS=${2:-2}
IOMARK=${IOMARK:-$(dirname "$0")/../build/iomark}
export OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent=
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
W=$(mktemp -d /tmp/iomark-mpibench.XXXXXX)
L0= L1=
cleanup() {
    [ -n "$L0" ] && losetup -d "$L0"
    [ -n "$L1" ] && losetup -d "$L1"
    rm -rf "$W" /dev/shm/iomark-mpibench.0 /dev/shm/iomark-mpibench.1
}
trap cleanup EXIT
for i in 0 1; do
    dd if=/dev/urandom of=/dev/shm/iomark-mpibench.$i bs=1M count=512 status=none
done
L0=$(losetup -f --show --direct-io=on /dev/shm/iomark-mpibench.0)
L1=$(losetup -f --show --direct-io=on /dev/shm/iomark-mpibench.1)
ln -s "$L0" "$W/dev.0"
ln -s "$L1" "$W/dev.1"
IOPT="--ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --runtime=${RT}s --quiet --output-format=json"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# devices $L0 $L1 (512 MiB each on /dev/shm), ${RT}s per case, $ROUNDS rounds"
iops_iomark() { python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["total"]["total"]["iops"]))' "$1"; }
iops_fio() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(round(sum(j["read"]["iops"] for j in d["jobs"])))' "$1"; }
A=() B=() C=()
for r in $(seq 1 "$ROUNDS"); do
    $MPIRUN -np 1 "$IOMARK" run $IOPT --output="$W/a.json" "$W/dev.0"
    A+=("$(iops_iomark "$W/a.json")")
    $MPIRUN -np 2 "$IOMARK" run $IOPT --output="$W/b.json" "$W/dev.%r"
    B+=("$(iops_iomark "$W/b.json")")
    fio --output-format=json --output="$W/c.json" --ioengine=io_uring --fixedbufs=1 \
        --registerfiles=1 --direct=1 --rw=randread --bs=4k --iodepth=32 --runtime="$RT" \
        --time_based --name=j0 --filename="$L0" --name=j1 --filename="$L1" >/dev/null
    C+=("$(iops_fio "$W/c.json")")
    echo "round $r: iomark 1 rank ${A[-1]} IOPS; iomark 2 ranks ${B[-1]} IOPS; fio 2 jobs ${C[-1]} IOPS"
done
python3 - "${A[*]}" "${B[*]}" "${C[*]}" <<'PY'
import sys
a, b, c = ([float(x) for x in s.split()] for s in sys.argv[1:4])
ma, mb, mc = sum(a) / len(a), sum(b) / len(b), sum(c) / len(c)
print("mean: iomark 1 rank %.0f, iomark 2 ranks %.0f, fio 2 jobs %.0f IOPS" % (ma, mb, mc))
print("ratios: 2 ranks / fio 2 jobs = %.2f; 2 ranks / 1 rank = %.2f; fio 2 jobs / 1 rank = %.2f"
      % (mb / mc, mb / ma, mc / ma))
PY
