#!/bin/bash
# test_fio_examples.sh - fio's own job corpus (Debian's fio-examples: fio's
# examples/ folder) through iomark: every file is parsed (--parse-only), and
# each one iomark accepts is run with its files remapped into a scratch
# folder, sizes capped at 4 MiB, runtimes of 1 s (FIO_EX_RUNTIME; a run has
# only to start, do I/O and end) and no startdelay (1mbs_clients.fio staggers
# 32 jobs 4 s apart). Each file is classified:
#   runs | refused by name (engine/zoned only - with the options fio 3.33's
#   source tables give that engine, tests/data/fio-3.33-engine-options.txt -
#   or other options) |
#   refused unclearly | crash | hang
# The test fails on a crash, a hang or an unclear refusal, and, for every
# file that runs, when iomark's parsed workload differs from fio's
# (fio --parse-only --debug=parse; fio_parse_compare.py lists the fields). The table goes to
# stdout (docs/fio-jobs.md records it). FIO_EXAMPLES overrides the folder.
# FIO_EX_SHARD=K/N takes only files K, K+N, K+2N, ... of the sorted list
# (tests/CMakeLists.txt registers the corpus as 3 such tests, so CTest runs
# them side by side: one pass over 86 files took up to 600 s under ASan on
# a loaded machine, CTest's limit for a test).
. "$(dirname "$0")/lib.sh"
SHARD=${FIO_EX_SHARD:-1/1}
SK=${SHARD%/*} SN=${SHARD#*/}
case "$SK/$SN" in
  *[!0-9/]*|/*|*/) echo "FIO_EX_SHARD=$SHARD: K/N with 1 <= K <= N" >&2; exit 2 ;;
esac
[ "$SK" -ge 1 ] && [ "$SK" -le "$SN" ] || { echo "FIO_EX_SHARD=$SHARD: K/N with 1 <= K <= N" >&2; exit 2; }

EX=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}
ls "$EX"/*.fio >/dev/null 2>&1 || { echo "skip: no fio examples in $EX (apt-get install fio-examples)"; exit 77; }
EOPTS="$SRCDIR/tests/data/fio-3.33-engine-options.txt"
HAVE_FIO=0; command -v fio >/dev/null && HAVE_FIO=1
SCR="$WORK/scratch"
mkdir -p "$SCR"
declare -A count
printf '| file | fio 3.x parses | iomark | detail |\n|---|---|---|---|\n' >"$WORK/table.md"
idx=0
for f in "$EX"/*.fio; do
  idx=$((idx + 1))
  [ $(( (idx - 1) % SN + 1 )) = "$SK" ] || continue
  b=$(basename "$f")
  fp="?"; [ "$HAVE_FIO" = 1 ] && { timeout 10 fio --parse-only "$f" >/dev/null 2>&1 && fp=yes || fp=no; }
  rc=0
  (cd "$SCR" && timeout 10 "$IOMARK" run "$f" --parse-only) >"$WORK/p.txt" 2>"$WORK/p.err" || rc=$?
  cls=""; detail=""
  if [ "$rc" = 0 ]; then
    # every file the jobs name -> a scratch file
    maps=()
    i=0
    while read -r p; do
      [ -n "$p" ] || continue
      maps+=("--filename-map=$p=$SCR/f$i"); i=$((i + 1))
    done < <(sed -n 's/.* files=//p' "$WORK/p.txt" | tr ':' '\n' | sort -u)
    rc=0
    (cd "$SCR" && timeout 60 "$IOMARK" run "$f" "${maps[@]}" --size=4m --filesize=4m --offset=0 \
       --runtime=${FIO_EX_RUNTIME:-1s} --ramp_time=0 --startdelay=0 --loops=1 --quiet --output-format=json --output="$WORK/r.json") \
       >/dev/null 2>"$WORK/r.err" || rc=$?
    if [ "$rc" = 0 ]; then cls=runs; detail="$(grep -c '^\[' "$WORK/p.txt") job(s)"
      # the parsed workload, field by field, against fio's own parser
      if [ "$HAVE_FIO" = 1 ]; then
        timeout 10 fio --parse-only --debug=parse "$f" >"$WORK/fd.txt" 2>&1 || true
        if "$PY" "$SRCDIR/tests/integration/fio_parse_compare.py" "$WORK/fd.txt" "$WORK/p.txt" >"$WORK/cmp.txt"; then
          pass "$b: parsed as fio: $(tail -1 "$WORK/cmp.txt")"; detail="$detail; $(tail -1 "$WORK/cmp.txt") from fio --parse-only"
        else
          fail "$b: parsed differently from fio: $(tr '\n' ' ' <"$WORK/cmp.txt")"
        fi
      fi
    elif [ "$rc" = 124 ]; then cls=hang; detail="no end after 60 s"
    elif [ "$rc" -ge 128 ]; then cls=crash; detail="signal $((rc - 128))"
    elif grep -qE '(line [0-9]+|\[[^]]+\])' "$WORK/r.err"; then cls="refused at run"; detail=$(head -c 160 "$WORK/r.err" | tr '\n|' ' /')
    else cls="refused unclearly"; detail=$(head -c 160 "$WORK/r.err" | tr '\n|' ' /'); fi
    rm -f "$SCR"/f* "$SCR"/*.0.0 2>/dev/null || true
  elif [ "$rc" = 124 ]; then cls=hang; detail="--parse-only did not end"
  elif [ "$rc" -ge 128 ]; then cls=crash; detail="signal $((rc - 128)) in --parse-only"
  elif grep -qE 'does not exist; this machine has|is not on this machine' "$WORK/p.err"; then
    # a NUMA node or CPU this machine lacks: fio 3.33 fails such a job too (numa.fio:
    # "numa_parse_nodestring failed", the job dropped, exit 1), so iomark's refusal is
    # fio's meaning. Checked: fio runs the file (its files in the scratch folder, 4 MiB,
    # 1 s) and must fail as well.
    cls="refused: machine lacks"; detail=$(sed -e 's/^iomark run: [^:]*: //' "$WORK/p.err" | sed -n 1p | cut -c1-200 | tr '|' '/')
    if [ "$HAVE_FIO" = 1 ]; then
      sed -E -e "s#^(filename|directory)=.*#\1=$SCR/lack#" -e 's/^(size|filesize)=.*/\1=4m/' \
          -e 's/^runtime=.*/runtime=1/' "$f" >"$WORK/lack.fio"
      frc=0; (cd "$SCR" && timeout 60 fio --output="$WORK/lack.out" "$WORK/lack.fio") >/dev/null 2>"$WORK/lack.err" || frc=$?
      rm -f "$SCR"/lack*
      if [ "$frc" = 0 ]; then
        fail "$b: iomark refuses what this machine lacks, but fio 3.33 runs it"
      else
        detail="$detail; fio 3.33 fails too (exit $frc: $(grep -m1 -E 'failed|dropped|error' "$WORK/lack.err" | tr '|' '/'))"
      fi
    fi
  elif grep -qE 'line [0-9]+: [A-Za-z_0-9]+(=|:| |$)|\$\{[A-Za-z_0-9]+\}' "$WORK/p.err"; then
    # refused naming the option(s): only engines/zoned options, or others too
    items=$(sed -n -e 's/^[^:]*: [^:]*: //' -e 1p "$WORK/p.err")
    # the options of a refused engine and fio's zoned-device options, from fio
    # 3.33's own option tables (tests/data/fio-3.33-engine-options.txt, see SOURCES.md)
    engopts=$(awk '$1 == "zoned" {print $3}' "$EOPTS" | tr '\n' '|')
    for e in $(grep -oE 'ioengine=[A-Za-z0-9_-]+ \(an engine' "$WORK/p.err" | sed -E 's/ioengine=([^ ]+).*/\1/' | sort -u); do
      engopts="$engopts$(awk -v e="$e" '$1 == "engine" && $2 == e {print $3}' "$EOPTS" | tr '\n' '|')"
    done
    engopts="^ *line [0-9]+: (${engopts%|})(=| |$)"
    # one item per option: split at "; line N:" (a reason may hold a ';')
    # (a count, not grep -q: a reader that stops early can fail the pipeline by SIGPIPE)
    if grep -q 'options\? iomark does not run' "$WORK/p.err" &&
       [ "$(sed -e 's/.*skips them): //' -e 's/; \(line [0-9]\+:\)/\n\1/g' "$WORK/p.err" | grep -vE 'an engine iomark does not have|zoned-device option' \
         | grep -cvE "$engopts")" = 0 ]; then
      cls="refused: engine/zoned"
    else
      cls="refused by name"
    fi
    detail=$(sed -e 's/^iomark run: [^:]*: //' -e 's/ (see docs\/fio-jobs.md; --ignore-unknown skips them)//' \
             -e 's/ (an engine iomark does not have[^;]*null)/ (engine)/g' -e 's/ (zoned-device option; iomark has no zoned mode)/ (zoned)/g' \
             -e "s/ (an option of fio's [A-Za-z0-9_-]* engine)/ (engine)/g" \
             "$WORK/p.err" | sed -n 1p | cut -c1-200 | tr '|' '/')
    : "$items"
  else
    cls="refused unclearly"; detail=$(head -c 160 "$WORK/p.err" | tr '\n|' ' /')
  fi
  count[$cls]=$(( ${count[$cls]:-0} + 1 ))
  printf '| %s | %s | %s | %s |\n' "$b" "$fp" "$cls" "$detail" >>"$WORK/table.md"
  case $cls in
    crash|hang|"refused unclearly") fail "$b: $cls: $detail" ;;
    *) pass "$b: $cls" ;;
  esac
done
cat "$WORK/table.md"
echo
for k in "${!count[@]}"; do echo "$k: ${count[$k]}"; done | sort
finish
