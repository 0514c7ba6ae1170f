#!/usr/bin/env bash
# Issue 12 item 12: --rate (bytes/s) with --bssplit holds the byte cap, as
# fio's rate= does (fio HOWTO: rate is in bytes/s; fio holds it within a few
# percent). Expected bytes from the command line by hand: 4 MiB/s x 5 s =
# 20971520 bytes, within 3%. --rate_iops: 50/s x 5 s = 250 I/Os.
source "$(dirname "$0")/lib.sh"
T=$WORK/t.dat
want=$((4 * 1048576 * 5))
for seed in 1 2 3 4; do
  "$IOMARK" run --ioengine=null --rw=randread --bssplit=4k/90:1m/10 --rate=4M --runtime=5 \
    --randseed=$seed --size=16M --output-format=json --output=$WORK/r$seed.json $T 2>/dev/null \
    || { fail "seed $seed: run failed"; continue; }
  got=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['read']['bytes'])" $WORK/r$seed.json)
  $PY - "$got" "$want" <<'PY' && pass "seed $seed: $got bytes within 3% of $want" || fail "seed $seed: $got bytes, wanted $want +-3%"
import sys
got, want = int(sys.argv[1]), int(sys.argv[2])
sys.exit(0 if abs(got - want) <= 0.03 * want else 1)
PY
done
"$IOMARK" run --ioengine=null --rw=randread --bssplit=4k/90:1m/10 --rate_iops=50 --runtime=5 \
  --size=16M --output-format=json --output=$WORK/i.json $T 2>/dev/null || fail "rate_iops run failed"
ios=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['read']['ios'])" $WORK/i.json)
[ "$ios" -ge 249 ] && [ "$ios" -le 251 ] && pass "--rate_iops=50 for 5 s: $ios I/Os (250)" || fail "--rate_iops=50: $ios I/Os, wanted 250"
finish
