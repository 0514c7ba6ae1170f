#!/usr/bin/env bash
# Front ends on the real-world cases: every DiskSpd command line of
# tests/data/jobs/ (the SQL Server .ps1 and the wiki sample table) and
# every fio job file there either runs briefly (durations cut to about 1 s,
# small files in a temporary folder, devices renamed to files) or is refused
# with exit 2, a one-line reason naming the flag or option, and nothing
# created. Also the SQL Server profiles.
source "$(dirname "$0")/lib.sh"
JOBS=$SRCDIR/tests/data/jobs
[ -d "$JOBS" ] || { echo "FAIL: $JOBS not found (part of the repository)"; exit 1; }

# expect_refused DESC NEEDLE -- command... : exit 2, one line naming NEEDLE, $WORK/case empty
expect_refused() {
  local desc=$1 needle=$2; shift 3
  rm -rf "$WORK/case"; mkdir -p "$WORK/case"
  expect_status 2 "$desc refused" -- "$@"
  expect_err_has "$needle"
  [ -z "$(ls -A "$WORK/case")" ] && pass "$desc: nothing created" || fail "$desc: created $(ls "$WORK/case")"
}

# ---------------- DiskSpd: the SQL Server script (iczerjones/oltptest) ----------------
mapfile -t PS1 < <(grep -E '^& \$diskspd ' "$JOBS/diskspd_cmds_1_sqlserver_oltp_log_readahead.ps1" \
  | sed -E 's/^& \$diskspd //; s/ *> *"[^"]*" *$//; s/\r$//')
[ "${#PS1[@]}" = 4 ] && pass "4 DiskSpd lines in the .ps1" || fail "found ${#PS1[@]} DiskSpd lines"
i=0
for line in "${PS1[@]}"; do
  i=$((i + 1))
  # as written: the target is "D:\oltpio.dat" (PowerShell's "$($datalog):\...")
  orig=$(echo "$line" | sed -E 's/"\$\(\$datalog\):\\([^"]*)"/D:\\\1/')
  read -r -a args <<<"$orig"
  expect_refused "ps1 #$i as written (Windows path)" 'D:\' -- "$IOMARK" diskspd "${args[@]}"
  # on Linux: the file in a temporary folder, 16 MiB instead of 64G/1G, 1 s, no warm-up
  name=$(echo "$line" | sed -E 's/.*\\([^"]*)".*/\1/')
  flags=$(echo "$line" | sed -E 's/ "\$\(\$datalog\).*$//; s/-c[0-9]+[GM]/-c16M/')
  read -r -a args <<<"$flags"
  expect_status 0 "ps1 #$i on Linux" -- "$IOMARK" diskspd "${args[@]}" -d1 -W0 "$WORK/$name"
  grep -q '^Total IO' "$WORK/out" && grep -q '^Read IO' "$WORK/out" && grep -q '^Write IO' "$WORK/out" \
    && grep -q '^    max |' "$WORK/out" && grep -q '^avg\.|' "$WORK/out" \
    && pass "ps1 #$i DiskSpd text layout" || fail "ps1 #$i text: $(head -c 300 "$WORK/out")"
  grep -qE "^total: +[0-9]+ \| +[1-9][0-9]* \|" "$WORK/out" && pass "ps1 #$i did I/O" \
    || fail "ps1 #$i: no I/O in the total row"
done
# one of them as XML: DiskSpd's element names, parsable
read -r -a args <<<"$(echo "${PS1[0]}" | sed -E 's/ "\$\(\$datalog\).*$//; s/-c[0-9]+[GM]/-c16M/')"
expect_status 0 "ps1 #1 with -Rxml" -- "$IOMARK" diskspd "${args[@]}" -d1 -W0 -Rxml "$WORK/oltpio.dat"
$PY - "$WORK/out" <<'PY' && pass "XML: Results/TimeSpan/Thread/Target, Latency buckets" || fail "XML layout"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == "Results"
ts = r.find("TimeSpan")
assert float(ts.find("TestTimeSeconds").text) > 0.5
threads = ts.findall("Thread")
assert len(threads) == 8, len(threads)
io = sum(int(t.find("Target/IOCount").text) for t in threads)
assert io > 0
assert sum(int(t.find("Target/ReadCount").text) + int(t.find("Target/WriteCount").text) for t in threads) == io
buckets = ts.findall("Latency/Bucket")
assert len(buckets) == 108 and buckets[0].find("Percentile").text == "0" and buckets[-1].find("Percentile").text == "100"
assert r.find("Profile/TimeSpans/TimeSpan/Targets/Target/WriteRatio").text == "30"
PY

# ---------------- DiskSpd: the wiki sample table ----------------
mapfile -t WIKI < <(grep -oE '`diskspd [^`]*`' "$JOBS/diskspd_cmds_3_wiki_sample_command_lines.md" | tr -d '`' \
  | sed -E 's/^diskspd //')
[ "${#WIKI[@]}" = 18 ] && pass "18 wiki sample lines" || fail "found ${#WIKI[@]} wiki lines"
# expected outcome per row: "run" or the text the refusal must name
WANT=(run run run run run run run run run run -eDISK_IO run run -rs20 run "no target" "*1" -Xprofile.xml)
for ((k = 0; k < ${#WIKI[@]}; k++)); do
  line=${WIKI[$k]}
  row=$((k + 1))
  if [ "${WANT[$k]}" = run ]; then
    flags=$(echo "$line" | sed -E 's/ testfile\.dat$//; s/-c[0-9]+G/-c16M/')
    read -r -a args <<<"$flags"
    rm -f "$WORK/testfile.dat"
    expect_status 0 "wiki row $row runs" -- "$IOMARK" diskspd "${args[@]}" -d1 -W0 "$WORK/testfile.dat"
    grep -qE "^total: +[0-9]+ \| +[1-9][0-9]* \|" "$WORK/out" && pass "wiki row $row did I/O" \
      || fail "wiki row $row: no I/O: $(grep -m1 '^total' "$WORK/out")"
  else
    read -r -a args <<<"$(echo "$line" | sed -E "s#testfile\.dat#$WORK/case/testfile.dat#g; s#file([12])\.dat#$WORK/case/file\1.dat#g; s/ > profile\.(txt|xml)//")"
    expect_refused "wiki row $row" "${WANT[$k]}" -- "$IOMARK" diskspd "${args[@]}"
  fi
done
# issue 3: refused before any file is created
expect_refused "-c64D" "-c64D" -- "$IOMARK" diskspd -c64D -d1 "$WORK/case/t.dat"
expect_refused "-w200" "-w200" -- "$IOMARK" diskspd -c1M -w200 -d1 "$WORK/case/t.dat"
# -Rp prints the profile and runs nothing
expect_status 0 "-Rptext" -- "$IOMARK" diskspd -t1 -o4 -b4k -r4k -w0 -Sh -D -d60 -L -c1G -Rptext "$WORK/case/p.dat"
grep -q "using random I/O (alignment: 4096)" "$WORK/out" && [ ! -e "$WORK/case/p.dat" ] \
  && pass "-Rptext shows the profile, creates nothing" || fail "-Rptext"

# ---------------- fio job files ----------------
J1=$JOBS/fio_job_1_oltp_sqlserver_like_expanded.fio
# [initrandomio] and [initsequentialio] inherit time_based=1 without runtime:
# fio 3.33 warns "time_based requires a runtime/timeout setting" and runs them
# size-based; iomark does the same (checked without touching /dev/sd*)
expect_status 0 "fio job 1 as written parses" -- "$IOMARK" run "$J1" --parse-only
grep -q "line 64: \[initrandomio\]: time_based requires a runtime/timeout setting" "$WORK/err" &&
  grep -q "line 74: \[initsequentialio\]: time_based requires a runtime" "$WORK/err" &&
  pass "fio job 1: time_based without runtime warned for lines 64 and 74" || fail "fio job 1 warnings: $(cat "$WORK/err")"
grep -q '^\[initrandomio\] line=64 .* time_based=0 ' "$WORK/out" &&
  pass "fio job 1: [initrandomio] runs size-based" || fail "fio job 1 [initrandomio]: $(grep initrandomio "$WORK/out")"
maps=()
for d in d e f g h i; do maps+=("--filename-map=/dev/sd$d=$WORK/sd$d.img"); done
expect_status 0 "fio job 1 on files, runtime=1, size=8m" -- "$IOMARK" run "$J1" "${maps[@]}" --runtime=1 \
  --size=8m --output-format=json --quiet
$PY - "$WORK/out" <<'PY' && pass "fio job 1: 6 jobs in 6 groups, all ran together" || fail "fio job 1 JSON"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
assert [j["jobname"] for j in jobs] == ["randomreader", "randomwriter", "sequentialreader",
        "sequentialwriter", "initrandomio", "initsequentialio"], [j["jobname"] for j in jobs]
assert [j["groupid"] for j in jobs] == list(range(6))
assert jobs[0]["read"]["total_ios"] > 0 and jobs[1]["write"]["total_ios"] > 0
# rate_iops=270 for randomreader: at most ~270 I/Os in 1 s (+ one per file thread)
assert jobs[0]["read"]["iops"] < 300, jobs[0]["read"]["iops"]
assert jobs[0]["job options"]["rate_iops"] == "270"
PY
# the log device as a loop device (when this machine has them)
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null && losetup -f >/dev/null 2>&1; then
  truncate -s 64M "$WORK/sdi.loop"
  new_loop "$WORK/sdi.loop"; LDEV=$LOOP_DEV
  maps[5]="--filename-map=/dev/sdi=$LDEV"
  expect_status 0 "fio job 1 with /dev/sdi on $LDEV" -- "$IOMARK" run "$J1" "${maps[@]}" --runtime=1 \
    --size=8m --output-format=json --quiet
  $PY - "$WORK/out" <<'PY' && pass "fio job 1: the loop device took the log I/O" || fail "fio job 1 on a loop device"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
assert jobs["sequentialreader"]["read"]["total_ios"] > 0 and jobs["sequentialwriter"]["write"]["total_ios"] > 0
PY
fi

J3=$JOBS/fio_job_3_crystaldiskmark_default.fio
export FDM_ENGINE=io_uring FDM_DIR=$WORK/case FDM_SIZE=1 FDM_ZERO=0 FDM_LOOPS=1 FDM_DURATION=1 FDM_Q8SIZE=1
mkdir -p "$WORK/case"
expect_status 0 "fio job 3 as written (end_fsync=1 runs), size=1m" -- "$IOMARK" run "$J3" --size=1m --quiet
mkdir -p "$WORK/cdm"
export FDM_DIR=$WORK/cdm
expect_status 0 "fio job 3 --ignore-unknown, size=16m" -- "$IOMARK" run "$J3" --ignore-unknown --size=16m \
  --output-format=json --quiet
$PY - "$WORK/out" <<'PY' && pass "fio job 3: 12 jobs, 12 groups, nothing ignored" || fail "fio job 3 JSON"
import json, sys
d = json.load(open(sys.argv[1]))
jobs = d["jobs"]
assert len(jobs) == 12 and [j["groupid"] for j in jobs] == list(range(12))
assert not d["iomark"].get("ignored_options"), d["iomark"].get("ignored_options")
assert jobs[6]["jobname"] == "RND4K-Q32T16-RD" and jobs[6]["read"]["total_ios"] > 0
assert jobs[2]["jobname"] == "SEQ1M-Q8T1-MIX" and jobs[2]["read"]["total_ios"] + jobs[2]["write"]["total_ios"] > 0
PY
cp "$WORK/out" "$WORK/cdm.json"
# the file's first test alone (its [global] and the SEQ1M-Q8T1 jobs), size-based
# to the end (runtime=60, reached by none) and randrepeat=1: one pass of 16 MiB,
# and the rw=rw job's 16 I/Os of 1 MiB in both directions. (Within the whole
# file's runtime=1 on a loaded machine the rw=rw job once finished only its
# first few I/Os, all reads, as randrepeat=0 drew new directions each run.)
sed '/end SEQ1M-Q8T1/q' "$J3" >"$WORK/seq.fio"
expect_status 0 "fio job 3's SEQ1M-Q8T1, size=16m, size-based" -- env FDM_DURATION=60 \
  "$IOMARK" run "$WORK/seq.fio" --size=16m --randrepeat=1 --output-format=json --quiet
$PY - "$WORK/out" <<'PY' && pass "fio job 3's SEQ1M-Q8T1: one pass of 16 MiB each, the mix both ways" || fail "fio job 3 SEQ1M-Q8T1 JSON"
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
assert sorted(jobs) == ["SEQ1M-Q8T1-MIX", "SEQ1M-Q8T1-RD", "SEQ1M-Q8T1-WR"], sorted(jobs)
assert jobs["SEQ1M-Q8T1-RD"]["read"]["io_bytes"] == 16 << 20, jobs["SEQ1M-Q8T1-RD"]["read"]["io_bytes"]
assert jobs["SEQ1M-Q8T1-WR"]["write"]["io_bytes"] == 16 << 20, jobs["SEQ1M-Q8T1-WR"]["write"]["io_bytes"]
r, w = jobs["SEQ1M-Q8T1-MIX"]["read"]["total_ios"], jobs["SEQ1M-Q8T1-MIX"]["write"]["total_ios"]
assert r > 0 and w > 0 and r + w == 16, (r, w)
PY
# fio itself (null engine, nothing written) gives the same entries and group ids
if command -v fio >/dev/null && FDM_ENGINE=null timeout 120 fio --output-format=json "$J3" >"$WORK/cdm-fio.json" 2>/dev/null; then
  $PY - "$WORK/cdm-fio.json" "$WORK/cdm.json" <<'PY' && pass "fio job 3: same jobs and groupids as fio" || fail "fio job 3 vs fio"
import json, sys
ref, mine = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda d: [(j["jobname"], j["groupid"]) for j in d["jobs"]]
assert key(ref) == key(mine), (key(ref), key(mine))
PY
fi
# the same in fio's human layout
expect_status 0 "fio job 3 normal output" -- "$IOMARK" run "$J3" --ignore-unknown --size=16m --quiet
grep -q '^SEQ1M-Q8T1-RD: (groupid=0, jobs=1): err= 0' "$WORK/out" && grep -q 'clat percentiles (' "$WORK/out" \
  && grep -q '^Run status group 11 (all jobs):' "$WORK/out" && grep -qE '^   READ: bw=.*run=[0-9]+-[0-9]+msec' "$WORK/out" \
  && ! grep -q 'ignored (--ignore-unknown)' "$WORK/out" \
  && pass "fio normal layout" || fail "fio normal layout: $(head -c 400 "$WORK/out")"

J4=$JOBS/fio_job_4_iometer_fileserver.fio
mkdir -p "$WORK/iom"
(cd "$WORK/iom" && expect_status 0 "fio job 4 (iometer) size=16m runtime=1" -- "$IOMARK" run "$J4" --size=16m \
  --runtime=1 --output-format=json --quiet; cp "$WORK/out" "$WORK/iom.json")
[ -f "$WORK/iom/iometer.0.0" ] && pass "fio job 4: fio's default file name iometer.0.0" || fail "no iometer.0.0"
$PY - "$WORK/iom.json" <<'PY' && pass "fio job 4: 80/20 mix" || fail "fio job 4 JSON"
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
r, w = j["read"]["total_ios"], j["write"]["total_ios"]
assert r + w > 100 and abs(r / (r + w) - 0.8) < 0.05, (r, w)
PY

# iomark's fio JSON has the keys fio 3.x writes (for the fields measured)
if command -v fio >/dev/null; then
  printf '[global]\nioengine=null\nsize=4m\n[a]\nrw=randrw\n' >"$WORK/ref.fio"
  if fio --output-format=json "$WORK/ref.fio" >"$WORK/ref.json" 2>/dev/null; then
    printf '[global]\nioengine=null\nsize=4m\n[a]\nrw=randrw\nfilename=%s\n' "$WORK/n.dat" >"$WORK/mine.fio"
    expect_status 0 "null-engine job" -- "$IOMARK" run "$WORK/mine.fio" --output-format=json --quiet
    $PY - "$WORK/ref.json" "$WORK/out" <<'PY' && pass "fio JSON keys match fio's" || fail "fio JSON keys"
import json, sys
ref, mine = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rj, mj = ref["jobs"][0], mine["jobs"][0]
for d in ("read", "write"):
    assert set(mj[d]) == set(rj[d]), set(rj[d]) ^ set(mj[d])
    for k in ("slat_ns", "clat_ns", "lat_ns"):
        assert set(mj[d][k]) <= set(rj[d][k]) | {"percentile"}, (k, set(mj[d][k]) ^ set(rj[d][k]))
    assert set(mj[d]["clat_ns"]["percentile"]) == set(rj[d]["clat_ns"]["percentile"])
missing = set(rj) - set(mj)
assert missing <= {"ctx", "majf", "minf", "iodepth_level", "iodepth_submit", "iodepth_complete"}, missing
assert set(mine) - {"iomark"} <= set(ref) | {"global options"}
PY
  else
    echo "note: fio could not run here; key comparison skipped"
  fi
fi

# bad job files: option and line named, nothing created
printf '[a]\nfilename=%s\nsize=1m\nbogus_opt=1\n' "$WORK/case/x.dat" >"$WORK/bad.fio"
expect_refused "unknown fio option" "line 4: bogus_opt=1" -- "$IOMARK" run "$WORK/bad.fio"
printf '[a]\nfilename=%s\nsize=1m\nrw=randread:8\n' "$WORK/case/x.dat" >"$WORK/bad2.fio"
expect_refused "rw offset modifier" "line 4: rw=randread:8" -- "$IOMARK" run "$WORK/bad2.fio"

# ---------------- SQL Server profiles ----------------
expect_status 0 "iomark profiles" -- "$IOMARK" profiles
n=$(grep -cE '^sql-(oltp|log|readahead|checkpoint|backup|tempdb) ' "$WORK/out")
[ "$n" = 6 ] && pass "six profiles listed" || fail "profiles listed: $n"
for p in sql-oltp sql-log sql-readahead sql-checkpoint sql-backup sql-tempdb; do
  expect_status 0 "profile $p runs" -- "$IOMARK" run --profile "$p" --runtime=1 --size=16m \
    --output-format=json --output="$WORK/$p.json" --quiet "$WORK/prof.dat"
done
$PY - "$WORK" <<'PY' && pass "profiles: patterns as documented" || fail "profile patterns"
import json, sys
w = sys.argv[1]
s = lambda p: json.load(open(f"{w}/{p}.json"))["spec"]
o = s("sql-oltp"); assert o["rw"] == "randrw" and o["bs_bytes"] == 8192 and o["rwmixread_pct"] == 70 and o["iodepth"] == 32
l = s("sql-log"); assert l["rw"] == "write" and l["bs_bytes"] == 61440 and l["iodepth"] == 1
assert s("sql-readahead")["bs_bytes"] == 512 * 1024 and s("sql-backup")["bs_bytes"] == 1 << 20
assert s("sql-checkpoint")["rw"] == "randwrite" and s("sql-tempdb")["bs_bytes"] == 65536
PY
expect_status 0 "profile with an override" -- "$IOMARK" run --profile=sql-oltp --bs=16k --runtime=1 --size=16m \
  --output-format=json --output="$WORK/ov.json" --quiet "$WORK/prof.dat"
$PY -c "import json,sys; s=json.load(open('$WORK/ov.json'))['spec']; sys.exit(0 if s['bs_bytes']==16384 and s['rwmixread_pct']==70 else 1)" \
  && pass "--bs overrides the profile, the rest stays" || fail "override"
expect_status 0 "profile, text report" -- "$IOMARK" run --profile sql-oltp --runtime=1 --size=16m --quiet "$WORK/prof.dat"
grep -qx '  profile: sql-oltp' "$WORK/out" && pass "the text header names the profile" \
  || fail "no 'profile: sql-oltp' line: $(head -c 400 "$WORK/out")"
expect_status 0 "--name, text report" -- "$IOMARK" run --name=sql-oltp --runtime=1 --size=16m --quiet "$WORK/prof.dat"
grep -q 'profile:' "$WORK/out" && fail "a profile line without --profile" || pass "no profile line without --profile"
expect_refused "unknown profile" "sql-oltp, sql-log" -- "$IOMARK" run --profile nope "$WORK/case/x.dat"
finish
