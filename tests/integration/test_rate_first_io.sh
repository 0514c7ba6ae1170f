#!/bin/bash
# test_rate_first_io.sh - a paced job issues its first I/O at once and paces
# the ones after it, as fio does (backend.c usec_for_io: the next I/O of a
# direction is due at the bytes issued so far / rate, 0 for the first), and
# fio job files' rate=READ,WRITE pace reads and writes each on their own
# (io_u.c rate_ddir). Expected counts by hand from that rule (fio 3.33's run
# of the same job file is printed beside; it agreed on an idle machine):
#  - rate=300,300 bs=4k for 3 s: a second I/O of a direction would be due at
#    4096 / 300 = 13.7 s, so 1 read and 1 write (fio 3.33: 1 and 1);
#  - fio's examples/exitwhat.fio scaled (16 MiB file, 200 I/Os for the slow
#    jobs): the rate=300 jobs do one read and one write per clone while the
#    slow job runs (fio 3.33: fast1 3 + 3; the second group 6 reads, 206 writes);
#  - rate_iops=100,10 with rwmixread=50 for 2 s (null engine): each direction its own cap,
#    I/O k due at k / rate: at most 200 reads and 20 writes;
#  - the native --rate=300 (one cap per thread) for 3 s: 1 I/O;
#    --rate=300 --rate_write=300 on randrw: 1 read and 1 write.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
head -c 1048576 /dev/zero >d.bin
# counts FILE [JOB]: "reads writes" of each job (fio's JSON; iomark writes the same layout)
counts() {
  $PY - "$1" <<'PY'
import json, sys
for x in json.load(open(sys.argv[1]))["jobs"]:
    print(x["jobname"], x["read"]["total_ios"], x["write"]["total_ios"])
PY
}
# fio and iomark on one job file; their per-job counts must be equal
same() {
  local name=$1
  timeout -s KILL 120 fio --output-format=json --output="$name.fio.json" "$name.fio" >/dev/null 2>&1 \
    || { fail "$name: fio failed"; return; }
  timeout -s KILL 120 "$IOMARK" run "$name.fio" --quiet --output-format=json --output="$name.iom.json" \
    >/dev/null 2>"$name.err" || { fail "$name: iomark failed: $(head -c 300 "$name.err")"; return; }
  local f i
  f=$(counts "$name.fio.json" | tr '\n' ';'); i=$(counts "$name.iom.json" | tr '\n' ';')
  # judged by the rule's arithmetic; fio's own run shown beside it: on a loaded
  # machine (a dozen tests on two cores) fio 3.33 once issued a second read
  # of r2 within 3 s, 13.7 s before the rule makes it due
  if [ "$i" = "$2" ]; then pass "$name: iomark $i as by hand (fio 3.33 here: $f)"
  else fail "$name: iomark $i, by hand $2 (fio 3.33 here: $f)"; fi
}
printf '[r]\nfilename=%s/d.bin\nsize=1m\nrw=randrw\nbs=4k\ntime_based\nruntime=3\nrate=300,300\n' "$WORK" >r2.fio
same r2 "r 1 1;"
if [ -r /usr/share/doc/fio/examples/exitwhat.fio ]; then
  sed -e 's|^filename=.*|filename=ew.dat|' -e 's|^filesize=.*|filesize=16m|' \
    -e 's|^number_ios=1000|number_ios=200|' /usr/share/doc/fio/examples/exitwhat.fio >ew.fio
  # slow1 200 reads; fast1's 3 clones 1 read + 1 write each; slow2's group:
  # slow2 200 writes, fast2 and runsnever 3 clones each, 1 read + 1 write
  same ew "slow1 200 0;fast1 3 3;slow2 6 206;"
else
  echo "note: fio-examples not installed, exitwhat.fio not run"
fi

printf '[m]\nfilename=%s/d.bin\nsize=1m\nrw=randrw\nrwmixread=50\nbs=4k\nioengine=null\ntime_based\nruntime=2\nrate_iops=100,10\n' "$WORK" >m.fio
"$IOMARK" run m.fio --quiet --output-format=json --output=m.json >/dev/null 2>m.err || fail "m: $(head -c 300 m.err)"
read -r _ r w < <(counts m.json)
# never above either cap; at least half of each: a cap shared by both directions
# would give about 100 writes, a read lane held back by the write lane about 20
# reads. The null engine: the caps without a device (with psync, reads of the
# disk the rest of the suite was loading made 135 reads in 2 s, once).
if [ "$r" -le 200 ] && [ "$r" -ge 100 ] && [ "$w" -le 20 ] && [ "$w" -ge 10 ]; then
  pass "rate_iops=100,10 rwmixread=50 for 2 s: $r reads (<= 200), $w writes (<= 20)"
else
  fail "rate_iops=100,10 rwmixread=50 for 2 s: $r reads, $w writes; wanted 100..200 and 10..20"
fi

# the native options: the same first-I/O rule
nat() {
  "$IOMARK" run --ioengine=null --bs=4k --runtime=3 --size=1m --quiet --output-format=json \
    --output=n.json "$@" "$WORK/d.bin" >/dev/null 2>n.err || { echo "failed: $(head -c 200 n.err)"; return; }
  $PY -c "import json; t = json.load(open('n.json'))['total']; print(t['read']['ios'], t['write']['ios'])"
}
got=$(nat --rw=randread --rate=300)
[ "$got" = "1 0" ] && pass "--rate=300 for 3 s: 1 I/O, at once" || fail "--rate=300 for 3 s: $got, wanted '1 0'"
got=$(nat --rw=randrw --rate=300 --rate_write=300)
[ "$got" = "1 1" ] && pass "--rate=300 --rate_write=300 for 3 s: 1 read, 1 write" || fail "--rate/--rate_write: $got, wanted '1 1'"
got=$(nat --rw=randrw --rate_iops=20 --rate_write=300)
[ "$got" = "failed: iomark run: --rate_write: give either IOPS caps (--rate_iops, --rate_iops_write) or byte caps (--rate, --rate_write), not both" ] \
  && pass "IOPS and byte caps together refused" || fail "mixed caps: $got"
finish
