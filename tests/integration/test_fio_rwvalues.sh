#!/bin/bash
# test_fio_rwvalues.sh - fio's READ,WRITE[,TRIM] values (bs=4k,8k, bs=,8k,
# bssplit=...,..., rate_iops=R,W) in job files, as fio 3.33 runs them. Expected
# values from fio 3.33's JSON for the same job (noted beside each check) or
# from the HOWTO's rule ("bs=,8k means default for reads, 8k for writes").
. "$(dirname "$0")/lib.sh"
cd "$WORK"
cat >sp.fio <<JOB
[global]
ioengine=psync
filename=$WORK/sp
size=1m
[rw48]
rw=randrw
norandommap
bs=4k,8k
io_size=1m
[w8]
stonewall
rw=write
bs=,8k
[seqrw]
stonewall
rw=rw
bs=8k,16k
[bss]
stonewall
rw=write
bssplit=4k/50:16k/50,8k/100
[ratemix]
stonewall
ioengine=null
rw=randread
rate_iops=100,50
runtime=2
time_based
[ratesingle]
stonewall
ioengine=null
rw=randrw
rate_iops=100
runtime=2
time_based
JOB
# fio 3.33: rw48 reads all 4096 B, writes all 8192 B; w8 128 writes of 8192 B
# (1 MiB); seqrw reads 8192 B, writes 16384 B, 1048576 bytes in all; bss (a
# write-only job) writes only 8192 B blocks: 128; ratemix: a read-only job
# takes the read cap, ~100 IOPS (fio: 101 reads in 1 s); ratesingle: one
# rate_iops value caps each direction (fio 3.33, same job: 176 reads and 178
# writes in 2 s, ~100/s each, not 100/s in all). The paced jobs use the null
# engine, so the counts are the pacer's alone: on psync, with other programs
# writing, the page cache's dirty-page throttling held ratesingle to 50 reads
# and 45 writes in 2 s.
if "$IOMARK" run sp.fio --quiet --output-format=json --output=sp.json 2>err.txt; then
  $PY - sp.json <<'PY' && pass "READ,WRITE block sizes and rates as fio 3.33" || fail "READ,WRITE values"
import json, sys
j = {x["jobname"]: x for x in json.load(open(sys.argv[1]))["jobs"]}
def mean(d):
    return d["io_bytes"] / d["total_ios"]
r, w = j["rw48"]["read"], j["rw48"]["write"]
assert r["total_ios"] and w["total_ios"] and mean(r) == 4096 and mean(w) == 8192, (r["total_ios"], w["total_ios"])
assert r["io_bytes"] + w["io_bytes"] == 1048576
w8 = j["w8"]["write"]
assert w8["total_ios"] == 128 and w8["io_bytes"] == 1048576, w8["total_ios"]
r, w = j["seqrw"]["read"], j["seqrw"]["write"]
assert mean(r) == 8192 and mean(w) == 16384 and r["io_bytes"] + w["io_bytes"] == 1048576
b = j["bss"]["write"]
assert b["total_ios"] == 128 and b["io_bytes"] == 1048576, b["total_ios"]
rm = j["ratemix"]["read"]
assert 150 <= rm["total_ios"] <= 202, rm["total_ios"]  # 100 IOPS x 2 s, a loaded machine may lag
r, w = j["ratesingle"]["read"], j["ratesingle"]["write"]
# each direction well above the old 100/s in all; each paced on its own, at
# most 100/s x 2 s (fio io_u.c rate_ddir; the sum bound kept from the one-pacer days)
assert r["total_ios"] >= 150 and w["total_ios"] >= 150 and r["total_ios"] + w["total_ios"] <= 404, (r["total_ios"], w["total_ios"])
PY
else
  fail "READ,WRITE job: $(head -c 300 err.txt)"
fi
# --parse-only shows the writes' sizes
"$IOMARK" run sp.fio --parse-only >parse.txt 2>&1 || true
grep -q '^\[rw48\] .* bs=4096 bs_write=8192 ' parse.txt && grep -q '^\[bss\] .* bssplit=4096/50:16384/50 bssplit_write=8192/100 ' parse.txt &&
  pass "--parse-only: bs_write and bssplit_write" || fail "--parse-only: $(cat parse.txt)"
# separate read and write caps on a mix: each direction paced on its own (fio
# io_u.c rate_ddir), shown by --parse-only (their counts: test_rate_first_io.sh)
printf '[a]\nrw=randrw\nrwmixread=50\nrate_iops=100,10\nfilename=%s/sp\n' "$WORK" >mix.fio
"$IOMARK" run mix.fio --parse-only >mix.txt 2>&1 || true
grep -q ' rate_iops=100 .*rate_iops_write=10' mix.txt && pass "rate_iops=100,10: reads 100, writes 10 on their own" \
  || fail "rate_iops=100,10: $(cat mix.txt)"
printf '[a]\nrw=randrw\nrate=300,300,300\nfilename=%s/sp\n' "$WORK" >ok.fio
expect_status 0 "rate=300,300,300 with rwmixread=50 runs" -- "$IOMARK" run ok.fio --parse-only
# the native options: --bs_write (and its place in the result's spec, which --replay reads)
if "$IOMARK" run --ioengine=psync --direct=0 --rw=randrw --bs=4k --bs_write=8k --size=1m \
     --io_size=1m --quiet --output-format=json --output=nat.json "$WORK/nat" 2>err.txt; then
  $PY - nat.json <<'PY' && pass "--bs_write: reads 4096 B, writes 8192 B, in the spec" || fail "--bs_write"
import json, sys
d = json.load(open(sys.argv[1]))
r, w = d["total"]["read"], d["total"]["write"]
assert r["ios"] and w["ios"] and r["bytes"] == 4096 * r["ios"] and w["bytes"] == 8192 * w["ios"]
assert d["spec"]["options"]["bs_write"] == "8192", d["spec"]["options"].get("bs_write")
PY
else
  fail "--bs_write run: $(head -c 300 err.txt)"
fi
finish
