#!/usr/bin/env bash
# test_lab_clean.sh - `iomark lab clean` on a fake lab folder (IOMARK_LAB_DIR):
# removes every cached iomark-HASH.cpio and leftovers of dead processes, keeps
# setup's files, prints each removal and the MiB freed (the sum of the sizes
# written here); --all removes setup's files and the folder; bad options exit 2.
source "$(dirname "$0")/lib.sh"
lab="$WORK/lab"
mkdir -p "$lab"
head -c 1048576 /dev/zero >"$lab/iomark-00000000000000a1.cpio"     # 1 MiB
head -c 2097152 /dev/zero >"$lab/iomark-00000000000000a2.cpio"     # 2 MiB
head -c 524288 /dev/zero >"$lab/base.cpio.tmp.999999999"           # 0.5 MiB, no such pid
head -c 1048576 /dev/zero >"$lab/base.cpio"                        # 1 MiB, setup's
echo "kernel_version=6.1.0-57-amd64" >"$lab/lab.conf"
echo "keep me" >"$lab/notes.txt"                                    # not ours

expect_status 0 "lab clean" -- env IOMARK_LAB_DIR="$lab" "$IOMARK" lab clean
grep -q "^removed iomark-00000000000000a1.cpio (1.0 MiB)$" "$WORK/out" && pass "lists a1 with its size" || fail "a1 line: $(cat "$WORK/out")"
grep -q "^removed iomark-00000000000000a2.cpio (2.0 MiB)$" "$WORK/out" && pass "lists a2 with its size" || fail "a2 line: $(cat "$WORK/out")"
grep -q "^removed base.cpio.tmp.999999999 (0.5 MiB)$" "$WORK/out" && pass "lists the leftover" || fail "leftover line: $(cat "$WORK/out")"
grep -q "removed 3 files, freed 3.5 MiB$" "$WORK/out" && pass "total 3.5 MiB" || fail "total: $(cat "$WORK/out")"
[ ! -e "$lab/iomark-00000000000000a1.cpio" ] && [ ! -e "$lab/iomark-00000000000000a2.cpio" ] && pass "images gone" || fail "images left: $(ls "$lab")"
[ -e "$lab/base.cpio" ] && [ -e "$lab/lab.conf" ] && pass "setup's files kept" || fail "setup's files removed: $(ls "$lab")"

expect_status 0 "lab clean again" -- env IOMARK_LAB_DIR="$lab" "$IOMARK" lab clean
grep -q "removed 0 files, freed 0.0 MiB$" "$WORK/out" && pass "nothing left to free" || fail "second clean: $(cat "$WORK/out")"

expect_status 0 "lab clean --all" -- env IOMARK_LAB_DIR="$lab" "$IOMARK" lab clean --all
grep -q "^removed base.cpio (1.0 MiB)$" "$WORK/out" && pass "--all removes base.cpio" || fail "--all: $(cat "$WORK/out")"
[ ! -e "$lab/lab.conf" ] && [ -e "$lab/notes.txt" ] && pass "--all keeps files not its own" || fail "--all left: $(ls "$lab")"

expect_status 2 "lab clean --bogus" -- env IOMARK_LAB_DIR="$lab" "$IOMARK" lab clean --bogus
expect_err_has "--bogus: unknown option; allowed: --all"
expect_status 0 "lab clean on a missing folder" -- env IOMARK_LAB_DIR="$WORK/none" "$IOMARK" lab clean
[ ! -e "$WORK/none" ] && pass "missing folder not created" || fail "created $WORK/none"
finish
