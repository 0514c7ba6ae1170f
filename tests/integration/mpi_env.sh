# mpi_env.sh - sourced by the tests that run iomark under mpirun
# (test_mpi*.sh): skips (77) without mpirun, sets Open MPI up for one
# machine, makes the scratch folder $D (removed at exit, after the test's
# own mpi_cleanup_more when it defines one), and skips when iomark was built
# without MPI. Usage: . "$SRCDIR/tests/integration/mpi_env.sh" NAME
set -u
IOMARK=${IOMARK:?}
command -v mpirun >/dev/null || { echo "SKIP: no mpirun (Debian: openmpi-bin)"; exit 77; }
# single_copy_mechanism=none: containers often forbid the cross-process reads (CMA) vader uses
export OMPI_MCA_btl=self,vader OMPI_MCA_plm_rsh_agent= OMPI_MCA_rmaps_base_oversubscribe=1 \
    OMPI_MCA_btl_vader_single_copy_mechanism=none
# Ctrl-C: Open MPI sends the ranks SIGTERM and SIGKILL this many seconds later
# (default 1 s, short on a loaded machine for stopping, gathering and writing)
export OMPI_MCA_odls_base_sigkill_timeout=10
# Open MPI's dlopen'ed components (unloaded before exit, so LeakSanitizer sees
# "<unknown module>" frames) keep allocations to the end: leak checking cannot
# tell them from iomark's under mpirun. The ASan/UBSan checks stay on.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
MPIRUN="mpirun --allow-run-as-root --oversubscribe"
D=$(mktemp -d "/tmp/iomark-${1:-mpi}.XXXXXX")
mpi_env_exit() {
    if declare -F mpi_cleanup_more >/dev/null; then mpi_cleanup_more; fi
    rm -rf "$D"
}
trap mpi_env_exit EXIT
fail() { echo "FAIL: $*"; exit 1; }

# built with MPI? one rank writes an "mpi" object then
timeout 60 $MPIRUN -np 1 "$IOMARK" run --rw=randread --bs=4k --runtime=100ms --size=1m --quiet \
    --output-format=json --output="$D/one.json" "$D/one.%r" || fail "one rank failed"
grep -q '"mpi"' "$D/one.json" || { echo "SKIP: iomark built without MPI"; exit 77; }
