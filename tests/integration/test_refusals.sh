#!/usr/bin/env bash
# Bad input: exit 2, one line naming the option, the value and what is
# allowed, and nothing created or written (target and --output both absent);
# a file image with a filesystem or partition table is not written without
# --force.
source "$(dirname "$0")/lib.sh"
T=$WORK/never.dat
O=$WORK/never.json
refuse() { # refuse "text the message must contain" args...
  local text=$1; shift
  expect_status 2 "refused: $*" -- "$IOMARK" run --size=16M --output-format=json --output=$O "$@" $T
  expect_err_has "$text"
  [ ! -e $T ] && [ ! -e $O ] && pass "nothing created for: $*" || fail "a file was created for: $*"
}
refuse "--bs=64D" --bs=64D
refuse "--bs=1.5" --bs=1.5
refuse "--bs=0" --bs=0
refuse "--rwmixread=200" --rw=randrw --rwmixread=200
refuse "--rwmixread=200%" --rw=randrw --rwmixread=200%
refuse "--runtime=0" --runtime=0
refuse "--runtime=-1" --runtime=-1
refuse "--iodepth=0" --iodepth=0
refuse "--numjobs=-1" --numjobs=-1
refuse "--ioengine=posixaio" --ioengine=posixaio
refuse "did you mean --iodepth" --iodepth2=4
refuse "--rw=random" --rw=random
refuse "--size=-5" --size=-5
refuse "quarter of RAM" --iodepth=65536 --bs=1M
# a verify read of a file the run would create: nothing there carries verify
# blocks (fio 3.33 fails at the first read; a fio job file still does)
refuse "--verify: a read-only run checks blocks that a verify write run put there, but $T does not exist yet" --rw=randread --verify=crc32c
# --direct and --buffered are one setting (fio: buffered=0 is direct=1): values
# that disagree are a conflict naming both, whatever their order; agreeing ones run
refuse "--direct=0 and --buffered=0 conflict" --direct=0 --buffered=0
refuse "--direct=0 and --buffered=0 conflict" --buffered=0 --direct=0
refuse "--direct=1 and --buffered=1 conflict" --direct=1 --buffered=1
expect_status 2 "mark: --direct=0 --buffered=0 refused" -- "$IOMARK" mark --direct=0 --buffered=0 --output=$O $T
expect_err_has "--direct=0 and --buffered=0 conflict"
[ ! -e $T ] && [ ! -e $O ] && pass "mark: nothing created on the conflict" || fail "mark: a file was created"
for agree in "--direct=1 --buffered=0" "--direct=0 --buffered=1"; do
  expect_status 0 "agreeing: $agree" -- "$IOMARK" run $agree --runtime=1s --size=1M --keep=0 --output-format=json --output=$WORK/agree.json $WORK/agree.dat
  case "$agree" in --direct=1*) want=direct ;; *) want=buffered ;; esac
  mode=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["spec"]["io_mode"])' $WORK/agree.json)
  [ "$mode" = "$want" ] && pass "agreeing $agree: spec.io_mode $mode" || fail "agreeing $agree: io_mode $mode, want $want"
done
expect_status 2 "missing target without size" -- "$IOMARK" run $T
expect_err_has "give --size"
[ ! -e $T ] && pass "no file created" || fail "file created"
expect_status 2 "no target" -- "$IOMARK" run --runtime=1
expect_err_has "no target"
expect_status 2 "output folder missing" -- "$IOMARK" run --size=16M --output=$WORK/nodir/x.json $T
expect_err_has "does not exist"
[ ! -e $T ] && pass "no file created" || fail "file created"
# a target in a folder that does not exist: the message names that folder
# (it was read after being freed and printed garbage), relative and absolute
expect_status 2 "target folder missing (relative)" -- env -C $WORK "$IOMARK" run --runtime=1s --size=64M nodir/x.dat
expect_err_has "folder nodir does not exist"
expect_status 2 "target folder missing (absolute)" -- "$IOMARK" run --runtime=1s --size=64M $WORK/nodir2/sub/x.dat
expect_err_has "target $WORK/nodir2/sub/x.dat: folder $WORK/nodir2 does not exist" # the first missing one
# ... and without --size the missing folder comes first, not "give --size"
# (which would only lead to the folder's message next)
expect_status 2 "target folder missing, no --size" -- "$IOMARK" run --runtime=1s $WORK/nodir3/x.dat
expect_err_has "target $WORK/nodir3/x.dat: folder $WORK/nodir3 does not exist"
grep -q -- "--size" $WORK/err && fail "--size suggested for a missing folder: $(cat $WORK/err)" || pass "no --size hint for a missing folder"
# a "folder" that is a file: named, not the raw "Not a directory"
: >$WORK/plain
expect_status 2 "target under a file" -- "$IOMARK" run --runtime=1s --size=64M $WORK/plain/sub/x.dat
expect_err_has "target $WORK/plain/sub/x.dat: $WORK/plain is a file, not a folder"
expect_status 2 "existing-path form under a file" -- "$IOMARK" run --runtime=1s $WORK/plain/x.dat
expect_err_has "target $WORK/plain/x.dat: $WORK/plain is a file, not a folder"
expect_status 2 "--output under a file" -- "$IOMARK" run --runtime=1s --size=64M --output=$WORK/plain/o.json $WORK/o.dat
expect_err_has "--output=$WORK/plain/o.json: $WORK/plain is a file, not a folder"
[ "$(stat -c %s $WORK/plain)" = 0 ] && [ ! -e $WORK/o.dat ] && pass "nothing written" || fail "written: $(ls -l $WORK)"
rm -f $WORK/plain
[ ! -e $WORK/nodir ] && [ ! -e $WORK/nodir2 ] && [ ! -e $WORK/nodir3 ] && [ ! -e $WORK/x.dat ] && pass "nothing created" || fail "created: $(ls $WORK)"
# a mistyped device name: no regular file is made in /dev (devtmpfs, in RAM),
# with or without --size, and the message does not suggest --size
nodev=/dev/iomark-nodev-$$
expect_status 2 "missing device with --size" -- "$IOMARK" run --runtime=1s --size=16M $nodev
expect_err_has "target $nodev: no such device (iomark does not create files in /dev"
expect_status 2 "missing device without --size" -- "$IOMARK" run --runtime=1s $nodev
expect_err_has "no such device"
[ ! -e $nodev ] && pass "nothing created in /dev" || { rm -f $nodev; fail "$nodev created"; }
expect_status 2 "size too big for the filesystem" -- "$IOMARK" run --size=1P $T
expect_err_has "needs 1 PiB (1125899906842624 bytes) but the filesystem has "
[ ! -e $T ] && pass "no file created" || fail "file created"
expect_status 2 "unknown command" -- "$IOMARK" frobnicate
expect_status 2 "directory as target" -- "$IOMARK" run $WORK
# an empty existing file is refused, and left as it was
: > $WORK/empty.dat
expect_status 2 "empty file" -- "$IOMARK" run $WORK/empty.dat
expect_err_has "empty"
[ "$(stat -c %s $WORK/empty.dat)" = 0 ] && pass "empty file untouched" || fail "empty file changed"
# a file smaller than one block
head -c 100 /dev/urandom > $WORK/tiny.dat
expect_status 2 "target smaller than a block" -- "$IOMARK" run --direct=0 $WORK/tiny.dat
expect_err_has "smaller than one block"
# --size below one block: the message gives both sizes, nothing is created
expect_status 2 "--size below one block" -- "$IOMARK" run --size=1k --runtime=1s $WORK/small1k.dat
expect_err_has "--size: 1 KiB (1024 bytes) is smaller than one block of 4 KiB (4096 bytes)"
[ ! -e $WORK/small1k.dat ] && pass "no file created" || fail "small1k.dat created"
# a folder: run names the file it wants (mark takes a folder), with or without a trailing slash
mkdir -p $WORK/adir
expect_status 2 "run on a folder" -- "$IOMARK" run --size=1M --runtime=1s $WORK/adir
expect_err_has "target $WORK/adir is a folder; name a file in it (e.g. $WORK/adir/iomark-test.dat, created with --size) or a block device"
expect_status 2 "run on a folder/" -- "$IOMARK" run --size=1M --runtime=1s $WORK/adir/
expect_err_has "(e.g. $WORK/adir/iomark-test.dat, created"
[ -z "$(ls -A $WORK/adir)" ] && pass "nothing created in the folder" || fail "created: $(ls -A $WORK/adir)"
# region past the end of an existing file is refused for a read-only pattern? no: files grow.
# an --offset past the end of an existing file without --size: both in the units typed
truncate -s 16M $WORK/o16.dat
expect_status 2 "--offset past the end" -- "$IOMARK" run --offset=32M --runtime=1s $WORK/o16.dat
expect_err_has "--offset: 32 MiB (33554432 bytes) is past the end of $WORK/o16.dat, which holds 16 MiB (16777216 bytes)"
[ "$(stat -c %s $WORK/o16.dat)" = 16777216 ] && pass "the file keeps its size" || fail "o16.dat resized"
# mark: pattern options do not apply
expect_status 2 "mark refuses --bs" -- "$IOMARK" mark --bs=4k $WORK
expect_err_has "--bs"
expect_status 2 "mark --profile bad" -- "$IOMARK" mark --profile=fastest $WORK
expect_err_has "--profile=fastest"
[ ! -e $WORK/iomark-test.dat ] && pass "mark created nothing" || fail "mark created its file"
# --- a regular file that carries a filesystem or partition-table signature (a
# filesystem image, a VM disk image): every front end that writes refuses it
# without --force, naming the signature, and leaves it byte for byte as it was
# (sha256sum, and blkid -p still finds it); reads are allowed
if command -v mkfs.ext4 >/dev/null && command -v blkid >/dev/null; then
  F=$WORK/fs.img
  mkfs.ext4 -q -F $F 16M >/dev/null
  sum=$(sha256sum <$F)
  msg="target $F carries an ext4 signature; a write test would destroy its data. Add --force to write to it anyway"
  printf '[w]\nfilename=%s\nrw=randwrite\nruntime=1\ntime_based=1\n' $F >$WORK/w.fio
  for c in "run --rw=randwrite --runtime=1s" "run --rw=write --verify=crc32c --runtime=1s" \
           "diskspd -w100 -d1" "sweep --rw=randwrite --iodepth=1,2 --runtime=1s" \
           "mark --runs=1 --prepare=0 --pause=0 --size=16M"; do
    # shellcheck disable=SC2086 # the command and its options are words
    expect_status 2 "${c%% *} writing an ext4 image: ${c#* }" -- "$IOMARK" $c $F
    expect_err_has "iomark ${c%% *}: $msg"
  done
  expect_status 2 "mark with its default 1 GiB on a 16 MiB ext4 image" -- "$IOMARK" mark --runs=1 --prepare=0 --pause=0 $F
  expect_err_has "iomark mark: $msg"
  expect_status 2 "a job file writing an ext4 image" -- "$IOMARK" run $WORK/w.fio
  expect_err_has "$msg"
  # a read that would extend the image to its region changes it too
  expect_status 2 "a read extending an ext4 image" -- "$IOMARK" run --rw=randread --size=32M --runtime=1s $F
  expect_err_has "target $F carries an ext4 signature; extending it to 32 MiB (33554432 bytes) for the region of --offset and --size would change it. Add --force to extend it anyway"
  [ "$(sha256sum <$F)" = "$sum" ] && [ "$(stat -c %s $F)" = 16777216 ] && pass "the image is unchanged" || fail "the image changed"
  expect_status 0 "reading an ext4 image" -- "$IOMARK" run --rw=randread --runtime=300ms --quiet $F
  [ "$(blkid -p -o value -s TYPE $F)" = ext4 ] && pass "blkid -p still finds ext4" || fail "ext4 gone: $(blkid -p $F)"
  # --force writes it: 16 sequential 1 MiB writes over the whole image leave no signature
  expect_status 0 "--force writes the image" -- "$IOMARK" run --rw=write --bs=1M --io_size=16M --force --quiet $F
  rc=0; blkid -p $F >/dev/null || rc=$?
  [ "$rc" = 2 ] && pass "after --force blkid -p finds nothing (exit 2)" || fail "blkid -p after --force: exit $rc"
  if command -v sfdisk >/dev/null; then
    truncate -s 16M $WORK/pt.img
    echo 'label: dos' | sfdisk -q $WORK/pt.img >/dev/null 2>&1
    expect_status 2 "writing a partitioned disk image" -- "$IOMARK" run --rw=write --runtime=1s $WORK/pt.img
    expect_err_has "target $WORK/pt.img carries a dos partition table; a write test would destroy its data"
  fi
  # iomark's own test files (random data, zeros, verify blocks, a mark file kept)
  # carry no signature: blkid -p finds nothing, and a write run takes them again
  for o in --randseed=1 --zero_buffers --verify=meta --verify=crc32c; do
    rm -f $WORK/own.dat
    "$IOMARK" run --rw=write --bs=64k --size=8M --io_size=8M $o --quiet $WORK/own.dat >/dev/null 2>&1
    rc=0; blkid -p $WORK/own.dat >/dev/null || rc=$?
    expect_status 0 "a write run on iomark's own file ($o)" -- "$IOMARK" run --rw=randwrite --runtime=200ms --quiet $WORK/own.dat
    [ "$rc" = 2 ] && pass "iomark's file ($o): blkid -p finds nothing" || fail "blkid -p on iomark's file ($o): exit $rc"
  done
  mkdir -p $WORK/m
  "$IOMARK" mark --runs=1 --prepare=0 --pause=0 --runtime=200ms --size=8M --profile=realworld --keep --quiet $WORK/m >/dev/null 2>&1
  expect_status 0 "mark again on the file it kept" -- "$IOMARK" mark --runs=1 --prepare=0 --pause=0 --runtime=200ms --size=8M --profile=realworld --quiet $WORK/m
  rm -rf $WORK/m
else
  echo "skip: no mkfs.ext4 or blkid: signatures on files"
fi
# help is not an error
expect_status 0 "run --help" -- "$IOMARK" run --help
grep -q -- "--iodepth" $WORK/out && pass "help lists options" || fail "help"
finish
