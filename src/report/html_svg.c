/* html_svg.c - the SVG charts of the HTML report: axes, line and bar charts,
 * XML escaping (see html_int.h). */
#include "report/html_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Okabe-Ito colour-blind safe palette */
const char *const iom_html_palette[IOM_HTML_NR_COLORS] = {"#0072B2", "#E69F00", "#009E73",
                                                          "#CC79A7", "#D55E00", "#56B4E9",
                                                          "#F0E442", "#000000"};

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static int utf8_len(const unsigned char *s)
{
    int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* One character's entity (html_int.h). */
const char *iom_html_entity(char ch)
{
    switch (ch) {
    case '&':
        return "&amp;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    case '"':
        return "&quot;";
    case '\'':
        return "&#39;";
    default:
        return NULL;
    }
}

/* Write s as XML text: markup characters escaped, control characters
 * dropped, bytes that are not UTF-8 (a cp1251 preamble) shown as '?'. */
void iom_html_esc(FILE *f, const char *s)
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
        const char *e = iom_html_entity((char)ch);
        if (e)
            fputs(e, f);
        else if (ch >= 0x20 || ch == '\t')
            fputc(ch, f);
        s++;
    }
}

/* ---- axes ---- */


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


static const char *const dashes[] = {"", "8 4", "2 3", "8 3 2 3"};

#define ML 78
#define MR 44
#define MB 52

void iom_html_line_chart(FILE *f, const char *id, const char *title, const char *xlabel,
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
    iom_html_esc(f, id);
    fprintf(f, "\" class=\"line-chart\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, CH);
    iom_html_esc(f, title);
    fprintf(f, "\">\n<text class=\"title\" x=\"%d\" y=\"20\">", ML);
    iom_html_esc(f, title);
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
    iom_html_esc(f, xlabel);
    fprintf(f, "</text><text class=\"label\" transform=\"translate(16 %d) rotate(-90)\" "
               "text-anchor=\"middle\">",
            (MT + CH - MB) / 2);
    iom_html_esc(f, ylabel);
    fprintf(f, "</text>\n");
    for (size_t i = 0; i < nl; i++) {
        const char *col = iom_html_palette[(ls[i].color >= 0 ? (size_t)ls[i].color : i) % IOM_HTML_NR_COLORS];
        fprintf(f, "<g class=\"series\" data-series=\"");
        iom_html_esc(f, ls[i].name);
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
            iom_html_esc(f, ls[i].name);
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
        const char *col = iom_html_palette[(ls[i].color >= 0 ? (size_t)ls[i].color : i) % IOM_HTML_NR_COLORS];
        fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                   "stroke-width=\"3\" stroke-dasharray=\"%s\"/><text class=\"legend\" x=\"%.0f\" "
                   "y=\"%.0f\">",
                lxs[i], lxs[i] + 22, lys[i] - 4, lys[i] - 4, col, dashes[ls[i].dash & 3],
                lxs[i] + 27, lys[i]);
        iom_html_esc(f, ls[i].name);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg></figure>\n");
}

/* ---- bar chart of one metric over inputs ---- */

void iom_html_bar_chart(FILE *f, const struct iom_cmp *c, const struct iom_cmp_row *row,
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
    iom_html_esc(f, wname);
    fprintf(f, "\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", CW, h);
    iom_html_esc(f, row->label);
    fprintf(f, "\">\n<text class=\"title\" x=\"8\" y=\"20\">");
    iom_html_esc(f, row->label);
    fprintf(f, " (%s), %s is better</text>\n", row->unit, row->better > 0 ? "higher" : "lower");
    int slot = 0;
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        const struct iom_sample_stats *s = &row->cells[i].s;
        if (s->n == 0)
            continue; /* this input does not know the metric */
        int y = 32 + slot++ * rowh;
        fprintf(f, "<text class=\"bar-label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", lw - 8, y + 17);
        iom_html_esc(f, c->inputs[i].label);
        fprintf(f, "</text>\n");
        double w = s->mean / vmax * bw, end = lw + w;
        char num[32];
        iom_cmp_fmt_num(s->mean, num, sizeof(num));
        fprintf(f, "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                   "data-input=\"%u\" data-value=\"%.10g\" data-n=\"%zu\"><title>",
                lw, y + 3, w, rowh - 8, iom_html_palette[i % IOM_HTML_NR_COLORS], i, s->mean, s->n);
        iom_html_esc(f, c->inputs[i].label);
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
        const char *cls = !txt[0] || !d->has_test ? "change" /* no verdict */
                          : !d->significant       ? "change noise"
                          : d->improvement_pct >= 0 ? "change better"
                                                    : "change worse";
        if (s->n > 1)
            fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%s (mean of %zu)</text>", end + 6,
                    y + 17, num, s->n);
        else
            fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%d\">%s</text>", end + 6, y + 17, num);
        fprintf(f, "<text class=\"%s\" x=\"%d\" y=\"%d\">", cls, cx, y + 17);
        iom_html_esc(f, (int)i == row->base ? "baseline" : txt);
        fprintf(f, "</text>\n");
    }
    fprintf(f, "</svg></figure>\n");
}

