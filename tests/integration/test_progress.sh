#!/usr/bin/env bash
# test_progress.sh - the progress line (src/cli/progress.c): with stderr not a
# terminal, --status-interval prints one line per interval on stderr (fio's
# option) with an overall "[eta mm:ss]" that decreases and matches the plan
# computed here from the options (runs x runtime + pauses); none without it;
# mark's line is in MB/s like its table; on a terminal (script(1)) a 1 s run
# shows its line, a run's seconds counter steps only with that second's
# figures, and mark's pauses show "pause" with the time left.
source "$(dirname "$0")/lib.sh"
cd "$WORK"

# etas FILE: the eta of each line in seconds, one per line
etas() { sed -n 's/.*\[eta \([0-9][0-9]\):\([0-9][0-9]\)\].*/\1 \2/p' "$1" | awk '{print $1*60+$2}'; }
# decreasing FILE MIN: at least MIN lines, no eta above the one before, the
# last below the first (a run that overruns its plan by a few ms repeats a value)
decreasing() {
  etas "$1" | awk -v min="$2" 'NR==1 {first=$1} NR>1 && $1>prev {bad=1} {prev=$1; n++}
                                END {exit (bad || n<min || prev>=first)}'
}

# --- run: 4 s measured + 1 s warm-up = 5 s planned
expect_status 0 "run --status-interval=1 (stderr not a terminal)" -- "$IOMARK" run --runtime=4s --ramp_time=1s --size=16M --status-interval=1 "$WORK/a.dat"
grep -q "eta" "$WORK/out" && fail "eta lines on stdout" || pass "stdout holds no progress"
decreasing "$WORK/err" 4 && pass "eta decreases over >= 4 lines: $(etas "$WORK/err" | tr '\n' ' ')" || fail "eta not decreasing: $(cat "$WORK/err")"
first=$(etas "$WORK/err" | sed -n 1p)
[ "$first" -le 5 ] && [ "$first" -ge 3 ] && pass "first eta $first s of 5 planned (line at ~1 s)" || fail "first eta $first, want 3..5"
# elapsed in the measured phase + eta = 4 s (to the rounding of both, +-1 s)
sed -n 's/.*measuring \([0-9]*\)\/4 s.*\[eta \([0-9][0-9]\):\([0-9][0-9]\)\].*/\1 \2 \3/p' "$WORK/err" |
  awk '{ d = $1 + $2 * 60 + $3 - 4; if (d < -1 || d > 1) bad = 1; n++ } END { exit (bad || n < 2) }'  && pass "measured seconds + eta = runtime" || fail "measuring+eta != 4: $(cat "$WORK/err")"
grep -q "run 1/1 $WORK/a.dat: \(warm-up\|measuring\)" "$WORK/err" && pass "line names run k/N, target and phase" || fail "line lacks run/target/phase: $(head -2 "$WORK/err")"
# the phase never goes back: no warm-up line after a measuring one (late
# warm-up figures show under no later phase's name)
awk '/: measuring / { m = 1 } m && /: warm-up / { bad = 1 } END { exit bad }' "$WORK/err" \
  && pass "no warm-up line after a measuring line" || fail "phase went back: $(cat "$WORK/err")"
grep -q "MiB/s" "$WORK/err" && pass "run's rates in MiB/s (as its table)" || fail "no MiB/s: $(cat "$WORK/err")"
# as fio: a final line, with the measured phase's figures (the table's), and the
# lines in the run carry the figures of the second just ended, not none
# after it only the note on the test file the run created and kept (--keep=1)
tail -1 "$WORK/err" | grep -qxF "iomark run: the test file $WORK/a.dat it created is left in place, 16 MiB (16777216 bytes); remove it with rm $WORK/a.dat, or run with --keep=0 to remove it at the end" \
  && pass "last line: the kept test file, its size and how to remove it" || fail "last line: $(tail -1 "$WORK/err")"
tail -2 "$WORK/err" | sed -n 1p | grep -qE "^run 1/1 $WORK/a.dat: done, [0-9]+ IOPS, [0-9.]+ MiB/s \[eta 00:00\]$" \
  && pass "final progress line: done, with figures" || fail "final progress line: $(tail -2 "$WORK/err" | head -1)"
[ "$(grep -c ': done' "$WORK/err")" = 1 ] && pass "one final line" || fail "final lines: $(grep -c ': done' "$WORK/err")"
done_iops=$(sed -n 's/.*: done, \([0-9]*\) IOPS, \([0-9.]*\) MiB\/s .*/\1 \2/p' "$WORK/err")
table=$(awk '$1 == "total" && NF >= 10 { print $2, $4; exit }' "$WORK/out")
# the same figure rounded twice: the line's IOPS to a unit and MiB/s to 0.1,
# the table's to 0.1 and 0.01, so they may differ by half the line's step
# (6745 vs 6744.5; 26.3 vs 26.35); compared in tenths and hundredths as
# integers, since 26.35 - 26.3 is 0.0500000000000007 in binary floating point
awk -v d="$done_iops" -v t="$table" 'BEGIN { split(d, a, " "); split(t, b, " ")
  di = sprintf("%.0f", a[1] * 10) - sprintf("%.0f", b[1] * 10)
  dm = sprintf("%.0f", a[2] * 100) - sprintf("%.0f", b[2] * 100)
  exit !(a[1] != "" && b[1] > 0 && di <= 5 && di >= -5 && dm <= 5 && dm >= -5) }' \
  && pass "done line = the table's total (IOPS $done_iops MiB/s; table $table)" || fail "done line $done_iops vs table $table"
# from the first line with figures on, every measuring line carries figures; one
# before them may not (on a loaded machine the run's first second can end later
# than the first status line is due: "measuring 1/4 s [eta 00:03]" at load 45)
n=$(grep -c "measuring" "$WORK/err"); f=$(grep -cE "measuring [0-9]+/4 s, [0-9]+ IOPS" "$WORK/err")
late=$(awk '/measuring [0-9]+\/4 s, [0-9]+ IOPS/ { seen = 1; next } seen && /measuring/ { n++ } END { print n + 0 }' "$WORK/err")
[ "$f" -ge 1 ] && [ "$late" = 0 ] && pass "$f of $n measuring lines with figures, none without after the first" || fail "lines without figures: $(cat "$WORK/err")"

# --- no --status-interval, not a terminal: nothing
expect_status 0 "run without --status-interval" -- "$IOMARK" run --runtime=1s --size=16M "$WORK/a.dat"
[ ! -s "$WORK/err" ] && pass "no progress lines without a terminal" || fail "stderr: $(cat "$WORK/err")"
expect_status 2 "--status-interval=0 refused" -- "$IOMARK" run --runtime=1s --size=16M --status-interval=0 "$WORK/b.dat"
expect_err_has "--status-interval=0"
[ ! -e "$WORK/b.dat" ] && pass "nothing created on refusal" || fail "b.dat created"

# --- run --repeat=3: 3 x 1 s, one eta counting down across the runs
expect_status 0 "run --repeat=3" -- "$IOMARK" run --repeat=3 --runtime=1s --size=16M --status-interval=1 "$WORK/a.dat"
grep -q "run [123]/3 " "$WORK/err" && pass "repeat shows run k/3" || fail "repeat: $(cat "$WORK/err")"
decreasing "$WORK/err" 2 && pass "repeat eta decreases: $(etas "$WORK/err" | tr '\n' ' ')" || fail "repeat eta: $(cat "$WORK/err")"

# --- mark: 4 tests x read/write x 1 run of 2 s, 7 pauses of 0.5 s = 19.5 s planned
expect_status 0 "mark --status-interval=1" -- "$IOMARK" mark --runs=1 --prepare=0 --runtime=2s --pause=500ms --size=16M --status-interval=1 "$WORK/m.dat"
decreasing "$WORK/err" 12 && pass "mark eta decreases over >= 12 lines" || fail "mark eta: $(cat "$WORK/err")"
first=$(etas "$WORK/err" | sed -n 1p)
[ "$first" -le 20 ] && [ "$first" -ge 16 ] && pass "mark's first eta $first s of 19.5 planned (rounded up; line at ~1 s)" || fail "mark first eta $first, want 16..20"
grep -q "mark: pause" "$WORK/err" && pass "pauses are shown" || fail "no pause line: $(cat "$WORK/err")"
grep -q "MB/s" "$WORK/err" && ! grep -q "MiB/s" "$WORK/err" && pass "mark's progress in MB/s (its table's unit)" || fail "mark units: $(cat "$WORK/err")"
grep -q "MB/s" "$WORK/out" && pass "mark's table in MB/s" || fail "mark table: $(head -5 "$WORK/out")"

# --- sweep: 2 points x 1 s
expect_status 0 "sweep --status-interval=1" -- "$IOMARK" sweep --iodepth=1,2 --runtime=1500ms --size=16M --status-interval=1 "$WORK/a.dat"
grep -q "sweep [12]/2 T1 Q[12]: measuring" "$WORK/err" && pass "sweep shows point k/2" || fail "sweep: $(cat "$WORK/err")"

# --- on a terminal: a 1 s run and a mark pause are drawn
if command -v script >/dev/null; then
  script -qec "$IOMARK run --runtime=1s --size=16M $WORK/a.dat" /dev/null >"$WORK/tty" 2>&1 || true
  grep -q "run 1/1 $WORK/a.dat: measuring 0/1 s.*\[eta 00:01\]" "$WORK/tty" && pass "terminal: a 1 s run shows its line" || fail "terminal 1 s run: $(cat -v "$WORK/tty" | head -c 600)"
  # the counter and the figures agree: a redraw with new figures counts a new
  # second (the runner gives figures at least 1 s apart), and the counter never
  # steps while the figures are still the second before's (seen: "measuring
  # 2/8 s, 4497 IOPS" after "1/8 s, 4497 IOPS", then "2/8 s, 4472 IOPS");
  # counter + eta = the 8 s runtime, both taken at the figures' time (the eta
  # rounds up: 7 when it falls within 1 ms of a whole second)
  script -qec "stty cols 200; $IOMARK run --runtime=8s --ramp_time=1s --size=16M $WORK/a.dat" /dev/null >"$WORK/tty" 2>&1 || true
  tr '\r' '\n' <"$WORK/tty" | sed 's/\x1b\[K//g' |
    sed -n 's/^run 1\/1 [^:]*: \(\(warm-up\|measuring\) [0-9]*\/[0-9]* s\), \([0-9]* IOPS, [0-9.]* MiB\/s\) \[eta 00:\([0-9]*\)\]$/\1|\3|\4/p' >"$WORK/figs"
  bad=$(awk -F'|' 'NR > 1 && (($1 != c) != ($2 != f)) { print "\"" c ", " f "\" then \"" $1 ", " $2 "\"" } { c = $1; f = $2 }' "$WORK/figs")
  n=$(wc -l <"$WORK/figs")
  [ "$n" -ge 4 ] && [ -z "$bad" ] && pass "terminal: $n lines with figures, each a new second with new figures" || fail "terminal: counter and figures disagree ($n lines): $bad"
  awk -F'|' '$1 ~ /^measuring/ { split($1, a, /[ \/]/); t = a[2] + $3; if (t < 7 || t > 8) bad = 1; m++ } END { exit bad || m < 3 }' "$WORK/figs" \
    && pass "terminal: measured seconds + eta = 8 s on every measuring line" || fail "terminal: seconds + eta: $(tr '\n' ' ' <"$WORK/figs")"
  [ -z "$(tr '\r' '\n' <"$WORK/tty" | sed 's/\x1b\[K//g' | grep '^run 1/1' | uniq -d)" ] && pass "terminal: no line redrawn unchanged" || fail "terminal: a line redrawn unchanged"
  script -qec "$IOMARK mark --runs=1 --prepare=0 --runtime=1s --pause=2s --size=16M $WORK/m.dat" /dev/null >"$WORK/tty" 2>&1 || true
  grep -q "mark: pause [0-9]/2 s before 2/8 \[eta 00:" "$WORK/tty" && pass "terminal: the pause is shown with the eta" || fail "terminal pause: $(cat -v "$WORK/tty" | head -c 600)"
  # an 80-column terminal: mark's full line (name, IOPS and MB/s, eta) is 83-85
  # columns, so the IOPS figure goes and the test's name stays, with MB/s
  script -qec "stty cols 80; $IOMARK mark --runs=1 --prepare=0 --runtime=2s --pause=0 --size=16M $WORK/m.dat" /dev/null >"$WORK/tty" 2>&1 || true
  tr '\r' '\n' <"$WORK/tty" | sed 's/\x1b\[K//g' | grep "^mark [0-9]" >"$WORK/lines" || true
  grep -qE "^mark [0-9]/8 (SEQ1M|RND4K) Q[0-9]+T1 (read|write) run 1/1: measuring [0-9]/2 s, [0-9.]+ MB/s \[eta 00:[0-9]{2}\]$" "$WORK/lines" \
    && pass "80 columns: the test's name stays, with MB/s and the eta" || fail "80 columns: $(head -c 800 "$WORK/lines")"
  wide=$(awk 'length >= 80' "$WORK/lines" | sed -n 1p)
  [ -z "$wide" ] && pass "80 columns: no line of 80 or more" || fail "80 columns: a line of ${#wide}: $wide"
  # narrow terminals (the report to /dev/null): every drawn line (each "\r\e[K" redraw) is narrower than
  # the terminal and ends with the whole "[eta mm:ss]"; the figures, the name
  # and then the lead go before the eta is touched (seen at 40 columns:
  # "run 1/1: measuring 1/2 s, 29.1 MiB/s [e")
  drawn() { tr '\r' '\n' <"$1" | grep -a $'^\x1b\\[K.' | sed 's/^\x1b\[K//' | sed 's/\x1b\[K.*//' || true; }
  for cols in 40 30; do
    script -qec "stty cols $cols; $IOMARK run --runtime=2s --size=16M $WORK/a.dat >/dev/null" /dev/null >"$WORK/tty" 2>&1 || true
    drawn "$WORK/tty" >"$WORK/lines"
    n=$(wc -l <"$WORK/lines")
    wide=$(awk -v c="$cols" 'length >= c' "$WORK/lines" | sed -n 1p)
    cut=$(grep -vE '\[eta [0-9]{2}:[0-9]{2}\]$' "$WORK/lines" | sed -n 1p || true)
    m=$(grep -c 'measuring [0-9]/2 s \[eta 00:0[0-2]\]$' "$WORK/lines" || true)
    [ "$n" -ge 2 ] && [ -z "$wide" ] && [ -z "$cut" ] && [ "$m" -ge 1 ] \
      && pass "$cols columns: $n lines, each under $cols columns, ending with the whole eta ($m measuring lines)" \
      || fail "$cols columns: wide '$wide', eta cut '$cut', $m measuring lines: $(tr '\n' '|' <"$WORK/lines")"
    cp "$WORK/lines" "$WORK/lines$cols"
  done
  grep -qxE 'run 1/1: measuring [0-9]/2 s \[eta 00:0[0-2]\]' "$WORK/lines40" \
    && pass "40 columns: the rate goes, 'run 1/1: measuring N/2 s [eta 00:0N]' stays" || fail "40 columns: $(tr '\n' '|' <"$WORK/lines40")"
  # 12 columns hold "[eta mm:ss]" and no more; 11 do not: the eta is cut there only
  script -qec "stty cols 12; $IOMARK run --runtime=1s --size=16M $WORK/a.dat >/dev/null" /dev/null >"$WORK/tty" 2>&1 || true
  drawn "$WORK/tty" >"$WORK/lines"
  [ -s "$WORK/lines" ] && ! grep -qvxE '\[eta 00:0[01]\]' "$WORK/lines" && pass "12 columns: every line is '[eta 00:0N]'" \
    || fail "12 columns: $(tr '\n' '|' <"$WORK/lines")"
  # a test file being created under a long path: the path is cut in its middle
  # ("creating /var/...test-file.dat: 25%"), the eta stays whole
  long="$WORK/a-folder-with-a-rather-long-name-for-this-test"
  mkdir -p "$long"
  script -qec "stty cols 60; $IOMARK run --runtime=1s --size=32M --keep=0 $long/test-file.dat >/dev/null" /dev/null >"$WORK/tty" 2>&1 || true
  drawn "$WORK/tty" | grep 'preparing' >"$WORK/lines" || true
  n=$(wc -l <"$WORK/lines")
  wide=$(awk 'length >= 60' "$WORK/lines" | sed -n 1p)
  bad=$(grep -vE '^run: preparing, creating [^ ]*\.\.\.[^ ]*file\.dat: [0-9]+% \[eta [0-9]{2}:[0-9]{2}\]$' "$WORK/lines" | sed -n 1p || true)
  [ "$n" -ge 1 ] && [ -z "$wide" ] && [ -z "$bad" ] && pass "60 columns: $n preparing lines, the path cut with '...', percentage and eta whole" \
    || fail "60 columns preparing: $n lines, wide '$wide', bad '$bad'"
else
  echo "skip: script(1) not installed: terminal checks"
fi
finish
