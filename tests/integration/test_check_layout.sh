#!/usr/bin/env bash
# scripts/check-layout.sh on a small made-up tree whose violations were
# counted by hand: a file of 801 lines (800 is allowed), a src/core function
# of 121 body lines whose strings, comments and character literals hold
# unbalanced braces (120 is allowed), a 200-line table initialiser (not a
# function), and two headers in two folders that include each other (a file
# circle and a folder circle). Then the clean case exits 0.
source "$(dirname "$0")/lib.sh"
S=$SRCDIR/scripts/check-layout.sh
T=$WORK/tree
mkdir -p $T/src/core $T/src/engine $T/src/a $T/src/b $T/src/cli

# 801 and 800 lines
for i in $(seq 801); do echo "int x$i;"; done >$T/src/cli/big.c
for i in $(seq 800); do echo "int y$i;"; done >$T/src/cli/ok.c

# f: opening brace on line 2, closing on line 122 -> 121 lines; g: 120 lines
{
  echo "static int f(int a)"
  echo "{"
  echo '    const char *s = "}}} {";   /* } */'
  echo "    char c = '}';  // }}"
  echo "    char d = '\\'';"
  for i in $(seq 115); do echo "    a += $i;"; done
  echo "    return a + s[0] + c + d;"
  echo "}"
  echo "int g(void)"
  echo "{"
  for i in $(seq 118); do echo "    ;"; done
  echo "}"
  echo "static const int table[] = {"
  for i in $(seq 200); do echo "    $i,"; done
  echo "};"
  echo '#define OPEN "{"'
} >$T/src/core/fn.c

echo '#include "b/b.h"' >$T/src/a/a.h
echo '#include "a/a.h"' >$T/src/b/b.h
echo '#include "a/a.h"' >$T/src/engine/e.c

rc=0; bash $S $T >$WORK/out 2>&1 || rc=$?
[ $rc = 1 ] && pass "violations: exit 1" || fail "exit $rc: $(cat $WORK/out)"
grep -qx 'check-layout: file over 800 lines: src/cli/big.c: 801 lines' $WORK/out \
  && pass "801-line file named" || fail "801-line file: $(cat $WORK/out)"
grep -q 'src/cli/ok.c' $WORK/out && fail "800-line file flagged" || pass "800-line file allowed"
grep -qx 'check-layout: function over 120 lines: src/core/fn.c:2: f(): 121 lines' $WORK/out \
  && pass "121-line function named (braces in strings/comments/chars ignored)" || fail "f: $(cat $WORK/out)"
grep -q ' g()\|table' $WORK/out && fail "120-line function or initialiser flagged" || pass "g (120 lines) and the table allowed"
grep -qx 'check-layout: include circle (files): src/a/a.h -> src/b/b.h -> src/a/a.h' $WORK/out \
  && pass "file circle listed" || fail "file circle: $(cat $WORK/out)"
grep -qx 'check-layout: include circle (folders): a -> b -> a (src/a/a.h:1 includes b/b.h; src/b/b.h:1 includes a/a.h)' $WORK/out \
  && pass "folder circle listed with the include lines" || fail "folder circle: $(cat $WORK/out)"
[ "$(grep -c '^check-layout: .*violation' $WORK/out)" = 1 ] && grep -q ': 4 violation(s)$' $WORK/out \
  && pass "4 violations counted" || fail "count: $(tail -1 $WORK/out)"

# clean: remove the violations
head -800 $T/src/cli/big.c >$T/src/cli/big2.c && mv $T/src/cli/big2.c $T/src/cli/big.c
sed -i '5d' $T/src/core/fn.c
echo '/* no include */' >$T/src/b/b.h
rc=0; bash $S $T >$WORK/out 2>&1 || rc=$?
[ $rc = 0 ] && grep -q ': clean$' $WORK/out && pass "clean tree: exit 0" || fail "clean: exit $rc: $(cat $WORK/out)"

rc=0; bash $S $WORK/none >$WORK/out 2>&1 || rc=$?
[ $rc = 2 ] && pass "no src/ folder: exit 2" || fail "no src: exit $rc"

echo "$passes passed, $fails failed"
[ $fails = 0 ]
