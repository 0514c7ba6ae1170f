#!/bin/bash
# test_fio_directory.sh - where a job file's files go with directory=, as fio 3.33
# puts them (filesetup.c add_file: "DIR/" + the name, an absolute name too;
# options.c set_name_idx: several folders "a:b" taken by clone number; parse.c:
# directory= applies before filename= of its section; a [global] filename= keeps
# the folder in effect when it was read), and the refusal of a missing folder
# (options.c str_directory_cb). Each case is run by fio and by iomark, and both
# file lists must equal the one read by hand from fio 3.33's run (2026-12-01).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || { echo "skip: fio not installed"; exit 77; }
cd "$WORK"
mkdir -p d e j

# files TOOL JOBTEXT [OPTION]: run JOBTEXT (printf %b) with TOOL in $WORK/j, OPTION
# after the job file; print "exit N" and the files made under d, e and j (path:size,
# sorted), relative to $WORK
files() {
  rm -rf d/* e/* j/*
  printf '%b' "$2" >t.fio
  local rc=0 opt=(${3:+"$3"})
  if [ "$1" = fio ]; then (cd j && fio --output=/dev/null ../t.fio "${opt[@]}" >/dev/null 2>&1) || rc=$?
  else (cd j && "$IOMARK" run --quiet --output=/dev/null ../t.fio "${opt[@]}" >/dev/null 2>"$WORK/err") || rc=$?; fi
  echo "exit $rc $(find d e j -type f -printf '%p:%s\n' | sort | tr '\n' ' ')"
}
# same DESC WANT JOBTEXT [OPTION]: fio's and iomark's runs both give WANT
same() {
  local t got
  for t in fio iomark; do
    got=$(files $t "$3" "${4:-}")
    [ "$got" = "$2" ] && pass "$1: $t: $got" || fail "$1: $t: got '$got', wanted '$2' $(head -c 300 "$WORK/err")"
  done
}

G="[global]\\ndirectory=$WORK/d\\nsize=64k\\nioengine=psync\\n"
# an absolute name goes under the folder too (the trial's filename=/dev/nonexistent_dev
# made d/dev/nonexistent_dev with fio; iomark used to write into /dev)
same "absolute name under directory=" "exit 0 d/sub/x.dat:65536 " "$G[job]\\nrw=read\\nfilename=/sub/x.dat\\n"
same "name already under the folder" "exit 0 d$WORK/d/y.dat:65536 " \
  "$G[job]\\nrw=read\\nfilename=$WORK/d/y.dat\\n"
base=iomark-fpath-$$
same "filename=/dev/NAME" "exit 0 d/dev/$base:65536 " "$G[job]\\nrw=read\\nfilename=/dev/$base\\n"
[ ! -e "/dev/$base" ] && pass "nothing made in /dev" || { rm -f "/dev/$base"; fail "/dev/$base made"; }
# several folders: generated names by clone (0 d, 1 e, 2 d), a named file in the first
same "directory=d:e" "exit 0 d/job.0.0:65536 d/job.2.0:65536 d/n.dat:65536 e/job.1.0:65536 " \
  "[global]\\ndirectory=$WORK/d:$WORK/e\\nsize=64k\\n[job]\\nrw=read\\nnumjobs=3\\n[named]\\nrw=read\\nfilename=n.dat\\nnumjobs=2\\n"
same "filename_format with directory=d:e" \
  "exit 0 d/f.0.0:32768 d/f.0.1:32768 d/f.2.0:32768 d/f.2.1:32768 e/f.1.0:32768 e/f.1.1:32768 " \
  "[global]\\ndirectory=$WORK/d:$WORK/e\\nsize=64k\\n[ff]\\nrw=read\\nfilename_format=f.\$jobnum.\$filenum\\nnumjobs=3\\nnrfiles=2\\n"
# order: a section's directory= applies to its filename= above it; a [global]
# filename= read before any directory= stays in the current folder
same "directory= after filename= in one section" "exit 0 e/a.dat:65536 " \
  "$G[job]\\nrw=read\\nfilename=a.dat\\ndirectory=$WORK/e\\n"
same "[global] filename=, job directory=" "exit 0 j/g.dat:65536 " \
  "[global]\\nfilename=g.dat\\nsize=64k\\n[job]\\ndirectory=$WORK/d\\nrw=read\\n"
# --directory= on the command line comes before the job file (fio: its filename= goes
# under it), and a section's own directory= wins
same "--directory=d, filename=x.dat" "exit 0 d/x.dat:65536 " \
  "[job]\nrw=read\nsize=64k\nfilename=x.dat\n" "--directory=$WORK/d"
same "--directory=d, the section's directory=e" "exit 0 e/x.dat:65536 " \
  "[job]\nrw=read\nsize=64k\nfilename=x.dat\ndirectory=$WORK/e\n" "--directory=$WORK/d"

# a missing folder, a file, a symbolic link: fio 3.33 exits 1 ("... is not a directory");
# iomark: one line naming the option and its line, exit 2, nothing made
ln -s "$WORK/e" lnk
for bad in "$WORK/nonexist" "$WORK/t.fio" "$WORK/lnk" "$WORK/d:$WORK/nonexist"; do
  printf '[global]\ndirectory=%s\nsize=64k\n[job]\nrw=read\n' "$bad" >bad.fio
  rc=0; (cd j && fio --output=/dev/null ../bad.fio >/dev/null 2>&1) || rc=$?
  [ $rc = 1 ] && pass "fio 3.33 refuses directory=$bad (exit 1)" || fail "fio exit $rc for directory=$bad"
  rm -rf d/* e/* j/*
  expect_status 2 "directory=$bad refused" -- "$IOMARK" run "$WORK/bad.fio"
  expect_err_has "line 2: directory=$bad: "
  [ -z "$(find d e j "$WORK/nonexist" -mindepth 1 2>/dev/null)" ] && pass "nothing made" || fail "files made"
done
# --filename-map replacing every file of the job: the missing folder names nothing used
printf '[global]\ndirectory=%s/nonexist\nsize=64k\n[job]\nrw=read\nfilename=x.dat\n' "$WORK" >mapped.fio
expect_status 0 "directory= missing, every file mapped: runs" -- "$IOMARK" run "$WORK/mapped.fio" \
  --filename-map="$WORK/nonexist/x.dat=$WORK/e/m.dat" --quiet --output=/dev/null
[ -f e/m.dat ] && [ ! -e "$WORK/nonexist" ] && pass "the mapped file made, no folder" || fail "e/m.dat missing or nonexist made"
finish
