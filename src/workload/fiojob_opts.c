/* fiojob_opts.c - one fio option -> struct iom_job and the job's fio state (see
 * fiojob_int.h, fiojob.h, docs/fio-jobs.md). */
#include "workload/fiojob_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/args.h"
#include "workload/options.h"
#include "workload/pattern.h"
#include "workload/units.h"
#include "workload/vtypes.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* ---- options ---- */

/* fio names handled by the native option table with the same meaning */
static const char *const native_names[][2] = {
    {"rw", "rw"}, {"readwrite", "rw"}, {"bs", "bs"}, {"blocksize", "bs"}, {"bssplit", "bssplit"},
    {"blockalign", "blockalign"}, {"ba", "blockalign"}, {"iodepth", "iodepth"},
    {"numjobs", "numjobs"}, {"size", "size"}, {"offset", "offset"},
    {"offset_increment", "offset_increment"}, {"runtime", "runtime"},
    {"timeout", "runtime"}, {"ramp_time", "ramp_time"}, {"ioengine", "ioengine"},
    {"direct", "direct"}, {"buffered", "buffered"}, {"rwmixread", "rwmixread"},
    {"rwmixwrite", "rwmixwrite"}, {"percentage_random", "percentage_random"},
    {"random_distribution", "random_distribution"}, {"zero_buffers", "zero_buffers"},
    {"randseed", "randseed"}, {"sync", "sync"}, {"rate_iops", "rate_iops"}, {"rate", "rate"},
    {"startdelay", "startdelay"}, {"ratemin", "rate_min"}, {"rate_min", "rate_min"},
    {"rate_iops_min", "rate_iops_min"}, {"ratecycle", "rate_cycle"}, {"rate_cycle", "rate_cycle"},
    {"flow", "flow"}, {"flow_id", "flow_id"}, {"flow_sleep", "flow_sleep"},
    {"iodepth_batch", "iodepth_batch_submit"}, {"iodepth_batch_submit", "iodepth_batch_submit"},
    {"iodepth_batch_complete", "iodepth_batch_complete_min"},
    {"iodepth_batch_complete_min", "iodepth_batch_complete_min"},
    {"iodepth_batch_complete_max", "iodepth_batch_complete_max"}, {"iodepth_low", "iodepth_low"},
    {"cpus_allowed", "cpus_allowed"}, {"cpumask", "cpumask"}, {"numa_cpu_nodes", "numa_cpu_nodes"},
    {"cpus_allowed_policy", "cpus_allowed_policy"}, {"numa_mem_policy", "numa_mem_policy"},
    {"refill_buffers", "refill_buffers"}, {"scramble_buffers", "scramble_buffers"},
    {"thinktime", "thinktime"}, {"thinktime_blocks", "thinktime_blocks"},
    {"rate_process", "rate_process"}, {"exitall_on_error", "exitall_on_error"},
    {"exit_what", "exit_what"}, {"latency_target", "latency_target"},
    {"latency_window", "latency_window"}, {"latency_percentile", "latency_percentile"},
    {"latency_run", "latency_run"}, {"ss", "ss"}, {"steadystate", "ss"}, {"ss_dur", "ss_dur"},
    {"steadystate_duration", "ss_dur"}, {"ss_ramp", "ss_ramp"},
    {"steadystate_ramp_time", "ss_ramp"}, {"buffer_pattern", "buffer_pattern"},
    {"buffer_compress_percentage", "buffer_compress_percentage"},
    {"buffer_compress_chunk", "buffer_compress_chunk"}, {"dedupe_percentage", "dedupe_percentage"},
    {"dedupe_mode", "dedupe_mode"},
    {"dedupe_working_set_percentage", "dedupe_working_set_percentage"},
    {"cmdprio_percentage", "cmdprio_percentage"}, {"cmdprio_class", "cmdprio_class"},
    {"cmdprio", "cmdprio"}, {"cmdprio_bssplit", "cmdprio_bssplit"}, {"log_prio", "log_prio"},
};

/* fio's integer options whose unit iomark's duration parser needs spelled out:
 * rate_cycle is in ms, flow_sleep and thinktime in us (fio HOWTO) */
static const char *const int_units[][2] = {
    {"ratecycle", "ms"}, {"rate_cycle", "ms"}, {"flow_sleep", "us"}, {"thinktime", "us"},
    {"latency_target", "us"}, {"latency_window", "us"}, {"ss_dur", "s"},
    {"steadystate_duration", "s"}, {"ss_ramp", "s"}, {"steadystate_ramp_time", "s"}};

/* fio boolean: bare = 1, else 0/1 (also true/false, as fio's parser) */
static int fio_bool(const struct iom_fio_kv *kv, bool *out, char *err, size_t errlen)
{
    const char *v = kv->value;
    if (!*v || strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "on") == 0)
        *out = true;
    else if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0 || strcasecmp(v, "off") == 0)
        *out = false;
    else
        return fail(err, errlen, "line %u: %s=%s: allowed: 0 or 1", kv->line, kv->name, v);
    return 0;
}

/* fio's READ,WRITE[,TRIM] values (HOWTO "blocksize"): "8k,32k" is 8k for reads and
 * 32k for writes and trims; a value not followed by a comma applies to the later
 * types, an empty one is fio's default (given[] false). Returns the number of
 * comma-separated parts (1 = one value for all), or -1 for more than three. */
static int split_rwt(const char *v, char parts[3][256], bool given[3])
{
    int n = 0;
    const char *p = v;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (n == 3 || len >= 256)
            return -1;
        memcpy(parts[n], p, len);
        parts[n][len] = '\0';
        given[n] = len > 0;
        n++;
        if (!p[len])
            break;
        p += len + 1;
    }
    for (int i = n; i < 3; i++) { /* the last value, not ended by a comma, goes on */
        memcpy(parts[i], parts[n - 1], sizeof(parts[i])); /* i >= n: never the same row */
        given[i] = given[n - 1];
    }
    return n;
}

static int apply_native(const char *name, const char *v, struct iom_job *job, const char *where,
                        char *err, size_t errlen);

#define BSSPLIT_BAD "%s: bssplit=%s: no size has a share above 0"

/* bs/bssplit/blockalign/rate/rate_iops=READ,WRITE[,TRIM]: reads' and writes' own
 * values; bs's and bssplit's trim value is kept in st (a trim pattern's I/Os take
 * it: build_job), rate's trim value is not applied (iomark paces a thread's I/Os
 * together) */
static int apply_split(const struct iom_fio_kv *kv, struct iom_job *job, struct state *st,
                       const char *where, char *err, size_t errlen)
{
    const char *n = kv->name, *v = kv->value, *why;
    char part[3][256];
    bool given[3];
    if (split_rwt(v, part, given) < 0)
        return fail(err, errlen, "%s: %s=%s: at most three values (read,write,trim)", where, n, v);
    if (strcmp(n, "bs") == 0 || strcmp(n, "blocksize") == 0) {
        uint64_t r = 4096, w = 4096, t = 4096; /* fio's default */
        if ((given[0] && iom_parse_size(part[0], &r, &why)) ||
            (given[1] && iom_parse_size(part[1], &w, &why)) ||
            (given[2] && iom_parse_size(part[2], &t, &why)) || !r || !w || !t)
            return fail(err, errlen, "%s: %s=%s: each value a block size, e.g. 4k,8k", where, n,
                        v);
        char tv[32];
        snprintf(tv, sizeof(tv), "%llu", (unsigned long long)r);
        int rc = apply_native("bs", tv, job, where, err, errlen);
        snprintf(tv, sizeof(tv), "%llu", (unsigned long long)w);
        if (rc == 0 && w != r)
            rc = apply_native("bs_write", tv, job, where, err, errlen);
        st->trim_split = true;
        st->trim_bs = t;
        st->nr_trim_bssplit = 0;
        if (rc == 0 && w == r)
            job->wbs_bytes = 0;
        job->nr_wbssplit = 0;
        return rc;
    }
    if (strcmp(n, "bssplit") == 0) {
        int rc = 0;
        for (int k = 0; k < 3; k++) /* fio's shares: remainders to the last size */
            if (given[k] && iom_fioj_bssplit(part[k], sizeof(part[k])))
                return fail(err, errlen, BSSPLIT_BAD, where, v);
        st->trim_split = true; /* trims: their own list, else the bs value */
        st->trim_bs = job->bs_bytes;
        st->nr_trim_bssplit = 0;
        if (given[2]) {
            struct iom_job tmp = *job; /* the list parsed as reads' would be, then kept */
            rc = apply_native("bssplit", part[2], &tmp, where, err, errlen);
            if (rc)
                return rc;
            st->nr_trim_bssplit = tmp.nr_bssplit;
            memcpy(st->trim_bssplit, tmp.bssplit, sizeof(st->trim_bssplit));
        }
        if (given[0])
            rc = apply_native("bssplit", part[0], job, where, err, errlen);
        else
            job->nr_bssplit = 0; /* reads: fio's default, the bs value */
        job->nr_wbssplit = 0;
        job->wbs_bytes = 0;
        if (rc == 0 && given[1] && strcmp(part[1], part[0]) != 0)
            rc = apply_native("bssplit_write", part[1], job, where, err, errlen);
        else if (rc == 0 && !given[1] && given[0])
            job->wbs_bytes = job->bs_bytes; /* writes: the bs value */
        return rc;
    }
    if (strcmp(n, "rate") == 0 || strcmp(n, "rate_iops") == 0) {
        uint64_t val[2] = {0, 0};
        for (int d = 0; d < 2; d++)
            if (given[d] && (n[4] == '_' ? iom_parse_u64(part[d], &val[d], &why)
                                         : iom_parse_size(part[d], &val[d], &why)))
                return fail(err, errlen, "%s: %s=%s: each value %s (0 = no cap)", where, n, v,
                            n[4] == '_' ? "a whole number of I/Os per second"
                                        : "bytes per second, e.g. 1m");
        memcpy(n[4] == '_' ? st->rate_iops_rw : st->rate_rw, val, sizeof(val));
        *(n[4] == '_' ? &st->rate_iops_split : &st->rate_split) = true;
        return 0;
    }
    /* blockalign/ba: one alignment for all I/O */
    if (strcmp(part[0], part[1]) != 0) {
        snprintf(err, errlen, "%s: %s=%s (separate read and write alignments; iomark aligns "
                 "reads and writes alike)", where, n, v);
        return -ENOENT;
    }
    return apply_native("blockalign", part[0], job, where, err, errlen);
}

/* Options of fio's zoned-device mode (HOWTO "Zoned block device options"). */
static bool zoned_option(const char *n)
{
    return strncmp(n, "zone", 4) == 0 || strcmp(n, "max_open_zones") == 0 ||
           strcmp(n, "job_max_open_zones") == 0 || strcmp(n, "ignore_zone_limits") == 0 ||
           strcmp(n, "read_beyond_wp") == 0;
}

/* bsrange=MIN-MAX as fio draws it (io_u.c, get_next_buflen): uniform in
 * [MIN, MAX], rounded down to a multiple of MIN, so MIN, 2MIN, ... each get
 * an equal share and MAX itself (when above MIN) almost none. Written into
 * job->bssplit with whole percentages. */
static int apply_bsrange(const char *where, const char *v, struct iom_job *job, char *err,
                         size_t errlen)
{
    char a[64], b[64];
    const char *dash = strchr(v, '-');
    const char *why;
    uint64_t lo, hi;
    if (!dash || (size_t)(dash - v) >= sizeof(a) || strlen(dash + 1) >= sizeof(b) ||
        strchr(v, ','))
        return fail(err, errlen, "%s: bsrange=%s: expected MIN-MAX, e.g. 4k-64k (one range)",
                    where, v);
    memcpy(a, v, (size_t)(dash - v));
    a[dash - v] = '\0';
    snprintf(b, sizeof(b), "%s", dash + 1);
    if (iom_parse_size(a, &lo, &why) || iom_parse_size(b, &hi, &why) || lo == 0 || hi < lo ||
        hi > (UINT64_C(1) << 30))
        return fail(err, errlen, "%s: bsrange=%s: expected MIN-MAX with 0 < MIN <= MAX <= 1g",
                    where, v);
    uint64_t n = hi / lo - (hi % lo == 0 && hi > lo ? 1 : 0); /* sizes with a real share */
    if (n > IOM_MAX_BSSPLIT || n > 100)
        return fail(err, errlen, "%s: bsrange=%s: at most %d block sizes (MAX/MIN)", where, v,
                    IOM_MAX_BSSPLIT);
    if (n <= 1) {
        job->nr_bssplit = 0;
        job->bs_bytes = lo;
        return 0;
    }
    job->nr_bssplit = (uint32_t)n;
    uint32_t left = 100;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t pct = (uint32_t)(100 / n);
        if (i + 1 == n)
            pct = left;
        job->bssplit[i].bs_bytes = lo * (i + 1);
        job->bssplit[i].pct = pct;
        left -= pct;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* percentile_list=1:5:99.9 (fio: up to 20 values in [0, 100] joined by ':', sorted as
 * fio's stat.c does before it reports them) */
static int apply_pct_list(const char *where, const char *v, struct state *st, char *err,
                          size_t errlen)
{
    uint32_t n = 0;
    const char *p = v;
    st->pct_precision = 0;
    while (*p) {
        char *end;
        double x = strtod(p, &end);
        const char *dot = memchr(p, '.', (size_t)(end - p));
        uint32_t digits = 0;
        while (dot && dot[1 + digits] >= '0' && dot[1 + digits] <= '9')
            digits++;
        if (digits > st->pct_precision)
            st->pct_precision = digits; /* fio prints every percentile with this many decimals */
        if (end == p || (*end && *end != ':') || !(x >= 0.0 && x <= 100.0) ||
            n == IOM_FIO_MAX_PCTS)
            return fail(err, errlen, "%s: percentile_list=%s: up to %d numbers from 0 to 100 "
                        "joined by ':', e.g. 50:99:99.9", where, v, IOM_FIO_MAX_PCTS);
        st->pcts[n++] = x;
        p = *end ? end + 1 : end;
    }
    if (n == 0)
        return fail(err, errlen, "%s: percentile_list=%s: up to %d numbers from 0 to 100 joined "
                    "by ':', e.g. 50:99:99.9", where, v, IOM_FIO_MAX_PCTS);
    qsort(st->pcts, n, sizeof(st->pcts[0]), cmp_double);
    st->nr_pcts = n;
    return 0;
}

/* One option of the native table (workload/options.h) with fio's value. */
static int apply_native(const char *name, const char *v, struct iom_job *job, const char *where,
                        char *err, size_t errlen)
{
    struct iom_run_opts ro = {0};
    char nerr[300];
    if (iom_option_apply(name, v, job, &ro, nerr, sizeof(nerr)))
        return fail(err, errlen, "%s: %s", where, nerr[0] == '-' && nerr[1] == '-' ? nerr + 2
                                                                                : nerr);
    return 0;
}

/* Apply one option. Returns 0, -ENOENT (outside the subset; err says why) or -EINVAL. */
int iom_fioj_apply(const struct iom_fio_kv *kv0, struct iom_job *job, struct state *st, char *err,
                 size_t errlen)
{
    struct iom_fio_kv kvc = *kv0, *kv = &kvc;
    const char *n = kv->name, *v = kv->value;
    uint32_t line = kv->line;
    const char *why;
    uint64_t u;
    char where[32];
    if (line)
        snprintf(where, sizeof(where), "line %u", line);
    else
        snprintf(where, sizeof(where), "command line");
    if (v[0] == '(' && strcmp(n, "name") != 0 && strcmp(n, "description") != 0 &&
        strcmp(n, "filename") != 0 && strcmp(n, "directory") != 0) {
        if (iom_fioj_arith(v, kv->value, sizeof(kv->value)))
            return fail(err, errlen, "%s: %s=%s: iomark's arithmetic takes whole numbers "
                        "with + - * / %% ^ and parentheses, no units (4k: 4*1024)", where, n, v);
    }
    if (strcmp(n, "ioengine") == 0 && !iom_engine_find(v)) {
        char list[160];
        const char *near = iom_fioj_engine_nearest(v); /* a typo of an engine iomark has */
        if (near)
            snprintf(err, errlen, "%s: ioengine=%s (no engine of fio's; did you mean %s?)", where,
                     v, near);
        else
            snprintf(err, errlen, "%s: ioengine=%s (an engine iomark does not have, which has %s)",
                     where, v, iom_engine_list(list, sizeof(list)));
        return -ENOENT;
    }
    if (zoned_option(n)) {
        snprintf(err, errlen, "%s: %s%s%s (zoned-device option; iomark has no zoned mode)", where,
                 n, *v ? "=" : "", v);
        return -ENOENT;
    }
    /* accepted fio options without an effect on iomark's I/O */
    if (strcmp(n, "gtod_reduce") == 0 || strcmp(n, "create_on_open") == 0 ||
        strcmp(n, "thread") == 0 || strcmp(n, "threads") == 0 ||
        strcmp(n, "verify_async") == 0)
        return 0; /* verify_async: iomark checks a block in the thread that completed it */
    /* fio's switches that turn some of its statistics off or on: iomark
     * measures and reports latency and bandwidth whatever they say */
    if (strcmp(n, "disable_lat") == 0 || strcmp(n, "disable_clat") == 0 ||
        strcmp(n, "disable_slat") == 0 || strcmp(n, "disable_bw_measurement") == 0 ||
        strcmp(n, "disable_bw") == 0 || strcmp(n, "clat_percentiles") == 0 ||
        strcmp(n, "lat_percentiles") == 0 || strcmp(n, "slat_percentiles") == 0 ||
        /* verify_fatal: fio stops the job at a verify failure either way (=1: at the
         * first bad byte); so does iomark (without continue_on_error) */
        strcmp(n, "verify_fatal") == 0) {
        bool b;
        return fio_bool(kv, &b, err, errlen);
    }
    if (strcmp(n, "kb_base") == 0) { /* read before the job's sizes (fiojob.c) */
        if (strcmp(v, "1024") != 0 && strcmp(v, "1000") != 0)
            return fail(err, errlen, "%s: kb_base=%s: allowed 1024 (fio's default) or 1000",
                        where, v);
        return 0;
    }
    if (strcmp(n, "number_ios") == 0) {
        if (iom_parse_u64(v, &u, &why) || u == 0)
            return fail(err, errlen, "%s: number_ios=%s: a whole number above 0", where, v);
        st->number_ios = u;
        return 0;
    }
    if (strcmp(n, "flow") == 0 && strcmp(v, "0") == 0) {
        job->flow = 0; /* fio's default: no flow control */
        return 0;
    }
    if (strcmp(n, "io_submit_mode") == 0) {
        /* fio's offload submits paced I/O on schedule from a thread pool so latency is not
         * skewed (coordinated omission); iomark's threads issue paced I/O on schedule while
         * slots are free, either way (latency from submission in job files, as fio's) */
        if (strcmp(v, "inline") && strcmp(v, "offload"))
            return fail(err, errlen, "%s: io_submit_mode=%s: allowed: inline, offload", where, v);
        return 0;
    }
    if (strcmp(n, "fsync") == 0 || strcmp(n, "fdatasync") == 0 ||
        strcmp(n, "write_barrier") == 0) { /* fio: FIO_OPT_INT, every N writes, 0 = never */
        if (iom_parse_u64(v, &u, &why) || u > UINT32_MAX)
            return fail(err, errlen, "%s: %s=%s: allowed: a whole number of writes, 0 (never) "
                        "to %u", where, n, v, UINT32_MAX);
        if (n[1] == 's') /* fsync */
            job->fsync_blocks = (uint32_t)u;
        else if (n[1] == 'd') /* fdatasync */
            job->fdatasync_blocks = (uint32_t)u;
        /* write_barrier: fio 3.33 marks every Nth write IO_U_F_BARRIER (io_u.c), a flag
         * none of its engines reads: no effect, as in iomark */
        return 0;
    }
    if (strcmp(n, "allow_file_create") == 0) {
        bool b;
        int rc = fio_bool(kv, &b, err, errlen);
        job->no_create = !b;
        return rc;
    }
    if (strcmp(n, "file_append") == 0)
        return fio_bool(kv, &job->file_append, err, errlen);
    if (strcmp(n, "overwrite") == 0)
        return fio_bool(kv, &st->overwrite, err, errlen);
    if (strcmp(n, "pre_read") == 0)
        return fio_bool(kv, &st->pre_read, err, errlen);
    if (strcmp(n, "unified_rw_reporting") == 0 || strcmp(n, "lockfile") == 0) {
        bool urw = n[0] == 'u'; /* fio's defaults are accepted; the rest refused with why */
        if (strcmp(v, "none") == 0 || (urw && strcmp(v, "0") == 0))
            return 0;
        snprintf(err, errlen, "%s: %s=%s (%s)", where, n, v, urw ?
                 "iomark reports reads and writes apart; fio's mixed/both sums are not made" :
                 "fio's lock that makes a file's threads take turns; iomark's do not");
        return -ENOENT;
    }
    if (strcmp(n, "sync_file_range") == 0) { /* fio: FLAG[,FLAG...][:N], N default 1 */
        static const char *const fl[] = {"wait_before", "write", "wait_after"};
        char b[256], *save = NULL, *colon;
        snprintf(b, sizeof(b), "%s", v);
        job->sfr_flags = 0;
        job->sfr_blocks = 1;
        if ((colon = strchr(b, ':')) && (*colon = '\0', iom_parse_u64(colon + 1, &u, &why) ||
                                         !u || u > UINT32_MAX))
            return fail(err, errlen, "%s: sync_file_range=%s: the writes after ':' a whole "
                        "number above 0", where, v);
        job->sfr_blocks = colon ? (uint32_t)u : 1;
        for (char *t = strtok_r(b, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            unsigned k = 0;
            while (k < 3 && strcmp(t, fl[k]))
                k++;
            if (k == 3)
                return fail(err, errlen, "%s: sync_file_range=%s: allowed: wait_before, write, "
                            "wait_after joined by ',', then :N", where, v);
            job->sfr_flags |= (uint8_t)(1u << k); /* SYNC_FILE_RANGE_WAIT_BEFORE 1, WRITE 2, */
        }                                         /* WAIT_AFTER 4 (fcntl.h) */
        return job->sfr_flags ? 0 : fail(err, errlen, "%s: sync_file_range=%s: name a flag",
                                         where, v);
    }
    if (strcmp(n, "end_fsync") == 0 || strcmp(n, "fsync_on_close") == 0) {
        bool b; /* fio backend.c: either one fsyncs each file once after the job's last I/O */
        if (fio_bool(kv, &b, err, errlen))
            return -EINVAL;
        if (n[0] == 'e')
            st->end_fsync = b;
        else
            st->fsync_on_close = b;
        job->end_fsync = st->end_fsync || st->fsync_on_close;
        return 0;
    }
    if (strcmp(n, "block_error_percentiles") == 0) /* fio's trims per block (stats/blockinfo.h) */
        return fio_bool(kv, &st->block_err, err, errlen);
    if (strcmp(n, "dedupe_global") == 0) /* one working set for all threads (core/bufgen.h) */
        return fio_bool(kv, &job->dedupe_global, err, errlen);
    if (strcmp(n, "exitall") == 0) /* fio: global (any job's sets it for all; parse_text) */
        return fio_bool(kv, &job->exitall, err, errlen);
    if (strcmp(n, "flow_watermark") == 0)
        return 0; /* fio 3.33: a soft-deprecated option it accepts and ignores */
    if (strcmp(n, "create_serialize") == 0) {
        bool b; /* iomark lays out a job's files one after another (fio's default 1) */
        return fio_bool(kv, &b, err, errlen);
    }
    if (strcmp(n, "unlink") == 0)
        return fio_bool(kv, &st->unlink, err, errlen);
    if (strcmp(n, "wait_for") == 0) {
        if (!*v || strlen(v) >= sizeof(st->wait_for))
            return fail(err, errlen, "%s: wait_for=%s: the name of an earlier job", where, v);
        snprintf(st->wait_for, sizeof(st->wait_for), "%s", v);
        return 0;
    }
    for (size_t i = 0; i < sizeof(int_units) / sizeof(int_units[0]); i++)
        if (strcmp(n, int_units[i][0]) == 0 && *v && strspn(v, "0123456789") == strlen(v) &&
            strlen(v) + 3 < sizeof(kv->value))
            strcat(kv->value, int_units[i][1]);
    if (strcmp(n, "norandommap") == 0)
        return fio_bool(kv, &st->norandommap, err, errlen);
    if (strcmp(n, "invalidate") == 0)
        return fio_bool(kv, &st->invalidate, err, errlen);
    if (strcmp(n, "fadvise_hint") == 0) { /* fio's HOWTO: 0, 1, sequential, random */
        static const char *const adv[] = {"0", "1", "sequential", "random"};
        for (uint8_t i = 0; i < 4; i++)
            if (strcmp(v, adv[i]) == 0) {
                job->fadvise = i;
                return 0;
            }
        return fail(err, errlen, "%s: fadvise_hint=%s: 0, 1, sequential or random", where, v);
    }
    if (strcmp(n, "verify_pattern") == 0) { /* fio: also verify=pattern unless verify is set */
        int np = iom_pattern_parse(v, job->verify_pat, sizeof(job->verify_pat));
        if (np <= 0)
            return fail(err, errlen, "%s: verify_pattern=%s: allowed: fio's pattern of up to 512 "
                        "bytes: 0xHEX, \"text\", a number or 'file' (no %%o formats)", where, v);
        job->verify_pat_len = (uint32_t)np;
        job->verify = true;
        st->verify_pat_line = kv->line;
        return 0;
    }
    if (strcmp(n, "verify_interval") == 0) {
        const char *bad;
        if (iom_parse_size(v, &job->verify_interval, &bad) || !job->verify_interval)
            return fail(err, errlen, "%s: verify_interval=%s: a size above 0, e.g. 512", where, v);
        return 0;
    }
    if (strcmp(n, "verify_dump") == 0)
        return fio_bool(kv, &job->verify_dump, err, errlen);
    if (strcmp(n, "verify_backlog") == 0) { /* read back after every N writes (core/layers.h) */
        uint64_t b;
        if (iom_parse_u64(v, &b, &why) || b > UINT32_MAX)
            return fail(err, errlen, "%s: verify_backlog=%s: a count of writes, 0 to %u", where, v,
                        UINT32_MAX);
        job->verify_backlog = (uint32_t)b;
        return 0;
    }
    if (strcmp(n, "do_verify") == 0)
        return fio_bool(kv, &job->do_verify, err, errlen);
    if (strcmp(n, "random_generator") == 0) {
        if (strcmp(v, "tausworthe") && strcmp(v, "lfsr") && strcmp(v, "tausworthe64"))
            return fail(err, errlen, "%s: random_generator=%s: allowed: tausworthe, lfsr, "
                        "tausworthe64 (iomark draws with xoshiro256** whichever is named)", where, v);
        snprintf(st->random_generator, sizeof(st->random_generator), "%s", v);
        return 0;
    }
    if (strcmp(n, "percentile_list") == 0)
        return apply_pct_list(where, v, st, err, errlen);
    if (strcmp(n, "write_bw_log") == 0 || strcmp(n, "write_lat_log") == 0 ||
        strcmp(n, "write_iops_log") == 0) {
        int k = n[6] == 'b' ? IOM_FIO_LOG_BW : n[6] == 'l' ? IOM_FIO_LOG_LAT : IOM_FIO_LOG_IOPS;
        if (strlen(v) >= sizeof(st->log_name[0]) - 16)
            return fail(err, errlen, "%s: %s=%s: a file prefix of at most %zu characters", where,
                        n, v, sizeof(st->log_name[0]) - 17);
        st->log_on[k] = true; /* bare: the job's name (fio) */
        snprintf(st->log_name[k], sizeof(st->log_name[k]), "%s", v);
        return 0;
    }
    if (strcmp(n, "log_avg_msec") == 0) {
        if (iom_parse_u64(v, &u, &why) || u > 86400000)
            return fail(err, errlen, "%s: log_avg_msec=%s: milliseconds from 0 (every I/O) to "
                        "86400000", where, v);
        st->log_avg_msec = (uint32_t)u;
        return 0;
    }
    if (strcmp(n, "prio") == 0 || strcmp(n, "prioclass") == 0) {
        /* fio: the job's I/O priority, ioprio_set(2) (HOWTO prio, prioclass) */
        bool cls = n[4] == 'c';
        if (iom_parse_u64(v, &u, &why) || u > (cls ? 3u : 7u))
            return fail(err, errlen, "%s: %s=%s: allowed %s", where, n, v,
                        cls ? "0 to 3 (1 real-time, 2 best-effort, 3 idle)" : "0 (highest) to 7");
        if (cls)
            job->ioprio_class = (uint8_t)u;
        else
            job->ioprio_level = (uint8_t)u;
        job->ioprio_given = true;
        return 0;
    }
    if (strcmp(n, "openfiles") == 0) {
        /* fio: at most N of a job's files open at once (default nrfiles); iomark
         * keeps every file open (one thread each), checked in build_job */
        if (iom_parse_u64(v, &u, &why) || u == 0)
            return fail(err, errlen, "%s: openfiles=%s: a whole number of files, at least 1",
                        where, v);
        st->openfiles = u;
        st->openfiles_line = line;
        return 0;
    }
    if (strcmp(n, "log_offset") == 0)
        return fio_bool(kv, &st->log_offset, err, errlen);
    {
        int erc = iom_fioj_error_opt(n, v, job, where, err, errlen);
        if (erc != 1)
            return erc;
    }
    if (strcmp(n, "verify") == 0) {
        if (strcmp(v, "0") == 0 || strcmp(v, "none") == 0)
            job->verify = false;
        else if (strcmp(v, "pattern") == 0) /* fio VERIFY_PATTERN_NO_HDR (core/layers.h) */
            job->verify = st->verify_nohdr = true;
        else if (iom_fio_verify_type(v) > 0) { /* fio's blocks (core/fioverify.h) */
            job->verify = true;
            job->verify_fio = (uint8_t)iom_fio_verify_type(v);
            st->verify_nohdr = false;
            return 0;
        } else {
            snprintf(err, errlen, "%s: verify=%s (iomark writes fio's %s)", where, v,
                     iom_fio_verify_names());
            return -ENOENT;
        }
        job->verify_fio = 0;
        return 0;
    }
    if (strcmp(n, "bsrange") == 0 || strcmp(n, "blocksize_range") == 0)
        return apply_bsrange(where, v, job, err, errlen);
    if ((strcmp(n, "size") == 0 || strcmp(n, "offset") == 0) && strchr(v, '%')) {
        uint32_t pct;
        if (iom_parse_percent(v, &pct, &why) || pct == 0)
            return fail(err, errlen, "%s: %s=%s: a percentage from 1%% to 100%%", where, n, v);
        if (n[0] == 's') {
            st->size_pct = pct;
            st->size_given = true;
        } else {
            st->offset_pct = pct;
        }
        return 0;
    }

    /* rate/rate_iops: one value caps each direction (fio 3.33: rate_iops=1000 on
     * randrw ran 1000 reads/s and 1000 writes/s), so it is the pair VALUE,VALUE */
    if ((strchr(v, ',') && (strcmp(n, "bs") == 0 || strcmp(n, "blocksize") == 0 ||
                            strcmp(n, "bssplit") == 0 || strcmp(n, "blockalign") == 0 ||
                            strcmp(n, "ba") == 0)) ||
        strcmp(n, "rate") == 0 || strcmp(n, "rate_iops") == 0)
        return apply_split(kv, job, st, where, err, errlen);
    if (strcmp(n, "bs") == 0 || strcmp(n, "blocksize") == 0 || strcmp(n, "bssplit") == 0) {
        job->wbs_bytes = 0; /* one value for reads, writes and trims */
        job->nr_wbssplit = 0;
        st->trim_split = false;
        char b[sizeof(kv->value)]; /* bssplit: fio's shares (the value as written is kept) */
        if (n[2] == 's' && (snprintf(b, sizeof(b), "%s", v), iom_fioj_bssplit(b, sizeof(b))))
            return fail(err, errlen, BSSPLIT_BAD, where, v);
        if (n[2] == 's')
            return apply_native("bssplit", b, job, where, err, errlen);
    }
    if (strcmp(n, "name") == 0) {
        if (!*v || strlen(v) >= IOM_NAME_LEN)
            return fail(err, errlen, "%s: name=%s: 1 to %d characters", where, v, IOM_NAME_LEN - 1);
        snprintf(st->jobname, sizeof(st->jobname), "%s", v);
        return 0;
    }
    if (strcmp(n, "description") == 0 || strcmp(n, "thread") == 0)
        return 0; /* a label; iomark always uses threads */
    if (strcmp(n, "filename") == 0) {
        if (!*v || strlen(v) >= sizeof(st->filename))
            return fail(err, errlen, "%s: filename=%s: needs one or more names joined by ':'",
                        where, v);
        /* fio 3.33 (str_filename_cb -> add_file for each name): every filename=
         * line adds its files, a [global]'s and then the section's own, and a
         * name given again is a further file entry of its own (checked with
         * fio --parse-only --debug=file and a traced run) */
        if (iom_fioj_add_filename(st, v))
            return fail(err, errlen, "%s: filename=%s: the names of one job exceed %zu characters",
                        where, v, sizeof(st->filename) - 1);
        return 0;
    }
    if (strcmp(n, "nrfiles") == 0 || strcmp(n, "nr_files") == 0) {
        if (iom_parse_u64(v, &u, &why) || u == 0 || u > UINT32_MAX)
            return fail(err, errlen, "%s: %s=%s: a whole number above 0", where, n, v);
        st->nrfiles = (uint32_t)u;
        return 0;
    }
    if (strcmp(n, "filename_format") == 0) {
        if (!*v || strlen(v) >= sizeof(st->filename_format))
            return fail(err, errlen, "%s: filename_format=%s: 1 to %zu characters", where, v,
                        sizeof(st->filename_format) - 1);
        snprintf(st->filename_format, sizeof(st->filename_format), "%s", v);
        return 0;
    }
    if (strcmp(n, "file_service_type") == 0) {
        /* fio: roundrobin, random, sequential (":N" I/Os before a switch); iomark runs a
         * job's files side by side, one thread each, whichever is named (docs/fio-jobs.md) */
        size_t pl = strcspn(v, ":");
        if (!((pl == 10 && strncmp(v, "roundrobin", 10) == 0) ||
              (pl == 6 && strncmp(v, "random", 6) == 0) ||
              (pl == 10 && strncmp(v, "sequential", 10) == 0))) {
            snprintf(err, errlen, "%s: file_service_type=%s (iomark runs roundrobin, random and "
                     "sequential, as one thread per file)", where, v);
            return -ENOENT;
        }
        if (v[pl] == ':' && (iom_parse_u64(v + pl + 1, &u, &why) || u == 0))
            return fail(err, errlen, "%s: file_service_type=%s: the ':N' after the type is a "
                        "whole number above 0", where, v);
        snprintf(st->file_service, sizeof(st->file_service), "%s", v);
        return 0;
    }
    if (strcmp(n, "directory") == 0) {
        if (iom_fioj_set_directory(st, v, line))
            return fail(err, errlen, "%s: directory=%s: one folder or several joined by ':', "
                        "under %zu characters", where, v, sizeof(st->directory));
        return 0;
    }
    if (strcmp(n, "filesize") == 0) {
        if (iom_parse_size(v, &u, &why) || u == 0)
            return fail(err, errlen, "%s: filesize=%s: %s", where, v,
                        strchr(v, '-') ? "ranges are not supported; give one size"
                                       : "needs a size above 0, e.g. 1g");
        st->filesize = u;
        return 0;
    }
    if (strcmp(n, "io_size") == 0 || strcmp(n, "io_limit") == 0) {
        if (iom_parse_size(v, &u, &why) || u == 0)
            return fail(err, errlen, "%s: %s=%s: needs a size above 0, e.g. 10g", where, n, v);
        st->io_size = u;
        return 0;
    }
    if (strcmp(n, "time_based") == 0)
        return fio_bool(kv, &st->time_based, err, errlen);
    if (strcmp(n, "stonewall") == 0 || strcmp(n, "wait_for_previous") == 0)
        return fio_bool(kv, &st->stonewall, err, errlen);
    if (strcmp(n, "new_group") == 0)
        return fio_bool(kv, &st->new_group, err, errlen);
    if (strcmp(n, "group_reporting") == 0)
        return fio_bool(kv, &st->group_reporting, err, errlen);
    if (strcmp(n, "randrepeat") == 0)
        return fio_bool(kv, &st->randrepeat, err, errlen);
    if (strcmp(n, "loops") == 0) {
        if (iom_parse_u64(v, &u, &why) || u == 0 || u > 1000000)
            return fail(err, errlen, "%s: loops=%s: a whole number from 1 to 1000000", where, v);
        st->loops = (uint32_t)u;
        return 0;
    }
    if ((strcmp(n, "rate_iops") == 0 || strcmp(n, "rate") == 0) && strcmp(v, "0") == 0) {
        if (n[4] == '_')
            job->rate_iops = 0;
        else
            job->rate_bytes_per_s = 0;
        return 0; /* fio: 0 = no limit */
    }
    if ((strcmp(n, "rw") == 0 || strcmp(n, "readwrite") == 0) && strchr(v, ':')) {
        /* fio: "rw=read:8k" skips 8k after every I/O of a sequential pattern
         * (offset += bs + 8k), "rw=read:-8k" goes backwards (job->seq_back_bytes);
         * random patterns' ":<nr>" (a new random offset every nr I/Os) and
         * backward skips of a mixed pattern are not in iomark */
        char pat[32];
        const char *colon = strchr(v, ':');
        size_t pl = (size_t)(colon - v);
        enum iom_rw rw;
        if (pl >= sizeof(pat))
            return fail(err, errlen, "%s: %s=%s: unknown pattern", where, n, v);
        memcpy(pat, v, pl);
        pat[pl] = '\0';
        if (iom_rw_parse(pat, &rw))
            return fail(err, errlen, "%s: %s=%s: allowed patterns: read, write, randread, "
                        "randwrite, rw, randrw", where, n, v);
        if ((rw == IOM_RW_READ || rw == IOM_RW_WRITE) && colon[1] == '-') {
            /* fio's backward skip (io_u.c get_next_seq_offset, ddir_seq_add < 0) */
            if (iom_parse_size(colon + 2, &u, &why) || u == 0)
                return fail(err, errlen, "%s: %s=%s: the backward skip after ':-' needs a size, "
                            "e.g. read:-8k", where, n, v);
            job->rw = rw;
            st->rw_skip = 0;
            job->seq_back_bytes = u;
            return 0;
        }
        if (iom_rw_parse(pat, &rw) == 0 && (rw == IOM_RW_READ || rw == IOM_RW_WRITE ||
                                            rw == IOM_RW_RW) && colon[1] != '-') {
            if (iom_parse_size(colon + 1, &u, &why))
                return fail(err, errlen, "%s: %s=%s: the skip after ':' needs a size, e.g. 8k",
                            where, n, v);
            job->rw = rw;
            job->seq_back_bytes = 0;
            st->rw_skip = u; /* the block size is added in build_job */
            return 0;
        }
        snprintf(err, errlen, "%s: %s=%s (the ':<nr>' modifier of %s; iomark has skips of "
                 "sequential patterns only, backward ones of read or write)", where, n, v,
                 colon[1] == '-' ? "mixed backward skips" : "random patterns");
        return -ENOENT;
    }
    if (strcmp(n, "rw") == 0 || strcmp(n, "readwrite") == 0) {
        st->rw_skip = 0; /* a later rw= without ':' drops an earlier skip */
        job->seq_back_bytes = 0;
    }
    for (size_t i = 0; i < sizeof(native_names) / sizeof(native_names[0]); i++) {
        if (strcmp(n, native_names[i][0]) != 0)
            continue;
        struct iom_run_opts ro = {0};
        char nerr[300];
        if (strncmp(n, "rwmix", 5) == 0) /* fio: the last of rwmixread/rwmixwrite wins */
            job->rwmix_given = false;
        bool flag = !*v && (strcmp(n, "direct") == 0 || strcmp(n, "buffered") == 0 ||
                            strcmp(n, "zero_buffers") == 0 || strcmp(n, "refill_buffers") == 0 ||
                            strcmp(n, "scramble_buffers") == 0 ||
                            strcmp(n, "exitall_on_error") == 0);
        if (iom_option_apply(native_names[i][1], flag ? NULL : v, job, &ro, nerr, sizeof(nerr)))
            return fail(err, errlen, "%s: %s", where, nerr[0] == '-' && nerr[1] == '-' ? nerr + 2
                                                                                    : nerr);
        if (strcmp(n, "size") == 0)
            st->size_given = true;
        if (strcmp(n, "runtime") == 0 || strcmp(n, "timeout") == 0)
            st->runtime_given = true;
        if (strcmp(n, "randseed") == 0)
            st->seed_given = true;
        return 0;
    }
    iom_fioj_unknown(err, errlen, where, n, v, !line);
    return -ENOENT;
}
