/* options.c - the native option table and its parser. */
#include "workload/options.h"
#include "workload/options_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/args.h"
#include "workload/units.h"
#include "workload/vtypes.h"

#define J(f) W_JOB, offsetof(struct iom_job, f)
#define R(f) W_RO, offsetof(struct iom_run_opts, f)
#define SEC UINT64_C(1000000000)

int iom_opt_bad(char *err, size_t errlen, const char *name, const char *v, const char *why)
{
    /* v NULL: the option came without a value ("--bs" then "--size=8M") */
    snprintf(err, errlen, "--%s%s%s: %s", name, v ? "=" : "", v ? v : "", why);
    return -EINVAL;
}

int iom_opt_bad_near(char *err, size_t errlen, const char *name, const char *v,
                     const char *const *known, const char *list)
{
    char why[600];
    iom_allowed_near_list(why, sizeof(why), v, known, list);
    return iom_opt_bad(err, errlen, name, v, why);
}

static int set_rw(const struct opt *o, const char *v, struct iom_job *job, struct iom_run_opts *ro,
                  char *err, size_t errlen)
{
    (void)ro;
    if (!v || iom_rw_parse(v, &job->rw)) {
        const char *names[IOM_RW_RANDTRIMWRITE + 1];
        for (int k = 0; k <= IOM_RW_RANDTRIMWRITE; k++)
            names[k] = iom_rw_name((enum iom_rw)k);
        char why[300];
        iom_allowed_near(why, sizeof(why), v, names, IOM_RW_RANDTRIMWRITE + 1,
                     "read, write, randread, randwrite, rw (or readwrite), randrw, trim, randtrim, "
                     "trimwrite, randtrimwrite");
        return iom_opt_bad(err, errlen, o->name, v, why);
    }
    return 0;
}

static int set_mix(const struct opt *o, const char *v, struct iom_job *job, struct iom_run_opts *ro,
                   char *err, size_t errlen)
{
    (void)ro;
    const char *why;
    uint32_t pct;
    if (!v || iom_parse_percent(v, &pct, &why))
        return iom_opt_bad(err, errlen, o->name, v, v ? why : "needs a percentage 0-100");
    uint32_t read_pct = strcmp(o->name, "rwmixwrite") == 0 ? 100 - pct : pct;
    if (job->rwmix_given && job->rwmixread_pct != read_pct)
        return iom_opt_bad(err, errlen, o->name, v,
                   "conflicts with the read/write mix given before (--rwmixread and "
                   "--rwmixwrite must add up to 100)");
    job->rwmixread_pct = read_pct;
    job->rwmix_given = true;
    return 0;
}

static int set_engine(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const struct iom_engine_ops *e = v ? iom_engine_find(v) : NULL;
    if (!e) {
        char list[160], why[240];
        const char *names[16];
        size_t nr = 0;
        for (size_t k = 0; iom_engines[k] && nr < 16; k++)
            names[nr++] = iom_engines[k]->name;
        iom_allowed_near(why, sizeof(why), v, names, nr, iom_engine_list(list, sizeof(list)));
        return iom_opt_bad(err, errlen, o->name, v, why);
    }
    snprintf(job->ioengine, sizeof(job->ioengine), "%s", e->name);
    return 0;
}

static int set_sync(const struct opt *o, const char *v, struct iom_job *job,
                    struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v || strcmp(v, "none") == 0 || strcmp(v, "0") == 0)
        job->sync = v ? IOM_SYNC_NONE : IOM_SYNC_SYNC;
    else if (strcmp(v, "dsync") == 0)
        job->sync = IOM_SYNC_DSYNC;
    else if (strcmp(v, "sync") == 0 || strcmp(v, "1") == 0)
        job->sync = IOM_SYNC_SYNC;
    else
        return iom_opt_bad_near(err, errlen, o->name, v,
                                (const char *const[]){"none", "dsync", "sync", NULL},
                                "none (0), dsync (O_DSYNC, write-through), sync (1, O_SYNC)");
    return 0;
}

static int set_buffered(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        return iom_opt_bad(err, errlen, o->name, v, "allowed: 0 or 1");
    job->direct = v && strcmp(v, "0") == 0;
    return 0;
}

static int set_format(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)job;
    if (v && strcmp(v, "normal") == 0)
        ro->format = IOM_OUT_NORMAL;
    else if (v && strcmp(v, "json") == 0)
        ro->format = IOM_OUT_JSON;
    else
        return iom_opt_bad_near(err, errlen, o->name, v,
                                (const char *const[]){"normal", "json", NULL},
                                "normal, json (json+, fio's JSON with latency bins, "
                                "is for fio job files: iomark run JOBFILE)");
    return 0;
}

static int set_output(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)job;
    if (!v || !*v)
        return iom_opt_bad(err, errlen, o->name, v, "needs a file name");
    ro->output_path = v;
    return 0;
}

static int set_replay(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)job;
    if (!v || !*v)
        return iom_opt_bad(err, errlen, o->name, v, "needs an iomark result file (JSON)");
    ro->replay_path = v;
    return 0;
}

static int set_name(const struct opt *o, const char *v, struct iom_job *job,
                    struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v || !*v || strlen(v) >= sizeof(job->name))
        return iom_opt_bad(err, errlen, o->name, v, "needs a name of 1 to 63 characters");
    snprintf(job->name, sizeof(job->name), "%s", v);
    return 0;
}

static int set_runtime(const struct opt *o, const char *v, struct iom_job *job,
                       struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const char *why;
    uint64_t ns;
    if (!v || iom_parse_duration(v, &ns, &why))
        return iom_opt_bad(err, errlen, o->name, v, v ? why : "needs a duration");
    if (ns == 0)
        return iom_opt_bad(err, errlen, o->name, v, "must be a positive duration");
    job->runtime_ns = ns;
    job->runtime_set = true;
    return 0;
}

/* fio's io_size: bytes each thread transfers, then stops. Without an
 * explicit --runtime such a run is not time-limited. */
static int set_io_size(const struct opt *o, const char *v, struct iom_job *job,
                       struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const char *why;
    uint64_t b;
    if (!v || iom_parse_size(v, &b, &why))
        return iom_opt_bad(err, errlen, o->name, v, v ? why : "needs a size");
    if (b == 0)
        return iom_opt_bad(err, errlen, o->name, v, "must be greater than 0");
    job->io_limit_bytes = b;
    if (!job->runtime_set)
        job->runtime_ns = 0;
    return 0;
}

static int set_verify(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    int t = v && strcmp(v, "pattern") != 0 && strcmp(v, "crc32c") != 0 ? iom_fio_verify_type(v) : 0;
    bool off = v && (strcmp(v, "0") == 0 || strcmp(v, "none") == 0);
    if (!v || (!off && t <= 0 && strcmp(v, "crc32c") != 0))
        return iom_opt_bad(err, errlen, o->name, v, "allowed: crc32c (iomark's blocks), none, "
                           "or fio's md5, sha1, sha256, sha512, sha3-224/256/384/512, crc64, crc32, "
                           "crc32c-intel, crc16, crc7, xxhash, meta");
    job->verify = !off;
    job->verify_fio = (uint8_t)(t > 0 ? t : 0);
    return 0;
}

static const struct {
    const char *name;
    int e;
} inject_names[] = {{"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EILSEQ", EILSEQ}, {"ETIMEDOUT", ETIMEDOUT}};

/* ERRNO:EVERY, e.g. EIO:1000 - a testing aid for error handling */
static int set_inject(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const char *colon = v ? strchr(v, ':') : NULL;
    const char *why;
    uint64_t every;
    if (colon && iom_parse_u64(colon + 1, &every, &why) == 0 && every > 0) {
        for (size_t i = 0; i < sizeof(inject_names) / sizeof(inject_names[0]); i++) {
            if (strlen(inject_names[i].name) == (size_t)(colon - v) &&
                strncmp(v, inject_names[i].name, (size_t)(colon - v)) == 0) {
                job->inject_errno = inject_names[i].e;
                job->inject_every = every;
                return 0;
            }
        }
    }
    return iom_opt_bad(err, errlen, o->name, v,
               "expected ERRNO:N with ERRNO one of EIO, ENOSPC, EILSEQ, ETIMEDOUT and N > 0 "
               "(every N-th I/O fails)");
}

static const char *const exit_names[] = {"group", "stonewall", "all", NULL};

static int set_exit_what(const struct opt *o, const char *v, struct iom_job *job,
                         struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    for (uint8_t i = 0; v && i < 3; i++)
        if (strcmp(v, exit_names[i]) == 0) {
            job->exit_what = i;
            return 0;
        }
    return iom_opt_bad_near(err, errlen, o->name, v, exit_names, "group, stonewall, all");
}

static int fmt_exit_what(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", exit_names[job->exit_what < 3 ? job->exit_what : 0]);
    return job->exit_what ? 1 : 0;
}

/* ---- the value of each custom option back as text (iom_options_each) ---- */

static int fmt_name(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", job->name);
    return job->name[0] ? 1 : 0;
}

static int fmt_rw(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", iom_rw_name(job->rw));
    return 1;
}

static int fmt_mix(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%u", job->rwmixread_pct);
    return 1;
}

static int fmt_runtime(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%lluns", (unsigned long long)job->runtime_ns);
    return job->runtime_ns ? 1 : 0; /* 0: an --io_size run without a time limit */
}

static int fmt_io_size(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%llu", (unsigned long long)job->io_limit_bytes);
    return job->io_limit_bytes ? 1 : 0;
}

static int fmt_engine(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", job->ioengine);
    return 1;
}

static int fmt_sync(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", job->sync == IOM_SYNC_DSYNC ? "dsync"
                             : job->sync == IOM_SYNC_SYNC ? "sync"
                                                          : "none");
    return 1;
}

static int fmt_verify(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", !job->verify ? "none" : !job->verify_fio ? "crc32c"
             : job->verify_fio == IOM_FV_CRC32C ? "crc32c-intel" /* fio's crc32c blocks */
             : iom_fio_verify_name((enum iom_fio_vtype)job->verify_fio));
    return 1;
}

static int fmt_inject(const struct iom_job *job, char *buf, size_t len)
{
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(inject_names) / sizeof(inject_names[0]); i++)
        if (inject_names[i].e == job->inject_errno)
            snprintf(buf, len, "%s:%llu", inject_names[i].name,
                     (unsigned long long)job->inject_every);
    return job->inject_every && buf[0] ? 1 : 0;
}

/* --force overrides a safety check for one run; a replay never inherits it */
static int fmt_never(const struct iom_job *job, char *buf, size_t len)
{
    (void)job;
    if (len)
        buf[0] = '\0';
    return -1;
}

static const struct opt opts[] = {
    {"name", T_CUSTOM, J(name), 0, 0, set_name, "NAME", "job name shown in reports", fmt_name},
    {"rw", T_CUSTOM, J(rw), 0, 0, set_rw, "PATTERN",
     "read, write, randread, randwrite, rw, randrw (default randread); trim, randtrim, "
     "trimwrite, randtrimwrite discard blocks (a block device's discard, a hole punched in a "
     "file; --bs gives the trims' size)", fmt_rw},
    {"readwrite", T_CUSTOM, J(rw), 0, 0, set_rw, "PATTERN", "same as --rw", fmt_rw},
    {"bs", T_SIZE, J(bs_bytes), 1, UINT64_C(1) << 30, NULL, "SIZE", "block size (default 4K)", NULL},
    {"bssplit", T_CUSTOM, J(bssplit), 0, 0, iom_opt_set_bssplit, "SIZE/PCT:...",
     "mix of block sizes, e.g. 4k/60:64k/40", iom_opt_fmt_bssplit},
    {"bs_write", T_SIZE, J(wbs_bytes), 1, UINT64_C(1) << 30, NULL, "SIZE",
     "writes' block size when it differs from reads' (fio's bs=READ,WRITE)", NULL},
    {"bssplit_write", T_CUSTOM, J(wbssplit), 0, 0, iom_opt_set_bssplit_write, "SIZE/PCT:...",
     "writes' mix of block sizes (fio's bssplit=READS,WRITES)", iom_opt_fmt_bssplit_write},
    {"blockalign", T_SIZE, J(blockalign_bytes), 1, UINT64_C(1) << 30, NULL, "SIZE",
     "alignment of random offsets (default: the block size)", NULL},
    {"rwmixread", T_CUSTOM, J(rwmixread_pct), 0, 0, set_mix, "PCT",
     "reads in % for rw/randrw (default 50)", fmt_mix},
    {"rwmixwrite", T_CUSTOM, J(rwmixread_pct), 0, 0, set_mix, "PCT", "writes in % for rw/randrw", fmt_mix},
    {"percentage_random", T_PCT, J(percentage_random), 0, 100, NULL, "PCT",
     "share of random I/Os in a random pattern (default 100)", NULL},
    {"random_distribution", T_CUSTOM, J(dist), 0, 0, iom_opt_set_dist, "DIST",
     "random (default), zipf:THETA, pareto:H, zoned:A/R:...", iom_opt_fmt_dist},
    {"sequential_shared", T_BOOL, J(seq_shared), 0, 1, NULL, NULL,
     "sequential threads of a target share one offset (DiskSpd -si)", NULL},
    {"seq_stride", T_SIZE, J(seq_stride_bytes), 1, UINT64_C(1) << 40, NULL, "SIZE",
     "step between sequential I/Os (default: the block size; DiskSpd -s<stride>)", NULL},
    {"seq_back", T_SIZE, J(seq_back_bytes), 1, UINT64_C(1) << 40, NULL, "SIZE",
     "sequential I/Os go backwards: each starts SIZE before the previous one's end (fio "
     "rw=read:-SIZE; at least the block size)", NULL},
    {"thread_stride", T_SIZE, J(thread_stride_bytes), 1, UINT64_MAX, NULL, "SIZE",
     "sequential thread k starts at k * SIZE in the region (DiskSpd -T)", NULL},
    {"random_map", T_BOOL, J(random_map), 0, 1, NULL, "0|1",
     "random patterns visit each block once per pass (fio's random map; default 0: draw with "
     "replacement, fio's norandommap)", NULL},
    {"seq_same_start", T_BOOL, J(seq_same_start), 0, 1, NULL, NULL,
     "every sequential thread walks the whole region from its start (DiskSpd without -T)", NULL},
    {"iodepth", T_U32, J(iodepth), 1, 65536, NULL, "N", "outstanding I/Os per thread (default 1)", NULL},
    {"numjobs", T_U32, J(numjobs), 1, 4096, NULL, "N", "threads per target (default 1)", NULL},
    {"size", T_SIZE, J(size_bytes), 1, UINT64_MAX, NULL, "SIZE",
     "region per target; a missing file is created at this size (default: whole target)", NULL},
    {"create_size", T_SIZE, J(create_bytes), 1, UINT64_MAX, NULL, "SIZE",
     "create or extend a file target to this size (default: --size; DiskSpd -c)", NULL},
    {"offset", T_SIZE, J(offset_bytes), 0, UINT64_MAX, NULL, "SIZE", "start of the region (default 0)", NULL},
    {"offset_increment", T_SIZE, J(offset_increment_bytes), 1, UINT64_MAX, NULL, "SIZE",
     "thread k of a target starts at --offset + k * SIZE, --size long (fio's offset_increment)", NULL},
    {"runtime", T_CUSTOM, J(runtime_ns), 0, 0, set_runtime, "TIME",
     "measured duration (default 10s; units ns us ms s m h d)", fmt_runtime},
    {"io_size", T_CUSTOM, J(io_limit_bytes), 0, 0, set_io_size, "SIZE",
     "bytes each thread transfers, then stops (no time limit unless --runtime)", fmt_io_size},
    {"ramp_time", T_DURATION, J(ramp_ns), 0, UINT64_MAX, NULL, "TIME",
     "warm-up before measuring (default 0)", NULL},
    {"cooldown_time", T_DURATION, J(cooldown_ns), 0, UINT64_MAX, NULL, "TIME",
     "I/O kept running after measuring, not counted (default 0)", NULL},
    {"series_interval", T_DURATION, J(series_interval_ns), 1000000, UINT64_MAX, NULL, "TIME",
     "step of the per-interval series (default 1s, at least 1ms)", NULL},
    {"ioengine", T_CUSTOM, J(ioengine), 0, 0, set_engine, "ENGINE",
     "I/O engine", fmt_engine}, /* the names come from the engine registry (engine/engine.h) */
    {"direct", T_BOOL, J(direct), 0, 1, NULL, "0|1", "O_DIRECT, bypassing the page cache (default 1)", NULL},
    {"buffered", T_CUSTOM, J(direct), 0, 0, set_buffered, "0|1",
     "buffered I/O through the page cache (same as --direct=0)", NULL},
    {"sync", T_CUSTOM, J(sync), 0, 0, set_sync, "MODE",
     "none (default), dsync (write-through, O_DSYNC), sync (O_SYNC)", fmt_sync},
    {"thinktime", T_DURATION, J(thinktime_ns), 0, UINT64_MAX, NULL, "TIME",
     "pause after every --thinktime_blocks I/Os, once the queue has drained (bursts)", NULL},
    {"thinktime_blocks", T_U64, J(thinktime_blocks), 1, UINT64_MAX, NULL, "N",
     "I/Os per burst before a --thinktime pause (default 1)", NULL},
    {"rate_iops", T_U64, J(rate_iops), 1, UINT64_MAX, NULL, "N",
     "cap per thread in IOPS; latency then counts from each I/O's intended start", NULL},
    {"rate", T_SIZE, J(rate_bytes_per_s), 1, UINT64_MAX, NULL, "SIZE",
     "cap per thread in bytes/s (e.g. 50M = 50 MiB/s)", NULL},
    {"rate_write", T_SIZE, J(rate_w_bytes_per_s), 1, UINT64_MAX, NULL, "SIZE",
     "writes' own cap in bytes/s: reads (--rate, unset = unpaced) and writes are then paced "
     "each on their own (fio's rate=READ,WRITE)", NULL},
    {"rate_iops_write", T_U64, J(rate_w_iops), 1, UINT64_MAX, NULL, "N",
     "writes' own cap in IOPS, as --rate_write (fio's rate_iops=READ,WRITE)", NULL},
    {"startdelay", T_CUSTOM, J(startdelay_ns), 0, 0, iom_opt_set_startdelay, "TIME[-TIME]",
     "wait before the job starts, its warm-up follows; LOW-HIGH: drawn per thread (fio: per clone)",
     iom_opt_fmt_startdelay},
    {"cmdprio_percentage", T_CUSTOM, J(cmdprio_pct), 0, 0, iom_opt_set_cmdprio, "PCT[,PCT]",
     "io_uring/libaio: share of reads[,writes] issued with --cmdprio_class/--cmdprio (fio)",
     iom_opt_fmt_cmdprio_pct},
    {"cmdprio_class", T_CUSTOM, J(cmdprio_class), 0, 0, iom_opt_set_cmdprio, "N[,N]",
     "class of those I/Os: 1 real-time (default), 2 best-effort, 3 idle", iom_opt_fmt_cmdprio_class},
    {"cmdprio", T_CUSTOM, J(cmdprio_level), 0, 0, iom_opt_set_cmdprio, "N[,N]",
     "priority level of those I/Os: 0 (highest, default) to 7", iom_opt_fmt_cmdprio_level},
    {"cmdprio_bssplit", T_CUSTOM, J(cmdprio_bs), 0, 0, iom_opt_set_cmdprio_bssplit,
     "SIZE/PCT[/CLASS/LEVEL]:...[,...]", "io_uring/libaio: per block size, the share of I/Os "
     "with a priority (fio)", iom_opt_fmt_cmdprio_bssplit},
    {"log_prio", T_BOOL, J(log_prio), 0, 1, NULL, "0|1",
     "fio logs' last column: each I/O's priority value (0x%04x), else 1 for real-time", NULL},
    {"rate_min", T_SIZE, J(ratemin_bytes), 1, UINT64_MAX, NULL, "SIZE",
     "a thread whose bytes/s in a direction fall below SIZE over --rate_cycle (after 2 s) "
     "stops with EIO (fio's ratemin)", NULL},
    {"ratemin", T_SIZE, J(ratemin_bytes), 1, UINT64_MAX, NULL, "SIZE", "same as --rate_min", NULL},
    {"rate_iops_min", T_U64, J(rate_iops_min), 1, UINT64_MAX, NULL, "N",
     "as --rate_min in I/Os per second", NULL},
    {"rate_cycle", T_DURATION, J(ratecycle_ns), 1000000, UINT64_MAX, NULL, "TIME",
     "window of the --rate_min check (default 1s)", NULL},
    {"flow", T_U32, J(flow), 1, 1000, NULL, "N",
     "weight in fio's token flow: jobs of one --flow_id issue I/Os in the ratio of their weights",
     NULL},
    {"flow_id", T_U32, J(flow_id), 0, UINT32_MAX, NULL, "N", "the flow a --flow job shares (0)",
     NULL},
    {"flow_sleep", T_DURATION, J(flow_sleep_ns), 1000, UINT64_MAX, NULL, "TIME",
     "held back by --flow: let the queue drain, then sleep TIME (default: retry at once)", NULL},
    {"iodepth_batch_submit", T_U32, J(iodepth_batch_submit), 1, 65536, NULL, "N",
     "submit at most N I/Os per call (default: every free slot)", NULL},
    {"iodepth_batch", T_U32, J(iodepth_batch_submit), 1, 65536, NULL, "N",
     "same as --iodepth_batch_submit", NULL},
    {"iodepth_batch_complete_min", T_U32, J(iodepth_batch_complete_min), 1, 65536, NULL, "N",
     "wait for at least N completions per reap (default 1)", NULL},
    {"iodepth_batch_complete", T_U32, J(iodepth_batch_complete_min), 1, 65536, NULL, "N",
     "same as --iodepth_batch_complete_min", NULL},
    {"iodepth_batch_complete_max", T_U32, J(iodepth_batch_complete_max), 1, 65536, NULL, "N",
     "take at most N completions per reap (default: --iodepth)", NULL},
    {"iodepth_low", T_U32, J(iodepth_low), 1, 65536, NULL, "N",
     "once the queue is full, refill it only when N or fewer I/Os are in flight", NULL},
    {"latency_target", T_DURATION, J(latency_target_ns), 1, UINT64_MAX, NULL, "TIME",
     "find the highest depth (to --iodepth) whose I/Os stay within TIME (fio's search)", NULL},
    {"latency_window", T_DURATION, J(latency_window_ns), 0, UINT64_MAX, NULL, "TIME",
     "--latency_target: length of each window judged at one depth (default 0)", NULL},
    {"latency_percentile", T_CUSTOM, J(latency_pct), 0, 0, iom_opt_set_latency_pct, "PCT",
     "--latency_target: share of a window's I/Os that must be within it (default 100)",
     iom_opt_fmt_latency_pct},
    {"latency_run", T_BOOL, J(latency_run), 0, 1, NULL, NULL,
     "--latency_target: keep adjusting the depth (default 0: stop once found)", NULL},
    {"ss", T_CUSTOM, J(ss_state), 0, 0, iom_opt_set_ss, "CRIT:LIMIT",
     "steady state (fio): iops, iops_slope, bw, bw_slope and a limit, e.g. iops_slope:0.1%",
     iom_opt_fmt_ss},
    {"ss_dur", T_DURATION, J(ss_dur_ns), 1000000000, UINT64_MAX, NULL, "TIME",
     "--ss: end the job once the criterion holds over TIME of 1 s samples", NULL},
    {"ss_ramp", T_DURATION, J(ss_ramp_ns), 0, UINT64_MAX, NULL, "TIME",
     "--ss: start sampling TIME + 1 s into the measured phase (default 0)", NULL},
    {"cpus_allowed", T_CUSTOM, J(cpus), 0, 0, iom_opt_set_cpus, "CPUS",
     "run the worker threads on these CPUs, e.g. 0,2-3", iom_opt_fmt_cpus},
    {"cpumask", T_CUSTOM, J(cpus), 0, 0, iom_opt_set_cpus, "MASK",
     "the same as a bit mask, e.g. 0x5", NULL},
    {"numa_cpu_nodes", T_CUSTOM, J(cpus), 0, 0, iom_opt_set_numa_cpus, "NODES",
     "run the worker threads on the CPUs of these NUMA nodes, e.g. 0", NULL},
    {"cpus_allowed_policy", T_CUSTOM, J(cpus_split), 0, 0, iom_opt_set_cpus_policy, "POLICY",
     "shared (default): every thread on the whole set; split: thread i on the set's i-th CPU",
     iom_opt_fmt_cpus_policy},
    {"numa_mem_policy", T_CUSTOM, J(mem_policy), 0, 0, iom_opt_set_mem_policy, "MODE[:NODES]",
     "worker threads' memory policy: default, local, prefer:N, bind:NODES, interleave:NODES",
     iom_opt_fmt_mem_policy},
    {"rate_process", T_CUSTOM, J(rate_poisson), 0, 0, iom_opt_set_rate_process, "linear|poisson",
     "paced I/O at fixed gaps (linear, default) or as a Poisson process of the same rate (fio)",
     iom_opt_fmt_rate_process},
    {"exitall", T_BOOL, J(exitall), 0, 1, NULL, NULL,
     "job files: when this job ends, end the others of --exit_what (fio)", NULL},
    {"exitall_on_error", T_BOOL, J(exitall_on_error), 0, 1, NULL, NULL,
     "the same only when this job fails (fio)", NULL},
    {"exit_what", T_CUSTOM, J(exit_what), 0, 0, set_exit_what, "group|stonewall|all",
     "what --exitall ends: the job's reporting group (default), every job now running, or all "
     "(no later step runs)", fmt_exit_what},
    {"randseed", T_U64, J(seed), 0, UINT64_MAX, NULL, "N", "seed of the offset generators", NULL},
    {"zero_buffers", T_BOOL, J(zero_buffers), 0, 1, NULL, NULL, "write zeros, not random data", NULL},
    {"refill_buffers", T_BOOL, J(refill_buffers), 0, 1, NULL, NULL,
     "new random data in every write (fio)", NULL},
    {"scramble_buffers", T_BOOL, J(scramble_buffers), 0, 1, NULL, NULL,
     "each write's 512-byte blocks get its offset and time, as fio (default 0; fio's 1)", NULL},
    {"buffer_pattern", T_CUSTOM, J(buf_pattern), 0, 0, iom_opt_set_pattern, "PATTERN",
     "write this pattern (fio's syntax: 0xHEX, \"text\", numbers, 'file')", iom_opt_fmt_pattern},
    {"buffer_compress_percentage", T_PCT, J(compress_pct), 0, 100, NULL, "PCT",
     "make PCT % of each chunk of a write zeros (or the pattern): compressible data (fio)", NULL},
    {"buffer_compress_chunk", T_SIZE, J(compress_chunk), 0, UINT64_C(1) << 30, NULL, "SIZE",
     "the chunk of --buffer_compress_percentage (default 512; 0: the block size)", NULL},
    {"dedupe_percentage", T_PCT, J(dedupe_pct), 0, 100, NULL, "PCT",
     "PCT % of writes repeat an earlier write's data (fio)", NULL},
    {"dedupe_mode", T_CUSTOM, J(dedupe_ws), 0, 0, iom_opt_set_dedupe_mode, "repeat|working_set",
     "--dedupe_percentage repeats the last unique write, or one of a working set", iom_opt_fmt_dedupe_mode},
    {"dedupe_working_set_percentage", T_PCT, J(dedupe_ws_pct), 0, 100, NULL, "PCT",
     "--dedupe_mode=working_set: the working set, PCT % of --size (the first unique writes)", NULL},
    {"verify", T_CUSTOM, J(verify), 0, 0, set_verify, "crc32c",
     "self-checking writes, checked reads: crc32c iomark's blocks (offset, seed, CRC-32C); "
     "md5, sha1, sha256, sha512, sha3-*, crc64/32/16/7, crc32c-intel, xxhash, meta fio's", fmt_verify},
    {"do_verify", T_BOOL, J(do_verify), 0, 1, NULL, "0|1",
     "--verify: a write run that ends by its --io_size reads back and checks every block it "
     "wrote (default 1, as fio; 0: write only)", NULL},
    {"continue_on_error", T_BOOL, J(continue_on_error), 0, 1, NULL, NULL,
     "count I/O errors and verify mismatches and keep going (default: stop the thread)", NULL},
    {"inject_error", T_CUSTOM, J(inject_errno), 0, 0, set_inject, "ERRNO:N",
     "testing aid: every N-th I/O of a thread completes with ERRNO (EIO, ENOSPC, ...)", fmt_inject},
    {"force", T_BOOL, J(force), 0, 1, NULL, NULL,
     "allow writes to a device in use, or a device or file with a filesystem signature", fmt_never},
    {"keep", T_BOOL, J(keep), 0, 1, NULL, "0|1",
     "keep a test file iomark created (default 1, as fio; 0: remove it at the end)", NULL},
    {"output-format", T_CUSTOM, R(format), 0, 0, set_format, "FMT", "normal (default) or json", NULL},
    {"output", T_CUSTOM, R(output_path), 0, 0, set_output, "FILE",
     "write the result to FILE instead of stdout", NULL},
    {"replay", T_CUSTOM, R(replay_path), 0, 0, set_replay, "RESULT.json",
     "rerun the workload of an iomark result (same options, seed and targets); options and "
     "targets given too override it", NULL},
    {"quiet", T_BOOL, R(quiet), 0, 1, NULL, NULL, "no progress line", NULL},
    {"status-interval", T_DURATION, R(status_interval_ns), 1000000000, 86400000000000, NULL, "TIME",
     "when stderr is not a terminal, a progress line every TIME (fio's option; e.g. 10s)", NULL},
    {"help", T_BOOL, R(help), 0, 1, NULL, NULL, "this text", NULL},
};

/* by name, '-' and '_' being one letter (workload/args.h) */
static const struct opt *find(const char *name)
{
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        if (iom_args_name_eq(name, (size_t)-1, opts[i].name))
            return &opts[i];
    return NULL;
}

const char *iom_option_suggest_via(const char *name, const char **via)
{
    const struct opt *o = find(name);  /* the name itself, '-' and '_' alike */
    const char *best = o ? o->name : NULL;
    unsigned bd = o ? 0 : IOM_NAME_FAR;
    *via = NULL;
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]) && bd; i++)
        iom_name_nearer(name, opts[i].name, &bd, &best);
    if (bd)
        iom_opt_other_nearer(name, &bd, via, &best);
    return best;
}

const char *iom_option_suggest(const char *name)
{
    const char *via;
    return iom_option_suggest_via(name, &via);
}

/* a duration in the largest time unit that holds it exactly (h, m, s, ms, us, ns), as the
 * duration parser reads it back: 86400000000000 -> "24h", 1000000 -> "1ms" */
static void dur_text(uint64_t ns, char *buf, size_t len)
{
    static const struct {
        uint64_t ns;
        const char *unit;
    } u[] = {{UINT64_C(3600000000000), "h"}, {UINT64_C(60000000000), "m"},
             {UINT64_C(1000000000), "s"},    {1000000, "ms"},
             {1000, "us"}};
    for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++)
        if (ns && ns % u[i].ns == 0) {
            snprintf(buf, len, "%llu%s", (unsigned long long)(ns / u[i].ns), u[i].unit);
            return;
        }
    snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

/* "from 1s to 24h", "at least 1ms", "from 1 to 1 GiB (1073741824 bytes)", "0 or more bytes" */
static const char *range_text(const struct opt *o, char *buf, size_t len)
{
    char lo[32], hi[64];
    const char *unit = o->type != T_SIZE ? "" : o->min == 1 ? " byte" : " bytes";
    if (o->type == T_DURATION) {
        dur_text(o->min, lo, sizeof(lo));
        dur_text(o->max, hi, sizeof(hi));
    } else {
        snprintf(lo, sizeof(lo), "%llu", (unsigned long long)o->min);
        snprintf(hi, sizeof(hi), "%llu", (unsigned long long)o->max);
        if (o->type == T_SIZE) /* the bytes in a human unit, the count beside them */
            iom_format_bytes(o->max, hi, sizeof(hi));
    }
    if (o->max == UINT64_MAX && o->min == 0)
        snprintf(buf, len, "0 or more%s", unit);
    else if (o->max == UINT64_MAX)
        snprintf(buf, len, "at least %s%s", lo, unit);
    else
        snprintf(buf, len, "from %s to %s", lo, hi);
    return buf;
}

int iom_option_apply(const char *name, const char *v, struct iom_job *job, struct iom_run_opts *ro,
                     char *err, size_t errlen)
{
    const struct opt *o = find(name);
    if (!o)
        return iom_opt_unknown(name, err, errlen);
    char *base = o->where == W_JOB ? (char *)job : (char *)ro;
    void *field = base + o->off;
    const char *why = NULL;
    char rbuf[96], wbuf[200];
    uint64_t v64 = 0;
    uint32_t p32 = 0;
    if (o->type != T_BOOL && o->type != T_CUSTOM && !v)
        return iom_opt_bad(err, errlen, o->name, v, "needs a value");
    switch (o->type) {
    case T_CUSTOM:
        return o->fn(o, v, job, ro, err, errlen);
    case T_BOOL:
        if (!v || strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
            *(bool *)field = true;
        else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
            *(bool *)field = false;
        else
            return iom_opt_bad(err, errlen, o->name, v, "allowed: 0 or 1");
        return 0;
    case T_PCT:
        if (iom_parse_percent(v, &p32, &why))
            return iom_opt_bad(err, errlen, o->name, v, why);
        *(uint32_t *)field = p32;
        return 0;
    case T_SIZE:
    case T_DURATION:
    case T_U32:
    case T_U64:
        if (v && v[0] == '-') { /* a negative number: say what is allowed */
            snprintf(wbuf, sizeof(wbuf), "negative values are not allowed; must be %s",
                     range_text(o, rbuf, sizeof(rbuf)));
            return iom_opt_bad(err, errlen, o->name, v, wbuf);
        }
        if (o->type == T_SIZE ? iom_parse_size(v, &v64, &why)
            : o->type == T_DURATION ? iom_parse_duration(v, &v64, &why)
                                    : iom_parse_u64(v, &v64, &why))
            return iom_opt_bad(err, errlen, o->name, v, why);
        break;
    }
    if (v64 < o->min || v64 > o->max) {
        if (o->type == T_DURATION && v64 == 0)
            snprintf(wbuf, sizeof(wbuf), "must be a positive duration");
        else if (o->type == T_SIZE && v64 == 0)
            snprintf(wbuf, sizeof(wbuf), "must be greater than 0");
        else
            snprintf(wbuf, sizeof(wbuf), "must be %s", range_text(o, rbuf, sizeof(rbuf)));
        return iom_opt_bad(err, errlen, o->name, v, wbuf);
    }
    if (o->type == T_U32)
        *(uint32_t *)field = (uint32_t)v64;
    else
        *(uint64_t *)field = v64;
    return 0;
}

int iom_options_parse(int argc, char **argv, int first, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    bool only_targets = false;
    struct {
        bool given, direct;
        char text[48];
    } io_mode[2] = {{false, false, ""}, {false, false, ""}}; /* --direct, --buffered as given */
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (only_targets || a[0] != '-' || a[1] == '\0') {
            if (!only_targets && iom_args_dash_check(a, err, errlen))
                return -EINVAL;  /* "–b8K": a pasted option, not a file name */
            if (iom_job_add_target(job, a))
                return -ENOMEM;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_targets = true;
            continue;
        }
        if (strcmp(a, "-h") == 0) {
            ro->help = true;
            continue;
        }
        if (a[1] != '-') { /* -o: compare's --output, DiskSpd's -oN: neither is guessed */
            snprintf(err, errlen, "%s: unknown option; %s; for DiskSpd's syntax use iomark diskspd",
                     a,
                     a[1] == 'o' ? "the results file is --output=FILE (DiskSpd's -oN, outstanding "
                                   "I/Os per thread, is --iodepth=N)"
                                 : "iomark's options are long (--name=value)");
            return -EINVAL;
        }
        char name[64];
        const char *eq = strchr(a + 2, '=');
        size_t nl = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        if (nl == 0 || nl >= sizeof(name)) {
            snprintf(err, errlen, "%s: unknown option", a);
            return -EINVAL;
        }
        memcpy(name, a + 2, nl);
        name[nl] = '\0';
        const char *val = eq ? eq + 1 : NULL;
        const struct opt *o = find(name);
        /* "--bs 4k": the next word is the value. Flags take one only when it is
         * 0 or 1 ("--direct 0"); a target named 0 or 1 can be written ./0. */
        bool flag = o && (o->type == T_BOOL || o->fn == set_buffered || o->fn == set_sync);
        if (o && !val && i + 1 < argc && iom_args_value_word(argv[i + 1]) &&
            (!flag || strcmp(argv[i + 1], "0") == 0 || strcmp(argv[i + 1], "1") == 0))
            val = argv[++i];
        int rc = iom_option_apply(name, val, job, ro, err, errlen);
        if (rc)
            return -EINVAL;
        /* --direct and --buffered name one setting (fio: buffered=0 is direct=1):
         * given both, their values must agree */
        if (o && (strcmp(o->name, "direct") == 0 || strcmp(o->name, "buffered") == 0)) {
            int k = strcmp(o->name, "buffered") == 0;
            io_mode[k].given = true;
            io_mode[k].direct = job->direct;
            snprintf(io_mode[k].text, sizeof(io_mode[k].text), "--%s%s%s", o->name,
                     val ? "=" : "", val ? val : "");
            if (io_mode[!k].given && io_mode[!k].direct != job->direct) {
                snprintf(err, errlen, "%s and %s conflict: --buffered=0 is direct I/O "
                         "(--direct=1), --buffered=1 is --direct=0; give one of them",
                         io_mode[0].text, io_mode[1].text);
                return -EINVAL;
            }
        }
    }
    return 0;
}

void iom_options_help(FILE *f)
{
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        char left[64];
        snprintf(left, sizeof(left), "--%s%s%s", opts[i].name, opts[i].arg ? "=" : "",
                 opts[i].arg ? opts[i].arg : "");
        if (opts[i].fn == set_engine) { /* the engine registry, default first */
            char list[160];
            fprintf(f, "  %-28s %s: %s (default %s)\n", left, opts[i].help,
                    iom_engine_list(list, sizeof(list)), iom_engines[0]->name);
            continue;
        }
        fprintf(f, "  %-28s %s\n", left, opts[i].help);
    }
}

/* The row that first writes the field of o (o itself unless o is an alias). */
static const struct opt *owner_of(const struct opt *o)
{
    for (const struct opt *p = opts; p < o; p++)
        if (p->where == o->where && p->off == o->off)
            return p;
    return o;
}

/* The value of a table option as text, see iom_options_each: 1, 0 or -1. */
static int opt_text(const struct opt *o, const struct iom_job *job, char *buf, size_t len)
{
    if (o->where != W_JOB || owner_of(o) != o)
        return -1;
    if (o->fmt)
        return o->fmt(job, buf, len);
    const char *field = (const char *)job + o->off;
    uint64_t v;
    switch (o->type) {
    case T_CUSTOM:
        return -1; /* a custom option without a formatter is not serialised */
    case T_BOOL:
        snprintf(buf, len, "%d", *(const bool *)field ? 1 : 0);
        return 1;
    case T_PCT:
    case T_U32:
        v = *(const uint32_t *)field;
        break;
    default:
        v = *(const uint64_t *)field;
    }
    snprintf(buf, len, "%llu%s", (unsigned long long)v, o->type == T_DURATION ? "ns" : "");
    return v >= o->min && v <= o->max ? 1 : 0; /* out of range: unset (0 = off/default) */
}

int iom_options_each(const struct iom_job *job,
                     int (*fn)(const char *name, const char *value, void *arg), void *arg)
{
    char buf[2048];
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        int set = opt_text(&opts[i], job, buf, sizeof(buf));
        if (set < 0)
            continue;
        int rc = fn(opts[i].name, set ? buf : NULL, arg);
        if (rc)
            return rc;
    }
    return 0;
}
