#!/bin/bash
# test_argv_grammar.sh - one argv grammar for every sub-command (issue 13
# item 4): --x=y, --x y and '-'/'_' spellings of an option reach the same
# option, so a bad value gives the same one-line message and exit 2 in every
# spelling; short aliases (-o) equal their long option. The expected
# messages are written here by hand from the option's documented range.
source "$(dirname "$0")/lib.sh"

# sub-command | option (canonical spelling) | bad value | message fragment
rows=(
  "run|ramp_time|abc|--ramp_time=abc: expected a duration"
  "run|output-format|xml|--output-format=xml: allowed: normal, json"
  "run|ioengine|foo|--ioengine=foo: allowed: io_uring, libaio, psync (or sync), null"
  "mark|runs|0|--runs=0: must be a whole number from 1 to 1000"
  "mark|ramp_time|abc|--ramp_time=abc: expected a duration"
  "sweep|knee|abc|--knee=abc: allowed: a percentage above 0"
  "tpcc|vu|0|--vu=0: a whole number 1..1024"
  "tpcc|busy_timeout|0|--busy_timeout=0: a duration > 0"
  "compare|alpha|7|--alpha=7: allowed: a number between 0 and 1"
  "compare|output-format|xml|--output-format=xml: allowed: normal, markdown, json"
  "report|alpha|7|--alpha=7: allowed: a number between 0 and 1"
  "probe|outstanding|0|--outstanding=0: allowed: a whole number 1-1000000"
  "probe|output-format|xml|--output-format=xml: allowed: normal, json"
  "lab|runtime|abc|--runtime=abc: expected a duration"
)
for row in "${rows[@]}"; do
  IFS='|' read -r cmd opt val want <<<"$row"
  swapped=$(tr -- '-_' '_-' <<<"$opt")
  # a positional argument after the option where the sub-command wants one
  pos=(); case $cmd in run|sweep|compare|report) pos=("$WORK/none.json");; esac
  first=""
  for form in "--$opt=$val" "--$opt $val" "--$swapped=$val" "--$swapped $val"; do
    # shellcheck disable=SC2086 # the form splits into one or two words on purpose
    expect_status 2 "$cmd $form" -- "$IOMARK" "$cmd" $form "${pos[@]}"
    expect_err_has "iomark $cmd: $want"
    if [ -z "$first" ]; then first=$(cat "$WORK/err")
    elif [ "$(cat "$WORK/err")" = "$first" ]; then pass "$cmd $form: same message as --$opt=$val"
    else fail "$cmd $form: '$(cat "$WORK/err")' differs from '$first'"; fi
  done
  [ ! -e "$WORK/none.json" ] || fail "$cmd wrote a file on bad input"
done

# A flag takes the next word only when it is 0 or 1; else it stays positional.
expect_status 2 "profiles --verbose=2" -- "$IOMARK" profiles --verbose=2
expect_err_has "iomark profiles: --verbose=2: allowed: 0 or 1"
expect_status 0 "profiles --verbose 0" -- "$IOMARK" profiles --verbose 0
expect_status 2 "profiles --verbose 2" -- "$IOMARK" profiles --verbose 2
expect_err_has "iomark profiles: 2: unexpected argument"

# An unknown option names the allowed ones, in every converted sub-command.
for cmd in compare report probe profiles tpcc; do
  expect_status 2 "$cmd --no-such-option" -- "$IOMARK" "$cmd" --no-such-option
  expect_err_has "--no-such-option: unknown option; allowed: "
done

# -o FILE, --output FILE, --output=FILE and --output_format all write the same comparison.
"$IOMARK" run --ioengine=null --runtime=200ms --size=1M --randseed=7 --output-format=json \
  --output="$WORK/a.json" --quiet "$WORK/t.dat"
"$IOMARK" compare --output-format=json -o "$WORK/c1.json" "$WORK/a.json" "$WORK/a.json"
"$IOMARK" compare --output_format json --output "$WORK/c2.json" "$WORK/a.json" "$WORK/a.json"
"$IOMARK" compare --output-format json --output="$WORK/c3.json" "$WORK/a.json" "$WORK/a.json"
if cmp -s "$WORK/c1.json" "$WORK/c2.json" && cmp -s "$WORK/c1.json" "$WORK/c3.json" && [ -s "$WORK/c1.json" ]; then
  pass "compare: -o, --output FILE and --output=FILE write the same document"
else
  fail "compare: the output spellings differ"
fi
"$IOMARK" report -o "$WORK/r1.html" "$WORK/a.json" && [ -s "$WORK/r1.html" ] && pass "report -o FILE" || fail "report -o FILE"

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
