/*
 * pace.h - the per-thread timing of I/O issue: pacing (--rate_iops, --rate:
 * the first I/O at once, I/O k of a thread due at t0 + k / rate, and its
 * latency counts from that intended start, so a stalled device is not
 * hidden: no coordinated omission; job files count from the actual
 * submission as fio: spec.h lat_from_submit, core/worker_int.h iom_io_ready) and think time (fio's thinktime/thinktime_blocks: after every
 * burst of N I/Os, let the queue drain, then pause). Inline: they run once
 * per I/O in the runner's hot loop. Times are CLOCK_MONOTONIC ns.
 */
#ifndef IOMARK_CORE_PACE_H
#define IOMARK_CORE_PACE_H

#include <stdbool.h>
#include <math.h>
#include <stdint.h>

#include "workload/spec.h"

/* One paced stream: every I/O of a thread, or one direction of it. */
struct iom_pace_lane {
    double interval_ns;  /* I/Os per second mode: 1e9 / rate (0: unpaced) */
    double ns_per_byte;  /* bytes per second mode: 1e9 / rate (0: unpaced) */
    double cum_bytes;    /* bytes taken so far (bytes mode) */
    uint64_t k;          /* I/Os taken so far (I/Os mode) */
    uint64_t due;        /* when the lane's next I/O may start */
};

struct iom_pacer {
    bool on;             /* a rate was asked for */
    bool bytes;          /* --rate (bytes/s): pace by each I/O's own size */
    bool poisson;        /* rate_process=poisson: exponential gaps of the same mean (fio) */
    bool dirs;           /* reads and writes each paced on their own (fio's rate=R,W) */
    struct iom_pace_lane lane[2]; /* [0] every I/O (or reads with dirs), [1] writes with dirs */
    uint64_t t0, next_due; /* next_due: the earliest due time of the lanes in use */
    uint64_t rs;         /* the Poisson random state (splitmix64) */
};

/*
 * Set up pacing for job from t0 as fio does (backend.c usec_for_io): the
 * first I/O at once, and an I/O due when the bytes issued before it are
 * within the budget: t0 + bytes so far / rate (rate_bytes_per_s, paced by
 * each I/O's actual size, so a byte cap holds with bssplit), or I/O k at
 * t0 + k / rate_iops. The bytes issued by any time T are within one largest
 * block above rate x T. A mixed job with job->rate_w_bytes_per_s or
 * rate_w_iops paces reads (rate_bytes_per_s/rate_iops, 0 = unpaced) and
 * writes on their own, each direction's first I/O at once; a read-only or
 * write-only job takes its direction's cap. Off when the job sets no rate.
 */
void iom_pacer_init(struct iom_pacer *p, const struct iom_job *job, uint64_t t0);

/*
 * Start the pacing again from t0 (CLOCK_MONOTONIC ns), the measured phase's
 * start after a warm-up: the next I/O of every lane due at t0, I/O k at
 * t0 + k / rate, as fio does when ramp_time ends (backend.c reset_all_stats ->
 * reset_io_counters zeroes rate_io_issue_bytes and rate_next_io_time and
 * moves td->start to now). I/Os the warm-up still owed are dropped, not
 * issued at once in the measured phase, so its first second holds rate x 1 s
 * I/Os (+ those already in flight), not a catch-up burst. The Poisson state
 * goes on.
 */
void iom_pacer_restart(struct iom_pacer *p, uint64_t t0);

/*
 * Whether the next I/O may be issued at `now`; *is_write is its drawn
 * direction. With p->dirs, as fio's io_u.c rate_ddir: the drawn direction
 * when it is due, else the other one when that is due (then *is_write
 * flips), else not yet. next_due tells the caller when to look again.
 */
static inline bool iom_pacer_ready(const struct iom_pacer *p, uint64_t now, bool *is_write)
{
    if (!p->on)
        return true;
    if (!p->dirs)
        return now >= p->next_due;
    if (now >= p->lane[*is_write].due)
        return true;
    if (now >= p->lane[!*is_write].due) {
        *is_write = !*is_write;
        return true;
    }
    return false;
}

/* Take the next I/O (len bytes, is_write its direction, after
 * iom_pacer_ready said yes): its start time, its lane's due time when
 * paced, else now; the lane's next due time moves on by this I/O. */
static inline uint64_t iom_pacer_take(struct iom_pacer *p, uint64_t now, uint64_t len,
                                      bool is_write)
{
    if (!p->on)
        return now;
    struct iom_pace_lane *l = &p->lane[p->dirs && is_write];
    uint64_t start = l->due;
    if (p->poisson) { /* fio io_u.c usec_for_io: gap = mean x -ln(U), U uniform in (0, 1] */
        uint64_t z = (p->rs += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        z ^= z >> 31;
        double u = (double)((z >> 11) + 1) * 0x1.0p-53;
        double mean = p->bytes ? (double)len * l->ns_per_byte : l->interval_ns;
        l->due = start + (uint64_t)(-log(u) * mean);
    } else if (p->bytes) {
        l->cum_bytes += (double)len;
        l->due = p->t0 + (uint64_t)(l->cum_bytes * l->ns_per_byte);
    } else {
        l->k++;
        l->due = p->t0 + (uint64_t)((double)l->k * l->interval_ns);
    }
    p->next_due = p->lane[0].due;
    if (p->dirs && p->lane[1].due < p->next_due)
        p->next_due = p->lane[1].due;
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
