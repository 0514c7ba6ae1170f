#!/usr/bin/env bash
# test_output_inplace.sh - --output naming something that is not a regular
# file is written through, not replaced: a character device (as /dev/null),
# a symbolic link (as /dev/stdout -> /proc/self/fd/1) and a FIFO stay what
# they were after a JSON result, an HTML report and a text result. Results
# go through a temporary file renamed into place only for regular files;
# rename(2) over /dev/null had turned it into a regular file for the whole
# machine (seen after an MPI run whose other ranks write to /dev/null).
# Needs root for mknod (skips otherwise); works in $WORK only.
source "$(dirname "$0")/lib.sh"
cd "$WORK"
[ "$(id -u)" = 0 ] || { echo "SKIP: mknod needs root"; exit 77; }
mknod -m 666 "$WORK/null" c 1 3 || { echo "SKIP: mknod refused"; exit 77; }
"$IOMARK" run --ioengine=null --runtime=200ms --size=1M --quiet --output-format=json --output="$WORK/r.json" "$WORK/t.dat" \
  || fail "result for the report"

expect_status 0 "JSON result to a character device" -- "$IOMARK" run --ioengine=null --runtime=200ms --size=1M --quiet --output-format=json --output="$WORK/null" "$WORK/t.dat"
[ -c "$WORK/null" ] && pass "the device is still a character device" || fail "replaced: $(ls -l "$WORK/null")"
expect_status 0 "text result to a character device" -- "$IOMARK" run --ioengine=null --runtime=200ms --size=1M --quiet --output="$WORK/null" "$WORK/t.dat"
[ -c "$WORK/null" ] && pass "still a character device after a text result" || fail "replaced: $(ls -l "$WORK/null")"
expect_status 0 "HTML report to a character device" -- "$IOMARK" report -o "$WORK/null" "$WORK/r.json"
[ -c "$WORK/null" ] && pass "still a character device after a report" || fail "replaced: $(ls -l "$WORK/null")"
[ -z "$(ls "$WORK" | grep '\.tmp')" ] && pass "no temporary left beside it" || fail "left: $(ls "$WORK")"

# a symbolic link (as /dev/stdout): the document goes where it points, the link stays
: >"$WORK/target.json"
ln -s "$WORK/target.json" "$WORK/link.json"
expect_status 0 "JSON result through a symbolic link" -- "$IOMARK" run --ioengine=null --runtime=200ms --size=1M --quiet --output-format=json --output="$WORK/link.json" "$WORK/t.dat"
[ -L "$WORK/link.json" ] && pass "the link is still a link" || fail "link replaced: $(ls -l "$WORK/link.json")"
$PY -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["schema"] == "iomark-result"' "$WORK/target.json" \
  && pass "the document is in the file the link names" || fail "target.json: $(head -c 200 "$WORK/target.json")"
# stdout through /dev/stdout's own kind of link, read back by the shell
ln -s /proc/self/fd/1 "$WORK/stdout"
"$IOMARK" report -o "$WORK/stdout" "$WORK/r.json" >"$WORK/page.html" || fail "report to the stdout link"
[ -L "$WORK/stdout" ] && grep -q "</html>" "$WORK/page.html" && pass "report through a /proc/self/fd/1 link: the page on stdout, the link kept" \
  || fail "stdout link: $(ls -l "$WORK/stdout"), page $(wc -c <"$WORK/page.html") bytes"

# a FIFO: a reader gets the document, the FIFO stays
mkfifo "$WORK/fifo"
timeout 60 cat "$WORK/fifo" >"$WORK/fifo.out" & reader=$!
expect_status 0 "JSON result to a FIFO" -- "$IOMARK" run --ioengine=null --runtime=200ms --size=1M --quiet --output-format=json --output="$WORK/fifo" "$WORK/t.dat"
wait $reader
[ -p "$WORK/fifo" ] && $PY -c 'import json,sys; assert json.load(open(sys.argv[1]))["schema"] == "iomark-result"' "$WORK/fifo.out" && pass "FIFO kept, reader got the document" \
  || fail "fifo: $(ls -l "$WORK/fifo"), read $(wc -c <"$WORK/fifo.out") bytes"
finish
