/* fio.c - fio-style normal and JSON reports of a job-file run (see fio.h). */
#include "report/fio.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/report.h"
#include "stats/compare.h"

/* fio's default percentile list (stat.h: FIO_IO_U_LIST_MAX_LEN defaults) */
static const double fio_pcts[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9,
                                  99.95, 99.99};
#define NR_FIO_PCTS (sizeof(fio_pcts) / sizeof(fio_pcts[0]))

const double *iom_fio_pct_list(const struct iom_fio_job *fj, size_t *n)
{
    if (fj && fj->nr_pcts) {
        *n = fj->nr_pcts;
        return fj->pcts;
    }
    *n = NR_FIO_PCTS;
    return fio_pcts;
}

/* One report entry: a job clone, a whole job, or a group with group_reporting. */
struct unit {
    char name[IOM_NAME_LEN];
    uint32_t groupid, nr_jobs;
    struct iom_io_stats dir[IOM_NDIR]; /* read, write, trim (fio's ddirs) */
    struct iom_io_stats sync; uint64_t datasyncs; /* fio's "sync" (fsync=N); fdatasyncs */
    uint64_t runtime_ns;
    uint64_t job_runtime_ns;     /* fio's total_run_time: the sum over the entry's threads */
    bool vsplit;                 /* a thread had a verify phase: runtime per direction, vrt */
    uint64_t vrt[IOM_NDIR], trt; /* then each direction's (fio's ts.runtime[ddir]); threads' */
    uint64_t start_ms;           /* the earliest start (ms since the epoch; fio 3.36 job_start) */
    int error;
    uint64_t total_err; /* I/O errors counted (fio's total_err) */
    bool coe;           /* a continue_on_error class set: fio prints total_err, first_error */
    double usr_pct, sys_pct;
    bool rusage;                 /* ctx/majf/minf measured: sums over the entry's threads */
    uint64_t ctx, majf, minf;    /* (fio stat.c sum_thread_stats) */
    struct iom_depth_map depth;  /* iodepth_level/submit/complete counts, summed */
    uint32_t lat_depth;          /* latency_target: the depth the search reached (last thread) */
    const struct iom_ss *ss;     /* steady state: the job's window and verdict, or NULL */
    const struct iom_thread_result *blk; /* block_error_percentiles: the (last) clone's */
    const struct iom_fio_job *fj;
    /* interval samples (complete intervals only): bytes/s and IOPS per direction */
    uint32_t nr_samples;
    double *bw[IOM_NDIR], *iops[IOM_NDIR];
};

static void unit_free(struct unit *u)
{
    for (int d = 0; d < IOM_NDIR; d++) {
        free(u->bw[d]);
        free(u->iops[d]);
    }
}

static uint32_t clone_of(const struct iom_fio_job *fj, const struct iom_thread_result *th)
{
    return iom_fio_clone_of(fj, th->target_idx, th->thread_idx);
}

/* fio's sample standard deviation of n interval samples (0 for none), mean in *mean */
static double sample_stddev(const double *v, uint32_t n, double *mean)
{
    *mean = 0;
    return n ? iom_stddev(v, n, 0, mean) : 0;
}

/* Add the complete intervals of r's series to u's samples (pointwise sum). */
static void add_series(struct unit *u, const struct iom_result *r, bool first)
{
    double step = (double)r->job.series_interval_ns / 1e9;
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->nr_series; i++)
        n += r->series[i].dur_s >= step * 0.99;
    if (first) {
        for (int d = 0; d < IOM_NDIR; d++) {
            u->bw[d] = calloc(n ? n : 1, sizeof(double));
            u->iops[d] = calloc(n ? n : 1, sizeof(double));
            if (!u->bw[d] || !u->iops[d])
                n = 0;
        }
        u->nr_samples = n;
    } else if (n < u->nr_samples) {
        u->nr_samples = n; /* jobs of a group: the common complete intervals */
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->nr_series && k < u->nr_samples; i++) {
        const struct iom_series_point *p = &r->series[i];
        if (p->dur_s < step * 0.99)
            continue;
        for (int d = 0; d < IOM_NDIR; d++) {
            u->bw[d][k] += (double)p->bytes[d] / p->dur_s;
            u->iops[d][k] += (double)p->ios[d] / p->dur_s;
        }
        k++;
    }
}

static void unit_add_result(struct unit *u, const struct iom_result *r, uint32_t clone)
{
    for (const struct iom_thread_result *th = r->threads; th < r->threads + r->nr_threads; th++)
        if (clone == UINT32_MAX || clone_of(u->fj, th) == clone) { /* clone's, or all */
            u->datasyncs += (iom_io_stats_merge(&u->sync, &th->sync), th->datasyncs);
            u->rusage |= th->rusage;
            u->ctx += th->ctx, u->majf += th->majf, u->minf += th->minf;
            iom_depth_merge(&u->depth, &th->depth);
        }
    if (r->ss) /* fio: the group's last job's (stat.c __show_run_stats) */
        u->ss = r->ss;
    if (r->measured_ns > u->runtime_ns)
        u->runtime_ns = r->measured_ns;
    if (r->start_ms && (!u->start_ms || r->start_ms < u->start_ms))
        u->start_ms = r->start_ms;
    for (uint32_t t = 0; t < r->nr_targets && !u->error; t++) /* a verify failure: fio's 84 */
        u->error = r->targets[t].first_error_errno ? r->targets[t].first_error_errno
                   : r->targets[t].verify_errors && r->error[0] ? EILSEQ : 0;
    if (!u->error && r->error[0])
        u->error = 5; /* EIO: the run failed without a per-target errno */
    for (int k = 0; k < IOM_NDIR; k++)
        u->total_err += r->total[k].errors;
    if (r->job.coe_classes || r->job.continue_on_error)
        u->coe = true;
    double secs = (double)r->measured_ns / 1e9;
    if (secs > 0) {
        u->usr_pct += r->cpu.process_user_s / secs * 100.0;
        u->sys_pct += r->cpu.process_system_s / secs * 100.0;
    }
}

/* fio's latency_depth: the search's depth with latency_target, else the iodepth */
static uint32_t lat_depth(const struct unit *u)
{
    return u->fj->job.latency_target_ns && u->lat_depth ? u->lat_depth : u->fj->fio_iodepth;
}

/* A clone's runtime: its threads' longest (fio per clone), else the job's measured time */
static uint64_t clone_runtime(const struct iom_fio_job *fj, const struct iom_result *r,
                              uint32_t c)
{
    uint64_t rt = 0;
    for (uint32_t t = 0; t < r->nr_threads; t++)
        if ((fj->fio_numjobs == 1 || clone_of(fj, &r->threads[t]) == c) &&
            r->threads[t].runtime_ns > rt)
            rt = r->threads[t].runtime_ns;
    return rt ? rt : r->measured_ns;
}

/* Clone c's (UINT32_MAX: all) threads: each direction's longest runtime (stats/result.h
 * iom_thread_dir_runtime; fio sum_thread_stats: the maximum), used once one had a verify
 * phase (before: the longest thread runtime, trt, for every direction) */
static void split_runtime(struct unit *u, const struct iom_fio_job *fj,
                          const struct iom_result *r, uint32_t c)
{
    uint64_t lm[IOM_NDIR] = {0}, rt[IOM_NDIR], trt = u->trt;
    bool any = false;
    for (uint32_t t = 0; t < r->nr_threads; t++) {
        const struct iom_thread_result *th = &r->threads[t];
        if (c != UINT32_MAX && fj->fio_numjobs > 1 && clone_of(fj, th) != c)
            continue;
        iom_thread_dir_runtime(&r->job, th, rt);
        for (int d = 0; d < IOM_NDIR; d++)
            lm[d] = rt[d] > lm[d] ? rt[d] : lm[d];
        any |= th->verify_ns > 0;
        u->trt = th->runtime_ns > u->trt ? th->runtime_ns : u->trt;
    }
    if (!any && !u->vsplit)
        return;
    for (int d = 0; d < IOM_NDIR; d++) {
        uint64_t was = u->vsplit ? u->vrt[d] : trt;
        u->vrt[d] = lm[d] > was ? lm[d] : was;
    }
    u->vsplit = true;
}

/* Direction d's runtime of entry u in ns (fio's ts.runtime[d]). */
static uint64_t dir_runtime(const struct unit *u, int d)
{
    return u->vsplit ? u->vrt[d] : u->runtime_ns;
}

static struct unit *new_unit(struct unit *us, uint32_t *n, const struct iom_fio_job *fj)
{
    struct unit *u = &us[(*n)++];
    snprintf(u->name, sizeof(u->name), "%s", fj->jobname);
    u->groupid = fj->groupid;
    u->fj = fj;
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_init(&u->dir[d]);
    iom_io_stats_init(&u->sync);
    return u;
}

/* Job i's clone c as its own entry (a job without group_reporting). */
static void add_clone(struct unit *u, const struct iom_fio_job *fj, const struct iom_result *r,
                      uint32_t c)
{
    uint32_t clones = fj->fio_numjobs;
    u->nr_jobs = 1;
    if (clones == 1) {
        memcpy(u->dir, r->total, sizeof(u->dir));
        add_series(u, r, true);
    } else {
        for (uint32_t t = 0; t < r->nr_threads; t++)
            if (clone_of(fj, &r->threads[t]) == c)
                for (int d = 0; d < IOM_NDIR; d++)
                    iom_io_stats_merge(&u->dir[d], &r->threads[t].dir[d]);
    }
    for (uint32_t t = 0; t < r->nr_threads; t++)
        if (clones == 1 || clone_of(fj, &r->threads[t]) == c)
            u->lat_depth = (u->blk = &r->threads[t])->latency_depth;
    unit_add_result(u, r, clones == 1 ? UINT32_MAX : c);
    for (uint32_t t = 0; t < r->nr_threads && u->start_ms && clones > 1; t++)
        if (clone_of(fj, &r->threads[t]) == c) /* its own start (startdelay range) */
            u->start_ms = r->start_ms + r->threads[t].start_delay_ns / 1000000u;
    u->runtime_ns = clone_runtime(fj, r, c);
    u->job_runtime_ns = u->runtime_ns;
    split_runtime(u, fj, r, clones == 1 ? UINT32_MAX : c);
    if (clones > 1) { /* the process CPU is shared by the clones */
        u->usr_pct /= clones;
        u->sys_pct /= clones;
    }
}

/* A group_reporting job (all its clones) merged into entry u. */
static void merge_job(struct unit *u, const struct iom_fio_job *fj, const struct iom_result *r)
{
    bool first = u->nr_jobs == 0;
    u->nr_jobs += fj->fio_numjobs;
    if (r->nr_threads) /* fio: the entry's last thread's (stat.c __show_run_stats) */
        u->lat_depth = (u->blk = &r->threads[r->nr_threads - 1])->latency_depth;
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_merge(&u->dir[d], &r->total[d]);
    unit_add_result(u, r, UINT32_MAX); /* runtime: the longest (fio sum_thread_stats: runtime[] max) */
    split_runtime(u, fj, r, UINT32_MAX);
    for (uint32_t c = 0; c < fj->fio_numjobs; c++) /* total_run_time: the sum */
        u->job_runtime_ns += clone_runtime(fj, r, c);
    if (first)
        add_series(u, r, true);
    else if (u->bw[0]) /* an entry a clone of a numjobs>1 job began has no samples */
        add_series(u, r, false);
}

/*
 * Build the report entries as fio 3.33's __show_run_stats (stat.c): walking the
 * threads (jobs, then their clones) in order, a thread starts a new entry unless
 * it has group_reporting and belongs to the same reporting group as the thread
 * before it; then it is summed into the current entry (even one a thread without
 * group_reporting started: fio 3.33 does so). Returns the count; *out is malloc'ed.
 */
static uint32_t build_units(const struct iom_fio_file *ff, struct iom_result *const *res,
                            struct unit **out)
{
    uint32_t cap = 0, n = 0;
    for (uint32_t i = 0; i < ff->nr_jobs; i++)
        cap += ff->jobs[i].fio_numjobs;
    struct unit *us = calloc(cap ? cap : 1, sizeof(*us));
    *out = us;
    if (!us)
        return 0;
    struct unit *cur = NULL;
    for (uint32_t i = 0; i < ff->nr_jobs; i++) {
        const struct iom_fio_job *fj = &ff->jobs[i];
        const struct iom_result *r = res[i];
        if (!r)
            continue;
        if (fj->group_reporting) {
            if (!cur || cur->groupid != fj->groupid)
                cur = new_unit(us, &n, fj);
            merge_job(cur, fj, r);
            continue;
        }
        for (uint32_t c = 0; c < fj->fio_numjobs; c++) {
            cur = new_unit(us, &n, fj);
            add_clone(cur, fj, r, c);
        }
    }
    return n;
}

/* Per-group, per-direction aggregate as fio's struct group_run_stats. */
struct grp {
    uint64_t bytes[IOM_NDIR], min_run_ms[IOM_NDIR], max_run_ms[IOM_NDIR], min_bw[IOM_NDIR],
        max_bw[IOM_NDIR], agg[IOM_NDIR];
    bool any[IOM_NDIR];
};

static uint64_t ms_of(uint64_t ns)
{
    return (ns + 500000) / 1000000;
}

static void group_stats(const struct unit *us, uint32_t n, uint32_t g, struct grp *gr)
{
    memset(gr, 0, sizeof(*gr));
    for (uint32_t i = 0; i < n; i++) {
        const struct unit *u = &us[i];
        if (u->groupid != g)
            continue;
        for (int d = 0; d < IOM_NDIR; d++) {
            if (!u->dir[d].ios)
                continue;
            uint64_t run = ms_of(dir_runtime(u, d));
            uint64_t bw = run ? u->dir[d].bytes * 1000 / run : 0;
            if (!gr->any[d] || run < gr->min_run_ms[d])
                gr->min_run_ms[d] = run;
            if (!gr->any[d] || run > gr->max_run_ms[d])
                gr->max_run_ms[d] = run;
            if (!gr->any[d] || bw < gr->min_bw[d])
                gr->min_bw[d] = bw;
            if (!gr->any[d] || bw > gr->max_bw[d])
                gr->max_bw[d] = bw;
            gr->bytes[d] += u->dir[d].bytes;
            gr->any[d] = true;
        }
    }
    for (int d = 0; d < IOM_NDIR; d++)
        gr->agg[d] = gr->max_run_ms[d] ? gr->bytes[d] * 1000 / gr->max_run_ms[d] : 0;
}

/* fio's display_lat(): pick nsec, usec or msec from min, max and stddev */
static void show_lat(FILE *f, const char *name, const struct iom_io_stats *s)
{
    double min = (double)s->lat_min_ns, max = (double)s->lat_max_ns;
    double mean = (double)s->lat_sum_ns / (double)s->ios, dev = iom_io_stats_lat_stddev_ns(s, 1);
    const char *base = "(nsec)";
    double div = 1;
    if (min > 2000000 && max > 99999999.0 && dev > 1000000.0) {
        base = "(msec)";
        div = 1e6;
    } else if (min > 2000 && max > 99999 && dev > 1000.0) {
        base = "(usec)";
        div = 1e3;
    }
    char a[32], b[32];
    iom_fio_num2str((uint64_t)(min / div), 6, 0, "", a, sizeof(a));
    iom_fio_num2str((uint64_t)(max / div), 6, 0, "", b, sizeof(b));
    fprintf(f, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base, a, b, mean / div,
            dev / div);
}

/* fio's show_clat_percentiles() */
static void show_pcts(FILE *f, const struct iom_io_stats *s, const struct iom_fio_job *fj,
                      const char *name)
{
    size_t np;
    const double *ps = iom_fio_pct_list(fj, &np);
    int prec = fj && fj->nr_pcts ? (int)fj->pct_precision : 2; /* fio: "%{p+3}.{p}f" */
    uint64_t v[IOM_FIO_MAX_PCTS > NR_FIO_PCTS ? IOM_FIO_MAX_PCTS : NR_FIO_PCTS];
    uint64_t minv = UINT64_MAX, maxv = 0;
    for (size_t j = 0; j < np; j++) {
        v[j] = iom_io_stats_pct_ns(s, ps[j]);
        if (v[j] < minv)
            minv = v[j];
        if (v[j] > maxv)
            maxv = v[j];
    }
    int scale = minv > 2000000 && maxv > 99999999ULL ? 2 : minv > 2000 && maxv > 99999 ? 1 : 0;
    uint64_t div = scale == 2 ? 1000000 : scale ? 1000 : 1;
    fprintf(f, "    %s percentiles (%s):\n     |", name,
            scale == 2 ? "msec" : scale ? "usec" : "nsec");
    int width = (int)(log10((double)(maxv / div ? maxv / div : 1)) + 1);
    if (width < 5)
        width = 5;
    int per_line = (80 - 7) / (2 + 10 + width);
    for (size_t j = 0; j < np; j++) {
        if (j && j % (size_t)per_line == 0)
            fprintf(f, "     |");
        bool last = j == np - 1;
        uint64_t x = v[j];
        for (int i = 0; i < scale; i++)
            x = (x + 999) / 1000;
        fprintf(f, " %*.*fth=[%*llu]%c", prec + 3, prec, ps[j], width, (unsigned long long)x,
                last ? '\n' : ',');
        if (last)
            break;
        if (j % (size_t)per_line == (size_t)per_line - 1)
            fprintf(f, "\n");
    }
}

/* fio 3.33 stat.c convert_agg_kbytes_percent(): a job's mean bandwidth (KiB/s,
 * its whole part: fio passes it as an int) as a share of its group's aggregate
 * (bytes/s), at most 100% (100% when the aggregate is 1 KiB/s or less): per= of
 * the bw line and the JSON's bw_agg */
static double agg_percent(double mean_kib, uint64_t agg_bytes)
{
    if (agg_bytes <= 1024)
        return 100.0;
    double per = (double)(long long)mean_kib * 100.0 / ((double)agg_bytes / 1024.0);
    return per > 100.0 ? 100.0 : per;
}

static void show_samples(FILE *f, const struct unit *u, int d, const struct grp *gr)
{
    if (u->nr_samples == 0)
        return;
    double mean, dev, mn = INFINITY, mx = 0;
    double kib[4096] = {0};
    uint32_t n = u->nr_samples < 4096 ? u->nr_samples : 4096;
    for (uint32_t i = 0; i < n; i++) {
        kib[i] = u->bw[d][i] / 1024.0;
        if (kib[i] < mn)
            mn = kib[i];
        if (kib[i] > mx)
            mx = kib[i];
    }
    dev = sample_stddev(kib, n, &mean);
    double per = agg_percent(mean, gr->agg[d]);
    fprintf(f, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, "
               "samples=%u\n", "KiB", (unsigned long long)mn, (unsigned long long)mx, per, mean,
            dev, n);
    mn = INFINITY;
    mx = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (u->iops[d][i] < mn)
            mn = u->iops[d][i];
        if (u->iops[d][i] > mx)
            mx = u->iops[d][i];
    }
    dev = sample_stddev(u->iops[d], n, &mean);
    fprintf(f, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%u\n",
            (unsigned long long)mn, (unsigned long long)mx, mean, dev, n);
}

static void show_dir(FILE *f, const struct unit *u, int d, const struct grp *gr)
{
    const struct iom_io_stats *s = &u->dir[d];
    uint64_t run = ms_of(dir_runtime(u, d));
    if (!run)
        run = 1;
    char iops[32], bw[32], bwalt[32], io[32];
    iom_fio_num2str(s->ios * 1000 / run, 4, 0, "", iops, sizeof(iops));
    uint64_t bps = s->bytes * 1000 / run;
    /* fio stat.c show_ddir_status: kb_base=1000 puts the decimal units first */
    int p2 = !(u->fj && u->fj->kb_base == 1000);
    iom_fio_num2str(bps, 4, p2, "B/s", bw, sizeof(bw));
    iom_fio_num2str(bps, 4, !p2, "B/s", bwalt, sizeof(bwalt));
    iom_fio_num2str(s->bytes, 4, p2, "B", io, sizeof(io));
    static const char *const name[IOM_NDIR] = {"read", "write", "trim"}; /* fio's io_ddir_name */
    fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)\n", name[d], iops, bw, bwalt,
            io, (unsigned long long)ms_of(dir_runtime(u, d)));
    show_lat(f, "clat", s);
    show_lat(f, " lat", s);
    show_pcts(f, s, u->fj, "clat");
    show_samples(f, u, d, gr);
}

/* fio's latency distribution: % of all I/Os per range (stat.c
 * io_u_mark_lat_nsec/usec/msec). A range's key is its exclusive upper end:
 * "250" in usec is [100, 250) us; ">=2000" msec is 2 s and more. */
static const double lat_keys[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
static const double lat_mkeys[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000, 2000};
struct lat_dist {
    double ns[10], us[10], ms[12];
};

static void lat_dist(const struct unit *u, struct lat_dist *ld)
{
    memset(ld, 0, sizeof(*ld));
    uint64_t total = u->dir[0].ios + u->dir[1].ios + u->dir[2].ios;
    for (int d = 0; d < IOM_NDIR && total; d++) {
        const struct iom_hist *h = &u->dir[d].hist;
        for (unsigned b = 0; b < IOM_HIST_BUCKETS; b++) {
            if (!h->count[b])
                continue;
            double v = (double)iom_hist_bucket_mid(b), pct = 100.0 * (double)h->count[b] / total;
            int k;
            if (v < 1000) {
                for (k = 0; k < 9 && v >= lat_keys[k]; k++)
                    ;
                ld->ns[k] += pct;
            } else if (v < 1e6) {
                for (k = 0; k < 9 && v / 1e3 >= lat_keys[k]; k++)
                    ;
                ld->us[k] += pct;
            } else {
                for (k = 0; k < 11 && v / 1e6 >= lat_mkeys[k]; k++)
                    ;
                ld->ms[k] += pct;
            }
        }
    }
}

void iom_report_fio_text(FILE *f, const struct iom_fio_file *ff, struct iom_result *const *res)
{
    struct unit *us;
    uint32_t n = build_units(ff, res, &us);
    if (!us)
        return;
    int pid = (int)getpid();
    for (uint32_t i = 0; i < ff->nr_ignored; i++)
        fprintf(f, "iomark: ignored (--ignore-unknown): %s\n", ff->ignored[i]);
    for (uint32_t i = 0; i < ff->nr_jobs; i++)
        if (ff->jobs[i].note[0])
            fprintf(f, "iomark: [%s] %s\n", ff->jobs[i].jobname, ff->jobs[i].note);
    for (uint32_t g = 0; g < ff->nr_groups; g++) {
        struct grp gr;
        group_stats(us, n, g, &gr);
        for (uint32_t i = 0; i < n; i++) {
            const struct unit *u = &us[i];
            if (u->groupid != g)
                continue;
            char when[64] = "";
            time_t t = 0;
            for (uint32_t k = 0; k < ff->nr_jobs; k++)
                if (&ff->jobs[k] == u->fj && res[k])
                    t = res[k]->start_time;
            struct tm tm;
            if (localtime_r(&t, &tm))
                strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
            fprintf(f, "%s: (groupid=%u, jobs=%u): err=%2d: pid=%d: %s\n", u->name, g, u->nr_jobs,
                    u->error, pid, when);
            for (int d = 0; d < IOM_NDIR; d++)
                if (u->dir[d].ios)
                    show_dir(f, u, d, &gr);
            struct lat_dist ld;
            lat_dist(u, &ld);
            iom_fio_show_lat_dist(f, ld.ns, 10, "nsec", lat_mkeys);
            iom_fio_show_lat_dist(f, ld.us, 10, "usec", lat_mkeys);
            iom_fio_show_lat_dist(f, ld.ms, 12, "msec", lat_mkeys);
            if (u->sync.ios) { /* fio stat.c show_ddir_status(DDIR_SYNC) */
                fprintf(f, "  fsync/fdatasync/sync_file_range:\n");
                show_lat(f, "sync", &u->sync);
                show_pcts(f, &u->sync, u->fj, "sync");
            }
            fprintf(f, "  cpu          : usr=%.2f%%, sys=%.2f%%\n", u->usr_pct, u->sys_pct);
            fprintf(f, "     issued rwts: total=%llu,%llu,%llu,0 short=0,0,0,0 dropped=0,0,0,0\n",
                    (unsigned long long)u->dir[0].ios, (unsigned long long)u->dir[1].ios,
                    (unsigned long long)u->dir[2].ios);
            const struct iom_job *jb = &u->fj->job; /* fio prints it for every job */
            fprintf(f, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, depth=%u\n",
                    (unsigned long long)jb->latency_target_ns,
                    (unsigned long long)(jb->latency_window_ns / 1000),
                    jb->latency_target_ns ? jb->latency_pct : 100.0, lat_depth(u));
            if (u->blk && u->blk->block_infos) /* fio: before the steady state */
                iom_fio_block_text(f, u->blk, u->fj);
            if (u->ss)
                iom_fio_ss_text(f, u->ss);
        }
    }
    for (uint32_t g = 0; g < ff->nr_groups; g++) {
        struct grp gr;
        group_stats(us, n, g, &gr);
        fprintf(f, "\nRun status group %u (all jobs):\n", g);
        for (int d = 0; d < IOM_NDIR; d++) {
            if (!gr.any[d])
                continue;
            char agg[32], aggalt[32], mn[32], mnalt[32], mx[32], mxalt[32], io[32], ioalt[32];
            int p2 = 1; /* fio stat.c show_group_stats: the group's kb_base */
            for (uint32_t i = 0; i < n; i++)
                if (us[i].groupid == g && us[i].fj && us[i].fj->kb_base == 1000)
                    p2 = 0;
            iom_fio_num2str(gr.agg[d], 4, p2, "B/s", agg, sizeof(agg));
            iom_fio_num2str(gr.agg[d], 4, !p2, "B/s", aggalt, sizeof(aggalt));
            iom_fio_num2str(gr.min_bw[d], 4, p2, "B/s", mn, sizeof(mn));
            iom_fio_num2str(gr.min_bw[d], 4, !p2, "B/s", mnalt, sizeof(mnalt));
            iom_fio_num2str(gr.max_bw[d], 4, p2, "B/s", mx, sizeof(mx));
            iom_fio_num2str(gr.max_bw[d], 4, !p2, "B/s", mxalt, sizeof(mxalt));
            iom_fio_num2str(gr.bytes[d], 4, p2, "B", io, sizeof(io));
            iom_fio_num2str(gr.bytes[d], 4, !p2, "B", ioalt, sizeof(ioalt));
            fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n",
                    d == 2 ? "   TRIM" : d ? "  WRITE" : "   READ", agg, aggalt, mn, mx, mnalt, mxalt, io, ioalt,
                    (unsigned long long)gr.min_run_ms[d], (unsigned long long)gr.max_run_ms[d]);
        }
    }
    for (uint32_t i = 0; i < n; i++)
        unit_free(&us[i]);
    free(us);
}

/* ---- JSON ---- */

/* fio's clat_ns/lat_ns object; with_pct: "percentile" for the job's list (keys "%f" of
 * each value, as fio's stat.c); plus: also "bins" (--output-format=json+, fio's
 * add_ddir_status_json: every non-empty bucket, keyed by plat_idx_to_val(), the bucket's
 * midpoint, which is iom_hist_bucket_mid() as both use the same 64-per-octave layout) */
static cJSON *lat_obj(const struct iom_io_stats *s, bool with_pct, const struct iom_fio_job *fj,
                      bool plus)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    bool any = s->ios > 0;
    cJSON_AddNumberToObject(o, "min", any ? (double)s->lat_min_ns : 0);
    cJSON_AddNumberToObject(o, "max", any ? (double)s->lat_max_ns : 0);
    cJSON_AddNumberToObject(o, "mean", any ? (double)s->lat_sum_ns / (double)s->ios : 0);
    cJSON_AddNumberToObject(o, "stddev", iom_io_stats_lat_stddev_ns(s, 1));
    cJSON_AddNumberToObject(o, "N", (double)s->ios);
    if (with_pct && any) {
        size_t np;
        const double *ps = iom_fio_pct_list(fj, &np);
        cJSON *p = cJSON_AddObjectToObject(o, "percentile");
        for (size_t j = 0; p && j < np; j++) {
            char key[32];
            snprintf(key, sizeof(key), "%f", ps[j]);
            cJSON_DeleteItemFromObject(p, key); /* a value listed twice: once, as fio */
            cJSON_AddNumberToObject(p, key, (double)iom_io_stats_pct_ns(s, ps[j]));
        }
    }
    if (with_pct && plus && any) {
        cJSON *b = cJSON_AddObjectToObject(o, "bins");
        for (unsigned i = 0; b && i < IOM_HIST_BUCKETS; i++) {
            if (!s->hist.count[i])
                continue;
            char key[32];
            snprintf(key, sizeof(key), "%llu", (unsigned long long)iom_hist_bucket_mid(i));
            cJSON_AddNumberToObject(b, key, (double)s->hist.count[i]);
        }
    }
    return o;
}

static cJSON *dir_obj(const struct unit *u, int d, const struct grp *gr, bool plus)
{
    const struct iom_io_stats *s = &u->dir[d];
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    uint64_t run = ms_of(dir_runtime(u, d));
    double secs = (double)dir_runtime(u, d) / 1e9;
    cJSON_AddNumberToObject(o, "io_bytes", (double)s->bytes);
    cJSON_AddNumberToObject(o, "io_kbytes", (double)(s->bytes / 1024));
    double bw_bytes = secs > 0 ? (double)s->bytes / secs : 0;
    cJSON_AddNumberToObject(o, "bw_bytes", floor(bw_bytes));
    cJSON_AddNumberToObject(o, "bw", floor(bw_bytes / 1024));
    cJSON_AddNumberToObject(o, "iops", secs > 0 ? (double)s->ios / secs : 0);
    cJSON_AddNumberToObject(o, "runtime", s->ios ? (double)run : 0);
    cJSON_AddNumberToObject(o, "total_ios", (double)s->ios);
    cJSON_AddNumberToObject(o, "short_ios", 0);
    cJSON_AddNumberToObject(o, "drop_ios", 0);
    struct iom_io_stats *none = calloc(1, sizeof(*none));
    if (none) {
        cJSON_AddItemToObject(o, "slat_ns", lat_obj(none, false, NULL, false)); /* N = 0 */
        free(none);
    }
    cJSON_AddItemToObject(o, "clat_ns", lat_obj(s, true, u->fj, plus));
    cJSON_AddItemToObject(o, "lat_ns", lat_obj(s, false, NULL, false));
    double mean = 0, dev = 0, mn = 0, mx = 0;
    uint32_t n = s->ios ? u->nr_samples : 0;
    double kib[4096] = {0};
    if (n > 4096)
        n = 4096;
    for (uint32_t i = 0; i < n; i++) {
        kib[i] = u->bw[d][i] / 1024.0;
        mn = i == 0 || kib[i] < mn ? kib[i] : mn;
        mx = kib[i] > mx ? kib[i] : mx;
    }
    dev = sample_stddev(kib, n, &mean);
    cJSON_AddNumberToObject(o, "bw_min", floor(mn));
    cJSON_AddNumberToObject(o, "bw_max", floor(mx));
    cJSON_AddNumberToObject(o, "bw_agg", n ? agg_percent(mean, gr->agg[d]) : 0);
    cJSON_AddNumberToObject(o, "bw_mean", mean);
    cJSON_AddNumberToObject(o, "bw_dev", dev);
    cJSON_AddNumberToObject(o, "bw_samples", n);
    mn = mx = 0;
    for (uint32_t i = 0; i < n; i++) {
        mn = i == 0 || u->iops[d][i] < mn ? u->iops[d][i] : mn;
        mx = u->iops[d][i] > mx ? u->iops[d][i] : mx;
    }
    dev = n ? sample_stddev(u->iops[d], n, &mean) : (mean = 0);
    cJSON_AddNumberToObject(o, "iops_min", floor(mn));
    cJSON_AddNumberToObject(o, "iops_max", floor(mx));
    cJSON_AddNumberToObject(o, "iops_mean", mean);
    cJSON_AddNumberToObject(o, "iops_stddev", dev);
    cJSON_AddNumberToObject(o, "iops_samples", n);
    return o;
}

static void lat_maps(cJSON *job, const struct unit *u)
{
    struct lat_dist ld;
    lat_dist(u, &ld);
    cJSON *a = cJSON_AddObjectToObject(job, "latency_ns"), *b = cJSON_AddObjectToObject(job, "latency_us"),
          *c = cJSON_AddObjectToObject(job, "latency_ms");
    char key[16];
    for (int k = 0; k < 10; k++) {
        snprintf(key, sizeof(key), "%g", lat_keys[k]);
        cJSON_AddNumberToObject(a, key, ld.ns[k]);
        cJSON_AddNumberToObject(b, key, ld.us[k]);
    }
    for (int k = 0; k < 11; k++) {
        snprintf(key, sizeof(key), "%g", lat_mkeys[k]);
        cJSON_AddNumberToObject(c, key, ld.ms[k]);
    }
    cJSON_AddNumberToObject(c, ">=2000", ld.ms[11]);
}

cJSON *iom_report_fio_json(const struct iom_fio_file *ff, struct iom_result *const *res,
                           bool plus, const struct iom_fio_clock *clock)
{
    struct unit *us;
    uint32_t n = build_units(ff, res, &us);
    if (!us)
        return NULL;
    cJSON *doc = cJSON_CreateObject();
    uint64_t elapsed_ms = iom_fio_json_head(doc, ff, res, clock);
    cJSON *jobs = cJSON_AddArrayToObject(doc, "jobs");
    for (uint32_t g = 0; g < ff->nr_groups; g++) {
        struct grp gr;
        group_stats(us, n, g, &gr);
        for (uint32_t i = 0; i < n; i++) {
            const struct unit *u = &us[i];
            if (u->groupid != g)
                continue;
            cJSON *j = cJSON_CreateObject();
            cJSON_AddItemToArray(jobs, j);
            cJSON_AddStringToObject(j, "jobname", u->name);
            cJSON_AddNumberToObject(j, "groupid", g);
            cJSON_AddNumberToObject(j, "error", u->error);
            /* fio 3.33's counts of errors continue_on_error let pass (td_error.c
             * update_error_count; a fatal one counts too) */
            if (u->coe) { /* fio stat.c: "if (ts->continue_on_error)" */
                cJSON_AddNumberToObject(j, "total_err", (double)u->total_err);
                cJSON_AddNumberToObject(j, "first_error", u->total_err ? u->error : 0);
            }
            cJSON_AddNumberToObject(j, "eta", 0);
            cJSON_AddNumberToObject(j, "elapsed", (double)((elapsed_ms + 999) / 1000));
            cJSON_AddNumberToObject(j, "job_start", (double)u->start_ms); /* fio 3.36's field */
            cJSON *jo = u->fj->nr_opts ? cJSON_AddObjectToObject(j, "job options") : NULL;
            for (uint32_t k = 0; jo && k < u->fj->nr_opts; k++) {
                cJSON_DeleteItemFromObject(jo, u->fj->opts[k].name);
                cJSON_AddStringToObject(jo, u->fj->opts[k].name, u->fj->opts[k].value);
            }
            cJSON_AddItemToObject(j, "read", dir_obj(u, 0, &gr, plus));
            cJSON_AddItemToObject(j, "write", dir_obj(u, 1, &gr, plus));
            cJSON_AddItemToObject(j, "trim", dir_obj(u, 2, &gr, plus));
            cJSON *sy = cJSON_AddObjectToObject(j, "sync"); /* fio stat.c: total_ios fsyncs only */
            cJSON_AddItemToObject(sy, "lat_ns", lat_obj(&u->sync, true, u->fj, false));
            cJSON_AddNumberToObject(sy, "total_ios", (double)(u->sync.ios - u->datasyncs));
            cJSON_AddNumberToObject(j, "job_runtime", (double)ms_of(u->job_runtime_ns));
            cJSON_AddNumberToObject(j, "usr_cpu", u->usr_pct);
            cJSON_AddNumberToObject(j, "sys_cpu", u->sys_pct);
            if (u->rusage) { /* the job threads' own rusage (fio stat.c) */
                cJSON_AddNumberToObject(j, "ctx", (double)u->ctx);
                cJSON_AddNumberToObject(j, "majf", (double)u->majf);
                cJSON_AddNumberToObject(j, "minf", (double)u->minf);
            }
            iom_fio_depth_json(j, &u->depth);
            lat_maps(j, u);
            /* fio's latency-target fields: target in ns, window in us (fio stat.c) */
            const struct iom_job *jb = &u->fj->job;
            cJSON_AddNumberToObject(j, "latency_depth", lat_depth(u));
            cJSON_AddNumberToObject(j, "latency_target", (double)jb->latency_target_ns);
            cJSON_AddNumberToObject(j, "latency_percentile",
                                    jb->latency_target_ns ? jb->latency_pct : 100.0);
            cJSON_AddNumberToObject(j, "latency_window", (double)(jb->latency_window_ns / 1000));
            if (u->blk && u->blk->block_infos)
                iom_fio_block_json(j, u->blk, u->fj);
            if (u->ss)
                iom_fio_ss_json(j, u->ss);
        }
    }
    if (clock)
        iom_fio_disk_util_json(doc, clock->disks, clock->nr_disks);
    cJSON *im = cJSON_AddObjectToObject(doc, "iomark");
    cJSON_AddStringToObject(im, "layout", "fio-3.33 --output-format=json (fields iomark measures)");
    cJSON_AddStringToObject(im, "latency", "clat_ns and lat_ns both hold submit-to-complete time "
                                           "(fio's lat); slat is not measured (N = 0)");
    cJSON *ig = cJSON_AddArrayToObject(im, "ignored_options");
    for (uint32_t i = 0; i < ff->nr_ignored; i++)
        cJSON_AddItemToArray(ig, cJSON_CreateString(ff->ignored[i]));
    cJSON *notes = cJSON_AddArrayToObject(im, "notes");
    for (uint32_t i = 0; i < ff->nr_jobs; i++)
        if (ff->jobs[i].note[0]) {
            char s[640];
            snprintf(s, sizeof(s), "[%s] %s", ff->jobs[i].jobname, ff->jobs[i].note);
            cJSON_AddItemToArray(notes, cJSON_CreateString(s));
        }
    for (uint32_t i = 0; i < n; i++)
        unit_free(&us[i]);
    free(us);
    return doc;
}
