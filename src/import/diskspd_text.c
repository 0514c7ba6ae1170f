/*
 * import_diskspd_text.c - DiskSpd's text output (the default -Rtext).
 *
 * A "*** Interrupted by Ctrl-C." line (CmdRequestCreator.cpp), or iomark's own
 * "(interrupted by SIGINT; ...)" line, gives the record a note; "The test was interrupted before the measurements began." is refused
 * in DiskSpd's words.
 * Read from each "Results for timespan N:" block: "actual test time",
 * "thread count", the CPU table's "avg." row (Usage, % of all CPUs), the
 * "total:" rows of the Total IO / Read IO / Write IO tables (bytes | I/Os |
 * MiB/s | I/O per s [| AvgLat ms | LatStdDev]) and, with -L, the percentile
 * table (rows "99th", "max"; columns named by its header line). Old DiskSpd
 * labels the MiB/s column "MB/s" but divides by 2^20 (1.58 for 992047104
 * bytes in 600 s); MB/s and MiB/s are therefore recomputed from bytes and
 * time. Only "total:" rows are used, so consoles that wrapped the long
 * per-thread rows at 80 columns, and any text before the output (a pasted
 * msinfo32 dump in another code page), do no harm.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static int probe(const char *text, size_t len)
{
    (void)len;
    /* a run interrupted before measuring has no tables, only DiskSpd's sentence */
    return strstr(text, "Results for timespan") &&
           (strstr(text, "I/O per s") ||
            strstr(text, "The test was interrupted before the measurements began."));
}

/* Number after `key` on the same line, or NAN. */
static double after(const char *from, const char *end, const char *key)
{
    const char *p = strstr(from, key);
    if (!p || (end && p >= end))
        return NAN;
    p += strlen(key);
    while (*p == ' ' || *p == '\t' || *p == ':')
        p++;
    char *e;
    double d = strtod(p, &e);
    return e == p ? NAN : d;
}

/* Split a "a | b | c" row into at most max numbers; returns how many. */
static int split_row(const char *line, double *out, int max)
{
    int n = 0;
    const char *p = line;
    while (n < max) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '\n' || *p == '\r')
            break;
        char *e;
        double d = strtod(p, &e);
        if (e == p) {
            /* a cell that is not a number ("N/A": the direction of a
             * read-only or write-only run) is unknown, and the row goes on */
            if (*p == '|')
                break; /* an empty cell: not a row of figures */
            e = (char *)p;
            while (*e && *e != '|' && *e != '\n')
                e++;
            if (*e != '|' && n == 0)
                break; /* text, not a row */
            d = NAN;
        }
        out[n++] = d;
        p = e;
        while (*p == ' ' || *p == '%' || *p == '\t')
            p++;
        if (*p != '|')
            break;
        p++;
    }
    return n;
}

/* The "total:" row after the header `title` (e.g. "\nRead IO") in [from, end). */
static int total_row(const char *from, const char *end, const char *title, double *v, int max)
{
    const char *t = strstr(from, title);
    if (!t || t >= end)
        return 0;
    const char *row = strstr(t, "total:");
    if (!row || row >= end)
        return 0;
    return split_row(row + 6, v, max);
}

static int parse_block(const char *blk, const char *end, const char *text,
                       struct iom_imp_result *res, int idx)
{
    double secs = after(blk, end, "actual test time:");
    double threads = after(blk, end, "thread count:");
    /* input parameters come before the first results block */
    double bs = after(text, NULL, "block size:");
    double qd = after(text, NULL, "number of outstanding I/O operations:");
    int rnd = strstr(text, "using random I/O") != NULL;
    double wpct = NAN;
    const char *mix = strstr(text, "read/write ratio:");
    if (mix) {
        double r = strtod(mix + strlen("read/write ratio:"), NULL);
        wpct = 100 - r;
    } else if (strstr(text, "performing write test")) {
        wpct = 100;
    } else if (strstr(text, "performing read test")) {
        wpct = 0;
    }
    char name[96];
    iom_imp_diskspd_key(name, sizeof(name), bs, rnd, wpct, qd, threads, idx);
    struct iom_imp_workload *w = iom_imp_add_workload(res, name);
    if (!w)
        return -ENOMEM;
    /* counts from the file; anything not a plausible int (garbage, huge) is unknown */
    w->threads = iom_imp_count(threads);
    w->iodepth = iom_imp_count(qd);
    const char *path = strstr(text, "path: '");
    if (path) {
        path += 7;
        size_t n = strcspn(path, "'\r\n");
        snprintf(w->target, sizeof(w->target), "%.*s", (int)(n < 159 ? n : 159), path);
    }
    struct iom_imp_run *run = &w->runs[0];
    run->runtime_s = secs;
    const char *avg = strstr(blk, "avg.|");
    if (avg && avg < end) {
        double v[1];
        if (split_row(avg + 5, v, 1) == 1)
            run->cpu_pct = v[0];
    }
    static const char *const titles[3] = {"Read IO", "Write IO", "Total IO"};
    for (int d = 0; d < 3; d++) {
        double v[6];
        int n = total_row(blk, end, titles[d], v, 6);
        if (n < 4)
            continue;
        iom_imp_dir_from_bytes(&run->dir[d], v[1], v[0], secs);
        if (n >= 5 && v[1] > 0)
            run->dir[d].lat_mean_us = v[4] * 1000;
    }
    /* the direction a read-only (write 0%) or write-only run never does is
     * missing, not 0 (docs/compare.md) */
    for (int d = 0; d < 2; d++)
        if (wpct == (d ? 0.0 : 100.0) && !(run->dir[d].ios > 0))
            run->dir[d].iops = run->dir[d].mb_per_s = run->dir[d].mib_per_s = run->dir[d].ios =
                run->dir[d].lat_mean_us = NAN;
    if (run->cpu_pct > 0 && !isnan(run->dir[2].iops))
        run->iops_per_cpu_pct = run->dir[2].iops / run->cpu_pct;
    /* -L percentile table: with several targets, one per target comes first
     * and the one under "total:" is the whole run's */
    const char *pt = strstr(blk, "\ntotal:\n");
    pt = pt && pt < end ? strstr(pt, "%-ile |") : strstr(blk, "%-ile |");
    if (pt && pt < end) {
        int col[3] = {-1, -1, -1}, nc = 0;
        const char *c = pt + 7, *eol = strchr(pt, '\n');
        while (c && eol && c < eol) { /* header cells after "%-ile |" */
            while (*c == ' ')
                c++;
            if (strncmp(c, "Read", 4) == 0)
                col[0] = nc;
            else if (strncmp(c, "Write", 5) == 0)
                col[1] = nc;
            else if (strncmp(c, "Total", 5) == 0)
                col[2] = nc;
            nc++;
            c = strchr(c, '|');
            if (c)
                c++;
        }
        static const struct {
            const char *label;
            double pct;
        } rows[] = {{"25th", 25},       {"50th", 50},         {"75th", 75},
                    {"90th", 90},       {"95th", 95},         {"99th", 99},
                    {"3-nines", 99.9},  {"4-nines", 99.99},   {"5-nines", 99.999},
                    {"6-nines", 99.9999}, {"max", 100}};
        for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
            char key[24];
            snprintf(key, sizeof(key), "%s |", rows[r].label);
            const char *line = strstr(pt, key);
            if (!line || line >= end)
                continue;
            double v[3];
            int n = split_row(line + strlen(key), v, 3);
            for (int d = 0; d < 3; d++) {
                if (col[d] < 0 || col[d] >= n || !(run->dir[d].ios > 0) || isnan(v[col[d]]))
                    continue;
                if (rows[r].pct == 99)
                    run->dir[d].lat_p99_us = v[col[d]] * 1000;
                if (rows[r].pct == 100)
                    run->dir[d].lat_max_us = v[col[d]] * 1000;
            }
            if (col[2] >= 0 && col[2] < n && !isnan(v[col[2]]) &&
                iom_imp_add_pct(run, rows[r].pct, v[col[2]] * 1000))
                return -ENOMEM;
        }
    }
    return 0;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    (void)len;
    snprintf(res->tool, sizeof(res->tool), "DiskSpd");
    /* DiskSpd's own words (ResultParser/ResultParser.cpp, CmdRequestCreator.cpp) */
    static const char none[] = "The test was interrupted before the measurements began.";
    if (strstr(text, none)) {
        snprintf(err, errlen, "the source run was interrupted: DiskSpd said \"%s No results are "
                 "displayed.\"", none);
        return -EINVAL;
    }
    const char *ctrlc = strstr(text, "*** Interrupted by Ctrl-C.");
    /* iomark's own DiskSpd-style text ends "(interrupted by SIGINT; results
     * cover the measured time until then)" (report/diskspd.c) */
    const char *own = strstr(text, "\n(interrupted by ");
    size_t ownlen = own ? strcspn(own + 2, ";)\r\n") : 0;
    const char *blk = strstr(text, "Results for timespan");
    int idx = 0, rc = 0;
    while (blk && !rc) {
        const char *next = strstr(blk + 1, "Results for timespan");
        const char *end = next ? next : blk + strlen(blk);
        if (!strstr(blk, "total:") || strstr(blk, "total:") >= end) {
            snprintf(err, errlen, "results block %d has no \"total:\" rows (cut short?)", idx + 1);
            return -EINVAL;
        }
        rc = parse_block(blk, end, text, res, idx++);
        blk = next;
    }
    if (!rc && !ctrlc && own)
        ctrlc = own + 2;
    if (!rc && ctrlc && res->nr_workloads) {
        size_t n = own && ctrlc == own + 2 ? ownlen : strcspn(ctrlc, "\r\n");
        const char *dur = strstr(text, "duration:");
        double asked = dur ? strtod(dur + 9, NULL) : NAN;
        double ran = res->w[0].runs[0].runtime_s;
        if (asked > 0)
            iom_imp_note(res, "source run interrupted (%.*s) after %.3g s of %.3g s",
                         (int)(n < 120 ? n : 120), ctrlc, ran, asked);
        else
            iom_imp_note(res, "source run interrupted (%.*s) after %.3g s", (int)(n < 120 ? n : 120),
                         ctrlc, ran);
    }
    return rc;
}

const struct iom_importer iom_import_diskspd_text = {"diskspd-text", probe, parse};
