#!/usr/bin/env bash
# iomark mark: a short default profile in a folder; the test file is made
# there and removed afterwards; JSON holds every test with both directions.
source "$(dirname "$0")/lib.sh"
cd $WORK
expect_status 0 "mark, 1 run of 1 s" -- "$IOMARK" mark --runs=1 --runtime=1 --pause=0 --size=32M --output-format=json --output=$WORK/m.json --quiet
[ ! -e $WORK/iomark-test.dat ] && pass "test file removed" || fail "test file left behind"
$PY - $WORK/m.json <<'PY' && pass "mark JSON" || fail "mark JSON"
import json, sys
d = json.load(open(sys.argv[1]))
names = [t["name"] for t in d["tests"]]
ok = names == ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"] and d["schema"] == "iomark-result"
for t in d["tests"]:
    for w in ("read", "write"):
        x = t[w]
        r = x["each_run"][0]
        # MB/s is 10^6 bytes/s; IOPS x block size = bytes/s
        ok &= abs(x["mb_per_s"] * 1e6 - x["iops"] * t["bs_bytes"]) <= 1e-6 * x["mb_per_s"] * 1e6 + 1
        ok &= abs(x["mib_per_s"] * 1048576 - x["mb_per_s"] * 1e6) <= 1e-6 * x["mb_per_s"] * 1e6 + 1
        ok &= x["iops"] > 0 and r["ios"] > 0 and len(x["each_run"]) == 1
print(names)
sys.exit(0 if ok else 1)
PY
# --keep keeps it; a named folder target gets the file inside it
mkdir -p $WORK/dir
expect_status 0 "mark realworld keep" -- "$IOMARK" mark --profile=realworld --runs=2 --runtime=500ms --pause=0 --size=16M --keep --quiet $WORK/dir
[ -e $WORK/dir/iomark-test.dat ] && pass "kept with --keep" || fail "not kept"
grep -q "RND4K Q1T1" $WORK/out && grep -q "best of runs" $WORK/out && pass "realworld table, best run" || fail "realworld table: $(cat $WORK/out)"
finish
