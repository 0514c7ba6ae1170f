#!/usr/bin/env bash
# test_messages.sh - messages a newcomer reads: sizes in binary units beside
# the byte count (the free space is read here with stat -f and formatted
# independently), "did you mean" for a mistyped command and option value, the article before a
# filesystem signature ("an ext4"), a permission error on a block device
# that names root and the device's group, and on a regular file or its folder
# the permission needed and what needs it (owner and mode), with the same
# exit status (2) as the other cannot-open refusals; results that could not
# be written (a full device, a closed pipe) are a failure, not exit 0.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# --- did you mean (exit 2, one line)
for pair in rnu:run mrak:mark swep:sweep comapre:compare diskpsd:diskspd; do
  typo=${pair%%:*} want=${pair##*:}
  expect_status 2 "iomark $typo" -- "$IOMARK" "$typo"
  expect_err_has "iomark: $typo: unknown command; did you mean $want? commands: run"
done
grep -qE "commands: run .* help$" "$WORK/err" && pass "the list of commands ends with help" || fail "list: $(cat "$WORK/err")"
expect_status 2 "iomark xyz" -- "$IOMARK" xyz
grep -q "did you mean" "$WORK/err" && fail "a suggestion for xyz: $(cat "$WORK/err")" || pass "no suggestion for a word far from every command"
# a mistyped option value: the nearest allowed value, then the list (nothing created)
for pair in rw:randwirte:randwrite rw:raed:read ioengine:uring:io_uring ioengine:libiao:libaio; do
  IFS=: read -r opt typo want <<<"$pair"
  expect_status 2 "--$opt=$typo" -- "$IOMARK" run --runtime=1s --size=1M "--$opt=$typo" "$WORK/v.dat"
  expect_err_has "iomark run: --$opt=$typo: did you mean $want? allowed: "
  [ ! -e "$WORK/v.dat" ] && pass "--$opt=$typo: nothing created" || fail "--$opt=$typo created v.dat"
done
expect_status 2 "--rw=zzzzzz" -- "$IOMARK" run --runtime=1s --size=1M --rw=zzzzzz "$WORK/v.dat"
grep -q "did you mean" "$WORK/err" && fail "a suggestion for --rw=zzzzzz: $(cat "$WORK/err")" \
  || pass "no suggestion for a value far from every allowed one"
# a mistyped option of mark, tpcc or report: the nearest name, then the list;
# a pattern option of run is not mark's (the preset sets the pattern); a
# mistyped value of tpcc's lists, its step, run's --profile: the nearest too
for c in "mark --profle=peak:--profle: unknown option; did you mean --profile? allowed: --profile, --runs" \
         "mark --runtim=1s:--runtime" "tpcc --warehouse=2:did you mean --warehouses?" \
         "report --outptu=x.html:did you mean --output?" \
         "model fit --guest-cpu=of:--guest-cpu=of: did you mean off? allowed: auto, on, off" \
         "compare --fromat=json:did you mean --output-format?" \
         "mark --bs=4k:--bs: not an option of mark (the preset sets the pattern)" \
         "tpcc --journal_mode=wall:--journal_mode=wall: did you mean wal? allowed: wal, delete, truncate or persist" \
         "tpcc --synchronous=ful:--synchronous=ful: did you mean full? allowed: full, normal, off or extra" \
         "tpcc lod:lod: unknown step; did you mean load? allowed: load, run, check (none = all)" \
         "run --profile=sql-olpt:--profile=sql-olpt: unknown profile; did you mean sql-oltp? allowed: sql-oltp, sql-log" \
         "run --output-format=jsn:--output-format=jsn: did you mean json? allowed: normal, json" \
         "run --sync=dsyn:--sync=dsyn: did you mean dsync? allowed: none (0), dsync" \
         "run --rate_process=poison:--rate_process=poison: did you mean poisson? allowed: linear, poisson" \
         "run --random_distribution=zipfian:--random_distribution=zipfian: did you mean zipf? allowed: random, zipf:THETA" \
         "compare --output-format=markdwn:--output-format=markdwn: did you mean markdown? allowed: normal, markdown, json" \
         "model fit --output-format=jsno:--output-format=jsno: did you mean json? allowed: normal, json" \
         "probe --output-format=nromal:--output-format=nromal: did you mean normal? allowed: normal, json" \
         "lab clen:iomark lab: clen: unknown sub-command; did you mean clean? allowed: iomark lab setup, iomark lab clean"; do
  # shellcheck disable=SC2086 # the command and its option are two words
  expect_status 2 "iomark ${c%%:*}" -- "$IOMARK" ${c%%:*}
  expect_err_has "${c#*:}"
done
# an option written without its value ("--bs --size=8M"): that option needs a
# value; the next option is not taken as it (getopt_long would), nothing created
for c in "run --bs --size=1M $WORK/nv.dat:iomark run: --bs: needs a value" \
         "run --runtime --size=1M $WORK/nv.dat:iomark run: --runtime: needs a duration" \
         "mark --runs --size=1M $WORK/nv.dat:iomark mark: --runs: needs a value" \
         "tpcc --vu --runtime=5s:iomark tpcc: --vu: needs a value (--vu=VALUE)"; do
  # shellcheck disable=SC2086 # the command and its options are words
  expect_status 2 "iomark ${c%%:*}" -- "$IOMARK" ${c%%:*}
  expect_err_has "${c#*:}"
  grep -q -- "--size\|--runtime=" "$WORK/err" && fail "${c%%:*}: the next option taken as the value: $(cat "$WORK/err")" \
    || pass "${c%%:*}: the next option not taken as the value"
done
[ ! -e "$WORK/nv.dat" ] && [ ! -e iomark-tpcc.db ] && pass "no value: nothing created" || fail "no value: a file created"
# sweep's own --threads, not run's --numjobs (fio's --thread would say so)
expect_status 2 "iomark sweep --thread=1,2" -- "$IOMARK" sweep --thread=1,2 --runtime=1s "$WORK/sw.dat"
expect_err_has "iomark sweep: --thread: unknown option; did you mean --threads?"
# fio's names that iomark spells differently point at iomark's (fio 3.33
# options.c: loops, and the aliases ba, timeout, io_limit, steadystate); fio's
# loops is run's --repeat, mark's --runs, and no option of sweep
for c in "run --loops=2|iomark run: --loops: unknown option; did you mean --repeat (iomark's name for --loops)?" \
         "run --ba=4k|iomark run: --ba: unknown option; did you mean --blockalign (iomark's name for --ba)?" \
         "run --timeout=1s|iomark run: --timeout: unknown option; did you mean --runtime (iomark's name for --timeout)?" \
         "run --io_limit=1M|iomark run: --io_limit: unknown option; did you mean --io_size (iomark's name for --io_limit)?" \
         "run --steadystate=iops:1%|iomark run: --steadystate: unknown option; did you mean --ss (iomark's name for --steadystate)?" \
         "run --norandommap|iomark run: --norandommap: not an iomark run option; iomark draws random offsets with replacement by default" \
         "mark --loops=2|iomark mark: --loops: unknown option; did you mean --runs (iomark mark's name for --loops: each test's runs)?" \
         "mark --timeout=1s|iomark mark: --timeout: unknown option; did you mean --runtime (iomark's name for --timeout)?" \
         "mark --blocksize=4k|iomark mark: --blocksize (iomark's --bs): not an option of mark (the preset sets the pattern)" \
         "sweep --loops=2|iomark sweep: --loops: unknown option; a sweep measures each point once (fio's --loops is iomark run --repeat)" \
         "run -o|iomark run: -o: unknown option; the results file is --output=FILE (DiskSpd's -oN, outstanding I/Os per thread, is --iodepth=N" \
         "sweep -o32|iomark sweep: -o32: unknown option; the results file is --output=FILE" \
         "mark -o|iomark mark: -o: unknown option; the results file is --output=FILE"; do
  # shellcheck disable=SC2086 # the command and its option are two words
  expect_status 2 "iomark ${c%%|*}" -- "$IOMARK" ${c%%|*} --size=1M "$WORK/fio-name.dat"
  expect_err_has "${c#*|}"
done
[ ! -e "$WORK/fio-name.dat" ] && pass "fio's names: nothing created" || fail "fio's names: fio-name.dat created"
# a file the user had, extended for the region: a line on stderr says so, with
# both sizes (1 MiB before; --offset=2M + --size=1M end at 3 MiB: 3145728 bytes)
head -c 1048576 /dev/zero >"$WORK/had.dat"
expect_status 0 "a run past a file's end" -- "$IOMARK" run --offset=2M --size=1M --runtime=200ms --quiet "$WORK/had.dat"
grep -qF "the test file $WORK/had.dat was 1 MiB (1048576 bytes); iomark extended it to 3 MiB (3145728 bytes)" "$WORK/err" &&
  [ "$(stat -c %s "$WORK/had.dat")" = 3145728 ] && pass "an extended file is named on stderr with both sizes" ||
  fail "extended file: $(stat -c %s "$WORK/had.dat") bytes; $(cat "$WORK/err")"
# mark says the same: a 16 MiB file of the user's with --size=32M (both sizes from
# here), and the file stays so
head -c 16777216 /dev/urandom >"$WORK/had16.dat"
expect_status 0 "mark past a file's end" -- "$IOMARK" mark --profile=realworld --runs=1 --prepare=0 --pause=0 --runtime=200ms --size=32M --quiet "$WORK/had16.dat"
grep -qxF "iomark mark: the test file $WORK/had16.dat was 16 MiB (16777216 bytes); iomark extended it to 32 MiB (33554432 bytes) for the region of --size (the new part holds random data), and it stays so" "$WORK/err" &&
  [ "$(stat -c %s "$WORK/had16.dat")" = 33554432 ] && pass "mark: an extended file is named on stderr with both sizes" ||
  fail "mark extended file: $(stat -c %s "$WORK/had16.dat") bytes; $(cat "$WORK/err")"
rm -f "$WORK/had16.dat"
expect_status 2 "iomark mark --xyzzy" -- "$IOMARK" mark --xyzzy
grep -q "did you mean" "$WORK/err" && fail "a suggestion for --xyzzy: $(cat "$WORK/err")" \
  || expect_err_has "mark: --xyzzy: unknown option; allowed: --profile, --runs, --pause"
[ ! -e iomark-test.dat ] && [ ! -e iomark-tpcc.db ] && [ ! -e x.html ] && pass "nothing created by the refused options" \
  || fail "created: $(ls)"
# --- a synchronous engine and --iodepth above 1: psync completes each I/O in
# queue() (src/engine/psync.c), so a thread has 1 in flight, as fio caps it ("note:
# both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be
# capped at 1"): a note naming both options, spec.iodepth as asked (8) and
# spec.iodepth_effective 1, the report's header, and compare's workload check on 1
head -c 4194304 /dev/zero >"$WORK/qd.dat"
expect_status 0 "psync --iodepth=8" -- "$IOMARK" run --ioengine=psync --iodepth=8 --runtime=500ms --output-format=json --output="$WORK/q8.json" "$WORK/qd.dat"
expect_err_has "iomark run: note: --iodepth=8 with --ioengine=psync, a synchronous engine: 1 I/O in flight per thread, so the queue depth is 1, as fio caps it"
spec() { $PY -c 'import json,sys; s=json.load(open(sys.argv[1]))["spec"]; print(s["ioengine"], s["iodepth"], s["iodepth_effective"])' "$1"; }
[ "$(spec "$WORK/q8.json")" = "psync 8 1" ] && pass "psync --iodepth=8: spec ioengine psync, iodepth 8, iodepth_effective 1" \
  || fail "psync spec: $(spec "$WORK/q8.json")"
$CHECK "$WORK/q8.json" >"$WORK/chk" && pass "psync --iodepth=8: the result holds its schema" || fail "schema: $(cat "$WORK/chk")"
# Little's law from the result's own figures: I/Os in flight = IOPS x mean latency,
# 1 for one thread that issues its next I/O only after the last completed (room
# left for an I/O that straddles the window's end on a loaded machine; 8 is far)
qd=$($PY -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]["total"]; print("%.3f" % (t["iops"] * t["lat_us"]["mean"] / 1e6))' "$WORK/q8.json" 2>/dev/null || echo x)
awk -v q="$qd" 'BEGIN { exit !(q != "x" && q > 0 && q <= 1.5) }' && pass "psync --iodepth=8: measured queue depth $qd (IOPS x mean latency), not 8" \
  || fail "psync measured queue depth: $qd"
expect_status 0 "psync --iodepth=8, text report" -- "$IOMARK" run --ioengine=sync --iodepth=8 --runtime=300ms "$WORK/qd.dat"
grep -q "iodepth 8 asked, 1 in flight (psync is synchronous)," "$WORK/out" && pass "report header: iodepth 8 asked, 1 in flight" \
  || fail "report header: $(head -1 "$WORK/out")"
cp "$WORK/out" "$WORK/q8.txt"
expect_status 0 "psync --iodepth=8 --quiet" -- "$IOMARK" run --ioengine=psync --iodepth=8 --runtime=300ms --quiet --output-format=json --output="$WORK/q8b.json" "$WORK/qd.dat"
[ ! -s "$WORK/err" ] && pass "--quiet: no note" || fail "--quiet: $(cat "$WORK/err")"
expect_status 0 "psync --iodepth=1" -- "$IOMARK" run --ioengine=psync --iodepth=1 --runtime=300ms --output-format=json --output="$WORK/q1.json" "$WORK/qd.dat"
[ ! -s "$WORK/err" ] && [ "$(spec "$WORK/q1.json")" = "psync 1 1" ] && pass "psync --iodepth=1: no note, iodepth_effective 1" \
  || fail "psync --iodepth=1: $(spec "$WORK/q1.json"); $(cat "$WORK/err")"
expect_status 0 "libaio --iodepth=8" -- "$IOMARK" run --ioengine=libaio --iodepth=8 --runtime=300ms --output-format=json --output="$WORK/a8.json" "$WORK/qd.dat"
! grep -q "synchronous" "$WORK/err" && [ "$(spec "$WORK/a8.json")" = "libaio 8 8" ] && pass "libaio --iodepth=8: no note, iodepth_effective 8" \
  || fail "libaio --iodepth=8: $(spec "$WORK/a8.json"); $(cat "$WORK/err")"
"$IOMARK" compare "$WORK/q1.json" "$WORK/q8.json" >/dev/null 2>"$WORK/err" || true
! grep -q "differ" "$WORK/err" && pass "compare psync QD1 with psync --iodepth=8: the same depth (1), no warning" || fail "compare: $(cat "$WORK/err")"
"$IOMARK" compare "$WORK/q8.json" "$WORK/a8.json" >/dev/null 2>"$WORK/err" || true
grep -q "differ: iodepth 1 vs 8" "$WORK/err" && pass "compare psync --iodepth=8 with libaio --iodepth=8: iodepth 1 vs 8" || fail "compare: $(cat "$WORK/err")"
"$IOMARK" compare "$WORK/q8.txt" "$WORK/a8.json" >/dev/null 2>"$WORK/err" || true
grep -q "differ: iodepth 1 vs 8" "$WORK/err" && pass "compare, psync's text report: iodepth 1 vs 8" || fail "compare text: $(cat "$WORK/err")"
expect_status 0 "sweep psync --iodepth=1,4" -- "$IOMARK" sweep --ioengine=psync --iodepth=1,4 --runtime=300ms --output-format=json --output="$WORK/sw.json" "$WORK/qd.dat"
expect_err_has "iomark sweep: note: --iodepth=1,4 with --ioengine=psync, a synchronous engine: 1 I/O in flight per thread"
# mark's default profile (CrystalDiskMark 8: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1)
expect_status 0 "mark psync" -- "$IOMARK" mark --ioengine=psync --runs=1 --prepare=0 --runtime=200ms --pause=0 --size=4M --output-format=json --output="$WORK/m.json" "$WORK/qd.dat"
expect_err_has "iomark mark: note: tests up to Q32 (profile default) with --ioengine=psync, a synchronous engine"
tq=$($PY -c 'import json,sys; print(" ".join("%s:%d/%d" % (t["name"], t["iodepth"], t["iodepth_effective"]) for t in json.load(open(sys.argv[1]))["tests"]))' "$WORK/m.json" 2>/dev/null || true)
[ "$tq" = "SEQ1M Q8T1:8/1 SEQ1M Q1T1:1/1 RND4K Q32T1:32/1 RND4K Q1T1:1/1" ] && pass "mark psync: each test's iodepth/iodepth_effective: $tq" || fail "mark psync tests: $tq"
# --- iomark help COMMAND [SUB] is COMMAND [SUB] --help: the same text, exit 0
for c in run mark "lab setup"; do
  # shellcheck disable=SC2086 # "lab setup" is two words
  a=$("$IOMARK" help $c 2>&1) && b=$("$IOMARK" $c --help 2>&1) && [ -n "$a" ] && [ "$a" = "$b" ] &&
    pass "iomark help $c = iomark $c --help (${a%%$'\n'*})" || fail "iomark help $c: $(head -c 300 <<<"$a")"
done
expect_status 2 "iomark help rnu" -- "$IOMARK" help rnu
expect_err_has "did you mean run?"

# human: the format the message should use, computed here: binary units, one
# decimal dropped when 0, the exact bytes in parentheses
human() {
  awk -v b="$1" 'BEGIN { if (b < 1024) { printf "%d bytes", b; exit }
    split("KiB MiB GiB TiB PiB", u, " "); v = b / 1024; k = 1
    while (k < 5 && v >= 1024) { v /= 1024; k++ }
    s = sprintf("%.1f", v); sub(/\.0$/, "", s); printf "%s %s (%d bytes)", s, u[k], b }'
}

# --- ranges in the option's own units; values echoed as typed (exit 2, one line)
expect_status 2 "--status-interval=500ms" -- "$IOMARK" run --status-interval=500ms --size=1M "$WORK/s.dat"
expect_err_has "iomark run: --status-interval=500ms: must be from 1s to 24h"
expect_status 2 "--series_interval=10us" -- "$IOMARK" run --series_interval=10us --size=1M "$WORK/s.dat"
expect_err_has "iomark run: --series_interval=10us: must be at least 1ms"
expect_status 2 "--ramp_time=-1s" -- "$IOMARK" run --ramp_time=-1s --size=1M "$WORK/s.dat"
expect_err_has "iomark run: --ramp_time=-1s: negative values are not allowed; must be 0 or more"
# a size's limit in a human unit beside the bytes (1 GiB = 2^30 bytes)
expect_status 2 "--bs=2G" -- "$IOMARK" run --bs=2G --size=1M "$WORK/s.dat"
expect_err_has "iomark run: --bs=2G: must be from 1 to 1 GiB (1073741824 bytes)"
expect_status 2 "--bs=-4k" -- "$IOMARK" run --bs=-4k --size=1M "$WORK/s.dat"
expect_err_has "iomark run: --bs=-4k: negative values are not allowed; must be from 1 to 1 GiB (1073741824 bytes)"
expect_status 2 "--offset=-1" -- "$IOMARK" run --offset=-1 --size=1M "$WORK/s.dat"
expect_err_has "iomark run: --offset=-1: negative values are not allowed; must be 0 or more bytes"
expect_status 2 "mark --prepare=-1s" -- "$IOMARK" mark --prepare=-1s "$WORK/s.dat"
expect_err_has "iomark mark: --prepare=-1s: must be 0 or more"
# 4 threads 5 MiB apart: thread 3 starts at 15728640, past the 10 MiB file
expect_status 2 "diskspd -T5M on a 10 MiB file" -- "$IOMARK" diskspd -c10M -t4 -T5M -d1 "$WORK/t.dat"
expect_err_has "iomark diskspd: -T5M: file too small: thread 3 would start at byte 15728640 of a 10485760-byte file"
[ ! -e "$WORK/s.dat" ] && [ ! -e "$WORK/t.dat" ] && pass "nothing created by the refusals" || fail "a file was created"

# --- results that did not get out: a full device (/dev/full: every write
# fails with ENOSPC) is a failure named with write(2)'s reason, exit 1; a
# reader that went away (`| true`: gone before the 1 s run ends) is 141, as
# for a program SIGPIPE ends, with nothing said
full_check() { # DESC WANT-TEXT command... (stdout to /dev/full)
  local desc=$1 want=$2 rc=0; shift 2
  "$@" >/dev/full 2>"$WORK/err" || rc=$?
  [ "$rc" = 1 ] && grep -qF -- "$want" "$WORK/err" && pass "$desc: exit 1, '$want'" \
    || fail "$desc: exit $rc; stderr: $(head -c 400 "$WORK/err")"
}
full_check "run text on a full stdout" "iomark run: writing standard output: No space left on device" \
  "$IOMARK" run --runtime=1s --size=1M --keep=0 "$WORK/f.dat"
full_check "run JSON on a full stdout" "writing standard output: No space left on device" \
  "$IOMARK" run --runtime=1s --size=1M --keep=0 --output-format=json "$WORK/f.dat"
full_check "run text to --output=/dev/full" "iomark run: writing /dev/full: No space left on device" \
  "$IOMARK" run --runtime=1s --size=1M --keep=0 --output=/dev/full "$WORK/f.dat"
full_check "run JSON to --output=/dev/full" "iomark run: writing /dev/full: No space left on device" \
  "$IOMARK" run --runtime=1s --size=1M --keep=0 --output-format=json --output=/dev/full "$WORK/f.dat"
[ ! -e "$WORK/f.dat" ] && pass "full output: the test file removed (--keep=0)" || fail "f.dat left"
R="$SRCDIR/tests/data/results"
# a folder that makes no new files (procfs answers ENOENT): said so, not "No such file"
expect_status 2 "--output into /proc" -- "$IOMARK" compare --output=/proc/version "$R/diskspd_text_1.txt"
expect_err_has "--output=/proc/version: cannot create files in folder /proc (the results are written beside it first): it accepts no new files"
full_check "compare on a full stdout" "iomark compare: writing standard output: No space left on device" \
  "$IOMARK" compare "$R/diskspd_text_1.txt" "$R/diskspd_text_2.txt"
full_check "report on a full stdout" "iomark report: writing standard output: No space left on device" \
  "$IOMARK" report "$R/diskspd_text_1.txt"
full_check "profiles on a full stdout" "iomark profiles: writing standard output: No space left on device" \
  "$IOMARK" profiles
for fmt in normal json; do
  ( rc=0; "$IOMARK" run --runtime=1s --size=1M --keep=0 --output-format=$fmt "$WORK/p.dat" \
      2>"$WORK/err" || rc=$?; echo $rc >"$WORK/rc" ) | true
  rc=$(cat "$WORK/rc")
  [ "$rc" = 141 ] && ! grep -q "writing" "$WORK/err" && pass "$fmt results into a closed pipe: exit 141, no write error said" \
    || fail "$fmt into a closed pipe: exit $rc; stderr: $(head -c 300 "$WORK/err")"
done
[ ! -e "$WORK/p.dat" ] && pass "closed pipe: the test file removed (--keep=0)" || fail "p.dat left"

if [ "$(id -u)" = 0 ]; then
  # --- sizes: a 100 MiB tmpfs cannot hold a 512 MiB file
  mkdir -p "$WORK/small"
  if mount -t tmpfs -o size=100M tmpfs "$WORK/small" 2>/dev/null; then
    MOUNTS+=("$WORK/small")
    expect_status 2 "512M on a 100 MiB filesystem" -- "$IOMARK" run --size=512M --runtime=1s "$WORK/small/x.dat"
    free=$(stat -f -c '%a %S' "$WORK/small" | awk '{ printf "%d", $1 * $2 }')
    want="creating it needs $(human 536870912) but the filesystem has $(human "$free") free; choose a smaller --size"
    expect_err_has "$want"
    expect_err_has "needs 512 MiB (536870912 bytes) but the filesystem has 100 MiB (104857600 bytes) free"
    [ ! -e "$WORK/small/x.dat" ] && pass "nothing created" || fail "x.dat created"
    # diskspd names its own size option, -c
    expect_status 2 "diskspd -c512M on a 100 MiB filesystem" -- "$IOMARK" diskspd -c512M -d1 "$WORK/small/d.dat"
    expect_err_has "free; choose a smaller -c"
    [ ! -e "$WORK/small/d.dat" ] && pass "nothing created (diskspd)" || fail "d.dat created"
  else
    echo "skip: cannot mount tmpfs: size message"
  fi

  # --- permission on a block device: a device node root:disk 0660, opened as nobody
  if command -v setpriv >/dev/null; then
    mkdir -p "$WORK/perm"; chmod 755 "$WORK" "$WORK/perm"
    mknod "$WORK/perm/blk" b 7 0 && chgrp disk "$WORK/perm/blk" && chmod 660 "$WORK/perm/blk"
    as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
    if as_nobody "$IOMARK" --version >/dev/null 2>&1; then
      expect_status 2 "device without permission" -- as_nobody "$IOMARK" run --runtime=1s "$WORK/perm/blk"
      expect_err_has "target $WORK/perm/blk: cannot open: Permission denied; a block device needs root or membership in its group disk"
      # mode 0600 root:root (as this machine creates loop devices): joining the group
      # would not help, so the message says only root
      mknod "$WORK/perm/blk0" b 7 0 && chgrp root "$WORK/perm/blk0" && chmod 600 "$WORK/perm/blk0"
      expect_status 2 "device 0600 root:root" -- as_nobody "$IOMARK" run --runtime=1s "$WORK/perm/blk0"
      expect_err_has "only root may open this block device (owner uid 0, group root, mode 600)"
      grep -q "usermod" "$WORK/err" && fail "group hint on a 0600 device: $(cat "$WORK/err")" || pass "no group hint on a 0600 device"
      # other cannot-open refusals: the same status
      expect_status 2 "missing target" -- as_nobody "$IOMARK" run --runtime=1s "$WORK/perm/none"
      echo data >"$WORK/perm/f"; chmod 600 "$WORK/perm/f"
      expect_status 2 "file without permission" -- as_nobody "$IOMARK" run --runtime=1s --size=4k "$WORK/perm/f"
      # (5 bytes and --size=4k: read and extended, so both permissions)
      expect_err_has "target $WORK/perm/f: cannot open for reading and writing: Permission denied (owner uid 0, mode 600: iomark needs read and write permission to extend it to 4 KiB (4096 bytes) for the region of --offset and --size)"
      head -c 1048576 /dev/urandom >"$WORK/perm/ro.dat"; chmod 600 "$WORK/perm/ro.dat"
      expect_status 2 "a read of a file nobody may not read" -- as_nobody "$IOMARK" run --runtime=1s "$WORK/perm/ro.dat"
      expect_err_has "target $WORK/perm/ro.dat: cannot open for reading: Permission denied (owner uid 0, mode 600: iomark needs read permission)"
      grep -q "group disk" "$WORK/err" && fail "device hint on a file: $(cat "$WORK/err")" || pass "no device hint for a file"
      # --- regular files: the permission the workload needs, and what needs it
      # (owner and mode as stat shows them; the folder $WORK/perm is root's, 755)
      head -c 1048576 /dev/urandom >"$WORK/perm/w.dat"; chmod 644 "$WORK/perm/w.dat"
      sum=$(sha256sum <"$WORK/perm/w.dat")
      expect_status 2 "randwrite on a file nobody may not write" -- as_nobody "$IOMARK" run --rw=randwrite --runtime=1s "$WORK/perm/w.dat"
      expect_err_has "target $WORK/perm/w.dat: cannot open for reading and writing: Permission denied (owner uid $(stat -c %u "$WORK/perm/w.dat"), mode $(stat -c %a "$WORK/perm/w.dat"): iomark needs write permission for --rw=randwrite)"
      expect_status 0 "randread on it" -- as_nobody "$IOMARK" run --rw=randread --runtime=200ms --direct=0 --quiet "$WORK/perm/w.dat"
      expect_status 2 "a read that extends it" -- as_nobody "$IOMARK" run --size=2M --runtime=1s "$WORK/perm/w.dat"
      expect_err_has "(owner uid 0, mode 644: iomark needs write permission to extend it to 2 MiB (2097152 bytes) for the region of --offset and --size)"
      expect_status 2 "mark on it" -- as_nobody "$IOMARK" mark --runs=1 --prepare=0 --pause=0 --size=1M "$WORK/perm/w.dat"
      expect_err_has "iomark mark: target $WORK/perm/w.dat: cannot open for reading and writing: Permission denied (owner uid 0, mode 644: iomark needs write permission for its write tests)"
      expect_status 2 "diskspd -w30 on it" -- as_nobody "$IOMARK" diskspd -w30 -d1 "$WORK/perm/w.dat"
      expect_err_has "iomark diskspd: target $WORK/perm/w.dat: cannot open for reading and writing: Permission denied (owner uid 0, mode 644: iomark needs write permission for -w30)"
      [ "$(sha256sum <"$WORK/perm/w.dat")" = "$sum" ] && [ "$(stat -c %s "$WORK/perm/w.dat")" = 1048576 ] && pass "the file is unchanged" || fail "w.dat changed"
      # a new file in a folder nobody may not write: the folder, its owner and mode
      fmode=$(stat -c %a "$WORK/perm")
      for c in "run --size=1M --runtime=1s:run" "mark --runs=1 --prepare=0 --pause=0 --size=1M:mark" "diskspd -c1M -d1:diskspd"; do
        # shellcheck disable=SC2086 # the command and its options are words
        expect_status 2 "${c##*:}: a new file in a folder not writable" -- as_nobody "$IOMARK" ${c%:*} "$WORK/perm/new.dat"
        expect_err_has "iomark ${c##*:}: target $WORK/perm/new.dat: folder $WORK/perm is not writable (owner uid 0, mode $fmode); iomark needs write permission there to create the test file"
      done
      expect_status 2 "no --size, a folder not writable" -- as_nobody "$IOMARK" run --runtime=1s "$WORK/perm/new.dat"
      expect_err_has "target $WORK/perm/new.dat does not exist, and iomark cannot create it: folder $WORK/perm is not writable (owner uid 0, mode $fmode)"
      # a relative name: the folder by its full path, not "."
      expect_status 2 "a new file in the current folder" -- env -C "$WORK/perm" setpriv --reuid=65534 --regid=65534 --clear-groups "$IOMARK" run --size=1M --runtime=1s new.dat
      expect_err_has "target new.dat: folder $WORK/perm is not writable (owner uid 0, mode $fmode)"
      # a folder on the way that cannot be entered
      mkdir -p "$WORK/perm/closed/in"; chmod 700 "$WORK/perm/closed"
      expect_status 2 "a target behind a folder nobody cannot enter" -- as_nobody "$IOMARK" run --runtime=1s "$WORK/perm/closed/in/x.dat"
      expect_err_has "target $WORK/perm/closed/in/x.dat: cannot reach it: folder $WORK/perm/closed cannot be entered (owner uid 0, mode 700): iomark needs search (x) permission on it"
      [ ! -e "$WORK/perm/new.dat" ] && [ -z "$(ls -A "$WORK/perm/closed/in")" ] && pass "nothing created" || fail "created: $(ls "$WORK/perm")"
    else
      echo "skip: the build is not readable by nobody: permission messages"
    fi
  fi

  # --- root refused: a device node on a nodev mount opens for nobody, root included
  # (mount(8) nodev); the message says why instead of "run as root"
  mkdir -p "$WORK/nodev"
  if mount -t tmpfs -o size=1M,nodev tmpfs "$WORK/nodev" 2>/dev/null; then
    MOUNTS+=("$WORK/nodev")
    mknod "$WORK/nodev/blk" b 7 0
    expect_status 2 "device node on a nodev mount, as root" -- "$IOMARK" run --runtime=1s "$WORK/nodev/blk"
    expect_err_has "target $WORK/nodev/blk: cannot open: Permission denied; the filesystem that holds this device node is mounted nodev, which refuses device access to every user, root included: use the device's node under /dev"
    grep -q "sudo" "$WORK/err" && fail "root told to use sudo: $(cat "$WORK/err")" || pass "root not told to use sudo"
  else
    echo "skip: cannot mount tmpfs: nodev message"
  fi

  # --- the article: an ext4 signature
  if command -v losetup >/dev/null && losetup -f >/dev/null 2>&1 && command -v mkfs.ext4 >/dev/null; then
    truncate -s 16M "$WORK/fs.img"
    mkfs.ext4 -q -F "$WORK/fs.img"
    new_loop "$WORK/fs.img"
    expect_status 2 "write to an ext4 device" -- "$IOMARK" run --rw=write --runtime=1s "$LOOP_DEV"
    expect_err_has "carries an ext4 signature"
    # a region past the device's end: both ends in binary units beside the bytes
    expect_status 2 "a region past the device's end" -- "$IOMARK" run --size=32M --offset=1M --runtime=1s "$LOOP_DEV"
    expect_err_has "--size: the region ends at 33 MiB (34603008 bytes) but $LOOP_DEV holds 16 MiB (16777216 bytes)"
  else
    echo "skip: no loop device or mkfs.ext4: article"
  fi
else
  echo "skip: not root: size, permission and signature messages"
fi
finish
