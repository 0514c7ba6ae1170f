/* repeat.c - document and text summary of `run --repeat N` (see repeat.h). */
#include "report/repeat.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "report/report.h"
#include "stats/compare.h"

enum { M_IOPS, M_MB, M_MIB, M_LAT, M_P99, NR_M };
static const char *const mnames[NR_M] = {"iops", "mb_per_s", "mib_per_s", "lat_mean_us",
                                         "lat_p99_us"};

static int p99_index(void)
{
    for (int i = 0; i < IOM_NR_PCT; i++)
        if (iom_pct_list[i] == 99)
            return i;
    return IOM_NR_PCT - 1;
}

/* Figures of one direction (0 read, 1 write, 2 total, 3 trim) of one run. */
static void figures(const struct iom_result *r, int dir, double out[NR_M])
{
    struct iom_io_stats *s = malloc(sizeof(*s));
    struct iom_summary m;
    if (!s) {
        for (int k = 0; k < NR_M; k++)
            out[k] = NAN;
        return;
    }
    if (dir == 2)
        iom_result_merge_dirs(r->total, s);
    else
        *s = r->total[dir == 3 ? IOM_DIR_TRIM : dir];
    iom_summarize(s, r->measured_ns, &m);
    free(s);
    out[M_IOPS] = m.iops;
    out[M_MB] = m.mb_per_s;
    out[M_MIB] = m.mib_per_s;
    out[M_LAT] = m.ios ? m.lat_mean_us : NAN;
    out[M_P99] = m.ios ? m.lat_pct_us[p99_index()] : NAN;
}

static double busy_pct(const struct iom_result *r)
{
    return r->cpu.nr_cpus ? r->cpu.user_pct + r->cpu.system_pct : NAN;
}

static double iops_per_cpu(const struct iom_result *r)
{
    double busy = busy_pct(r), secs = (double)r->measured_ns / 1e9;
    double ios = (double)(r->total[0].ios + r->total[1].ios + r->total[2].ios);
    return busy > 0 && secs > 0 ? ios / secs / busy : NAN;
}

static cJSON *stats_obj(const double *v, unsigned n)
{
    struct iom_sample_stats s;
    iom_sample_stats(v, n, &s);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "n", (double)s.n);
    if (s.n == 0)
        return o;
    cJSON_AddNumberToObject(o, "mean", s.mean);
    cJSON_AddNumberToObject(o, "min", s.min);
    cJSON_AddNumberToObject(o, "max", s.max);
    cJSON_AddNumberToObject(o, "stddev", s.stddev);
    return o;
}

/* Whether run r enters the statistics: it ran its whole measured phase
 * (an interrupted or failed run is kept in the document, marked, as sweep
 * keeps a partial point out of its curve). */
static bool pooled(const struct iom_result *r)
{
    return !r->interrupted_signal && !r->error[0];
}

cJSON *iom_repeat_json(struct iom_result *const *r, unsigned nr, unsigned asked)
{
    cJSON *d = iom_json_doc_new("repeat");
    double *v = calloc(nr ? nr : 1, sizeof(*v));
    if (!d || !v) {
        cJSON_Delete(d);
        free(v);
        return NULL;
    }
    const char *status = "ok";
    for (unsigned i = 0; i < nr; i++) {
        if (r[i]->error[0])
            status = "error";
        else if (r[i]->interrupted_signal && strcmp(status, "ok") == 0)
            status = "interrupted";
    }
    if (nr < asked && strcmp(status, "ok") == 0)
        status = "interrupted";
    unsigned np = 0;
    for (unsigned i = 0; i < nr; i++)
        np += pooled(r[i]);
    cJSON_AddStringToObject(d, "status", status);
    cJSON_AddNumberToObject(d, "repeat", asked);
    cJSON_AddNumberToObject(d, "completed", np);
    cJSON_AddStringToObject(d, "pooled", "runs that completed their measured phase; "
                            "interrupted or failed runs are in runs[] but not in summary");
    cJSON_AddStringToObject(d, "stddev", "sample (n - 1)");
    cJSON *sum = cJSON_AddObjectToObject(d, "summary");
    static const char *const dn[4] = {"read", "write", "total", "trim"};
    for (int dir = 0; dir < 4; dir++) {
        if (dir == 3 && !iom_job_trims(&r[0]->job))
            continue; /* a trim summary for jobs that trim */
        cJSON *o = cJSON_AddObjectToObject(sum, dn[dir]);
        for (int k = 0; k < NR_M; k++) {
            unsigned m = 0;
            for (unsigned i = 0; i < nr; i++) {
                double f[NR_M];
                if (!pooled(r[i]))
                    continue;
                figures(r[i], dir, f);
                v[m++] = f[k];
            }
            cJSON_AddItemToObject(o, mnames[k], stats_obj(v, m));
        }
    }
    cJSON *c = cJSON_AddObjectToObject(sum, "cpu");
    unsigned m = 0;
    for (unsigned i = 0; i < nr; i++)
        if (pooled(r[i]))
            v[m++] = busy_pct(r[i]);
    cJSON_AddItemToObject(c, "busy_pct", stats_obj(v, m));
    m = 0;
    for (unsigned i = 0; i < nr; i++)
        if (pooled(r[i]))
            v[m++] = iops_per_cpu(r[i]);
    cJSON_AddItemToObject(c, "iops_per_cpu_pct", stats_obj(v, m));
    cJSON *runs = cJSON_AddArrayToObject(d, "runs");
    for (unsigned i = 0; i < nr; i++) {
        cJSON *one = iom_report_json(r[i]);
        if (!one)
            continue;
        if (i == 0) { /* the document starts when the first run did */
            const cJSON *st = cJSON_GetObjectItemCaseSensitive(one, "start_time");
            if (cJSON_IsString(st))
                cJSON_AddStringToObject(d, "start_time", st->valuestring);
        }
        cJSON_AddItemToArray(runs, one);
    }
    free(v);
    return d;
}

void iom_repeat_text(FILE *f, struct iom_result *const *r, unsigned nr, unsigned asked)
{
    if (nr == 0) {
        fprintf(f, "no run completed\n");
        return;
    }
    const struct iom_job *job = &r[0]->job;
    char bs[32], qd[80];
    iom_fmt_bytes(iom_job_max_bs(job), bs, sizeof(bs));
    if (iom_engine_depth(job->ioengine, job->iodepth) != job->iodepth) /* psync: 1 in flight */
        snprintf(qd, sizeof(qd), "%u asked, 1 in flight (%s is synchronous)", job->iodepth,
                 job->ioengine);
    else
        snprintf(qd, sizeof(qd), "%u", job->iodepth);
    fprintf(f, "%s: %s, bs %s, iodepth %s, numjobs %u, engine %s; %u of %u runs\n\n", job->name,
            iom_rw_name(job->rw), bs, qd, job->numjobs, r[0]->engine, nr, asked);
    fprintf(f, "%-8s %12s %10s %10s %14s %13s %8s\n", "run", "IOPS", "MB/s", "MiB/s",
            "mean lat (us)", "p99 lat (us)", "CPU %");
    double *all = calloc((size_t)nr * (NR_M + 1), sizeof(*all));
    if (!all)
        return;
    for (unsigned i = 0; i < nr; i++) {
        double *x = &all[(size_t)i * (NR_M + 1)];
        figures(r[i], 2, x);
        x[NR_M] = busy_pct(r[i]);
        fprintf(f, "%-8u %12.0f %10.2f %10.2f %14.1f %13.1f %8.1f%s\n", i + 1, x[M_IOPS], x[M_MB],
                x[M_MIB], x[M_LAT], x[M_P99], x[NR_M],
                r[i]->interrupted_signal ? "  (interrupted: not in the statistics)"
                : r[i]->error[0] ? "  (failed: not in the statistics)" : "");
    }
    static const char *const rows[4] = {"mean", "min", "max", "stddev"};
    double *col = calloc(nr, sizeof(*col));
    if (!col) {
        free(all);
        return;
    }
    struct iom_sample_stats st[NR_M + 1];
    unsigned np = 0;
    for (int k = 0; k <= NR_M; k++) {
        np = 0;
        for (unsigned i = 0; i < nr; i++)
            if (pooled(r[i]))
                col[np++] = all[(size_t)i * (NR_M + 1) + k];
        iom_sample_stats(col, np, &st[k]);
    }
    if (np < nr)
        fprintf(f, "statistics over the %u run%s that completed\n", np, np == 1 ? "" : "s");
    if (np == 0) {
        free(col);
        free(all);
        return;
    }
    for (int row = 0; row < 4; row++) {
        double x[NR_M + 1];
        for (int k = 0; k <= NR_M; k++)
            x[k] = row == 0 ? st[k].mean : row == 1 ? st[k].min : row == 2 ? st[k].max : st[k].stddev;
        fprintf(f, "%-8s %12.0f %10.2f %10.2f %14.1f %13.1f %8.1f\n", rows[row], x[M_IOPS], x[M_MB],
                x[M_MIB], x[M_LAT], x[M_P99], x[NR_M]);
    }
    if (np > 1 && st[M_IOPS].mean > 0)
        fprintf(f, "\nrun-to-run spread of IOPS: %.1f%% (sample stddev / mean)\n",
                st[M_IOPS].stddev / st[M_IOPS].mean * 100);
    free(col);
    free(all);
}
