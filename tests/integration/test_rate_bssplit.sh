#!/usr/bin/env bash
# Issue 12 item 12: --rate (bytes/s) with --bssplit holds the byte cap, as
# fio's rate= does (fio HOWTO: rate is in bytes/s; fio holds it within a few
# percent). Expected bytes from the command line by hand: 4 MiB/s x 5 s =
# 20971520 bytes. As in fio (backend.c usec_for_io), an I/O is due when the
# bytes issued before it are within the budget, the first at once
# (core/pace.h), so the bytes issued by time T never exceed rate x T by more
# than the largest block (1 MiB): an exact ceiling. Below it, a run does what
# the machine lets it: a thread that gets no CPU near the end cannot issue
# what falls due then (lost ~30% seen under two CPU burners with ASan). So
# the cap holds in every run, each run does at least half, and, since a stall
# hits one run and not its twin, the best of the four seeds does at least 97%
# of the budget.
# --rate_iops: 50/s x 5 s = 250 I/Os at most, at least half.
source "$(dirname "$0")/lib.sh"
T=$WORK/t.dat
want=$((4 * 1048576 * 5))
for seed in 1 2 3 4; do
  "$IOMARK" run --ioengine=null --rw=randread --bssplit=4k/90:1m/10 --rate=4M --runtime=5 \
    --randseed=$seed --size=16M --output-format=json --output=$WORK/r$seed.json $T 2>/dev/null \
    || { fail "seed $seed: run failed"; continue; }
  got=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['read']['bytes'])" $WORK/r$seed.json)
  echo "$got" >>$WORK/got
  $PY - "$got" "$want" <<'PY' && pass "seed $seed: $got bytes, at most $want + 1 MiB" || fail "seed $seed: $got bytes, wanted <= $want + 1 MiB, >= half"
import sys
got, want = int(sys.argv[1]), int(sys.argv[2])
sys.exit(0 if want / 2 <= got <= want + 1048576 else 1)
PY
done
best=$(sort -n $WORK/got | tail -1)
$PY -c "import sys; sys.exit(0 if 0.97 * $want <= $best <= $want + 1048576 else 1)" \
  && pass "best of 4 seeds: $best bytes, at least 97% of $want" || fail "best of 4 seeds $best bytes, wanted 97% of $want .. $want + 1 MiB"
"$IOMARK" run --ioengine=null --rw=randread --bssplit=4k/90:1m/10 --rate_iops=50 --runtime=5 \
  --size=16M --output-format=json --output=$WORK/i.json $T 2>/dev/null || fail "rate_iops run failed"
ios=$($PY -c "import json,sys; print(json.load(open(sys.argv[1]))['total']['read']['ios'])" $WORK/i.json)
[ "$ios" -ge 125 ] && [ "$ios" -le 250 ] && pass "--rate_iops=50 for 5 s: $ios I/Os (250 at most)" || fail "--rate_iops=50: $ios I/Os, wanted 125..250"
finish
