/*
 * series.h - the per-interval series of a run: snapshots of the workers'
 * measured counters and histograms, and one series point per interval from
 * the difference of two snapshots. The counters only grow during the
 * measured phase, so successive points add up to the totals.
 */
#ifndef IOMARK_CORE_SERIES_H
#define IOMARK_CORE_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/result.h"

/* Sum of live counters of several threads at one moment. */
struct iom_snapshot {
    uint64_t ios[IOM_NDIR], bytes[IOM_NDIR], lat_sum_ns; /* measured, per direction */
    uint64_t ios_all, bytes_all;           /* all phases (progress line) */
    struct iom_hist hist;                  /* measured latencies, when taken with_hist */
};

/* Empty s (counters 0; the histogram too when with_hist). */
void iom_snapshot_clear(struct iom_snapshot *s, bool with_hist);

/*
 * Add one thread's counters: d[IOM_NDIR] (read, write, trim; written by their thread
 * with relaxed atomic stores, read here with relaxed loads) and its
 * all-phase counters. The histogram is added only when with_hist (it is
 * large; the progress line does not need it).
 */
void iom_snapshot_add(struct iom_snapshot *s, const struct iom_io_stats d[IOM_NDIR], uint64_t ios_all,
                      uint64_t bytes_all, bool with_hist);

/*
 * Append to r's series the point between snapshots a and b (b later):
 * interval ending t_end_s seconds after the measured phase began, dur_s
 * long; I/Os, bytes, mean latency and p99 (from the histogram difference,
 * computed in scratch). Returns 0 or -ENOMEM (r unchanged).
 */
int iom_series_add(struct iom_result *r, const struct iom_snapshot *a,
                   const struct iom_snapshot *b, struct iom_hist *scratch, double t_end_s,
                   double dur_s);

/*
 * Bound every series point's p99 by the run's fastest and slowest I/O
 * (r->total, all directions; nothing when no I/O was counted). A point's
 * p99 is its histogram bucket's representative value (stats/hist.h: within
 * 1/64 of the true value), which can lie past the slowest latency seen (a
 * 1 s run of 88 I/Os showed p99 99090 us beside a max of 98830 us); no
 * interval's p99 can exceed the run's max, so the bound only brings it
 * nearer the truth, as iom_io_stats_clamp_ns does for the run's own
 * percentiles. Call once the totals are merged. No allocation.
 */
void iom_series_clamp_p99(struct iom_result *r);

#endif
