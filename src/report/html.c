/* html.c - the self-contained HTML report with SVG charts (see html.h). */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Okabe-Ito colour-blind safe palette */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                      "#D55E00", "#56B4E9", "#F0E442", "#000000"};
#define NR_COLORS (sizeof(palette) / sizeof(palette[0]))

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Write s as XML text: markup characters escaped, control characters
 * dropped, bytes that are not UTF-8 (a cp1251 preamble) shown as '?'. */
static void esc(FILE *f, const char *s)
{
    while (s && *s) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x80) {
            int n = utf8_len((const unsigned char *)s);
            if (n) {
                fwrite(s, 1, (size_t)n, f);
                s += n;
            } else {
                fputc('?', f);
                s++;
            }
            continue;
        }
        switch (ch) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            if (ch >= 0x20 || ch == '\t')
                fputc(ch, f);
        }
        s++;
    }
}

/* ---- axes ---- */

enum axis_kind { AX_LIN, AX_LOG, AX_NINES };

struct axis {
    enum axis_kind kind;
    double lo, hi;          /* in transformed units */
    double px0, px1;        /* pixel range */
};

static double tr(enum axis_kind k, double v)
{
    switch (k) {
    case AX_LOG:
        return v > 0 ? log10(v) : NAN;
    case AX_NINES: /* percentile p -> -log10(1 - p/100): 90 -> 1, 99 -> 2, 99.9 -> 3 */
        return v < 100 && v >= 0 ? -log10(1 - v / 100) : NAN;
    default:
        return v;
    }
}

static double to_px(const struct axis *a, double v)
{
    double t = tr(a->kind, v);
    if (isnan(t) || a->hi == a->lo)
        return NAN;
    return a->px0 + (t - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

static double nice_step(double range, int want)
{
    double raw = range / want, mag = pow(10, floor(log10(raw)));
    double n = raw / mag;
    return (n < 1.5 ? 1 : n < 3 ? 2 : n < 7 ? 5 : 10) * mag;
}

/* Fit an axis to [vmin, vmax] (raw values). */
static void axis_fit(struct axis *a, double vmin, double vmax, int from_zero)
{
    if (a->kind == AX_LIN) {
        if (from_zero && vmin > 0)
            vmin = 0;
        if (vmax <= vmin)
            vmax = vmin + (vmin == 0 ? 1 : fabs(vmin));
        double st = nice_step(vmax - vmin, 5);
        a->lo = floor(vmin / st) * st;
        a->hi = ceil(vmax / st) * st;
    } else if (a->kind == AX_LOG) {
        /* widen to the nearest 1-2-5 values around the data */
        static const double m[4] = {1, 2, 5, 10};
        double el = floor(log10(vmin)), eh = floor(log10(vmax));
        double lo = pow(10, el), hi = pow(10, eh + 1);
        for (int k = 2; k >= 0; k--)
            if (m[k] * pow(10, el) <= vmin * (1 + 1e-12)) {
                lo = m[k] * pow(10, el);
                break;
            }
        for (int k = 0; k < 4; k++)
            if (m[k] * pow(10, eh) >= vmax * (1 - 1e-12)) {
                hi = m[k] * pow(10, eh);
                break;
            }
        a->lo = log10(lo);
        a->hi = log10(hi);
        if (a->hi <= a->lo)
            a->hi = a->lo + 1;
    } else {
        a->lo = 0;
        a->hi = ceil(tr(AX_NINES, vmax));
        if (a->hi < 2)
            a->hi = 2;
    }
}

static void fmt_tick(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (a >= 1e6 && fmod(a, 1e6) == 0)
        snprintf(buf, len, "%gM", v / 1e6);
    else if (a >= 1e4 && fmod(a, 1e3) == 0)
        snprintf(buf, len, "%gk", v / 1e3);
    else
        snprintf(buf, len, "%g", v);
}

/* Ticks: raw values and their labels. Returns the count (<= max). */
static int axis_ticks(const struct axis *a, double *vals, char (*labels)[24], int max)
{
    int n = 0;
    if (a->kind == AX_LIN) {
        double st = nice_step(a->hi - a->lo, 5);
        for (double v = a->lo; v <= a->hi + st * 1e-9 && n < max; v += st) {
            double r = fabs(v) < st * 1e-9 ? 0 : v;
            vals[n] = r;
            fmt_tick(r, labels[n], sizeof(labels[0]));
            n++;
        }
    } else if (a->kind == AX_LOG) {
        int decades = (int)ceil(a->hi - a->lo - 1e-9);
        for (int e = (int)floor(a->lo + 1e-9); e <= (int)ceil(a->hi) && n < max; e++) {
            static const double m[3] = {1, 2, 5};
            for (int k = 0; k < (decades <= 3 ? 3 : 1) && n < max; k++) {
                double v = m[k] * pow(10, e);
                if (log10(v) < a->lo - 1e-9)
                    continue;
                if (log10(v) > a->hi + 1e-9)
                    break;
                vals[n] = v;
                fmt_tick(v, labels[n], sizeof(labels[0]));
                n++;
            }
        }
    } else {
        static const double p[] = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999, 99.99999};
        for (size_t i = 0; i < sizeof(p) / sizeof(p[0]) && n < max; i++) {
            if (tr(AX_NINES, p[i]) > a->hi + 1e-9)
                break;
            vals[n] = p[i];
            snprintf(labels[n], sizeof(labels[0]), "p%g", p[i]);
            n++;
        }
    }
    return n;
}

/* ---- line chart ---- */

struct line {
    const char *name;
    size_t n;
    const double *x, *y;
    int mark;               /* index of a point to ring (the knee), -1 none */
    int color;              /* palette index; -1 = the line's own index */
    int dash;               /* 0 solid, 1 dashed, 2 dotted, 3 dash-dot */
};

static const char *const dashes[] = {"", "8 4", "2 3", "8 3 2 3"};

#define CW 960
#define ML 78
#define MR 44
#define MB 52

static void line_chart(FILE *f, const char *id, const char *title, const char *xlabel,
                       const char *ylabel, enum axis_kind xk, enum axis_kind yk, int y_from_zero,
                       const struct line *ls, size_t nl)
{
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    size_t pts = 0;
    int knees = 0;
    for (size_t i = 0; i < nl; i++)
        for (size_t k = 0; k < ls[i].n; k++) {
            double x = ls[i].x[k], y = ls[i].y[k];
            if (isnan(tr(xk, x)) || isnan(tr(yk, y)))
                continue;
            xmin = fmin(xmin, x), xmax = fmax(xmax, x);
            ymin = fmin(ymin, y), ymax = fmax(ymax, y);
            pts++;
        }
    if (pts == 0)
        return;
    /* legend rows under the title: lay them out first, the plot starts below */
    double lxs[64], lys[64], lx = ML, ly = 38;
    for (size_t i = 0; i < nl && i < 64; i++) {
        double w = 27 + 6.6 * (double)strlen(ls[i].name) + 20;
        if (lx > ML && lx + w > CW - MR) {
            lx = ML;
            ly += 17;
        }
        lxs[i] = lx;
        lys[i] = ly;
        lx += w;
    }
    const int MT = (int)ly + 14, CH = 300 + MT;
    struct axis ax = {xk, 0, 0, ML, CW - MR}, ay = {yk, 0, 0, CH - MB, MT};
    axis_fit(&ax, xmin, xmax, 0);
    axis_fit(&ay, ymin, ymax, y_from_zero);
    fprintf(f, "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" id=\"");
    esc(f, id);
    fprintf(f, "\" class=\"line-chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, CH);
    esc(f, title);
    fprintf(f, "\">\n<text class=\"title\" x=\"%d\" y=\"20\">", ML);
    esc(f, title);
    fprintf(f, "</text>\n");
    double tv[40];
    char tl[40][24];
    int nt = axis_ticks(&ay, tv, tl, 40);
    for (int i = 0; i < nt; i++) {
        double y = to_px(&ay, tv[i]);
        fprintf(f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>"
                   "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                ML, CW - MR, y, y, ML - 6, y + 4, tl[i]);
    }
    nt = axis_ticks(&ax, tv, tl, 40);
    for (int i = 0; i < nt; i++) {
        double x = to_px(&ax, tv[i]);
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
                x, x, MT, CH - MB, x, CH - MB + 16, tl[i]);
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>"
               "<line class=\"axis\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n",
            ML, CW - MR, CH - MB, CH - MB, ML, ML, MT, CH - MB);
    fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (ML + CW - MR) / 2,
            CH - 12);
    esc(f, xlabel);
    fprintf(f, "</text><text class=\"label\" transform=\"translate(16 %d) rotate(-90)\" "
               "text-anchor=\"middle\">",
            (MT + CH - MB) / 2);
    esc(f, ylabel);
    fprintf(f, "</text>\n");
    for (size_t i = 0; i < nl; i++) {
        const char *col = palette[(ls[i].color >= 0 ? (size_t)ls[i].color : i) % NR_COLORS];
        fprintf(f, "<g class=\"series\" data-series=\"");
        esc(f, ls[i].name);
        fprintf(f, "\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" "
                   "stroke-dasharray=\"%s\" points=\"",
                col, dashes[ls[i].dash & 3]);
        for (size_t k = 0; k < ls[i].n; k++) {
            double x = to_px(&ax, ls[i].x[k]), y = to_px(&ay, ls[i].y[k]);
            if (!isnan(x) && !isnan(y))
                fprintf(f, "%.1f,%.1f ", x, y);
        }
        fprintf(f, "\"/>\n");
        int dots = ls[i].n <= 400;
        for (size_t k = 0; k < ls[i].n; k++) {
            double x = to_px(&ax, ls[i].x[k]), y = to_px(&ay, ls[i].y[k]);
            if (isnan(x) || isnan(y))
                continue;
            int ring = (int)k == ls[i].mark;
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\"%s data-x=\"%.10g\" "
                       "data-y=\"%.10g\"><title>",
                    x, y, ring ? "7" : dots ? "2.5" : "0", ring ? "none" : col,
                    ring ? " stroke=\"#c00\" stroke-width=\"2.5\" class=\"knee\"" : "", ls[i].x[k],
                    ls[i].y[k]);
            esc(f, ls[i].name);
            fprintf(f, ": %s %.6g, %s %.6g</title></circle>\n", xlabel, ls[i].x[k], ylabel,
                    ls[i].y[k]);
            if (ring)
                fprintf(f, "<text class=\"knee-label\" x=\"%.1f\" y=\"%.1f\"%s>knee</text>\n",
                        x > CW - MR - 60 ? x - 9 : x + 9, y + (knees++ % 2 ? 22 : -11),
                        x > CW - MR - 60 ? " text-anchor=\"end\"" : "");
        }
        fprintf(f, "</g>\n");
    }
    for (size_t i = 0; i < nl && i < 64; i++) {
        const char *col = palette[(ls[i].color >= 0 ? (size_t)ls[i].color : i) % NR_COLORS];
        fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                   "stroke-width=\"3\" stroke-dasharray=\"%s\"/><text class=\"legend\" x=\"%.0f\" "
                   "y=\"%.0f\">",
                lxs[i], lxs[i] + 22, lys[i] - 4, lys[i] - 4, col, dashes[ls[i].dash & 3],
                lxs[i] + 27, lys[i]);
        esc(f, ls[i].name);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg></figure>\n");
}

/* ---- bar chart of one metric over inputs ---- */

static void bar_chart(FILE *f, const struct iom_cmp *c, const struct iom_cmp_row *row,
                      const char *wname)
{
    uint32_t known = 0;
    double vmax = 0;
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        if (row->cells[i].s.n > 0) {
            known++;
            vmax = fmax(vmax, row->cells[i].s.max); /* whiskers reach the largest run */
        }
    if (known < 2 || !(vmax > 0))
        return;
    const int lw = 170, bw = 360, rowh = 30, cx = 660;
    int h = 36 + (int)known * rowh + 8;
    fprintf(f, "<figure class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"bar-chart\" "
               "data-metric=\"%s\" data-workload=\"",
            row->key);
    esc(f, wname);
    fprintf(f, "\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, h);
    esc(f, row->label);
    fprintf(f, "\">\n<text class=\"title\" x=\"8\" y=\"20\">");
    esc(f, row->label);
    fprintf(f, " (%s), %s is better</text>\n", row->unit, row->better > 0 ? "higher" : "lower");
    int slot = 0;
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        const struct iom_sample_stats *s = &row->cells[i].s;
        if (s->n == 0)
            continue; /* this input does not know the metric */
        int y = 32 + slot++ * rowh;
        fprintf(f, "<text class=\"bar-label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 8, y + 17);
        esc(f, c->inputs[i].label);
        fprintf(f, "</text>\n");
        double w = s->mean / vmax * bw, end = lw + w;
        char num[32];
        iom_cmp_fmt_num(s->mean, num, sizeof(num));
        fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                   "data-input=\"%u\" data-value=\"%.10g\" data-n=\"%zu\"><title>",
                lw, y + 3, w, rowh - 8, palette[i % NR_COLORS], i, s->mean, s->n);
        esc(f, c->inputs[i].label);
        fprintf(f, ": %s %s</title></rect>\n", num, row->unit);
        if (s->n > 1) { /* whisker: min..max of the runs */
            double x0 = lw + s->min / vmax * bw, x1 = lw + s->max / vmax * bw;
            fprintf(f, "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
                       "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>"
                       "<line class=\"whisker\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/>\n",
                    x0, x1, y + rowh / 2 - 1, y + rowh / 2 - 1, x0, x0, y + 8, y + rowh - 10, x1, x1,
                    y + 8, y + rowh - 10);
            end = fmax(end, x1);
        }
        char txt[200] = "";
        const struct iom_cmp_delta *d = &row->delta[i];
        if ((int)i != row->base) {
            iom_cmp_delta_text(row, d, txt, sizeof(txt));
            if (d->has_test) {
                size_t n = strlen(txt);
                snprintf(txt + n, sizeof(txt) - n, " (p=%.2g%s)", d->welch.p,
                         d->significant ? "" : ", noise");
            }
        }
        const char *cls = !txt[0] ? "change" : (d->has_test && !d->significant) ? "change noise"
                                               : d->improvement_pct >= 0       ? "change better"
                                                                               : "change worse";
        if (s->n > 1)
            fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%s (mean of %zu)</text>", end + 6,
                    y + 17, num, s->n);
        else
            fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%s</text>", end + 6, y + 17, num);
        fprintf(f, "<text class=\"%s\" x=\"%d\" y=\"%d\">", cls, cx, y + 17);
        esc(f, (int)i == row->base ? "baseline" : txt);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg></figure>\n");
}

/* ---- data access ---- */

static void fmt_cell(const struct iom_cmp_cell *c, char *buf, size_t len)
{
    char m[32];
    if (c->s.n == 0) {
        snprintf(buf, len, "-");
        return;
    }
    iom_cmp_fmt_num(c->s.mean, m, sizeof(m));
    if (c->s.n > 1)
        snprintf(buf, len, "%s ± %.2g%% (n=%zu)", m,
                 c->s.mean != 0 ? c->s.stddev / fabs(c->s.mean) * 100 : 0.0, c->s.n);
    else
        snprintf(buf, len, "%s", m);
}

static void table(FILE *f, const struct iom_cmp *c, const struct iom_cmp_workload *w)
{
    fprintf(f, "<table><thead><tr><th>metric</th>");
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        fprintf(f, "<th>");
        esc(f, c->inputs[i].label);
        fprintf(f, "</th>");
    }
    for (uint32_t i = 1; i < c->nr_inputs; i++) {
        fprintf(f, "<th>");
        esc(f, c->inputs[i].label);
        fprintf(f, " change</th>");
    }
    fprintf(f, "</tr></thead><tbody>\n");
    for (uint32_t r = 0; r < w->nr_rows; r++) {
        const struct iom_cmp_row *row = &w->rows[r];
        fprintf(f, "<tr><td>");
        esc(f, row->label);
        fprintf(f, " (");
        esc(f, row->unit);
        fprintf(f, ")</td>");
        for (uint32_t i = 0; i < c->nr_inputs; i++) {
            char cell[64];
            fmt_cell(&row->cells[i], cell, sizeof(cell));
            fprintf(f, "<td class=\"num\" data-key=\"%s\" data-input=\"%u\">", row->key, i);
            esc(f, cell);
            fprintf(f, "</td>");
        }
        for (uint32_t i = 1; i < c->nr_inputs; i++) {
            char t[96];
            const struct iom_cmp_delta *d = &row->delta[i];
            iom_cmp_delta_text(row, d, t, sizeof(t));
            const char *cls = !t[0] ? "" : (d->has_test && !d->significant) ? "noise"
                                        : d->improvement_pct >= 0        ? "better"
                                                                         : "worse";
            fprintf(f, "<td class=\"%s\">", cls);
            esc(f, t);
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

/* Percentile lines "INPUT: TARGET" for each target of a multi-target run. */
static int add_target_curves(const struct iom_cmp *c, uint32_t i, const struct iom_imp_run *r,
                             struct line **ls, double ***xs, double ***ys, char (**names)[200],
                             size_t *nl, size_t *cap)
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
        for (uint32_t p = 0; p < tc->nr_pct; p++) {
            (*xs)[k][p] = tc->pct[p].pct;
            (*ys)[k][p] = tc->pct[p].lat_us;
        }
        snprintf((*names)[k], sizeof((*names)[0]), "%s: %s", c->inputs[i].label, tc->target);
        (*ls)[k] = (struct line){(*names)[k], tc->nr_pct, (*xs)[k], (*ys)[k], -1, (int)i, (int)t};
        (*nl)++;
    }
    return 0;
}

static void workload_charts(FILE *f, const struct iom_cmp *c, const struct iom_cmp_workload *w,
                            uint32_t q)
{
    /* comparison bars */
    static const char *const bars[] = {"iops", "mib_per_s", "lat_mean_us", "lat_p99_us",
                                       "cpu_pct", "nopm", "tpm"};
    if (c->nr_inputs > 1)
        for (size_t b = 0; b < sizeof(bars) / sizeof(bars[0]); b++)
            for (uint32_t r = 0; r < w->nr_rows; r++)
                if (!strcmp(w->rows[r].key, bars[b]))
                    bar_chart(f, c, &w->rows[r], w->name);
    /* percentile curves and time series: run 1 of every input */
    struct line *ls = NULL;
    double **xs = NULL, **ys = NULL;
    char(*names)[200] = NULL;
    size_t cap = 0;
    if (grow(&ls, &xs, &ys, &names, &cap))
        goto out;
    for (int chart = 0; chart < 3; chart++) {
        size_t nl = 0;
        for (uint32_t i = 0; i < c->nr_inputs; i++) {
            uint32_t nruns;
            const struct iom_imp_run *r = first_run(c, i, w, &nruns);
            if (chart == 0 && r && r->nr_tcurves > 1) { /* one curve per target */
                if (add_target_curves(c, i, r, &ls, &xs, &ys, &names, &nl, &cap))
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
            for (size_t k = 0; k < n; k++) {
                if (chart == 0) {
                    xs[nl][k] = r->pct[k].pct;
                    ys[nl][k] = r->pct[k].lat_us;
                } else {
                    xs[nl][k] = r->series[k].t_s;
                    ys[nl][k] = chart == 1 ? r->series[k].iops : r->series[k].lat_mean_us;
                }
            }
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
            line_chart(f, id, title, "percentile", "latency (us)", AX_NINES, AX_LOG, 0, ls, nl);
        } else if (chart == 1) {
            snprintf(id, sizeof(id), "iops-time-%u", q);
            snprintf(title, sizeof(title), "%s: IOPS over time", w->name);
            line_chart(f, id, title, "time (s)", "IOPS", AX_LIN, AX_LIN, 1, ls, nl);
        } else {
            snprintf(id, sizeof(id), "lat-time-%u", q);
            snprintf(title, sizeof(title), "%s: mean latency over time (log scale)", w->name);
            line_chart(f, id, title, "time (s)", "mean latency (us)", AX_LIN, AX_LOG, 0, ls, nl);
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
            esc(f, c->inputs[i].label);
            fprintf(f, "</h2>\n<p>One line per target (colour) and thread count (dash); its points "
                       "are the queue depths, placed at their outstanding I/O (threads x iodepth). "
                       "Targets were measured in turns. The red ring marks the knee: the first "
                       "point from which more concurrency adds little IOPS while latency grows."
                       "</p>\n");
            /* thread counts in use */
            int th[16];
            size_t nth = 0;
            for (uint32_t q = 0; q < r->nr_workloads; q++) {
                int seen = 0;
                for (size_t t = 0; t < nth; t++)
                    seen |= th[t] == r->w[q].threads;
                if (!seen && nth < 16)
                    th[nth++] = r->w[q].threads;
            }
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
                    line_chart(f, id, "IOPS by outstanding I/O", "outstanding I/O (threads x iodepth)",
                               "IOPS", AX_LOG, AX_LIN, 1, ls, nl);
                else
                    line_chart(f, id, "mean latency by outstanding I/O (log scale)",
                               "outstanding I/O (threads x iodepth)", "mean latency (us)", AX_LOG,
                               AX_LOG, 0, ls, nl);
                for (size_t t = 0; t < nl; t++) {
                    free(xs[t]);
                    free(ys[t]);
                }
            }
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

int iom_html_report(FILE *f, const struct iom_cmp *c, const char *title)
{
    if (!title)
        title = "iomark report";
    char ts[40];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M UTC", &tm);
    fprintf(f, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
               "<head><meta charset=\"utf-8\"/><meta name=\"viewport\" "
               "content=\"width=device-width, initial-scale=1\"/><title>");
    esc(f, title);
    fprintf(f, "</title><style>%s</style></head>\n<body><main>\n<h1>", css);
    esc(f, title);
    fprintf(f, "</h1>\n<p class=\"meta\">Made by iomark %s on %s from %u input(s). Self-contained: "
               "no scripts, no network.</p>\n<ol>\n",
            IOMARK_VERSION, ts, c->nr_inputs);
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        fprintf(f, "<li><b>");
        esc(f, c->inputs[i].label);
        fprintf(f, "</b>:");
        for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
            const struct iom_imp_result *r = c->inputs[i].files[k];
            fprintf(f, " <code>");
            esc(f, r->path);
            fprintf(f, "</code> (");
            esc(f, r->format);
            fprintf(f, ", ");
            esc(f, r->tool);
            fprintf(f, ")");
            if (r->note[0]) {
                fprintf(f, " <b>note:</b> ");
                esc(f, r->note);
            }
        }
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ol>\n<p>Changes are relative to the first input that has the metric. Where both "
               "sides have two or more runs, Welch's two-sided t-test (alpha %.2g) says whether the "
               "difference is larger than the run-to-run spread; grey labels are within noise. "
               "MB/s = 10<sup>6</sup> bytes/s, MiB/s = 2<sup>20</sup> bytes/s; latency in "
               "microseconds.</p>\n",
            c->alpha);
    sweep_charts(f, c);
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        const struct iom_cmp_workload *w = &c->w[q];
        if (only_sweep(c, w))
            continue; /* shown as scaling curves */
        fprintf(f, "<h2 id=\"w%u\">", q);
        esc(f, w->name);
        if (w->positional)
            fprintf(f, " <small>(one workload per input, matched by position)</small>");
        fprintf(f, "</h2>\n");
        workload_charts(f, c, w, q);
        table(f, c, w);
    }
    fprintf(f, "</main></body></html>\n");
    return ferror(f) ? -EIO : 0;
}
