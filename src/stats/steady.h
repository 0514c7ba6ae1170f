/*
 * steady.h - fio's steady-state detection (fio 3.33 steadystate.c; HOWTO
 * "steadystate", "steadystate_duration", "steadystate_ramp_time"): once a
 * second the job's IOPS and bandwidth over the last second are added to a
 * window of ss_dur samples; when the window is full its criterion is judged:
 *   - slope (iops_slope, bw_slope): the least-squares slope of the samples
 *     against x = 0 .. n-1, as fio computes it,
 *       slope = (sum_xy - sum_x * sum_y / n) / (sum_x2 - sum_x^2 / n);
 *     with a "%" limit, 100 * slope / (sum_y / n) (fio divides by the mean in
 *     whole units: sum_y / n in integer arithmetic); attained when
 *     |criterion| < limit;
 *   - deviation (iops, bw): the largest |sample - mean| over the window, with
 *     "%" as 100 * that / mean; attained when criterion < limit.
 * Samples are whole numbers as fio's (1000 * delta / elapsed ms, integer).
 * No I/O, no clock: the runner (core/runner.c) feeds it.
 */
#ifndef IOMARK_STATS_STEADY_H
#define IOMARK_STATS_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/spec.h"

/* The criterion bits IOM_SS_IOPS, IOM_SS_SLOPE, IOM_SS_PCT: workload/spec.h. */

struct iom_ss {
    uint32_t state;        /* IOM_SS_* */
    double limit;
    uint32_t dur;          /* samples in the window (ss_dur in seconds) */
    uint32_t head, tail;   /* fio's ring indices */
    bool full, attained;
    uint64_t *iops, *bw;   /* dur samples each, owned */
    uint64_t sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
    double slope, deviation, criterion;
};

/* Set up for `state` and `limit` over dur (>= 1) samples. Returns 0 or
 * -ENOMEM; -EINVAL for dur 0. iom_ss_free releases the arrays. */
int iom_ss_init(struct iom_ss *ss, uint32_t state, double limit, uint32_t dur);
void iom_ss_free(struct iom_ss *ss);

/* Add one second's sample (IOPS, bytes/s); returns true when the criterion
 * is now met (ss->attained). Once attained, further samples are ignored. */
bool iom_ss_add(struct iom_ss *ss, uint64_t iops, uint64_t bw);

/* The window's samples in time order, as fio's JSON "data" arrays list them
 * (stat.c: from head, or from the one before it when the window has wrapped
 * without attaining); out[dur] each. */
void iom_ss_data(const struct iom_ss *ss, uint64_t *iops, uint64_t *bw);

/* fio's means of the window (steadystate_bw_mean/_iops_mean: integer). */
uint64_t iom_ss_iops_mean(const struct iom_ss *ss);
uint64_t iom_ss_bw_mean(const struct iom_ss *ss);

/* fio's name of the criterion with its limit, "iops_slope:0.010000%" (stat.c). */
void iom_ss_name(uint32_t state, double limit, char *buf, unsigned len);

#endif
