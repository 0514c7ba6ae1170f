/*
 * depthmap.h - fio's I/O depth distributions per thread (fio 3.33 io_u.c
 * io_u_mark_depth, __io_u_mark_map; ioengines.c td_io_queue, td_io_commit,
 * td_io_getevents; stat.c show_thread_status_json "iodepth_level",
 * "iodepth_submit", "iodepth_complete"). Inline: called once per submission
 * and per reap in the worker's loop.
 */
#ifndef IOMARK_STATS_DEPTHMAP_H
#define IOMARK_STATS_DEPTHMAP_H

#include <stdbool.h>
#include <stdint.h>

#define IOM_DEPTH_BUCKETS 7

/* Counts of one thread (or the sum of an entry's threads), its whole run. */
struct iom_depth_map {
    uint64_t level[IOM_DEPTH_BUCKETS];    /* I/Os by the depth in flight when submitted:
                                             1, 2-3, 4-7, 8-15, 16-31, 32-63, >= 64 */
    uint64_t submit[IOM_DEPTH_BUCKETS];   /* submissions by I/Os each: 0, 1-4, 5-8, 9-16,
                                             17-32, 33-64, > 64 */
    uint64_t complete[IOM_DEPTH_BUCKETS]; /* reaps by completions each, the same buckets */
    uint64_t ios, submits, completes;     /* the denominators (fio's total_io_u sum,
                                             total_submit, total_complete) */
};

/* fio io_u_mark_depth's bucket of `depth` I/Os in flight (>= 1) */
static inline unsigned iom_depth_level_idx(unsigned depth)
{
    unsigned i = depth > 1 ? 31u - (unsigned)__builtin_clz(depth) : 0; /* floor(log2) */
    return i < IOM_DEPTH_BUCKETS - 1 ? i : IOM_DEPTH_BUCKETS - 1;
}

/* fio __io_u_mark_map's bucket of a batch of nr I/Os */
static inline unsigned iom_depth_batch_idx(unsigned nr)
{
    if (nr <= 4)
        return nr ? 1 : 0;
    unsigned i = 31u - (unsigned)__builtin_clz(nr - 1); /* ceil(log2(nr)) - 1 */
    return i < IOM_DEPTH_BUCKETS - 1 ? i : IOM_DEPTH_BUCKETS - 1;
}

/* nr I/Os submitted in one call with `inflight` (them included) then in flight;
 * sync_done: the engine completed it at once (fio's engines without commit mark
 * a submission and a completion of 1 per I/O). */
static inline void iom_depth_issued(struct iom_depth_map *m, unsigned nr, unsigned inflight,
                                    bool sync_done)
{
    m->level[iom_depth_level_idx(inflight)] += nr;
    m->ios += nr;
    m->submit[iom_depth_batch_idx(nr)]++;
    m->submits++;
    if (sync_done) {
        m->complete[1]++;
        m->completes++;
    }
}

/* One reap call that returned n completions (0 included, as fio counts). */
static inline void iom_depth_reaped(struct iom_depth_map *m, unsigned n)
{
    m->complete[iom_depth_batch_idx(n)]++;
    m->completes++;
}

/* Add src's counts to dst (fio stat.c sum_thread_stats). */
static inline void iom_depth_merge(struct iom_depth_map *dst, const struct iom_depth_map *src)
{
    for (int i = 0; i < IOM_DEPTH_BUCKETS; i++) {
        dst->level[i] += src->level[i];
        dst->submit[i] += src->submit[i];
        dst->complete[i] += src->complete[i];
    }
    dst->ios += src->ios;
    dst->submits += src->submits;
    dst->completes += src->completes;
}

#endif
