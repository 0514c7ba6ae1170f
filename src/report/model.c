/* model.c - writers of `iomark model` (contracts: report/model.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/model.h"

static cJSON *jnum(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static void add(cJSON *o, const char *k, double v)
{
    cJSON_AddItemToObject(o, k, jnum(v));
}

static void add_limit(cJSON *o, const char *k, unsigned v)
{
    if (v)
        cJSON_AddNumberToObject(o, k, v);
    else
        cJSON_AddNullToObject(o, k);
}

static cJSON *doc_new(const char *type)
{
    cJSON *d = cJSON_CreateObject();
    if (!d)
        return NULL;
    cJSON_AddStringToObject(d, "schema", IOM_MODEL_SCHEMA);
    cJSON_AddNumberToObject(d, "schema_version", IOM_MODEL_SCHEMA_VERSION);
    cJSON_AddStringToObject(d, "type", type);
    cJSON_AddStringToObject(d, "iomark_version", IOMARK_VERSION);
    char ts[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(d, "created", ts);
    return d;
}

static cJSON *limits_json(const struct iom_model_limits *l, const char *driver,
                          const char *controller)
{
    cJSON *o = cJSON_CreateObject();
    add_limit(o, "adapter_queue", l->adapter_queue);
    add_limit(o, "lun_queue", l->lun_queue);
    add_limit(o, "nr_requests", l->nr_requests);
    add_limit(o, "nr_hw_queues", l->hw_queues);
    add_limit(o, "effective", iom_model_limit(l));
    if (driver)
        cJSON_AddStringToObject(o, "driver", driver);
    if (controller)
        cJSON_AddStringToObject(o, "controller", controller);
    return o;
}

/* The guest-CPU station of dev (null when there is none). */
static void add_cpu(cJSON *dev, const struct iom_model_dev *d)
{
    add(dev, "guest_cpu_us_per_io", d->cpu_s > 0 ? d->cpu_s * 1e6 : NAN);
    add(dev, "guest_cpus", d->cpu_s > 0 ? d->cpu_servers : NAN);
}

static double pct(double pred, double meas)
{
    return meas > 0 && isfinite(pred) ? 100 * (pred - meas) / meas : NAN;
}

/* pct() for text: no "-0.0" */
static double tpct(double pred, double meas)
{
    double v = pct(pred, meas);
    return fabs(v) < 0.05 ? 0.0 : v;
}

static cJSON *points_json(const struct iom_fit *f)
{
    cJSON *pts = cJSON_CreateArray();
    for (unsigned i = 0; i < f->npoints; i++) {
        const struct iom_fit_point *p = &f->points[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", p->source);
        cJSON_AddNumberToObject(o, "threads", p->threads);
        cJSON_AddNumberToObject(o, "iodepth", p->iodepth);
        cJSON_AddNumberToObject(o, "outstanding", (double)p->threads * p->iodepth);
        cJSON *m = cJSON_AddObjectToObject(o, "measured");
        add(m, "iops", p->iops);
        add(m, "lat_mean_us", p->mean_s * 1e6);
        add(m, "lat_p99_us", p->p99_s * 1e6);
        cJSON *pr = cJSON_AddObjectToObject(o, "predicted");
        add(pr, "iops", p->pred_iops);
        add(pr, "lat_mean_us", p->pred_mean_s * 1e6);
        add(pr, "lat_p99_us", p->pred_p99_s * 1e6);
        cJSON *e = cJSON_AddObjectToObject(o, "error_pct");
        add(e, "iops", pct(p->pred_iops, p->iops));
        add(e, "lat_mean", pct(p->pred_mean_s, p->mean_s));
        add(e, "lat_p99", pct(p->pred_p99_s, p->p99_s));
        cJSON_AddItemToArray(pts, o);
    }
    return pts;
}

cJSON *iom_model_fit_json(const struct iom_fit *f, const char *const *sources, unsigned ns)
{
    cJSON *d = doc_new("model_fit");
    if (!d)
        return NULL;
    cJSON *src = cJSON_AddArrayToObject(d, "sources");
    for (unsigned i = 0; i < ns; i++)
        cJSON_AddItemToArray(src, cJSON_CreateString(sources[i]));
    cJSON *inc = cJSON_AddArrayToObject(d, "incomplete_sources"); /* fitted on part of a sweep */
    for (unsigned i = 0; i < f->nincomplete && i < IOM_FIT_MAXINCOMPLETE; i++) {
        const struct iom_fit_incomplete *in = &f->incomplete[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "source", in->source);
        cJSON_AddStringToObject(o, "status", in->status);
        if (in->by[0])
            cJSON_AddStringToObject(o, "interrupted_by", in->by);
        else
            cJSON_AddNullToObject(o, "interrupted_by");
        cJSON_AddNumberToObject(o, "points_measured", in->measured);
        add(o, "planned_points", in->planned ? in->planned : NAN);
        cJSON_AddItemToArray(inc, o);
    }
    cJSON *w = cJSON_AddObjectToObject(d, "workload");
    cJSON_AddStringToObject(w, "rw", f->rw);
    cJSON_AddNumberToObject(w, "bs_bytes", (double)f->bs_bytes);
    cJSON_AddStringToObject(w, "target", f->target);
    cJSON_AddItemToObject(d, "limits", limits_json(&f->limits, f->driver, f->controller));
    cJSON *dev = cJSON_AddObjectToObject(d, "device");
    add(dev, "service_mean_us", f->dev.svc_mean_s * 1e6);
    add(dev, "parallelism", f->dev.parallelism);
    cJSON_AddBoolToObject(dev, "parallelism_identified", f->c_identified);
    add(dev, "host_us_per_io", f->dev.host_s * 1e6);
    add_cpu(dev, &f->dev);
    const struct iom_fit_point *b = &f->points[f->base];
    cJSON *from = cJSON_AddObjectToObject(dev, "service_from");
    cJSON_AddStringToObject(from, "source", b->source);
    cJSON_AddNumberToObject(from, "threads", b->threads);
    cJSON_AddNumberToObject(from, "iodepth", b->iodepth);
    cJSON_AddNumberToObject(dev, "service_samples", (double)f->svc.samples);
    cJSON *q = cJSON_AddArrayToObject(dev, "service_quantiles");
    for (unsigned i = 0; i < f->svc.n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "p", f->svc.p[i]);
        add(e, "us", f->svc.v_s[i] * 1e6);
        cJSON_AddItemToArray(q, e);
    }
    cJSON *fit = cJSON_AddObjectToObject(d, "fit");
    cJSON_AddStringToObject(fit, "method",
                            "S and quantiles from the lowest-load point; host time by Little's "
                            "law there; c by least squares of ln IOPS (exact MVA) over all points");
    add(fit, "rms_iops_error_pct", f->rms_iops_err_pct);
    add(fit, "max_abs_iops_error_pct", f->max_iops_err_pct);
    add(fit, "rms_lat_mean_error_pct", f->rms_mean_err_pct);
    add(fit, "max_abs_lat_mean_error_pct", f->max_mean_err_pct);
    cJSON_AddBoolToObject(fit, "poor", iom_fit_poor(f));
    cJSON_AddNumberToObject(fit, "poor_above_pct", IOM_FIT_POOR_PCT);
    cJSON_AddItemToObject(d, "points", points_json(f));
    return d;
}

static void limit_text(char *buf, size_t len, unsigned v)
{
    if (v)
        snprintf(buf, len, "%u", v);
    else
        snprintf(buf, len, "-");
}

static void device_line(FILE *out, const struct iom_fit *f, const struct iom_model_limits *lim)
{
    char a[16], l[16], r[16];
    limit_text(a, sizeof(a), lim->adapter_queue);
    limit_text(l, sizeof(l), lim->lun_queue);
    limit_text(r, sizeof(r), lim->nr_requests);
    fprintf(out, "device: service time %.1f us mean (low load), parallelism c = %.2f%s, host %.1f us per I/O\n",
            f->dev.svc_mean_s * 1e6, f->dev.parallelism,
            f->c_identified ? "" : " (lower bound: no point saturated)", f->dev.host_s * 1e6);
    if (f->dev.cpu_s > 0)
        fprintf(out, "guest CPU: %.1f us per I/O on %.0f CPU(s): at most %.0f IOPS (the disk's rate "
                     "is capped there)\n",
                f->dev.cpu_s * 1e6, f->dev.cpu_servers, f->dev.cpu_servers / f->dev.cpu_s);
    fprintf(out, "limits: adapter queue %s, LUN queue %s, nr_requests %s x %u hw queues -> L = %u%s\n",
            a, l, r, lim->hw_queues ? lim->hw_queues : 1, iom_model_limit(lim),
            iom_model_limit(lim) ? "" : " (none)");
}

static void points_text(FILE *out, const struct iom_fit *f)
{
    fprintf(out, "%4s %5s %6s | %10s %10s %7s | %10s %10s %7s | %10s %10s %7s\n", "T", "Q", "OIO",
            "IOPS meas", "IOPS pred", "err %", "mean us m", "mean us p", "err %", "p99 us m",
            "p99 us p", "err %");
    for (unsigned i = 0; i < f->npoints; i++) {
        const struct iom_fit_point *p = &f->points[i];
        fprintf(out, "%4u %5u %6u | %10.0f %10.0f %+7.1f | %10.1f %10.1f %+7.1f | %10.1f %10.1f %+7.1f\n",
                p->threads, p->iodepth, p->threads * p->iodepth, p->iops, p->pred_iops,
                tpct(p->pred_iops, p->iops), p->mean_s * 1e6, p->pred_mean_s * 1e6,
                tpct(p->pred_mean_s, p->mean_s), p->p99_s * 1e6, p->pred_p99_s * 1e6,
                tpct(p->pred_p99_s, p->p99_s));
    }
}

void iom_model_fit_text(FILE *out, const struct iom_fit *f)
{
    fprintf(out, "iomark model fit: %s, %s bs=%llu, %u point%s", f->target, f->rw,
            (unsigned long long)f->bs_bytes, f->npoints, f->npoints == 1 ? "" : "s");
    if (f->driver[0])
        fprintf(out, ", %s (%s)", f->controller, f->driver);
    fprintf(out, "\n");
    device_line(out, f, &f->limits);
    fprintf(out, "service distribution from %s (T%u Q%u, %llu samples)\n\n",
            f->points[f->base].source, f->points[f->base].threads, f->points[f->base].iodepth,
            (unsigned long long)f->svc.samples);
    points_text(out, f);
    fprintf(out, "\nfit error: IOPS rms %.1f%% (max %.1f%%), mean latency rms %.1f%% (max %.1f%%); "
                 "IOPS and mean from MVA, p99 from DES\n",
            f->rms_iops_err_pct, f->max_iops_err_pct, f->rms_mean_err_pct, f->max_mean_err_pct);
}

static cJSON *out_json(const struct iom_model_out *o, int burst, int des)
{
    cJSON *j = cJSON_CreateObject();
    add(j, "iops", o->iops);
    add(j, "lat_mean_us", o->mean_s * 1e6);
    add(j, "lat_p99_us", des ? o->p99_s * 1e6 : NAN);
    add(j, "guest_wait_us", o->guest_s * 1e6);
    add(j, "queue_wait_us", o->queue_s * 1e6);
    add(j, "device_us", o->device_s * 1e6);
    if (burst)
        add(j, "makespan_ms", o->makespan_s * 1e3);
    else
        add(j, "host_us", o->host_s * 1e6);
    if (des)
        cJSON_AddNumberToObject(j, "ios", (double)o->ios);
    return j;
}

cJSON *iom_model_pred_json(const struct iom_fit *f, const char *fit_path,
                           const struct iom_scenario *sc, const struct iom_prediction *pr,
                           unsigned n)
{
    cJSON *d = doc_new("model_prediction");
    if (!d)
        return NULL;
    cJSON_AddStringToObject(d, "fit", fit_path);
    cJSON *dev = cJSON_AddObjectToObject(d, "device");
    add(dev, "service_mean_us", f->dev.svc_mean_s * 1e6);
    add(dev, "parallelism", f->dev.parallelism);
    add(dev, "host_us_per_io", f->dev.host_s * 1e6);
    cJSON *a = cJSON_AddArrayToObject(d, "scenarios");
    for (unsigned i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", sc[i].name);
        cJSON *w = cJSON_AddObjectToObject(o, "workload");
        cJSON_AddNumberToObject(w, "luns", sc[i].luns ? sc[i].luns : 1);
        if (sc[i].burst) {
            cJSON_AddNumberToObject(w, "burst", sc[i].burst);
        } else {
            cJSON_AddNumberToObject(w, "threads", sc[i].threads);
            cJSON_AddNumberToObject(w, "iodepth", sc[i].iodepth);
            cJSON_AddNumberToObject(w, "outstanding", (double)sc[i].threads * sc[i].iodepth);
        }
        cJSON_AddItemToObject(o, "limits", limits_json(&sc[i].limits, NULL, NULL));
        add(o, "parallelism", sc[i].parallelism);
        add(o, "service_scale", sc[i].svc_scale);
        cJSON_AddItemToObject(o, "mva", out_json(&pr[i].mva, sc[i].burst > 0, 0));
        cJSON *des = out_json(&pr[i].des, sc[i].burst > 0, 1);
        cJSON_AddNumberToObject(des, "servers", pr[i].des_servers);
        cJSON_AddNumberToObject(des, "seed", (double)sc[i].seed);
        if (sc[i].burst)
            cJSON_AddNumberToObject(des, "bursts", pr[i].des_runs);
        cJSON_AddItemToObject(o, "des", des);
        cJSON_AddItemToArray(a, o);
    }
    return d;
}

static void row(FILE *out, const char *label, const struct iom_prediction *pr, unsigned n,
                double (*get)(const struct iom_model_out *), double scale, const char *fmt)
{
    fprintf(out, "%-26s", label);
    for (unsigned i = 0; i < n; i++) {
        const struct iom_model_out *o[2] = {&pr[i].mva, &pr[i].des};
        for (int k = 0; k < 2; k++) {
            double v = get(o[k]) * scale;
            char b[32];
            if (isfinite(v))
                snprintf(b, sizeof(b), fmt, v);
            else
                snprintf(b, sizeof(b), "-");
            fprintf(out, " %12s", b);
        }
        fprintf(out, "  ");
    }
    fprintf(out, "\n");
}

static double g_iops(const struct iom_model_out *o) { return o->iops; }
static double g_mean(const struct iom_model_out *o) { return o->mean_s; }
static double g_p99(const struct iom_model_out *o) { return o->p99_s; }
static double g_guest(const struct iom_model_out *o) { return o->guest_s; }
static double g_queue(const struct iom_model_out *o) { return o->queue_s; }
static double g_dev(const struct iom_model_out *o) { return o->device_s; }
static double g_host(const struct iom_model_out *o) { return o->host_s; }
static double g_span(const struct iom_model_out *o) { return o->makespan_s; }

void iom_model_pred_text(FILE *out, const struct iom_fit *f, const char *fit_path,
                         const struct iom_scenario *sc, const struct iom_prediction *pr,
                         unsigned n)
{
    fprintf(out, "iomark model: %s (%s, %s bs=%llu)\n", fit_path, f->target, f->rw,
            (unsigned long long)f->bs_bytes);
    device_line(out, f, &f->limits);
    unsigned K = n && sc[0].luns ? sc[0].luns : 1;
    if (n && sc[0].burst)
        fprintf(out, "workload: burst of %u I/Os issued at once", sc[0].burst);
    else if (n)
        fprintf(out, "workload: %u threads x iodepth %u = %u outstanding I/Os (closed loop)",
                sc[0].threads, sc[0].iodepth, sc[0].threads * sc[0].iodepth);
    if (K > 1)
        fprintf(out, " on %u LUNs sharing the adapter queue (L below: per LUN, the adapter's share)", K);
    fprintf(out, "\n\n");
    fprintf(out, "%-26s", "");
    for (unsigned i = 0; i < n; i++)
        fprintf(out, " %-25.25s  ", sc[i].name);
    fprintf(out, "\n%-26s", "");
    for (unsigned i = 0; i < n; i++) {
        char a[16], l[16], b[64];
        limit_text(a, sizeof(a), sc[i].limits.adapter_queue);
        limit_text(l, sizeof(l), sc[i].limits.lun_queue);
        snprintf(b, sizeof(b), "adapter %s / LUN %s", a, l);
        fprintf(out, " %-25.25s  ", b);
    }
    fprintf(out, "\n%-26s", "");
    for (unsigned i = 0; i < n; i++) {
        char b[64];
        snprintf(b, sizeof(b), "L = %u, c = %.2f", pr[i].limit, sc[i].parallelism);
        fprintf(out, " %-25.25s  ", b);
    }
    fprintf(out, "\n%-26s", "");
    for (unsigned i = 0; i < n; i++)
        fprintf(out, " %12s %12s  ", "MVA (mean)", "DES (tail)");
    fprintf(out, "\n");
    row(out, "IOPS", pr, n, g_iops, 1, "%.0f");
    row(out, "mean latency, us", pr, n, g_mean, 1e6, "%.1f");
    row(out, "p99 latency, us", pr, n, g_p99, 1e6, "%.1f");
    row(out, "  guest wait (above drv)", pr, n, g_guest, 1e6, "%.1f");
    row(out, "  adapter/LUN queue", pr, n, g_queue, 1e6, "%.1f");
    row(out, "  device (DAVG-like)", pr, n, g_dev, 1e6, "%.1f");
    if (n && sc[0].burst)
        row(out, "last completion, ms", pr, n, g_span, 1e3, "%.2f");
    else
        row(out, "host per I/O, us", pr, n, g_host, 1e6, "%.1f");
    fprintf(out, "\nMVA: exact means, exponential service. DES: service times sampled from the "
                 "measured distribution, c rounded to an integer, seed %llu",
            n ? (unsigned long long)sc[0].seed : 0ull);
    if (n && sc[0].burst)
        fprintf(out, ", %u bursts pooled", pr[0].des_runs);
    else if (n)
        fprintf(out, ", %llu I/Os measured", (unsigned long long)pr[0].des.ios);
    fprintf(out, ".\nguest + queue + device = mean latency (GAVG = KAVG + DAVG in esxtop's terms).\n");
}

cJSON *iom_model_check_json(const struct iom_fit *model, const char *fit_path,
                            const struct iom_fit *check, const char *const *sources,
                            unsigned nsources)
{
    cJSON *d = doc_new("model_check");
    if (!d)
        return NULL;
    cJSON_AddStringToObject(d, "fit", fit_path);
    cJSON *src = cJSON_AddArrayToObject(d, "sources");
    for (unsigned i = 0; i < nsources; i++)
        cJSON_AddItemToArray(src, cJSON_CreateString(sources[i]));
    cJSON *dev = cJSON_AddObjectToObject(d, "device");
    add(dev, "service_mean_us", model->dev.svc_mean_s * 1e6);
    add(dev, "parallelism", model->dev.parallelism);
    add(dev, "host_us_per_io", model->dev.host_s * 1e6);
    add_cpu(dev, &model->dev);
    cJSON_AddItemToObject(d, "limits", limits_json(&check->limits, check->driver, check->controller));
    cJSON *e = cJSON_AddObjectToObject(d, "error");
    add(e, "rms_iops_error_pct", check->rms_iops_err_pct);
    add(e, "max_abs_iops_error_pct", check->max_iops_err_pct);
    add(e, "rms_lat_mean_error_pct", check->rms_mean_err_pct);
    add(e, "max_abs_lat_mean_error_pct", check->max_mean_err_pct);
    cJSON_AddItemToObject(d, "points", points_json(check));
    return d;
}

void iom_model_check_text(FILE *out, const struct iom_fit *model, const char *fit_path,
                          const struct iom_fit *check)
{
    fprintf(out, "iomark model check: %s predicts %u measured points of %s (%s bs=%llu)\n",
            fit_path, check->npoints, check->target, check->rw,
            (unsigned long long)check->bs_bytes);
    device_line(out, model, &check->limits);
    fprintf(out, "\n");
    points_text(out, check);
    fprintf(out, "\nprediction error: IOPS rms %.1f%% (max %.1f%%), mean latency rms %.1f%% (max "
                 "%.1f%%); IOPS and mean from MVA, p99 from DES\n",
            check->rms_iops_err_pct, check->max_iops_err_pct, check->rms_mean_err_pct,
            check->max_mean_err_pct);
}
