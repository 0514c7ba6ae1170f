/* html.c - the self-contained HTML report with SVG charts (see html.h);
 * the charts themselves are in html_svg.c. */
#include "report/html_int.h"
#include "stats/summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- data access ---- */

static void table(FILE *f, const struct iom_cmp *c, const struct iom_cmp_workload *w)
{
    fprintf(f, "<table><thead><tr><th>metric</th>");
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        fprintf(f, "<th>");
        iom_html_esc(f, c->inputs[i].label);
        fprintf(f, "</th>");
    }
    for (uint32_t i = 1; i < c->nr_inputs; i++) {
        fprintf(f, "<th>");
        iom_html_esc(f, c->inputs[i].label);
        fprintf(f, " change</th>");
    }
    fprintf(f, "</tr></thead><tbody>\n");
    for (uint32_t r = 0; r < w->nr_rows; r++) {
        const struct iom_cmp_row *row = &w->rows[r];
        fprintf(f, "<tr><td>");
        iom_html_esc(f, row->label);
        fprintf(f, " (");
        iom_html_esc(f, row->unit);
        fprintf(f, ")</td>");
        for (uint32_t i = 0; i < c->nr_inputs; i++) {
            char cell[64];
            iom_cmp_fmt_cell(&row->cells[i], " ± ", cell, sizeof(cell));
            fprintf(f, "<td class=\"num\" data-key=\"%s\" data-input=\"%u\">", row->key, i);
            iom_html_esc(f, cell);
            fprintf(f, "</td>");
        }
        for (uint32_t i = 1; i < c->nr_inputs; i++) {
            char t[96];
            const struct iom_cmp_delta *d = &row->delta[i];
            iom_cmp_delta_text(row, d, t, sizeof(t));
            const char *cls = !t[0] || !d->has_test ? "" /* no verdict */
                              : !d->significant       ? "noise"
                              : d->improvement_pct >= 0 ? "better"
                                                        : "worse";
            fprintf(f, "<td class=\"%s\">", cls);
            iom_html_esc(f, t);
            if (d->has_test)
                fprintf(f, " (p=%.2g%s)", d->welch.p, d->significant ? "" : ", within noise");
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

/* Label of one series: the input, and the run when an input has several. */
static void series_name(const struct iom_cmp *c, uint32_t i, uint32_t nfiles_runs, char *buf,
                        size_t len)
{
    if (nfiles_runs > 1)
        snprintf(buf, len, "%s (run 1 of %u)", c->inputs[i].label, nfiles_runs);
    else
        snprintf(buf, len, "%s", c->inputs[i].label);
}

static const struct iom_imp_run *first_run(const struct iom_cmp *c, uint32_t i,
                                           const struct iom_cmp_workload *w, uint32_t *nruns)
{
    const struct iom_imp_run *r = NULL;
    *nruns = 0;
    for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
        const struct iom_imp_workload *x = iom_cmp_find_workload(c->inputs[i].files[k], w->name, w->positional);
        if (x) {
            if (!r)
                r = &x->runs[0];
            *nruns += x->nr_runs;
        }
    }
    return r;
}

/* Make room for 8 more lines in the parallel arrays of workload_charts. */
static int grow(struct line **ls, double ***xs, double ***ys, char (**names)[200], size_t *cap)
{
    size_t nc = *cap + 8;
    struct line *l = realloc(*ls, nc * sizeof(*l));
    if (l)
        *ls = l;
    double **x = realloc(*xs, nc * sizeof(*x));
    if (x)
        *xs = x;
    double **y = realloc(*ys, nc * sizeof(*y));
    if (y)
        *ys = y;
    char(*n)[200] = realloc(*names, nc * sizeof(*n));
    if (n)
        *names = n;
    if (!l || !x || !y || !n)
        return -ENOMEM;
    for (size_t i = *cap; i < nc; i++)
        x[i] = y[i] = NULL;
    *cap = nc;
    return 0;
}

/* Copy the points of a percentile curve that `samples` latencies resolve
 * (stats/summary.h iom_pct_resolved) into xs, ys; the others are the
 * largest sample (fio: its bucket's middle) and are left out, counted in *cut. Returns the number kept. */
static size_t resolved_points(const struct iom_imp_pct *pct, uint32_t nr, double samples, double *xs,
                              double *ys, size_t *cut)
{
    size_t n = 0;
    for (uint32_t p = 0; p < nr; p++) {
        if (pct[p].pct >= 100) /* the maximum (DiskSpd's p100): off the nines axis, not a cut */
            continue;
        if (!iom_pct_resolved(pct[p].pct, samples)) {
            (*cut)++;
            continue;
        }
        xs[n] = pct[p].pct;
        ys[n] = pct[p].lat_us;
        n++;
    }
    return n;
}

/* Percentile lines "INPUT: TARGET" for each target of a multi-target run;
 * *cut counts the points left out as not resolved. */
static int add_target_curves(const struct iom_cmp *c, uint32_t i, const struct iom_imp_run *r,
                             struct line **ls, double ***xs, double ***ys, char (**names)[200],
                             size_t *nl, size_t *cap, size_t *cut)
{
    for (uint32_t t = 0; t < r->nr_tcurves; t++) {
        const struct iom_imp_tcurve *tc = &r->tcurves[t];
        if (tc->nr_pct == 0)
            continue;
        if (*nl == *cap && grow(ls, xs, ys, names, cap))
            return -ENOMEM;
        size_t k = *nl;
        free((*xs)[k]);
        free((*ys)[k]);
        (*xs)[k] = malloc(tc->nr_pct * sizeof(double));
        (*ys)[k] = malloc(tc->nr_pct * sizeof(double));
        if (!(*xs)[k] || !(*ys)[k])
            return -ENOMEM;
        size_t n = resolved_points(tc->pct, tc->nr_pct, tc->samples, (*xs)[k], (*ys)[k], cut);
        if (n == 0)
            continue;
        snprintf((*names)[k], sizeof((*names)[0]), "%s: %s", c->inputs[i].label, tc->target);
        (*ls)[k] = (struct line){(*names)[k], n, (*xs)[k], (*ys)[k], -1, (int)i, (int)t};
        (*nl)++;
    }
    return 0;
}

/* Does a CrystalDiskMark-style result (iomark mark, CrystalDiskMark text)
 * hold w? Its throughput is charted in MB/s, the unit of its own table. */
static int mark_workload(const struct iom_cmp *c, const struct iom_cmp_workload *w)
{
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
            const struct iom_imp_result *r = c->inputs[i].files[k];
            if ((!strcmp(r->kind, "mark") || !strcmp(r->format, "cdm-text")) &&
                iom_cmp_find_workload(r, w->name, w->positional))
                return 1;
        }
    return 0;
}

/* The per-interval series of runs with fewer than 3 points (1-s runs) as a
 * table: a line through one or two points says nothing. */
static void series_table(FILE *f, const struct iom_cmp *c, const struct iom_cmp_workload *w,
                         uint32_t q)
{
    fprintf(f, "<table class=\"series\" id=\"series-%u\"><caption>", q);
    iom_html_esc(f, w->name);
    fprintf(f, ": IOPS and mean latency per interval (too few intervals for a chart)</caption>"
               "<thead><tr><th>input</th><th>interval end (s)</th><th>IOPS</th>"
               "<th>mean latency (us)</th></tr></thead><tbody>\n");
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        uint32_t nruns;
        const struct iom_imp_run *r = first_run(c, i, w, &nruns);
        for (uint32_t k = 0; r && k < r->nr_series; k++) {
            char name[200], a[32], b[32];
            series_name(c, i, nruns, name, sizeof(name));
            iom_cmp_fmt_num(r->series[k].iops, a, sizeof(a));
            if (isnan(r->series[k].lat_mean_us))
                snprintf(b, sizeof(b), "-");
            else
                iom_cmp_fmt_num(r->series[k].lat_mean_us, b, sizeof(b));
            fprintf(f, "<tr><td>");
            iom_html_esc(f, name);
            fprintf(f, "</td><td class=\"num\" data-t=\"%.10g\">%.3f</td><td class=\"num\" "
                       "data-iops=\"%.10g\">%s</td><td class=\"num\">%s</td></tr>\n",
                    r->series[k].t_s, r->series[k].t_s, r->series[k].iops, a, b);
        }
    }
    fprintf(f, "</tbody></table>\n");
}

static void workload_charts(FILE *f, const struct iom_cmp *c, const struct iom_cmp_workload *w,
                            uint32_t q)
{
    /* comparison bars; throughput in the unit of the source's own table */
    const char *bars[] = {"iops", mark_workload(c, w) ? "mb_per_s" : "mib_per_s", "lat_mean_us",
                          "lat_p99_us", "cpu_pct", "nopm", "tpm"};
    if (c->nr_inputs > 1)
        for (size_t b = 0; b < sizeof(bars) / sizeof(bars[0]); b++)
            for (uint32_t r = 0; r < w->nr_rows; r++)
                if (!strcmp(w->rows[r].key, bars[b]))
                    iom_html_bar_chart(f, c, &w->rows[r], w->name);
    /* time series: with fewer than 3 intervals in every run, a table */
    size_t most = 0;
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        uint32_t nruns;
        const struct iom_imp_run *r = first_run(c, i, w, &nruns);
        if (r && r->nr_series > most)
            most = r->nr_series;
    }
    int series_as_table = most > 0 && most < 3;
    if (series_as_table)
        series_table(f, c, w, q);
    /* percentile curves and time series: run 1 of every input */
    struct line *ls = NULL;
    double **xs = NULL, **ys = NULL;
    char(*names)[200] = NULL;
    size_t cap = 0;
    if (grow(&ls, &xs, &ys, &names, &cap))
        goto out;
    for (int chart = 0; chart < (series_as_table ? 1 : 3); chart++) {
        size_t nl = 0, cut = 0; /* cut: percentile points not resolved by their samples */
        for (uint32_t i = 0; i < c->nr_inputs; i++) {
            uint32_t nruns;
            const struct iom_imp_run *r = first_run(c, i, w, &nruns);
            if (chart == 0 && r && r->nr_tcurves > 1) { /* one curve per target */
                if (add_target_curves(c, i, r, &ls, &xs, &ys, &names, &nl, &cap, &cut))
                    goto out;
                continue;
            }
            size_t n = !r ? 0 : chart == 0 ? r->nr_pct : r->nr_series;
            if (n == 0)
                continue;
            if (nl == cap && grow(&ls, &xs, &ys, &names, &cap))
                goto out;
            free(xs[nl]);
            free(ys[nl]);
            xs[nl] = malloc(n * sizeof(double));
            ys[nl] = malloc(n * sizeof(double));
            if (!xs[nl] || !ys[nl])
                goto out;
            if (chart == 0)
                n = resolved_points(r->pct, r->nr_pct, r->dir[IOM_IMP_TOTAL].ios, xs[nl], ys[nl],
                                    &cut);
            else
                for (size_t k = 0; k < n; k++) {
                    xs[nl][k] = r->series[k].t_s;
                    ys[nl][k] = chart == 1 ? r->series[k].iops : r->series[k].lat_mean_us;
                }
            if (n == 0)
                continue;
            series_name(c, i, nruns, names[nl], sizeof(names[0]));
            ls[nl] = (struct line){names[nl], n, xs[nl], ys[nl], -1, (int)i, 0};
            nl++;
        }
        if (nl == 0)
            continue;
        for (size_t k = 0; k < nl; k++) /* names may have moved when the arrays grew */
            ls[k].name = names[k];
        char id[48], title[200];
        if (chart == 0) {
            snprintf(id, sizeof(id), "pct-%u", q);
            snprintf(title, sizeof(title), "%s: latency percentiles (log scale)", w->name);
            iom_html_line_chart(f, id, title, "percentile", "latency (us)", AX_NINES, AX_LOG, 0, ls, nl);
            if (cut)
                fprintf(f, "<p class=\"meta pct-cut\" data-cut=\"%zu\">Each curve ends at the "
                           "last percentile its latency samples resolve: percentile p needs at "
                           "least 1/(1 - p/100) samples (p99.9: 1000, p99.9999: 10<sup>6</sup>); "
                           "with fewer, the value reported for it is the largest sample (fio: the "
                           "middle of its histogram bucket holding it), not a "
                           "measurement of that percentile.</p>\n",
                        cut);
        } else if (chart == 1) {
            snprintf(id, sizeof(id), "iops-time-%u", q);
            snprintf(title, sizeof(title), "%s: IOPS over time", w->name);
            iom_html_line_chart(f, id, title, "time (s)", "IOPS", AX_LIN, AX_LIN, 1, ls, nl);
        } else {
            snprintf(id, sizeof(id), "lat-time-%u", q);
            snprintf(title, sizeof(title), "%s: mean latency over time (log scale)", w->name);
            iom_html_line_chart(f, id, title, "time (s)", "mean latency (us)", AX_LIN, AX_LOG, 0, ls, nl);
        }
    }
out:
    for (size_t i = 0; xs && ys && i < cap; i++) {
        free(xs[i]);
        free(ys[i]);
    }
    free(xs);
    free(ys);
    free(ls);
    free(names);
}

/* Every point of a sweep, in the order measured: the numbers behind its
 * curves, with the columns of the sweep's text table (CPU u+s %: user + system %
 * of the whole machine; IOPS step: the change from the target's previous point). */
static void sweep_table(FILE *f, const struct iom_imp_result *r, uint32_t i, uint32_t k)
{
    fprintf(f, "<table class=\"sweep-points\" id=\"sweep-points-%u-%u\"><caption>Points of the "
               "sweep, in the order measured</caption><thead><tr><th>target</th><th>threads</th>"
               "<th>iodepth</th><th>outstanding I/O</th><th>IOPS</th><th>MiB/s</th>"
               "<th>mean latency (us)</th><th>p99 latency (us)</th><th title=\"user + system time of all the machine's CPUs, not only iomark's\">CPU u+s %% (machine)</th>"
               "<th>IOPS step</th><th>knee</th></tr></thead><tbody>\n",
            i, k);
    for (uint32_t q = 0; q < r->nr_workloads; q++) {
        const struct iom_imp_workload *w = &r->w[q];
        const struct iom_imp_dir *d = &w->runs[0].dir[2];
        const struct iom_imp_dir *prev = NULL; /* the same target's previous point */
        for (uint32_t p = q; p-- > 0;)
            if (!strcmp(r->w[p].target, w->target)) {
                prev = &r->w[p].runs[0].dir[2];
                break;
            }
        char v[4][32], cpu[32] = "", step[32] = "";
        iom_cmp_fmt_num(d->iops, v[0], sizeof(v[0]));
        iom_cmp_fmt_num(d->mib_per_s, v[1], sizeof(v[1]));
        iom_cmp_fmt_num(d->lat_mean_us, v[2], sizeof(v[2]));
        iom_cmp_fmt_num(d->lat_p99_us, v[3], sizeof(v[3]));
        if (!isnan(w->runs[0].cpu_pct))
            snprintf(cpu, sizeof(cpu), "%.1f", w->runs[0].cpu_pct);
        if (prev && prev->iops > 0 && !isnan(d->iops))
            snprintf(step, sizeof(step), "%+.1f%%", (d->iops - prev->iops) / prev->iops * 100);
        fprintf(f, "<tr><td>");
        iom_html_esc(f, w->target);
        fprintf(f, "</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d"
                   "</td><td class=\"num\" data-iops=\"%.10g\">%s</td><td class=\"num\">%s</td>"
                   "<td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                   "<td class=\"num\">%s</td><td>%s</td></tr>\n",
                w->threads, w->iodepth, w->threads * w->iodepth, d->iops, v[0], v[1], v[2], v[3],
                cpu, step,
                w->is_knee ? "knee" : w->is_knee_base ? "best before the knee" : "");
    }
    fprintf(f, "</tbody></table>\n");
}

/* Per target without a knee, say why (as the sweep's text output): none found
 * in a complete sweep, not judged in one that ended early. */
static void knee_verdicts(FILE *f, const struct iom_imp_result *r, const char *const *tg, size_t nt)
{
    for (size_t t = 0; t < nt; t++) {
        int knee = 0;
        for (uint32_t q = 0; q < r->nr_workloads; q++)
            knee |= r->w[q].is_knee && !strcmp(r->w[q].target, tg[t]);
        if (knee)
            continue;
        fprintf(f, "<p class=\"knee-verdict\">");
        iom_html_esc(f, tg[t]);
        if (!strcmp(r->sweep_status, "ok"))
            fprintf(f, ": no knee found; IOPS still grow by %g%% or more up to the last point.</p>\n",
                    r->sweep_knee_pct);
        else
            fprintf(f, ": knee not judged; the sweep ended (%s) before all its points.</p>\n",
                    r->sweep_status[0] ? r->sweep_status : "status unknown");
    }
}

/* Sweep scaling curves: every file with points (threads, iodepth) by target. */
static void sweep_charts(FILE *f, const struct iom_cmp *c)
{
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
            const struct iom_imp_result *r = c->inputs[i].files[k];
            if (strcmp(r->kind, "sweep") != 0 || r->nr_workloads < 2)
                continue;
            /* targets in order of appearance */
            const char *tg[16];
            size_t nt = 0;
            for (uint32_t q = 0; q < r->nr_workloads; q++) {
                int seen = 0;
                for (size_t t = 0; t < nt; t++)
                    seen |= !strcmp(tg[t], r->w[q].target);
                if (!seen && nt < 16)
                    tg[nt++] = r->w[q].target;
            }
            fprintf(f, "<h2>Scaling: ");
            iom_html_esc(f, c->inputs[i].label);
            /* thread counts in use; is there a knee to ring? */
            int th[16], any_knee = 0;
            size_t nth = 0;
            for (uint32_t q = 0; q < r->nr_workloads; q++) {
                int seen = 0;
                for (size_t t = 0; t < nth; t++)
                    seen |= th[t] == r->w[q].threads;
                if (!seen && nth < 16)
                    th[nth++] = r->w[q].threads;
                any_knee |= r->w[q].is_knee;
            }
            /* the legend explains what this chart shows, nothing more */
            fprintf(f,
                    "</h2>\n<p>%s; its points are the queue depths, placed at their "
                    "outstanding I/O (threads x iodepth).%s%s</p>\n",
                    nt > 1 && nth > 1 ? "One line per target (colour) and thread count (dash)"
                    : nt > 1          ? "One line per target (colour)"
                    : nth > 1         ? "One line per thread count (dash)"
                                      : "One line",
                    nt > 1 ? " Targets were measured in turns." : "",
                    any_knee ? " The red ring marks the knee: the first point from which more "
                               "concurrency adds little IOPS while latency grows."
                             : "");
            knee_verdicts(f, r, tg, nt);
            for (size_t a = 1; a < nth; a++) /* ascending */
                for (size_t b = a; b > 0 && th[b - 1] > th[b]; b--) {
                    int x = th[b];
                    th[b] = th[b - 1];
                    th[b - 1] = x;
                }
            /* one line per target and thread count; x = outstanding I/O */
            for (int chart = 0; chart < 2; chart++) {
                struct line ls[64];
                double *xs[64] = {0}, *ys[64] = {0};
                char nm[64][200];
                size_t nl = 0;
                for (size_t t = 0; t < nt; t++)
                    for (size_t h = 0; h < nth && nl < 64; h++) {
                        xs[nl] = calloc(r->nr_workloads, sizeof(double));
                        ys[nl] = calloc(r->nr_workloads, sizeof(double));
                        size_t n = 0;
                        int mark = -1;
                        for (uint32_t q = 0; xs[nl] && ys[nl] && q < r->nr_workloads; q++) {
                            const struct iom_imp_workload *w = &r->w[q];
                            if (strcmp(w->target, tg[t]) != 0 || w->threads != th[h])
                                continue;
                            if (w->is_knee)
                                mark = (int)n;
                            xs[nl][n] = (double)w->threads * w->iodepth;
                            ys[nl][n++] = chart == 0 ? w->runs[0].dir[2].iops
                                                     : w->runs[0].dir[2].lat_mean_us;
                        }
                        if (n == 0) {
                            free(xs[nl]);
                            free(ys[nl]);
                            xs[nl] = ys[nl] = NULL;
                            continue;
                        }
                        const char *base = strrchr(tg[t], '/');
                        snprintf(nm[nl], sizeof(nm[0]), "%s, %d thread%s", base ? base + 1 : tg[t],
                                 th[h], th[h] == 1 ? "" : "s");
                        ls[nl] = (struct line){nm[nl], n, xs[nl], ys[nl], mark, (int)t, (int)h};
                        nl++;
                    }
                char id[48];
                snprintf(id, sizeof(id), "sweep-%u-%u-%d", i, k, chart);
                if (chart == 0)
                    iom_html_line_chart(f, id, "IOPS by outstanding I/O", "outstanding I/O (threads x iodepth)",
                               "IOPS", AX_LOG, AX_LIN, 1, ls, nl);
                else
                    iom_html_line_chart(f, id, "mean latency by outstanding I/O (log scale)",
                               "outstanding I/O (threads x iodepth)", "mean latency (us)", AX_LOG,
                               AX_LOG, 0, ls, nl);
                for (size_t t = 0; t < nl; t++) {
                    free(xs[t]);
                    free(ys[t]);
                }
            }
            sweep_table(f, r, i, k);
        }
}

/* Is w found only in sweep documents (its points are drawn as curves)? */
static int only_sweep(const struct iom_cmp *c, const struct iom_cmp_workload *w)
{
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
            const struct iom_imp_result *r = c->inputs[i].files[k];
            if (iom_cmp_find_workload(r, w->name, w->positional) && strcmp(r->kind, "sweep") != 0)
                return 0;
        }
    return 1;
}

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;"
    "background:#f6f7f9;color:#1d2330}"
    "main{max-width:1040px;margin:0 auto;padding:24px 28px 48px;background:#fff}"
    "h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:34px 0 8px;border-bottom:"
    "2px solid #e3e6eb;padding-bottom:4px}h3{font-size:16px;margin:24px 0 6px}"
    "p,li{font-size:14px;line-height:1.45}.meta{color:#5b6472;font-size:13px}"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0 12px;width:100%}"
    "th,td{border-bottom:1px solid #e3e6eb;padding:4px 8px;text-align:left}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.better{color:#0a7a3d}td.worse{color:#b3261e}td.noise{color:#6b7280}"
    "figure.chart{margin:10px 0}svg{width:100%;height:auto;font-size:12px}"
    "svg .title{font-size:15px;font-weight:600;fill:#1d2330}svg .tick{fill:#5b6472;font-size:11px}"
    "svg .label{fill:#333;font-size:12px}svg .legend{fill:#1d2330;font-size:12px}"
    "svg .grid{stroke:#e8eaee;stroke-width:1}svg .axis{stroke:#8a93a0;stroke-width:1}"
    "svg .bar-label{fill:#1d2330;font-size:13px}svg .value{fill:#1d2330;font-size:12px}"
    "svg .change{font-size:13px;font-weight:600;fill:#5b6472}svg .better{fill:#0a7a3d}"
    "svg .worse{fill:#b3261e}svg .noise{fill:#6b7280;font-weight:400}"
    "svg .whisker{stroke:#1d2330;stroke-width:1.5}svg .knee-label{fill:#c00;font-weight:600}"
    "code{font-size:12px;background:#f0f2f5;padding:1px 4px;border-radius:3px}";

void iom_html_page_head(FILE *f, const char *title, char *ts, size_t tslen)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, tslen, "%Y-%m-%d %H:%M UTC", &tm);
    fprintf(f, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
               "<head><meta charset=\"utf-8\"/><meta name=\"viewport\" "
               "content=\"width=device-width, initial-scale=1\"/><title>");
    iom_html_esc(f, title);
    fprintf(f, "</title><style>%s</style></head>\n<body><main>\n<h1>", css);
    iom_html_esc(f, title);
    fprintf(f, "</h1>\n");
}

int iom_html_report(FILE *f, const struct iom_cmp *c, const char *title)
{
    if (!title)
        title = "iomark report";
    char ts[40];
    iom_html_page_head(f, title, ts, sizeof(ts));
    fprintf(f, "<p class=\"meta\">Made by iomark %s on %s from %u input(s). Self-contained: "
               "no scripts, no network.</p>\n<ol>\n",
            IOMARK_VERSION, ts, c->nr_inputs);
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        fprintf(f, "<li><b>");
        iom_html_esc(f, c->inputs[i].label);
        fprintf(f, "</b>:");
        for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
            const struct iom_imp_result *r = c->inputs[i].files[k];
            fprintf(f, " <code>");
            iom_html_esc(f, r->path);
            fprintf(f, "</code> (");
            iom_html_esc(f, r->format);
            fprintf(f, ", ");
            iom_html_esc(f, r->tool);
            fprintf(f, ")");
            if (r->note[0]) {
                fprintf(f, " <b>note:</b> ");
                iom_html_esc(f, r->note);
            }
        }
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ol>\n<p>");
    if (c->nr_inputs > 1 && iom_cmp_has_test(c)) /* a comparison: how changes are judged */
        fprintf(f, "Changes are relative to the first input that has the metric. Where both "
                   "sides have two or more runs, Welch's two-sided t-test (alpha %.2g) says "
                   "whether the difference is larger than the run-to-run spread: green and red "
                   "labels are significant, grey ones within noise, dark grey ones untested. ",
                c->alpha);
    else if (c->nr_inputs > 1) {
        char note[900];
        iom_cmp_no_verdict_note(c, IOM_CMP_HTML, note, sizeof(note));
        fprintf(f, "%s ", note);
    }
    if (iom_cmp_most_runs(c, -1) >= 2) /* the cells' "mean ± R% (n=N)" */
        fprintf(f, "Values: mean ± relative stddev (n runs). ");
    fprintf(f, "MB/s = 10<sup>6</sup> bytes/s, MiB/s = 2<sup>20</sup> bytes/s; latency in "
               "microseconds.</p>\n");
    sweep_charts(f, c);
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        const struct iom_cmp_workload *w = &c->w[q];
        if (only_sweep(c, w))
            continue; /* shown as scaling curves */
        fprintf(f, "<h2 id=\"w%u\">", q);
        iom_html_esc(f, w->name);
        if (w->positional)
            fprintf(f, " <small>(one workload per input, matched by position)</small>");
        fprintf(f, "</h2>\n");
        workload_charts(f, c, w, q);
        table(f, c, w);
    }
    fprintf(f, "</main></body></html>\n");
    return ferror(f) ? -EIO : 0;
}
