#!/usr/bin/env bash
# ci-package.sh - the Debian package, as CI checks it: build it (Release,
# GCC, `cpack -G DEB`, Depends from dpkg-shlibdeps), `dpkg -i` it, then
# smoke-test the installed files: `iomark --version` (against the version in
# CMakeLists.txt), `man iomark` and every `man iomark-CMD`, and the bash
# completion (commands, options, sub-steps; loaded by bash-completion's own
# loader when that is installed). Removes the package again at the end.
# Needs root (dpkg). Exit 0 when every check passed, 1 otherwise.
# usage: scripts/ci-package.sh
set -uo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "ci-package: needs root for dpkg -i"; exit 1; }
fails=0
ok() { echo "ci-package: ok: $*"; }
bad() { echo "ci-package: FAIL: $*"; fails=$((fails + 1)); }

# dpkg, waiting up to 2 minutes while another dpkg/apt holds its lock
dpkg_w() {
  local out i
  for i in $(seq 60); do
    out=$(dpkg "$@" 2>&1) && return 0
    case $out in *"lock"*) sleep 2 ;; *) echo "$out"; return 1 ;; esac
  done
  echo "$out"; return 1
}

dir=build-ci/gcc-Release
cmake -S . -B $dir -DCMAKE_BUILD_TYPE=Release -DIOMARK_WERROR=ON >/dev/null &&
  cmake --build $dir -j"$(nproc)" >/dev/null || { echo "ci-package: build failed"; exit 1; }
rm -f $dir/iomark_*.deb
(cd $dir && cpack -G DEB >cpack.log 2>&1) || { cat $dir/cpack.log; echo "ci-package: cpack failed"; exit 1; }
deb=$(ls $dir/iomark_*.deb)
echo "ci-package: $deb ($(stat -c %s "$deb") bytes); Depends: $(dpkg-deb -f "$deb" Depends)"
# (each check reads a whole text: under pipefail, grep -q on a pipe can fail its
# writer by SIGPIPE when it stops at the first match)
grep -q 'liburing2' <<<"$(dpkg-deb -f "$deb" Depends)" && ok "Depends computed from the shared libraries" \
  || bad "Depends lacks liburing2: $(dpkg-deb -f "$deb" Depends)"

# Debian's docker-style images tell dpkg to drop /usr/share/man/* from every
# package (path-exclude in /etc/dpkg/dpkg.cfg.d/). Say so, and re-include
# iomark's own pages for this install (a later option wins in dpkg).
opts=()
excl=$(grep -rls '^path-exclude.*/usr/share/man' /etc/dpkg/dpkg.cfg /etc/dpkg/dpkg.cfg.d 2>/dev/null | tr '\n' ' ')
if [ -n "$excl" ]; then
  echo "ci-package: dpkg here excludes /usr/share/man ($excl); installing with --path-include=/usr/share/man/man1/iomark*"
  opts=(--path-include='/usr/share/man/man1/iomark*')
fi
dpkg_w "${opts[@]}" -i "$deb" || { echo "ci-package: dpkg -i failed"; exit 1; }

want="iomark $(sed -n 's/^project(iomark VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
[ "$(command -v iomark)" = /usr/bin/iomark ] && ok "/usr/bin/iomark installed" || bad "iomark is $(command -v iomark)"
got=$(iomark --version 2>&1)
[ "$got" = "$want" ] && ok "iomark --version: $got" || bad "iomark --version: '$got', wanted '$want'"

# man pages: iomark(1) and one per command of `iomark --help`
if command -v man >/dev/null; then
  grep -q 'storage benchmark' <<<"$(MANWIDTH=80 man iomark 2>/dev/null)" && ok "man iomark" || bad "man iomark"
  n=0
  for c in $(iomark --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
    page=$(man -w "iomark-$c" 2>/dev/null) && grep -q "iomark $c" <<<"$(MANWIDTH=80 man "iomark-$c" 2>/dev/null)" \
      && n=$((n + 1)) || bad "man iomark-$c"
  done
  [ $n -gt 0 ] && ok "man iomark-CMD for $n commands"
  grep -q -- '--iodepth=N' <<<"$(MANWIDTH=80 man iomark-run 2>/dev/null)" && ok "man iomark-run lists --iodepth=N" \
    || bad "man iomark-run lacks --iodepth"
else
  bad "man is not installed (man-db is in .ci/packages.txt)"
fi

# bash completion, in an empty folder (file names are completed too)
comp=/usr/share/bash-completion/completions/iomark
empty=$(mktemp -d)
complete_words() { # WORDS... : what completing the last word offers
  (cd "$empty" && bash -c 'source '"$comp"'; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _iomark; echo "${COMPREPLY[*]}"' _ "$@")
}
[ -f $comp ] && ok "completion installed in $comp" || bad "no $comp"
r=$(complete_words iomark ru); [ "$r" = run ] && ok "iomark ru<TAB> -> run" || bad "iomark ru<TAB> -> '$r'"
# --iodepth and its fio relatives (--iodepth_batch*, --iodepth_low): --iodepth= among them
rrun=$(complete_words iomark run --iodep); [[ " $rrun " == *" --iodepth= "* && " $rrun " != *" --numjobs="* ]] \
  && ok "iomark run --iodep<TAB> -> --iodepth= ..." || bad "--iodep -> '$rrun'"
r=$(complete_words iomark tpcc lo); [ "$r" = load ] && ok "iomark tpcc lo<TAB> -> load" || bad "tpcc lo -> '$r'"
r2=$(complete_words iomark sweep --iodep); [ "$r2" = "$rrun" ] && ok "sweep takes run's options" || bad "sweep --iodep -> '$r2'"
if [ -f /usr/share/bash-completion/bash_completion ]; then
  r=$(bash -c '. /usr/share/bash-completion/bash_completion; _completion_loader iomark; complete -p iomark' 2>&1)
  case $r in *"-F _iomark iomark"*) ok "bash-completion loads it on demand: $r" ;; *) bad "loader: $r" ;; esac
fi
rmdir "$empty"

dpkg_w -r iomark && [ ! -e /usr/bin/iomark ] && ok "dpkg -r removes it" || bad "dpkg -r"
echo "ci-package: $fails failure(s)"
[ $fails = 0 ]
