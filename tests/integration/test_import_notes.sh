#!/usr/bin/env bash
# A source run that was interrupted (fio's "terminating on signal" before its
# JSON) imports with a note that compare (text, markdown, JSON) and the HTML
# report show beside the file (issue 12 item 5). The note's figures are read
# by hand from the input: 2800 ms of runtime=10.
source "$(dirname "$0")/lib.sh"
cat >$WORK/int.json <<'J'
fio: terminating on signal 2
{"fio version": "fio-3.33", "jobs": [{"jobname": "rr", "error": 0, "job options": {"runtime": "10"},
 "read": {"io_bytes": 11468800, "io_kbytes": 11200, "runtime": 2800, "iops": 1000, "total_ios": 2800,
          "lat_ns": {"mean": 950000}},
 "write": {"io_bytes": 0, "io_kbytes": 0, "runtime": 0, "iops": 0, "total_ios": 0}}]}
J
note='source run interrupted (fio: terminating on signal 2) after 2.8 s of 10 s'
expect_status 0 "compare an interrupted fio run" -- "$IOMARK" compare $WORK/int.json
grep -qF "NOTE $WORK/int.json: $note" $WORK/out && pass "text note" || fail "text note: $(head -5 $WORK/out)"
expect_status 0 "compare markdown" -- "$IOMARK" compare --output-format=markdown $WORK/int.json
grep -qF "$note" $WORK/out && pass "markdown note" || fail "markdown note"
expect_status 0 "compare JSON" -- "$IOMARK" compare --output-format=json -o $WORK/c.json $WORK/int.json
$PY -c "import json,sys; f=json.load(open('$WORK/c.json'))['inputs'][0]['files'][0]; sys.exit(0 if f.get('note') == sys.argv[1] else 1)" "$note" \
  && pass "JSON note" || fail "JSON note"
expect_status 0 "HTML report" -- "$IOMARK" report $WORK/int.json -o $WORK/r.html
grep -qF "<b>note:</b> $note" $WORK/r.html && pass "HTML note" || fail "HTML note"

# DiskSpd: its Ctrl-C line (CmdRequestCreator.cpp) before the results of a
# 10 s run that stopped early; the note gives the actual test time of the text
"$IOMARK" diskspd -b4K -r -w0 -d1 -o2 -c16M $WORK/d.dat >$WORK/ds.txt
grep -q "duration: 1s" $WORK/ds.txt || fail "fixture: no 'duration: 1s' line"
sed -e 's/duration: 1s/duration: 10s/' \
    -e '0,/^Results for timespan/s//\n*** Interrupted by Ctrl-C. Stopping I\/O Request Generator. ***\n\nResults for timespan/' \
    $WORK/ds.txt >$WORK/dsi.txt
t=$(sed -n 's/.*actual test time:[[:space:]]*\([0-9.]*\)s.*/\1/p' $WORK/dsi.txt | sed -n 1p)
want=$($PY -c "print('source run interrupted (*** Interrupted by Ctrl-C. Stopping I/O Request Generator. ***) after %.3g s of 10 s' % float('$t'))")
expect_status 0 "compare an interrupted DiskSpd run" -- "$IOMARK" compare $WORK/dsi.txt
grep -qF "$want" $WORK/out && pass "DiskSpd note: $want" || fail "DiskSpd note: $(grep -i note $WORK/out)"
expect_status 0 "the uninterrupted report has no note" -- "$IOMARK" compare $WORK/ds.txt
grep -q "NOTE" $WORK/out && fail "note on a complete run" || pass "no note on a complete run"
# interrupted before measuring: DiskSpd printed no results; refused in its words
printf 'Command Line: diskspd -d10 x.dat\n\nInput parameters:\n\n\ttimespan:   1\n\t-------------\n\tduration: 10s\n\nResults for timespan 1:\n*******************************************************************************\n\nThe test was interrupted before the measurements began. No results are displayed.\n' >$WORK/none.txt
expect_status 2 "DiskSpd interrupted before measuring" -- "$IOMARK" compare $WORK/none.txt
expect_err_has "The test was interrupted before the measurements began."

# DiskSpd XML: the Ctrl-C line comes before the document on the same stdout
"$IOMARK" diskspd -b4K -r -w0 -d1 -o2 -c16M -Rxml $WORK/d.dat >$WORK/ds.xml
grep -q "<Duration>1</Duration>" $WORK/ds.xml || fail "fixture: no <Duration>1</Duration>"
{ printf '\n*** Interrupted by Ctrl-C. Stopping I/O Request Generator. ***\n'; sed 's|<Duration>1</Duration>|<Duration>10</Duration>|' $WORK/ds.xml; } >$WORK/dsi.xml
t=$(sed -n 's|.*<TestTimeSeconds>\([0-9.]*\)</TestTimeSeconds>.*|\1|p' $WORK/dsi.xml | sed -n 1p)
want=$($PY -c "print('source run interrupted (*** Interrupted by Ctrl-C. Stopping I/O Request Generator. ***) after %.3g s of 10 s' % float('$t'))")
expect_status 0 "compare an interrupted DiskSpd XML run" -- "$IOMARK" compare $WORK/dsi.xml
grep -qF "$want" $WORK/out && pass "DiskSpd XML note: $want" || fail "DiskSpd XML note: $(grep -i note $WORK/out)"
# XmlResultParser.cpp: a timespan interrupted before measuring holds <Error>
printf '<Results><System><Tool><Version>2.2</Version></Tool></System><TimeSpan><Error>The test was interrupted before the measurements began. No results are displayed.</Error></TimeSpan></Results>\n' >$WORK/none.xml
expect_status 2 "DiskSpd XML interrupted before measuring" -- "$IOMARK" compare $WORK/none.xml
expect_err_has "DiskSpd said \"The test was interrupted before the measurements began."
# iomark's own run document stopped by SIGINT: "status": "interrupted" with
# 1.5 s measured of runtime_s 5 (read by hand from the document below)
cat >$WORK/iomi.json <<'J'
{"schema": "iomark-result", "schema_version": 1, "type": "run", "iomark_version": "0.1.0",
 "status": "interrupted", "interrupted_by": "SIGINT",
 "spec": {"name": "job", "rw": "randread", "rwmixread_pct": 100, "runtime_s": 5, "iodepth": 1,
          "numjobs": 1, "targets": ["t.dat"]},
 "duration": {"warmup_s": 0, "measured_s": 1.501596991, "cooldown_s": 0},
 "total": {"read": {"ios": 3000, "iops": 2000, "mb_per_s": 8.192, "mib_per_s": 7.8125},
           "write": {"ios": 0, "iops": 0, "mb_per_s": 0, "mib_per_s": 0},
           "total": {"ios": 3000, "iops": 2000, "mb_per_s": 8.192, "mib_per_s": 7.8125}}}
J
note='source run interrupted (SIGINT) after 1.5 s of 5 s'
expect_status 0 "compare an interrupted iomark run" -- "$IOMARK" compare $WORK/iomi.json
grep -qF "NOTE $WORK/iomi.json: $note" $WORK/out && pass "iomark text note" || fail "iomark text note: $(head -5 $WORK/out)"
expect_status 0 "compare markdown (iomark)" -- "$IOMARK" compare --output-format=markdown $WORK/iomi.json
grep -qF "$note" $WORK/out && pass "iomark markdown note" || fail "iomark markdown note"
expect_status 0 "compare JSON (iomark)" -- "$IOMARK" compare --output-format=json -o $WORK/ci.json $WORK/iomi.json
$PY -c "import json,sys; f=json.load(open('$WORK/ci.json'))['inputs'][0]['files'][0]; sys.exit(0 if f.get('note') == sys.argv[1] else 1)" "$note" \
  && pass "iomark JSON note" || fail "iomark JSON note"
expect_status 0 "HTML report (iomark)" -- "$IOMARK" report $WORK/iomi.json -o $WORK/ri.html
grep -qF "<b>note:</b> $note" $WORK/ri.html && pass "iomark HTML note" || fail "iomark HTML note"
# the same document with "status": "error" after measuring: a note, not a refusal
sed -e 's/"status": "interrupted", "interrupted_by": "SIGINT"/"status": "error", "error": "EIO at offset 4096"/' \
    $WORK/iomi.json >$WORK/iome.json
expect_status 0 "compare an iomark run that failed after measuring" -- "$IOMARK" compare $WORK/iome.json
grep -qF "source run failed (EIO at offset 4096) after 1.5 s of 5 s; its figures are up to the failure" $WORK/out \
  && pass "iomark error note" || fail "iomark error note: $(grep NOTE $WORK/out)"
# a complete run document has no note
sed -e 's/"status": "interrupted", "interrupted_by": "SIGINT"/"status": "ok"/' $WORK/iomi.json >$WORK/iomok.json
expect_status 0 "compare a complete iomark run" -- "$IOMARK" compare $WORK/iomok.json
grep -q "NOTE" $WORK/out && fail "note on a complete iomark run" || pass "no note on a complete iomark run"

# iomark's own DiskSpd-style text ends "(interrupted by SIGINT; ...)" (report/diskspd.c)
{ sed -e 's/duration: 1s/duration: 10s/' $WORK/ds.txt
  printf '\n(interrupted by SIGINT; results cover the measured time until then)\n'; } >$WORK/dsown.txt
t=$(sed -n 's/.*actual test time:[[:space:]]*\([0-9.]*\)s.*/\1/p' $WORK/dsown.txt | sed -n 1p)
want=$($PY -c "print('source run interrupted (interrupted by SIGINT) after %.3g s of 10 s' % float('$t'))")
expect_status 0 "compare iomark's interrupted DiskSpd text" -- "$IOMARK" compare $WORK/dsown.txt
grep -qF "$want" $WORK/out && pass "iomark DiskSpd text note: $want" || fail "iomark DiskSpd text note: $(grep -i note $WORK/out)"
finish
