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

#include "report/lab_html.h"

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

static double num(const cJSON *o, const char *k)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsNumber(n) ? n->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(s) ? s->valuestring : "";
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
        double v = num(io ? cJSON_GetObjectItemCaseSensitive(m, "io_path") : m, key);
        if (!isnan(v)) {
            max = fmax(max, v);
            have++;
        }
        n++;
    }
    if (!have || max <= 0)
        return;
    int rowh = 22, w = 640, lw = 220;
    fprintf(f, "<h4>");
    esc(f, title);
    fprintf(f, " (%s)</h4>\n<svg width=\"%d\" height=\"%d\" role=\"img\">\n", unit, w + 120,
            n * rowh + 4);
    int i = 0;
    cJSON_ArrayForEach(c, ctrls)
    {
        const cJSON *m = job_mean(c, j);
        double v = num(io ? cJSON_GetObjectItemCaseSensitive(m, "io_path") : m, key);
        int y = i * rowh + 2;
        fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"13\">", y + 15);
        esc(f, str(c, "name"));
        fprintf(f, "</text>\n");
        if (!isnan(v)) {
            double bw = (w - lw) * v / max;
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

/* Scaling lines of a sweep job: IOPS against outstanding I/O per controller. */
static void sweep_lines(FILE *f, const cJSON *ctrls, int j)
{
    static const char *const colours[] = {"#4a78b5", "#d9822b", "#3a9b48", "#b5443a",
                                          "#7c5cb5", "#6b6b6b"};
    double maxx = 0, maxy = 0;
    const cJSON *c, *p;
    cJSON_ArrayForEach(c, ctrls)
    {
        cJSON_ArrayForEach(p, job_points(c, j))
        {
            maxx = fmax(maxx, num(p, "threads") * num(p, "iodepth"));
            maxy = fmax(maxy, num(p, "iops"));
        }
    }
    if (!(maxx > 0 && maxy > 0))
        return;
    int w = 560, h = 260, x0 = 60, y0 = 20;
    fprintf(f, "<h4>Scaling: IOPS by outstanding I/O (threads x iodepth)</h4>\n"
               "<svg width=\"%d\" height=\"%d\" role=\"img\">\n", w + 220, h + 60);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", x0, y0 + h,
            x0 + w, y0 + h);
    fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", x0, y0, x0,
            y0 + h);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%.0f</text>\n", x0 + w - 20,
            y0 + h + 16, maxx);
    fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"12\">%.0f</text>\n", y0 + 10, maxy);
    int i = 0;
    cJSON_ArrayForEach(c, ctrls)
    {
        const char *col = colours[i % 6];
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
        cJSON_ArrayForEach(p, job_points(c, j))
        {
            double x = x0 + w * num(p, "threads") * num(p, "iodepth") / maxx;
            double y = y0 + h - h * num(p, "iops") / maxy;
            if (!isnan(x) && !isnan(y))
                fprintf(f, "%.1f,%.1f ", x, y);
        }
        fprintf(f, "\"/>\n<text x=\"%d\" y=\"%d\" font-size=\"13\" fill=\"%s\">", x0 + w + 10,
                y0 + 16 * (i + 1), col);
        esc(f, str(c, "name"));
        fprintf(f, "</text>\n");
        i++;
    }
    fprintf(f, "</svg>\n");
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
        esc(f, str(c, "name"));
        fprintf(f, "</td><td>");
        esc(f, str(g, "driver"));
        fprintf(f, "</td>");
        const char *keys[] = {"adapter_queue", "lun_queue", "nr_requests", "nr_hw_queues",
                              "max_sectors_kb"};
        for (int k = 0; k < 5; k++) {
            double v = num(g, keys[k]);
            if (isnan(v))
                fprintf(f, "<td>-</td>");
            else
                fprintf(f, "<td>%.0f</td>", v);
        }
        fprintf(f, "<td>");
        const cJSON *p;
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(c, "guest_params_effective"))
        {
            esc(f, str(p, "parameter"));
            fprintf(f, " ");
            esc(f, str(p, "requested"));
            fprintf(f, " / ");
            esc(f, str(p, "in_effect"));
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
    esc(f, title ? title : "iomark lab");
    fprintf(f, "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:70em}"
               "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 8px;"
               "text-align:right}th{background:#eee}td:first-child{text-align:left}"
               ".note{background:#fff6dd;border:1px solid #e0c060;padding:.6em}</style>"
               "</head><body>\n<h1>");
    esc(f, title ? title : "iomark lab");
    fprintf(f, "</h1>\n<p>");
    esc(f, str(lab, "start_time"));
    fprintf(f, ", %.0f s; QEMU ", num(lab, "wall_s"));
    esc(f, str(env, "qemu_version"));
    fprintf(f, ", accelerator ");
    esc(f, str(env, "accelerator"));
    fprintf(f, " (");
    esc(f, str(env, "accelerator_reason"));
    fprintf(f, "), guest kernel ");
    esc(f, str(env, "guest_kernel"));
    if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(env, "study"))) {
        fprintf(f, "; study ");
        esc(f, str(env, "study"));
        fprintf(f, " (");
        esc(f, str(env, "study_title"));
        fprintf(f, "), scale %g", num(env, "scale"));
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(lab, "interrupted")))
        fprintf(f, "; <b>interrupted: partial results</b>");
    fprintf(f, "</p>\n<div class=\"note\"><p><b>Caveats.</b> ");
    esc(f, str(env, "note"));
    fprintf(f, ".</p><p>");
    esc(f, str(lab, "cpu_per_io_note"));
    fprintf(f, ".</p><p>Host: ");
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(env, "host");
    esc(f, str(h, "cpu_model"));
    fprintf(f, ", %.0f CPUs, load average %.1f at start: other work on the host moves every "
               "figure.</p></div>\n",
            num(h, "nr_cpus"), num(h, "loadavg_1m_start"));
    int j = 0;
    const cJSON *jb;
    cJSON_ArrayForEach(jb, jobs)
    {
        const char *cmd = str(jb, "command");
        fprintf(f, "<h2>Job %d: iomark ", j + 1);
        esc(f, str(jb, "label"));
        fprintf(f, "</h2>\n");
        if (strcmp(cmd, "tpcc") == 0) {
            bars(f, ctrls, j, "nopm", false, "TPC-C NOPM", "new orders per minute", "%.0f");
            bars(f, ctrls, j, "tpm", false, "TPM", "transactions per minute", "%.0f");
        } else if (strcmp(cmd, "mark") != 0) {
            if (strcmp(cmd, "sweep") == 0)
                sweep_lines(f, ctrls, j);
            bars(f, ctrls, j, "iops", false, strcmp(cmd, "sweep") == 0 ? "Best IOPS" : "IOPS",
                 "I/Os per second", "%.0f");
            bars(f, ctrls, j, "mib_per_s", false, "Throughput", "MiB/s", "%.1f");
            bars(f, ctrls, j, "lat_p99_us", false, "p99 latency", "us, lower is better", "%.0f");
        }
        bars(f, ctrls, j, "qemu_cpu_us_per_io", true, "QEMU CPU per I/O",
             "us, lower is better; includes TCG emulation", "%.1f");
        bars(f, ctrls, j, "guest_cpu_us_per_io", true, "Guest CPU per I/O", "us, lower is better",
             "%.1f");
        bars(f, ctrls, j, "inflight_max", true, "Device in-flight, sampled maximum", "I/Os",
             "%.0f");
        j++;
    }
    limits_table(f, ctrls);
    const cJSON *c;
    bool fails = false;
    cJSON_ArrayForEach(c, ctrls)
    {
        if (strcmp(str(c, "status"), "ok") == 0)
            continue;
        if (!fails)
            fprintf(f, "<h3>Failed</h3>\n<ul>\n");
        fails = true;
        fprintf(f, "<li>");
        esc(f, str(c, "name"));
        fprintf(f, ": ");
        esc(f, str(c, "reason"));
        fprintf(f, "</li>\n");
    }
    if (fails)
        fprintf(f, "</ul>\n");
    fprintf(f, "<p>Written by iomark report from lab.json (docs/lab.md).</p>\n</body></html>\n");
    return ferror(f) ? -EIO : 0;
}
