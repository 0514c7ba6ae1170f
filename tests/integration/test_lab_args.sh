#!/bin/bash
# test_lab_args.sh - `iomark lab`'s own options on the one argv grammar
# (workload/args.h, issue 13 item 4): --x=y, --x y and the '-'/'_' spellings
# reach the same option, so a bad value gives the same one line and exit 2
# in every spelling and nothing is created; an unknown option is refused
# with the closest lab or `iomark run` option; good values in either
# spelling give the same plan (--dry-run: printed, nothing booted or
# written). `lab setup` and `lab clean` use the same grammar. Needs no QEMU.
# The expected messages and plan lines are written here by hand from the
# ranges and defaults documented in `iomark lab --help` and docs/lab.md.
source "$(dirname "$0")/lib.sh"

never="$WORK/never"
# option (canonical spelling) | bad value | message after "iomark lab: "
rows=(
  "repeat|0|--repeat=0: allowed: 1-100 runs per controller"
  "disk-size|1k|--disk-size=1k: allowed: 16M to 64G, a multiple of 512 bytes"
  "cache|bogus|--cache=bogus: allowed: writeback, none, writethrough, directsync, unsafe"
  "scheduler|cfq|--scheduler=cfq: did you mean bfq? allowed: none, mq-deadline, kyber, bfq, keep"
  "scheduler|random|--scheduler=random: allowed: none, mq-deadline, kyber, bfq, keep"
  "vcpus|0|--vcpus=0: allowed: 1-64"
  "memory|100|--memory=100: allowed: 512-65536 (MiB)"
  "memory|256|--memory=256: allowed: 512-65536 (MiB)"
  "accel|xen|--accel=xen: allowed: auto, kvm, tcg"
  "timeout|5|--timeout=5: allowed: 10-86400 seconds"
  "boot|twice|--boot=twice: allowed: shared, each"
  "preset|cdm|--preset=cdm: allowed: mark"
  "guest-param|noequals|--guest-param=noequals: allowed: KEY=VALUE words"
  "controllers|floppy|--controllers=floppy: floppy: unknown controller; allowed: pvscsi, nvme"
  "study|no-such-study|--study=no-such-study: no such study or file"
  # a value one letter off: the nearest allowed one first, as --rw=randred
  "controllers|nvmee|--controllers=nvmee: nvmee: unknown controller; did you mean nvme? allowed: pvscsi, nvme,"
  "controllers|nvme,virtio-bkl|--controllers=nvme,virtio-bkl: virtio-bkl: unknown controller; did you mean virtio-blk? allowed: "
  "cache|writebak|--cache=writebak: did you mean writeback? allowed: writeback, none, writethrough, directsync, unsafe"
  "scheduler|kyberr|--scheduler=kyberr: did you mean kyber? allowed: none, mq-deadline, kyber, bfq, keep"
  "accel|kvmm|--accel=kvmm: did you mean kvm? allowed: auto, kvm, tcg"
  "boot|share|--boot=share: did you mean shared? allowed: shared, each"
  "preset|mrk|--preset=mrk: did you mean mark? allowed: mark"
  "study|pvscsi-vs-nvme-sq|--study=pvscsi-vs-nvme-sq: no such study or file; did you mean pvscsi-vs-nvme-sql? --study=list"
)
for row in "${rows[@]}"; do
  IFS='|' read -r opt val want <<<"$row"
  swapped=$(tr -- '-_' '_-' <<<"$opt")
  first=""
  for form in "--$opt=$val" "--$opt $val" "--$swapped=$val" "--$swapped $val"; do
    # shellcheck disable=SC2086 # the form splits into one or two words on purpose
    expect_status 2 "lab $form" -- "$IOMARK" lab --output-dir="$never" $form
    expect_err_has "iomark lab: $want"
    if [ -z "$first" ]; then first=$(cat "$WORK/err")
    elif [ "$(cat "$WORK/err")" = "$first" ]; then pass "lab $form: same message as --$opt=$val"
    else fail "lab $form: '$(cat "$WORK/err")' differs from '$first'"; fi
  done
done
expect_status 2 "lab --keep-disk=2" -- "$IOMARK" lab --output-dir="$never" --keep-disk=2
expect_err_has "iomark lab: --keep-disk=2: allowed: 0 or 1"
expect_status 2 "lab --scale without a study" -- "$IOMARK" lab --output-dir="$never" --scale 0.5
expect_err_has "iomark lab: --scale=0.5: applies to --study only"
expect_status 2 "lab --controllers without a value" -- "$IOMARK" lab --output-dir="$never" --controllers
expect_err_has "iomark lab: --controllers: needs a value (--controllers=VALUE)"

# unknown options: the closest lab option, else the closest run option, else what is allowed
expect_status 2 "lab --contollers" -- "$IOMARK" lab --output-dir="$never" --contollers=ide
expect_err_has "iomark lab: --contollers=ide: unknown option; did you mean --controllers?"
expect_status 2 "lab --guest_parm" -- "$IOMARK" lab --output-dir="$never" --guest_parm nvme.x=1
expect_err_has "iomark lab: --guest_parm: unknown option; did you mean --guest-param?"
expect_status 2 "lab --iodeptth (a run option misspelt)" -- "$IOMARK" lab --output-dir="$never" --iodeptth=4
expect_err_has "iomark lab: --iodeptth=4: unknown option; did you mean --iodepth?"
# fio's --loops is the lab's --repeat; a mistyped command or profile after --: the nearest
expect_status 2 "lab --loops=2" -- "$IOMARK" lab --output-dir="$never" --loops=2
expect_err_has "iomark lab: --loops=2: unknown option; did you mean --repeat (iomark's name for --loops)?"
expect_status 2 "lab -- rnu" -- "$IOMARK" lab --output-dir="$never" --dry-run -- rnu --runtime=1s
expect_err_has "iomark lab: -- rnu: unknown command; did you mean run? allowed: run, diskspd, sweep, mark, tpcc"
expect_status 2 "lab -- run --profile=sql-oltpp" -- "$IOMARK" lab --output-dir="$never" --dry-run -- run --profile=sql-oltpp
expect_err_has "--profile=sql-oltpp: unknown profile; did you mean sql-oltp? allowed: sql-oltp, sql-log"
expect_status 2 "lab --no-such-option" -- "$IOMARK" lab --output-dir="$never" --no-such-option
expect_err_has "iomark lab: --no-such-option: unknown option; allowed: the lab options of iomark lab --help"
expect_status 2 "lab --output FILE" -- "$IOMARK" lab --output-dir="$never" --output x.json
expect_err_has "iomark lab: --output: the lab writes JSON results to --output-dir; allowed: --output-dir=DIR"
expect_status 2 "lab setup --bogus" -- "$IOMARK" lab setup --bogus
expect_err_has "iomark lab setup: --bogus: unknown option; allowed: --no-install, --kernel-package, --help (-h)"
expect_status 2 "lab setup --kernel-package bad" -- "$IOMARK" lab setup --kernel_package vmlinuz
expect_err_has "iomark lab setup: --kernel-package=vmlinuz: allowed: a Debian package name linux-image-VERSION-FLAVOUR"
expect_status 2 "lab clean --everything" -- "$IOMARK" lab clean --everything
expect_err_has "iomark lab clean: --everything: unknown option; allowed: --all, --help (-h)"
[ ! -e "$never" ] && pass "nothing created on bad input" || fail "bad input created $never"

# good values: --x=y and --x y (and '_' for '-') give the same plan, with the values given
eq=(--dry-run --controllers=ide,nvme --repeat=3 --disk-size=64M --cache=none --scheduler=mq-deadline
    --vcpus=1 --memory=512 --accel=tcg --timeout=600 --boot=each --output-dir="$WORK/o" --keep-disk
    --guest-param=nvme.io_queue_depth=64)
sp=(--dry_run --controllers ide,nvme --repeat 3 --disk_size 64M --cache none --scheduler mq-deadline
    --vcpus 1 --memory 512 --accel tcg --timeout 600 --boot each --output_dir "$WORK/o" --keep_disk 1
    --guest_param nvme.io_queue_depth=64)
expect_status 0 "lab --x=y --dry-run" -- "$IOMARK" lab "${eq[@]}" --rw=read --ramp-time=3s
cp "$WORK/out" "$WORK/eq.txt"
expect_status 0 "lab --x y --dry-run" -- "$IOMARK" lab "${sp[@]}" --rw=read --ramp-time=3s
cp "$WORK/out" "$WORK/sp.txt"
if cmp -s "$WORK/eq.txt" "$WORK/sp.txt"; then pass "--x=y and --x y, '-' and '_': the same plan"
else fail "the plans differ: $(diff "$WORK/eq.txt" "$WORK/sp.txt" | head -5)"; fi
want=(
  "iomark lab --dry-run: 2 controller(s) x 1 job(s), 3 run(s) each, boot each"
  "disk 67108864 bytes, cache none, scheduler mq-deadline, vcpus 1, memory 512 MiB, accel tcg, timeout 600 s per boot, output-dir $WORK/o, keep-disk"
  "controller ide: nvme.io_queue_depth=64"
  "controller nvme: nvme.io_queue_depth=64"
)
for w in "${want[@]}"; do
  grep -qxF -- "$w" "$WORK/sp.txt" && pass "plan: $w" || fail "plan lacks '$w': $(cat "$WORK/sp.txt")"
done
# the old form: run options pass to the guest as typed; the lab's default
# --ramp_time=2s gives way to --ramp-time=3s ('-' and '_' are one letter)
job=$(grep '^job 1 ' "$WORK/sp.txt" || true)
case $job in
  *" in the guest: iomark run "*"--iodepth=32 --numjobs=2 --runtime=10s --rw=read --ramp-time=3s --output-format=json"*)
    pass "old form: defaults, then the user's run options" ;;
  *) fail "old form job line: $job" ;;
esac
case $job in *ramp_time=2s*|*rw=randread*) fail "a default the user replaced is still there: $job" ;;
  *) pass "defaults the user replaced are left out" ;; esac
[ ! -e "$WORK/o" ] && pass "--dry-run created nothing" || fail "--dry-run created $WORK/o"

# "--" ends the lab options: the command and its words go to the guest as given
expect_status 0 "lab -- sweep" -- "$IOMARK" lab --dry-run --controllers nvme -- sweep --threads 1,8 --bs 8k
grep -qF "in the guest: iomark sweep --threads 1,8 --bs 8k --output-format=json" "$WORK/out" &&
  pass "-- sweep ARGS reach the guest as given" || fail "-- sweep: $(cat "$WORK/out")"
expect_status 2 "lab --rw=read -- run" -- "$IOMARK" lab --dry-run --rw=read -- run --bs=8k
expect_err_has "iomark lab: --rw=read: workload options go after -- COMMAND"
expect_status 2 "lab -- (no command)" -- "$IOMARK" lab --dry-run --
expect_err_has "iomark lab: --: needs COMMAND ARGS after --"

# --preset=mark passes mark's options through (docs/lab.md), before or after
# "--"; the guest line and the estimate per run are worked out by hand from
# docs/mark.md: the default profile's 4 tests x 2 directions x (1 run x 5 s +
# a 5 s preparation run), no pauses = 80 s; --size is the lab disk
for form in "--preset=mark --runs=1 --pause=0 --runtime=5s" "--preset=mark --runs 1 --pause 0 --runtime=5s" \
            "--preset=mark -- --runs=1 --pause=0 --runtime=5s" "--preset=mark -- mark --runs=1 --pause=0 --runtime=5s"; do
  # shellcheck disable=SC2086 # the form splits into words on purpose
  expect_status 0 "lab $form --dry-run" -- "$IOMARK" lab --dry-run --controllers=virtio-blk --disk-size=64M $form
  job=$(grep '^job 1 ' "$WORK/out" || true)
  case $job in
    "job 1 (about 80 s a run, bound "*") in the guest: iomark mark --size=67108864 --runs"*" --runtime=5s --output-format=json --quiet --force @OUTPUT@ @DISK@")
      pass "$form: mark's options reach the guest, 80 s a run" ;;
    *) fail "$form: $job" ;;
  esac
done
grep -qF "iomark mark --size=67108864 --runs=1 --pause=0 --runtime=5s --output-format" "$WORK/out" &&
  pass "-- mark ARGS with --preset=mark: the words as given" || fail "$(cat "$WORK/out")"
# the trial's mark job: 2 tests x 2 directions x 1 s, no preparation, no pauses;
# the bound (3 x (4 + 600 s for the test region) + 60) is separate
expect_status 0 "lab -- mark peak --dry-run" -- "$IOMARK" lab --dry-run --controllers=virtio-blk --disk-size=64M \
  -- mark --profile=peak --runs=1 --prepare=0 --pause=0 --runtime=1s --size=32M
grep -qxF "job 1 (about 4 s a run, bound 1872 s) in the guest: iomark mark --profile=peak --runs=1 --prepare=0 --pause=0 --runtime=1s --size=32M --output-format=json --quiet --force @OUTPUT@ @DISK@" "$WORK/out" &&
  pass "-- mark peak: about 4 s a run" || fail "-- mark peak: $(cat "$WORK/out")"
# --profile is mark's with --preset=mark (run's SQL Server profile otherwise)
expect_status 0 "lab --preset=mark --profile=peak --dry-run" -- "$IOMARK" lab --dry-run --controllers=virtio-blk \
  --disk-size=64M --preset=mark --profile=peak --runs=1 --prepare=0 --pause=0 --runtime=1s
grep -qF "job 1 (about 4 s a run, bound 1872 s) in the guest: iomark mark --size=67108864 --profile=peak" "$WORK/out" &&
  pass "--preset=mark --profile=peak: about 4 s a run" || fail "--preset=mark --profile=peak: $(cat "$WORK/out")"
# mark's own options without mark, and a bad one with it: one line, exit 2
expect_status 2 "lab --runs=1 (no mark)" -- "$IOMARK" lab --dry-run --runs=1
expect_err_has "iomark lab: --runs=1: an option of iomark mark; allowed with --preset=mark or -- mark"
expect_status 2 "lab --preset=mark --runs=0" -- "$IOMARK" lab --dry-run --preset=mark --runs=0
expect_err_has "iomark lab: --runs=0: must be a whole number from 1 to 1000"
expect_status 2 "lab --preset=mark -- run" -- "$IOMARK" lab --dry-run --preset=mark -- run --bs=8k
expect_err_has "iomark lab: --preset=mark: give either --preset=mark or -- COMMAND ARGS"

# --help and -h: the same text, naming the lab options and the grammar
"$IOMARK" lab --help >"$WORK/h1" && "$IOMARK" lab -h >"$WORK/h2" && cmp -s "$WORK/h1" "$WORK/h2" &&
  pass "-h = --help" || fail "-h and --help differ"
grep -q -- "--dry-run" "$WORK/h1" && grep -q -- "--name=VALUE or --name VALUE" "$WORK/h1" &&
  pass "help lists --dry-run and the grammar" || fail "help lacks --dry-run or the grammar"
# lab clean where no lab has run: says so, creates nothing
IOMARK_LAB_DIR="$WORK/nolab" "$IOMARK" lab clean >"$WORK/c1" 2>&1 &&
  [ "$(cat "$WORK/c1")" = "$WORK/nolab: no lab folder yet (no lab has run here); nothing to remove" ] &&
  [ ! -e "$WORK/nolab" ] && pass "lab clean without a lab folder: says so, nothing created" ||
  fail "lab clean without a lab folder: $(cat "$WORK/c1")"
# lab clean --help names the folder it cleans, resolved as documented
env -u IOMARK_LAB_DIR XDG_CACHE_HOME="$WORK/xdg" "$IOMARK" lab clean --help >"$WORK/h3" &&
  grep -qxF "(here: $WORK/xdg/iomark/lab)." "$WORK/h3" && pass "lab clean --help: the folder from XDG_CACHE_HOME" ||
  fail "lab clean --help: $(cat "$WORK/h3")"
IOMARK_LAB_DIR="$WORK/labx" "$IOMARK" lab clean --help >"$WORK/h3" && grep -qxF "(here: $WORK/labx)." "$WORK/h3" &&
  [ ! -e "$WORK/labx" ] && pass "lab clean --help: the folder from IOMARK_LAB_DIR, nothing created" ||
  fail "lab clean --help with IOMARK_LAB_DIR: $(cat "$WORK/h3")"
finish
