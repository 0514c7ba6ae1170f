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
finish
