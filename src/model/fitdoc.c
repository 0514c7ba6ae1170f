/* fitdoc.c - measured points from iomark documents, and a FIT document read
 * back. Contracts: fit.h; the FIT layout is documented in docs/model.md and
 * written by report/model.c. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"
#include "stats/summary.h"
#include "util/json_get.h"

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return -EINVAL;
}

static char *slurp(const char *path, size_t max)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        if (cap >= max) {
            free(b);
            b = NULL;
            break;
        }
        char *nb = realloc(b, cap * 2 + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

static const cJSON *obj(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* o[key] as a whole count: 0 when missing, not a number, negative or above
 * 2^64 (a double beyond uint64_t's range is undefined behaviour to convert). */
static uint64_t u64num(const cJSON *o, const char *key)
{
    double v = iom_json_num(o, key, 0);
    return v > 0 && v < 18446744073709551616.0 ? (uint64_t)v : 0;
}

static unsigned unum(const cJSON *o, const char *key)
{
    double v = iom_json_num(o, key, 0);
    return v > 0 && v < 4294967296.0 ? (unsigned)v : 0;
}

/* Quantiles of a lat_us object: min, the percentiles with enough samples, max. */
static void quantiles_of(const cJSON *lat, struct iom_quantiles *q)
{
    static const char *keys[] = {"25", "50", "75", "90", "95", "99", "99.9", "99.99", "99.999",
                                 "99.9999"};
    memset(q, 0, sizeof(*q));
    q->samples = u64num(lat, "samples");
    double mn = iom_json_num(lat, "min", NAN), mx = iom_json_num(lat, "max", NAN);
    if (!(mn >= 0) || !(mx >= mn) || !(mx <= 1e12))
        return;
    q->p[0] = 0;
    q->v_s[0] = mn * 1e-6;
    q->n = 1;
    const cJSON *pc = obj(lat, "percentiles");
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        double p = atof(keys[i]);
        if (!iom_pct_resolved(p, (double)q->samples))
            break; /* not resolved by this many samples: equals the max */
        double v = iom_json_num(pc, keys[i], NAN);
        if (!(v >= 0))
            continue;
        v *= 1e-6;
        if (v < q->v_s[q->n - 1])
            v = q->v_s[q->n - 1];
        if (v > mx * 1e-6)
            v = mx * 1e-6;
        q->p[q->n] = p;
        q->v_s[q->n] = v;
        q->n++;
    }
    q->p[q->n] = 100;
    q->v_s[q->n] = mx * 1e-6;
    q->n++;
}

/* One run document -> one point. */
/* The first pacing option set in a run's spec ("rate_iops=2000"), in a
 * static buffer, or NULL for a run that was not paced. spec.rate_iops and
 * spec.rate_bytes_per_s are numbers; spec.options (absent in older
 * documents) holds iomark run's text (numbers, "0ns"): set = not
 * null and not zero. */
static const char *paced_by(const cJSON *spec)
{
    static const char *const names[] = {"rate",           "rate_write", "rate_iops",
                                        "rate_iops_write", "thinktime"};
    static char buf[64];
    double iops = iom_json_num(spec, "rate_iops", 0), bps = iom_json_num(spec, "rate_bytes_per_s", 0);
    if (iops > 0 || bps > 0) {
        snprintf(buf, sizeof(buf), iops > 0 ? "rate_iops=%.0f" : "rate=%.0f", iops > 0 ? iops : bps);
        return buf;
    }
    const cJSON *opts = obj(spec, "options");
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        const char *v = iom_json_str(opts, names[i], NULL);
        if (v && strtod(v, NULL) > 0) {
            snprintf(buf, sizeof(buf), "%s=%.40s", names[i], v);
            return buf;
        }
    }
    return NULL;
}

static int point_of_run(const cJSON *run, const char *src, struct iom_fit *f, char *err,
                        size_t len)
{
    if (f->npoints >= IOM_FIT_MAXPOINTS)
        return fail(err, len, "%s: more than %d points", src, IOM_FIT_MAXPOINTS);
    const cJSON *mpi = obj(run, "mpi");
    if (cJSON_IsObject(mpi)) /* the model is one process's threads x iodepth on one queue */
        return fail(err, len, "%s: the merged I/O of %d MPI ranks; the model fits one process's "
                              "queue: fit a sweep run without mpirun",
                    src, (int)iom_json_num(mpi, "ranks", 0));
    const cJSON *spec = obj(run, "spec");
    const cJSON *targets = obj(spec, "targets");
    if (!cJSON_IsObject(spec) || !cJSON_IsArray(targets))
        return fail(err, len, "%s: no spec in the run document", src);
    if (cJSON_GetArraySize(targets) != 1)
        return fail(err, len, "%s: %d targets; the model needs runs on one target", src,
                    cJSON_GetArraySize(targets));
    const char *rw = iom_json_str(spec, "rw", NULL),
               *target = cJSON_IsString(cJSON_GetArrayItem(targets, 0))
                             ? cJSON_GetArrayItem(targets, 0)->valuestring
                             : "";
    uint64_t bs = u64num(spec, "bs_bytes");
    if (!rw)
        return fail(err, len, "%s: spec.rw missing", src);
    const char *paced = paced_by(spec);
    if (paced) /* its IOPS is the pacer's, not what the queue gives */
        return fail(err, len, "%s: a paced run (%s): the model fits closed-loop points, every "
                              "thread keeping iodepth I/Os outstanding; fit a sweep without "
                              "--rate, --rate_iops or --thinktime",
                    src, paced);
    if (f->npoints == 0) {
        snprintf(f->rw, sizeof(f->rw), "%s", rw);
        snprintf(f->target, sizeof(f->target), "%s", target);
        f->bs_bytes = bs;
        const cJSON *t0 = cJSON_GetArrayItem(obj(run, "targets"), 0);
        const cJSON *disk = cJSON_GetArrayItem(obj(obj(t0, "probe"), "disks"), 0);
        if (cJSON_IsObject(disk)) {
            f->limits.adapter_queue = unum(disk, "adapter_queue");
            f->limits.lun_queue = unum(disk, "lun_queue");
            f->limits.nr_requests = unum(disk, "nr_requests");
            f->limits.hw_queues = unum(disk, "nr_hw_queues");
            snprintf(f->driver, sizeof(f->driver), "%s",
                     iom_json_str(disk, "driver", NULL) ? iom_json_str(disk, "driver", NULL) : "");
            snprintf(f->controller, sizeof(f->controller), "%s",
                     iom_json_str(disk, "controller", NULL) ? iom_json_str(disk, "controller", NULL)
                                                            : "");
        }
    } else if (strcmp(f->rw, rw) || f->bs_bytes != bs) {
        return fail(err, len, "%s: rw=%s bs=%llu differs from the first point (rw=%s bs=%llu); "
                              "fit one workload at a time",
                    src, rw, (unsigned long long)bs, f->rw, (unsigned long long)f->bs_bytes);
    } else if (strcmp(f->target, target)) {
        return fail(err, len, "%s: target %s differs from the first point's %s", src, target,
                    f->target);
    }
    struct iom_fit_point *p = &f->points[f->npoints];
    memset(p, 0, sizeof(*p));
    p->threads = unum(spec, "numjobs");
    p->iodepth = unum(spec, "iodepth");
    const cJSON *tot = obj(obj(run, "total"), "total");
    const cJSON *lat = obj(tot, "lat_us");
    p->iops = iom_json_num(tot, "iops", 0);
    p->mean_s = iom_json_num(lat, "mean", 0) * 1e-6;
    p->p99_s = iom_json_num(obj(lat, "percentiles"), "99", 0) * 1e-6;
    if (!p->threads || !p->iodepth || !(p->iops > 0) || !(p->mean_s > 0) || !isfinite(p->iops) ||
        p->mean_s > 1e6 || (unsigned long long)p->threads * p->iodepth > 65536)
        return fail(err, len, "%s: no threads/iodepth or no I/O measured (iops, lat_us.mean), "
                              "or values out of range", src);
    quantiles_of(lat, &p->q);
    const cJSON *cpu = obj(run, "cpu");
    double ncpu = iom_json_num(cpu, "nr_cpus", 0),
           busy = iom_json_num(cpu, "user_pct", NAN) + iom_json_num(cpu, "system_pct", NAN);
    p->cpu_busy = NAN;
    if (ncpu >= 1 && ncpu <= 4096 && busy >= 0 && busy <= 100.0001) {
        p->cpu_busy = busy > 100 ? 1 : busy / 100;
        p->nr_cpus = (unsigned)ncpu;
    }
    snprintf(p->source, sizeof(p->source), "%s", src);
    f->npoints++;
    return 0;
}

int iom_fit_load_docs(const char *const *paths, unsigned npaths, struct iom_fit *f, char *err,
                      size_t len)
{
    if (!f || !paths || !npaths)
        return fail(err, len, "no document given");
    memset(f, 0, sizeof(*f));
    for (unsigned i = 0; i < npaths; i++) {
        char *text = slurp(paths[i], (size_t)1 << 30);
        if (!text)
            return fail(err, len, "%s: cannot read: %s", paths[i], strerror(errno ? errno : EIO));
        cJSON *doc = cJSON_Parse(text);
        free(text);
        if (!doc)
            return fail(err, len, "%s: not JSON; expected an iomark sweep or run document",
                        paths[i]);
        const char *schema = iom_json_str(doc, "schema", NULL),
                   *type = iom_json_str(doc, "type", NULL);
        const char *accel = iom_json_str(obj(doc, "lab"), "accelerator", NULL);
        if (accel && !strcmp(accel, "tcg"))
            f->from_tcg = 1;
        int rc = 0;
        if (!schema || strcmp(schema, "iomark-result") || !type) {
            rc = fail(err, len, "%s: not an iomark result; allowed: iomark sweep or run documents",
                      paths[i]);
        } else if (!strcmp(type, "run")) {
            const char *st = iom_json_str(doc, "status", NULL);
            if (!st || strcmp(st, "ok"))
                rc = fail(err, len, "%s: status %s; only complete runs (status ok) can be fitted",
                          paths[i], st ? st : "missing");
            else
                rc = point_of_run(doc, paths[i], f, err, len);
        } else if (!strcmp(type, "sweep")) {
            const cJSON *pts = obj(doc, "points"), *pt;
            int k = 0;
            cJSON_ArrayForEach(pt, pts)
            {
                const cJSON *run = obj(pt, "result");
                const char *st = iom_json_str(run, "status", NULL);
                k++;
                if (!st || strcmp(st, "ok"))
                    continue; /* an interrupted or failed point says nothing about the device */
                char src[160];
                snprintf(src, sizeof(src), "%s#%d", paths[i], k);
                if ((rc = point_of_run(run, src, f, err, len)))
                    break;
            }
            const char *st = iom_json_str(doc, "status", "");
            if (!rc && strcmp(st, "ok")) { /* stopped before its end: fitted on what it has */
                if (f->nincomplete < IOM_FIT_MAXINCOMPLETE) {
                    struct iom_fit_incomplete *in = &f->incomplete[f->nincomplete];
                    double planned = iom_json_num(doc, "planned_points", 0);
                    snprintf(in->source, sizeof(in->source), "%s", paths[i]);
                    snprintf(in->status, sizeof(in->status), "%s", *st ? st : "missing");
                    snprintf(in->by, sizeof(in->by), "%s", iom_json_str(doc, "interrupted_by", ""));
                    in->measured = (unsigned)k;
                    in->planned = planned >= 1 && planned <= 1e6 ? (unsigned)planned : 0;
                }
                f->nincomplete++;
            }
        } else {
            rc = fail(err, len,
                      "%s: type %s; allowed: sweep, run; the model needs points at several "
                      "outstanding-I/O levels: make them with iomark sweep (e.g. "
                      "--iodepth=1,4,16,64)",
                      paths[i], type);
        }
        cJSON_Delete(doc);
        if (rc)
            return rc;
    }
    if (!f->npoints)
        return fail(err, len, "no complete point in the documents");
    return 0;
}

int iom_fit_from_json(const cJSON *doc, struct iom_fit *f, char *err, size_t len)
{
    const char *schema = iom_json_str(doc, "schema", NULL), *type = iom_json_str(doc, "type", NULL);
    if (!schema || strcmp(schema, IOM_MODEL_SCHEMA) || !type || strcmp(type, "model_fit"))
        return fail(err, len, "not a FIT document (schema %s, type model_fit); make one with "
                              "'iomark model fit --output=FIT.json SWEEP.json'",
                    IOM_MODEL_SCHEMA);
    memset(f, 0, sizeof(*f));
    const cJSON *w = obj(doc, "workload"), *l = obj(doc, "limits"), *d = obj(doc, "device");
    snprintf(f->rw, sizeof(f->rw), "%s",
             iom_json_str(w, "rw", NULL) ? iom_json_str(w, "rw", NULL) : "");
    snprintf(f->target, sizeof(f->target), "%s",
             iom_json_str(w, "target", NULL) ? iom_json_str(w, "target", NULL) : "");
    f->bs_bytes = u64num(w, "bs_bytes");
    f->limits.adapter_queue = unum(l, "adapter_queue");
    f->limits.lun_queue = unum(l, "lun_queue");
    f->limits.nr_requests = unum(l, "nr_requests");
    f->limits.hw_queues = unum(l, "nr_hw_queues");
    snprintf(f->driver, sizeof(f->driver), "%s",
             iom_json_str(l, "driver", NULL) ? iom_json_str(l, "driver", NULL) : "");
    snprintf(f->controller, sizeof(f->controller), "%s",
             iom_json_str(l, "controller", NULL) ? iom_json_str(l, "controller", NULL) : "");
    f->dev.svc_mean_s = iom_json_num(d, "service_mean_us", NAN) * 1e-6;
    f->dev.parallelism = iom_json_num(d, "parallelism", NAN);
    f->dev.host_s = iom_json_num(d, "host_us_per_io", 0) * 1e-6;
    f->dev.cpu_s = iom_json_num(d, "guest_cpu_us_per_io", 0) * 1e-6;
    f->dev.cpu_servers = iom_json_num(d, "guest_cpus", 0);
    if (!(f->dev.cpu_s >= 0 && f->dev.cpu_s <= 1e6) ||
        (f->dev.cpu_s > 0 && !(f->dev.cpu_servers >= 1 && f->dev.cpu_servers <= 4096)))
        return fail(err, len, "device.guest_cpu_us_per_io must be null or in [0, 1e12] and "
                              "device.guest_cpus in [1, 4096] with it");
    f->c_identified = cJSON_IsTrue(obj(d, "parallelism_identified"));
    if (!(f->dev.svc_mean_s > 0 && f->dev.svc_mean_s <= 1e6) ||
        !(f->dev.parallelism >= 1 && f->dev.parallelism <= 1e6) ||
        !(f->dev.host_s >= 0 && f->dev.host_s <= 1e6))
        return fail(err, len, "device.service_mean_us in (0, 1e12], device.parallelism in "
                              "[1, 1e6] and device.host_us_per_io in [0, 1e12] are needed");
    const cJSON *q;
    f->svc.samples = u64num(d, "service_samples");
    cJSON_ArrayForEach(q, obj(d, "service_quantiles"))
    {
        if (f->svc.n >= IOM_FIT_MAXQ)
            return fail(err, len, "device.service_quantiles: more than %d entries", IOM_FIT_MAXQ);
        double p = iom_json_num(q, "p", NAN), v = iom_json_num(q, "us", NAN);
        if (!(p >= 0 && p <= 100) || !(v >= 0 && v <= 1e12) ||
            (f->svc.n && (p <= f->svc.p[f->svc.n - 1] || v * 1e-6 < f->svc.v_s[f->svc.n - 1])))
            return fail(err, len, "device.service_quantiles: p must rise within 0..100 and us "
                                  "must not fall");
        f->svc.p[f->svc.n] = p;
        f->svc.v_s[f->svc.n] = v * 1e-6;
        f->svc.n++;
    }
    const cJSON *fit = obj(doc, "fit");
    f->rms_iops_err_pct = iom_json_num(fit, "rms_iops_error_pct", NAN);
    f->max_iops_err_pct = iom_json_num(fit, "max_abs_iops_error_pct", NAN);
    f->rms_mean_err_pct = iom_json_num(fit, "rms_lat_mean_error_pct", NAN);
    f->max_mean_err_pct = iom_json_num(fit, "max_abs_lat_mean_error_pct", NAN);
    const cJSON *pt;
    cJSON_ArrayForEach(pt, obj(doc, "points"))
    {
        if (f->npoints >= IOM_FIT_MAXPOINTS)
            break;
        struct iom_fit_point *p = &f->points[f->npoints++];
        memset(p, 0, sizeof(*p));
        snprintf(p->source, sizeof(p->source), "%s",
                 iom_json_str(pt, "source", NULL) ? iom_json_str(pt, "source", NULL) : "");
        p->threads = unum(pt, "threads");
        p->iodepth = unum(pt, "iodepth");
        const cJSON *m = obj(pt, "measured"), *pr = obj(pt, "predicted");
        p->iops = iom_json_num(m, "iops", NAN);
        p->mean_s = iom_json_num(m, "lat_mean_us", NAN) * 1e-6;
        p->p99_s = iom_json_num(m, "lat_p99_us", NAN) * 1e-6;
        p->pred_iops = iom_json_num(pr, "iops", NAN);
        p->pred_mean_s = iom_json_num(pr, "lat_mean_us", NAN) * 1e-6;
        p->pred_p99_s = iom_json_num(pr, "lat_p99_us", NAN) * 1e-6;
    }
    return 0;
}
