/* lattarget.c - fio's latency_target queue-depth search (lattarget.h). */
#include "core/lattarget.h"

void iom_lt_cycle(struct iom_lat_target *lt, uint64_t now)
{
    lt->cycle_start_ns = now;
    lt->ios = 0;
    lt->failed = 0;
}

void iom_lt_init(struct iom_lat_target *lt, const struct iom_job *job, uint64_t now)
{
    lt->qd = 1;
    lt->qd_low = 1;
    lt->iodepth = job->iodepth ? job->iodepth : 1;
    lt->qd_high = lt->iodepth;
    lt->stable = 0;
    lt->end_run = false;
    lt->run = job->latency_run;
    lt->pct = job->latency_pct;
    lt->target_ns = job->latency_target_ns;
    lt->window_ns = job->latency_window_ns;
    iom_lt_cycle(lt, now);
}

/* fio __lat_target_failed: at depth 1 there is nowhere to go (false). */
static bool ramp_down(struct iom_lat_target *lt)
{
    if (lt->qd == 1)
        return false;
    lt->qd_high = lt->qd;
    if (lt->qd == lt->qd_low)
        lt->qd_low--;
    lt->qd = (lt->qd + lt->qd_low) / 2;
    lt->stable = 0;
    return true;
}

enum iom_lt_action iom_lt_step(struct iom_lat_target *lt, bool success)
{
    if (!success) /* fio keeps the window running at depth 1 (no new cycle) */
        return ramp_down(lt) ? IOM_LT_QUIESCE : IOM_LT_GO;
    uint32_t qd = lt->qd;
    lt->qd_low = lt->qd;
    /* fio: three successes in a row just below the failing depth raise it by one */
    if (lt->qd + 1 == lt->qd_high && ++lt->stable >= 3) {
        lt->qd_high++;
        lt->stable = 0;
    }
    /* double up to a failing depth; once one failed, bisect towards it */
    if (lt->qd_high != lt->iodepth)
        lt->qd = (lt->qd + lt->qd_high) / 2;
    else
        lt->qd *= 2;
    if (lt->qd > lt->iodepth)
        lt->qd = lt->iodepth;
    if (!lt->run && lt->qd == qd) {
        if (lt->end_run)
            return IOM_LT_DONE;
        lt->end_run = true; /* one more window at this depth only */
        return IOM_LT_QUIESCE;
    }
    return IOM_LT_GO;
}

enum iom_lt_action iom_lt_complete(struct iom_lat_target *lt, uint64_t lat_ns, bool *fatal)
{
    lt->ios++;
    if (lat_ns <= lt->target_ns)
        return IOM_LT_GO;
    if (lt->pct < 100.0) {
        lt->failed++;
        return IOM_LT_GO;
    }
    if (ramp_down(lt))
        return IOM_LT_QUIESCE;
    *fatal = true;
    return IOM_LT_GO;
}

enum iom_lt_action iom_lt_window(struct iom_lat_target *lt, uint64_t now)
{
    /* fio compares whole microseconds (utime_since_now < latency_window) */
    if ((now - lt->cycle_start_ns) / 1000 < lt->window_ns / 1000 || !lt->ios)
        return IOM_LT_GO;
    double ok = (double)(lt->ios - lt->failed) / (double)lt->ios * 100.0;
    enum iom_lt_action a = iom_lt_step(lt, ok >= lt->pct);
    if (a == IOM_LT_GO && ok >= lt->pct)
        iom_lt_cycle(lt, now); /* fio lat_new_cycle after a success */
    return a;
}
