/*
 * result.h - everything one run measured, as the runner hands it to the
 * reporters. Pure data; the runner (core/runner.c) fills it, the reporters
 * (report/) read it, iom_result_free() releases it.
 */
#ifndef IOMARK_STATS_RESULT_H
#define IOMARK_STATS_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "workload/spec.h"
#include "stats/cpu.h"
#include "stats/depthmap.h"
#include "stats/summary.h"

struct iom_probe_target;
struct iom_devmon_result;

/* One point of the per-interval series (measured phase only). */
struct iom_series_point {
    double t_end_s;              /* seconds since the measured phase began */
    double dur_s;                /* length of this interval (the last may be short) */
    uint64_t ios[IOM_NDIR];      /* read, write, trim */
    uint64_t bytes[IOM_NDIR];
    double lat_mean_us;          /* all directions */
    double lat_p99_us;
};

/* The first verify mismatch of a target: where, what was wrong, what the
 * block's header said (see core/verify.h for the block format). */
struct iom_verify_mismatch {
    uint64_t offset;             /* where the block was read */
    int kind;                    /* enum iom_verify_result */
    const char *reason;          /* static text for kind */
    uint64_t expected_seed;
    uint64_t found_offset, found_seed;
    uint32_t found_generation, found_len;
    uint32_t crc_stored, crc_computed;
    /* verify_pattern: offset is the failing interval's; the first bad byte in it,
     * what was read and what the pattern has there (fio's "bad pattern block offset") */
    uint32_t pattern_byte;
    uint8_t got, wanted;
};

struct iom_target_result {
    char *path;
    bool of_rank;                /* under MPI, one rank's targets: path holds its */
    uint32_t nr_paths;           /* nr_paths paths back to back, each NUL-terminated (path */
    int rank;                    /* reads as the first); rank and host name it */
    char host[64];
    char devname[64];            /* kernel name of the block device under it, "" if none */
    bool is_blockdev;
    bool created;                /* iomark created (and filled) the file for this run */
    bool extended;               /* an existing, smaller file extended to the region (filled) */
    uint64_t extended_from;      /* its size before, bytes (when extended) */
    bool sparse;                 /* file had unallocated blocks at start */
    uint64_t size_bytes;         /* target size when the run started */
    uint64_t region_start, region_len;
    uint64_t unused_tail_bytes;  /* end of the region no I/O touches (not a whole block) */
    uint32_t logical_block_bytes;/* logical block size (direct I/O alignment) */
    struct iom_io_stats dir[IOM_NDIR]; /* merged over this target's threads */
    uint64_t first_error_offset;
    int first_error_errno;       /* 0 = no error */
    uint64_t verified_blocks;    /* blocks read and checked by --verify */
    uint64_t verify_errors;      /* of them, mismatches */
    struct iom_verify_mismatch first_mismatch; /* valid when verify_errors > 0 */
    struct iom_probe_target *probe;     /* controller and limits under it (probe/probe.h);
                                         * owned, one free(); NULL if not probed */
    struct iom_devmon_result *device_mon; /* device monitor, measured phase (probe/devmon.h);
                                           * owned, one free(); NULL if not monitored */
};

struct iom_slog;

struct iom_thread_result {
    uint32_t target_idx;
    uint32_t thread_idx;         /* within its target */
    struct iom_io_stats dir[IOM_NDIR]; /* read, write, trim */
    struct iom_io_stats sync;    /* job.fsync_blocks/fdatasync_blocks: the syncs between
                                    writes (0 bytes each), measured phase, as fio's "sync" */
    uint64_t datasyncs;          /* of sync.ios, the fdatasync(2) and sync_file_range(2) ones */
    uint64_t runtime_ns;         /* this thread's measured time: to its last counted
                                    completion when it stopped on its own (I/O limit),
                                    else the measured phase (fio's per-clone runtime) */
    uint64_t verify_ns;          /* of runtime_ns, its verify phase's (do_verify) part: fio
                                    counts it as runtime[READ] only (backend.c thread_main
                                    update_runtime); 0 without one */
    struct iom_slog *slog;       /* job.sample_log: its samples (stats/slog.h), owned; or NULL */
    uint32_t latency_depth;      /* job.latency_target_ns: the depth its search reached
                                    (fio's latency_depth; core/lattarget.h); else 0 */
    uint64_t start_delay_ns;     /* its clone's startdelay beyond the run's start_ms (a
                                    LOW-HIGH range is drawn per clone); else 0 */
    uint32_t *block_infos;       /* job.block_info_bs: one word per block of its region
                                    (stats/blockinfo.h), owned; or NULL */
    uint32_t nr_block_infos;
    bool rusage;                 /* ctx, majf, minf were measured (stats/cpu.h) */
    uint64_t ctx, majf, minf;    /* the thread's context switches, major and minor faults
                                    from its start (or its warm-up's end) to its end, as
                                    fio's per-thread rusage (stat.c update_rusage_stat) */
    struct iom_depth_map depth;  /* fio's iodepth_level/submit/complete counts, whole run */
};

struct iom_ss;

struct iom_result {
    struct iom_job job;          /* the spec that ran (owned copy) */
    char engine[16];             /* engine actually used */
    char engine_note[200];       /* why it differs from the one asked for, or "" */
    char kernel[128];            /* uname -sr */
    char hostname[64];
    time_t start_time;           /* wall clock at the start of the run */
    uint64_t start_ms;           /* the same in ms since the epoch (after any startdelay) */
    uint64_t warmup_ns, measured_ns, cooldown_ns; /* actual phase lengths */
    int interrupted_signal;      /* 0, or the signal that stopped the run */
    char error[512];             /* "" or why the run failed */

    uint32_t nr_targets;
    struct iom_target_result *targets;
    uint32_t nr_threads;
    struct iom_thread_result *threads;
    struct iom_io_stats total[IOM_NDIR]; /* read, write, trim */
    struct iom_io_stats sync_total; /* every thread's sync (iom_thread_result.sync) merged */
    struct iom_cpu_usage cpu;

    uint32_t nr_series, series_cap;
    struct iom_series_point *series;
    struct iom_ss *ss;           /* job.ss_dur_ns: the steady-state window and verdict
                                    (stats/steady.h), owned; else NULL */
};

/* Free a result and everything it owns. NULL is fine. */
void iom_result_free(struct iom_result *r);

/* Path k (0-based) of target t: under MPI (of_rank) the rank's k-th target
 * of its nr_paths; otherwise only k 0, t->path. NULL when there is no such
 * path. Points into t->path. */
const char *iom_target_path(const struct iom_target_result *t, uint32_t k);

/*
 * Thread th's runtime per direction in ns, into rt[IOM_NDIR] (read, write,
 * trim), as fio 3.33 keeps ts.runtime[ddir] (backend.c thread_main
 * update_runtime): without a verify phase each is th->runtime_ns; with one
 * (th->verify_ns > 0) the write phase's time (runtime_ns - verify_ns) goes to
 * write and trim, and to read only when that phase also read (job's rw/randrw
 * with reads), the verify phase's to read alone.
 */
void iom_thread_dir_runtime(const struct iom_job *job, const struct iom_thread_result *th,
                            uint64_t rt[IOM_NDIR]);

/* Every direction (read, write, trim) of dir[] merged into *out. */
void iom_result_merge_dirs(const struct iom_io_stats dir[IOM_NDIR], struct iom_io_stats *out);

/* Set th's ctx, majf, minf (and th->rusage) from the calling thread's rusage now
 * less ru0 (its reading at the warm-up's end, else zeros): stats/cpu.h
 * iom_thread_rusage. Call from the worker thread itself, at its end. */
void iom_thread_result_rusage(struct iom_thread_result *th, const uint64_t ru0[3]);

#endif
