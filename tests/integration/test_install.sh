#!/usr/bin/env bash
# cmake --install of this build into a temporary prefix: bin/iomark, one man
# page per command that `iomark --help` lists plus iomark(1), each page
# formatted by groff without a warning, every option line of `iomark run
# --help` present in iomark-run(1), and the bash completion answering
# (commands, options, sub-steps). The man pages and the completion are
# generated at build time (scripts/gen-docs.sh); this checks what a user gets.
# Also scripts/setup.sh's last line, naming the binary it built.
source "$(dirname "$0")/lib.sh"
BUILD=$(dirname "$IOMARK")
[ -f "$BUILD/CMakeCache.txt" ] || { echo "skip: $IOMARK is not in a CMake build folder"; exit 77; }
P=$WORK/prefix
expect_status 0 "cmake --install" -- cmake --install "$BUILD" --prefix "$P"
[ -x "$P/bin/iomark" ] && grep -q '^iomark [0-9]' <<<"$("$P/bin/iomark" --version)" \
  && pass "bin/iomark runs" || fail "bin/iomark"

cmds=$("$IOMARK" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
ncmd=$(echo "$cmds" | wc -w)
[ "$ncmd" -ge 10 ] && pass "$ncmd commands in iomark --help" || fail "only $ncmd commands"
M=$P/share/man/man1
[ -f $M/iomark.1 ] && pass "iomark.1" || fail "no iomark.1"
for c in $cmds; do [ -f $M/iomark-$c.1 ] || fail "no iomark-$c.1"; done
[ "$(ls $M | wc -l)" = $((ncmd + 1)) ] && pass "$((ncmd + 1)) man pages: iomark.1 and one per command" \
  || fail "man pages: $(ls $M | tr '\n' ' ')"
if command -v groff >/dev/null; then
  w=$(for f in $M/*.1; do groff -man -ww -z "$f" 2>&1; done)
  [ -z "$w" ] && pass "groff -ww: no warnings" || fail "groff: $(echo "$w" | head -3)"
fi
# every "--option" that starts a line of `iomark run --help` is a tag in iomark-run.1
missing=$("$IOMARK" run --help | awk '/^  +--/ {print $1}' | sed 's/=.*//' | while read -r o; do
  grep -qF "\\fB$(echo "$o" | sed 's/-/\\-/g')" $M/iomark-run.1 || echo "$o"; done)
n=$("$IOMARK" run --help | grep -c '^  \+--')
[ -z "$missing" ] && [ "$n" -gt 30 ] && pass "all $n option lines of run --help in iomark-run.1" \
  || fail "iomark-run.1 lacks: $missing"
grep -q '^\.TH IOMARK-RUN 1 ' $M/iomark-run.1 && pass ".TH header" || fail ".TH"

C=$P/share/bash-completion/completions/iomark
[ -f $C ] && pass "completion installed" || fail "no $C"
comp() { (cd "$WORK" && mkdir -p empty && cd empty && bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iomark; echo "${COMPREPLY[*]}"' "$C" "$@"); }
[ "$(comp iomark ru)" = run ] && pass "iomark ru -> run" || fail "ru -> $(comp iomark ru)"
[ "$(comp iomark pro)" = "probe profiles" ] && pass "iomark pro -> probe profiles" || fail "pro -> $(comp iomark pro)"
[ "$(comp iomark run --numj)" = --numjobs= ] && pass "run --numj -> --numjobs=" || fail "--numj -> $(comp iomark run --numj)"
[ "$(comp iomark lab se)" = setup ] && pass "lab se -> setup" || fail "lab se -> $(comp iomark lab se)"
# run's --iodepth and its --iodepth_* relatives: the lab offers all of them, as run does
[ "$(comp iomark lab --iodep)" = "$(comp iomark run --iodep)" ] && [[ " $(comp iomark lab --iodep) " == *" --iodepth= "* ]] \
  && pass "lab takes run's options" || fail "lab --iodep -> $(comp iomark lab --iodep)"
[ "$(comp iomark diskspd -Sh)" = -Sh ] && pass "diskspd -Sh" || fail "diskspd -Sh -> $(comp iomark diskspd -Sh)"
# scripts/setup.sh ends by naming the binary and how to start it, as the
# caller would type it (README: `bash scripts/setup.sh && ./build/iomark mark`).
# Run on a copy with apt-get, sudo and cmake stubbed: the stub cmake's build
# links build/iomark to this build's binary.
R=$WORK/repo; S=$WORK/stub
mkdir -p $R/scripts $R/.ci $S
cp "$SRCDIR/scripts/setup.sh" $R/scripts/
echo cmake >$R/.ci/packages-build.txt
printf '#!/bin/sh\nexit 0\n' >$S/apt-get
printf '#!/bin/sh\nexec "$@"\n' >$S/sudo
printf '#!/bin/sh\nif [ "$1" = --build ]; then mkdir -p build && ln -sf "%s" build/iomark; echo "[100%%] Built target docs"; fi\n' "$IOMARK" >$S/cmake
chmod +x $S/*
ver=$("$IOMARK" --version)
last=$(cd $R && PATH=$S:$PATH bash scripts/setup.sh 2>/dev/null | tail -1)
[ "$last" = "built ./build/iomark ($ver); try ./build/iomark --help" ] && pass "setup.sh last line: $last" || fail "setup.sh last line: '$last'"
(cd $R && ./build/iomark --help >/dev/null) && pass "./build/iomark --help runs from the repository" || fail "./build/iomark --help"
last=$(cd $WORK && PATH=$S:$PATH bash repo/scripts/setup.sh 2>/dev/null | tail -1)
rp=$(cd $R && pwd -P)
[ "$last" = "built $rp/build/iomark ($ver); try $rp/build/iomark --help" ] && pass "setup.sh from another folder: the full path" || fail "setup.sh elsewhere: '$last'"
finish
