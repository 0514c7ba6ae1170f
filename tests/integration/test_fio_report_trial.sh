#!/bin/bash
# test_fio_report_trial.sh - fio job files, a new user's trial findings (issue 19),
# each checked against fio 3.33's own output of the same job file, run here:
#  1. report entries: a thread with group_reporting joins the entry before it in
#     its reporting group, one without starts its own (fio stat.c __show_run_stats);
#  2. name= in [global] names no job; generated files take the section's name;
#  3. an interrupted run's report starts with fio's "fio: terminating on signal 2";
#  4. "job options" and job_runtime of numjobs > 1 and group_reporting entries;
#  5. misspelt options and engines: fio's own names, "did you mean".
# Needs fio 3.33 (the expected values are its output); skips (77) without it.
. "$(dirname "$0")/lib.sh"

if ! command -v fio >/dev/null || [ "$(fio --version 2>/dev/null)" != "fio-3.33" ]; then
  echo "skip: needs fio 3.33 (the expected values are its output)"; exit 77
fi
cd "$WORK"

# jq-free: entries as "jobname groupid reads writes" lines, fio's trailing unused
# entry (jobname null, groupid 4294967295: fio 3.33 counts an entry more than it
# fills when a group_reporting job follows one without) left out
entries() {
  $PY - "$1" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
for j in d["jobs"]:
    if j.get("jobname") is None and j.get("groupid", 4294967295) == 4294967295:
        continue
    print(j["jobname"], j["groupid"], j["read"]["total_ios"], j["write"]["total_ios"])
PY
}

# 1. grouping: three layouts, entries (name, group, read and write counts) as fio's
group_job() { # $1: options of [a], $2 of [b], $3 of [c] (each "k=v k=v")
  printf '[global]\nfilename=%s/g.dat\nsize=1m\nbs=4k\n' "$WORK"
  printf '[a]\nrw=read\nnumjobs=2\n'; printf '%s\n' $1
  printf '[b]\nrw=write\n'; printf '%s\n' $2
  if [ -n "$3" ]; then printf '[c]\nrw=read\n'; printf '%s\n' $3; fi
}
n=0
for layout in "group_reporting||" "|group_reporting|" "group_reporting||group_reporting" \
              "group_reporting||stonewall group_reporting"; do
  n=$((n + 1))
  IFS='|' read -r oa ob oc <<<"$layout"
  group_job "$oa" "$ob" "$oc" >"g$n.fio"
  fio --output-format=json --output="fg$n.json" "g$n.fio" >/dev/null 2>&1 || fail "fio on g$n.fio"
  "$IOMARK" run --output-format=json --output="ig$n.json" "g$n.fio" 2>/dev/null || fail "iomark on g$n.fio"
  want=$(entries "fg$n.json"); got=$(entries "ig$n.json")
  [ "$want" = "$got" ] && pass "grouping $layout: $(echo $want)" ||
    fail "grouping $layout: fio [$(echo $want)] iomark [$(echo $got)]"
done

# 2. name= in [global]: fio's job names and its generated files
mkdir f i
printf '[global]\nname=gname\nsize=64k\nrw=read\n[sec1]\n[sec2]\nname=inner\n' >name.fio
(cd f && fio --output-format=json --output=../fn.json ../name.fio >/dev/null 2>&1) || fail "fio on name.fio"
(cd i && "$IOMARK" run --output-format=json --output=../in.json ../name.fio 2>/dev/null) || fail "iomark on name.fio"
want=$(entries fn.json | cut -d' ' -f1 | tr '\n' ' '); got=$(entries in.json | cut -d' ' -f1 | tr '\n' ' ')
[ "$want" = "$got" ] && pass "names as fio: $want" || fail "names: fio [$want] iomark [$got]"
want=$(ls f | tr '\n' ' '); got=$(ls i | tr '\n' ' ')
[ "$want" = "$got" ] && pass "files as fio: $want" || fail "files: fio [$want] iomark [$got]"

# 3. SIGINT: the report (JSON and normal) starts with fio's line; exit status fio's own
#    (fio 3.33 backend.c sig_int sets exit_value = 128 for SIGINT and SIGTERM);
#    the signal is sent once the tool has the data file open (the run has begun)
head -c 4194304 /dev/zero >s.dat
printf '[r]\nfilename=%s/s.dat\nsize=4m\nrw=randread\nbs=4k\ntime_based\nruntime=30\n' "$WORK" >s.fio
interrupt() { # $1: output file, then the command; waits for s.dat among its files
  local out=$1 pid k; shift
  "$@" >"$out" 2>/dev/null & pid=$!
  for k in $(seq 200); do
    ls -l /proc/$pid/fd 2>/dev/null | grep -q "$WORK/s.dat" && break
    for c in $(cat /proc/$pid/task/*/children 2>/dev/null); do
      ls -l /proc/$c/fd 2>/dev/null | grep -q "$WORK/s.dat" && break 2
    done
    sleep 0.1
  done
  sleep 0.5; kill -"${SIG:-INT}" $pid; local rc=0; wait $pid || rc=$?; echo $rc
}
# the first non-empty line that is not fio's start-up banner (a job's "name: (g=0):
# rw=..." line, the version, "Starting N process"), which iomark does not print
first_line() { grep -v -e '^$' -e ': (g=[0-9]*): rw=' -e '^fio-3' -e '^Starting ' "$1" | head -1 || true; }
for fmt in json normal; do
  frc=$(interrupt "f_$fmt.out" fio --output-format=$fmt s.fio)
  irc=$(interrupt "i_$fmt.out" "$IOMARK" run --output-format=$fmt s.fio)
  want=$(first_line "f_$fmt.out"); got=$(first_line "i_$fmt.out")
  [ "$want" = "fio: terminating on signal 2" ] && [ "$got" = "$want" ] &&
    pass "$fmt report of an interrupted run starts with fio's '$want'" ||
    fail "$fmt interrupted: fio's first line '$want', iomark's '$got'"
  [ "$irc" = "$frc" ] && [ "$irc" = 128 ] && pass "$fmt interrupted: exit $irc, as fio 3.33" ||
    fail "$fmt interrupted: exit $irc (fio $frc)"
done
frc=$(SIG=TERM interrupt f_term.out fio --output-format=json s.fio)
irc=$(SIG=TERM interrupt i_term.out "$IOMARK" run --output-format=json s.fio)
[ "$irc" = "$frc" ] && [ "$irc" = 128 ] && pass "SIGTERM: exit $irc, as fio 3.33" ||
  fail "SIGTERM: exit $irc (fio $frc)"
entries i_json.out >/dev/null && pass "interrupted JSON after the line parses" || fail "interrupted JSON does not parse"
# iomark's importer reads its interrupted document as fio's: interrupted after N s
"$IOMARK" report i_json.out --output=rep.html 2>/dev/null &&
  grep -q "source run interrupted (fio: terminating on signal 2)" rep.html &&
  pass "iomark report reads the interrupted fio-style JSON as interrupted" ||
  fail "iomark report of the interrupted JSON: $(grep -o 'note:.\{0,80\}' rep.html | head -1)"

# 4. "job options" (names, order, value-less ones) and job_runtime, as fio's
opts() {
  $PY - "$1" "$2" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
for j in d["jobs"]:
    if j.get("jobname") is None:
        continue
    # job_runtime: the sum of the entry's clones' runtimes (fio stat.c), so n
    # clones of runtime=1 give n to 2n seconds on a busy machine: printed as
    # the clones it stands for (n when n <= s < 2n), after a tab
    n = int(sys.argv[2])
    s = j["job_runtime"] / 1000
    print(json.dumps(j["job options"]) + "\t" + (str(n) if n <= s < 2 * n else "runtime %.3f s" % s))
PY
}
for nj in 1 2 3; do
  for gr in "" group_reporting; do
    cat >"o$nj$gr.fio" <<JOB
[global]
ioengine=null
size=64m
readwrite=randread
[j]
filename=$WORK/o.dat
blocksize=4k
blockalign=4k
time_based
runtime=1
numjobs=$nj
norandommap
$gr
io_limit=1g
JOB
    fio --output-format=json --output="fo.json" "o$nj$gr.fio" >/dev/null 2>&1 || fail "fio on o$nj$gr.fio"
    "$IOMARK" run --output-format=json --output="io.json" "o$nj$gr.fio" 2>/dev/null || fail "iomark on o$nj$gr.fio"
    # clones per entry: all of them with group_reporting, else one
    per=1; [ -n "$gr" ] && per=$nj
    # the options as fio's; iomark's job_runtime by the arithmetic, fio's shown
    # beside it (fio's own runtime=1 clone reported 2.154 s once under load)
    want=$(opts fo.json $per | cut -f1); got=$(opts io.json $per | cut -f1)
    got_rt=$(opts io.json $per | cut -f2 | sort -u); fio_rt=$(opts fo.json $per | cut -f2 | sort -u | tr '\n' ' ')
    [ "$want" = "$got" ] && [ "$got_rt" = "$per" ] &&
      pass "numjobs=$nj ${gr:-no group_reporting}: job options as fio, job_runtime $per clone(s) of 1 s (fio: $fio_rt)" ||
      fail "numjobs=$nj $gr: options fio [$want] iomark [$got]; job_runtime iomark [$got_rt] want $per (fio: $fio_rt)"
  done
done

# 5. misspelt names: fio's verdict (parse-only) beside iomark's refusal
typo() { # $1: the option line; sets FIO_SAYS (fio's messages) and ERR (iomark's)
  printf '[j]\nsize=1m\nfilename=%s/t.dat\n%s\n' "$WORK" "$1" >t.fio
  FIO_SAYS=$(fio --parse-only t.fio 2>&1 || true)
  "$IOMARK" run t.fio >/dev/null 2>err || true
  ERR=$(cat err)
}
typo "iodpeth=4"
fio_near=$(sed -n 's/^Did you mean \(.*\)?$/\1/p' <<<"$FIO_SAYS")
[ -n "$fio_near" ] && grep -qF "line 4: iodpeth=4 (not a fio 3.33 option; did you mean $fio_near?)" <<<"$ERR" &&
  pass "iodpeth: fio's 'Did you mean $fio_near?' and 'not a fio option'" || fail "iodpeth: fio '$FIO_SAYS' iomark '$ERR'"
typo "bogus_option=1"
grep -q "Bad option <bogus_option=1>" <<<"$FIO_SAYS" && grep -qF "line 4: bogus_option=1 (not a fio 3.33 option)" <<<"$ERR" &&
  pass "bogus_option: not fio's (fio: Bad option), nothing near" || fail "bogus_option: fio '$FIO_SAYS' iomark '$ERR'"
typo "gtod_cpu=1"
! grep -q "Bad option" <<<"$FIO_SAYS" && grep -qF "line 4: gtod_cpu=1" <<<"$ERR" && ! grep -q "not a fio" <<<"$ERR" &&
  pass "gtod_cpu: a fio option (fio parses it) iomark does not run" || fail "gtod_cpu: fio '$FIO_SAYS' iomark '$ERR'"
# fio's engines, read whole (grep -q on a pipe would stop fio mid-write: SIGPIPE, a failed pipeline)
ENGINES=$(fio --enghelp)
typo "ioengine=libaoi"
grep -qw libaoi <<<"$ENGINES" && fail "fio has an engine libaoi"
grep -qw libaio <<<"$ENGINES" && grep -qF "ioengine=libaoi (no engine of fio's; did you mean libaio?)" <<<"$ERR" &&
  pass "libaoi: did you mean libaio" || fail "libaoi: iomark '$ERR'"
typo "ioengine=pvsync"
grep -qw pvsync <<<"$ENGINES" && grep -qF "ioengine=pvsync (an engine iomark does not have" <<<"$ERR" &&
  pass "pvsync: fio's engine, not taken for a typo of psync" || fail "pvsync: iomark '$ERR'"
# --eta is fio's command-line option (fio takes it), not a typo of --ba or --rw
typo "rw=read"
fio --eta=never --parse-only t.fio >/dev/null 2>&1 && pass "fio takes --eta=never" || fail "fio refuses --eta=never"
expect_status 2 "--eta=never with a job file" -- "$IOMARK" run --eta=never t.fio
expect_err_has "command line: --eta=never (a command-line option of fio, which iomark does not have)"
expect_status 2 "--eta=never native" -- "$IOMARK" run --eta=never --size=1m x.dat
grep -q "did you mean" "$WORK/err" && fail "native --eta suggests: $(cat "$WORK/err")" || pass "native --eta: no far-fetched suggestion"
expect_status 2 "--runtme=1 with a job file" -- "$IOMARK" run --runtme=1 t.fio
expect_err_has "command line: --runtme=1 (did you mean --runtime?)"
finish
