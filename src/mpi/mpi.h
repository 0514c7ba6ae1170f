/*
 * mpi.h - iomark under an MPI launcher (mpirun, srun, any PMIx launcher):
 * one iomark per rank, one measured window, one merged result (docs/mpi.md).
 *
 * Built only when CMake finds MPI (option IOMARK_MPI; IOMARK_HAVE_MPI is then
 * defined). A process not started by a launcher never calls MPI_Init:
 * iom_mpi_launched() looks at the launcher's environment only.
 *
 * The window follows IOR's "stonewalling" (github.com/hpc/ior, src/ior.c):
 * every rank leaves one barrier together, rank 0's clock alone decides when
 * warm-up ends and when the measured phase ends, and each rank still records
 * its own measured interval; the report gives the slowest rank's time (the
 * one rates are divided by, as IOR divides by the slowest rank) and the
 * spread between ranks.
 *
 * Every function is called from the thread that called iom_mpi_init(); MPI
 * runs at MPI_THREAD_FUNNELED. Functions return 0 or -errno.
 */
#ifndef IOMARK_MPI_MPI_H
#define IOMARK_MPI_MPI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "core/runner.h"
#include "stats/result.h"
#include "workload/spec.h"

/* Whether a launcher started this process: OMPI_COMM_WORLD_SIZE (Open MPI),
 * PMI_SIZE (Slurm PMI-1/2, MPICH's Hydra) or PMIX_RANK (PMIx: srun
 * --mpi=pmix, prterun) is set. Reads the environment only. */
bool iom_mpi_launched(void);

/* MPI_Init_thread(FUNNELED) and this rank's rank, size and short host name
 * (gethostname() up to the first '.'). Returns 0, or -EIO when MPI refuses
 * (nothing else is valid then). Call once. */
int iom_mpi_init(void);

/* MPI_Finalize when iom_mpi_init() succeeded and no rank was lost;
 * otherwise nothing (MPI_Finalize would wait for the lost rank: the
 * launcher ends the job). */
void iom_mpi_finalize(void);

/* Whether a rank was lost in this job (iom_mpi_gather): the caller must
 * not start another collective step. */
bool iom_mpi_lost(void);

/* This rank (0..size-1), the number of ranks, the short host name (static
 * storage). Valid after iom_mpi_init(). */
int iom_mpi_rank(void);
int iom_mpi_size(void);
const char *iom_mpi_host(void);

/*
 * Expand %r (rank), %h (short host name), %n (number of ranks) and %% in
 * every job->targets[i], in place (the strings are replaced with malloc'd
 * ones, freed by iom_job_free). *patterned is set when any target used %r
 * or %h (then ranks have their own targets; otherwise ranks on one host
 * share the path). Returns 0, -ENOMEM, or -EINVAL for '%' followed by
 * another character (why: one line naming the target).
 */
int iom_mpi_expand_targets(struct iom_job *job, bool *patterned, char *why, size_t whylen);

/*
 * Refuse mismatched ranks: every rank hashes its iomark version and its
 * workload (the spec as iom_json_spec() prints it, targets before
 * expansion; job NULL: none) with 64-bit FNV-1a and the hashes are
 * compared with rank 0's. extra (may be NULL) is hashed with the workload:
 * a command's own settings that the spec does not hold (mark: profile,
 * runs, preparation, pause; tpcc: its options but --db and the output).
 * Collective. Returns 0 when all agree; -EPROTO otherwise, with why naming
 * the lowest differing rank, its host and what differs (version or
 * workload). Identical on every rank.
 */
int iom_mpi_check_same(const struct iom_job *job, const char *extra, char *why, size_t whylen);

/*
 * Whether this rank is the lowest-numbered rank on its host (the ranks that
 * share a memory domain, MPI_COMM_TYPE_SHARED). Collective: every rank calls
 * it. Falls back to "rank 0" if MPI cannot split the ranks. Never fails.
 */
bool iom_mpi_first_on_host(void);

/*
 * Agree on a status before going on. Collective. local_rc is this rank's
 * status (0 ok) and local_why its reason ("" if none). Returns 0 when every
 * rank is ok; otherwise the status of the lowest failing rank, whose rank,
 * host name and reason are written to *bad_rank, bad_host (64 bytes) and
 * why (whylen bytes) on every rank.
 */
int iom_mpi_agree(int local_rc, const char *local_why, int *bad_rank, char *bad_host, char *why,
                  size_t whylen);

/*
 * Fill *s with the coordinator the runner follows (core/runner.h,
 * struct iom_run_sync). ready: status agreement, then the offset of rank
 * 0's monotonic clock from each rank's (ping-pong, shortest round trip),
 * then a start 100 ms ahead on rank 0's clock, which every rank converts to
 * its own. poll: rank 0 alone decides MEASURE and END from its clock (END
 * also when every rank reached its I/O limit) and sends each with its
 * instant 100 ms before it comes, so every rank publishes the same boundary
 * in time even when its control thread wakes late; a rank's signal goes to
 * rank 0, which stops everyone. One run at a time.
 */
void iom_mpi_sync(struct iom_run_sync *s);

/* ---- clocks (mpi_clock.c) ---- */

/*
 * Offset of rank 0's CLOCK_MONOTONIC from this rank's, in ns (add it to a
 * reading of this rank's clock to get rank 0's), and its error bound in ns.
 * A rank that reads the same clock as rank 0 - the same kernel boot
 * (/proc/sys/kernel/random/boot_id) and the same time-namespace offsets
 * (/proc/self/timens_offsets, time_namespaces(7)) - gets 0 and 0 exactly.
 * Otherwise: 8 ping-pongs with rank 0, the one with the shortest round trip,
 * rank 0's reading taken as made at its middle (Cristian's algorithm,
 * Distributed Computing 3(3), 1989); the bound is half that round trip.
 * rank, size: this process's rank and the number of ranks in
 * MPI_COMM_WORLD. Collective (every rank calls it at the same point);
 * cannot fail short of MPI's own errors, which abort.
 */
void iom_mpi_clock_offset(int rank, int size, int64_t *offset_ns, int64_t *error_ns);

/* CLOCK_REALTIME now, ns since 1970. */
int64_t iom_mpi_realtime_ns(void);

/* Instant `at` of this process's CLOCK_MONOTONIC (iom_now_ns, ns) on
 * CLOCK_REALTIME (ns since 1970): the realtime clock is read between two
 * monotonic readings, the tightest of 3 such brackets (a thread descheduled
 * between the readings would otherwise shift the result by that time). */
int64_t iom_mpi_to_realtime(uint64_t at);

/* One rank's figures in the merged result. */
/* Bytes of one rank's target paths sent to rank 0 (struct iom_mpi_rank). */
#define IOM_MPI_PATHS_LEN 2048

struct iom_mpi_rank {
    int rank;
    char host[64];
    char targets[IOM_MPI_PATHS_LEN]; /* its target paths in order, each NUL-terminated, back
                                 * to back: as many whole paths as fit (nr_paths) */
    uint32_t nr_paths;          /* paths in targets */
    uint32_t nr_targets;        /* its targets (more than nr_paths when they did not fit) */
    uint64_t size_bytes, region_len; /* of its first target */
    uint32_t logical_block_bytes;
    bool is_blockdev;
    bool created;               /* that rank created (and filled) its first target */
    char devname[64];           /* kernel name of the block device under its first target, "" none */
    int rc;                     /* iom_run's status on that rank */
    int interrupted_signal;
    char error[256];
    uint64_t warmup_ns, measured_ns;
    int64_t win_start_ns, win_end_ns; /* its measured window on CLOCK_REALTIME (ns since 1970) */
    int64_t clock_offset_ns;    /* rank 0's CLOCK_MONOTONIC minus its own: 0 when it reads the
                                 * same clock (same boot and time namespace), else Cristian's
                                 * estimate from the shortest of 8 round trips */
    int64_t clock_error_ns;     /* that estimate's bound, half the round trip; 0 when shared */
    struct iom_io_stats total[IOM_NDIR]; /* read, write, trim; raw histograms */
    struct iom_cpu_usage cpu;         /* its host's CPU over its window, and its own process */
};

/* What the merged document says beyond an ordinary run document. */
struct iom_mpi_info {
    int nr_ranks;
    bool patterned;             /* targets had %r/%h: each rank its own target */
    struct iom_mpi_rank *ranks; /* nr_ranks, by rank */
    uint64_t slowest_ns, fastest_ns;      /* measured_ns of the slowest and fastest rank */
    double start_spread_ms, end_spread_ms; /* max - min of the window starts and ends */
    int lost_rank;              /* the first rank lost during the run (-1: none); the
                                 * figures are then the other ranks' only */
};

/*
 * Gather every rank's result to rank 0. Collective; r may be NULL (a rank
 * that failed before measuring: run_rc then says why, failed_why the text).
 * On rank 0, *merged receives a new result (iom_result_free) whose totals
 * and histograms are the sums over all ranks (percentiles come from the
 * merged histogram, never from averaging percentiles), whose targets are the
 * ranks' totals (one per rank, with rank and host; path holds the rank's
 * target paths back to back, nr_paths of them, path itself the first, and
 * the file facts are its first target's; also one thread per rank, thread
 * i of target i, for the DiskSpd layouts), whose
 * measured_ns is the slowest rank's, whose series cuts that window at every
 * series interval and sums into each cell the ranks' points whose middle
 * falls in it (mean latency weighted by I/Os, p99 the highest rank's: an
 * upper bound, the series has no histograms), whose CPU is the mean of the hosts'
 * system-wide figures with process seconds summed, and whose error names the
 * first failing rank; *info (iom_mpi_info_free) the per-rank figures. Other
 * ranks get NULLs. Returns 0 or -ENOMEM/-EIO (on rank 0; others 0).
 * The returned status of the whole job (0 if every rank's run_rc was 0) is
 * written to *job_rc on every rank, and the signal that interrupted any
 * rank's run (0 if none) to *job_sig.
 *
 * Liveness (no ULFM needed): during the run every rank sends rank 0 a
 * small non-blocking "still here" message every 100 ms (from the control
 * loop's poll); after it each rank sends its figures point to point and
 * waits for rank 0's verdict before any collective. A rank silent for
 * longer than IOMARK_MPI_TIMEOUT seconds (default 1.5) is lost: during the
 * run rank 0 then stops every other rank; here it stops waiting for it, and
 * *merged holds the other ranks' figures with the lost rank named (its
 * entry's rc -EPIPE, error "lost: ..."; info->lost_rank). *job_rc is then
 * -EPIPE on rank 0 and on every rank that answered, no collective follows,
 * and iom_mpi_finalize() does not call MPI_Finalize.
 */
int iom_mpi_gather(const struct iom_result *r, int run_rc, bool patterned,
                   struct iom_result **merged, struct iom_mpi_info **info, int *job_rc,
                   int *job_sig);

void iom_mpi_info_free(struct iom_mpi_info *info);

/*
 * The point-to-point half of a gather that survives a lost rank (used by
 * iom_mpi_gather and by tpcc, mpi/mpi_tpcc.h). Every rank sends mine (len
 * bytes, the same len on every rank) to rank 0; rank 0 copies its own into
 * all[0] and the others' into all + i * len (all: size * len bytes, got:
 * size bytes, rank 0 only; others pass NULL), taking every other message
 * as a sign of life, and stops waiting for a rank silent longer than
 * IOMARK_MPI_TIMEOUT (got[i] = 1 received, 2 lost). Rank 0 then tells every
 * rank that answered the verdict. Returns -1 on every rank when none was
 * lost (then a barrier was passed and the control messages drained: the
 * caller may go on with collectives), else the first lost rank (no
 * collective may follow; iom_mpi_finalize skips MPI_Finalize). Call after
 * the run whose iom_mpi_sync() poll sent the beats.
 */
int iom_mpi_collect(const void *mine, size_t len, void *all, char *got);

/* Rank 0, after iom_mpi_collect found a rank lost: rank's host (64 bytes)
 * and why it is missing (first: the rank found lost first, whose silence
 * is given in seconds). */
void iom_mpi_lost_why(int rank, int first, char host[64], char *why, size_t whylen);

/* The signal that stopped the last synchronised run on any rank (0: none),
 * as rank 0 announced it (valid on every rank after the run). */
int iom_mpi_stop_signal(void);

/* Add the "mpi" object to a run document: ranks, hosts (merged per host:
 * I/Os, IOPS over the slowest rank's time, p50/p99/p99.9 from the host's
 * merged histogram, CPU), per-rank figures and window spread. */
void iom_mpi_report_json(cJSON *doc, const struct iom_mpi_info *info);

/* The text report's MPI part: a per-host table, an "all hosts" line, the
 * window spread, and a note when ranks share one path. */
void iom_mpi_report_text(FILE *f, const struct iom_mpi_info *info, const struct iom_result *merged);

#endif
