#!/bin/bash
# test_fio_seqmix.sh - sequential read/write mixes (rw=rw, readwrite) walk reads
# and writes each from the region's start on their own, as fio does (io_u.c
# get_next_seq_offset reads and advances f->last_pos[ddir]); a size-based job
# ends when reads and writes together have moved `size` bytes. Each job runs
# under fio 3.33 (its --write_iolog) and under iomark (pread64/pwrite64 traced
# with strace on psync); for both the same rule is checked: the k-th read is at
# k x bs, the k-th write at k x bs, reads + writes = size / bs I/Os, both
# directions present. The per-direction counts follow each tool's random
# direction draws, so only their sum is compared.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
command -v strace >/dev/null || { echo "skip: strace not installed"; exit 77; }
cd "$WORK"
head -c 1048576 /dev/urandom >data

# RULE FILE BS N: FILE has lines "r|w OFFSET LENGTH" in issue order
rule() {
  $PY - "$@" <<'PY'
import sys
path, bs, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seq = {"r": [], "w": []}
for line in open(path):
    d, off, ln = line.split()
    assert int(ln) == bs, line
    seq[d].append(int(off))
for d in "rw":
    want = [k * bs for k in range(len(seq[d]))]
    assert seq[d] == want, (d, seq[d][:12])
assert seq["r"] and seq["w"], (len(seq["r"]), len(seq["w"]))
assert len(seq["r"]) + len(seq["w"]) == n, (len(seq["r"]), len(seq["w"]))
print(len(seq["r"]), "reads", len(seq["w"]), "writes")
PY
}
# fio_ops NAME: fio's reads and writes of $WORK/data from its iolog
fio_ops() {
  awk '$2 ~ /data$/ && ($3 == "read" || $3 == "write") {print substr($3, 1, 1), $4, $5}' "$1.iolog" >"$1.fio.ops"
}
# iom_ops NAME: iomark's reads and writes of $WORK/data from the strace files
iom_ops() {
  cat tr.* | grep -F "<$WORK/data>" | grep -E '= [0-9]+$' \
    | sed -E 's/^p(read|write)64\(.*, ([0-9]+), ([0-9]+)\) += [0-9]+$/\1 \3 \2/' \
    | sed -E 's/^read /r /; s/^write /w /' >"$1.iom.ops"
}
# CASE NAME BS SIZE EXTRA: a job file for both tools
check() {
  local name=$1 bs=$2 size=$3 extra=${4:-}
  local n=$(( $(numfmt --from=iec "${size^^}") / $(numfmt --from=iec "${bs^^}") ))
  printf '[%s]\nfilename=%s/data\nrw=rw\nbs=%s\nsize=%s\nioengine=psync\n%b\n' \
    "$name" "$WORK" "$bs" "$size" "$extra" >"$name.fio"
  rm -f "$name.iolog" tr.*
  fio "$name.fio" --write_iolog="$name.iolog" --output=/dev/null >/dev/null 2>&1 || { fail "$name: fio failed"; return; }
  fio_ops "$name"
  local got
  got=$(rule "$name.fio.ops" $(( ${bs%k} * 1024 )) "$n" 2>&1) \
    && pass "$name: fio 3.33 walks each direction from 0, $n I/Os in all: $got" \
    || fail "$name: fio 3.33 does not follow the rule: $got"
  ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -s 0 -e trace=pread64,pwrite64 -o tr \
    "$IOMARK" run "$name.fio" --quiet --output=/dev/null >/dev/null 2>"$name.err" \
    || { fail "$name: iomark failed: $(head -c 300 "$name.err")"; return; }
  iom_ops "$name"
  got=$(rule "$name.iom.ops" $(( ${bs%k} * 1024 )) "$n" 2>&1) \
    && pass "$name: iomark walks each direction from 0, $n I/Os in all as fio: $got" \
    || fail "$name: iomark: $got; first ops: $(head -8 "$name.iom.ops" | tr '\n' ' ')"
}
# the new user's job (fio 3.33: 29 reads to 112 KiB and 35 writes to 136 KiB, 64 in all)
check a 4k 256k
# fio's examples/fio-seq-RW.fio scaled (64k blocks, rwmixread=60, 1 MiB): 16 I/Os
check seqrw 64k 1m 'rwmixread=60\nrwmixwrite=40\ndirect=0\nnumjobs=1\nruntime=1'
# readwrite is the same pattern (fio HOWTO "rw"), here with 30% reads
check rwclone 4k 128k 'rw=readwrite\nrwmixread=30'

# the native --rw=rw: the same walk (docs/options.md), --io_size bounding the bytes
rm -f tr.*
ASAN_OPTIONS=detect_leaks=0 strace -f -ff -y -qq -s 0 -e trace=pread64,pwrite64 -o tr \
  "$IOMARK" run --rw=rw --bs=4k --size=256k --io_size=256k --ioengine=psync --runtime=30 \
  --quiet --output=/dev/null "$WORK/data" >/dev/null 2>native.err \
  || fail "native --rw=rw failed: $(head -c 300 native.err)"
iom_ops native
got=$(rule native.iom.ops 4096 64 2>&1) && pass "native --rw=rw: each direction from 0, 64 I/Os: $got" \
  || fail "native --rw=rw: $got; first ops: $(head -8 native.iom.ops | tr '\n' ' ')"
finish
