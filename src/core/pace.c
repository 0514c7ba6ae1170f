/* pace.c - pacing and think time set-up (pace.h). */
#include "core/pace.h"

#include <errno.h>
#include <time.h>

#include "core/worker.h" /* iom_sleep_until_ns */

void iom_sleep_until_ns(uint64_t t)
{
    struct timespec ts = {.tv_sec = (time_t)(t / 1000000000u), .tv_nsec = (long)(t % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* A lane's schedule from t0: nothing taken yet, the first I/O due at t0. */
static void lane_start(struct iom_pace_lane *l, uint64_t t0)
{
    l->cum_bytes = 0;
    l->k = 0;
    l->due = t0;
}

static void lane_init(struct iom_pace_lane *l, uint64_t bytes_per_s, uint64_t iops, uint64_t t0)
{
    l->ns_per_byte = bytes_per_s ? 1e9 / (double)bytes_per_s : 0;
    l->interval_ns = iops ? 1e9 / (double)iops : 0;
    lane_start(l, t0);
}

void iom_pacer_init(struct iom_pacer *p, const struct iom_job *job, uint64_t t0)
{
    uint32_t rp = iom_job_read_pct(job);
    bool wcap = job->rate_w_bytes_per_s || job->rate_w_iops;
    p->bytes = job->rate_bytes_per_s || job->rate_w_bytes_per_s;
    p->on = p->bytes || job->rate_iops || job->rate_w_iops;
    p->dirs = wcap && rp > 0 && rp < 100;
    if (wcap && rp == 0) /* writes only: the writes' cap */
        lane_init(&p->lane[0], job->rate_w_bytes_per_s, job->rate_w_iops, t0);
    else
        lane_init(&p->lane[0], job->rate_bytes_per_s, job->rate_iops, t0);
    lane_init(&p->lane[1], job->rate_w_bytes_per_s, job->rate_w_iops, t0);
    if (wcap && rp == 100 && !job->rate_bytes_per_s && !job->rate_iops)
        p->on = false; /* reads only, and only writes capped */
    p->t0 = p->next_due = t0;
    p->poisson = job->rate_poisson;
    p->rs = job->seed ^ UINT64_C(0x9015500);
}

void iom_pacer_restart(struct iom_pacer *p, uint64_t t0)
{
    lane_start(&p->lane[0], t0);
    lane_start(&p->lane[1], t0);
    p->t0 = p->next_due = t0;
}

void iom_think_init(struct iom_think *t, const struct iom_job *job)
{
    t->ns = job->thinktime_ns;
    t->blocks = job->thinktime_blocks ? job->thinktime_blocks : 1;
    t->burst = t->until = 0;
    t->due = false;
}

uint64_t iom_think_wait(struct iom_think *t, unsigned inflight, uint64_t now)
{
    if (!t->due)
        return 0;
    if (inflight)
        return now; /* drain first: reap, do not issue */
    if (!t->until)
        t->until = now + t->ns;
    if (now < t->until)
        return t->until < now + 50000000u ? t->until : now + 50000000u;
    t->due = false;
    t->until = 0;
    t->burst = 0;
    return 0;
}
