/* hist.c - log-linear latency histogram; see hist.h for the scheme. */
#include "stats/hist.h"

#include <math.h>
#include <string.h>

uint64_t iom_hist_bucket_low(unsigned i)
{
    if (i < 2 * IOM_HIST_SUB)
        return i;
    unsigned e = i / IOM_HIST_SUB - 1;
    uint64_t sub = IOM_HIST_SUB + i % IOM_HIST_SUB;
    return sub << e;
}

uint64_t iom_hist_bucket_high(unsigned i)
{
    if (i < 2 * IOM_HIST_SUB)
        return i;
    unsigned e = i / IOM_HIST_SUB - 1;
    return iom_hist_bucket_low(i) + (UINT64_C(1) << e) - 1;
}

uint64_t iom_hist_bucket_mid(unsigned i)
{
    uint64_t lo = iom_hist_bucket_low(i), hi = iom_hist_bucket_high(i);
    return lo + (hi - lo + 1) / 2;
}

void iom_hist_reset(struct iom_hist *h)
{
    memset(h, 0, sizeof(*h));
}

void iom_hist_merge(struct iom_hist *dst, const struct iom_hist *src)
{
    for (unsigned i = 0; i < IOM_HIST_BUCKETS; i++)
        dst->count[i] += __atomic_load_n(&src->count[i], __ATOMIC_RELAXED);
}

void iom_hist_diff(struct iom_hist *dst, const struct iom_hist *a, const struct iom_hist *b)
{
    for (unsigned i = 0; i < IOM_HIST_BUCKETS; i++)
        dst->count[i] = a->count[i] - b->count[i];
}

void iom_hist_snapshot(struct iom_hist *dst, const struct iom_hist *src)
{
    for (unsigned i = 0; i < IOM_HIST_BUCKETS; i++)
        dst->count[i] = __atomic_load_n(&src->count[i], __ATOMIC_RELAXED);
}

uint64_t iom_hist_total(const struct iom_hist *h)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < IOM_HIST_BUCKETS; i++)
        n += h->count[i];
    return n;
}

void iom_hist_percentiles(const struct iom_hist *h, const double *ps, unsigned n_ps, uint64_t *out)
{
    uint64_t total = iom_hist_total(h);
    unsigned k = 0;
    if (total == 0) {
        for (k = 0; k < n_ps; k++)
            out[k] = 0;
        return;
    }
    uint64_t cum = 0;
    unsigned i = 0;
    for (k = 0; k < n_ps; k++) {
        /* the small epsilon keeps 99.9999% of 10^6 at rank 999999, not 10^6 */
        double r = ceil(ps[k] / 100.0 * (double)total - 1e-9);
        uint64_t rank = r < 1.0 ? 1 : (r > (double)total ? total : (uint64_t)r);
        while (i < IOM_HIST_BUCKETS && cum + h->count[i] < rank) {
            cum += h->count[i];
            i++;
        }
        out[k] = iom_hist_bucket_mid(i < IOM_HIST_BUCKETS ? i : IOM_HIST_BUCKETS - 1);
    }
}

uint64_t iom_hist_percentile(const struct iom_hist *h, double p)
{
    uint64_t v;
    iom_hist_percentiles(h, &p, 1, &v);
    return v;
}
