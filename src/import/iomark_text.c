/*
 * iomark_text.c - iomark's own text report of one run (`iomark run`'s
 * normal output; src/report/text.c writes it):
 *
 *   iomark 0.1.0: randrw, block size 4096 B (4 KiB), iodepth 1, 1 thread per target, engine ...
 *     ...
 *     measured 1.00 s (warm-up 0.00 s, cool-down 0.00 s)
 *
 *                     IOPS       MB/s      MiB/s           I/Os   mean(us)  stdev(us)    p50(us)    p99(us)    max(us)
 *     read       2670579.0   10938.69   10431.95        2670579       0.11       12.6       0.07       0.10       8082
 *     write      ...
 *     total      ...
 *
 * One workload named "job" (the name iomark's JSON gives a command-line run),
 * one run. A direction the run does not do has no row and stays missing
 * (NAN), as in the JSON importer; a row's "-" field is missing too. A report
 * of an interrupted run ("measured 2.80 s ...  INTERRUPTED by SIGINT: partial results"; older
 * versions wrote "INTERRUPTED: partial results")
 * or with an "ERROR: " line gets a note saying so. The repeat, sweep, mark and tpcc text reports are not read:
 * use their JSON documents.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static const char *const hdr = "IOPS       MB/s      MiB/s           I/Os   mean(us)";

static int probe(const char *text, size_t len)
{
    (void)len;
    return strncmp(text, "iomark ", 7) == 0 && strstr(text, hdr) != NULL;
}

/* The number after `key` on the first line (e.g. "iodepth "), or NAN. */
static double after(const char *l, const char *le, const char *key)
{
    const char *p = strstr(l, key);
    if (!p || p >= le)
        return NAN;
    char *e;
    double v = strtod(p + strlen(key), &e);
    return e == p + strlen(key) ? NAN : v;
}

/* Fields of one table row: IOPS, MB/s, MiB/s, I/Os, mean, stdev, p50, p99, max; "-" = NAN. */
static int row(const char *p, const char *le, double f[9])
{
    for (int i = 0; i < 9; i++) {
        while (p < le && *p == ' ')
            p++;
        if (p >= le)
            return -1;
        char *e;
        f[i] = strtod(p, &e);
        if (e == p) {
            if (*p != '-')
                return -1;
            f[i] = NAN;
            e = (char *)p + 1;
        }
        p = e;
    }
    return 0;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    (void)len;
    const char *le = strchr(text, '\n');
    if (!le)
        le = text + strlen(text);
    const char *colon = memchr(text, ':', (size_t)(le - text));
    if (!colon) {
        snprintf(err, errlen, "line 1: not an iomark run report");
        return -EINVAL;
    }
    snprintf(res->tool, sizeof(res->tool), "%.*s", (int)(colon - text), text);
    struct iom_imp_workload *w = iom_imp_add_workload(res, "job");
    if (!w)
        return -ENOMEM;
    const char *rw = colon + 1;
    while (*rw == ' ')
        rw++;
    size_t rn = strcspn(rw, ",\n");
    snprintf(w->rw, sizeof(w->rw), "%.*s", (int)(rn < sizeof(w->rw) - 1 ? rn : sizeof(w->rw) - 1), rw);
    double bs = after(text, le, "block size "), qd = after(text, le, "iodepth ");
    /* "iodepth 8 asked, 1 in flight (psync is synchronous)": the depth that ran,
     * as from a JSON result's spec.iodepth_effective */
    double inflight = after(text, le, " asked, ");
    if (inflight >= 1)
        qd = inflight;
    double th = NAN;
    const char *tp = strstr(text, " thread");
    if (tp && tp < le) { /* "..., 2 threads per target" */
        const char *s = tp;
        while (s > text && s[-1] != ' ')
            s--;
        th = strtod(s, NULL);
    }
    w->bs_bytes = bs > 0 && bs < 1e12 ? (uint64_t)bs : 0;
    w->iodepth = iom_imp_count(qd);
    w->threads = iom_imp_count(th);
    struct iom_imp_run *run = &w->runs[0];
    int rows = 0;
    unsigned line = 1;
    const char *table = strstr(text, hdr); /* rows count only below the table's header */
    for (const char *l = *le ? le + 1 : le; *l; line++) {
        const char *e = strchr(l, '\n');
        if (!e)
            e = l + strlen(l);
        const char *t = l;
        while (t < e && *t == ' ')
            t++;
        int d = strncmp(t, "read ", 5) == 0 ? IOM_IMP_READ
              : strncmp(t, "write ", 6) == 0 ? IOM_IMP_WRITE
              : strncmp(t, "trim ", 5) == 0  ? IOM_IMP_TRIM
              : strncmp(t, "total ", 6) == 0 ? IOM_IMP_TOTAL : -1;
        if (d >= 0 && rows < 4 && table && table < l) {
            double f[9];
            if (row(strchr(t, ' '), e, f)) {
                static const char *const nm[IOM_IMP_NDIR] = {"read", "write", "total", "trim"};
                snprintf(err, errlen, "line %u: a %s row without its nine figures", line + 1,
                         nm[d]);
                return -EINVAL;
            }
            struct iom_imp_dir *x = &run->dir[d];
            x->iops = f[0];
            x->mb_per_s = f[1];
            x->mib_per_s = f[2];
            x->ios = f[3];
            x->lat_mean_us = f[4];
            x->lat_p99_us = f[7];
            x->lat_max_us = f[8];
            rows++;
            if (d == IOM_IMP_TOTAL)
                break;
        } else if (strncmp(t, "measured ", 9) == 0 && strstr(t, "INTERRUPTED") &&
                   strstr(t, "INTERRUPTED") < e) {
            iom_imp_note(res, "source run interrupted after %.2f s", strtod(t + 9, NULL));
        } else if (strncmp(t, "ERROR: ", 7) == 0) {
            iom_imp_note(res, "source run failed: %.*s", (int)(e - t - 7 < 200 ? e - t - 7 : 200),
                         t + 7);
        }
        l = *e ? e + 1 : e;
    }
    if (!(run->dir[IOM_IMP_TOTAL].iops >= 0)) {
        snprintf(err, errlen, "no 'total' row under the IOPS table (an iomark run report has one)");
        return -EINVAL;
    }
    return 0;
}

const struct iom_importer iom_import_iomark_text = {"iomark-text", probe, parse};
