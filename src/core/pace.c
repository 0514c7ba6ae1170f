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

void iom_pacer_init(struct iom_pacer *p, const struct iom_job *job, uint64_t t0)
{
    p->bytes = job->rate_bytes_per_s > 0;
    p->ns_per_byte = p->bytes ? 1e9 / (double)job->rate_bytes_per_s : 0;
    p->interval_ns = job->rate_iops ? 1e9 / (double)job->rate_iops : 0;
    p->on = p->bytes || job->rate_iops > 0;
    p->cum_bytes = 0;
    p->t0 = p->next_due = t0;
    p->k = 0;
    p->poisson = job->rate_poisson;
    p->rs = job->seed ^ UINT64_C(0x9015500);
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
