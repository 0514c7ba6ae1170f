/* fiojob.c - fio job files -> struct iom_job (see fiojob.h, docs/fio-jobs.md). */
#include "workload/fiojob.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "workload/options.h"
#include "workload/units.h"

#define MAX_FILES 256

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* ---- lexing ---- */

struct section {
    char name[IOM_NAME_LEN];
    uint32_t line;
    bool global;
    uint32_t first, nr;      /* its options in the kv array */
};

struct lexed {
    struct iom_fio_kv *kv;
    uint32_t nr_kv, cap_kv;
    struct section *sec;
    uint32_t nr_sec, cap_sec;
};

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Expand ${NAME} from the environment into out. */
static int expand(const char *in, char *out, size_t outlen, uint32_t line, char *err, size_t errlen)
{
    size_t o = 0;
    for (const char *p = in; *p;) {
        if (p[0] == '$' && p[1] == '{') {
            const char *end = strchr(p + 2, '}');
            if (!end)
                return fail(err, errlen, "line %u: '${' without a closing '}'", line);
            char name[128];
            size_t nl = (size_t)(end - p - 2);
            if (nl == 0 || nl >= sizeof(name))
                return fail(err, errlen, "line %u: bad variable name in '%.*s'", line,
                            (int)(end - p + 1), p);
            memcpy(name, p + 2, nl);
            name[nl] = '\0';
            const char *v = getenv(name);
            if (!v)
                return fail(err, errlen, "line %u: ${%s} is not set in the environment; export "
                            "it (e.g. %s=...) before running the job file", line, name, name);
            size_t vl = strlen(v);
            if (o + vl >= outlen)
                return fail(err, errlen, "line %u: line too long after expanding ${%s}", line,
                            name);
            memcpy(out + o, v, vl);
            o += vl;
            p = end + 1;
            continue;
        }
        if (o + 1 >= outlen)
            return fail(err, errlen, "line %u: line too long", line);
        out[o++] = *p++;
    }
    out[o] = '\0';
    return 0;
}

/*
 * fio's built-in variables ($pagesize, $ncpus, $mb_memory; fio's HOWTO,
 * "Job file parameters": sysconf(_SC_PAGESIZE), the online CPUs, the
 * physical memory in MiB). As fio (options.c, fio_option_dup_subs), a
 * value holding one is replaced with the value in parentheses, so that
 * "5*1024*1024*$mb_memory/8" becomes an arithmetic expression. Returns
 * true when out holds a substituted value.
 */
static bool builtins(const char *val, char *out, size_t outlen)
{
    if (!strchr(val, '$'))
        return false;
    size_t o = 0;
    bool any = false;
    out[o++] = '(';
    for (const char *p = val; *p;) {
        static const char *const names[] = {"$pagesize", "$ncpus", "$mb_memory"};
        size_t k;
        for (k = 0; k < 3; k++)
            if (strncmp(p, names[k], strlen(names[k])) == 0)
                break;
        if (k < 3) {
            long long v;
            if (k == 0)
                v = sysconf(_SC_PAGESIZE);
            else if (k == 1)
                v = sysconf(_SC_NPROCESSORS_ONLN);
            else
                v = (long long)((unsigned long long)sysconf(_SC_PHYS_PAGES) *
                                (unsigned long long)sysconf(_SC_PAGESIZE) >> 20);
            int w = snprintf(out + o, outlen - o, "%lld", v);
            if (w < 0 || (size_t)w >= outlen - o - 2)
                return false;
            o += (size_t)w;
            p += strlen(names[k]);
            any = true;
            continue;
        }
        if (o + 2 >= outlen)
            return false;
        out[o++] = *p++;
    }
    out[o++] = ')';
    out[o] = '\0';
    return any;
}

/* ---- fio's arithmetic in values: "(...)" with + - * / % ^ and parentheses
 * over whole numbers (fio's exp/expression-parser.y; fio 3.33 refuses units
 * inside an expression, as "(4k*2)", and so does this) ---- */

struct expr {
    const char *p;
    bool bad;
};

static long long ex_sum(struct expr *e);

static void ex_ws(struct expr *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static long long ex_atom(struct expr *e)
{
    ex_ws(e);
    if (*e->p == '(') {
        e->p++;
        long long v = ex_sum(e);
        ex_ws(e);
        if (*e->p != ')')
            e->bad = true;
        else
            e->p++;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        return -ex_atom(e);
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->bad = true;
        return 0;
    }
    char *end;
    long long v = strtoll(e->p, &end, 10);
    e->p = end;
    return v;
}

static long long ex_pow(struct expr *e)
{
    long long b = ex_atom(e);
    ex_ws(e);
    if (*e->p == '^') {
        e->p++;
        long long x = ex_pow(e), r = 1;
        if (x < 0 || x > 63) {
            e->bad = true;
            return 0;
        }
        while (x-- > 0)
            r *= b;
        return r;
    }
    return b;
}

static long long ex_prod(struct expr *e)
{
    long long v = ex_pow(e);
    for (;;) {
        ex_ws(e);
        char c = *e->p;
        if (c != '*' && c != '/' && c != '%')
            return v;
        e->p++;
        long long r = ex_pow(e);
        if (c == '*') {
            if (__builtin_mul_overflow(v, r, &v))
                e->bad = true;
        } else if (r == 0) {
            e->bad = true;
            return 0;
        } else {
            v = c == '/' ? v / r : v % r;
        }
    }
}

static long long ex_sum(struct expr *e)
{
    long long v = ex_prod(e);
    for (;;) {
        ex_ws(e);
        char c = *e->p;
        if (c != '+' && c != '-')
            return v;
        e->p++;
        long long r = ex_prod(e);
        v = c == '+' ? v + r : v - r;
    }
}

/* Evaluate a parenthesised value into out as a decimal; -EINVAL if malformed or negative. */
static int arith(const char *v, char *out, size_t outlen)
{
    struct expr e = {v, false};
    long long r = ex_sum(&e);
    ex_ws(&e);
    if (e.bad || *e.p || r < 0)
        return -EINVAL;
    snprintf(out, outlen, "%lld", r);
    return 0;
}

static int lex(const char *text, struct lexed *lx, char *err, size_t errlen)
{
    uint32_t line = 0;
    const char *p = text;
    char raw[4096], buf[4096];
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        if (len >= sizeof(raw))
            return fail(err, errlen, "line %u: longer than %zu characters", line, sizeof(raw) - 1);
        memcpy(raw, p, len);
        raw[len] = '\0';
        p += len + (nl ? 1 : 0);
        char *s = trim(raw);
        if (!*s || *s == ';' || *s == '#')
            continue;
        if (*s == '[') {
            char *close = strchr(s, ']');
            if (!close || close[1] != '\0')
                return fail(err, errlen, "line %u: a section header is [name]", line);
            *close = '\0';
            char *name = trim(s + 1);
            if (!*name || strlen(name) >= IOM_NAME_LEN)
                return fail(err, errlen, "line %u: section name must be 1 to %d characters", line,
                            IOM_NAME_LEN - 1);
            if (lx->nr_sec == lx->cap_sec) {
                uint32_t cap = lx->cap_sec ? lx->cap_sec * 2 : 16;
                struct section *ns = realloc(lx->sec, cap * sizeof(*ns));
                if (!ns)
                    return -ENOMEM;
                lx->sec = ns;
                lx->cap_sec = cap;
            }
            struct section *sec = &lx->sec[lx->nr_sec++];
            memset(sec, 0, sizeof(*sec));
            snprintf(sec->name, sizeof(sec->name), "%s", name);
            sec->line = line;
            sec->global = strcmp(name, "global") == 0;
            sec->first = lx->nr_kv;
            continue;
        }
        /* fio cuts a line at the first '#' or ';' (a trailing comment) */
        s[strcspn(s, "#;")] = '\0';
        s = trim(s);
        if (lx->nr_sec == 0)
            return fail(err, errlen, "line %u: option '%s' before any [section]", line, s);
        int rc = expand(s, buf, sizeof(buf), line, err, errlen);
        if (rc)
            return rc;
        if (lx->nr_kv == lx->cap_kv) {
            uint32_t cap = lx->cap_kv ? lx->cap_kv * 2 : 64;
            struct iom_fio_kv *nk = realloc(lx->kv, cap * sizeof(*nk));
            if (!nk)
                return -ENOMEM;
            lx->kv = nk;
            lx->cap_kv = cap;
        }
        struct iom_fio_kv *kv = &lx->kv[lx->nr_kv];
        memset(kv, 0, sizeof(*kv));
        char *eq = strchr(buf, '=');
        if (eq)
            *eq = '\0';
        char *name = trim(buf), *val = eq ? trim(eq + 1) : (char *)"";
        char sub[600];
        if (*val && builtins(val, sub, sizeof(sub)))
            val = sub;
        if (!*name || strlen(name) >= sizeof(kv->name) || strlen(val) >= sizeof(kv->value))
            return fail(err, errlen, "line %u: '%s': option name or value too long or empty", line,
                        s);
        snprintf(kv->name, sizeof(kv->name), "%s", name);
        snprintf(kv->value, sizeof(kv->value), "%s", val);
        kv->line = line;
        lx->nr_kv++;
        lx->sec[lx->nr_sec - 1].nr++;
    }
    return 0;
}

/* ---- options ---- */

/* What a job's options set beyond the iom_job fields. */
struct state {
    char filename[4096];
    bool filename_append;           /* job file lines add files (fio); command line replaces */
    char directory[1024];
    uint64_t filesize, io_size;
    bool size_given, runtime_given, time_based, stonewall, new_group, group_reporting;
    bool randrepeat, seed_given;
    bool norandommap, invalidate, do_verify;
    uint32_t loops;
    uint32_t size_pct, offset_pct;  /* size=N% / offset=N% of the file */
    uint64_t rw_skip;               /* rw=read:<nr> */
    uint64_t number_ios;            /* number_ios=N: stop after N I/Os */
    char random_generator[16];
    char jobname[IOM_NAME_LEN];
};

/* fio names handled by the native option table with the same meaning */
static const char *const native_names[][2] = {
    {"rw", "rw"}, {"readwrite", "rw"}, {"bs", "bs"}, {"blocksize", "bs"}, {"bssplit", "bssplit"},
    {"blockalign", "blockalign"}, {"ba", "blockalign"}, {"iodepth", "iodepth"},
    {"numjobs", "numjobs"}, {"size", "size"}, {"offset", "offset"}, {"runtime", "runtime"},
    {"timeout", "runtime"}, {"ramp_time", "ramp_time"}, {"ioengine", "ioengine"},
    {"direct", "direct"}, {"buffered", "buffered"}, {"rwmixread", "rwmixread"},
    {"rwmixwrite", "rwmixwrite"}, {"percentage_random", "percentage_random"},
    {"random_distribution", "random_distribution"}, {"zero_buffers", "zero_buffers"},
    {"randseed", "randseed"}, {"sync", "sync"}, {"rate_iops", "rate_iops"}, {"rate", "rate"},
};

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

static const char *const split_rw_opts[] = {"bs", "blocksize", "bssplit", "blockalign", "ba",
                                            "rate", "rate_iops", NULL};

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

/* Apply one option. Returns 0, -ENOENT (outside the subset; err says why) or -EINVAL. */
static int apply(const struct iom_fio_kv *kv0, struct iom_job *job, struct state *st, char *err,
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
        if (arith(v, kv->value, sizeof(kv->value)))
            return fail(err, errlen, "%s: %s=%s: not an arithmetic expression fio evaluates "
                        "(whole numbers with + - * / %% ^ and parentheses, no units)", where, n, v);
    }
    if (strcmp(n, "ioengine") == 0 && !iom_engine_find(v)) {
        char list[160];
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
        strcmp(n, "verify_backlog") == 0)
        return 0;
    /* fio's switches that turn some of its statistics off or on: iomark
     * measures and reports latency and bandwidth whatever they say */
    if (strcmp(n, "disable_lat") == 0 || strcmp(n, "disable_clat") == 0 ||
        strcmp(n, "disable_slat") == 0 || strcmp(n, "disable_bw_measurement") == 0 ||
        strcmp(n, "disable_bw") == 0 || strcmp(n, "clat_percentiles") == 0 ||
        strcmp(n, "lat_percentiles") == 0 || strcmp(n, "slat_percentiles") == 0) {
        bool b;
        return fio_bool(kv, &b, err, errlen);
    }
    if (strcmp(n, "kb_base") == 0) {
        if (strcmp(v, "1024") != 0) {
            snprintf(err, errlen, "%s: kb_base=%s (iomark reads sizes with kb_base=1024, fio's "
                     "default)", where, v);
            return -ENOENT;
        }
        return 0;
    }
    if (strcmp(n, "number_ios") == 0) {
        if (iom_parse_u64(v, &u, &why) || u == 0)
            return fail(err, errlen, "%s: number_ios=%s: a whole number above 0", where, v);
        st->number_ios = u;
        return 0;
    }
    if ((strcmp(n, "rw") == 0 || strcmp(n, "readwrite") == 0) && strstr(v, "trim")) {
        snprintf(err, errlen, "%s: %s=%s (trims: iomark issues reads and writes only)", where, n,
                 v);
        return -ENOENT;
    }
    if (strcmp(n, "norandommap") == 0)
        return fio_bool(kv, &st->norandommap, err, errlen);
    if (strcmp(n, "invalidate") == 0)
        return fio_bool(kv, &st->invalidate, err, errlen);
    if (strcmp(n, "do_verify") == 0)
        return fio_bool(kv, &st->do_verify, err, errlen);
    if (strcmp(n, "random_generator") == 0) {
        if (strcmp(v, "tausworthe") && strcmp(v, "lfsr") && strcmp(v, "tausworthe64"))
            return fail(err, errlen, "%s: random_generator=%s: allowed: tausworthe, lfsr, "
                        "tausworthe64 (iomark draws with xoshiro256** whichever is named)", where, v);
        snprintf(st->random_generator, sizeof(st->random_generator), "%s", v);
        return 0;
    }
    if (strcmp(n, "continue_on_error") == 0) {
        if (strcmp(v, "none") == 0 || strcmp(v, "0") == 0)
            job->continue_on_error = false;
        else if (strcmp(v, "all") == 0 || strcmp(v, "1") == 0 || !*v)
            job->continue_on_error = true;
        else {
            snprintf(err, errlen, "%s: continue_on_error=%s (iomark continues on every error "
                     "class or none: allowed none, 0, all, 1)", where, v);
            return -ENOENT;
        }
        return 0;
    }
    if (strcmp(n, "verify") == 0) {
        if (strcmp(v, "0") == 0 || strcmp(v, "none") == 0)
            job->verify = false;
        else if (strcmp(v, "crc32c") == 0 || strcmp(v, "crc32c-intel") == 0)
            job->verify = true;
        else {
            snprintf(err, errlen, "%s: verify=%s (iomark verifies with crc32c only)", where, v);
            return -ENOENT;
        }
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

    for (int i = 0; split_rw_opts[i]; i++)
        if (strcmp(n, split_rw_opts[i]) == 0 && strchr(v, ','))
            return fail(err, errlen, "%s: %s=%s: separate read,write values are not supported; "
                        "give one value", where, n, v);
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
        /* fio 3.33 (str_filename_cb adds each name): every filename= line of the
         * job file, [global] ones included, adds its files; checked with fio --debug=file */
        size_t have = st->filename_append ? strlen(st->filename) : 0;
        if (have && have + 1 + strlen(v) >= sizeof(st->filename))
            return fail(err, errlen, "%s: filename=%s: the names of one job exceed %zu characters",
                        where, v, sizeof(st->filename) - 1);
        snprintf(st->filename + have, sizeof(st->filename) - have, "%s%s", have ? ":" : "", v);
        return 0;
    }
    if (strcmp(n, "directory") == 0) {
        if (!*v || strlen(v) >= sizeof(st->directory) || strchr(v, ':'))
            return fail(err, errlen, "%s: directory=%s: one folder (several joined by ':' are "
                        "not supported)", where, v);
        snprintf(st->directory, sizeof(st->directory), "%s", v);
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
         * (offset += bs + 8k); negative skips and random patterns' ":<nr>"
         * (a new random offset every nr I/Os) are not in iomark */
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
        if (iom_rw_parse(pat, &rw) == 0 && (rw == IOM_RW_READ || rw == IOM_RW_WRITE ||
                                            rw == IOM_RW_RW) && colon[1] != '-') {
            if (iom_parse_size(colon + 1, &u, &why))
                return fail(err, errlen, "%s: %s=%s: the skip after ':' needs a size, e.g. 8k",
                            where, n, v);
            job->rw = rw;
            st->rw_skip = u; /* the block size is added in build_job */
            return 0;
        }
        snprintf(err, errlen, "%s: %s=%s (the ':<nr>' modifier of %s; iomark has skips of "
                 "sequential patterns only)", where, n, v, colon[1] == '-' ? "backward skips" :
                 "random patterns");
        return -ENOENT;
    }
    for (size_t i = 0; i < sizeof(native_names) / sizeof(native_names[0]); i++) {
        if (strcmp(n, native_names[i][0]) != 0)
            continue;
        struct iom_run_opts ro = {0};
        char nerr[300];
        bool flag = !*v && (strcmp(n, "direct") == 0 || strcmp(n, "buffered") == 0 ||
                            strcmp(n, "zero_buffers") == 0);
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
    snprintf(err, errlen, "%s: %s%s%s", where, n, *v ? "=" : "", v);
    return -ENOENT;
}

/* Add text (one skipped or refused option, "line N: name=value (why)") to a list, once. */
static void add_line(char list[][200], uint32_t *nr, const char *s)
{
    for (uint32_t i = 0; i < *nr; i++)
        if (strcmp(list[i], s) == 0)
            return;
    if (*nr < IOM_FIO_MAX_IGNORED)
        snprintf(list[(*nr)++], sizeof(list[0]), "%s", s);
}

/* An option apply() returned -ENOENT for: skipped (--ignore-unknown) or refused. */
static void not_run(struct iom_fio_file *f, const struct iom_fio_parse_opts *po, const char *why)
{
    if (po && po->ignore_unknown)
        add_line(f->ignored, &f->nr_ignored, why);
    else
        add_line(f->refused, &f->nr_refused, why);
}

/* Split "a:b\:c" on unescaped ':' into files[]. */
static int split_files(const char *list, char files[][1024], uint32_t *n)
{
    *n = 0;
    size_t o = 0;
    char cur[1024];
    for (const char *p = list;; p++) {
        if (*p == '\\' && p[1] == ':') {
            if (o + 1 < sizeof(cur))
                cur[o++] = ':';
            p++;
            continue;
        }
        if (*p == ':' || *p == '\0') {
            cur[o] = '\0';
            if (o) {
                if (*n == MAX_FILES)
                    return -E2BIG;
                snprintf(files[(*n)++], 1024, "%s", cur);
            }
            o = 0;
            if (!*p)
                break;
            continue;
        }
        if (o + 1 < sizeof(cur))
            cur[o++] = *p;
    }
    return 0;
}

static const char *map_name(const struct iom_fio_parse_opts *po, const char *name)
{
    for (uint32_t i = 0; po && i < po->nr_maps; i++)
        if (strcmp(po->map_from[i], name) == 0)
            return po->map_to[i];
    return NULL;
}

static int build_job(struct iom_fio_file *f, const struct lexed *lx, uint32_t sec_idx,
                     const struct iom_fio_parse_opts *po, struct iom_fio_job *fj, char *err,
                     size_t errlen)
{
    const struct section *sec = &lx->sec[sec_idx];
    struct iom_job *job = &fj->job;
    struct state st;
    memset(&st, 0, sizeof(st));
    st.loops = 1;
    st.randrepeat = true;
    st.invalidate = true;  /* fio's default */
    st.do_verify = true;
    snprintf(st.jobname, sizeof(st.jobname), "%s", sec->name);
    /* fio's defaults: rw=read, bs=4k, iodepth=1, psync, buffered, no runtime limit */
    iom_job_defaults(job);
    job->rw = IOM_RW_READ;
    job->direct = false;
    strcpy(job->ioengine, "psync");
    job->runtime_ns = 0;

    /* every [global] before this section, then the section, then the command line */
    for (int pass = 0; pass < 3; pass++) {
        const struct iom_fio_kv *list = NULL;
        uint32_t n = 0;
        st.filename_append = pass < 2;
        for (uint32_t s = 0; pass == 0 && s < sec_idx; s++) {
            if (!lx->sec[s].global)
                continue;
            for (uint32_t k = 0; k < lx->sec[s].nr; k++) {
                const struct iom_fio_kv *kv = &lx->kv[lx->sec[s].first + k];
                int rc = apply(kv, job, &st, err, errlen);
                if (rc == -ENOENT) {
                    not_run(f, po, err);
                    continue;
                }
                if (rc)
                    return -EINVAL;
            }
        }
        if (pass == 1) {
            list = lx->kv ? &lx->kv[sec->first] : NULL; /* no pointer arithmetic on NULL */
            n = lx->kv ? sec->nr : 0;
        } else if (pass == 2 && po) {
            list = po->overrides;
            n = po->nr_overrides;
        }
        for (uint32_t k = 0; k < n; k++) {
            int rc = apply(&list[k], job, &st, err, errlen);
            if (rc == -ENOENT) {
                not_run(f, po, err); /* the command line as the file (--ignore-unknown) */
                continue;
            }
            if (rc)
                return -EINVAL;
        }
    }
    if (f->nr_refused)
        return 0; /* the caller lists every refused option of the file at once */
    /* "job options": the section's own, then the command line's, replacing an
     * option of the same name (what took effect); skipped ones are not here */
    for (uint32_t k = 0; k < sec->nr && fj->nr_opts < IOM_FIO_MAX_OPTS; k++)
        fj->opts[fj->nr_opts++] = lx->kv[sec->first + k];
    for (uint32_t k = 0; po && k < po->nr_overrides; k++) {
        const struct iom_fio_kv *o = &po->overrides[k];
        bool skipped = false;
        for (uint32_t i = 0; i < f->nr_ignored; i++)
            if (strncmp(f->ignored[i], "command line: ", 14) == 0 &&
                strncmp(f->ignored[i] + 14, o->name, strlen(o->name)) == 0)
                skipped = true;
        if (skipped)
            continue;
        uint32_t i;
        for (i = 0; i < fj->nr_opts; i++)
            if (strcmp(fj->opts[i].name, o->name) == 0)
                break;
        if (i < fj->nr_opts)
            fj->opts[i] = *o;
        else if (fj->nr_opts < IOM_FIO_MAX_OPTS)
            fj->opts[fj->nr_opts++] = *o;
    }
    /* fio's defaults that iomark follows: a random map (norandommap=0) and
     * invalidate=1; both recorded in the report */
    job->random_map = !st.norandommap;
    job->invalidate = st.invalidate;
    fj->size_pct = st.size_pct;
    fj->offset_pct = st.offset_pct;
    fj->filesize = st.filesize;
    snprintf(fj->random_generator, sizeof(fj->random_generator), "%s",
             st.random_generator[0] ? st.random_generator : "tausworthe");
    if (st.rw_skip)
        job->seq_stride_bytes = iom_job_max_bs(job) + st.rw_skip;
    /* fio: sequential clones of one job on one file each walk the region from
     * its start (offset_increment, not in iomark, would space them); iomark's
     * native --numjobs gives each thread a slice instead */
    bool seq_clones = !iom_job_random(job) && job->numjobs > 1 && st.filename[0];
    if (seq_clones)
        job->seq_same_start = true;
    snprintf(fj->note, sizeof(fj->note), "%s%s",
             seq_clones ? "sequential clones each cover the whole region from its start (fio); " : "",
             job->invalidate ? "invalidate=1: cached pages dropped before the run (fio's default)"
                             : "invalidate=0: cached pages kept");

    snprintf(fj->jobname, sizeof(fj->jobname), "%s", st.jobname);
    snprintf(job->name, sizeof(job->name), "%s", st.jobname);
    fj->line = sec->line;
    fj->time_based = st.time_based;
    fj->loops = st.loops;
    fj->group_reporting = st.group_reporting;
    fj->fio_numjobs = job->numjobs;
    fj->fio_iodepth = job->iodepth;
    fj->groupid = st.stonewall || st.new_group ? 1 : 0; /* marks; numbered by the caller */
    fj->step = st.stonewall ? 1 : 0;
    if (!st.randrepeat && !st.seed_given)
        job->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ sec->line;

    if (st.time_based && !st.runtime_given) {
        /* fio 3.33 prints "fio: time_based requires a runtime/timeout setting" and
         * runs the job size-based (checked: size=64k bs=4k does 16 reads) */
        fprintf(stderr, "iomark: warning: line %u: [%s]: time_based requires a runtime/timeout setting; "
                "the job runs size-based (as fio)\n", sec->line, sec->name);
        st.time_based = false;
        fj->time_based = false;
    }

    /* files */
    static char files[MAX_FILES][1024];
    uint32_t k = 0;
    bool named = st.filename[0] != '\0';
    fj->generated_files = !named;
    if (named) {
        if (split_files(st.filename, files, &k) || k == 0)
            return fail(err, errlen, "line %u: [%s]: filename: 1 to %d names joined by ':'",
                        sec->line, sec->name, MAX_FILES);
    } else {
        if (job->numjobs > MAX_FILES)
            return fail(err, errlen, "line %u: [%s]: numjobs=%u without filename would make %u "
                        "files; at most %d", sec->line, sec->name, job->numjobs, job->numjobs,
                        MAX_FILES);
        for (uint32_t c = 0; c < job->numjobs; c++)
            snprintf(files[k++], 1024, "%s.%u.0", st.jobname, c);
    }
    for (uint32_t i = 0; i < k; i++) {
        char path[2100];
        const char *m = map_name(po, files[i]);
        if (m)
            snprintf(path, sizeof(path), "%s", m);
        else if (st.directory[0] && files[i][0] != '/')
            snprintf(path, sizeof(path), "%s/%s", st.directory, files[i]);
        else
            snprintf(path, sizeof(path), "%s", files[i]);
        const char *m2 = map_name(po, path);
        if (iom_job_add_target(job, m2 ? m2 : path))
            return -ENOMEM;
    }
    for (uint32_t i = 0; i < job->nr_targets; i++)
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(job->targets[i], job->targets[j]) == 0)
                return fail(err, errlen, "line %u: [%s]: file %s is named twice", sec->line,
                            sec->name, job->targets[i]);

    /* sizes: fio's size is the job's total over its files, filesize one file's size */
    uint64_t size = job->size_bytes, bs = iom_job_max_bs(job);
    uint64_t per_file_io;
    if (named) {
        uint64_t share = size / k;
        share -= share % bs;
        if (st.size_given && !st.size_pct && share == 0)
            return fail(err, errlen, "line %u: [%s]: size=%llu over %u files leaves less than one "
                        "block per file", sec->line, sec->name, (unsigned long long)size, k);
        job->size_bytes = st.filesize ? st.filesize : share;
        per_file_io = st.size_given ? share : st.filesize;
        if (k > 1) {
            uint32_t d = job->iodepth;
            job->iodepth = (d + k - 1) / k;
            if (job->rate_iops)
                job->rate_iops = (job->rate_iops + k - 1) / k;
            if (job->rate_bytes_per_s)
                job->rate_bytes_per_s = (job->rate_bytes_per_s + k - 1) / k;
            snprintf(fj->note, sizeof(fj->note),
                     "%u files: run as one thread per file and clone, iodepth %u%s each "
                     "(fio: one thread per clone, iodepth %u over all files)", k, job->iodepth,
                     job->rate_iops || job->rate_bytes_per_s ? " and 1/k of the rate" : "", d);
        }
    } else {
        job->numjobs = 1; /* one generated file per clone */
        job->size_bytes = st.filesize ? st.filesize : size;
        per_file_io = st.size_given ? size : st.filesize;
    }
    if (st.io_size) /* io_size: the job's I/O amount instead of size */
        per_file_io = named ? st.io_size / k : st.io_size;
    if (st.number_ios) { /* fio's number_ios: N I/Os per clone, here as bytes */
        if (job->nr_bssplit)
            return fail(err, errlen, "line %u: [%s]: number_ios with bssplit/bsrange: iomark "
                        "limits I/O in bytes, which mixed sizes make inexact", sec->line,
                        sec->name);
        uint64_t b = st.number_ios * job->bs_bytes / (named ? k : 1);
        if (!per_file_io || b < per_file_io)
            per_file_io = b ? b : job->bs_bytes;
    }
    if (!st.time_based) {
        if (per_file_io) {
            if ((unsigned __int128)per_file_io * st.loops > UINT64_MAX)
                return fail(err, errlen, "line %u: [%s]: size x loops is too large", sec->line,
                            sec->name);
            job->io_limit_bytes = per_file_io * st.loops;
        } else {
            /* the size of the file or device: set by the caller once known */
            fj->limit_is_region = true;
            job->io_limit_bytes = UINT64_MAX;
        }
    }
    if (job->nr_targets == 0)
        return fail(err, errlen, "line %u: [%s]: no file", sec->line, sec->name);
    return 0;
}

int iom_fio_parse_text(const char *text, const struct iom_fio_parse_opts *po,
                       struct iom_fio_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct lexed lx = {0};
    int rc = lex(text, &lx, err, errlen);
    if (rc)
        goto out;
    uint32_t nj = 0;
    for (uint32_t s = 0; s < lx.nr_sec; s++) {
        if (lx.sec[s].global) {
            for (uint32_t k = 0; k < lx.sec[s].nr && out->nr_global < IOM_FIO_MAX_OPTS; k++)
                out->global[out->nr_global++] = lx.kv[lx.sec[s].first + k];
        } else {
            nj++;
        }
    }
    if (nj == 0) {
        rc = fail(err, errlen, "no job section: a job file needs at least one [name] section "
                  "besides [global]");
        goto out;
    }
    out->jobs = calloc(nj, sizeof(*out->jobs));
    if (!out->jobs) {
        rc = -ENOMEM;
        goto out;
    }
    uint32_t step = 0, group = 0;
    for (uint32_t s = 0; s < lx.nr_sec; s++) {
        if (lx.sec[s].global)
            continue;
        struct iom_fio_job *fj = &out->jobs[out->nr_jobs];
        rc = build_job(out, &lx, s, po, fj, err, errlen);
        out->nr_jobs++; /* counted even on failure, so free() sees its targets */
        if (rc)
            goto out;
        if (out->nr_refused)
            continue;
        if (out->nr_jobs > 1) {
            step += fj->step;
            group += fj->groupid;
        }
        fj->step = step;
        fj->groupid = group;
    }
    if (out->nr_refused) {
        size_t o = (size_t)snprintf(err, errlen, "%u option%s iomark does not run (see "
                                    "docs/fio-jobs.md; --ignore-unknown skips them): ",
                                    out->nr_refused, out->nr_refused > 1 ? "s" : "");
        for (uint32_t i = 0; i < out->nr_refused && o < errlen; i++)
            o += (size_t)snprintf(err + o, errlen - o, "%s%s", i ? "; " : "", out->refused[i]);
        rc = -EINVAL;
        goto out;
    }
    out->nr_steps = step + 1;
    out->nr_groups = group + 1;
out:
    free(lx.kv);
    free(lx.sec);
    if (rc)
        iom_fio_file_free(out);
    return rc;
}

int iom_fio_parse_file(const char *path, const struct iom_fio_parse_opts *po,
                       struct iom_fio_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    FILE *f = fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    size_t cap = 65536, len = 0;
    char *text = malloc(cap);
    int rc = 0;
    while (text) {
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (len < cap - 1)
            break;
        if (cap >= (size_t)16 << 20) {
            rc = fail(err, errlen, "%s: larger than 16 MiB; not a job file", path);
            break;
        }
        char *t = realloc(text, cap * 2);
        if (!t) {
            free(text);
            text = NULL;
            break;
        }
        text = t;
        cap *= 2;
    }
    fclose(f);
    if (!text)
        return -ENOMEM;
    text[len] = '\0';
    if (!rc && memchr(text, '\0', len))
        rc = fail(err, errlen, "%s: contains NUL bytes; not a job file", path);
    if (!rc)
        rc = iom_fio_parse_text(text, po, out, err, errlen);
    free(text);
    return rc;
}

bool iom_fio_is_jobfile(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    size_t l = strlen(arg);
    if (l > 4 && strcmp(arg + l - 4, ".fio") == 0)
        return true;
    int fd = open(arg, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[4097];
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    if (memchr(buf, '\0', (size_t)n))
        return false; /* binary data: a test file, not a job file */
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *s = trim(line);
        if (!*s || *s == ';' || *s == '#')
            continue;
        size_t sl = strlen(s);
        return s[0] == '[' && sl > 2 && s[sl - 1] == ']';
    }
    return false;
}

int iom_fio_resolve_pct(struct iom_fio_job *fj, char *err, size_t errlen)
{
    struct iom_job *job = &fj->job;
    if (!fj->size_pct && !fj->offset_pct)
        return 0;
    uint64_t fsize = 0;
    struct stat sb;
    if (job->nr_targets && stat(job->targets[0], &sb) == 0) {
        if (S_ISREG(sb.st_mode)) {
            fsize = (uint64_t)sb.st_size;
        } else if (S_ISBLK(sb.st_mode)) {
            int fd = open(job->targets[0], O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                off_t end = lseek(fd, 0, SEEK_END);
                fsize = end > 0 ? (uint64_t)end : 0;
                close(fd);
            }
        }
    }
    if (!fsize)
        fsize = fj->filesize;
    if (!fsize)
        return fail(err, errlen, "line %u: [%s]: size=%u%%/offset=%u%% needs the file's size: "
                    "%s does not exist and the job has no filesize=", fj->line, fj->jobname,
                    fj->size_pct, fj->offset_pct, job->nr_targets ? job->targets[0] : "?");
    uint64_t bs = iom_job_max_bs(job);
    if (fj->offset_pct) { /* fio: aligned up to the block size (offset_align=0) */
        uint64_t off = fsize / 100 * fj->offset_pct + fsize % 100 * fj->offset_pct / 100;
        off = (off + bs - 1) / bs * bs;
        job->offset_bytes = off;
    }
    if (fj->size_pct) {
        uint64_t sz = fsize / 100 * fj->size_pct + fsize % 100 * fj->size_pct / 100;
        sz -= sz % bs;
        if (!sz)
            return fail(err, errlen, "line %u: [%s]: size=%u%% of %llu bytes is less than one "
                        "block", fj->line, fj->jobname, fj->size_pct, (unsigned long long)fsize);
        job->size_bytes = sz;
        if (!fj->time_based && fj->limit_is_region) {
            job->io_limit_bytes = sz * fj->loops;
            fj->limit_is_region = false;
        }
    }
    return 0;
}

void iom_fio_file_free(struct iom_fio_file *f)
{
    for (uint32_t i = 0; i < f->nr_jobs; i++)
        iom_job_free(&f->jobs[i].job);
    free(f->jobs);
    memset(f, 0, sizeof(*f));
}
