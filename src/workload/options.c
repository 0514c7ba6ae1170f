/* options.c - the native option table and its parser. */
#include "workload/options.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/args.h"
#include "workload/units.h"

enum opt_type { T_SIZE, T_DURATION, T_PCT, T_U32, T_U64, T_BOOL, T_CUSTOM };
enum opt_where { W_JOB, W_RO };

struct opt;
typedef int (*opt_fn)(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen);

struct opt {
    const char *name;
    enum opt_type type;
    enum opt_where where;
    size_t off;
    uint64_t min, max;    /* inclusive bounds for numeric types */
    opt_fn fn;            /* T_CUSTOM */
    const char *arg;      /* value placeholder for help */
    const char *help;
};

#define J(f) W_JOB, offsetof(struct iom_job, f)
#define R(f) W_RO, offsetof(struct iom_run_opts, f)
#define SEC UINT64_C(1000000000)

static int bad(char *err, size_t errlen, const char *name, const char *v, const char *why)
{
    snprintf(err, errlen, "--%s=%s: %s", name, v ? v : "", why);
    return -EINVAL;
}

static int set_rw(const struct opt *o, const char *v, struct iom_job *job, struct iom_run_opts *ro,
                  char *err, size_t errlen)
{
    (void)ro;
    if (!v || iom_rw_parse(v, &job->rw))
        return bad(err, errlen, o->name, v,
                   "allowed: read, write, randread, randwrite, rw (or readwrite), randrw");
    return 0;
}

static int set_mix(const struct opt *o, const char *v, struct iom_job *job, struct iom_run_opts *ro,
                   char *err, size_t errlen)
{
    (void)ro;
    const char *why;
    uint32_t pct;
    if (!v || iom_parse_percent(v, &pct, &why))
        return bad(err, errlen, o->name, v, v ? why : "needs a percentage 0-100");
    uint32_t read_pct = strcmp(o->name, "rwmixwrite") == 0 ? 100 - pct : pct;
    if (job->rwmix_given && job->rwmixread_pct != read_pct)
        return bad(err, errlen, o->name, v,
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
        char list[160], why[200];
        snprintf(why, sizeof(why), "allowed: %s", iom_engine_list(list, sizeof(list)));
        return bad(err, errlen, o->name, v, why);
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
        return bad(err, errlen, o->name, v,
                   "allowed: none (0), dsync (O_DSYNC, write-through), sync (1, O_SYNC)");
    return 0;
}

static int set_buffered(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
        return bad(err, errlen, o->name, v, "allowed: 0 or 1");
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
        return bad(err, errlen, o->name, v, "allowed: normal, json");
    return 0;
}

static int set_output(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)job;
    if (!v || !*v)
        return bad(err, errlen, o->name, v, "needs a file name");
    ro->output_path = v;
    return 0;
}

static int set_name(const struct opt *o, const char *v, struct iom_job *job,
                    struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v || !*v || strlen(v) >= sizeof(job->name))
        return bad(err, errlen, o->name, v, "needs a name of 1 to 63 characters");
    snprintf(job->name, sizeof(job->name), "%s", v);
    return 0;
}

/* "4k/50:8k/30:64k/20" (fio's bssplit; an empty percentage shares the rest) */
static int set_bssplit(const struct opt *o, const char *v, struct iom_job *job,
                       struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v || !*v)
        return bad(err, errlen, o->name, v, "expected SIZE/PCT:SIZE/PCT...");
    char *copy = strdup(v), *save = NULL;
    if (!copy)
        return -ENOMEM;
    uint32_t n = 0, sum = 0, empty = 0;
    bool given[IOM_MAX_BSSPLIT] = {false};
    int rc = 0;
    for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
        if (n == IOM_MAX_BSSPLIT) {
            rc = bad(err, errlen, o->name, v, "at most 64 block sizes");
            goto out;
        }
        char *slash = strchr(tok, '/');
        if (slash)
            *slash = '\0';
        const char *why;
        uint64_t bs;
        uint32_t pct = 0;
        if (iom_parse_size(tok, &bs, &why) || bs == 0 || bs > (UINT64_C(1) << 30)) {
            rc = bad(err, errlen, o->name, v, "each block size must be 1 byte to 1 GiB");
            goto out;
        }
        if (slash && slash[1]) {
            if (iom_parse_percent(slash + 1, &pct, &why)) {
                rc = bad(err, errlen, o->name, v, why);
                goto out;
            }
            given[n] = true;
        } else {
            empty++;
        }
        job->bssplit[n].bs_bytes = bs;
        job->bssplit[n].pct = pct;
        sum += pct;
        n++;
    }
    if (sum > 100 || (empty == 0 && sum != 100) || n == 0) {
        rc = bad(err, errlen, o->name, v, "the percentages must add up to 100");
        goto out;
    }
    if (empty) { /* fio: sizes without a percentage share what is left equally */
        uint32_t share = (100 - sum) / empty, extra = (100 - sum) % empty;
        for (uint32_t i = 0; i < n; i++)
            if (!given[i]) {
                job->bssplit[i].pct = share + (extra ? 1 : 0);
                if (extra)
                    extra--;
            }
    }
    job->nr_bssplit = n;
out:
    free(copy);
    return rc;
}

/* random | zipf:THETA | pareto:H | zoned:A/R:A/R... */
static int set_dist(const struct opt *o, const char *v, struct iom_job *job,
                    struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v)
        return bad(err, errlen, o->name, v, "allowed: random, zipf:THETA, pareto:H, zoned:A/R:...");
    if (strcmp(v, "random") == 0) {
        job->dist = IOM_DIST_RANDOM;
        return 0;
    }
    if (strncmp(v, "zipf:", 5) == 0 || strncmp(v, "pareto:", 7) == 0) {
        bool zipf = v[0] == 'z';
        char *end;
        double p = strtod(v + (zipf ? 5 : 7), &end);
        if (*end || (zipf && (p <= 0 || p == 1.0 || p > 100)) || (!zipf && (p <= 0 || p >= 1)))
            return bad(err, errlen, o->name, v,
                       zipf ? "zipf needs a theta > 0 other than 1, e.g. zipf:1.2"
                            : "pareto needs 0 < h < 1, e.g. pareto:0.9");
        job->dist = zipf ? IOM_DIST_ZIPF : IOM_DIST_PARETO;
        job->dist_param = p;
        return 0;
    }
    if (strncmp(v, "zoned:", 6) == 0) {
        uint32_t n = 0, sa = 0, sr = 0;
        const char *p = v + 6;
        while (*p) {
            unsigned a, r;
            int used;
            if (n == IOM_MAX_ZONES || sscanf(p, "%u/%u%n", &a, &r, &used) != 2 || a > 100 || r > 100)
                return bad(err, errlen, o->name, v,
                           "zoned needs ACCESS%/RANGE% pairs joined by ':', each summing to 100");
            job->zones[n].access_pct = a;
            job->zones[n].range_pct = r;
            sa += a;
            sr += r;
            n++;
            p += used;
            if (*p == ':')
                p++;
            else if (*p)
                return bad(err, errlen, o->name, v, "zoned pairs are joined by ':'");
        }
        if (n == 0 || sa != 100 || sr != 100)
            return bad(err, errlen, o->name, v, "zoned access and range shares must each add up to 100");
        job->nr_zones = n;
        job->dist = IOM_DIST_ZONED;
        return 0;
    }
    return bad(err, errlen, o->name, v, "allowed: random, zipf:THETA, pareto:H, zoned:A/R:...");
}

static int set_runtime(const struct opt *o, const char *v, struct iom_job *job,
                       struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const char *why;
    uint64_t ns;
    if (!v || iom_parse_duration(v, &ns, &why))
        return bad(err, errlen, o->name, v, v ? why : "needs a duration");
    if (ns == 0)
        return bad(err, errlen, o->name, v, "must be a positive duration");
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
        return bad(err, errlen, o->name, v, v ? why : "needs a size");
    if (b == 0)
        return bad(err, errlen, o->name, v, "must be greater than 0");
    job->io_limit_bytes = b;
    if (!job->runtime_set)
        job->runtime_ns = 0;
    return 0;
}

static int set_verify(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (v && strcmp(v, "crc32c") == 0)
        job->verify = true;
    else if (v && (strcmp(v, "0") == 0 || strcmp(v, "none") == 0))
        job->verify = false;
    else
        return bad(err, errlen, o->name, v, "allowed: crc32c, none");
    return 0;
}

/* ERRNO:EVERY, e.g. EIO:1000 - a testing aid for error handling */
static int set_inject(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    static const struct {
        const char *name;
        int e;
    } names[] = {{"EIO", EIO}, {"ENOSPC", ENOSPC}, {"EILSEQ", EILSEQ}, {"ETIMEDOUT", ETIMEDOUT}};
    const char *colon = v ? strchr(v, ':') : NULL;
    const char *why;
    uint64_t every;
    if (colon && iom_parse_u64(colon + 1, &every, &why) == 0 && every > 0) {
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            if (strlen(names[i].name) == (size_t)(colon - v) &&
                strncmp(v, names[i].name, (size_t)(colon - v)) == 0) {
                job->inject_errno = names[i].e;
                job->inject_every = every;
                return 0;
            }
        }
    }
    return bad(err, errlen, o->name, v,
               "expected ERRNO:N with ERRNO one of EIO, ENOSPC, EILSEQ, ETIMEDOUT and N > 0 "
               "(every N-th I/O fails)");
}

static const struct opt opts[] = {
    {"name", T_CUSTOM, J(name), 0, 0, set_name, "NAME", "job name shown in reports"},
    {"rw", T_CUSTOM, J(rw), 0, 0, set_rw, "PATTERN",
     "read, write, randread, randwrite, rw, randrw (default randread)"},
    {"readwrite", T_CUSTOM, J(rw), 0, 0, set_rw, "PATTERN", "same as --rw"},
    {"bs", T_SIZE, J(bs_bytes), 1, UINT64_C(1) << 30, NULL, "SIZE", "block size (default 4K)"},
    {"bssplit", T_CUSTOM, J(bssplit), 0, 0, set_bssplit, "SIZE/PCT:...",
     "mix of block sizes, e.g. 4k/60:64k/40"},
    {"blockalign", T_SIZE, J(blockalign_bytes), 1, UINT64_C(1) << 30, NULL, "SIZE",
     "alignment of random offsets (default: the block size)"},
    {"rwmixread", T_CUSTOM, J(rwmixread_pct), 0, 0, set_mix, "PCT",
     "reads in % for rw/randrw (default 50)"},
    {"rwmixwrite", T_CUSTOM, J(rwmixread_pct), 0, 0, set_mix, "PCT", "writes in % for rw/randrw"},
    {"percentage_random", T_PCT, J(percentage_random), 0, 100, NULL, "PCT",
     "share of random I/Os in a random pattern (default 100)"},
    {"random_distribution", T_CUSTOM, J(dist), 0, 0, set_dist, "DIST",
     "random (default), zipf:THETA, pareto:H, zoned:A/R:..."},
    {"sequential_shared", T_BOOL, J(seq_shared), 0, 1, NULL, NULL,
     "sequential threads of a target share one offset (DiskSpd -si)"},
    {"iodepth", T_U32, J(iodepth), 1, 65536, NULL, "N", "outstanding I/Os per thread (default 1)"},
    {"numjobs", T_U32, J(numjobs), 1, 4096, NULL, "N", "threads per target (default 1)"},
    {"size", T_SIZE, J(size_bytes), 1, UINT64_MAX, NULL, "SIZE",
     "region per target; a missing file is created at this size (default: whole target)"},
    {"offset", T_SIZE, J(offset_bytes), 0, UINT64_MAX, NULL, "SIZE", "start of the region (default 0)"},
    {"runtime", T_CUSTOM, J(runtime_ns), 0, 0, set_runtime, "TIME",
     "measured duration (default 10s; units ns us ms s m h d)"},
    {"io_size", T_CUSTOM, J(io_limit_bytes), 0, 0, set_io_size, "SIZE",
     "bytes each thread transfers, then stops (no time limit unless --runtime)"},
    {"ramp_time", T_DURATION, J(ramp_ns), 0, UINT64_MAX, NULL, "TIME",
     "warm-up before measuring (default 0)"},
    {"cooldown_time", T_DURATION, J(cooldown_ns), 0, UINT64_MAX, NULL, "TIME",
     "I/O kept running after measuring, not counted (default 0)"},
    {"series_interval", T_DURATION, J(series_interval_ns), 1000000, UINT64_MAX, NULL, "TIME",
     "step of the per-interval series (default 1s, at least 1ms)"},
    {"ioengine", T_CUSTOM, J(ioengine), 0, 0, set_engine, "ENGINE",
     "I/O engine"}, /* the names come from the engine registry (engine/engine.h) */
    {"direct", T_BOOL, J(direct), 0, 1, NULL, "0|1", "O_DIRECT, bypassing the page cache (default 1)"},
    {"buffered", T_CUSTOM, J(direct), 0, 0, set_buffered, "0|1",
     "buffered I/O through the page cache (same as --direct=0)"},
    {"sync", T_CUSTOM, J(sync), 0, 0, set_sync, "MODE",
     "none (default), dsync (write-through, O_DSYNC), sync (O_SYNC)"},
    {"thinktime", T_DURATION, J(thinktime_ns), 0, UINT64_MAX, NULL, "TIME",
     "pause after every --thinktime_blocks I/Os, once the queue has drained (bursts)"},
    {"thinktime_blocks", T_U64, J(thinktime_blocks), 1, UINT64_MAX, NULL, "N",
     "I/Os per burst before a --thinktime pause (default 1)"},
    {"rate_iops", T_U64, J(rate_iops), 1, UINT64_MAX, NULL, "N",
     "cap per thread in IOPS; latency then counts from each I/O's intended start"},
    {"rate", T_SIZE, J(rate_bytes_per_s), 1, UINT64_MAX, NULL, "SIZE",
     "cap per thread in bytes/s (e.g. 50M = 50 MiB/s)"},
    {"randseed", T_U64, J(seed), 0, UINT64_MAX, NULL, "N", "seed of the offset generators"},
    {"zero_buffers", T_BOOL, J(zero_buffers), 0, 1, NULL, NULL, "write zeros, not random data"},
    {"verify", T_CUSTOM, J(verify), 0, 0, set_verify, "crc32c",
     "write self-checking blocks; reads check offset, seed and CRC-32C"},
    {"continue_on_error", T_BOOL, J(continue_on_error), 0, 1, NULL, NULL,
     "count I/O errors and verify mismatches and keep going (default: stop the thread)"},
    {"inject_error", T_CUSTOM, J(inject_errno), 0, 0, set_inject, "ERRNO:N",
     "testing aid: every N-th I/O of a thread completes with ERRNO (EIO, ENOSPC, ...)"},
    {"force", T_BOOL, J(force), 0, 1, NULL, NULL,
     "allow writes to a block device that is mounted or carries data"},
    {"keep", T_BOOL, J(keep), 0, 1, NULL, "0|1",
     "keep a test file iomark created (default 1, as fio; 0: remove it at the end)"},
    {"output-format", T_CUSTOM, R(format), 0, 0, set_format, "FMT", "normal (default) or json"},
    {"output", T_CUSTOM, R(output_path), 0, 0, set_output, "FILE",
     "write the result to FILE instead of stdout"},
    {"quiet", T_BOOL, R(quiet), 0, 1, NULL, NULL, "no progress line"},
    {"status-interval", T_DURATION, R(status_interval_ns), 1000000000, 86400000000000, NULL, "TIME",
     "when stderr is not a terminal, a progress line every TIME (fio's option; e.g. 10s)"},
    {"help", T_BOOL, R(help), 0, 1, NULL, NULL, "this text"},
};

/* by name, '-' and '_' being one letter (workload/args.h) */
static const struct opt *find(const char *name)
{
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        if (iom_args_name_eq(name, (size_t)-1, opts[i].name))
            return &opts[i];
    return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t d[41][41];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

const char *iom_option_suggest(const char *name)
{
    const char *best = NULL;
    size_t bd = 4;
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        size_t d = edit_distance(name, opts[i].name);
        if (d < bd) {
            bd = d;
            best = opts[i].name;
        }
    }
    return best;
}

static const char *range_text(const struct opt *o, char *buf, size_t len)
{
    if (o->max == UINT64_MAX)
        snprintf(buf, len, "at least %llu", (unsigned long long)o->min);
    else
        snprintf(buf, len, "from %llu to %llu", (unsigned long long)o->min,
                 (unsigned long long)o->max);
    return buf;
}

int iom_option_apply(const char *name, const char *v, struct iom_job *job, struct iom_run_opts *ro,
                     char *err, size_t errlen)
{
    const struct opt *o = find(name);
    /* fio options iomark spells differently or does not need */
    static const struct {
        const char *name, *hint;
    } fio_hints[] = {
        {"filename", "targets are the arguments after the options: iomark run [options] FILE..."},
        {"time_based", "iomark runs are time-based already (--runtime); --io_size limits bytes"},
        {"group_reporting", "iomark reports every target and thread and the total"},
        {"blocksize", "use --bs"},
        {"directory", "name the target file with its folder: iomark run [options] DIR/FILE"},
        {"output-format=normal,json", "use normal or json"},
    };
    for (size_t i = 0; !o && i < sizeof(fio_hints) / sizeof(fio_hints[0]); i++) {
        if (strcmp(name, fio_hints[i].name) == 0) {
            snprintf(err, errlen, "--%s: not an iomark run option; %s", name, fio_hints[i].hint);
            return -ENOENT;
        }
    }
    if (!o) {
        const char *s = iom_option_suggest(name);
        if (s)
            snprintf(err, errlen, "--%s: unknown option; did you mean --%s?", name, s);
        else
            snprintf(err, errlen, "--%s: unknown option; see iomark run --help", name);
        return -ENOENT;
    }
    char *base = o->where == W_JOB ? (char *)job : (char *)ro;
    void *field = base + o->off;
    const char *why = NULL;
    char rbuf[96], wbuf[200];
    uint64_t v64 = 0;
    uint32_t p32 = 0;
    if (o->type != T_BOOL && o->type != T_CUSTOM && !v)
        return bad(err, errlen, o->name, v, "needs a value");
    switch (o->type) {
    case T_CUSTOM:
        return o->fn(o, v, job, ro, err, errlen);
    case T_BOOL:
        if (!v || strcmp(v, "1") == 0 || strcmp(v, "true") == 0)
            *(bool *)field = true;
        else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0)
            *(bool *)field = false;
        else
            return bad(err, errlen, o->name, v, "allowed: 0 or 1");
        return 0;
    case T_PCT:
        if (iom_parse_percent(v, &p32, &why))
            return bad(err, errlen, o->name, v, why);
        *(uint32_t *)field = p32;
        return 0;
    case T_SIZE:
        if (iom_parse_size(v, &v64, &why))
            return bad(err, errlen, o->name, v, why);
        break;
    case T_DURATION:
        if (iom_parse_duration(v, &v64, &why))
            return bad(err, errlen, o->name, v, why);
        break;
    case T_U32:
    case T_U64:
        if (iom_parse_u64(v, &v64, &why))
            return bad(err, errlen, o->name, v, why);
        break;
    }
    if (v64 < o->min || v64 > o->max) {
        if (o->type == T_DURATION && v64 == 0)
            snprintf(wbuf, sizeof(wbuf), "must be a positive duration");
        else if (o->type == T_SIZE && v64 == 0)
            snprintf(wbuf, sizeof(wbuf), "must be greater than 0");
        else
            snprintf(wbuf, sizeof(wbuf), "must be %s%s", range_text(o, rbuf, sizeof(rbuf)),
                     o->type == T_SIZE ? " bytes" : o->type == T_DURATION ? " ns" : "");
        return bad(err, errlen, o->name, v, wbuf);
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
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (only_targets || a[0] != '-' || a[1] == '\0') {
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
        if (a[1] != '-') {
            snprintf(err, errlen,
                     "%s: unknown option; iomark's options are long (--name=value); for DiskSpd's "
                     "syntax use iomark diskspd",
                     a);
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
        if (o && !val && i + 1 < argc &&
            (!flag || strcmp(argv[i + 1], "0") == 0 || strcmp(argv[i + 1], "1") == 0))
            val = argv[++i];
        int rc = iom_option_apply(name, val, job, ro, err, errlen);
        if (rc)
            return -EINVAL;
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
