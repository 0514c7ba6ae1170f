/*
 * import_fio_json.c - fio --output-format=json and json+ results.
 *
 * Unit differences between fio versions (fio's stat.c, show_thread_status_json):
 * - fio 3.x: "clat_ns"/"lat_ns" objects, values and percentiles in ns;
 *   "io_bytes" in bytes, with "io_kbytes" beside it.
 * - fio 2.x: "clat"/"lat" objects in us; "io_bytes" in KiB (no "io_kbytes").
 * - "bw" is KiB/s in both; "bw_bytes" (3.x) is bytes/s; "runtime" is ms.
 * Mean latency is fio's "lat" (submission to completion, what iomark
 * measures); p99 and the percentile curve come from "lat" when fio recorded
 * lat percentiles (lat_percentiles=1), else from "clat" (fio's default).
 * Jobs that share a name (numjobs without group_reporting) are merged: rates
 * and CPU add, mean latency is I/O-weighted, p99 becomes unknown.
 * A job with a non-zero "error" that moved no data is left out (a file with
 * only such jobs is refused with fio's reason); one that did I/O before it
 * failed is imported with a note (res->note) quoting fio's error line. A
 * "fio: terminating on signal N" line (fio's stderr saved with the
 * document) marks the run interrupted: a note says after how long, of the
 * runtime asked for. Errno numbers are quoted, never translated (the run
 * may come from another OS). Log lines before the document are skipped.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static int probe(const char *text, size_t len)
{
    (void)len;
    const char *j = iom_imp_json_start(text);
    return j && strstr(j, "\"fio version\"") && strstr(j, "\"jobs\"");
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (cJSON_IsNumber(v))
        return v->valuedouble;
    if (cJSON_IsString(v) && v->valuestring[0]) {
        char *end;
        double d = strtod(v->valuestring, &end);
        if (end != v->valuestring)
            return d;
    }
    return NAN;
}

/* Percentile value for p (e.g. 99) from fio's {"99.000000": v} map. */
static double pct_of(const cJSON *pmap, double p)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, pmap)
    {
        if (e->string && fabs(strtod(e->string, NULL) - p) < 1e-9 && cJSON_IsNumber(e))
            return e->valuedouble;
    }
    return NAN;
}

static void read_dir(const cJSON *d, struct iom_imp_dir *out, double *runtime_s, const cJSON **curve,
                     double *curve_scale)
{
    if (!cJSON_IsObject(d))
        return;
    int v3 = cJSON_GetObjectItemCaseSensitive(d, "clat_ns") != NULL;
    double to_us = v3 ? 1e-3 : 1.0;
    const cJSON *clat = cJSON_GetObjectItemCaseSensitive(d, v3 ? "clat_ns" : "clat");
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(d, v3 ? "lat_ns" : "lat");
    double rt_ms = num(d, "runtime");
    double io_bytes = num(d, "io_bytes");
    if (!cJSON_GetObjectItemCaseSensitive(d, "io_kbytes") && !isnan(io_bytes))
        io_bytes *= 1024; /* fio 2.x: KiB */
    double bw_bytes = num(d, "bw_bytes");
    if (isnan(bw_bytes)) {
        double bw = num(d, "bw");
        bw_bytes = isnan(bw) ? NAN : bw * 1024;
    }
    out->iops = num(d, "iops");
    out->ios = num(d, "total_ios");
    if (isnan(out->ios) && out->iops == 0)
        out->ios = 0;
    if (isnan(out->ios) && !isnan(out->iops) && rt_ms > 0)
        out->ios = round(out->iops * rt_ms / 1000.0);
    /* bandwidth: bytes / runtime is exact; fio's "bw" is rounded to KiB/s */
    if (!isnan(io_bytes) && rt_ms > 0) {
        out->mb_per_s = io_bytes / (rt_ms / 1000.0) / 1e6;
        out->mib_per_s = io_bytes / (rt_ms / 1000.0) / 1048576.0;
    } else if (!isnan(bw_bytes)) {
        out->mb_per_s = bw_bytes / 1e6;
        out->mib_per_s = bw_bytes / 1048576.0;
    }
    if (rt_ms > 0 && (isnan(*runtime_s) || rt_ms / 1000.0 > *runtime_s))
        *runtime_s = rt_ms / 1000.0;
    if (out->ios > 0) {
        const cJSON *src = lat ? lat : clat;
        out->lat_mean_us = num(src, "mean") * to_us;
        out->lat_max_us = num(src, "max") * to_us;
        const cJSON *pm = lat ? cJSON_GetObjectItemCaseSensitive(lat, "percentile") : NULL;
        if (!pm && clat)
            pm = cJSON_GetObjectItemCaseSensitive(clat, "percentile");
        if (pm) {
            out->lat_p99_us = pct_of(pm, 99) * to_us;
            *curve = pm;
            *curve_scale = to_us;
        }
    }
}

static void merge_dir(struct iom_imp_dir *a, const struct iom_imp_dir *b)
{
    double an = isnan(a->ios) ? 0 : a->ios, bn = isnan(b->ios) ? 0 : b->ios;
    if (an + bn > 0 && !isnan(a->lat_mean_us) && !isnan(b->lat_mean_us))
        a->lat_mean_us = (a->lat_mean_us * an + b->lat_mean_us * bn) / (an + bn);
    else if (an == 0)
        a->lat_mean_us = b->lat_mean_us;
    a->lat_max_us = fmax(a->lat_max_us, b->lat_max_us);
    a->lat_p99_us = NAN; /* not derivable from two percentiles */
    a->iops += b->iops;
    a->mb_per_s += b->mb_per_s;
    a->mib_per_s += b->mib_per_s;
    a->ios = an + bn;
}

/* fio's bs text ("4k", "4096", "1m"; k = 1024 as fio's default kb_base) in
 * bytes; 0 for what is not one plain size (bs=4k,8k per direction, ranges) */
static uint64_t fio_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    switch (*end | 0x20) {
    case 'k': shift = 10; break;
    case 'm': shift = 20; break;
    case 'g': shift = 30; break;
    default: break;
    }
    if (shift)
        end++;
    if ((*end | 0x20) == 'i')
        end++;
    if ((*end | 0x20) == 'b')
        end++;
    return end == s || *end || v == 0 ? 0 : (uint64_t)v << shift;
}

static int opt_int(const cJSON *job, const cJSON *glob, const char *key)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(job, "job options");
    double v = num(o, key);
    if (isnan(v))
        v = num(glob, key);
    return iom_imp_count(v);
}

static const char *opt_str(const cJSON *job, const cJSON *glob, const char *key)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(job, "job options");
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v))
        v = cJSON_GetObjectItemCaseSensitive(glob, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    (void)len;
    const char *start = iom_imp_json_start(text);
    cJSON *doc = cJSON_Parse(start);
    if (!doc) {
        snprintf(err, errlen, "the JSON document does not parse (truncated?)");
        return -EINVAL;
    }
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(doc, "fio version");
    snprintf(res->tool, sizeof(res->tool), "%s", cJSON_IsString(ver) ? ver->valuestring : "fio");
    const cJSON *glob = cJSON_GetObjectItemCaseSensitive(doc, "global options");
    const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
    int rc = 0, failed = 0;
    char first_fail[200] = "";
    const cJSON *job;
    cJSON_ArrayForEach(job, jobs)
    {
        const cJSON *jn = cJSON_GetObjectItemCaseSensitive(job, "jobname");
        const char *name = cJSON_IsString(jn) ? jn->valuestring : "job";
        double e = num(job, "error");
        if (!isnan(e) && e != 0) {
            double rb = num(cJSON_GetObjectItemCaseSensitive(job, "read"), "io_bytes");
            double wb = num(cJSON_GetObjectItemCaseSensitive(job, "write"), "io_bytes");
            double tb = num(cJSON_GetObjectItemCaseSensitive(job, "trim"), "io_bytes");
            if (!(rb > 0) && !(wb > 0) && !(tb > 0)) { /* failed before any I/O */
                if (!failed++)
                    snprintf(first_fail, sizeof(first_fail), "job '%s' failed with error=%d", name,
                             iom_imp_count(e));
                continue;
            }
            char line[240];
            if (iom_imp_fio_line(text, 0, line, sizeof(line)))
                iom_imp_note(res, "source job '%s' failed (error=%d; fio said: \"%s\"); its figures "
                             "are up to the failure", name, iom_imp_count(e), line);
            else
                iom_imp_note(res, "source job '%s' failed (error=%d); its figures are up to the "
                             "failure", name, iom_imp_count(e));
        }
        struct iom_imp_run run;
        iom_imp_run_init(&run);
        const cJSON *curve[3] = {NULL, NULL, NULL}; /* read, write, trim */
        double scale[3] = {1, 1, 1};
        read_dir(cJSON_GetObjectItemCaseSensitive(job, "read"), &run.dir[0], &run.runtime_s, &curve[0],
                 &scale[0]);
        read_dir(cJSON_GetObjectItemCaseSensitive(job, "write"), &run.dir[1], &run.runtime_s,
                 &curve[1], &scale[1]);
        read_dir(cJSON_GetObjectItemCaseSensitive(job, "trim"), &run.dir[IOM_IMP_TRIM],
                 &run.runtime_s, &curve[2], &scale[2]);
        iom_imp_make_total(&run);
        double usr = num(job, "usr_cpu"), sys = num(job, "sys_cpu");
        if (!isnan(usr) && !isnan(sys))
            run.cpu_proc_pct = usr + sys;

        struct iom_imp_workload *w = NULL;
        for (uint32_t i = 0; i < res->nr_workloads; i++)
            if (strcmp(res->w[i].name, name) == 0)
                w = &res->w[i];
        if (w) { /* same job name again: one of numjobs without group_reporting */
            struct iom_imp_run *r0 = &w->runs[0];
            for (int d = 0; d < IOM_IMP_NDIR; d++)
                if (d != IOM_IMP_TOTAL)
                    merge_dir(&r0->dir[d], &run.dir[d]);
            r0->dir[2].lat_p99_us = NAN;
            r0->dir[2].lat_mean_us = r0->dir[2].lat_max_us = NAN;
            iom_imp_make_total(r0);
            r0->cpu_proc_pct += run.cpu_proc_pct;
            r0->runtime_s = fmax(r0->runtime_s, run.runtime_s);
            free(r0->pct);
            r0->pct = NULL;
            r0->nr_pct = 0;
            w->threads++;
            continue;
        }
        w = iom_imp_add_workload(res, name);
        if (!w) {
            rc = -ENOMEM;
            break;
        }
        w->runs[0] = run;
        int nj = opt_int(job, glob, "numjobs");
        w->threads = nj > 0 ? nj : 1;
        w->iodepth = opt_int(job, glob, "iodepth");
        if (w->iodepth == 0)
            w->iodepth = 1;
        const char *rw = opt_str(job, glob, "rw"), *bs = opt_str(job, glob, "bs");
        if (!rw)
            rw = opt_str(job, glob, "readwrite");
        if (rw)   /* "randread:8" (fio's rw=randread:8) is still randread */
            snprintf(w->rw, sizeof(w->rw), "%.*s", (int)strcspn(rw, ":"), rw);
        w->bs_bytes = bs ? fio_size(bs) : 0;
        const char *fn = opt_str(job, glob, "filename");
        if (fn)
            snprintf(w->target, sizeof(w->target), "%s", fn);
        /* percentile curve of the direction that did I/O (read, then write, then trim) */
        int d = run.dir[0].ios > 0 ? 0 : run.dir[1].ios > 0 || !(run.dir[IOM_IMP_TRIM].ios > 0) ? 1 : 2;
        const cJSON *e2;
        cJSON_ArrayForEach(e2, curve[d])
        {
            double p = e2->string ? strtod(e2->string, NULL) : 0;
            if (p > 0 && cJSON_IsNumber(e2) && iom_imp_add_pct(&w->runs[0], p, e2->valuedouble * scale[d])) {
                rc = -ENOMEM;
                break;
            }
        }
    }
    char sigline[240];
    if (!rc && res->nr_workloads && iom_imp_fio_line(text, 1, sigline, sizeof(sigline))) {
        double ran = 0, asked = NAN;
        for (uint32_t i = 0; i < res->nr_workloads; i++)
            if (res->w[i].runs[0].runtime_s > ran)
                ran = res->w[i].runs[0].runtime_s;
        cJSON_ArrayForEach(job, jobs)
        {
            double a = iom_imp_fio_time_s(opt_str(job, glob, "runtime"));
            if (!isnan(a) && (isnan(asked) || a > asked))
                asked = a;
        }
        if (!isnan(asked))
            iom_imp_note(res, "source run interrupted (%s) after %.3g s of %.3g s", sigline, ran, asked);
        else
            iom_imp_note(res, "source run interrupted (%s) after %.3g s", sigline, ran);
    }
    if (!rc && res->nr_workloads == 0) {
        if (failed) {
            char log[160] = "";
            if (start != text) { /* fio's own reason, the first log line */
                size_t n = strcspn(text, "\r\n");
                snprintf(log, sizeof(log), "; fio said: \"%.*s\"", (int)(n > 120 ? 120 : n), text);
            }
            snprintf(err, errlen, "no result: %s%s", first_fail, log);
        } else {
            snprintf(err, errlen, "no jobs in the document");
        }
        rc = -EINVAL;
    }
    cJSON_Delete(doc);
    return rc;
}

const struct iom_importer iom_import_fio_json = {"fio-json", probe, parse};
