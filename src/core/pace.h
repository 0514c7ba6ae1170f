/*
 * pace.h - the per-thread timing of I/O issue: pacing (--rate_iops, --rate:
 * I/O k of a thread is due at t0 + k / rate, and its latency counts from
 * that intended start, so a stalled device is not hidden: no coordinated
 * omission) and think time (fio's thinktime/thinktime_blocks: after every
 * burst of N I/Os, let the queue drain, then pause). Inline: they run once
 * per I/O in the runner's hot loop. Times are CLOCK_MONOTONIC ns.
 */
#ifndef IOMARK_CORE_PACE_H
#define IOMARK_CORE_PACE_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>

#include "workload/spec.h"

struct iom_pacer {
    bool on;             /* a rate was asked for */
    bool bytes;          /* --rate (bytes/s): pace by each I/O's own size */
    double interval_ns;  /* --rate_iops: 1e9 / I/Os per second */
    double ns_per_byte;  /* --rate: 1e9 / bytes per second */
    double cum_bytes;    /* bytes taken so far (bytes mode) */
    uint64_t t0, k, next_due;
    bool poisson;        /* rate_process=poisson: exponential gaps of the same mean (fio) */
    uint64_t rs;         /* its random state (splitmix64) */
};

/*
 * Set up pacing for job from t0: rate_iops (I/O k due at t0 + k / rate), or
 * rate_bytes_per_s paced by the actual size of each I/O, so a byte cap holds
 * with mixed sizes (--bssplit) as fio's rate= does (fio HOWTO, "rate": the
 * cap is in bytes). Off when the job sets neither.
 */
void iom_pacer_init(struct iom_pacer *p, const struct iom_job *job, uint64_t t0);

/*
 * Whether the next I/O, of len bytes, may be issued at `now`. In bytes mode
 * an I/O is due when the byte budget reaches its middle: t0 + (bytes taken +
 * len / 2) / rate, so the bytes issued by any time T are within half the
 * largest block of rate x T (neither always over nor always under). Sets
 * next_due for the caller's sleep.
 */
static inline bool iom_pacer_ready(struct iom_pacer *p, uint64_t now, uint64_t len)
{
    if (!p->on)
        return true;
    if (p->bytes && !p->poisson)
        p->next_due = p->t0 + (uint64_t)((p->cum_bytes + (double)len / 2) * p->ns_per_byte);
    return now >= p->next_due;
}

/* Take the next I/O (len bytes, after iom_pacer_ready said yes): its start
 * time, its due time when paced, else now. In bytes mode next_due becomes a
 * lower bound of the following I/O's due time (its size is not known yet). */
static inline uint64_t iom_pacer_take(struct iom_pacer *p, uint64_t now, uint64_t len)
{
    if (!p->on)
        return now;
    uint64_t start = p->next_due;
    if (p->poisson) { /* fio io_u.c usec_for_io: gap = mean x -ln(U), U uniform in (0, 1] */
        uint64_t z = (p->rs += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        z ^= z >> 31;
        double u = (double)((z >> 11) + 1) * 0x1.0p-53;
        double mean = p->bytes ? (double)len * p->ns_per_byte : p->interval_ns;
        p->next_due = start + (uint64_t)(-log(u) * mean);
        return start;
    }
    if (p->bytes) {
        p->cum_bytes += (double)len;
        p->next_due = p->t0 + (uint64_t)(p->cum_bytes * p->ns_per_byte);
        return start;
    }
    p->k++;
    p->next_due = p->t0 + (uint64_t)((double)p->k * p->interval_ns);
    return start;
}

struct iom_think {
    uint64_t ns, blocks;  /* pause length; I/Os per burst (>= 1) */
    uint64_t burst;       /* I/Os issued in this burst */
    uint64_t until;       /* end of the current pause, 0 before it starts */
    bool due;             /* the burst is complete: drain, then pause */
};

/* Think time of job (off when thinktime is 0). */
void iom_think_init(struct iom_think *t, const struct iom_job *job);

/* Count one issued I/O; the burst may become complete. */
static inline void iom_think_issued(struct iom_think *t)
{
    if (t->ns && ++t->burst >= t->blocks)
        t->due = true;
}

/*
 * With a complete burst and `inflight` I/Os still out: 0 when issuing may
 * go on (no burst due, or the pause is over: a new burst starts), else the
 * time to sleep until (the pause's end, at most 50 ms ahead so a phase
 * change is noticed; `now` itself while the queue drains).
 */
uint64_t iom_think_wait(struct iom_think *t, unsigned inflight, uint64_t now);

#endif
