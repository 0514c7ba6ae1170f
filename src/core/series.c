/* series.c - snapshots and series points (series.h). */
#include "core/series.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void iom_snapshot_clear(struct iom_snapshot *s, bool with_hist)
{
    memset(s, 0, offsetof(struct iom_snapshot, hist));
    if (with_hist)
        iom_hist_reset(&s->hist);
}

void iom_snapshot_add(struct iom_snapshot *s, const struct iom_io_stats d[IOM_NDIR], uint64_t ios_all,
                      uint64_t bytes_all, bool with_hist)
{
    for (int k = 0; k < IOM_NDIR; k++) {
        s->ios[k] += __atomic_load_n(&d[k].ios, __ATOMIC_RELAXED);
        s->bytes[k] += __atomic_load_n(&d[k].bytes, __ATOMIC_RELAXED);
        s->lat_sum_ns += __atomic_load_n(&d[k].lat_sum_ns, __ATOMIC_RELAXED);
        if (with_hist)
            iom_hist_merge(&s->hist, &d[k].hist);
    }
    s->ios_all += ios_all;
    s->bytes_all += bytes_all;
}

int iom_series_add(struct iom_result *r, const struct iom_snapshot *a,
                   const struct iom_snapshot *b, struct iom_hist *scratch, double t_end_s,
                   double dur_s)
{
    if (r->nr_series == r->series_cap) {
        uint32_t cap = r->series_cap ? r->series_cap * 2 : 64;
        struct iom_series_point *p = realloc(r->series, cap * sizeof(*p));
        if (!p)
            return -ENOMEM;
        r->series = p;
        r->series_cap = cap;
    }
    struct iom_series_point *pt = &r->series[r->nr_series++];
    memset(pt, 0, sizeof(*pt));
    pt->t_end_s = t_end_s;
    pt->dur_s = dur_s;
    uint64_t n = 0;
    for (int k = 0; k < IOM_NDIR; k++) {
        pt->ios[k] = b->ios[k] - a->ios[k];
        pt->bytes[k] = b->bytes[k] - a->bytes[k];
        n += pt->ios[k];
    }
    if (n) {
        pt->lat_mean_us = (double)(b->lat_sum_ns - a->lat_sum_ns) / (double)n / 1e3;
        iom_hist_diff(scratch, &b->hist, &a->hist);
        pt->lat_p99_us = (double)iom_hist_percentile(scratch, 99.0) / 1e3;
    }
    return 0;
}

void iom_series_clamp_p99(struct iom_result *r)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int k = 0; k < IOM_NDIR; k++)
        if (r->total[k].ios) {
            if (r->total[k].lat_min_ns < lo)
                lo = r->total[k].lat_min_ns;
            if (r->total[k].lat_max_ns > hi)
                hi = r->total[k].lat_max_ns;
        }
    if (lo > hi)
        return;
    for (uint32_t i = 0; i < r->nr_series; i++) {
        struct iom_series_point *p = &r->series[i];
        if (!(p->ios[0] + p->ios[1] + p->ios[2]))
            continue;
        if (p->lat_p99_us > (double)hi / 1e3)
            p->lat_p99_us = (double)hi / 1e3;
        if (p->lat_p99_us < (double)lo / 1e3)
            p->lat_p99_us = (double)lo / 1e3;
    }
}
