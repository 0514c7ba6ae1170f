/* runner.c - a run: start the workers, take the phases, sample the series
 * and CPU use, collect the result. The per-I/O work is in worker.c; pacing
 * and think time in pace.h; verify and error injection are engine layers
 * (layers.h); the series arithmetic is series.c. */
#include "core/runner.h"
#include "core/jobctl.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/series.h"
#include "core/worker.h"
#include "stats/blockinfo.h"
#include "stats/slog.h"
#include "stats/steady.h"
#include "engine/engine.h"
#include "probe/devmon.h"
#include "probe/probe.h"

#define TICK_MIN_NS 1000000u /* a series tail of 1 ms or less joins the point before */

uint64_t iom_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The main thread's view of a run. */
struct ctl {
    const struct iom_job *job;
    uint64_t delay_ns;      /* the run's start delay (its earliest clone's) */
    struct iom_result *r;
    struct iom_worker *ws;
    unsigned nw;
    struct iom_run_shared *sh;
    struct iom_devmon *mon;
    const struct iom_run_hooks *hooks;
    struct iom_cpu_sample cpu_a, cpu_b;
    uint64_t t_start, t_meas, t_meas_end, t_end; /* 0 = not reached */
    uint64_t interval_start, prev_interval_start, next_tick;
    struct iom_snapshot *a, *b, *prev; /* series: last tick, scratch, the tick before */
    struct iom_hist *scratch;
    uint64_t last_prog, prog_ios, prog_bytes;
    /* phases shared with other processes (hooks->sync): latched events and
     * their instants on this clock */
    const struct iom_run_sync *sync;
    bool sync_meas, sync_end;
    uint64_t sync_meas_at, sync_end_at;
    /* steady state (job->ss_dur_ns; stats/steady.h): r->ss, the next 1 s check, the
     * measured counts and time at the last one; ss_met ends the measured phase */
    uint64_t ss_next, ss_prev_t, ss_prev_ios, ss_prev_bytes;
    bool ss_met;
};

static void set_phase(struct iom_run_shared *sh, enum iom_phase p)
{
    __atomic_store_n(&sh->phase, (int)p, __ATOMIC_RELEASE);
}

static void take_snapshot(const struct ctl *c, struct iom_snapshot *s, bool with_hist)
{
    iom_snapshot_clear(s, with_hist);
    for (unsigned i = 0; i < c->nw; i++)
        iom_snapshot_add(s, c->ws[i].res->dir, __atomic_load_n(&c->ws[i].ios_all, __ATOMIC_RELAXED),
                         __atomic_load_n(&c->ws[i].bytes_all, __ATOMIC_RELAXED), with_hist);
}

/* The engine of the registry the job names, or its fallback when it cannot run here. */
static const struct iom_engine_ops *pick_engine(const struct iom_job *job, struct iom_result *r)
{
    const struct iom_engine_ops *ops = iom_engine_find(job->ioengine);
    if (!ops)
        return NULL;
    int rc = ops->available();
    const struct iom_engine_ops *fb = ops->fallback ? iom_engine_find(ops->fallback) : NULL;
    if (rc < 0 && fb) {
        snprintf(r->engine_note, sizeof(r->engine_note),
                 "%s is unavailable (%s; see sysctl kernel.io_uring_disabled); using %s",
                 ops->name, strerror(-rc), fb->name);
        fprintf(stderr, "iomark: %s\n", r->engine_note);
        ops = fb;
        rc = ops->available();
    }
    if (rc < 0) {
        snprintf(r->error, sizeof(r->error), "engine %s is unavailable: %s", ops->name,
                 strerror(-rc));
        return NULL;
    }
    snprintf(r->engine, sizeof(r->engine), "%s", ops->name);
    return ops;
}

/* Probe each target's stack (controller, limits) into its result and set up
 * the device monitor on the block device under it (live sysfs; a captured
 * root would not describe the devices this run uses). NULL when out of memory. */
static struct iom_devmon *probe_targets(struct iom_result *r, const struct iom_target *t,
                                        unsigned nr)
{
    const char **names = calloc(nr, sizeof(*names)), **notes = calloc(nr, sizeof(*notes));
    struct iom_devmon *mon = NULL;
    struct iom_probe_host host; /* the controller to move to depends on it */
    iom_probe_host("", &host);
    for (unsigned i = 0; names && notes && i < nr; i++) {
        struct iom_probe_target *p = malloc(sizeof(*p));
        if (p && iom_probe_target("", t[i].path, p) != 0) {
            free(p);
            p = NULL;
        }
        if (p)
            snprintf(p->hypervisor, sizeof(p->hypervisor), "%s", host.hypervisor);
        r->targets[i].probe = p;
        names[i] = t[i].devname;
        notes[i] = p && p->note[0] ? p->note : NULL;
    }
    if (names && notes)
        iom_devmon_new(&mon, "", names, notes, nr, 0);
    free(names);
    free(notes);
    return mon;
}

/* A new result for job on t[0..nr): host, targets, empty totals. NULL when out of memory. */
static struct iom_result *result_new(const struct iom_job *job, const struct iom_target *t,
                                     unsigned nr)
{
    struct iom_result *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    if (iom_job_copy(&r->job, job)) {
        free(r);
        return NULL;
    }
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(r->kernel, sizeof(r->kernel), "%s %s", u.sysname, u.release);
        snprintf(r->hostname, sizeof(r->hostname), "%s", u.nodename);
    }
    r->start_time = time(NULL);
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
        r->start_ms = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
    r->nr_targets = nr;
    r->nr_threads = nr * job->numjobs;
    r->targets = calloc(nr, sizeof(*r->targets));
    r->threads = calloc(r->nr_threads, sizeof(*r->threads));
    for (unsigned i = 0; r->targets && i < nr; i++) {
        struct iom_target_result *tr = &r->targets[i];
        tr->path = strdup(t[i].path);
        snprintf(tr->devname, sizeof(tr->devname), "%s", t[i].devname);
        tr->is_blockdev = t[i].is_blockdev;
        tr->created = t[i].created;
        tr->extended = t[i].extended;
        tr->extended_from = t[i].extended_from;
        tr->sparse = t[i].sparse;
        tr->size_bytes = t[i].size_bytes;
        tr->region_start = t[i].region_start;
        tr->region_len = t[i].region_len;
        tr->unused_tail_bytes = iom_offgen_unused_tail(job, t[i].region_len, job->numjobs);
        tr->logical_block_bytes = t[i].logical_block_bytes;
        for (int d = 0; d < IOM_NDIR; d++)
            iom_io_stats_init(&tr->dir[d]);
    }
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_init(&r->total[d]);
    iom_io_stats_init(&r->sync_total);
    return r;
}

/* Start numjobs workers per target and wait until each has set up. 0 or -errno (r->error set). */
static int start_workers(struct ctl *c, struct iom_target *t, const struct iom_engine_ops *ops,
                         uint64_t *shared_next)
{
    struct iom_result *r = c->r;
    unsigned per = c->job->numjobs, started = 0;
    int rc = 0;
    for (unsigned i = 0; i < c->nw && !rc; i++) {
        struct iom_worker *w = &c->ws[i];
        *w = (struct iom_worker){.sh = c->sh, .job = &r->job, .ops = ops, .target_idx = i / per,
                                 .thread_idx = i % per, .nr_threads = per, .res = &r->threads[i]};
        w->target = &t[w->target_idx];
        w->res->target_idx = w->target_idx;
        w->res->thread_idx = w->thread_idx;
        for (int d = 0; d < IOM_NDIR; d++)
            iom_io_stats_init(&w->res->dir[d]);
        iom_io_stats_init(&w->res->sync);
        if (c->job->sample_log && !(w->res->slog = iom_slog_new(c->job->sample_log_avg_ns))) {
            snprintf(r->error, sizeof(r->error), "thread %u: no memory for its sample log", i + 1);
            rc = -ENOMEM;
            break;
        }
        if (c->job->block_info_bs) { /* fio filesetup.c: io_size / bs[DDIR_TRIM] blocks */
            uint64_t nb = w->target->region_len / c->job->block_info_bs;
            if (nb == 0 || nb > IOM_BLOCK_INFO_MAX) {
                snprintf(r->error, sizeof(r->error), "cannot calculate block histogram with %llu "
                         "trim blocks, maximum %u (fio's block_error_percentiles)",
                         (unsigned long long)nb, IOM_BLOCK_INFO_MAX);
                rc = -EINVAL;
                break;
            }
            if (!(w->res->block_infos = calloc(nb, sizeof(uint32_t)))) {
                rc = -ENOMEM;
                break;
            }
            w->res->nr_block_infos = (uint32_t)nb;
        }
        if (c->hooks && c->hooks->latency_log) {
            char lp[4200];
            snprintf(lp, sizeof(lp), "%s.%u", c->hooks->latency_log, i);
            w->latlog = fopen(lp, "w");
        }
        w->seed = (c->job->seed ? c->job->seed : UINT64_C(0x5eed10a1)) +
                  i * UINT64_C(0x9e3779b97f4a7c15);
        w->delay_ns = iom_startdelay_clone(c->job, iom_clone_of(c->job, w->target_idx,
                                                                w->thread_idx)) - c->delay_ns;
        const char *why = NULL;
        if (iom_offgen_init(&w->gen, &r->job, w->target->region_start, w->target->region_len,
                            w->thread_idx, per, &shared_next[w->target_idx], w->seed, &why)) {
            snprintf(r->error, sizeof(r->error), "target %s: %s", w->target->path, why);
            rc = -EINVAL;
        } else if (pthread_create(&w->tid, NULL, iom_worker_main, w) != 0) {
            snprintf(r->error, sizeof(r->error), "cannot start thread %u of %u: %s", i + 1, c->nw,
                     strerror(errno));
            rc = -EAGAIN;
        } else {
            w->started = 1;
            started++;
        }
    }
    pthread_mutex_lock(&c->sh->lock);
    while (c->sh->nr_ready < started)
        pthread_cond_wait(&c->sh->cond, &c->sh->lock);
    pthread_mutex_unlock(&c->sh->lock);
    for (unsigned i = 0; i < started && !rc; i++) {
        if (c->ws[i].err) {
            snprintf(r->error, sizeof(r->error), "%s", c->ws[i].errmsg);
            rc = c->ws[i].err;
        }
    }
    return rc;
}

/* The measured phase begins at `now` (with sync: the agreed instant): publish
 * the window's start, sample CPU and devices. */
static void begin_measure(struct ctl *c, uint64_t now)
{
    c->t_meas = c->interval_start = c->prev_interval_start = now;
    c->next_tick = now + c->job->series_interval_ns;
    __atomic_store_n(&c->sh->meas_start_ns, now, __ATOMIC_RELEASE);
    set_phase(c->sh, IOM_PHASE_MEASURE);
    c->ss_next = now + 1000000000u;
    c->ss_prev_t = now;
    iom_cpu_sample_take(&c->cpu_a, NULL);
    iom_devmon_begin(c->mon, now);
}

/* The measured phase ends at `now`: stop counting first, then sample; next phase `next`. */
static void end_measure(struct ctl *c, uint64_t now, enum iom_phase next)
{
    uint64_t end = now + (next == IOM_PHASE_COOLDOWN ? c->job->cooldown_ns : 0);
    uint64_t sched = __atomic_load_n(&c->sh->end_ns, __ATOMIC_RELAXED);
    if (!sched || end < sched) /* only this thread writes it */
        __atomic_store_n(&c->sh->end_ns, end, __ATOMIC_RELEASE);
    __atomic_store_n(&c->sh->meas_end_ns, now, __ATOMIC_RELEASE);
    set_phase(c->sh, next);
    c->t_meas_end = now;
    iom_cpu_sample_take(&c->cpu_b, NULL);
    if (now > c->interval_start + TICK_MIN_NS) /* as the last series point */
        iom_devmon_tick(c->mon, (double)(now - c->t_meas) / 1e9);
    iom_devmon_end(c->mon, now);
}

/* One series point per interval of the measured phase. */
static void series_tick(struct ctl *c, uint64_t now)
{
    double t_s = (double)(now - c->t_meas) / 1e9, dur_s = (double)(now - c->interval_start) / 1e9;
    take_snapshot(c, c->b, true);
    iom_series_add(c->r, c->a, c->b, c->scratch, t_s, dur_s);
    iom_devmon_tick(c->mon, t_s);
    struct iom_snapshot *tmp = c->prev;
    c->prev = c->a;
    c->a = c->b;
    c->b = tmp;
    c->prev_interval_start = c->interval_start;
    c->interval_start = now;
    c->next_tick += c->job->series_interval_ns;
    if (c->next_tick <= now)
        c->next_tick = now + c->job->series_interval_ns;
}

/* Steady state, once a second of the measured phase (fio steadystate_check, run by
 * its helper thread every second): the IOPS and bytes/s since the last check in
 * whole units (1000 * delta / elapsed ms), recorded from ss_ramp + 1 s on (at once
 * without ss_ramp). The criterion met ends the measured phase (fio terminates the job). */
static void ss_tick(struct ctl *c, uint64_t now)
{
    struct iom_snapshot *s = c->b; /* free scratch space between ticks */
    take_snapshot(c, s, false);
    uint64_t ios = s->ios[0] + s->ios[1] + s->ios[2]; /* every direction, trims too (fio */
    uint64_t bytes = s->bytes[0] + s->bytes[1] + s->bytes[2]; /* steadystate.c: DDIR_RWDIR_CNT) */
    uint64_t ms = (now - c->ss_prev_t) / 1000000u;
    const struct iom_job *job = c->job;
    if (ms && (!job->ss_ramp_ns || now - c->t_meas >= job->ss_ramp_ns + 1000000000u))
        c->ss_met = iom_ss_add(c->r->ss, 1000 * (ios - c->ss_prev_ios) / ms,
                               1000 * (bytes - c->ss_prev_bytes) / ms);
    c->ss_prev_t = now;
    c->ss_prev_ios = ios;
    c->ss_prev_bytes = bytes;
    c->ss_next += 1000000000u;
    if (c->ss_next <= now)
        c->ss_next = now + 1000000000u;
}

/* About once a second: the progress hook with the last second's rates (all
 * phases); IOM_PHASE_STOP: once at the end, the measured phase's rates (the
 * result's), or without one the rates since the last call. */
static void progress(struct ctl *c, uint64_t now, int phase)
{
    if (!c->hooks || !c->hooks->progress || now <= c->last_prog ||
        (phase != IOM_PHASE_STOP && now - c->last_prog < 1000000000u))
        return;
    struct iom_snapshot *s = c->b; /* free scratch space between ticks */
    take_snapshot(c, s, false);
    const struct iom_job *job = c->job;
    double dt = (double)(now - c->last_prog) / 1e9;
    double total_s = (double)(job->ramp_ns + job->runtime_ns + job->cooldown_ns) / 1e9;
    struct iom_progress p = {
        .phase = (enum iom_phase)phase,
        .elapsed_s = (double)(now - c->t_start) / 1e9,
        .remaining_s = job->runtime_ns ? total_s - (double)(now - c->t_start) / 1e9 : -1,
        .iops = (double)(s->ios_all - c->prog_ios) / dt,
        .mib_per_s = (double)(s->bytes_all - c->prog_bytes) / dt / 1048576.0,
    };
    if (phase == IOM_PHASE_STOP && c->t_meas && c->t_meas_end > c->t_meas) {
        double ms = (double)(c->t_meas_end - c->t_meas) / 1e9;
        uint64_t ios = 0, bytes = 0;
        for (int d = 0; d < IOM_NDIR; d++) {
            ios += s->ios[d];
            bytes += s->bytes[d];
        }
        p.iops = (double)ios / ms;
        p.mib_per_s = (double)bytes / ms / 1048576.0;
    }
    c->hooks->progress(&p, c->hooks->arg);
    c->prog_ios = s->ios_all;
    c->prog_bytes = s->bytes_all;
    c->last_prog = now;
}

/* The next event after `now` in `phase`, 50 ms away at most so a stop is seen. */
static uint64_t next_wake(const struct ctl *c, uint64_t now, int phase)
{
    const struct iom_job *job = c->job;
    uint64_t wake = now + (c->sync && c->sync->max_sleep_ns ? c->sync->max_sleep_ns : 50000000u);
    if (c->sync_meas && phase == IOM_PHASE_WARMUP && c->sync_meas_at < wake)
        wake = c->sync_meas_at;
    if (c->sync_end && phase == IOM_PHASE_MEASURE && c->sync_end_at < wake)
        wake = c->sync_end_at;
    if (phase == IOM_PHASE_MEASURE) {
        if (c->next_tick < wake)
            wake = c->next_tick;
        if (job->runtime_ns && c->t_meas + job->runtime_ns < wake)
            wake = c->t_meas + job->runtime_ns;
    } else if (phase == IOM_PHASE_WARMUP && c->t_start + job->ramp_ns < wake) {
        wake = c->t_start + job->ramp_ns;
    } else if (phase == IOM_PHASE_COOLDOWN && c->t_meas_end + job->cooldown_ns < wake) {
        wake = c->t_meas_end + job->cooldown_ns;
    }
    return wake;
}

/* With sync the window's end is published when it is agreed, and on a busy
 * machine that can be after the instant itself (it is announced lead_ns ahead,
 * but a control thread, here or on the coordinator, may be kept waiting past
 * it); completions in between would count until then (a rank paced at 500/s
 * for 1 s did 502). A timed window's end is known as soon as its start is:
 * every participant agrees on start + runtime, or on an earlier instant when
 * all are done. So the end is published with the start, and an agreed end
 * only moves it earlier. */
static void sync_end_by(struct ctl *c, uint64_t end)
{
    uint64_t cur = __atomic_load_n(&c->sh->meas_end_ns, __ATOMIC_ACQUIRE);
    if (!cur || end < cur) /* only this thread writes it */
        __atomic_store_n(&c->sh->meas_end_ns, end, __ATOMIC_RELEASE);
}

/* This clock's wish of a phase boundary (announced lead_ns early) to the
 * coordinator, and the event it decides; MEASURE and END instants are
 * latched and published at once (completions carry their own timestamps). */
static int sync_poll(struct ctl *c, uint64_t now, int phase, bool all_done, int *sig)
{
    const struct iom_job *job = c->job;
    uint64_t lead = c->sync->lead_ns, at = now;
    int wish = IOM_RSYNC_NONE;
    if (*sig) {
        wish = IOM_RSYNC_STOP;
    } else if (phase == IOM_PHASE_WARMUP && now + lead >= c->t_start + job->ramp_ns) {
        wish = IOM_RSYNC_MEASURE;
        at = c->t_start + job->ramp_ns;
    } else if (phase == IOM_PHASE_MEASURE && job->runtime_ns &&
               now + lead >= c->t_meas + job->runtime_ns) {
        wish = IOM_RSYNC_END;
        at = c->t_meas + job->runtime_ns;
    } else if (all_done) {
        wish = IOM_RSYNC_DONE;
    }
    int ev = c->sync->poll(c->sync->arg, wish, sig, &at);
    if ((ev == IOM_RSYNC_MEASURE || ev == IOM_RSYNC_END) && !c->sync_meas) {
        c->sync_meas = true; /* ended during warm-up: an empty window */
        c->sync_meas_at = at;
        __atomic_store_n(&c->sh->meas_start_ns, at ? at : 1, __ATOMIC_RELEASE);
        if (ev == IOM_RSYNC_MEASURE && job->runtime_ns)
            sync_end_by(c, at + job->runtime_ns);
    }
    if (ev == IOM_RSYNC_END && !c->sync_end) {
        c->sync_end = true;
        c->sync_end_at = at;
        sync_end_by(c, at ? at : 1);
    }
    return ev;
}

/* Whether the phase changes now: warm-up -> measured (*at its instant) or
 * measured -> end. Without sync the instants are the scheduled ones, which
 * the workers already count by (see run_phases), however late this thread
 * wakes; only every worker being done ends a phase early, at `now`. */
static bool phase_due(const struct ctl *c, uint64_t now, int phase, bool all_done, uint64_t *at)
{
    const struct iom_job *job = c->job;
    *at = now;
    if (phase == IOM_PHASE_WARMUP) {
        if (c->sync) {
            *at = c->sync_meas_at;
            return c->sync_meas && now >= c->sync_meas_at;
        }
        uint64_t start = c->t_start + job->ramp_ns;
        if (now >= start)
            *at = start;
        return now >= start || all_done;
    }
    if (c->sync) {
        *at = c->sync_end_at > c->t_meas ? c->sync_end_at : c->t_meas;
        return c->sync_end && now >= c->sync_end_at;
    }
    if (job->runtime_ns && now - c->t_meas >= job->runtime_ns) {
        *at = c->t_meas + job->runtime_ns;
        return true;
    }
    return all_done;
}

/* A stop in the warm-up without sync: an empty window, unless the measured
 * phase has begun as scheduled (the workers count by it): then it begins
 * here, and the caller ends it at once (cut short). */
static void stop_in_warmup(struct ctl *c)
{
    uint64_t start = c->t_start + c->job->ramp_ns;
    __atomic_store_n(&c->sh->meas_end_ns, start, __ATOMIC_RELEASE);
    if (iom_now_ns() < start)
        return;
    __atomic_store_n(&c->sh->meas_end_ns, c->job->runtime_ns ? start + c->job->runtime_ns : 0,
                     __ATOMIC_RELEASE);
    begin_measure(c, start);
}

/* Take the phases until the run ends (time, io limit, every worker done, or a stop). */
static void control_loop(struct ctl *c)
{
    const struct iom_job *job = c->job;
    const volatile sig_atomic_t *stop = c->hooks ? c->hooks->stop : NULL;
    for (;;) {
        uint64_t now = iom_now_ns(), at;
        int phase = c->sh->phase, sig = stop ? *stop : 0;
        bool all_done = __atomic_load_n(&c->sh->nr_finished, __ATOMIC_RELAXED) == c->nw ||
                        (c->hooks && c->hooks->end && *c->hooks->end) || c->ss_met;
        if (c->sync ? sync_poll(c, now, phase, all_done, &sig) == IOM_RSYNC_STOP : sig) {
            c->r->interrupted_signal = sig;
            if (!c->sync && phase == IOM_PHASE_WARMUP)
                stop_in_warmup(c);
            return;
        }
        if (phase == IOM_PHASE_WARMUP && phase_due(c, now, phase, all_done, &at)) {
            begin_measure(c, at);
            continue;
        }
        if (phase == IOM_PHASE_MEASURE) {
            if (phase_due(c, now, phase, all_done, &at)) {
                bool cool = job->cooldown_ns && !all_done;
                end_measure(c, at, cool ? IOM_PHASE_COOLDOWN : IOM_PHASE_STOP);
                if (!cool)
                    return;
                continue;
            }
            if (now >= c->next_tick)
                series_tick(c, now);
            if (c->r->ss && now >= c->ss_next) {
                ss_tick(c, now);
                if (c->ss_met)
                    continue; /* ends the measured phase now */
            }
        }
        if (phase == IOM_PHASE_COOLDOWN &&
            (now - c->t_meas_end >= job->cooldown_ns || all_done))
            return;
        progress(c, now, phase);
        uint64_t wake = next_wake(c, now, phase);
        if (wake > now)
            iom_sleep_until_ns(wake);
    }
}

/* The last, possibly short, interval of the series, from the final counts
 * (the workers have stopped), so the series adds up to the totals. A tail
 * of 1 ms or less is not a point of its own (its rate would be noise): it
 * joins the point before it, which is taken again from that point's start. */
static void finish_series(struct ctl *c)
{
    struct iom_result *r = c->r;
    double t_s = (double)(c->t_meas_end - c->t_meas) / 1e9;
    take_snapshot(c, c->b, true);
    if (c->t_meas_end > c->interval_start + TICK_MIN_NS ||
        (r->nr_series == 0 && c->t_meas_end > c->interval_start)) {
        iom_series_add(r, c->a, c->b, c->scratch, t_s,
                       (double)(c->t_meas_end - c->interval_start) / 1e9);
    } else if (r->nr_series) {
        r->nr_series--;
        iom_series_add(r, c->prev, c->b, c->scratch, t_s,
                       (double)(c->t_meas_end - c->prev_interval_start) / 1e9);
    }
}

/* Per-thread stats into the targets and totals; errors and verify findings. Returns rc or the first error. */
static int collect(struct ctl *c, int rc)
{
    struct iom_result *r = c->r;
    for (unsigned i = 0; i < c->nw; i++) {
        const struct iom_worker *w = &c->ws[i];
        struct iom_thread_result *th = &r->threads[i];
        struct iom_target_result *tr = &r->targets[th->target_idx];
        for (int k = 0; k < IOM_NDIR; k++) {
            iom_io_stats_merge(&tr->dir[k], &th->dir[k]);
            iom_io_stats_merge(&r->total[k], &th->dir[k]);
        }
        iom_io_stats_merge(&r->sync_total, &th->sync);
        if (w->first_io_errno && !tr->first_error_errno) {
            tr->first_error_errno = w->first_io_errno;
            tr->first_error_offset = w->first_io_offset;
        }
        if (w->err && !tr->first_error_errno && w->started && w->err != -EILSEQ) {
            tr->first_error_errno = -w->err;
            tr->first_error_offset = w->err_offset;
        }
        if (w->verify_errors && !tr->verify_errors)
            tr->first_mismatch = w->mismatch;
        tr->verified_blocks += w->verified;
        tr->verify_errors += w->verify_errors;
        if (w->err && !r->error[0] && w->started) {
            snprintf(r->error, sizeof(r->error), "%s", w->errmsg);
            if (!rc)
                rc = w->err;
        }
    }
    iom_series_clamp_p99(r);
    /* errors counted under --continue_on_error still fail the run */
    uint64_t nr_io_errors = r->total[0].errors + r->total[1].errors + r->total[2].errors, nr_mismatch = 0;
    for (unsigned i = 0; i < r->nr_targets; i++)
        nr_mismatch += r->targets[i].verify_errors;
    /* fio (job files): errors its continue_on_error let pass are counted
     * (total_err) and the run succeeds */
    if ((nr_io_errors || nr_mismatch) && !r->error[0] && !c->job->fio_errors) {
        snprintf(r->error, sizeof(r->error), "%llu I/O error%s and %llu verify mismatch%s%s",
                 (unsigned long long)nr_io_errors, nr_io_errors == 1 ? "" : "s",
                 (unsigned long long)nr_mismatch, nr_mismatch == 1 ? "" : "es",
                 c->job->continue_on_error ? " (continued on error)" : "");
        if (!rc)
            rc = nr_mismatch ? -EILSEQ : -EIO;
    }
    return rc;
}

/* Go (with sync: when every participant is ready), take the phases, stop
 * and join the workers, close the measured window. Returns rc or the
 * coordinator's refusal. */
static int run_phases(struct ctl *c, int rc)
{
    uint64_t sync_start = 0; /* the agreed start on this clock, 0 = now */
    if (c->sync) {          /* every participant set up, or none starts */
        char why[400] = "";
        int arc = c->sync->ready(c->sync->arg, rc, why, sizeof(why), &sync_start);
        if (arc && !rc) {
            rc = arc;
            snprintf(c->r->error, sizeof(c->r->error), "%s", why);
        }
        if (!rc && sync_start > iom_now_ns())
            iom_sleep_until_ns(sync_start);
    }
    if (!c->sync && c->hooks && c->hooks->before_start)
        sync_start = c->hooks->before_start(c->hooks->before_start_arg);
    c->t_start = c->last_prog = sync_start ? sync_start : iom_now_ns();
    c->sh->start_ns = c->t_start;
    if (!rc && !c->sync) {
        /* The measured window as scheduled, published before the workers
         * start: they count by it, so a control thread that wakes late (a
         * busy machine) does not stretch the warm-up or the measured phase.
         * An early end (a stop, every worker done) only moves the end
         * earlier. With sync, boundaries are published as they are agreed. */
        uint64_t start = c->t_start + c->job->ramp_ns;
        __atomic_store_n(&c->sh->meas_start_ns, start, __ATOMIC_RELEASE);
        __atomic_store_n(&c->sh->meas_end_ns, c->job->runtime_ns ? start + c->job->runtime_ns : 0,
                         __ATOMIC_RELEASE);
        __atomic_store_n(&c->sh->end_ns,
                         c->job->runtime_ns ? start + c->job->runtime_ns + c->job->cooldown_ns : 0,
                         __ATOMIC_RELEASE);
    }
    if (rc)
        set_phase(c->sh, IOM_PHASE_STOP);
    else if (c->sh->phase == IOM_PHASE_MEASURE) {
        begin_measure(c, c->t_start);
        if (c->sync) { /* no warm-up: the agreed start is the window's (an END announced
                        * lead_ns early must not move it, as it does for a warm-up that
                        * never reached its MEASURE) */
            c->sync_meas = true;
            c->sync_meas_at = c->t_start;
            if (c->job->runtime_ns)
                sync_end_by(c, c->t_start + c->job->runtime_ns);
        }
    }
    pthread_mutex_lock(&c->sh->lock);
    c->sh->go = 1;
    pthread_cond_broadcast(&c->sh->cond);
    pthread_mutex_unlock(&c->sh->lock);
    iom_snapshot_clear(c->a, true); /* nothing is counted before the measured phase */
    iom_snapshot_clear(c->prev, true);
    if (!rc)
        control_loop(c);
    c->t_end = iom_now_ns();
    uint64_t sched_end = __atomic_load_n(&c->sh->end_ns, __ATOMIC_RELAXED);
    if (sched_end && c->t_end > sched_end) /* the workers stopped there (main thread late) */
        c->t_end = sched_end;
    if (c->t_meas && !c->t_meas_end) { /* stopped during the measured phase */
        uint64_t end = c->t_end;         /* (unless it had ended as scheduled) */
        if (!c->sync && c->job->runtime_ns && end - c->t_meas > c->job->runtime_ns)
            end = c->t_meas + c->job->runtime_ns;
        uint64_t pub = __atomic_load_n(&c->sh->meas_end_ns, __ATOMIC_ACQUIRE);
        if (c->sync && pub > c->t_meas && end > pub) /* the workers counted up to it */
            end = pub;
        end_measure(c, end, IOM_PHASE_STOP);
    }
    set_phase(c->sh, IOM_PHASE_STOP);
    if (c->sync) { /* while the threads finish their last I/Os (the drain of what is in
                    * flight, end_fsync, a verify phase: seconds on a busy disk), keep the
                    * coordinator's messages flowing, its signs of life (as tpcc's join_vu) */
        uint64_t step = c->sync->max_sleep_ns ? c->sync->max_sleep_ns : 50000000u;
        for (unsigned i = 0; i < c->nw; i++)
            while (c->ws[i].started && !__atomic_load_n(&c->ws[i].exited, __ATOMIC_ACQUIRE)) {
                uint64_t at = iom_now_ns();
                int sig = 0;
                c->sync->poll(c->sync->arg, IOM_RSYNC_NONE, &sig, &at);
                iom_sleep_until_ns(iom_now_ns() + step);
            }
    }
    for (unsigned i = 0; i < c->nw; i++) {
        if (c->ws[i].started)
            pthread_join(c->ws[i].tid, NULL);
        if (c->ws[i].latlog)
            fclose(c->ws[i].latlog);
        iom_offgen_free(&c->ws[i].gen);
    }
    if (c->t_meas && !rc)
        finish_series(c);
    if (!rc)
        progress(c, c->t_end, IOM_PHASE_STOP); /* the measured phase's rates */
    struct iom_result *r = c->r;
    r->warmup_ns = c->t_meas ? c->t_meas - c->t_start : c->t_end - c->t_start;
    r->measured_ns = c->t_meas ? c->t_meas_end - c->t_meas : 0;
    r->cooldown_ns = c->t_meas_end ? c->t_end - c->t_meas_end : 0;
    uint64_t m0 = c->sh->meas_start_ns; /* each thread's own runtime (fio's per-clone runtime) */
    for (unsigned i = 0; i < c->nw; i++) {
        const struct iom_worker *w = &c->ws[i];
        uint64_t b = m0 + w->delay_ns; /* its clone's start (after a startdelay's rest) */
        uint64_t own = w->own_stop && w->last_done_ns > b ? w->last_done_ns - b : UINT64_MAX;
        uint64_t meas = r->measured_ns > w->delay_ns ? r->measured_ns - w->delay_ns : 0;
        r->threads[i].runtime_ns = own < meas ? own : meas;
        uint64_t wr = w->verify_start_ns > b ? w->verify_start_ns - b : 0; /* its writes' */
        if (w->verify_start_ns && r->threads[i].runtime_ns > wr)
            r->threads[i].verify_ns = r->threads[i].runtime_ns - wr;
        r->threads[i].start_delay_ns = w->delay_ns;
    }
    if (c->t_meas)
        iom_cpu_usage_between(&c->cpu_a, &c->cpu_b, &r->cpu);
    if (c->t_meas)
        iom_cpu_topology(&r->cpu, NULL);
    return rc;
}

int iom_run(const struct iom_job *job, struct iom_target *t, unsigned nr,
            const struct iom_run_hooks *hooks, struct iom_result **out)
{
    return iom_run_ops(job, t, nr, hooks, NULL, out);
}

int iom_run_ops(const struct iom_job *job, struct iom_target *t, unsigned nr,
                const struct iom_run_hooks *hooks, const struct iom_engine_ops *ops,
                struct iom_result **out)
{
    /* fio's startdelay: the job (and its warm-up) begins after it (core/jobctl.h) */
    uint64_t delay = iom_startdelay_pick(job);
    int dsig = delay ? iom_startdelay_wait(delay, hooks ? hooks->stop : NULL,
                                           hooks ? hooks->end : NULL) : 0;
    struct iom_result *r = *out = result_new(job, t, nr);
    if (!r)
        return -ENOMEM;
    if (dsig) { /* stopped (or ended by another job) before it started: nothing measured */
        r->interrupted_signal = dsig > 0 ? dsig : 0;
        return 0;
    }
    struct iom_run_shared sh = {.phase = job->ramp_ns ? IOM_PHASE_WARMUP : IOM_PHASE_MEASURE};
    struct ctl c = {.job = job, .delay_ns = delay, .r = r, .nw = r->nr_threads, .sh = &sh,
                    .hooks = hooks,
                    .sync = hooks ? hooks->sync : NULL};
    c.ws = calloc(c.nw, sizeof(*c.ws));
    uint64_t *shared_next = calloc(nr, sizeof(*shared_next));
    c.a = malloc(sizeof(*c.a));
    c.b = malloc(sizeof(*c.b));
    c.prev = malloc(sizeof(*c.prev));
    c.scratch = malloc(sizeof(*c.scratch));
    int rc = 0;
    if (job->ss_dur_ns && !c.sync) { /* fio: whole seconds of samples (o->ss_dur /= 10^6 us) */
        r->ss = calloc(1, sizeof(*r->ss));
        if (!r->ss || iom_ss_init(r->ss, job->ss_state, job->ss_limit,
                                  (uint32_t)(job->ss_dur_ns / 1000000000u))) {
            snprintf(r->error, sizeof(r->error), "out of memory for the steady-state window");
            rc = -ENOMEM;
            goto out;
        }
    }
    if (!r->targets || !r->threads || !c.ws || !shared_next || !c.a || !c.b || !c.prev ||
        !c.scratch) {
        snprintf(r->error, sizeof(r->error), "out of memory for %u threads", c.nw);
        rc = -ENOMEM;
        goto out;
    }
    c.mon = probe_targets(r, t, nr);
    if (!ops)
        ops = pick_engine(job, r);
    else
        snprintf(r->engine, sizeof(r->engine), "%s", ops->name);
    if (!ops) {
        if (!r->error[0])
            snprintf(r->error, sizeof(r->error), "unknown engine %s", job->ioengine);
        rc = -EINVAL;
        goto out;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.cond, NULL);
    rc = start_workers(&c, t, ops, shared_next);
    /* fio's clones of a startdelay range start apart, each for its own runtime: the
     * run's schedule runs until the last one ends (each thread stops at its own) */
    uint64_t spread = 0;
    for (unsigned i = 0; i < c.nw; i++)
        spread = c.ws[i].delay_ns > spread ? c.ws[i].delay_ns : spread;
    struct iom_job sched;
    if (spread && job->runtime_ns) {
        sched = *job;
        sched.runtime_ns += spread;
        c.job = &sched;
    }
    rc = run_phases(&c, rc);
    rc = collect(&c, rc);
    for (unsigned i = 0; i < nr; i++)
        r->targets[i].device_mon = iom_devmon_take(c.mon, i);
    pthread_mutex_destroy(&sh.lock);
    pthread_cond_destroy(&sh.cond);
out:
    iom_devmon_free(c.mon);
    free(c.ws);
    free(shared_next);
    free(c.a);
    free(c.b);
    free(c.prev);
    free(c.scratch);
    return rc;
}
