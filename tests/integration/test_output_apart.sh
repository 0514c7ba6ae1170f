#!/usr/bin/env bash
# test_output_apart.sh - an --output that would replace data is refused before
# anything is written (exit 2, one line naming --output and why): the target
# of run, sweep and mark (by the same inode, or by the same absolute name for
# a file the run would create), the input of compare, report and model (also
# inside "LABEL=FILE,FILE"), a fio job file, tpcc's SQLite database; a file
# carrying a filesystem signature (an ext4 image) unless --force, where the
# command has it; and a block device (also through a symbolic link), which a
# result would have been written into in place. Each refused file keeps its
# bytes (sha256sum) and nothing else is created.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
I=$IOMARK
sum() { sha256sum <"$1"; }
nothing_new() { # nothing_new DESC: the folder holds only what was there before
  local now; now=$(ls -A "$WORK" | grep -v '^\(out\|err\)$' | sort | tr '\n' ' ')
  [ "$now" = "$before" ] && pass "$1: nothing created" || fail "$1: folder now holds $now (before: $before)"
}
snap() { before=$(ls -A "$WORK" | grep -v '^\(out\|err\)$' | sort | tr '\n' ' '); }

# a target the run would create: the same absolute name, however spelled
mkdir sub
snap
expect_status 2 "run --output naming its own new target" -- "$I" run --runtime=1s --size=8M --output=sub/../t.dat t.dat
expect_err_has "iomark run: --output=sub/../t.dat: is also the target t.dat, which the results would replace; name another file"
nothing_new "run"
expect_status 2 "sweep --output naming its target" -- "$I" sweep --iodepth=1,2 --runtime=1s --size=8M --output="$WORK/t.dat" t.dat
expect_err_has "is also the target t.dat"
nothing_new "sweep"
expect_status 2 "mark --output naming its test file" -- "$I" mark --runs=1 --prepare=0 --pause=0 --runtime=200ms --size=8M --profile=realworld --output=sub/iomark-test.dat sub
expect_err_has "iomark mark: --output=sub/iomark-test.dat: is also the target sub/iomark-test.dat"
nothing_new "mark"

# an existing target: the same inode through a link
"$I" run --rw=write --bs=64k --size=8M --io_size=8M --keep --quiet t.dat >/dev/null 2>&1 || fail "making t.dat"
ln -s t.dat t.link
s=$(sum t.dat); snap
expect_status 2 "run --output through a link to its target" -- "$I" run --runtime=1s --output=t.link t.dat
expect_err_has "--output=t.link: is also the target t.dat"
[ "$(sum t.dat)" = "$s" ] && pass "the target is unchanged" || fail "the target changed"
nothing_new "existing target"

# inputs of compare, report and model
"$I" run --runtime=300ms --quiet --output-format=json --output=r.json t.dat >/dev/null 2>&1 || fail "making r.json"
cp r.json r2.json
s=$(sum r.json); snap
expect_status 2 "compare --output naming its input" -- "$I" compare r2.json r.json --output=r.json
expect_err_has "iomark compare: --output=r.json: is also the input r.json, which the results would replace; name another file"
expect_status 2 "compare --output naming a file of LABEL=A,B" -- "$I" compare base=r2.json,./r.json -o "$WORK/r.json"
expect_err_has "is also the input ./r.json"
expect_status 2 "report --output naming its input" -- "$I" report r.json -o ./r.json
expect_err_has "iomark report: --output=./r.json: is also the input r.json"
expect_status 2 "model fit --output naming its input" -- "$I" model fit r.json -o r.json
expect_err_has "iomark model: --output=r.json: is also the input r.json"
[ "$(sum r.json)" = "$s" ] && pass "the input is unchanged" || fail "the input changed"
nothing_new "inputs"
expect_status 0 "compare to another file" -- "$I" compare r2.json r.json -o c.txt
grep -q "r2.json" c.txt && pass "the comparison is written" || fail "c.txt: $(head -c 300 c.txt)"
rm -f c.txt

# a fio job file, tpcc's database
printf '[w]\nfilename=%s/w.dat\nsize=8M\nrw=randread\nruntime=1\n' "$WORK" >j.fio
s=$(sum j.fio); snap
expect_status 2 "a job file's --output naming the job file" -- "$I" run j.fio --output=j.fio
expect_err_has "iomark run: --output=j.fio: is also the job file j.fio"
[ "$(sum j.fio)" = "$s" ] && pass "the job file is unchanged" || fail "the job file changed"
expect_status 2 "tpcc --output naming its database" -- "$I" tpcc run --db=sqlite:"$WORK/x.db" --output="$WORK/x.db"
expect_err_has "--output=$WORK/x.db: is also the database file $WORK/x.db"
nothing_new "job file and database"

# a filesystem image: refused without --force (compare has none to offer)
if command -v mkfs.ext4 >/dev/null; then
  mkfs.ext4 -q -F fs.img 16M >/dev/null
  s=$(sum fs.img); snap
  expect_status 2 "run --output naming an ext4 image" -- "$I" run --runtime=300ms t.dat --output=fs.img
  expect_err_has "iomark run: --output=fs.img: carries an ext4 signature (a filesystem or disk image?), which the results would replace; name another file, or add --force to replace it"
  expect_status 2 "compare --output naming an ext4 image" -- "$I" compare r.json -o fs.img
  expect_err_has "iomark compare: --output=fs.img: carries an ext4 signature (a filesystem or disk image?), which the results would replace; name another file"
  grep -q -- "--force" "$WORK/err" && fail "compare offers --force, which it has not" || pass "compare offers no --force"
  [ "$(sum fs.img)" = "$s" ] && pass "the image is unchanged" || fail "the image changed"
  nothing_new "ext4 image"
  expect_status 0 "run --force replaces the image with the result" -- "$I" run --runtime=300ms --force --quiet --output-format=json --output=fs.img t.dat
  $PY -c 'import json,sys; assert json.load(open(sys.argv[1]))["schema"] == "iomark-result"' fs.img \
    && pass "the image now holds the result" || fail "fs.img: $(head -c 200 fs.img)"
else
  echo "skip: no mkfs.ext4: the image case"
fi

# a block device, named or through a link: never written as an output
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && losetup -f >/dev/null 2>&1; then
  truncate -s 8M back.img
  new_loop "$WORK/back.img"; D=$LOOP_DEV
  ln -s "$D" dev.link
  s=$(sum back.img); snap
  expect_status 2 "run --output naming a block device" -- "$I" run --runtime=300ms t.dat --output="$D"
  expect_err_has "iomark run: --output=$D: is a block device, which the results would be written over; name a file"
  expect_status 2 "report --output through a link to a block device" -- "$I" report r.json -o dev.link
  expect_err_has "iomark report: --output=dev.link: is a block device"
  expect_status 2 "run --force --output naming a block device" -- "$I" run --runtime=300ms --force t.dat --output="$D"
  expect_err_has "is a block device"
  [ "$(sum back.img)" = "$s" ] && pass "the device's bytes are unchanged" || fail "the device was written"
  nothing_new "block device"
  drop_loop "$D"
else
  echo "skip: needs root and loop devices: the block device case"
fi
finish
