/*
 * hist.h - fixed-size, mergeable log-linear latency histogram.
 *
 * Values are nanoseconds (uint64). Values below 128 ns get one bucket each
 * (exact). Above that, each power of two [2^k, 2^(k+1)) is split into 64
 * equal-width buckets, the scheme of fio's stat.c and HdrHistogram: the
 * bucket width is at most 1/64 of its lower bound, so reporting the bucket's
 * midpoint is within 1/128 (0.79%) of any value in it. The range ends at
 * IOM_HIST_MAX_NS (2^46 ns, about 19.5 hours); larger values are counted in
 * the last bucket (min/max/mean are still exact because the caller keeps
 * them, see summary.h).
 *
 * Memory: IOM_HIST_BUCKETS * 8 bytes (about 21 KiB), independent of run
 * length. Single writer, any number of concurrent readers: the writer uses
 * iom_hist_add(), which stores with relaxed atomics so a reader thread can
 * snapshot counts while the run goes on (counts only grow).
 */
#ifndef IOMARK_STATS_HIST_H
#define IOMARK_STATS_HIST_H

#include <stdint.h>

#define IOM_HIST_SUB_BITS 6                       /* 64 sub-buckets per octave */
#define IOM_HIST_SUB (1u << IOM_HIST_SUB_BITS)
#define IOM_HIST_MAX_BITS 46                      /* values < 2^46 ns resolved */
#define IOM_HIST_MAX_NS ((UINT64_C(1) << IOM_HIST_MAX_BITS) - 1)
/* index(v) = 64*e + (v >> e) for e = msb(v) - 6; largest e = 45 - 6 = 39 */
#define IOM_HIST_BUCKETS (IOM_HIST_SUB * (IOM_HIST_MAX_BITS - IOM_HIST_SUB_BITS) + IOM_HIST_SUB)

struct iom_hist {
    uint64_t count[IOM_HIST_BUCKETS];
};

/* Bucket index of a value in ns; values above IOM_HIST_MAX_NS map to the last bucket. */
static inline unsigned iom_hist_index(uint64_t v)
{
    if (v < 2 * IOM_HIST_SUB)
        return (unsigned)v;
    if (v > IOM_HIST_MAX_NS)
        v = IOM_HIST_MAX_NS;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned e = msb - IOM_HIST_SUB_BITS;
    return IOM_HIST_SUB * e + (unsigned)(v >> e);
}

/* Record one value. Only the owning thread may call it. */
static inline void iom_hist_add(struct iom_hist *h, uint64_t v_ns)
{
    uint64_t *c = &h->count[iom_hist_index(v_ns)];
    __atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

/* Record n equal values (n >= 0). Only the owning thread may call it. */
static inline void iom_hist_add_n(struct iom_hist *h, uint64_t v_ns, uint64_t n)
{
    uint64_t *c = &h->count[iom_hist_index(v_ns)];
    __atomic_store_n(c, *c + n, __ATOMIC_RELAXED);
}

/* Lowest value (ns) that maps to bucket i. */
uint64_t iom_hist_bucket_low(unsigned i);
/* Highest value (ns) that maps to bucket i. */
uint64_t iom_hist_bucket_high(unsigned i);
/* Representative value of bucket i: the midpoint (exact for i < 128). */
uint64_t iom_hist_bucket_mid(unsigned i);

/* Set all counts to zero. */
void iom_hist_reset(struct iom_hist *h);
/* dst += src, bucket by bucket. src may be live (read with relaxed atomics). */
void iom_hist_merge(struct iom_hist *dst, const struct iom_hist *src);
/* dst = a - b, where b is an earlier snapshot of the same histogram as a. */
void iom_hist_diff(struct iom_hist *dst, const struct iom_hist *a, const struct iom_hist *b);
/* Copy a (possibly live) histogram with relaxed atomic loads. */
void iom_hist_snapshot(struct iom_hist *dst, const struct iom_hist *src);
/* Total number of samples. */
uint64_t iom_hist_total(const struct iom_hist *h);

/*
 * Percentile p in [0, 100] of the recorded values, in ns.
 * Uses the nearest-rank definition (rank = ceil(p/100 * n), at least 1), the
 * definition fio and DiskSpd use, and returns the midpoint of the bucket that
 * holds that rank. The caller clamps to the exact [min, max] it tracks.
 * Returns 0 when the histogram is empty.
 */
uint64_t iom_hist_percentile(const struct iom_hist *h, double p);

/*
 * Several percentiles in one pass. ps[] must be ascending; out[i] receives the
 * value for ps[i] (ns), as iom_hist_percentile(). n_ps >= 0.
 */
void iom_hist_percentiles(const struct iom_hist *h, const double *ps, unsigned n_ps,
                          uint64_t *out);

#endif
