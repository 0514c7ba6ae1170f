/* pace.c - pacing and think time set-up (pace.h). */
#include "core/pace.h"

void iom_pacer_init(struct iom_pacer *p, const struct iom_job *job, uint64_t t0)
{
    double rate = (double)job->rate_iops;
    if (job->rate_bytes_per_s) {
        double avg_bs = (double)job->bs_bytes;
        if (job->nr_bssplit) {
            avg_bs = 0;
            for (uint32_t i = 0; i < job->nr_bssplit; i++)
                avg_bs += (double)job->bssplit[i].bs_bytes * job->bssplit[i].pct / 100.0;
        }
        rate = (double)job->rate_bytes_per_s / avg_bs;
    }
    p->on = rate > 0;
    p->interval_ns = p->on ? 1e9 / rate : 0;
    p->t0 = p->next_due = t0;
    p->k = 0;
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
