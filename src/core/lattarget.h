/*
 * lattarget.h - fio's latency_target search (fio io_u.c lat_target_init,
 * lat_target_check, lat_target_success, __lat_target_failed; HOWTO
 * "latency_target"): a thread starts at queue depth 1 and, after every
 * latency_window of I/O, doubles its depth while the share of I/Os of the
 * window that completed within latency_target is at least
 * latency_percentile, and bisects between the last good and the first bad
 * depth once a window misses; when a window's success leaves the depth where
 * it was, one more window runs at that depth and (without latency_run) the
 * thread stops. The depth the search reached is fio's "latency_depth".
 * Internal to src/core: one per worker thread, driven by core/worker.c.
 */
#ifndef IOMARK_CORE_LATTARGET_H
#define IOMARK_CORE_LATTARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/spec.h"

/* What the worker does after a window (iom_lt_window / iom_lt_step). */
enum iom_lt_action {
    IOM_LT_GO,      /* go on at lt->qd (possibly new) */
    IOM_LT_QUIESCE, /* let every I/O in flight complete, then iom_lt_cycle(): the depth
                     * went down (fio quiesces to avoid a storm of ramp-downs) or the final
                     * window at the found depth starts */
    IOM_LT_DONE,    /* the final window passed: the thread stops (fio td->done) */
};

struct iom_lat_target {
    uint32_t qd, qd_low, qd_high;   /* fio latency_qd, _low, _high */
    uint32_t iodepth;               /* the job's iodepth: the upper bound */
    uint32_t stable;                /* fio latency_stable_count */
    bool end_run;                   /* fio latency_end_run: the final window runs */
    bool run;                       /* latency_run: keep adjusting, never DONE */
    double pct;                     /* latency_percentile, 0..100 */
    uint64_t target_ns, window_ns;
    uint64_t cycle_start_ns;        /* fio latency_ts */
    uint64_t ios, failed;           /* completions and misses in this window */
};

/* Set up from job (latency_target_ns must be non-zero) at time now (ns,
 * iom_now_ns clock): depth 1, a new window (fio lat_target_init). */
void iom_lt_init(struct iom_lat_target *lt, const struct iom_job *job, uint64_t now);

/* A new window from now (fio lat_new_cycle): the counts start at 0. */
void iom_lt_cycle(struct iom_lat_target *lt, uint64_t now);

/* One completion of lat_ns (fio io_u.c: tnsec > latency_target counts as a
 * miss). With latency_percentile 100 a miss ramps down at once (fio
 * __lat_target_failed): returns IOM_LT_QUIESCE then (IOM_LT_GO at depth 1,
 * where fio would end the job with ETIMEDOUT; *fatal is set then). */
enum iom_lt_action iom_lt_complete(struct iom_lat_target *lt, uint64_t lat_ns, bool *fatal);

/* After a batch of completions at time now: when the window has run its
 * length, judge it (fio lat_target_check) and step the search. */
enum iom_lt_action iom_lt_window(struct iom_lat_target *lt, uint64_t now);

/* The search's step for one judged window: success (the window's share of
 * I/Os within the target reached the percentile) or not. Pure state machine
 * (fio lat_target_success / __lat_target_failed); unit-tested on its own. */
enum iom_lt_action iom_lt_step(struct iom_lat_target *lt, bool success);

#endif
