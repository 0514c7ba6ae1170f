/* model_html.c - `iomark report CHECK.json...`: predicted and measured
 * curves of `iomark model` documents (contract: report/model.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_int.h"
#include "report/model.h"
#include "util/json_get.h"

int iom_model_doc_kind(const cJSON *doc)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "type");
    if (!cJSON_IsString(s) || strcmp(s->valuestring, IOM_MODEL_SCHEMA) != 0 || !cJSON_IsString(t))
        return 0;
    if (!strcmp(t->valuestring, "model_check"))
        return 2;
    if (!strcmp(t->valuestring, "model_fit"))
        return 1;
    return 0;
}

/* The metrics drawn: key in measured/predicted, axis label, chart title. */
static const struct {
    const char *key, *label, *title;
} metrics[3] = {
    {"iops", "IOPS", "IOPS by outstanding I/O"},
    {"lat_mean_us", "mean latency (us)", "mean latency by outstanding I/O (log scale)"},
    {"lat_p99_us", "p99 latency (us)", "p99 latency by outstanding I/O (log scale)"},
};

/* The points of one source (document or sweep) with one thread count, in the
 * order of outstanding I/O; idx[] gets their indexes in pts. */
static size_t series_of(const cJSON *pts, const char *src, int threads, int *idx, size_t cap)
{
    size_t n = 0;
    int i = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        char base[200];
        snprintf(base, sizeof(base), "%s", iom_json_str(p, "source", ""));
        char *hash = strchr(base, '#');
        if (hash)
            *hash = 0;
        if (!strcmp(base, src) && (int)iom_json_num(p, "threads", NAN) == threads && n < cap)
            idx[n++] = i;
        i++;
    }
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0; b--) {
            double x0 = iom_json_num(cJSON_GetArrayItem(pts, idx[b - 1]), "outstanding", NAN);
            double x1 = iom_json_num(cJSON_GetArrayItem(pts, idx[b]), "outstanding", NAN);
            if (x0 <= x1)
                break;
            int t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    return n;
}

/* Distinct (source, threads) groups of the points, in order of appearance. */
struct group {
    char src[200];
    int threads;
};

static size_t groups_of(const cJSON *pts, struct group *g, size_t cap)
{
    size_t n = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        struct group e = {.threads = (int)iom_json_num(p, "threads", NAN)};
        snprintf(e.src, sizeof(e.src), "%s", iom_json_str(p, "source", ""));
        char *hash = strchr(e.src, '#');
        if (hash)
            *hash = 0;
        int seen = 0;
        for (size_t k = 0; k < n; k++)
            seen |= !strcmp(g[k].src, e.src) && g[k].threads == e.threads;
        if (!seen && n < cap)
            g[n++] = e;
    }
    return n;
}

static void charts(FILE *f, const cJSON *pts, unsigned d)
{
    struct group g[8];
    size_t ng = groups_of(pts, g, 8);
    size_t np = (size_t)cJSON_GetArraySize(pts);
    int *idx = calloc(np ? np : 1, sizeof(int));
    double *buf = calloc(np ? 4 * ng * np : 1, sizeof(double));
    if (!idx || !buf)
        goto out;
    for (int m = 0; m < 3; m++) {
        struct line ls[16];
        char nm[16][240];
        size_t nl = 0;
        for (size_t k = 0; k < ng; k++) {
            size_t n = series_of(pts, g[k].src, g[k].threads, idx, np);
            const char *base = strrchr(g[k].src, '/');
            base = base ? base + 1 : g[k].src;
            for (int side = 0; side < 2; side++) { /* 0 measured, 1 predicted */
                double *xs = buf + (2 * k + (size_t)side) * 2 * np, *ys = xs + np;
                for (size_t q = 0; q < n; q++) {
                    const cJSON *p = cJSON_GetArrayItem(pts, idx[q]);
                    const cJSON *o = cJSON_GetObjectItemCaseSensitive(p, side ? "predicted" : "measured");
                    xs[q] = iom_json_num(p, "outstanding", NAN);
                    ys[q] = iom_json_num(o, metrics[m].key, NAN);
                }
                snprintf(nm[nl], sizeof(nm[0]), "%s, %d thread%s: %s", base, g[k].threads,
                         g[k].threads == 1 ? "" : "s", side ? "predicted" : "measured");
                ls[nl] = (struct line){nm[nl], n, xs, ys, -1, (int)k, side ? 1 : 0};
                nl++;
            }
        }
        char id[48];
        snprintf(id, sizeof(id), "model-%u-%s", d, metrics[m].key);
        iom_html_line_chart(f, id, metrics[m].title, "outstanding I/O (threads x iodepth)",
                            metrics[m].label, AX_LOG, m == 0 ? AX_LIN : AX_LOG, m == 0, ls, nl);
    }
out:
    free(idx);
    free(buf);
}

static void cell(FILE *f, double v, int prec, int sign)
{
    if (isfinite(v))
        fprintf(f, sign ? "<td>%+.*f</td>" : "<td>%.*f</td>", prec, v);
    else
        fprintf(f, "<td>-</td>");
}

static void table(FILE *f, const cJSON *pts, unsigned d)
{
    fprintf(f, "<table id=\"model-points-%u\"><thead><tr><th>source</th><th>threads</th>"
               "<th>iodepth</th><th>outstanding I/O</th><th>IOPS measured</th>"
               "<th>IOPS predicted</th><th>error %%</th><th>mean us measured</th>"
               "<th>mean us predicted</th><th>error %%</th><th>p99 us measured</th>"
               "<th>p99 us predicted</th><th>error %%</th></tr></thead><tbody>\n",
            d);
    const cJSON *p;
    cJSON_ArrayForEach(p, pts)
    {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(p, "measured");
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(p, "predicted");
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(p, "error_pct");
        fprintf(f, "<tr><td>");
        iom_html_esc(f, iom_json_str(p, "source", ""));
        fprintf(f, "</td>");
        cell(f, iom_json_num(p, "threads", NAN), 0, 0);
        cell(f, iom_json_num(p, "iodepth", NAN), 0, 0);
        cell(f, iom_json_num(p, "outstanding", NAN), 0, 0);
        cell(f, iom_json_num(m, "iops", NAN), 0, 0);
        cell(f, iom_json_num(pr, "iops", NAN), 0, 0);
        cell(f, iom_json_num(e, "iops", NAN), 1, 1);
        cell(f, iom_json_num(m, "lat_mean_us", NAN), 1, 0);
        cell(f, iom_json_num(pr, "lat_mean_us", NAN), 1, 0);
        cell(f, iom_json_num(e, "lat_mean", NAN), 1, 1);
        cell(f, iom_json_num(m, "lat_p99_us", NAN), 1, 0);
        cell(f, iom_json_num(pr, "lat_p99_us", NAN), 1, 0);
        cell(f, iom_json_num(e, "lat_p99", NAN), 1, 1);
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table>\n");
}

static void section(FILE *f, const cJSON *doc, const char *path, unsigned d)
{
    int kind = iom_model_doc_kind(doc);
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(doc, "device");
    const cJSON *lim = cJSON_GetObjectItemCaseSensitive(doc, "limits");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(doc, kind == 2 ? "error" : "fit");
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(doc, "points");
    fprintf(f, "<section class=\"model\" id=\"model-%u\"><h2>%s: ", d,
            kind == 2 ? "Predicted vs measured (model check)" : "Model fit");
    iom_html_esc(f, path);
    fprintf(f, "</h2>\n<p>");
    if (kind == 2) {
        fprintf(f, "Model ");
        iom_html_esc(f, iom_json_str(doc, "fit", ""));
        fprintf(f, " predicts points it was not fitted on, with the checked documents' own "
                   "queue limits. ");
    }
    fprintf(f, "Device: service time %.1f us, parallelism c = %.2f, host %.1f us per I/O",
            iom_json_num(dev, "service_mean_us", NAN), iom_json_num(dev, "parallelism", NAN),
            iom_json_num(dev, "host_us_per_io", NAN));
    if (isfinite(iom_json_num(dev, "cpu_us_per_io", NAN)))
        fprintf(f, ", guest CPU %.1f us per I/O on %.0f CPU(s)",
                iom_json_num(dev, "cpu_us_per_io", NAN), iom_json_num(dev, "cpu_servers", NAN));
    fprintf(f, "; limit L = ");
    if (isfinite(iom_json_num(lim, "effective", NAN)))
        fprintf(f, "%.0f", iom_json_num(lim, "effective", NAN));
    else
        fprintf(f, "none");
    if (*iom_json_str(lim, "driver", "")) {
        fprintf(f, " (");
        iom_html_esc(f, iom_json_str(lim, "driver", ""));
        fprintf(f, ")");
    }
    fprintf(f,
            ". Error: IOPS rms %.1f%% (max %.1f%%), mean latency rms %.1f%% (max %.1f%%). "
            "Solid: measured; dashed: predicted (IOPS and mean from MVA, p99 from the "
            "simulation).</p>\n",
            iom_json_num(err, "rms_iops_error_pct", NAN),
            iom_json_num(err, "max_abs_iops_error_pct", NAN),
            iom_json_num(err, "rms_lat_mean_error_pct", NAN),
            iom_json_num(err, "max_abs_lat_mean_error_pct", NAN));
    if (cJSON_IsArray(pts) && cJSON_GetArraySize(pts) > 0) {
        charts(f, pts, d);
        table(f, pts, d);
    }
    fprintf(f, "</section>\n");
}

int iom_model_html_report(FILE *f, const cJSON *const *docs, const char *const *paths,
                          unsigned n, const char *title)
{
    if (!f || !docs || !n)
        return -EINVAL;
    for (unsigned i = 0; i < n; i++)
        if (!iom_model_doc_kind(docs[i]))
            return -EINVAL;
    if (!title)
        title = "iomark model: predicted vs measured";
    char ts[40];
    iom_html_page_head(f, title, ts, sizeof(ts));
    fprintf(f, "<p class=\"meta\">Made by iomark %s on %s from %u model document(s). "
               "Self-contained: no scripts, no network.</p>\n",
            IOMARK_VERSION, ts, n);
    for (unsigned i = 0; i < n; i++)
        section(f, docs[i], paths[i], i);
    fprintf(f, "</main></body></html>\n");
    return ferror(f) ? -EIO : 0;
}
