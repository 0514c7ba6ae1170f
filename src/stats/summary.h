/*
 * summary.h - per-direction I/O counters and the figures derived from them.
 *
 * struct iom_io_stats is what a worker thread accumulates for one direction
 * (read, write or trim) during the measured interval: counts, bytes, exact latency
 * min/max/sum/sum of squares, and the latency histogram. Counters are written
 * by one thread with relaxed atomic stores so the main thread can sample
 * them for the per-interval series and the progress line.
 *
 * struct iom_summary holds the derived figures a report prints. Statistics
 * only: no printing here (reporters live in src/report/).
 */
#ifndef IOMARK_STATS_SUMMARY_H
#define IOMARK_STATS_SUMMARY_H

#include <stdint.h>

#include "stats/hist.h"

/* Data directions, as fio's enum fio_ddir (io_ddir.h): read, write, trim; the
 * per-direction arrays of results have IOM_NDIR entries. */
enum { IOM_DIR_READ = 0, IOM_DIR_WRITE = 1, IOM_DIR_TRIM = 2, IOM_NDIR = 3 };

struct iom_io_stats {
    uint64_t ios;          /* completed I/Os */
    uint64_t bytes;        /* bytes transferred by them */
    uint64_t errors;       /* I/Os that completed with an error */
    uint64_t lat_min_ns;   /* UINT64_MAX while empty */
    uint64_t lat_max_ns;
    uint64_t lat_sum_ns;   /* sum of latencies; 2^64 ns = 584 years, no overflow */
    unsigned __int128 lat_sumsq_ns2; /* exact sum of squared latencies (2^92 per I/O at most) */
    struct iom_hist hist;
};

/* Number of reported percentiles and their values (in %), ascending. */
#define IOM_NR_PCT 10
extern const double iom_pct_list[IOM_NR_PCT]; /* 25 50 75 90 95 99 99.9 99.99 99.999 99.9999 */

/*
 * Does a sample of n latencies resolve percentile pct (in %, 0 < pct < 100)?
 * The p-th percentile differs from the largest sample only when n >= 1 / (1 -
 * p/100) (p99.9 needs 1000 samples): by the nearest-rank definition (Hyndman
 * & Fan 1996, definition 1) its rank ceil(n p/100) is then below n. Fewer
 * samples: the value shown for that percentile is the maximum, not measured.
 * n is a double so importers' counts pass as they are: NAN (count unknown)
 * returns 1, nothing to judge by; 0 samples resolve nothing (returns 0).
 */
static inline int iom_pct_resolved(double pct, double n)
{
    if (n != n)
        return 1;
    return n >= 1.0 / (1.0 - pct / 100.0) - 1e-6;
}

struct iom_summary {
    uint64_t ios, bytes, errors;
    double iops;            /* ios / interval */
    double mb_per_s;        /* bytes / interval / 10^6 */
    double mib_per_s;       /* bytes / interval / 2^20 */
    double lat_min_us, lat_mean_us, lat_stddev_us, lat_max_us;
    double lat_pct_us[IOM_NR_PCT]; /* percentiles of iom_pct_list, clamped to [min, max] */
};

/* Reset to the empty state (min = UINT64_MAX). */
void iom_io_stats_init(struct iom_io_stats *s);

/* Record one completed I/O of `bytes` bytes and latency lat_ns. Owner thread only. */
static inline void iom_io_stats_add(struct iom_io_stats *s, uint64_t bytes, uint64_t lat_ns)
{
    __atomic_store_n(&s->ios, s->ios + 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->bytes, s->bytes + bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&s->lat_sum_ns, s->lat_sum_ns + lat_ns, __ATOMIC_RELAXED);
    s->lat_sumsq_ns2 += (unsigned __int128)lat_ns * lat_ns;
    if (lat_ns < s->lat_min_ns)
        s->lat_min_ns = lat_ns;
    if (lat_ns > s->lat_max_ns)
        s->lat_max_ns = lat_ns;
    iom_hist_add(&s->hist, lat_ns);
}

/* dst += src (both quiescent, or src read after its writer stopped). */
void iom_io_stats_merge(struct iom_io_stats *dst, const struct iom_io_stats *src);

/*
 * Derive the printed figures from s over interval_ns of measured time.
 * interval_ns == 0 gives rates of 0. Percentiles are clamped into
 * [lat_min, lat_max] so a bucket midpoint never exceeds the true maximum; a
 * percentile the sample does not resolve (iom_pct_resolved: its nearest rank
 * is the largest sample) is the exact maximum, not its bucket's midpoint.
 * The standard deviation is the population one, sqrt(E[x^2] - E[x]^2), as
 * DiskSpd's LatStdDev and fio's stddev.
 */
void iom_summarize(const struct iom_io_stats *s, uint64_t interval_ns, struct iom_summary *out);

/*
 * A latency v (ns) clamped into s's exact [lat_min_ns, lat_max_ns]: a
 * histogram bucket's representative value may lie outside the true extremes,
 * and no reported percentile may. s must hold at least one I/O (else v is
 * returned unchanged).
 */
uint64_t iom_io_stats_clamp_ns(const struct iom_io_stats *s, uint64_t v);

/*
 * Latency percentile p (0..100) of s in ns: the histogram's percentile
 * (stats/hist.h) clamped by iom_io_stats_clamp_ns, or the exact maximum when
 * s does not resolve p (as iom_summarize). 0 when s is empty. Every
 * reporter (text, JSON, fio, DiskSpd formats) takes its percentiles here.
 */
uint64_t iom_io_stats_pct_ns(const struct iom_io_stats *s, double p);

/*
 * Latency standard deviation of s in ns from its exact sums. sample == 0:
 * the population one, sqrt(E[x^2] - E[x]^2) (DiskSpd's LatStdDev); sample
 * != 0: the sample one with n - 1 in the denominator (fio's stat.c
 * calc_lat(), "stdev"), 0 when fewer than 2 I/Os. 0 for an empty s.
 */
double iom_io_stats_lat_stddev_ns(const struct iom_io_stats *s, int sample);

#endif
