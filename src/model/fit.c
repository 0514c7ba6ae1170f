/* fit.c - fit the device model to measured points; predict scenarios.
 * Contracts: fit.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"

int iom_fit_hist_from_quantiles(struct iom_hist *h, const struct iom_quantiles *q,
                                uint64_t total)
{
    if (!h || !q || q->n < 2 || !total)
        return -EINVAL;
    for (unsigned i = 0; i < q->n; i++)
        if (!(q->v_s[i] >= 0) || !isfinite(q->v_s[i]) || !isfinite(q->p[i]) ||
            (i && (q->v_s[i] < q->v_s[i - 1] || q->p[i] <= q->p[i - 1])))
            return -EINVAL;
    if (!(q->p[q->n - 1] > q->p[0]))
        return -EINVAL;
    iom_hist_reset(h);
    double carry = 0;
    uint64_t given = 0;
    for (unsigned i = 1; i < q->n; i++) {
        double mass = (q->p[i] - q->p[i - 1]) / (q->p[q->n - 1] - q->p[0]) * (double)total;
        /* values beyond the histogram's range land in its last bucket */
        double a = fmin(q->v_s[i - 1] * 1e9, (double)IOM_HIST_MAX_NS);
        double b = fmin(q->v_s[i] * 1e9, (double)IOM_HIST_MAX_NS);
        unsigned ia = iom_hist_index((uint64_t)a), ib = iom_hist_index((uint64_t)b);
        int logu = a >= 1; /* uniform in ln(value) when the segment starts above 0 */
        for (unsigned k = ia; k <= ib; k++) {
            double share;
            if (ia == ib) {
                share = 1;
            } else {
                double lo = (double)iom_hist_bucket_low(k), hi = (double)iom_hist_bucket_high(k) + 1;
                if (lo < a)
                    lo = a;
                if (hi > b)
                    hi = b;
                if (hi <= lo)
                    share = 0;
                else if (logu)
                    share = log(hi / lo) / log(b / a);
                else
                    share = (hi - lo) / (b - a);
            }
            double want = mass * share + carry;
            uint64_t n = want > 0 ? (uint64_t)floor(want + 0.5) : 0;
            if (given + n > total)
                n = total - given;
            carry = want - (double)n;
            if (n) {
                h->count[k] += n;
                given += n;
            }
        }
    }
    if (given < total)
        h->count[iom_hist_index((uint64_t)fmin(q->v_s[q->n - 1] * 1e9, (double)IOM_HIST_MAX_NS))] +=
            total - given;
    return 0;
}

/* Fit error of c: sum of squared log IOPS errors over the points. */
struct fit_ctx {
    struct iom_fit *fit;
    unsigned limit;
    unsigned maxn;
    double *x; /* scratch: MVA curve */
};

static unsigned pt_n(const struct iom_fit_point *p)
{
    return p->threads * p->iodepth;
}

static int sse(struct fit_ctx *cx, double c, double *out)
{
    struct iom_fit *f = cx->fit;
    struct iom_model_dev d = f->dev;
    d.parallelism = c;
    double s = 0;
    /* one MVA curve per distinct thread count */
    for (unsigned i = 0; i < f->npoints; i++) {
        unsigned t = f->points[i].threads, seen = 0;
        for (unsigned j = 0; j < i; j++)
            seen |= f->points[j].threads == t;
        if (seen)
            continue;
        unsigned maxn = 0;
        for (unsigned j = i; j < f->npoints; j++)
            if (f->points[j].threads == t && pt_n(&f->points[j]) > maxn)
                maxn = pt_n(&f->points[j]);
        int rc = iom_mva_curve(&d, cx->limit, t, maxn, cx->x, NULL);
        if (rc)
            return rc;
        for (unsigned j = i; j < f->npoints; j++)
            if (f->points[j].threads == t) {
                double e = log(cx->x[pt_n(&f->points[j]) - 1] / f->points[j].iops);
                s += e * e;
            }
    }
    *out = s;
    return 0;
}

int iom_fit_poor(const struct iom_fit *f)
{
    return f->rms_iops_err_pct > IOM_FIT_POOR_PCT || f->rms_mean_err_pct > IOM_FIT_POOR_PCT;
}

/* Predict every point of `pts` with the device of `model` behind `lim`;
 * fill pts->points[].pred_* and pts's error figures. */
static int predict_points(const struct iom_fit *model, struct iom_fit *f,
                          const struct iom_model_limits *lim, uint64_t des_ios, uint64_t seed)
{
    double se_x = 0, se_r = 0;
    f->max_iops_err_pct = f->max_mean_err_pct = 0;
    for (unsigned i = 0; i < f->npoints; i++) {
        struct iom_fit_point *p = &f->points[i];
        struct iom_scenario sc = {.limits = *lim, .parallelism = model->dev.parallelism,
                                  .svc_scale = 1, .threads = p->threads, .iodepth = p->iodepth,
                                  .des_ios = des_ios, .seed = seed};
        struct iom_prediction pr;
        int rc = iom_model_predict(model, &sc, &pr);
        if (rc)
            return rc;
        p->pred_iops = pr.mva.iops;
        p->pred_mean_s = pr.mva.mean_s;
        p->pred_p99_s = pr.des.p99_s;
        double ex = 100 * (p->pred_iops - p->iops) / p->iops;
        double er = 100 * (p->pred_mean_s - p->mean_s) / p->mean_s;
        se_x += ex * ex;
        se_r += er * er;
        if (fabs(ex) > f->max_iops_err_pct)
            f->max_iops_err_pct = fabs(ex);
        if (fabs(er) > f->max_mean_err_pct)
            f->max_mean_err_pct = fabs(er);
    }
    f->rms_iops_err_pct = sqrt(se_x / f->npoints);
    f->rms_mean_err_pct = sqrt(se_r / f->npoints);
    return 0;
}

int iom_fit_check(const struct iom_fit *model, struct iom_fit *check,
                  const struct iom_model_limits *override, uint64_t des_ios, uint64_t seed)
{
    if (!model || !check || !check->npoints)
        return -EINVAL;
    for (unsigned i = 0; i < check->npoints; i++)
        if (!(check->points[i].iops > 0) || !(check->points[i].mean_s > 0))
            return -EINVAL;
    return predict_points(model, check, override ? override : &check->limits,
                          des_ios ? des_ios : 50000, seed);
}

unsigned iom_fit_keep_outstanding(struct iom_fit *f, unsigned max_outstanding)
{
    unsigned k = 0;
    for (unsigned i = 0; f && i < f->npoints; i++)
        if (pt_n(&f->points[i]) <= max_outstanding) {
            if (k != i)
                f->points[k] = f->points[i];
            k++;
        }
    if (f)
        f->npoints = k;
    return k;
}

/* The guest-CPU station (fit.h): D = min cpu_busy x nr_cpus / IOPS over the
 * points, on nr_cpus servers; off when a point has no cpu object. */
static void fit_guest_cpu(struct iom_fit *f)
{
    f->dev.cpu_s = 0;
    f->dev.cpu_servers = 0;
    if (!(f->guest_cpu > 0 || (f->guest_cpu < 0 && f->from_tcg)))
        return;
    double best = INFINITY;
    unsigned m = 0;
    for (unsigned i = 0; i < f->npoints; i++) {
        const struct iom_fit_point *p = &f->points[i];
        if (!(p->cpu_busy >= 0) || !p->nr_cpus)
            return;
        double d = p->cpu_busy * p->nr_cpus / p->iops;
        if (d > 0 && d < best) {
            best = d;
            m = p->nr_cpus;
        }
    }
    if (isfinite(best)) {
        f->dev.cpu_s = best;
        f->dev.cpu_servers = m;
    }
}

int iom_fit_device(struct iom_fit *f, uint64_t seed)
{
    if (!f || !f->npoints)
        return -EINVAL;
    unsigned base = 0, maxn = 0;
    for (unsigned i = 0; i < f->npoints; i++) {
        struct iom_fit_point *p = &f->points[i];
        if (!(p->iops > 0) || !(p->mean_s > 0) || p->threads < 1 || p->iodepth < 1)
            return -EINVAL;
        struct iom_fit_point *b = &f->points[base];
        if (pt_n(p) < pt_n(b) || (pt_n(p) == pt_n(b) && p->threads < b->threads))
            base = i;
        if (pt_n(p) > maxn)
            maxn = pt_n(p);
    }
    f->base = base;
    const struct iom_fit_point *b = &f->points[base];
    f->svc = b->q;
    f->dev.svc_mean_s = b->mean_s;
    double z = (double)pt_n(b) / b->iops - b->mean_s;
    f->dev.host_s = z > 0 ? z : 0;
    fit_guest_cpu(f);
    unsigned limit = iom_model_limit(&f->limits);
    struct fit_ctx cx = {.fit = f, .limit = limit, .maxn = maxn};
    cx.x = malloc((size_t)maxn * sizeof(double));
    if (!cx.x)
        return -ENOMEM;
    /* c beyond the largest population (and beyond L) changes nothing */
    double cmax = 2.0 * maxn;
    if (cmax < 2)
        cmax = 2;
    int rc = 0;
    const unsigned G = 240;
    double best = INFINITY, bestc = 1;
    unsigned bi = 0;
    for (unsigned g = 0; g <= G; g++) {
        double c = exp(log(cmax) * g / G), e;
        if ((rc = sse(&cx, c, &e)))
            goto out;
        if (e < best - 1e-15) {
            best = e;
            bestc = c;
            bi = g;
        }
    }
    /* golden section on ln c between the grid neighbours */
    double lo = log(cmax) * (bi ? bi - 1 : 0) / G, hi = log(cmax) * (bi < G ? bi + 1 : G) / G;
    const double gr = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40 && hi - lo > 1e-9; it++) {
        double m1 = hi - gr * (hi - lo), m2 = lo + gr * (hi - lo), e1, e2;
        if ((rc = sse(&cx, exp(m1), &e1)) || (rc = sse(&cx, exp(m2), &e2)))
            goto out;
        if (e1 < e2)
            hi = m2;
        else
            lo = m1;
        double e = e1 < e2 ? e1 : e2, c = exp(e1 < e2 ? m1 : m2);
        if (e < best) {
            best = e;
            bestc = c;
        }
    }
    f->dev.parallelism = bestc < 1 ? 1 : bestc;
    /* identified when the fitted c binds at some measured point */
    f->c_identified = 0;
    for (unsigned i = 0; i < f->npoints; i++) {
        unsigned n = pt_n(&f->points[i]);
        if ((!limit || n <= limit ? n : limit) > f->dev.parallelism * 1.05)
            f->c_identified = 1;
    }
    rc = predict_points(f, f, &f->limits, 50000, seed);
out:
    free(cx.x);
    return rc;
}

int iom_model_predict(const struct iom_fit *f, const struct iom_scenario *sc,
                      struct iom_prediction *out)
{
    unsigned K = sc && sc->luns ? sc->luns : 1;
    if (!f || !sc || !out || !(sc->parallelism >= 1) || !(sc->svc_scale > 0) || K > 4096 ||
        (!sc->burst && (sc->threads < 1 || sc->iodepth < 1 || sc->threads % K)) ||
        (sc->burst && sc->burst % K))
        return -EINVAL;
    memset(out, 0, sizeof(*out));
    struct iom_model_dev d = f->dev;
    d.parallelism = sc->parallelism;
    d.svc_mean_s *= sc->svc_scale;
    unsigned L = iom_model_limit_luns(&sc->limits, K);
    out->limit = L;
    /* the guest-CPU bound m / D is the rate of m S / D busy servers: the DES
     * gets min(c, m S / D) servers, the same bound up to rounding */
    double ceff = sc->parallelism;
    if (d.cpu_s > 0 && d.cpu_servers * d.svc_mean_s / d.cpu_s < ceff)
        ceff = d.cpu_servers * d.svc_mean_s / d.cpu_s;
    double cr = floor(ceff + 0.5);
    if (cr < 1)
        cr = 1;
    out->des_servers = cr > 1e6 ? 1000000 : (unsigned)cr;
    int rc;
    /* MVA per LUN (equal shares), throughput and numbers summed over the LUNs */
    if (sc->burst)
        rc = iom_mva_burst(&d, L, sc->burst / K, &out->mva);
    else
        rc = iom_mva_closed(&d, L, sc->threads / K, sc->threads / K * sc->iodepth, &out->mva);
    if (rc)
        return rc;
    out->mva.iops *= K;
    out->mva.n_guest *= K;
    out->mva.n_queue *= K;
    out->mva.n_device *= K;
    unsigned lun_limit = iom_model_lun_limit(&sc->limits);
    /* the DES samples the measured distribution, scaled to the fitted mean */
    struct iom_hist *h = calloc(1, sizeof(*h));
    struct iom_hist *pool = calloc(1, sizeof(*h));
    if (!h || !pool) {
        free(h);
        free(pool);
        return -ENOMEM;
    }
    struct iom_svc svc;
    struct iom_quantiles q = f->svc;
    for (unsigned i = 0; i < q.n; i++)
        q.v_s[i] *= sc->svc_scale;
    rc = iom_fit_hist_from_quantiles(h, &q, 1000000);
    if (!rc)
        rc = iom_svc_from_hist(&svc, h);
    if (!rc && svc.mean_s > 0) {
        /* the quantiles give the shape; the measured mean (exact) sets the scale */
        double k = d.svc_mean_s / svc.mean_s;
        for (unsigned i = 0; i < svc.n; i++) {
            svc.lo_s[i] *= k;
            svc.width_s[i] *= k;
        }
        svc.mean_s = d.svc_mean_s;
    }
    if (rc) {
        /* no usable quantiles: exponential at the fitted mean */
        rc = iom_svc_simple(&svc, IOM_SVC_EXP, d.svc_mean_s);
        if (rc)
            goto done;
    }
    uint64_t ios = sc->des_ios ? sc->des_ios : 200000;
    if (sc->burst) {
        unsigned runs = (unsigned)(ios / sc->burst);
        if (runs < 1)
            runs = 1;
        if (runs > 10000)
            runs = 10000;
        struct iom_model_out acc = {0}, o;
        for (unsigned r = 0; r < runs; r++) {
            struct iom_des_cfg cfg = {.svc = &svc, .servers = out->des_servers,
                                      .limit = lun_limit, .adapter_limit = sc->limits.adapter_queue,
                                      .luns = K, .burst = sc->burst, .seed = sc->seed + r,
                                      .pool = pool};
            if ((rc = iom_des_run(&cfg, &o, NULL)))
                break;
            acc.mean_s += o.mean_s / runs;
            acc.guest_s += o.guest_s / runs;
            acc.queue_s += o.queue_s / runs;
            acc.device_s += o.device_s / runs;
            acc.makespan_s += o.makespan_s / runs;
            acc.ios += o.ios;
        }
        acc.iops = acc.makespan_s > 0 ? sc->burst / acc.makespan_s : 0;
        acc.p99_s = (double)iom_hist_percentile(pool, 99.0) * 1e-9;
        out->des = acc;
        out->des_runs = runs;
    } else {
        uint64_t n = (uint64_t)sc->threads * sc->iodepth;
        uint64_t warm = 20 * n > 20000 ? 20 * n : 20000;
        /* a window of at least 500 completions per outstanding I/O, so that long
         * services in flight at its end do not bias the device time down */
        if (ios < 500 * n)
            ios = 500 * n < 5000000 ? 500 * n : 5000000;
        struct iom_des_cfg cfg = {.svc = &svc, .servers = out->des_servers, .limit = lun_limit,
                                  .adapter_limit = sc->limits.adapter_queue, .luns = K,
                                  .threads = sc->threads, .iodepth = sc->iodepth,
                                  .host_s = d.host_s, .warmup_ios = warm, .measure_ios = ios,
                                  .seed = sc->seed};
        rc = iom_des_run(&cfg, &out->des, NULL);
        out->des_runs = 1;
    }
    iom_svc_free(&svc);
done:
    free(h);
    free(pool);
    return rc;
}
