/*
 * import_fio_text.c - fio's normal (human) output, 2.x and 3.x syntax.
 *
 *   NAME: (groupid=0, jobs=8): err= 0: pid=...
 *     read : io=960520KB, bw=3999.2KB/s, iops=999, runt=240131msec     (2.x)
 *     read: IOPS=25.2k, BW=98.5MiB/s (103MB/s)(5912MiB/60001msec)     (3.x)
 *        lat (usec): min=815, max=252639, avg=127985.12, stdev=3490.32
 *       clat percentiles (msec):  | 99.00th=[  131], ...
 *     cpu          : usr=0.13%, sys=0.31%, ...
 *     issued    : total=r=240130/w=0/d=0        (2.x)
 *     issued rwts: total=1520,1592,0,0          (3.x)
 *
 * fio 2.x writes KB for KiB (1024). Each job block is one run; blocks with
 * the same job name (the same command run again, output appended to one
 * log) become several runs of one workload only when the workload matches:
 * rw, bs and iodepth of the job's header line ("NAME: (g=0): rw=..., bs=...,
 * iodepth=N"), jobs= of the block, and the device of the "Disk stats" that
 * follow it. A block that differs becomes its own workload, named
 * "NAME [rw=... bs=... iodepth=... jobs=... on DEV]" so the difference shows.
 * A block with err= not 0 but with figures is imported with a note quoting
 * fio's error line; "fio: terminating on signal N" marks the run
 * interrupted (res->note). Mean latency is "lat"
 * (submission to completion); p99 comes from the percentile table, which is
 * of "clat" unless fio printed "lat percentiles".
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static int probe(const char *text, size_t len)
{
    (void)len;
    return strstr(text, ": (groupid=") && strstr(text, "err=") &&
           (strstr(text, "iops=") || strstr(text, "IOPS="));
}

/* Number with an optional k/M/G suffix (fio's num2str, powers of 1000). */
static double num_sfx(const char *p, const char **endp)
{
    char *e;
    double d = strtod(p, &e);
    if (e == p) {
        if (endp)
            *endp = p;
        return NAN;
    }
    if (*e == 'k' || *e == 'K')
        d *= 1e3, e++;
    else if (*e == 'M' && e[1] != 'i' && e[1] != 'B')
        d *= 1e6, e++;
    if (endp)
        *endp = e;
    return d;
}

/* Value of "key" within [p, end) as a plain or k-suffixed number. */
static double field(const char *p, const char *end, const char *key)
{
    const char *k = strstr(p, key);
    if (!k || k >= end)
        return NAN;
    return num_sfx(k + strlen(key), NULL);
}

/* A size like "960520KB", "5912MiB", "98.5MiB" in bytes (fio 2.x KB = KiB). */
static double size_bytes(const char *p, const char **endp)
{
    char *e;
    double d = strtod(p, &e);
    if (endp)
        *endp = e; /* set on every path: callers read on from it */
    if (e == p)
        return NAN;
    double m = 1;
    if (*e == 'K' || *e == 'k')
        m = 1024.0;
    else if (*e == 'M')
        m = 1048576.0;
    else if (*e == 'G')
        m = 1073741824.0;
    else if (*e == 'T')
        m = 1099511627776.0;
    if (endp)
        *endp = e;
    return d * m;
}

static double unit_to_us(const char *u)
{
    if (strncmp(u, "(nsec)", 6) == 0)
        return 1e-3;
    if (strncmp(u, "(msec)", 6) == 0)
        return 1e3;
    if (strncmp(u, "(sec)", 5) == 0)
        return 1e6;
    return 1;
}

/* A duration "300002msec", "60s", "1500usec", "2000000nsec" in ms (fio
 * prints msec; a bare number is taken as msec). NAN when not a number. */
static double time_ms(const char *p)
{
    char *e;
    double d = strtod(p, &e);
    if (e == p)
        return NAN;
    if (strncmp(e, "usec", 4) == 0)
        return d / 1e3;
    if (strncmp(e, "nsec", 4) == 0)
        return d / 1e6;
    if (strncmp(e, "msec", 4) == 0)
        return d;
    if (*e == 's')
        return d * 1e3;
    if (*e == 'm' && e[1] != 's')
        return d * 60e3;
    return d;
}

/* The direction a line of a job block starts ("read", "write"), after any
 * indent (fio 3.1 prints three spaces, 3.33 two, 2.x "  read : "): 0, 1,
 * or -1 for other lines. */
static int dir_line(const char *l)
{
    while (*l == ' ' || *l == '\t')
        l++;
    if (strncmp(l, "read", 4) == 0 && (l[4] == ':' || l[4] == ' '))
        return 0;
    if (strncmp(l, "write", 5) == 0 && (l[5] == ':' || l[5] == ' '))
        return 1;
    if (strncmp(l, "trim", 4) == 0 && (l[4] == ':' || l[4] == ' '))
        return 2; /* fio's third direction (stat.c: io_ddir_name) */
    return -1;
}

/* 1-based line number of p in text. */
static unsigned line_no(const char *text, const char *p)
{
    unsigned n = 1;
    for (const char *q = text; q < p; q++)
        n += *q == '\n';
    return n;
}

static const char *line_end(const char *p)
{
    const char *e = strchr(p, '\n');
    return e ? e : p + strlen(p);
}


/* Copy the value of "key" in [p, le) up to the first of the `stops` (or the
 * line end) into out, without trailing blanks. "" when absent. */
static void hdr_value(const char *p, const char *le, const char *key, const char *stop,
                      char *out, size_t len)
{
    out[0] = '\0';
    const char *k = strstr(p, key);
    if (!k || k >= le)
        return;
    k += strlen(key);
    const char *e = stop ? strstr(k, stop) : NULL;
    if (!e || e > le)
        e = strchr(k, ',');
    if (!e || e > le)
        e = le;
    while (e > k && (e[-1] == ' ' || e[-1] == '\r'))
        e--;
    snprintf(out, len, "%.*s", (int)(e - k), k);
}

/*
 * The workload key of the block whose first line starts at ls (job `name`):
 * rw, bs, iodepth from the last header line "NAME: (g=" before it, jobs=
 * from the block line g, the device of the first "Disk stats" after g and
 * before the next header of the same job. *iodepth gets the header's
 * iodepth (0 when absent).
 */
static void block_key(const char *text, const char *ls, const char *g, const char *name,
                      char *key, size_t len, int *iodepth)
{
    char pat[112], rw[32] = "", bs[96] = "", qd[16] = "", dev[40] = "";
    snprintf(pat, sizeof(pat), "%s: (g=", name);
    const char *hdr = NULL;
    for (const char *h = strstr(text, pat); h && h < ls; h = strstr(h + 1, pat))
        if (h == text || h[-1] == '\n')
            hdr = h;
    if (hdr) {
        const char *le = line_end(hdr);
        hdr_value(hdr, le, "rw=", NULL, rw, sizeof(rw));
        hdr_value(hdr, le, "bs=", ", ioengine=", bs, sizeof(bs));
        hdr_value(hdr, le, "iodepth=", NULL, qd, sizeof(qd));
        /* fio 3.x "(R) 4096B-4096B, (W) ..." -> the read range; "4K-4K/4K-4K/4K-4K"
         * (2.x) -> its first range; a range "X-X" -> X */
        char *b = bs;
        if (strncmp(b, "(R) ", 4) == 0)
            b += 4;
        size_t n = strcspn(b, ",/");
        b[n] = '\0';
        char *dash = strchr(b, '-');
        if (dash && (size_t)(dash - b) == strlen(dash + 1) &&
            strncmp(b, dash + 1, (size_t)(dash - b)) == 0)
            *dash = '\0';
        memmove(bs, b, strlen(b) + 1);
    }
    *iodepth = atoi(qd);
    const char *next_hdr = NULL;
    for (const char *h = strstr(g, pat); h; h = strstr(h + 1, pat))
        if (h[-1] == '\n') {
            next_hdr = h;
            break;
        }
    const char *ds = strstr(g, "Disk stats (read/write):");
    if (ds && (!next_hdr || ds < next_hdr)) {
        const char *d = line_end(ds);
        if (*d == '\n') {
            d++;
            while (*d == ' ' || *d == '\t')
                d++;
            size_t n = strcspn(d, ": \n");
            snprintf(dev, sizeof(dev), "%.*s", (int)(n < 39 ? n : 39), d);
        }
    }
    double jobs = field(g, line_end(g), "jobs=");
    snprintf(key, len, "rw=%s bs=%s iodepth=%s jobs=%d%s%s", rw[0] ? rw : "?", bs[0] ? bs : "?",
             qd[0] ? qd : "?", iom_imp_count(jobs), dev[0] ? " on " : "", dev);
}

/* Parse one direction section [s, e) into d; adds the curve to run. */
static int parse_dir(const char *s, const char *e, struct iom_imp_dir *d, double *runtime_s,
                     struct iom_imp_run *run, int want_curve)
{
    const char *l1 = line_end(s);
    double rt_ms = NAN, bytes = NAN;
    const char *io = strstr(s, "io=");
    if (io && io < l1) { /* 2.x */
        bytes = size_bytes(io + 3, NULL);
        d->iops = field(s, l1, "iops=");
        const char *rt = strstr(s, "runt=");
        if (rt && rt < l1)
            rt_ms = time_ms(rt + 5);
    } else {                              /* 3.x */
        d->iops = field(s, l1, "IOPS=");
        const char *par = strstr(s, ")(");
        if (par && par < l1) {
            const char *after;
            bytes = size_bytes(par + 2, &after);
            const char *sl = strchr(after, '/');
            if (sl && sl < l1)
                rt_ms = time_ms(sl + 1);
        }
    }
    if (rt_ms > 0 && !isnan(bytes)) {
        d->mb_per_s = bytes / (rt_ms / 1000.0) / 1e6;
        d->mib_per_s = bytes / (rt_ms / 1000.0) / 1048576.0;
        if (isnan(*runtime_s) || rt_ms / 1000 > *runtime_s)
            *runtime_s = rt_ms / 1000.0;
    }
    if (isnan(d->ios) && d->iops >= 0 && rt_ms > 0)
        d->ios = round(d->iops * rt_ms / 1000.0);
    for (const char *l = l1 + 1; l < e; l = line_end(l) + 1) {
        const char *t = l;
        while (*t == ' ')
            t++;
        if (strncmp(t, "lat (", 5) == 0 && strstr(t, "avg=") && strstr(t, "avg=") < line_end(t)) {
            double u = unit_to_us(t + 4);
            const char *le = line_end(t);
            d->lat_mean_us = field(t, le, "avg=") * u;
            d->lat_max_us = field(t, le, "max=") * u;
        } else if (strstr(t, "percentiles (") == t + (strncmp(t, "clat", 4) == 0 ? 5 : 4) &&
                   (strncmp(t, "clat ", 5) == 0 || strncmp(t, "lat ", 4) == 0)) {
            double u = unit_to_us(strchr(t, '('));
            int is_lat = strncmp(t, "lat ", 4) == 0;
            if (is_lat || isnan(d->lat_p99_us)) {
                if (want_curve) {
                    free(run->pct);
                    run->pct = NULL;
                    run->nr_pct = 0;
                }
                for (const char *q = line_end(t) + 1; q < e && strstr(q, "|") &&
                                                      strchr(q, '|') < line_end(q);
                     q = line_end(q) + 1) {
                    const char *qe = line_end(q);
                    for (const char *th = strstr(q, "th=["); th && th < qe; th = strstr(th + 1, "th=[")) {
                        const char *b = th;
                        while (b > q && (isdigit((unsigned char)b[-1]) || b[-1] == '.'))
                            b--;
                        double p = strtod(b, NULL);
                        double v = strtod(th + 4, NULL) * u;
                        if (p == 99)
                            d->lat_p99_us = v;
                        if (want_curve && p > 0 && iom_imp_add_pct(run, p, v))
                            return -ENOMEM;
                    }
                }
            }
        }
    }
    return 0;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    (void)len;
    const char *ver = strstr(text, "\nfio-");
    if (ver) {
        size_t n = strcspn(ver + 1, " \r\n");
        snprintf(res->tool, sizeof(res->tool), "%.*s", (int)(n < 60 ? n : 60), ver + 1);
    } else {
        snprintf(res->tool, sizeof(res->tool), "fio");
    }
    const char *g = strstr(text, ": (groupid=");
    int failed = 0;
    char (*keys)[192] = NULL; /* workload key of res->w[i] */
    uint32_t nkeys = 0;
    while (g) {
        const char *ls = g;
        while (ls > text && ls[-1] != '\n')
            ls--;
        char name[96];
        snprintf(name, sizeof(name), "%.*s", (int)(g - ls < 95 ? g - ls : 95), ls);
        const char *next = strstr(g + 1, ": (groupid=");
        const char *end = next ? next : g + strlen(g);
        if (next)
            while (end > g && end[-1] != '\n')
                end--;
        double e = field(g, line_end(g), "err=");
        if (e != 0 && !isnan(e)) {
            /* a job that failed: left out when it has no figures, else
             * imported with a note quoting fio (errno numbers untranslated) */
            int has_dir = 0;
            for (const char *l = line_end(g) + 1; l < end && !has_dir; l = line_end(l) + 1)
                has_dir = dir_line(l) >= 0;
            if (!has_dir) {
                failed++;
                g = next;
                continue;
            }
            char line[240];
            if (iom_imp_fio_line(text, 0, line, sizeof(line)))
                iom_imp_note(res, "source job '%s' failed (err=%d; fio said: \"%s\"); its figures "
                             "are up to the failure", name, iom_imp_count(e), line);
            else
                iom_imp_note(res, "source job '%s' failed (err=%d); its figures are up to the failure",
                             name, iom_imp_count(e));
        }
        /* pool with an earlier block only when the workload matches */
        char key[192];
        int qd = 0;
        block_key(text, ls, g, name, key, sizeof(key), &qd);
        struct iom_imp_workload *w = NULL;
        int same_name = 0;
        for (uint32_t i = 0; i < res->nr_workloads && i < nkeys; i++) {
            if (strncmp(res->w[i].name, name, strlen(name)) != 0)
                continue;
            const char *rest = res->w[i].name + strlen(name);
            if (*rest && *rest != ' ')
                continue;
            same_name = 1;
            if (strcmp(keys[i], key) == 0) {
                w = &res->w[i];
                break;
            }
        }
        struct iom_imp_run *run;
        if (w) {
            run = iom_imp_add_run(w);
        } else {
            char wname[96];
            if (same_name) /* the same job name, another workload: say how it differs */
                snprintf(wname, sizeof(wname), "%.32s [%.60s]", name, key);
            else
                snprintf(wname, sizeof(wname), "%s", name);
            char (*nk)[192] = realloc(keys, (res->nr_workloads + 1) * sizeof(*keys));
            if (!nk) {
                free(keys);
                return -ENOMEM;
            }
            keys = nk;
            w = iom_imp_add_workload(res, wname);
            run = w ? &w->runs[0] : NULL;
            if (w) {
                snprintf(keys[res->nr_workloads - 1], sizeof(keys[0]), "%s", key);
                nkeys = res->nr_workloads;
                double jobs = field(g, line_end(g), "jobs=");
                w->threads = iom_imp_count(jobs);
                w->iodepth = qd;
            }
        }
        if (!run) {
            free(keys);
            return -ENOMEM;
        }
        /* issued counts */
        const char *is = strstr(g, "issued");
        if (is && is < end) {
            const char *tot = strstr(is, "total=");
            if (tot && tot < line_end(is)) {
                tot += 6;
                if (strncmp(tot, "r=", 2) == 0) {
                    run->dir[0].ios = strtod(tot + 2, NULL);
                    const char *wq = strstr(tot, "/w=");
                    if (wq && wq < line_end(tot))
                        run->dir[1].ios = strtod(wq + 3, NULL);
                } else {
                    char *p2;
                    run->dir[0].ios = strtod(tot, &p2);
                    if (*p2 == ',')
                        run->dir[1].ios = strtod(p2 + 1, &p2);
                    if (*p2 == ',') /* fio 3: total=READS,WRITES,TRIMS,0 */
                        run->dir[IOM_IMP_TRIM].ios = strtod(p2 + 1, NULL);
                }
            }
        }
        /* direction sections: lines "  read" / "  write" up to the next one or "  cpu" */
        const char *sec[3] = {NULL, NULL, NULL}; /* read, write, trim */
        for (const char *l = line_end(g) + 1; l < end; l = line_end(l) + 1) {
            int dl = dir_line(l);
            if (dl >= 0 && !sec[dl])
                sec[dl] = l;
        }
        if (!sec[0] && !sec[1] && !sec[2]) {
            /* never a run of zeros: a block without figures is refused */
            snprintf(err, errlen, "line %u: job block \"%s\" has no read or write figures",
                     line_no(text, ls), name);
            free(keys);
            return -EINVAL;
        }
        const char *cpu = strstr(g, "  cpu ");
        if (cpu && cpu < end) {
            double u = field(cpu, line_end(cpu), "usr="), s = field(cpu, line_end(cpu), "sys=");
            if (!isnan(u) && !isnan(s))
                run->cpu_proc_pct = u + s;
        }
        for (int d = 0; d < 3; d++) {
            struct iom_imp_dir *x = &run->dir[d == 2 ? IOM_IMP_TRIM : d];
            if (!sec[d]) { /* none; trims stay unknown (NAN) as fio 2 had none */
                if (d < 2) {
                    x->iops = x->mb_per_s = x->mib_per_s = 0;
                    x->ios = 0;
                }
                continue;
            }
            const char *se = end; /* up to the next direction's section or "  cpu" */
            for (int o = 0; o < 3; o++)
                if (sec[o] && sec[o] > sec[d] && sec[o] < se)
                    se = sec[o];
            if (cpu && cpu > sec[d] && cpu < se)
                se = cpu;
            int want_curve = d == 0 || (d == 1 && !sec[0]) || (d == 2 && !sec[0] && !sec[1]);
            if (parse_dir(sec[d], se, x, &run->runtime_s, run, want_curve)) {
                free(keys);
                return -ENOMEM;
            }
        }
        iom_imp_make_total(run);
        g = next;
    }
    free(keys);
    char sigline[240];
    if (res->nr_workloads && iom_imp_fio_line(text, 1, sigline, sizeof(sigline))) {
        double ran = 0;
        for (uint32_t i = 0; i < res->nr_workloads; i++)
            for (uint32_t k = 0; k < res->w[i].nr_runs; k++)
                if (res->w[i].runs[k].runtime_s > ran)
                    ran = res->w[i].runs[k].runtime_s;
        iom_imp_note(res, "source run interrupted (%s) after %.3g s", sigline, ran);
    }
    if (res->nr_workloads == 0) {
        snprintf(err, errlen, failed ? "every job reported an error (err= not 0)"
                                     : "no job results found");
        return -EINVAL;
    }
    return 0;
}

const struct iom_importer iom_import_fio_text = {"fio-text", probe, parse};
