/* markstat.c - best-of-runs and mean over a mark test's runs (see markstat.h). */
#include "stats/markstat.h"

#include <errno.h>
#include <string.h>

static void range_add(struct iom_markstat_range *r, double v, unsigned k)
{
    if (k == 0 || v < r->min)
        r->min = v;
    if (k == 0 || v > r->max)
        r->max = v;
    r->mean += v; /* divided at the end */
}

int iom_markstat_compute(const struct iom_markstat_run *runs, unsigned n,
                         enum iom_markstat_kind kind, struct iom_markstat *out)
{
    if (!out)
        return -EINVAL;
    memset(out, 0, sizeof(*out));
    out->kind = kind;
    if ((!runs && n) || (kind != IOM_MARKSTAT_BEST && kind != IOM_MARKSTAT_MEAN))
        return -EINVAL;
    struct iom_markstat_run *rep = &out->reported;
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct iom_markstat_run *r = &runs[i];
        if (!r->counted)
            continue;
        range_add(&out->mb_per_s, r->mb_per_s, k);
        range_add(&out->iops, r->iops, k);
        range_add(&out->lat_mean_us, r->lat_mean_us, k);
        rep->measured_s += r->measured_s;
        rep->ios += r->ios;
        if (kind == IOM_MARKSTAT_MEAN) {
            rep->mb_per_s += r->mb_per_s;
            rep->mib_per_s += r->mib_per_s;
            rep->iops += r->iops;
            rep->lat_mean_us += r->lat_mean_us;
            rep->lat_p99_us += r->lat_p99_us;
        } else {
            if (r->mb_per_s > rep->mb_per_s)
                rep->mb_per_s = r->mb_per_s;
            if (r->mib_per_s > rep->mib_per_s)
                rep->mib_per_s = r->mib_per_s;
            if (r->iops > rep->iops)
                rep->iops = r->iops;
            /* CrystalDiskMark: only runs with a score above zero give a latency */
            if (r->mb_per_s > 0.0) {
                if (!out->has_latency || r->lat_mean_us < rep->lat_mean_us)
                    rep->lat_mean_us = r->lat_mean_us;
                if (!out->has_latency || r->lat_p99_us < rep->lat_p99_us)
                    rep->lat_p99_us = r->lat_p99_us;
                out->has_latency = true;
            }
        }
        k++;
    }
    out->nr_counted = k;
    if (!k)
        return -ENODATA;
    out->mb_per_s.mean /= k;
    out->iops.mean /= k;
    out->lat_mean_us.mean /= k;
    if (kind == IOM_MARKSTAT_MEAN) {
        rep->mb_per_s /= k;
        rep->mib_per_s /= k;
        rep->iops /= k;
        rep->lat_mean_us /= k;
        rep->lat_p99_us /= k;
        out->has_latency = true;
    }
    rep->counted = true;
    return 0;
}

const char *iom_markstat_kind_name(enum iom_markstat_kind kind)
{
    return kind == IOM_MARKSTAT_MEAN ? "mean" : "best";
}
