/* mva.c - exact mean value analysis of the host + disk closed network, and
 * the mean values of a burst. Formulas and sources: model.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

static unsigned min_nonzero(unsigned a, unsigned b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

unsigned iom_model_lun_limit(const struct iom_model_limits *l)
{
    unsigned hwq = l->hw_queues ? l->hw_queues : 1;
    unsigned long long nr = (unsigned long long)l->nr_requests * hwq;
    if (nr > 0xffffffffull)
        nr = 0xffffffffull;
    return min_nonzero(l->lun_queue, (unsigned)nr);
}

unsigned iom_model_limit_luns(const struct iom_model_limits *l, unsigned luns)
{
    unsigned share = 0;
    if (l->adapter_queue) {
        share = l->adapter_queue / (luns ? luns : 1);
        if (share < 1)
            share = 1;
    }
    return min_nonzero(iom_model_lun_limit(l), share);
}

unsigned iom_model_limit(const struct iom_model_limits *l)
{
    return iom_model_limit_luns(l, 1);
}

/* Service rate of the disk station with j I/Os present: min(j, L, c) / S. */
static double disk_rate(const struct iom_model_dev *d, unsigned limit, unsigned j)
{
    double busy = (double)j;
    if (limit && busy > limit)
        busy = limit;
    if (busy > d->parallelism)
        busy = d->parallelism;
    double r = busy / d->svc_mean_s;
    if (d->cpu_s > 0 && r > d->cpu_servers / d->cpu_s)
        r = d->cpu_servers / d->cpu_s; /* the guest CPUs' bound */
    return r;
}

/* Service rate of the host station (threads servers of host_s each). */
static double host_rate(const struct iom_model_dev *d, unsigned threads, unsigned j)
{
    double busy = j < threads ? (double)j : (double)threads;
    return busy / d->host_s;
}

static int check_dev(const struct iom_model_dev *d)
{
    if (!d || !(d->svc_mean_s > 0) || !isfinite(d->svc_mean_s) || !(d->parallelism >= 1) ||
        !isfinite(d->parallelism) || !(d->host_s >= 0) || !isfinite(d->host_s) ||
        !(d->cpu_s >= 0) || !isfinite(d->cpu_s) ||
        (d->cpu_s > 0 && (!(d->cpu_servers >= 1) || !isfinite(d->cpu_servers))))
        return -EINVAL;
    return 0;
}

/*
 * The recursion over populations 1..N. With two stations (host A, disk B)
 * the disk's marginal p_B(j | n) follows Reiser-Lavenberg for j >= 1, and
 * p_B(0 | n) = p_A(n | n) = X(n)/mu_A(n) p_B(0 | n-1): no subtraction, so the
 * recursion stays stable when the disk is saturated. Without a host station
 * all n I/Os are at the disk. pB must hold N+1 entries; on return it is the
 * marginal at population N. Per population n, cb(n, X, R_disk, R_host).
 * Memory O(N).
 */
typedef void (*mva_cb)(void *arg, unsigned n, double x, double r_disk, double r_host);

static int mva_run(const struct iom_model_dev *d, unsigned limit, unsigned threads, unsigned N,
                   double *pB, mva_cb cb, void *arg)
{
    int rc = check_dev(d);
    if (rc)
        return rc;
    if (threads < 1 || N < 1)
        return -EINVAL;
    memset(pB, 0, ((size_t)N + 1) * sizeof(double));
    pB[0] = 1.0; /* population 0: nobody anywhere */
    /* pB is updated in place; [lo, hi] holds every entry above 1e-18 (the
     * rest is 0): a disk state dropped below that stays negligible at larger
     * populations, so the recursion costs O(N x support) rather than O(N^2) */
    unsigned lo = 0, hi = 0;
    int host = d->host_s > 0;
    for (unsigned n = 1; n <= N; n++) {
        double x, rB = 0, rA = 0;
        if (!host) {
            x = disk_rate(d, limit, n);
            rB = n / x;
            pB[n - 1] = 0;
            pB[n] = 1.0;
            lo = hi = n;
        } else {
            for (unsigned i = lo; i <= hi; i++) { /* i = I/Os at the disk at n-1 */
                rB += (double)(i + 1) / disk_rate(d, limit, i + 1) * pB[i];
                /* p_A(j-1 | n-1) = p_B(n-j | n-1) with j = n - i */
                rA += (double)(n - i) / host_rate(d, threads, n - i) * pB[i];
            }
            x = n / (rA + rB);
            double p0 = pB[0];
            for (unsigned j = hi + 1; j > lo; j--)
                pB[j] = x / disk_rate(d, limit, j) * pB[j - 1];
            pB[lo] = 0;
            if (lo == 0)
                pB[0] = x / host_rate(d, threads, n) * p0;
            else
                lo++;
            hi++;
            double sum = 0;
            for (unsigned j = lo; j <= hi; j++)
                sum += pB[j];
            if (sum > 0 && isfinite(sum))
                for (unsigned j = lo; j <= hi; j++)
                    pB[j] /= sum; /* removes rounding drift only; sum is 1 in exact arithmetic */
            while (lo < hi && pB[lo] < 1e-18)
                pB[lo++] = 0;
            while (hi > lo && pB[hi] < 1e-18)
                pB[hi--] = 0;
        }
        if (cb)
            cb(arg, n, x, rB, rA);
    }
    return 0;
}

struct curve_arg {
    double *iops, *mean;
    double last_x, last_rB, last_rA;
};

static void curve_cb(void *arg, unsigned n, double x, double r_disk, double r_host)
{
    struct curve_arg *c = arg;
    if (c->iops)
        c->iops[n - 1] = x;
    if (c->mean)
        c->mean[n - 1] = r_disk;
    c->last_x = x;
    c->last_rB = r_disk;
    c->last_rA = r_host;
}

int iom_mva_curve(const struct iom_model_dev *d, unsigned limit, unsigned threads,
                  unsigned max_pop, double *iops, double *mean_s)
{
    if (max_pop < 1)
        return -EINVAL;
    double *pB = malloc(((size_t)max_pop + 1) * sizeof(double));
    if (!pB)
        return -ENOMEM;
    struct curve_arg c = {.iops = iops, .mean = mean_s};
    int rc = mva_run(d, limit, threads, max_pop, pB, curve_cb, &c);
    free(pB);
    return rc;
}

int iom_mva_closed(const struct iom_model_dev *d, unsigned limit, unsigned threads,
                   unsigned population, struct iom_model_out *out)
{
    if (!out || population < 1)
        return -EINVAL;
    double *pB = malloc(((size_t)population + 1) * sizeof(double));
    if (!pB)
        return -ENOMEM;
    struct curve_arg c = {0};
    int rc = mva_run(d, limit, threads, population, pB, curve_cb, &c);
    if (rc) {
        free(pB);
        return rc;
    }
    double ng = 0, nq = 0, nd = 0;
    for (unsigned j = 1; j <= population; j++) {
        double adm = limit && j > limit ? (double)limit : (double)j;
        double busy = adm > d->parallelism ? d->parallelism : adm;
        ng += pB[j] * ((double)j - adm);
        nq += pB[j] * (adm - busy);
        nd += pB[j] * busy;
    }
    free(pB);
    memset(out, 0, sizeof(*out));
    out->iops = c.last_x;
    out->n_guest = ng;
    out->n_queue = nq;
    out->n_device = nd;
    out->guest_s = ng / c.last_x;
    out->queue_s = nq / c.last_x;
    out->device_s = nd / c.last_x; /* = S by Little's law */
    out->mean_s = c.last_rB;
    out->host_s = c.last_rA;
    out->p99_s = NAN;
    return 0;
}

int iom_mva_burst(const struct iom_model_dev *d, unsigned limit, unsigned n,
                  struct iom_model_out *out)
{
    int rc = check_dev(d);
    if (rc)
        return rc;
    if (!out || n < 1)
        return -EINVAL;
    double c = floor(d->parallelism + 0.5);
    double k = limit && limit < c ? (double)limit : c;
    double L = limit ? (double)limit : INFINITY;
    double S = d->svc_mean_s, step = S / k;
    if (d->cpu_s > 0 && d->cpu_s / d->cpu_servers > step)
        step = d->cpu_s / d->cpu_servers;
    double g = 0, q = 0;
    for (unsigned i = 1; i <= n; i++) {
        double started_after = (double)i > k ? (double)i - k : 0;
        double admitted_after = (double)i > L ? (double)i - L : 0;
        g += admitted_after * step;
        q += (started_after - admitted_after) * step;
    }
    memset(out, 0, sizeof(*out));
    out->guest_s = g / n;
    out->queue_s = q / n;
    out->device_s = S;
    out->mean_s = out->guest_s + out->queue_s + S;
    double m = (double)n < k ? (double)n : k, h = 0;
    for (unsigned j = 1; j <= (unsigned)m; j++)
        h += 1.0 / j;
    out->makespan_s = ((double)n > k ? ((double)n - k) * step : 0) + S * h;
    out->iops = n / out->makespan_s;
    out->p99_s = NAN;
    return 0;
}
