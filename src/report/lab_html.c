/*
 * lab_html.c - `iomark report LABDIR`: one self-contained HTML page from a
 * lab's lab.json: per job, bars per controller (IOPS, MiB/s, p99 latency,
 * NOPM, QEMU and guest CPU per I/O), the scaling lines of sweeps, the guest's
 * queue limits, and the caveats. Inline SVG, no scripts, no external files.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "report/html_int.h"
#include "report/lab_html.h"
#include "util/json_get.h"

/* s escaped, each space-separated word kept on one line ("--runtime=3s" never breaks at '-'). */
static void esc_words(FILE *f, const char *s)
{
    char w[512];
    while (s && *s) {
        size_t n = strcspn(s, " ");
        snprintf(w, sizeof(w), "%.*s", (int)n, s);
        fprintf(f, "<span class=\"nw\">");
        iom_html_esc(f, w);
        fprintf(f, "</span>%s", s[n] ? " " : "");
        s += n + (s[n] != 0);
    }
}

/* The mean of job j of controller c, or NULL. */
static const cJSON *job_mean(const cJSON *c, int j)
{
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(c, "jobs");
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(jobs, j), "mean");
}

/* The points of a sweep job: those of its first run (the mean has none). */
static const cJSON *job_points(const cJSON *c, int j)
{
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(c, "jobs");
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(jobs, j), "runs");
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(runs, 0), "points");
}

/* Horizontal bars of one figure (key inside mean, or inside mean.io_path). */
static void bars(FILE *f, const cJSON *ctrls, int j, const char *key, bool io, const char *title,
                 const char *unit, const char *fmt)
{
    double max = 0;
    int n = 0, have = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, ctrls)
    {
        const cJSON *m = job_mean(c, j);
        double v = iom_json_num(io ? cJSON_GetObjectItemCaseSensitive(m, "io_path") : m, key, NAN);
        if (!isnan(v)) {
            max = fmax(max, v);
            have++;
        }
        n++;
    }
    if (!have || max <= 0)
        return;
    /* latencies of a slow (TCG) guest read better in milliseconds: "501219" -> "501.2"
     * (CPU per I/O stays in us, as in the I/O path table) */
    double div = 1;
    char ubuf[128];
    if (strncmp(key, "lat_", 4) == 0 && strncmp(unit, "us", 2) == 0 && max >= 10000) {
        div = 1000;
        snprintf(ubuf, sizeof(ubuf), "ms%s", unit + 2);
        unit = ubuf;
        fmt = "%.1f";
    }
    int rowh = 22, w = 640, lw = 220;
    fprintf(f, "<h4>");
    iom_html_esc(f, title);
    fprintf(f, " (");
    iom_html_esc(f, unit);
    fprintf(f, ")</h4>\n<svg width=\"%d\" height=\"%d\" role=\"img\">\n", w + 120,
            n * rowh + 4);
    int i = 0;
    cJSON_ArrayForEach(c, ctrls)
    {
        const cJSON *m = job_mean(c, j);
        double v = iom_json_num(io ? cJSON_GetObjectItemCaseSensitive(m, "io_path") : m, key, NAN);
        int y = i * rowh + 2;
        fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"13\">", y + 15);
        iom_html_esc(f, iom_json_str(c, "name", ""));
        fprintf(f, "</text>\n");
        if (!isnan(v)) {
            double bw = (w - lw) * v / max;
            v /= div;
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#4a78b5\"/>\n",
                    lw, y + 3, bw, rowh - 6);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">", lw + bw + 4, y + 15);
            fprintf(f, fmt, v);
            fprintf(f, "</text>\n");
        } else {
            fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">-</text>\n", lw, y + 15);
        }
        i++;
    }
    fprintf(f, "</svg>\n");
}

/* "Nice" upper bound of an axis and its step: 1, 2 or 5 times a power of ten. */
static double nice_step(double max, int ticks)
{
    double raw = max / ticks, p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

/*
 * Scaling lines of a sweep job: figure `key` of each point (iops,
 * lat_mean_us) against outstanding I/O (threads x iodepth), one line per
 * controller, points in order of outstanding I/O on a log2 axis with a tick
 * at every outstanding value measured, the knee ringed.
 */
static void sweep_lines(FILE *f, const cJSON *ctrls, int j, const char *key, const char *title,
                        const char *yunit)
{
    static const char *const colours[] = {"#4a78b5", "#d9822b", "#3a9b48", "#b5443a",
                                          "#7c5cb5", "#6b6b6b"};
    double xs[64];
    int nx = 0;
    double maxy = 0;
    const cJSON *c, *p;
    cJSON_ArrayForEach(c, ctrls)
    {
        cJSON_ArrayForEach(p, job_points(c, j))
        {
            double x = iom_json_num(p, "threads", NAN) * iom_json_num(p, "iodepth", NAN),
                   y = iom_json_num(p, key, NAN);
            if (!(x >= 1) || isnan(y))
                continue;
            maxy = fmax(maxy, y);
            int k = 0;
            while (k < nx && xs[k] != x)
                k++;
            if (k == nx && nx < 64)
                xs[nx++] = x;
        }
    }
    if (!nx || !(maxy > 0))
        return;
    double minx = xs[0], maxx = xs[0];
    for (int k = 1; k < nx; k++) {
        minx = fmin(minx, xs[k]);
        maxx = fmax(maxx, xs[k]);
    }
    double div = 1; /* microseconds of a slow (TCG) guest read better as milliseconds */
    if (strcmp(yunit, "us") == 0 && maxy >= 10000) {
        div = 1000;
        yunit = "ms";
        maxy /= div;
    }
    double step = nice_step(maxy, 4), top = ceil(maxy / step) * step;
    double lx0 = log2(minx), lspan = maxx > minx ? log2(maxx) - lx0 : 1;
    int w = 520, h = 240, x0 = 70, y0 = 12;
#define PX(xv) (x0 + (maxx > minx ? w * (log2(xv) - lx0) / lspan : w / 2.0))
#define PY(yv) (y0 + h - h * (yv) / top)
    fprintf(f, "<h4>");
    iom_html_esc(f, title);
    fprintf(f, " (%s) by outstanding I/O</h4>\n<svg width=\"%d\" height=\"%d\" role=\"img\" "
               "font-size=\"12\">\n", yunit, w + x0 + 260, h + y0 + 44);
    for (double t = 0; t <= top * 1.0001; t += step) { /* y grid and labels */
        fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                x0, PY(t), x0 + w, PY(t), x0 - 6, PY(t) + 4, t);
    }
    for (int k = 0; k < nx; k++) /* x ticks: the outstanding values measured */
        fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#000\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
                PX(xs[k]), y0 + h, PX(xs[k]), y0 + h + 5, PX(xs[k]), y0 + h + 18, xs[k]);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n"
               "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n"
               "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">outstanding I/O = threads x "
               "iodepth (log scale)</text>\n",
            x0, y0 + h, x0 + w, y0 + h, x0, y0, x0, y0 + h, x0 + w / 2, y0 + h + 36);
    int i = 0;
    cJSON_ArrayForEach(c, ctrls)
    {
        const char *col = colours[i % 6];
        /* the points in order of outstanding I/O (a sweep lists threads, then depths) */
        const cJSON *pts[64];
        int np = 0;
        cJSON_ArrayForEach(p, job_points(c, j))
        {
            double x = iom_json_num(p, "threads", NAN) * iom_json_num(p, "iodepth", NAN);
            if (np == 64 || !(x >= 1) || isnan(iom_json_num(p, key, NAN)))
                continue;
            int k = np++;
            while (k > 0 && iom_json_num(pts[k - 1], "threads", NAN) *
                                    iom_json_num(pts[k - 1], "iodepth", NAN) >
                                x) {
                pts[k] = pts[k - 1];
                k--;
            }
            pts[k] = p;
        }
#define PV(pt) PY(iom_json_num(pt, key, NAN) / div)
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        for (int k = 0; k < np; k++)
            fprintf(f, "%.1f,%.1f ",
                    PX(iom_json_num(pts[k], "threads", NAN) * iom_json_num(pts[k], "iodepth", NAN)),
                    PV(pts[k]));
        fprintf(f, "\"/>\n");
        for (int k = 0; k < np; k++) {
            double px =
                PX(iom_json_num(pts[k], "threads", NAN) * iom_json_num(pts[k], "iodepth", NAN));
            double py = PV(pts[k]);
            fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>", px, py, col);
            iom_html_esc(f, iom_json_str(c, "name", ""));
            fprintf(f, ": %g threads x %g iodepth, %.4g %s</title></circle>\n",
                    iom_json_num(pts[k], "threads", NAN), iom_json_num(pts[k], "iodepth", NAN),
                    iom_json_num(pts[k], key, NAN) / div, yunit);
            if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pts[k], "knee")))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"none\" stroke=\"%s\" "
                           "stroke-width=\"1.5\"/>\n", px, py, col);
        }
        fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                   "<text x=\"%d\" y=\"%d\" font-size=\"13\">", x0 + w + 16, y0 + 16 * i + 10,
                x0 + w + 36, y0 + 16 * i + 10, col, x0 + w + 42, y0 + 16 * i + 14);
        iom_html_esc(f, iom_json_str(c, "name", ""));
        fprintf(f, "</text>\n");
        i++;
    }
    fprintf(f, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"none\" stroke=\"#000\"/>"
               "<text x=\"%d\" y=\"%d\">the knee (iomark sweep)</text>\n",
            x0 + w + 26, y0 + 16 * i + 10, x0 + w + 42, y0 + 16 * i + 14);
#undef PX
#undef PY
#undef PV
    fprintf(f, "</svg>\n");
}

/* What the guest's counters saw while job j ran: iomark's outstanding I/O beside the device's. */
static void io_path_table(FILE *f, const cJSON *ctrls, int j)
{
    static const struct {
        const char *key, *head, *fmt;
    } cols[] = {{"guest_ios", "guest I/Os", "%.0f"}, {"iomark_outstanding", "iomark QD", "%.1f"},
                {"aqu_sz", "aqu-sz", "%.1f"},        {"inflight_mean", "in-flight mean", "%.1f"},
                {"inflight_max", "in-flight max", "%.0f"}, {"util_pct", "util %", "%.0f"},
                {"qemu_cpu_us_per_io", "QEMU CPU us/I/O", "%.1f"},
                {"guest_cpu_us_per_io", "guest CPU us/I/O", "%.1f"}};
    const size_t nc = sizeof(cols) / sizeof(cols[0]);
    fprintf(f, "<h4>I/O path: iomark's outstanding I/O and the guest disk's counters</h4>\n"
               "<table>\n<tr><th>controller</th>");
    for (size_t k = 0; k < nc; k++)
        fprintf(f, "<th>%s</th>", cols[k].head);
    fprintf(f, "</tr>\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, ctrls)
    {
        const cJSON *io = cJSON_GetObjectItemCaseSensitive(job_mean(c, j), "io_path");
        fprintf(f, "<tr><td>");
        iom_html_esc(f, iom_json_str(c, "name", ""));
        fprintf(f, "</td>");
        for (size_t k = 0; k < nc; k++) {
            double v = iom_json_num(io, cols[k].key, NAN);
            fprintf(f, "<td>");
            if (isnan(v))
                fprintf(f, "-");
            else
                fprintf(f, cols[k].fmt, v);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n<p class=\"small\">iomark QD = iomark's IOPS x mean latency (Little's "
               "law); aqu-sz = the disk's time_in_queue / wall time (iostat); in-flight = "
               "/sys/block/DISK/inflight sampled 10 times a second. iomark counts an I/O from "
               "submission, the device only once the block layer dispatched it: the gap is the "
               "driver's queue limit (docs/lab.md).</p>\n");
}

/* Where each controller's time went (lab.json image_s, boot_s, jobs_s, wall_s). */
static void time_table(FILE *f, const cJSON *ctrls)
{
    fprintf(f, "<h3>Time per controller</h3>\n<table>\n<tr><th>controller</th><th>boot</th>"
               "<th>image s</th><th>boot s</th><th>jobs s</th><th>QEMU s</th>"
               "<th>QEMU CPU s</th></tr>\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, ctrls)
    {
        fprintf(f, "<tr><td>");
        iom_html_esc(f, iom_json_str(c, "name", ""));
        fprintf(f, "</td><td>");
        iom_html_esc(f, iom_json_str(c, "boot", ""));
        fprintf(f, "</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td></tr>\n",
                iom_json_num(c, "image_s", NAN), iom_json_num(c, "boot_s", NAN),
                iom_json_num(c, "jobs_s", NAN), iom_json_num(c, "wall_s", NAN),
                iom_json_num(c, "qemu_cpu_s", NAN));
    }
    fprintf(f, "</table>\n<p class=\"small\">boot s = QEMU's start to the controller's first job "
               "(in a shared boot it includes the controllers before it); QEMU s and QEMU CPU s "
               "are the whole boot's.</p>\n");
}

static void limits_table(FILE *f, const cJSON *ctrls)
{
    fprintf(f, "<h3>Guest-reported queue limits</h3>\n<table>\n<tr><th>controller</th>"
               "<th>driver</th><th>adapter queue</th><th>LUN queue</th><th>nr_requests</th>"
               "<th>hw queues</th><th>max KiB</th><th>parameters (requested / in effect)</th>"
               "</tr>\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, ctrls)
    {
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(c, "guest");
        fprintf(f, "<tr><td>");
        iom_html_esc(f, iom_json_str(c, "name", ""));
        fprintf(f, "</td><td>");
        iom_html_esc(f, iom_json_str(g, "driver", ""));
        fprintf(f, "</td>");
        const char *keys[] = {"adapter_queue", "lun_queue", "nr_requests", "nr_hw_queues",
                              "max_sectors_kb"};
        for (int k = 0; k < 5; k++) {
            double v = iom_json_num(g, keys[k], NAN);
            if (isnan(v))
                fprintf(f, "<td>-</td>");
            else
                fprintf(f, "<td>%.0f</td>", v);
        }
        fprintf(f, "<td class=\"l\">");
        const cJSON *p, *eff = cJSON_GetObjectItemCaseSensitive(c, "guest_params_effective");
        if (!cJSON_GetArraySize(eff))
            fprintf(f, "none (the driver's defaults)");
        cJSON_ArrayForEach(p, eff)
        {
            iom_html_esc(f, iom_json_str(p, "parameter", ""));
            fprintf(f, " ");
            iom_html_esc(f, iom_json_str(p, "requested", ""));
            fprintf(f, " / ");
            iom_html_esc(f, iom_json_str(p, "in_effect", ""));
            fprintf(f, "<br>");
        }
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
}

int iom_lab_html_report(FILE *f, const cJSON *lab, const char *title)
{
    const cJSON *env = cJSON_GetObjectItemCaseSensitive(lab, "lab");
    const cJSON *ctrls = cJSON_GetObjectItemCaseSensitive(lab, "controllers");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(lab, "jobs");
    if (!cJSON_IsArray(ctrls) || !cJSON_IsArray(jobs))
        return -EINVAL;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
    iom_html_esc(f, title ? title : "iomark lab");
    fprintf(f, "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
               "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 8px;"
               "text-align:right}th{background:#eee}td:first-child,td.l{text-align:left}"
               ".note{background:#fff6dd;border:1px solid #e0c060;padding:.6em}"
               ".small{font-size:90%%;color:#444;max-width:60em}.nw{white-space:nowrap}</style>"
               "</head><body>\n<h1>");
    iom_html_esc(f, title ? title : "iomark lab");
    fprintf(f, "</h1>\n<p>");
    iom_html_esc(f, iom_json_str(lab, "start_time", ""));
    fprintf(f, ", %.0f s; QEMU ", iom_json_num(lab, "wall_s", NAN));
    iom_html_esc(f, iom_json_str(env, "qemu_version", ""));
    fprintf(f, ", accelerator ");
    iom_html_esc(f, iom_json_str(env, "accelerator", ""));
    fprintf(f, " (");
    iom_html_esc(f, iom_json_str(env, "accelerator_reason", ""));
    fprintf(f, "), guest kernel ");
    iom_html_esc(f, iom_json_str(env, "guest_kernel", ""));
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(env, "study"))) {
        fprintf(f, "; study ");
        iom_html_esc(f, iom_json_str(env, "study", ""));
        fprintf(f, " (");
        iom_html_esc(f, iom_json_str(env, "study_title", ""));
        fprintf(f, "), scale %g", iom_json_num(env, "scale", NAN));
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lab, "interrupted")))
        fprintf(f, "; <b>interrupted: partial results</b>");
    fprintf(f, "</p>\n<div class=\"note\"><p><b>Caveats.</b> ");
    iom_html_esc(f, iom_json_str(env, "note", ""));
    fprintf(f, ".</p><p>");
    iom_html_esc(f, iom_json_str(lab, "cpu_per_io_note", ""));
    fprintf(f, ".</p><p>Host: ");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(env, "host");
    iom_html_esc(f, iom_json_str(h, "cpu_model", ""));
    fprintf(f,
            ", %.0f CPUs, load average %.1f at start: other work on the host moves every "
            "figure.</p></div>\n",
            iom_json_num(h, "nr_cpus", NAN), iom_json_num(h, "loadavg_1m_start", NAN));
    int j = 0;
    const cJSON *jb;
    cJSON_ArrayForEach(jb, jobs)
    {
        const char *cmd = iom_json_str(jb, "command", "");
        fprintf(f, "<h2>Job %d: iomark ", j + 1);
        esc_words(f, iom_json_str(jb, "label", ""));
        fprintf(f, "</h2>\n");
        if (strcmp(cmd, "tpcc") == 0) {
            bars(f, ctrls, j, "nopm", false, "TPC-C NOPM", "new orders per minute", "%.0f");
            bars(f, ctrls, j, "tpm", false, "TPM", "transactions per minute", "%.0f");
        } else if (strcmp(cmd, "mark") != 0) {
            bool sw = strcmp(cmd, "sweep") == 0;
            if (sw) {
                sweep_lines(f, ctrls, j, "iops", "Scaling: IOPS", "I/Os per second");
                sweep_lines(f, ctrls, j, "lat_mean_us", "Scaling: mean latency", "us");
                fprintf(f, "<p class=\"small\">The bars below are each controller's "
                           "best-IOPS point of the sweep.</p>\n");
            }
            bars(f, ctrls, j, "iops", false, sw ? "Best IOPS" : "IOPS", "I/Os per second", "%.0f");
            bars(f, ctrls, j, "mib_per_s", false, sw ? "Throughput at the best point" : "Throughput",
                 "MiB/s", "%.1f");
            bars(f, ctrls, j, "lat_p99_us", false, sw ? "p99 latency at the best point"
                                                      : "p99 latency", "us, lower is better", "%.0f");
        }
        bars(f, ctrls, j, "qemu_cpu_us_per_io", true, "QEMU CPU per I/O",
             "us, lower is better; includes TCG emulation", "%.1f");
        bars(f, ctrls, j, "guest_cpu_us_per_io", true, "Guest CPU per I/O", "us, lower is better",
             "%.1f");
        bars(f, ctrls, j, "inflight_max", true, "Device in-flight, sampled maximum", "I/Os",
             "%.0f");
        io_path_table(f, ctrls, j);
        j++;
    }
    limits_table(f, ctrls);
    time_table(f, ctrls);
    const cJSON *c;
    bool fails = false;
    cJSON_ArrayForEach(c, ctrls)
    {
        if (strcmp(iom_json_str(c, "status", ""), "ok") == 0)
            continue;
        if (!fails)
            fprintf(f, "<h3>Failed</h3>\n<ul>\n");
        fails = true;
        fprintf(f, "<li>");
        iom_html_esc(f, iom_json_str(c, "name", ""));
        fprintf(f, ": ");
        iom_html_esc(f, iom_json_str(c, "reason", ""));
        fprintf(f, "</li>\n");
    }
    if (fails)
        fprintf(f, "</ul>\n");
    fprintf(f, "<p>Written by iomark report from lab.json (docs/lab.md).</p>\n</body></html>\n");
    return ferror(f) ? -EIO : 0;
}
