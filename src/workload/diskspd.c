/* diskspd.c - DiskSpd 2.x command-line flags -> struct iom_job (see diskspd.h). */
#include "workload/diskspd.h"
#include "workload/args.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SEC UINT64_C(1000000000)

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

static void warn(struct iom_diskspd *ds, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct iom_diskspd *ds, const char *fmt, ...)
{
    if (ds->nr_warnings == IOM_DSPD_MAX_WARN)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ds->warnings[ds->nr_warnings++], sizeof(ds->warnings[0]), fmt, ap);
    va_end(ap);
}

/* DiskSpd's size syntax: digits, then nothing or one of K M G T (binary) or
 * b (blocks of block_bytes), case-insensitive. *rest (when not NULL) gets
 * what follows, for -rdabs lists; otherwise trailing text is an error. */
static int dsize(const char *s, uint64_t block_bytes, uint64_t *out, const char **rest)
{
    if (!isdigit((unsigned char)*s))
        return -EINVAL;
    uint64_t v = 0;
    while (isdigit((unsigned char)*s)) {
        unsigned d = (unsigned)(*s++ - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -ERANGE;
        v = v * 10 + d;
    }
    uint64_t mul = 1;
    switch (toupper((unsigned char)*s)) {
    case 'T': mul <<= 10; /* fall through */
    case 'G': mul <<= 10; /* fall through */
    case 'M': mul <<= 10; /* fall through */
    case 'K': mul <<= 10; s++; break;
    case 'B': mul = block_bytes; s++; break;
    default: break;
    }
    if (!rest && *s)
        return -EINVAL;
    if (mul && v > UINT64_MAX / mul)
        return -ERANGE;
    *out = v * mul;
    if (rest)
        *rest = s;
    return 0;
}

/* A whole decimal number with nothing after it, at most max. */
static int dnum(const char *s, uint64_t max, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return -EINVAL;
    uint64_t v = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s))
            return -EINVAL;
        v = v * 10 + (unsigned)(*s - '0');
        if (v > max)
            return -ERANGE;
    }
    *out = v;
    return 0;
}

#define SIZE_WHY "digits with an optional K, M, G, T (KiB..TiB) or b (blocks), e.g. 64K or 100b"

static int parse_rd(struct iom_diskspd *ds, const char *flag, const char *s, char *err,
                    size_t errlen)
{
    bool pct = strncmp(s, "pct", 3) == 0;
    if (!pct && strncmp(s, "abs", 3) != 0)
        return fail(err, errlen, "%s: unknown distribution; allowed: -rdpct<IO%%/target%%:...>, "
                    "-rdabs<IO%%/size:...>", flag);
    s += 3;
    uint32_t io_acc = 0, n = 0;
    uint64_t tgt_acc = 0;
    ds->job.nr_zones = 0;
    while (1) {
        if (n == IOM_DSPD_MAX_RANGES)
            return fail(err, errlen, "%s: at most %d ranges", flag, IOM_DSPD_MAX_RANGES);
        char *end;
        if (!isdigit((unsigned char)*s))
            return fail(err, errlen, "%s: expected IO%% (a whole number) at '%s'", flag, s);
        unsigned long io = strtoul(s, &end, 10);
        if (io > 100 || io_acc + io > 100)
            return fail(err, errlen, "%s: the IO%% values add up to more than 100", flag);
        if (*end != '/')
            return fail(err, errlen, "%s: expected '/' after %lu", flag, io);
        s = end + 1;
        uint64_t span;
        if (pct) {
            if (!isdigit((unsigned char)*s))
                return fail(err, errlen, "%s: expected target%% at '%s'", flag, s);
            span = strtoull(s, &end, 10);
            if (span == 0 || tgt_acc + span > 100)
                return fail(err, errlen, "%s: each target%% must be above 0 and they add up to "
                            "at most 100", flag);
            s = end;
            ds->job.zones[n].access_pct = (uint32_t)io;
            ds->job.zones[n].range_pct = (uint32_t)span;
        } else {
            const char *rest;
            if (dsize(s, ds->job.bs_bytes, &span, &rest) || span == 0)
                return fail(err, errlen, "%s: each range needs a size above 0 (" SIZE_WHY ")", flag);
            s = rest;
            ds->ranges[n].io_pct = (uint32_t)io;
            ds->ranges[n].span_bytes = span;
        }
        io_acc += (uint32_t)io;
        tgt_acc += span;
        n++;
        if (*s == ':') {
            s++;
            continue;
        }
        if (*s)
            return fail(err, errlen, "%s: unexpected '%s'", flag, s);
        break;
    }
    if (pct) {
        /* DiskSpd: an IO remainder goes to the rest of the target */
        if (io_acc < 100 || tgt_acc < 100) {
            if (tgt_acc == 100)
                return fail(err, errlen, "%s: the IO%% add up to %u but the ranges cover the whole "
                            "target; nothing is left for the remaining %u%%", flag, io_acc,
                            100 - io_acc);
            ds->job.zones[n].access_pct = 100 - io_acc;
            ds->job.zones[n].range_pct = (uint32_t)(100 - tgt_acc);
            n++;
        }
        ds->job.nr_zones = n;
        ds->job.dist = IOM_DIST_ZONED;
        ds->dist = IOM_DSPD_DIST_PCT;
    } else {
        ds->nr_ranges = n;
        ds->dist = IOM_DSPD_DIST_ABS;
    }
    return 0;
}

int iom_diskspd_resolve(struct iom_diskspd *ds, uint64_t target_bytes, char *err, size_t errlen)
{
    if (ds->dist != IOM_DSPD_DIST_ABS)
        return 0;
    if (target_bytes == 0)
        return fail(err, errlen, "-rdabs: the target size is unknown");
    /* cut at the end of the target */
    double io[IOM_MAX_ZONES], span[IOM_MAX_ZONES];
    uint32_t n = 0, io_sum = 0;
    uint64_t acc = 0;
    for (uint32_t i = 0; i < ds->nr_ranges && acc < target_bytes; i++) {
        uint64_t s = ds->ranges[i].span_bytes;
        if (s > target_bytes - acc)
            s = target_bytes - acc;
        io[n] = ds->ranges[i].io_pct;
        span[n] = (double)s;
        io_sum += ds->ranges[i].io_pct;
        acc += s;
        n++;
    }
    uint64_t listed = 0;
    for (uint32_t i = 0; i < ds->nr_ranges; i++)
        listed += ds->ranges[i].span_bytes;
    bool cut = listed > target_bytes;
    if (!cut && acc < target_bytes) {
        /* the rest of the target gets the IO remainder (maybe 0%: a gap) */
        io[n] = 100.0 - io_sum;
        span[n] = (double)(target_bytes - acc);
        io_sum = 100;
        n++;
    } else if (!cut && io_sum < 100) {
        return fail(err, errlen, "-rdabs: the IO%% add up to %u but the ranges cover the whole "
                    "target", io_sum);
    }
    double io_total = 0;
    for (uint32_t i = 0; i < n; i++)
        io_total += io[i];
    if (io_total <= 0)
        return fail(err, errlen, "-rdabs: no range with I/O lies inside the target (%llu bytes)",
                    (unsigned long long)target_bytes);
    /* whole percentages, largest-remainder rounding so both columns add to 100 */
    uint32_t a_pct[IOM_MAX_ZONES], r_pct[IOM_MAX_ZONES];
    for (int col = 0; col < 2; col++) {
        double *v = col ? span : io, tot = 0;
        uint32_t *out = col ? r_pct : a_pct, sum = 0;
        for (uint32_t i = 0; i < n; i++)
            tot += v[i];
        double frac[IOM_MAX_ZONES];
        for (uint32_t i = 0; i < n; i++) {
            double x = v[i] * 100.0 / tot;
            out[i] = (uint32_t)x;
            frac[i] = x - out[i];
            sum += out[i];
        }
        while (sum < 100) {
            uint32_t best = 0;
            for (uint32_t i = 1; i < n; i++)
                if (frac[i] > frac[best])
                    best = i;
            out[best]++;
            frac[best] = -1;
            sum++;
        }
        for (uint32_t i = 0; i < n; i++) {
            double exact = v[i] * 100.0 / tot;
            if (col && (exact - out[i] > 0.5 || out[i] - exact > 0.5))
                warn(ds, "-rdabs: range %u is %.2f%% of the %llu-byte target; iomark's zones are "
                     "whole percentages, so it becomes %u%%", i + 1, exact,
                     (unsigned long long)target_bytes, out[i]);
        }
    }
    /* a zone rounded to 0% of the range still gets its I/O: the offset
     * generator gives such a zone one alignment unit */
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++, m++) {
        ds->job.zones[m].access_pct = a_pct[i];
        ds->job.zones[m].range_pct = r_pct[i];
    }
    ds->job.nr_zones = m;
    ds->job.dist = IOM_DIST_ZONED;
    return 0;
}

void iom_diskspd_free(struct iom_diskspd *ds)
{
    iom_job_free(&ds->job);
}

/* Refused targets: Windows device syntax that has no Linux meaning. */
static int check_target(const char *t, char *err, size_t errlen)
{
    if (iom_args_dash_check(t, err, errlen))
        return -EINVAL;
    if (t[0] == '#')
        return fail(err, errlen, "target %s: DiskSpd's #<disk number> is Windows syntax; name the "
                    "block device (e.g. /dev/sdb, /dev/nvme0n1)", t);
    if (t[0] == '*')
        return fail(err, errlen, "target %s: template targets (*N) belong to XML profiles (-X), "
                    "which iomark does not read; name a file or block device", t);
    if (isalpha((unsigned char)t[0]) && t[1] == ':')
        return fail(err, errlen, "target %s: a Windows drive path; name a Linux file or block "
                    "device (e.g. /mnt/data/test.dat)", t);
    return 0;
}

static void build_cmdline(struct iom_diskspd *ds, int argc, char **argv, int first)
{
    size_t off = (size_t)snprintf(ds->cmdline, sizeof(ds->cmdline), "diskspd");
    for (int i = first; i < argc && off < sizeof(ds->cmdline); i++)
        off += (size_t)snprintf(ds->cmdline + off, sizeof(ds->cmdline) - off, " %s", argv[i]);
}

static void defaults(struct iom_diskspd *ds)
{
    memset(ds, 0, sizeof(*ds));
    iom_job_defaults(&ds->job);
    strcpy(ds->job.name, "diskspd");
    ds->job.rw = IOM_RW_READ;
    ds->job.bs_bytes = 64 * 1024;
    ds->job.iodepth = 2;
    ds->job.numjobs = 1;
    ds->job.direct = false;  /* DiskSpd caches unless -S/-Su/-Sh */
    ds->job.keep = true;     /* DiskSpd keeps the file -c creates; --keep=0 removes it */
    ds->duration_s = 10;
    ds->warmup_s = 5;
    ds->threads_per_target = 1;
    ds->outstanding = 2;
    ds->bucket_ms = 1000;
    ds->io_priority = 3;
}

/* iomark's own options allowed on a DiskSpd command line */
static const char *const extra_opts[] = {"ioengine", "output", "quiet", "status-interval", "force", "keep", "help",
                                         "randseed", NULL};

static int parse_args(int argc, char **argv, int first, struct iom_diskspd *ds,
                      struct iom_run_opts *ro, char *err, size_t errlen);

int iom_diskspd_parse(int argc, char **argv, int first, struct iom_diskspd *ds,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    int rc = parse_args(argc, argv, first, ds, ro, err, errlen);
    if (rc)
        iom_diskspd_free(ds); /* nothing owned is left behind on bad input */
    return rc;
}

static int parse_args(int argc, char **argv, int first, struct iom_diskspd *ds,
                      struct iom_run_opts *ro, char *err, size_t errlen)
{
    defaults(ds);
    build_cmdline(ds, argc, argv, first);
    int rc;
    uint64_t v;

    /* pass 1: the block size, so 'b' units mean the final -b in any order */
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] == 'b') {
            if (dsize(a + 2, 1, &v, NULL) || v == 0 || v > (UINT64_C(1) << 30))
                return fail(err, errlen, "%s: block size must be 1 byte to 1G (K, M, G suffixes)",
                            a);
            ds->job.bs_bytes = v;
        }
    }
    const uint64_t bs = ds->job.bs_bytes;
    char cache = 0;   /* 'b', 'u', 'h' once a cache mode was given (DiskSpd refuses twice) */
    bool wt_given = false, seq_given = false, rand_given = false, rs_given = false,
         t_given = false, seed_given = false;
    bool in_targets = false;

    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if ((rc = check_target(a, err, errlen)))
                return rc;
            if (iom_job_add_target(&ds->job, a))
                return -ENOMEM;
            in_targets = true;
            continue;
        }
        if (in_targets)
            return fail(err, errlen, "%s: flags must come before the targets (DiskSpd syntax: "
                        "diskspd [flags] target...)", a);
        if (a[1] == '-') {
            /* iomark's own long options */
            char name[64];
            const char *eq = strchr(a + 2, '=');
            size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (nl == 0 || nl >= sizeof(name))
                return fail(err, errlen, "%s: unknown option", a);
            memcpy(name, a + 2, nl);
            name[nl] = '\0';
            bool ok = false;
            for (int k = 0; extra_opts[k]; k++)
                ok |= strcmp(extra_opts[k], name) == 0;
            if (strcmp(name, "output-format") == 0)
                return fail(err, errlen, "%s: use DiskSpd's -Rtext or -Rxml", a);
            if (!ok)
                return fail(err, errlen, "%s: not a DiskSpd flag; iomark options allowed here: "
                            "--ioengine, --output, --quiet, --status-interval, --force, --keep", a);
            if (iom_option_apply(name, eq ? eq + 1 : NULL, &ds->job, ro, err, errlen))
                return -EINVAL;
            continue;
        }
        const char *p = a + 2; /* value after the flag letter */
        switch (a[1]) {
        case '?':
            ro->help = true;
            break;
        case 'b':
            break; /* pass 1 */
        case 'B':
            if (dsize(p, bs, &v, NULL))
                return fail(err, errlen, "%s: base file offset must be " SIZE_WHY, a);
            ds->base_offset_bytes = v;
            break;
        case 'c':
            if (dsize(p, bs, &v, NULL) || v == 0)
                return fail(err, errlen, "%s: file size must be " SIZE_WHY, a);
            ds->create = true;
            ds->create_bytes = v;
            break;
        case 'C':
        case 'd':
        case 'W': {
            /* DiskSpd reads these with atoi(): "-W" alone is 0 s */
            if (*p == '\0')
                v = 0;
            else if (dnum(p, 100000000, &v))
                return fail(err, errlen, "%s: expects whole seconds, e.g. %c%s", a, a[1],
                            a[1] == 'd' ? "60" : "5");
            if (a[1] == 'd' && v == 0)
                return fail(err, errlen, "%s: the duration must be at least 1 second", a);
            uint32_t *dst = a[1] == 'C' ? &ds->cooldown_s : a[1] == 'd' ? &ds->duration_s
                                                                         : &ds->warmup_s;
            *dst = (uint32_t)v;
            break;
        }
        case 'D':
            ds->iops_stddev = true;
            if (*p) {
                if (dnum(p, 3600000, &v) || v == 0)
                    return fail(err, errlen, "%s: expects an interval in milliseconds, 1 or more", a);
                ds->bucket_ms = (uint32_t)v;
            }
            break;
        case 'e':
            return fail(err, errlen, "%s: Windows event tracing (ETW) has no Linux equivalent in "
                        "iomark; use blktrace or perf alongside the run", a);
        case 'f':
            if (isdigit((unsigned char)*p)) {
                if (dsize(p, bs, &v, NULL) || v == 0)
                    return fail(err, errlen, "%s: target size must be " SIZE_WHY, a);
                ds->max_file_bytes = v;
            } else if (*p && strspn(p, "rst") == strlen(p)) {
                warn(ds, "%s: Windows file access hints (random/sequential/temporary) are not "
                     "used on Linux; ignored", a);
            } else {
                return fail(err, errlen, "%s: allowed: -f<size> or -f with r, s, t hints", a);
            }
            break;
        case 'F':
            if (dnum(p, 4096, &v) || v == 0)
                return fail(err, errlen, "%s: total thread count must be 1 to 4096", a);
            ds->total_threads = (uint32_t)v;
            break;
        case 'g': {
            size_t l = strlen(p);
            bool iops = l && p[l - 1] == 'i';
            char num[32];
            if (l == 0 || l - iops >= sizeof(num))
                return fail(err, errlen, "%s: expects -g<bytes per ms> or -g<IOPS>i", a);
            memcpy(num, p, l - iops);
            num[l - iops] = '\0';
            if (dnum(num, UINT64_MAX / 1000, &v) || v == 0)
                return fail(err, errlen, "%s: expects -g<bytes per ms> or -g<IOPS>i, above 0", a);
            if (iops)
                ds->throughput_iops = v;
            else
                ds->throughput_bpms = v;
            break;
        }
        case 'h':
            if (*p)
                return fail(err, errlen, "%s: unknown flag (-h takes no value)", a);
            if (cache || wt_given)
                return fail(err, errlen, "%s: conflicts with an earlier cache or write-through "
                            "flag", a);
            cache = 'h';
            wt_given = true;
            ds->sw_cache_disabled = ds->write_through = true;
            break;
        case 'i':
        case 'j':
            return fail(err, errlen, "%s: bursts with think time (-i/-j) are not implemented; "
                        "use -g<IOPS>i to pace I/O", a);
        case 'I':
            if (dnum(p, 3, &v) || v == 0)
                return fail(err, errlen, "%s: I/O priority must be 1, 2 or 3", a);
            if (v != 3)
                return fail(err, errlen, "%s: I/O priority hints are not applied; run iomark "
                            "under ionice instead (e.g. ionice -c3)", a);
            ds->io_priority = 3;
            break;
        case 'l':
            warn(ds, "%s: large pages are not used; buffers are ordinary page-aligned memory", a);
            break;
        case 'L':
            ds->measure_latency = true;
            break;
        case 'n':
            break; /* no affinity: iomark never pins threads, same effect */
        case 'a':
#ifdef _WIN32 /* the whole process can be pinned with cmd.exe's start /affinity */
#define PIN_SCHED "the Windows scheduler"
#define PIN_HOW "start /affinity HEXMASK iomark ..."
#else
#define PIN_SCHED "the Linux scheduler"
#define PIN_HOW "taskset -c LIST iomark ..."
#endif
            if (*p == '\0' || strcmp(p, "g") == 0) {
                warn(ds, "%s: threads are not pinned to CPUs (" PIN_SCHED " places them); "
                     "pin the whole run with " PIN_HOW " if needed", a);
                break;
            }
            return fail(err, errlen, "%s: CPU affinity lists are not implemented; run "
                        PIN_HOW " instead", a);
        case 'N':
            return fail(err, errlen, "%s: memory-mapped flush modes need -Sm, which iomark does "
                        "not implement", a);
        case 'o':
            if (dnum(p, 65536, &v) || v == 0)
                return fail(err, errlen, "%s: outstanding I/O per thread per target must be 1 to "
                            "65536", a);
            ds->outstanding = (uint32_t)v;
            break;
        case 'O':
            if (dnum(p, 65536, &v) || v == 0)
                return fail(err, errlen, "%s: outstanding I/O per thread must be 1 to 65536", a);
            ds->requests_per_thread = (uint32_t)v;
            break;
        case 'p':
            return fail(err, errlen, "%s: parallel async I/O at one offset is not implemented", a);
        case 'P':
            warn(ds, "%s: progress dots are not printed; iomark shows a progress line on a "
                 "terminal", a);
            break;
        case 'r':
            if (*p == 's') {
                if (rs_given)
                    return fail(err, errlen, "%s: -rs given twice", a);
                if (seq_given)
                    return fail(err, errlen, "%s: use -r to give the alignment with -rs, not -s", a);
                if (dnum(p + 1, 100, &v) || v == 0)
                    return fail(err, errlen, "%s: random percentage must be 1 to 100", a);
                rs_given = true;
                ds->random = true;
                ds->random_pct = (uint32_t)v;
            } else if (*p == 'd') {
                if ((rc = parse_rd(ds, a, p + 1, err, errlen)))
                    return rc;
            } else {
                if (seq_given)
                    return fail(err, errlen, "%s: sequential I/O (-s) conflicts with random I/O "
                                "(-r)", a);
                if (rand_given)
                    return fail(err, errlen, "%s: random I/O (-r) given twice", a);
                v = 0;
                if (*p && (dsize(p, bs, &v, NULL) || v == 0))
                    return fail(err, errlen, "%s: alignment must be " SIZE_WHY " above 0", a);
                rand_given = true;
                ds->random = true;
                if (!rs_given)
                    ds->random_pct = 100;
                ds->align_bytes = v;
            }
            break;
        case 'R': {
            const char *f = p;
            if (*f == 'p') {
                ds->profile_only = true;
                f++;
            }
            if (strcmp(f, "xml") == 0)
                ds->xml = true;
            else if (strcmp(f, "text") == 0 || (*f == '\0' && ds->profile_only))
                ds->xml = false;
            else
                return fail(err, errlen, "%s: allowed: -Rtext, -Rxml, -Rptext, -Rpxml", a);
            break;
        }
        case 's': {
            if (rand_given || rs_given)
                return fail(err, errlen, "%s: sequential I/O (-s) conflicts with random I/O "
                            "(-r/-rs)", a);
            if (seq_given)
                return fail(err, errlen, "%s: sequential I/O (-s) given twice", a);
            seq_given = true;
            if (*p == 'i') {
                ds->interlocked = true;
                p++;
            }
            v = 0;
            if (*p && dsize(p, bs, &v, NULL))
                return fail(err, errlen, "%s: stride must be " SIZE_WHY, a);
            if (*p && v == 0)
                return fail(err, errlen, "%s: a stride of 0 re-reads one block; give a stride "
                            "above 0", a);
            ds->align_bytes = v;
            break;
        }
        case 'S':
            if (*p == '\0')
                p = "u";
            for (; *p; p++) {
                switch (*p) {
                case 'b':
                case 'u':
                case 'h':
                    if (cache || (*p == 'h' && wt_given))
                        return fail(err, errlen, "%s: conflicts with an earlier cache flag "
                                    "(-S, -Sb, -Su, -Sh, -h)", a);
                    cache = *p;
                    ds->sw_cache_disabled = *p != 'b';
                    if (*p == 'h')
                        ds->write_through = wt_given = true;
                    break;
                case 'w':
                    if (wt_given)
                        return fail(err, errlen, "%s: write-through given twice", a);
                    ds->write_through = wt_given = true;
                    break;
                case 'm':
                    return fail(err, errlen, "%s: memory-mapped I/O (-Sm) is not implemented; "
                                "iomark issues read/write I/O", a);
                case 'r':
                    return fail(err, errlen, "%s: -Sr (remote cache only) applies to Windows SMB "
                                "shares; use -Su or -Sb", a);
                default:
                    return fail(err, errlen, "%s: allowed -S flags: b, h, u, w (and m, r on "
                                "Windows)", a);
                }
            }
            break;
        case 't':
            if (dnum(p, 4096, &v) || v == 0)
                return fail(err, errlen, "%s: threads per target must be 1 to 4096", a);
            ds->threads_per_target = (uint32_t)v;
            t_given = true;
            break;
        case 'T':
            if (dsize(p, bs, &v, NULL) || v == 0)
                return fail(err, errlen, "%s: thread stride must be " SIZE_WHY " above 0", a);
            ds->thread_stride_bytes = v;
            snprintf(ds->thread_stride_arg, sizeof(ds->thread_stride_arg), "%s", a);
            break;
        case 'v':
            warn(ds, "%s: verbose mode is not implemented; ignored", a);
            break;
        case 'w':
            if (*p == '\0')
                return fail(err, errlen, "%s: needs a write percentage 0 to 100, e.g. -w30", a);
            if (dnum(p, 1000, &v) || v > 100)
                return fail(err, errlen, "%s: write percentage must be 0 to 100", a);
            ds->write_pct = (uint32_t)v;
            break;
        case 'x':
            warn(ds, "%s: completion routines are a Windows API; iomark uses its I/O engine (%s)",
                 a, ds->job.ioengine);
            break;
        case 'X':
            return fail(err, errlen, "%s: XML profiles are not read by iomark; give the flags on "
                        "the command line (see -Rptext for the flags' meaning)", a);
        case 'y':
            return fail(err, errlen, "%s: Windows named-event synchronisation has no Linux "
                        "equivalent in iomark", a);
        case 'z':
            if (*p == '\0') {
                v = (uint64_t)time(NULL) & 0xffffffffu;
            } else if (dnum(p, 0xffffffffu, &v)) {
                return fail(err, errlen, "%s: random seed must be a 32-bit whole number", a);
            }
            ds->seed = (uint32_t)v;
            seed_given = true;
            break;
        case 'Z':
            if (*p == '\0') {
                ds->zero_buffers = true;
            } else if (strcmp(p, "r") == 0) {
                return fail(err, errlen, "%s: new random data per write is not implemented; "
                            "iomark's write buffers hold random data filled once (like -Z<size>)",
                            a);
            } else if (strchr(p, ',')) {
                return fail(err, errlen, "%s: write data from a file is not implemented", a);
            } else {
                if (dsize(p, bs, &v, NULL) || v == 0)
                    return fail(err, errlen, "%s: allowed: -Z, -Z<size> (" SIZE_WHY ")", a);
                ds->random_buffer_bytes = v;
                warn(ds, "%s: writes carry random data from iomark's own per-I/O buffers "
                     "(filled once); the %llu-byte source buffer size is not used", a,
                     (unsigned long long)v);
            }
            break;
        default:
            return fail(err, errlen, "%s: unknown DiskSpd flag; see iomark diskspd -?", a);
        }
    }
    if (ro->help)
        return 0;

    /* cross-flag rules (DiskSpd's Profile::Validate) */
    struct iom_job *job = &ds->job;
    if (ds->total_threads && t_given)
        return fail(err, errlen, "-F%u: conflicts with -t (threads per target)", ds->total_threads);
    if (ds->requests_per_thread && !ds->total_threads)
        return fail(err, errlen, "-O%u: only applies with -F (total threads)",
                    ds->requests_per_thread);
    if (ds->interlocked && ds->thread_stride_bytes)
        return fail(err, errlen, "-T: conflicts with interlocked sequential I/O (-si)");
    if (ds->dist != IOM_DSPD_DIST_UNIFORM && !ds->random)
        return fail(err, errlen, "-rd: a random distribution needs random I/O (-r)");
    if (job->nr_targets == 0)
        return fail(err, errlen, "no target given; DiskSpd syntax: diskspd [flags] target...");
    if (ds->total_threads && job->nr_targets > 1)
        return fail(err, errlen, "-F%u: with several targets every DiskSpd thread works on all "
                    "of them; iomark runs threads per target: use -t instead",
                    ds->total_threads);
    if (ds->max_file_bytes && ds->max_file_bytes <= ds->base_offset_bytes)
        return fail(err, errlen, "-f: the target size (%llu) must be above the base offset -B "
                    "(%llu)", (unsigned long long)ds->max_file_bytes,
                    (unsigned long long)ds->base_offset_bytes);
    if (ds->throughput_bpms && ds->throughput_iops)
        return fail(err, errlen, "-g: given both in bytes per ms and in IOPS");
    /* DiskSpd refuses a thread whose start (base + stride x thread) leaves no room for one
     * block: "The file is too small" (IORequestGenerator.cpp, github.com/microsoft/diskspd).
     * Checked here when the size is known from -c/-f; the runner checks existing files. */
    if (ds->thread_stride_bytes && (ds->create || ds->max_file_bytes)) {
        uint64_t fsize = ds->max_file_bytes ? ds->max_file_bytes : ds->create_bytes;
        uint32_t nthr = ds->total_threads ? ds->total_threads : ds->threads_per_target;
        uint64_t last = ds->base_offset_bytes + ds->thread_stride_bytes * (uint64_t)(nthr - 1);
        if (nthr > 1 && last + bs > fsize)
            return fail(err, errlen, "%s: file too small: thread %u would start at byte %llu "
                        "of a %llu-byte file (block %llu); -T x (threads-1) + -B + -b must fit "
                        "in the file", ds->thread_stride_arg, nthr - 1,
                        (unsigned long long)last, (unsigned long long)fsize,
                        (unsigned long long)bs);
    }
    (void)seed_given;

    /* the job */
    job->runtime_ns = (uint64_t)ds->duration_s * SEC;
    job->ramp_ns = (uint64_t)ds->warmup_s * SEC;
    job->cooldown_ns = (uint64_t)ds->cooldown_s * SEC;
    job->rwmixread_pct = 100 - ds->write_pct;
    if (ds->random) {
        job->rw = ds->write_pct == 0 ? IOM_RW_RANDREAD
                  : ds->write_pct == 100 ? IOM_RW_RANDWRITE : IOM_RW_RANDRW;
        job->percentage_random = ds->random_pct;
        job->blockalign_bytes = ds->align_bytes;
        if (ds->random_pct < 100 && ds->align_bytes)
            job->seq_stride_bytes = ds->align_bytes;  /* -r<align> applies to both parts */
    } else {
        job->rw = ds->write_pct == 0 ? IOM_RW_READ
                  : ds->write_pct == 100 ? IOM_RW_WRITE : IOM_RW_RW;
        job->seq_stride_bytes = ds->align_bytes;
        job->seq_shared = ds->interlocked;
    }
    job->numjobs = ds->total_threads ? ds->total_threads : ds->threads_per_target;
    job->iodepth = ds->total_threads && ds->requests_per_thread ? ds->requests_per_thread
                                                                 : ds->outstanding;
    job->thread_stride_bytes = ds->thread_stride_bytes;
    /* DiskSpd: without -T every sequential thread starts at the base offset */
    job->seq_same_start = !ds->thread_stride_bytes && !ds->interlocked;
    job->offset_bytes = ds->base_offset_bytes;
    job->size_bytes = ds->max_file_bytes ? ds->max_file_bytes - ds->base_offset_bytes : 0;
    job->create_bytes = ds->create ? ds->create_bytes : 0;
    job->direct = ds->sw_cache_disabled;
    job->sync = ds->write_through ? IOM_SYNC_DSYNC : IOM_SYNC_NONE;
    job->rate_bytes_per_s = ds->throughput_bpms * 1000;
    job->rate_iops = ds->throughput_iops;
    job->zero_buffers = ds->zero_buffers;
    job->seed = ds->seed;
    if (ds->iops_stddev)
        job->series_interval_ns = (uint64_t)ds->bucket_ms * 1000000u;
    if (ds->create && ds->dist == IOM_DSPD_DIST_ABS) {
        uint64_t end = ds->max_file_bytes ? ds->max_file_bytes : ds->create_bytes;
        if (end > ds->base_offset_bytes &&
            (rc = iom_diskspd_resolve(ds, end - ds->base_offset_bytes, err, errlen)))
            return rc;
    }
    return 0;
}

void iom_diskspd_help(FILE *f)
{
    fprintf(f,
            "usage: iomark diskspd [DiskSpd flags] TARGET...\n"
            "Run a DiskSpd 2.x command line on Linux with DiskSpd's meaning and print\n"
            "DiskSpd's text (-Rtext) or XML (-Rxml) report.\n\n"
            "  -b<size>      block size (64K)            -d<s>   duration (10)\n"
            "  -W<s>         warm-up (5)                 -C<s>   cool-down (0)\n"
            "  -o<n>         outstanding I/O per thread per target (2)\n"
            "  -t<n>         threads per target (1)      -F<n>   total threads (one target)\n"
            "  -O<n>         outstanding I/O per thread with -F\n"
            "  -r[align]     random I/O                  -rs<pct> share of random I/O\n"
            "  -rdpct/-rdabs non-uniform random distribution\n"
            "  -s[i][stride] sequential (i: threads share one offset)\n"
            "  -T<offs>      start offset step between threads\n"
            "  -w<pct>       writes in percent (0)       -c<size> create the file\n"
            "  -B<offs>      base offset                 -f<size> use only the first <size>\n"
            "  -S, -Su       no page cache (O_DIRECT)    -Sw      write-through (O_DSYNC)\n"
            "  -Sh, -h       both                        -Sb      page cache (default)\n"
            "  -g<n>[i]      pace: bytes per ms, or IOPS with i, per thread per target\n"
            "  -z[seed]      random seed                 -Z       zero write buffers\n"
            "  -L            latency percentiles         -D[ms]   IOPS standard deviation\n"
            "  -Rtext|xml    report format; -Rp... prints the profile without running\n"
            "Sizes: K M G T (binary) or b (blocks). Also iomark's --ioengine=, --output=,\n"
            "--quiet, --status-interval=, --force, --keep. Windows-only flags are refused or warned about by\n"
            "name; see docs/diskspd.md.\n");
}
