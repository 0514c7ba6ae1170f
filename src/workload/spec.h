/*
 * spec.h - the workload spec: the one representation every front end
 * (native options, DiskSpd flags, fio job files, presets, profiles) produces
 * and the runner consumes.
 *
 * A struct iom_job describes one workload: what I/O to issue (pattern, block
 * size, mix, depth), on which targets, with how many threads, for how long.
 * A job run on several targets starts `numjobs` threads per target, each with
 * `iodepth` outstanding I/Os (DiskSpd: -t threads per target, -o outstanding
 * I/O per thread per target; fio: numjobs, iodepth).
 */
#ifndef IOMARK_WORKLOAD_SPEC_H
#define IOMARK_WORKLOAD_SPEC_H

#include <stdbool.h>
#include <stdint.h>

enum iom_rw {
    IOM_RW_READ,      /* sequential read */
    IOM_RW_WRITE,     /* sequential write */
    IOM_RW_RANDREAD,
    IOM_RW_RANDWRITE,
    IOM_RW_RW,        /* sequential mixed, rwmixread % reads */
    IOM_RW_RANDRW,    /* random mixed */
    /* trims (fio's third data direction, HOWTO "rw"): a trim discards a block
     * (BLKDISCARD on a block device, a punched hole on a file). Trims take the
     * reads' block sizes (bs_bytes / bssplit: fio's bs third value); in the
     * trimwrite patterns each trim is followed by a write of the same block
     * (fio io_u.c: set_rw_ddir, get_next_block), so trims == writes. */
    IOM_RW_TRIM,          /* sequential trims */
    IOM_RW_RANDTRIM,      /* random trims */
    IOM_RW_TRIMWRITE,     /* sequential trim, then write the trimmed block */
    IOM_RW_RANDTRIMWRITE, /* the same at random offsets */
};

enum iom_sync {
    IOM_SYNC_NONE,    /* plain writes */
    IOM_SYNC_DSYNC,   /* O_DSYNC: write-through (DiskSpd -Sw) */
    IOM_SYNC_SYNC,    /* O_SYNC */
};

enum iom_dist {
    IOM_DIST_RANDOM,  /* uniform */
    IOM_DIST_ZIPF,    /* dist_param = theta (fio: random_distribution=zipf:1.2) */
    IOM_DIST_PARETO,  /* dist_param = h (fio: pareto:0.9) */
    IOM_DIST_ZONED,   /* zones[]: pct of accesses to pct of range (fio: zoned:60/10:30/20:10/70) */
};

/* fio's steady-state criterion (FIO_SS_* bits; stats/steady.h judges it) */
#define IOM_SS_IOPS 1u  /* judge IOPS (else bandwidth in bytes/s) */
#define IOM_SS_SLOPE 4u /* the slope (else the largest deviation from the mean) */
#define IOM_SS_PCT 64u  /* the limit is a percentage of the mean */

#define IOM_MAX_BSSPLIT 64

/* One cmdprio_bssplit entry (fio 3.33 options.c parse_cmdprio_bssplit_entry):
 * pct % of the I/Os of exactly bs bytes get priority prio (ioprio_set(2)'s
 * class << 13 | level), or cmdprio_class/cmdprio's when prio is 0 (the short
 * form "bs/pct"). */
struct iom_cmdprio_bs {
    uint32_t bs;
    uint8_t pct;
    uint16_t prio;
};

#define IOM_MAX_ZONES 16
#define IOM_MAX_IGNORE_ERRNO 16 /* errnos per class in fio's ignore_error */
/* fio's error classes (td_error.h enum error_type_bit): bits of coe_classes */
#define IOM_ERRCLS_READ 0
#define IOM_ERRCLS_WRITE 1
#define IOM_ERRCLS_VERIFY 2
#define IOM_NAME_LEN 64

struct iom_bs_weight {
    uint64_t bs_bytes;
    uint32_t pct;      /* share of I/Os, percent; the entries add up to 100 */
};

struct iom_zone {
    uint32_t access_pct; /* share of accesses */
    uint32_t range_pct;  /* share of the offset range, consecutive from the start */
};

struct iom_job {
    char name[IOM_NAME_LEN];
    char profile[IOM_NAME_LEN]; /* the --profile it came from (iomark profiles), or "" */

    /* pattern */
    enum iom_rw rw;
    uint32_t rwmixread_pct;      /* reads in % for the mixed patterns rw/randrw (default 50) */
    uint64_t bs_bytes;           /* block size when nr_bssplit == 0 */
    uint32_t nr_bssplit;         /* 0: fixed bs_bytes; else the weighted list below */
    struct iom_bs_weight bssplit[IOM_MAX_BSSPLIT];
    /* writes' block sizes when they differ from reads' (fio's bs=READ,WRITE and
     * bssplit=READS,WRITES): wbs_bytes when nr_wbssplit == 0; both 0 = as reads */
    uint64_t wbs_bytes;
    uint32_t nr_wbssplit;
    struct iom_bs_weight wbssplit[IOM_MAX_BSSPLIT];
    uint64_t blockalign_bytes;   /* random offsets are multiples of this; 0 = block size */
    uint32_t percentage_random;  /* for random patterns: share of random I/Os (fio), 100 default */
    enum iom_dist dist;
    double dist_param;
    uint32_t nr_zones;
    struct iom_zone zones[IOM_MAX_ZONES];
    bool seq_shared;             /* sequential threads of a target share one offset (DiskSpd -si) */
    uint64_t seq_stride_bytes;   /* sequential step; 0 = block size (DiskSpd -s<stride>) */
    uint64_t seq_back_bytes;     /* fio's rw=read:-N / write:-N: the next sequential I/O starts
                                    N bytes before the end of the previous one, wrapping to
                                    N before the region's end (io_u.c get_next_seq_offset);
                                    0 = off. core/offsets.h says how */
    uint64_t thread_stride_bytes;/* DiskSpd -T: start offset step between threads; 0 = regions */
    bool random_map;             /* random patterns visit each block once per pass (fio's
                                    default random map; false = draw with replacement, fio's
                                    norandommap); core/offsets.h says how */
    bool invalidate;             /* drop the target's cached pages before the run and at each
                                    new pass over the region (fio's invalidate, io_u.c
                                    loop_cache_invalidate: POSIX_FADV_DONTNEED, BLKFLSBUF on a
                                    device); buffered I/O only at each pass */
    uint8_t fadvise;             /* posix_fadvise advice given at open over the region (fio's
                                    fadvise_hint): 0 none, 1 by pattern (RANDOM for a random
                                    job, else SEQUENTIAL), 2 SEQUENTIAL, 3 RANDOM */
    bool seq_same_start;         /* DiskSpd without -T: every sequential thread walks the whole
                                    region from its start (0 = disjoint slices, fio's way) */

    /* concurrency */
    uint32_t numjobs;            /* threads per target */
    uint32_t iodepth;            /* outstanding I/O per thread */

    /* range */
    uint64_t offset_bytes;       /* start of the region on each target */
    uint64_t size_bytes;         /* region length; 0 = to the end of the target */
    uint64_t offset_increment_bytes; /* fio's offset_increment: thread k of a target works on
                                    [offset + k * this, + size) (to the end without a size);
                                    0 = every thread on the one region */
    uint64_t create_bytes;       /* create or extend a file target to this size (0: size) */

    /* time */
    uint64_t runtime_ns;         /* measured duration */
    uint64_t ramp_ns;            /* warm-up, not measured */
    uint64_t cooldown_ns;        /* cool-down, not measured */
    uint64_t io_limit_bytes;     /* per thread; 0 = time based only (fio size-based runs) */
    uint32_t io_passes;          /* size-based passes (fio's loops): each thread stops after
                                    this many passes over its range, a pass ending at the last
                                    whole block (no wrap inside a pass: core/offsets.h
                                    iom_offgen_pass_bytes); 0 = io_limit_bytes alone */
    uint64_t series_interval_ns; /* per-interval series step */

    /* I/O path */
    char ioengine[16];           /* an engine of the registry (engine/engine.h) */
    bool direct;                 /* O_DIRECT (default true) */
    enum iom_sync sync;
    /* syncs between writes (fio's fsync=N, fdatasync=N; io_u.c get_rw_ddir): before a
     * thread's next I/O, once its issued writes W > 0 are a multiple of N and the I/O
     * issued last was not a sync, one fsync(2) (fdatasync(2)); fsync first when both
     * are due. 0 = never. Their latency is counted apart (iom_thread_result.sync). */
    uint32_t fsync_blocks, fdatasync_blocks;
    uint32_t sfr_blocks;         /* fio's sync_file_range=FLAGS:N: sync_file_range(2) of the
                                    range written since the last sync, after every N writes */
    uint8_t sfr_flags;           /* its SYNC_FILE_RANGE_* flags (fcntl.h) */
    bool end_fsync;              /* fio's end_fsync=1 / fsync_on_close=1: a writing thread
                                    fsyncs its file once after its last I/O (not counted,
                                    as fio's TD_FSYNCING sync) */

    /* bursts (fio's thinktime): after thinktime_blocks I/Os, let the queue
     * drain and pause thinktime_ns (0 = never) */
    uint64_t thinktime_ns;
    uint64_t thinktime_blocks;

    /* pacing (per thread; 0 = unpaced) */
    uint64_t rate_iops;
    uint64_t rate_bytes_per_s;
    /* writes' own caps (fio's rate=R,W / rate_iops=R,W): when one is set, a mixed job
     * paces reads (rate_bytes_per_s/rate_iops, 0 = unpaced) and writes each on their
     * own (core/pace.h); UINT64_MAX = writes unpaced */
    uint64_t rate_w_bytes_per_s;
    uint64_t rate_w_iops;
    bool rate_poisson;           /* rate_process=poisson: exponential gaps, same mean rate (fio) */
    bool lat_from_submit;        /* job files: a paced I/O's latency counts from its actual
                                    submission (fio io_u.c get_io_u sets start_time after
                                    rate_ddir's sleep); native: from its intended start */

    /* start and control between jobs (fio: startdelay, rate_min, flow; docs/fio-jobs.md) */
    uint64_t startdelay_ns;      /* wait this long before the job starts (its ramp follows) */
    uint64_t startdelay_hi_ns;   /* above startdelay_ns: a range, drawn per clone (fio) */
    uint32_t clone_files;        /* 0: thread k of each target is clone k; N: each clone has
                                    N targets of its own (fio's generated files) */
    uint64_t ratemin_bytes;      /* per thread and direction: a rate below this over ratecycle_ns */
    uint64_t rate_iops_min;      /* (or fewer I/Os per second) stops the thread with EIO (fio) */
    uint64_t ratecycle_ns;       /* window of the minimum-rate check (fio default 1 s) */
    uint32_t flow;               /* weight in fio's token flow among jobs of one flow_id (0 off) */
    uint32_t flow_id;
    uint64_t flow_sleep_ns;      /* held back by flow: drain, then sleep this long (0: yield) */
    bool exitall;                /* fio exitall: when this job ends, end others (exit_what) */
    bool exitall_on_error;       /* the same only when this job failed */
    uint8_t exit_what;           /* which: 0 its reporting group, 1 every job now running
                                    (the step), 2 all, later steps too (fio exit_what) */
    bool flow_reserved;          /* not an option: iom_run_group holds the job's flow weight
                                    from before any job of the group starts (core/group.h) */
    uint32_t iodepth_batch_submit;       /* I/Os per submit call (0: every free slot) */
    uint32_t iodepth_batch_complete_min; /* completions to wait for at least (0: 1) */
    uint32_t iodepth_batch_complete_max; /* completions to take at most per call (0: iodepth) */
    uint32_t iodepth_low;        /* once full, refill only when in flight falls to this (0: at once) */
    /* fio's latency_target search (core/lattarget.h): the highest depth up to iodepth at
     * which latency_pct % of a window's I/Os complete within latency_target_ns */
    uint64_t latency_target_ns;  /* 0: off, every thread at iodepth */
    uint64_t latency_window_ns;  /* length of one window judged (fio default 0: each reap) */
    double latency_pct;          /* 0..100 (fio default 100) */
    bool latency_run;            /* keep adjusting (fio latency_run); else stop once found */
    /* fio's steady state (stats/steady.h): the job ends once the criterion holds over
     * ss_dur_ns of 1 s samples, taken from ss_ramp_ns + 1 s into the measured phase */
    uint32_t ss_state;           /* IOM_SS_* bits above (default iops_slope, %: fio's) */
    double ss_limit;             /* the criterion's limit (default 0.01 %) */
    uint64_t ss_dur_ns;          /* 0: off; whole seconds */
    uint64_t ss_ramp_ns;
    /* CPU and memory placement of the worker threads (fio: cpus_allowed, numa_*) */
    uint64_t cpus[16];           /* CPU set, bit c = CPU c (1024 CPUs); all 0: no affinity */
    bool cpus_split;             /* cpus_allowed_policy=split: thread i gets the i-th CPU of the set */
    bool ioprio_given;           /* fio's prio/prioclass: each worker thread calls
                                    ioprio_set(IOPRIO_WHO_PROCESS, 0, ...) (ioprio_set(2)) */
    uint8_t ioprio_class;        /* 0 (= best-effort, as fio), 1 RT, 2 BE, 3 idle */
    uint8_t ioprio_level;        /* 0 (highest) ... 7 */
    /* fio's per-I/O priorities (engines/cmdprio.c; io_uring and libaio only): a share of
     * the reads/writes [0]/[1] carries its own priority, ioprio_set(2)'s value
     * (class << 13 | level) in the request (core/cmdprio.h) */
    uint8_t cmdprio_pct[2];      /* cmdprio_percentage: 0..100 of the I/Os */
    uint8_t cmdprio_class[2];    /* cmdprio_class: 1 RT, 2 BE, 3 idle; 0 unset (= RT, as fio) */
    uint8_t cmdprio_level[2];    /* cmdprio: 0 (highest) ... 7 */
    uint8_t nr_cmdprio_bs[2];    /* cmdprio_bssplit entries per direction (0: not given) */
    struct iom_cmdprio_bs cmdprio_bs[2][IOM_MAX_BSSPLIT]; /* sorted by bs, as fio */
    uint8_t mem_policy;          /* 0 unset; else 1 + MPOL_ mode: default, preferred, bind, interleave, local */
    uint64_t mem_nodes;          /* the policy's NUMA nodes, bit n = node n */

    /* data */
    uint64_t seed;               /* offset generator seed; 0 = fixed default */
    bool zero_buffers;           /* write zeros instead of random data */
    bool refill_buffers;         /* new random data in every write's buffer (fio) */
    bool scramble_buffers;       /* each write's 512-byte blocks get its offset and time (fio) */
    /* fio's buffer contents (core/bufgen.h): a pattern, compressible and dedupable data */
    uint8_t buf_pattern[512];    /* buffer_pattern's bytes (workload/pattern.h) */
    uint32_t buf_pattern_len;    /* 0: none */
    uint32_t compress_pct;       /* buffer_compress_percentage: share of each chunk that is
                                    zeros (or the pattern), 0 = off */
    uint64_t compress_chunk;     /* buffer_compress_chunk: the chunk (fio's default 512;
                                    0: the job's smallest write size) */
    uint32_t dedupe_pct;         /* dedupe_percentage: share of writes repeating an earlier
                                    buffer's data, 0 = off */
    bool dedupe_ws;              /* dedupe_mode=working_set: the data of one of the first
                                    unique writes, drawn at random (else repeat: the last) */
    uint32_t dedupe_ws_pct;      /* dedupe_working_set_percentage: the working set's share of
                                    the region (in writes of the smallest size) */
    bool dedupe_global;          /* fio's dedupe_global (job files): the working set is shared
                                    out among all threads (core/bufgen.h) */
    uint32_t thread_base;        /* job files: the number of the job's first thread among all
                                    jobs' threads (fio's thread_number - 1), 0 otherwise */
    uint32_t threads_all;        /* job files: all jobs' threads (fio's thread_number), 0 =
                                    this job's own */
    uint64_t block_info_bs;      /* fio's block_error_percentiles (job files): each thread
                                    counts trims per block of this size (stats/blockinfo.h);
                                    0 = off */
    bool verify;                 /* --verify=crc32c: self-checking blocks (core/verify.h) */
    bool do_verify;              /* fio's do_verify (default 1): a verify job that wrote and
                                    ended by its size reads back what it wrote (core/vlog.h) */
    uint8_t verify_pat[512];     /* verify_pattern's bytes (fio's verify=pattern): writes carry the
                                    pattern, reads are compared with it; replaces the header */
    uint32_t verify_pat_len;     /* 0: none */
    uint64_t verify_interval;    /* verify_pattern: a mismatch is reported at its interval (0: bs) */
    uint32_t verify_backlog;     /* fio's verify_backlog: with do_verify, read back after every N
                                    writes (0: only the verify phase at the end; core/layers.h) */
    uint8_t verify_fio;          /* fio's verify blocks of this enum iom_fio_vtype (workload/vtypes.h,
                                    core/fioverify.h; with verify_pat: the pattern after the header)
                                    instead of iomark's own; 0: iomark's, or the pattern alone */
    bool verify_dump;            /* write a failing interval's received and expected bytes to
                                    <file>.<offset>.received/.expected (fio verify_dump) */

    /* faults */
    bool continue_on_error;      /* count I/O errors and verify mismatches and go on */
    /* fio's per-class error handling (job files; fio td_error.c td_non_fatal_error):
     * an error of class c (IOM_ERRCLS_*: a read, a write or trim, a verify failure or
     * EILSEQ) lets the job go on when bit c of coe_classes is set and its errno is in
     * ignore_errno[c] (fio's ignore_error; empty = fio's default EIO, EILSEQ) */
    uint8_t coe_classes;
    uint8_t nr_ignore_errno[3];
    uint16_t ignore_errno[3][IOM_MAX_IGNORE_ERRNO];
    bool fill_device;            /* fio's fill_device (job files): a new file is created
                                    empty, its region the filesystem's free space, and the
                                    sequential writes end at ENOSPC/EDQUOT without an error */
    uint8_t fallocate;           /* fio's fallocate (job files), how a new file of a job
                                    without reads is laid out: 0 filled with data (iomark's
                                    way), 1 none (empty, grows by the writes), 2 posix/native
                                    (allocated), 3 keep (allocated, size 0: KEEP_SIZE),
                                    4 truncate (sparse, full size), 5 native (fallocate(2)
                                    mode 0, a failure ignored: fio's default in job files) */
    bool overwrite;              /* fio's overwrite=1 (job files): a new file of a write job
                                    is written before the run whatever fallocate says */
    bool fio_layout;             /* job files: a new file that is written before the run is
                                    laid out as fio 3.33 filesetup.c extend_file: the
                                    fallocate mode first, ftruncate to the size, write(2)s
                                    of the largest write block size, fsync; native: 1 MiB
                                    pwrite(2)s, fdatasync */
    bool error_dump;             /* fio's error_dump: every non-fatal error on stderr too */
    bool fio_errors;             /* job files: errors let pass do not fail the run (fio's
                                    exit status 0, the errors counted: total_err) */
    int32_t inject_errno;        /* testing aid: complete every inject_every-th I/O with */
    uint64_t inject_every;       /* -inject_errno (0 = never) */
    bool runtime_set;            /* --runtime given explicitly (else io_size runs unbounded) */
    bool rwmix_given;            /* --rwmixread/--rwmixwrite seen (a conflicting second is refused) */

    /* per-I/O samples for fio's write_bw_log/write_lat_log/write_iops_log (each thread
     * keeps them: stats/slog.h): every I/O (avg 0) or sums per sample_log_avg_ns window */
    bool sample_log;
    bool log_prio;               /* fio's log_prio: the logs' last column is the I/O's
                                    priority value (0x%04x), else 1 for the RT class */
    uint64_t sample_log_avg_ns;

    /* safety and housekeeping */
    bool force;                  /* allow writes to block devices with data on them */
    bool no_create;              /* fio's allow_file_create=0: a missing file is refused */
    bool file_append;            /* fio's file_append=1 (write jobs): the region starts at the
                                    file's size, the file grown by fallocate, not filled */
    bool make_dirs;              /* job files: a new file's missing folders are made when it
                                    is created (fio 3.33 makes a filename='s folders) */
    bool keep;                   /* keep a test file that iomark created */

    /* targets */
    uint32_t nr_targets;
    char **targets;              /* owned; freed by iom_job_free() */
};

/* Fill job with the native defaults (see docs/options.md): randread, 4 KiB,
 * iodepth 1, numjobs 1, 10 s runtime, no warm-up, io_uring, direct I/O,
 * 1 s series interval. Targets: none. */
void iom_job_defaults(struct iom_job *job);

/* Deep copy; dst must not own targets. Returns 0 or -ENOMEM. */
int iom_job_copy(struct iom_job *dst, const struct iom_job *src);

/* Append a target path (copied). Returns 0 or -ENOMEM. */
int iom_job_add_target(struct iom_job *job, const char *path);

/* Free the target list. The struct itself is the caller's. */
void iom_job_free(struct iom_job *job);

/*
 * Check internal consistency that no single option can see (bssplit sums to
 * 100, zones sum to 100, at least one target, ...). Returns 0, or -EINVAL
 * with *why pointing at a static text and *option at the option at fault
 * (a text that carries the values, as size's, lives in a thread-local buffer
 * valid until this thread's next call).
 */
int iom_job_validate(const struct iom_job *job, const char **option, const char **why);

/* Share of reads in %: 100 for read/randread, 0 for write/randwrite and the
 * trim patterns, rwmixread_pct for rw/randrw. */
uint32_t iom_job_read_pct(const struct iom_job *job);
/* True when the pattern issues writes. */
bool iom_job_writes(const struct iom_job *job);
/* True for randread/randwrite/randrw/randtrim/randtrimwrite. */
bool iom_job_random(const struct iom_job *job);
/* True when the pattern issues trims (trim, randtrim, trimwrite, randtrimwrite);
 * such a job also counts as writing (iom_job_writes: it changes data). */
bool iom_job_trims(const struct iom_job *job);
/* True for trimwrite/randtrimwrite: each trim is followed by a write of its block. */
bool iom_job_trimwrite(const struct iom_job *job);
/* Bytes from the region's start that the job's threads cover: size_bytes,
 * plus (numjobs - 1) x offset_increment_bytes when both are set; 0 when
 * size_bytes is 0 (to the end of the target). Saturates at UINT64_MAX. */
uint64_t iom_job_span_bytes(const struct iom_job *job);
/* True when writes have block sizes of their own (wbs_bytes or wbssplit); never
 * for the trim patterns (a trimwrite's write takes its trim's block). */
bool iom_job_write_sizes(const struct iom_job *job);
/* Smallest block size the job issues (reads', and writes' own ones when the
 * pattern writes). */
uint64_t iom_job_min_bs(const struct iom_job *job);
/* Largest block size the job issues. */
uint64_t iom_job_max_bs(const struct iom_job *job);
/* Largest write block size of the job whatever its pattern (fio's max_bs[DDIR_WRITE]:
 * writes' own sizes when given, else the reads'), in bytes. */
uint64_t iom_job_max_write_bs(const struct iom_job *job);

/* True when a share of the job's I/Os carries its own priority (cmdprio_percentage
 * or cmdprio_bssplit given; workload/options_prio.c). */
bool iom_job_cmdprio(const struct iom_job *job);
/* The per-I/O priority options' consistency (fio 3.33 engines/cmdprio.c
 * fio_cmdprio_init): cmdprio_percentage and cmdprio_bssplit exclude each other, and
 * both need the io_uring or libaio engine (fio's options of those engines only).
 * Returns 0, or -EINVAL with *option and *why (static texts) set. */
int iom_job_cmdprio_check(const struct iom_job *job, const char **option, const char **why);

/* fio's name of a pattern ("randread"), and the reverse; -EINVAL if unknown. */
const char *iom_rw_name(enum iom_rw rw);
int iom_rw_parse(const char *s, enum iom_rw *rw);

#endif
