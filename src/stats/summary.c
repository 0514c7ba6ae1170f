/* summary.c - derive IOPS, throughput and latency figures from counters. */
#include "stats/summary.h"

#include <math.h>
#include <string.h>

const double iom_pct_list[IOM_NR_PCT] = {25, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999, 99.9999};

void iom_io_stats_init(struct iom_io_stats *s)
{
    memset(s, 0, sizeof(*s));
    s->lat_min_ns = UINT64_MAX;
}

void iom_io_stats_merge(struct iom_io_stats *dst, const struct iom_io_stats *src)
{
    dst->ios += src->ios;
    dst->bytes += src->bytes;
    dst->errors += src->errors;
    dst->lat_sum_ns += src->lat_sum_ns;
    dst->lat_sumsq_ns2 += src->lat_sumsq_ns2;
    if (!src->ios) /* an empty direction (e.g. no trims) leaves the extremes alone */
        return;
    if (src->lat_min_ns < dst->lat_min_ns)
        dst->lat_min_ns = src->lat_min_ns;
    if (src->lat_max_ns > dst->lat_max_ns)
        dst->lat_max_ns = src->lat_max_ns;
    iom_hist_merge(&dst->hist, &src->hist);
}

/* Percentile p of s from the histogram's value h (ns): the exact maximum when
 * the sample does not resolve p (its nearest rank is the largest sample: the
 * value the text report marks with '*'), else h clamped into [min, max]. */
static uint64_t pct_of(const struct iom_io_stats *s, double p, uint64_t h)
{
    if (p >= 100 || !iom_pct_resolved(p, (double)s->ios))
        return s->lat_max_ns;
    return iom_io_stats_clamp_ns(s, h);
}

void iom_summarize(const struct iom_io_stats *s, uint64_t interval_ns, struct iom_summary *out)
{
    memset(out, 0, sizeof(*out));
    out->ios = s->ios;
    out->bytes = s->bytes;
    out->errors = s->errors;
    if (interval_ns > 0) {
        double sec = (double)interval_ns / 1e9;
        out->iops = (double)s->ios / sec;
        out->mb_per_s = (double)s->bytes / sec / 1e6;
        out->mib_per_s = (double)s->bytes / sec / 1048576.0;
    }
    if (s->ios == 0)
        return;
    out->lat_min_us = (double)s->lat_min_ns / 1e3;
    out->lat_max_us = (double)s->lat_max_ns / 1e3;
    out->lat_mean_us = (double)s->lat_sum_ns / (double)s->ios / 1e3;
    out->lat_stddev_us = iom_io_stats_lat_stddev_ns(s, 0) / 1e3;
    uint64_t pct[IOM_NR_PCT];
    iom_hist_percentiles(&s->hist, iom_pct_list, IOM_NR_PCT, pct);
    for (int i = 0; i < IOM_NR_PCT; i++)
        out->lat_pct_us[i] = (double)pct_of(s, iom_pct_list[i], pct[i]) / 1e3;
}

uint64_t iom_io_stats_clamp_ns(const struct iom_io_stats *s, uint64_t v)
{
    if (s->ios == 0)
        return v;
    if (v < s->lat_min_ns)
        v = s->lat_min_ns;
    if (v > s->lat_max_ns)
        v = s->lat_max_ns;
    return v;
}

uint64_t iom_io_stats_pct_ns(const struct iom_io_stats *s, double p)
{
    if (s->ios == 0)
        return 0;
    return pct_of(s, p, iom_hist_percentile(&s->hist, p));
}

double iom_io_stats_lat_stddev_ns(const struct iom_io_stats *s, int sample)
{
    if (s->ios == 0 || (sample && s->ios < 2))
        return 0;
    double n = (double)s->ios;
    double mean = (double)s->lat_sum_ns / n;
    /* n*sum(x^2) - sum(x)^2 is exact in 128 bits while it fits; else fall back to doubles */
    double var;
    unsigned __int128 sx = s->lat_sum_ns;
    if (s->lat_sum_ns < (UINT64_C(1) << 63) && s->lat_sumsq_ns2 < ((unsigned __int128)1 << 100) &&
        s->ios < (UINT64_C(1) << 27)) {
        unsigned __int128 a = s->lat_sumsq_ns2 * s->ios, b = sx * sx;
        var = a > b ? (double)(a - b) / (n * n) : 0.0;
    } else {
        var = (double)s->lat_sumsq_ns2 / n - mean * mean;
    }
    if (var <= 0)
        return 0.0;
    return sample ? sqrt(var) * sqrt(n / (n - 1)) : sqrt(var);
}
