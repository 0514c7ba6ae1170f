/* runner.c - worker threads, phases, pacing, per-interval series. */
#include "core/runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "core/offsets.h"
#include "core/verify.h"
#include "engine/engine.h"
#include "probe/devmon.h"
#include "probe/probe.h"

#ifdef _WIN32 /* aligned blocks from _aligned_malloc go back through _aligned_free */
#define posix_memalign(p, a, n) ((*(p) = _aligned_malloc((n), (a))) ? 0 : ENOMEM)
#define buf_free _aligned_free
#else
#define buf_free free
#endif

#define DRAIN_TIMEOUT_NS UINT64_C(10000000000) /* give in-flight I/O 10 s at the end */

uint64_t iom_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until_ns(uint64_t t)
{
    struct timespec ts = {.tv_sec = (time_t)(t / 1000000000u), .tv_nsec = (long)(t % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* State shared by the main thread and the workers. */
struct run_shared {
    int phase;               /* enum iom_phase, atomic */
    int go;                  /* workers start when set */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned nr_ready;       /* workers that finished set-up (ok or not) */
    unsigned nr_finished;    /* workers that stopped on their own (io limit, error) */
    uint64_t start_ns;
    /* The measured window, [meas_start_ns, meas_end_ns) on CLOCK_MONOTONIC,
     * published by the main thread (0 = not yet). A completion is measured
     * when its completion time falls inside; the worker decides once, from
     * that one timestamp, and counts it in its stats, from which both the
     * totals and the series are taken, so each counted I/O is in both. */
    uint64_t meas_start_ns, meas_end_ns;
};

/* Whether a completion at time t (ns) belongs to the measured phase. */
static bool measured_at(struct run_shared *sh, uint64_t t)
{
    uint64_t a = __atomic_load_n(&sh->meas_start_ns, __ATOMIC_ACQUIRE);
    uint64_t b = __atomic_load_n(&sh->meas_end_ns, __ATOMIC_ACQUIRE);
    return a && t >= a && (!b || t < b);
}

struct worker {
    pthread_t tid;
    struct run_shared *sh;
    const struct iom_job *job;
    const struct iom_engine_ops *ops;
    struct iom_target *target;
    struct iom_thread_result *res;   /* stats of this thread (measured phase) */
    struct iom_offgen gen;
    uint64_t *shared_next;
    unsigned target_idx, thread_idx, nr_threads;
    uint64_t seed;
    /* counters for the progress line, all phases; written by the worker only */
    uint64_t ios_all, bytes_all;
    int err;                  /* set-up or fatal I/O error (-errno) */
    char errmsg[256];
    uint64_t err_offset;
    int started;
    /* faults seen (also with --continue_on_error) */
    int first_io_errno;
    uint64_t first_io_offset;
    uint64_t inject_count;
    uint32_t verify_generation;
    uint64_t verified, verify_errors;
    struct iom_verify_mismatch mismatch;
    FILE *latlog;             /* check mode (iom_run_hooks.latency_log) or NULL */
};

static void worker_fail(struct worker *w, int err, const char *what, uint64_t offset)
{
    if (w->err)
        return;
    w->err = err;
    w->err_offset = offset;
    snprintf(w->errmsg, sizeof(w->errmsg), "%s %s thread %u: %s: %s", w->target->path,
             w->ops->name, w->thread_idx, what, strerror(-err));
}

static void signal_ready(struct worker *w)
{
    pthread_mutex_lock(&w->sh->lock);
    w->sh->nr_ready++;
    pthread_cond_broadcast(&w->sh->cond);
    while (!w->sh->go)
        pthread_cond_wait(&w->sh->cond, &w->sh->lock);
    pthread_mutex_unlock(&w->sh->lock);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    const struct iom_job *job = w->job;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the main thread */

    unsigned depth = job->iodepth;
    uint32_t max_bs = (uint32_t)iom_job_max_bs(job);
    struct iom_io *slots = calloc(depth, sizeof(*slots));
    struct iom_io **done = calloc(depth, sizeof(*done));
    unsigned *free_stack = calloc(depth, sizeof(*free_stack));
    void **bufs = calloc(depth, sizeof(*bufs));
    struct iom_engine eng = {0};
    int engine_up = 0;
    struct iom_rng fill;
    iom_rng_seed(&fill, w->seed ^ 0xfeedULL);
    if (!slots || !done || !free_stack || !bufs) {
        worker_fail(w, -ENOMEM, "allocating I/O slots", 0);
        goto ready;
    }
    for (unsigned i = 0; i < depth; i++) {
        if (posix_memalign(&bufs[i], 4096, max_bs)) {
            bufs[i] = NULL;
            worker_fail(w, -ENOMEM, "allocating buffers", 0);
            goto ready;
        }
        /* incompressible write data (or zeros when asked) */
        uint64_t *p = bufs[i];
        for (size_t k = 0; k < max_bs / 8; k++)
            p[k] = job->zero_buffers ? 0 : iom_rng_next(&fill);
        slots[i].buf = bufs[i];
        slots[i].buf_index = (uint16_t)(i < 65535 ? i : 0);
        slots[i].slot = i;
        free_stack[i] = depth - 1 - i;
    }
    int rc = w->ops->init(&eng, depth, w->target->fd, bufs, depth > 65535 ? 0 : depth, max_bs);
    if (rc < 0) {
        worker_fail(w, rc, "engine set-up", 0);
        goto ready;
    }
    engine_up = 1;
ready:
    signal_ready(w);
    if (w->err)
        goto out;

    struct run_shared *sh = w->sh;
    struct iom_io_stats *st = w->res->dir;
    const struct iom_engine_ops *ops = w->ops;
    unsigned nfree = depth, inflight = 0;
    uint64_t issued_bytes = 0;
    uint64_t limit = job->io_limit_bytes;
    /* pacing: I/O k of this thread is due at t0 + k * interval */
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
    const bool paced = rate > 0;
    const double interval_ns = paced ? 1e9 / rate : 0;
    const uint64_t t0 = sh->start_ns;
    const uint64_t verify_seed = job->seed; /* the same in the write run and the read run */
    uint64_t paced_k = 0;
    bool think_due = false;
    uint64_t think_until = 0, burst_ios = 0;
    const uint64_t think_blocks = job->thinktime_blocks ? job->thinktime_blocks : 1;
    uint64_t next_due = t0;

    for (;;) {
        int phase = __atomic_load_n(&sh->phase, __ATOMIC_ACQUIRE);
        if (phase == IOM_PHASE_STOP || w->err)
            break;
        bool limit_hit = limit && issued_bytes >= limit;
        if (limit_hit && inflight == 0)
            break;
        uint64_t now = iom_now_ns();
        if (think_due) { /* a burst is done: drain, then pause */
            if (inflight == 0) {
                uint64_t until = think_until ? think_until : (think_until = now + job->thinktime_ns);
                if (now < until) {
                    sleep_until_ns(until < now + 50000000u ? until : now + 50000000u);
                    continue;
                }
                think_due = false;
                think_until = 0;
                burst_ios = 0;
            }
        }
        unsigned nq = 0;
        bool sync_done = false;
        while (nfree && !limit_hit && !think_due) {
            uint64_t start = now;
            if (paced) {
                if (now < next_due)
                    break;
                start = next_due; /* latency counts from the intended start */
                paced_k++;
                next_due = t0 + (uint64_t)((double)paced_k * interval_ns);
            }
            struct iom_io *io = &slots[free_stack[--nfree]];
            io->len = iom_offgen_bs(&w->gen);
            io->offset = iom_offgen_next(&w->gen, io->len);
            io->is_write = !iom_offgen_is_read(&w->gen);
            io->start_ns = start;
            if (job->verify && io->is_write)
                iom_verify_fill(io->buf, io->len, io->offset, verify_seed, w->verify_generation++);
            issued_bytes += io->len;
            limit_hit = limit && issued_bytes >= limit;
            if (job->thinktime_ns && ++burst_ios >= think_blocks)
                think_due = true;
            rc = ops->queue(&eng, io);
            if (rc == IOM_Q_QUEUED) {
                inflight++;
                nq++;
                continue;
            }
            if (rc == IOM_Q_COMPLETED) {
                uint64_t end = iom_now_ns();
                done[0] = io;
                inflight++;
                /* fall into the completion path below with one event */
                sync_done = true;
                now = end;
                break;
            }
            nfree++;
            issued_bytes -= io->len;
            worker_fail(w, rc, "queueing I/O", io->offset);
            break;
        }
        if (w->err)
            break;
        if (nq) {
            rc = ops->commit(&eng);
            if (rc < 0) {
                worker_fail(w, rc, "submitting I/O", 0);
                break;
            }
        }
        int n;
        uint64_t end;
        if (sync_done) {
            n = 1;
            end = now;
        } else {
            if (inflight == 0) {
                if (paced && !limit_hit) {
                    /* wait for the next due time, but notice a phase change */
                    uint64_t until = next_due;
                    if (until > now + 50000000u)
                        until = now + 50000000u;
                    sleep_until_ns(until);
                }
                continue;
            }
            uint64_t timeout = 0;
            if (paced && nfree && !limit_hit)
                timeout = next_due > now ? next_due - now : 1000;
            n = ops->getevents(&eng, 1, depth, timeout, done);
            if (n < 0) {
                worker_fail(w, n, "reaping completions", 0);
                break;
            }
            end = iom_now_ns();
        }
        bool measuring = measured_at(sh, end); /* one timestamp for the whole batch */
        for (int i = 0; i < n; i++) {
            struct iom_io *io = done[i];
            inflight--;
            free_stack[nfree++] = io->slot;
            if (job->inject_every && ++w->inject_count % job->inject_every == 0)
                io->result = -job->inject_errno;
            if (io->result != (int64_t)io->len) {
                int e = io->result < 0 ? (int)io->result : -EIO;
                int d = io->is_write;
                __atomic_store_n(&st[d].errors, st[d].errors + 1, __ATOMIC_RELAXED);
                if (!w->first_io_errno) {
                    w->first_io_errno = -e;
                    w->first_io_offset = io->offset;
                }
                if (!job->continue_on_error)
                    worker_fail(w, e,
                                io->result < 0 ? (io->is_write ? "write" : "read")
                                               : "short transfer (target truncated?)",
                                io->offset);
                continue;
            }
            if (job->verify && !io->is_write) {
                struct iom_verify_found f;
                enum iom_verify_result vr =
                    iom_verify_check(io->buf, io->len, io->offset, verify_seed, &f);
                w->verified++;
                if (vr != IOM_VERIFY_OK) {
                    if (!w->verify_errors++) {
                        struct iom_verify_mismatch *m = &w->mismatch;
                        m->offset = io->offset;
                        m->kind = (int)vr;
                        m->reason = iom_verify_result_name(vr);
                        m->expected_seed = verify_seed;
                        m->found_offset = f.offset;
                        m->found_seed = f.seed;
                        m->found_generation = f.generation;
                        m->found_len = f.len;
                        m->crc_stored = f.crc_stored;
                        m->crc_computed = f.crc_computed;
                    }
                    if (!job->continue_on_error) {
                        worker_fail(w, -EILSEQ, "verify", io->offset);
                        snprintf(w->errmsg, sizeof(w->errmsg),
                                 "%s: verify failed at byte %llu: %s", w->target->path,
                                 (unsigned long long)io->offset, iom_verify_result_name(vr));
                    }
                    continue;
                }
            }
            __atomic_store_n(&w->ios_all, w->ios_all + 1, __ATOMIC_RELAXED);
            __atomic_store_n(&w->bytes_all, w->bytes_all + io->len, __ATOMIC_RELAXED);
            if (measuring) {
                iom_io_stats_add(&st[io->is_write], io->len, end - io->start_ns);
                if (w->latlog)
                    fprintf(w->latlog, "%llu\n", (unsigned long long)(end - io->start_ns));
            }
        }
    }

    /* drain what is still in flight; it is not counted */
    uint64_t give_up = iom_now_ns() + DRAIN_TIMEOUT_NS;
    while (inflight > 0 && iom_now_ns() < give_up) {
        int n = ops->getevents(&eng, 1, depth, 100000000u, done);
        if (n < 0)
            break;
        inflight -= (unsigned)n;
    }
    pthread_mutex_lock(&sh->lock);
    sh->nr_finished++;
    pthread_cond_broadcast(&sh->cond);
    pthread_mutex_unlock(&sh->lock);
out:
    if (engine_up)
        w->ops->cleanup(&eng);
    if (bufs)
        for (unsigned i = 0; i < depth; i++)
            buf_free(bufs[i]);
    free(bufs);
    free(slots);
    free(done);
    free(free_stack);
    return NULL;
}

/* Sum of the workers' live counters and histograms, for the series. */
struct snapshot {
    uint64_t ios[2], bytes[2], lat_sum_ns;
    uint64_t ios_all, bytes_all;
    struct iom_hist hist;
};

static void take_snapshot(struct worker *ws, unsigned nw, struct snapshot *s, bool with_hist)
{
    memset(s, 0, offsetof(struct snapshot, hist));
    if (with_hist)
        iom_hist_reset(&s->hist);
    for (unsigned i = 0; i < nw; i++) {
        const struct iom_io_stats *d = ws[i].res->dir;
        for (int k = 0; k < 2; k++) {
            s->ios[k] += __atomic_load_n(&d[k].ios, __ATOMIC_RELAXED);
            s->bytes[k] += __atomic_load_n(&d[k].bytes, __ATOMIC_RELAXED);
            s->lat_sum_ns += __atomic_load_n(&d[k].lat_sum_ns, __ATOMIC_RELAXED);
            if (with_hist)
                iom_hist_merge(&s->hist, &d[k].hist);
        }
        s->ios_all += __atomic_load_n(&ws[i].ios_all, __ATOMIC_RELAXED);
        s->bytes_all += __atomic_load_n(&ws[i].bytes_all, __ATOMIC_RELAXED);
    }
}

/* A snapshot of nothing counted: the measured stats start at zero. */
static void zero_snapshot(struct snapshot *s)
{
    memset(s, 0, offsetof(struct snapshot, hist));
    iom_hist_reset(&s->hist);
}

static int add_series_point(struct iom_result *r, const struct snapshot *a,
                            const struct snapshot *b, struct iom_hist *scratch, double t_end_s,
                            double dur_s)
{
    if (r->nr_series == r->series_cap) {
        uint32_t cap = r->series_cap ? r->series_cap * 2 : 64;
        struct iom_series_point *p = realloc(r->series, cap * sizeof(*p));
        if (!p)
            return -ENOMEM;
        r->series = p;
        r->series_cap = cap;
    }
    struct iom_series_point *pt = &r->series[r->nr_series++];
    memset(pt, 0, sizeof(*pt));
    pt->t_end_s = t_end_s;
    pt->dur_s = dur_s;
    uint64_t n = 0;
    for (int k = 0; k < 2; k++) {
        pt->ios[k] = b->ios[k] - a->ios[k];
        pt->bytes[k] = b->bytes[k] - a->bytes[k];
        n += pt->ios[k];
    }
    if (n) {
        pt->lat_mean_us = (double)(b->lat_sum_ns - a->lat_sum_ns) / (double)n / 1e3;
        iom_hist_diff(scratch, &b->hist, &a->hist);
        pt->lat_p99_us = (double)iom_hist_percentile(scratch, 99.0) / 1e3;
    }
    return 0;
}

static const struct iom_engine_ops *pick_engine(const struct iom_job *job, struct iom_result *r)
{
    const struct iom_engine_ops *ops = iom_engine_find(job->ioengine);
    if (!ops)
        return NULL;
    int rc = ops->available();
#ifndef _WIN32 /* Windows has neither; its default engine is iocp */
    if (rc < 0 && ops == &iom_engine_io_uring) {
        snprintf(r->engine_note, sizeof(r->engine_note),
                 "io_uring is unavailable (%s; see sysctl kernel.io_uring_disabled); using libaio",
                 strerror(-rc));
        fprintf(stderr, "iomark: %s\n", r->engine_note);
        ops = &iom_engine_libaio;
        rc = ops->available();
    }
#endif
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

static void set_phase(struct run_shared *sh, enum iom_phase p)
{
    __atomic_store_n(&sh->phase, (int)p, __ATOMIC_RELEASE);
}

int iom_run(const struct iom_job *job, struct iom_target *t, unsigned nr,
            const struct iom_run_hooks *hooks, struct iom_result **out)
{
    *out = NULL;
    struct iom_result *r = calloc(1, sizeof(*r));
    if (!r)
        return -ENOMEM;
    if (iom_job_copy(&r->job, job)) {
        free(r);
        return -ENOMEM;
    }
    *out = r;
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(r->kernel, sizeof(r->kernel), "%s %s", u.sysname, u.release);
        snprintf(r->hostname, sizeof(r->hostname), "%s", u.nodename);
    }
    r->start_time = time(NULL);
    const volatile sig_atomic_t *stop = hooks ? hooks->stop : NULL;

    unsigned per = job->numjobs, nw = nr * per;
    r->nr_targets = nr;
    r->nr_threads = nw;
    r->targets = calloc(nr, sizeof(*r->targets));
    r->threads = calloc(nw, sizeof(*r->threads));
    struct worker *ws = calloc(nw, sizeof(*ws));
    uint64_t *shared_next = calloc(nr, sizeof(*shared_next));
    struct snapshot *snap_a = malloc(sizeof(*snap_a)), *snap_b = malloc(sizeof(*snap_b));
    struct snapshot *snap_prev = malloc(sizeof(*snap_prev)); /* start of the last point */
    struct iom_hist *scratch = malloc(sizeof(*scratch));
    struct iom_devmon *mon = NULL;
    int rc = 0;
    if (!r->targets || !r->threads || !ws || !shared_next || !snap_a || !snap_b || !snap_prev ||
        !scratch) {
        rc = -ENOMEM;
        snprintf(r->error, sizeof(r->error), "out of memory for %u threads", nw);
        goto out;
    }
    for (unsigned i = 0; i < nr; i++) {
        struct iom_target_result *tr = &r->targets[i];
        tr->path = strdup(t[i].path);
        snprintf(tr->devname, sizeof(tr->devname), "%s", t[i].devname);
        tr->is_blockdev = t[i].is_blockdev;
        tr->created = t[i].created;
        tr->sparse = t[i].sparse;
        tr->size_bytes = t[i].size_bytes;
        tr->region_start = t[i].region_start;
        tr->region_len = t[i].region_len;
        tr->unused_tail_bytes = iom_offgen_unused_tail(job, t[i].region_len, job->numjobs);
        tr->logical_block_bytes = t[i].logical_block_bytes;
        iom_io_stats_init(&tr->dir[0]);
        iom_io_stats_init(&tr->dir[1]);
    }
    iom_io_stats_init(&r->total[0]);
    iom_io_stats_init(&r->total[1]);
    mon = probe_targets(r, t, nr);

    const struct iom_engine_ops *ops = pick_engine(job, r);
    if (!ops) {
        if (!r->error[0])
            snprintf(r->error, sizeof(r->error), "unknown engine %s", job->ioengine);
        rc = -EINVAL;
        goto out;
    }

    struct run_shared sh = {.phase = job->ramp_ns ? IOM_PHASE_WARMUP : IOM_PHASE_MEASURE};
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.cond, NULL);
    unsigned started = 0;
    for (unsigned i = 0; i < nw; i++) {
        struct worker *w = &ws[i];
        w->sh = &sh;
        w->job = &r->job;
        w->ops = ops;
        w->target_idx = i / per;
        w->thread_idx = i % per;
        w->nr_threads = per;
        w->target = &t[w->target_idx];
        w->res = &r->threads[i];
        w->res->target_idx = w->target_idx;
        w->res->thread_idx = w->thread_idx;
        iom_io_stats_init(&w->res->dir[0]);
        iom_io_stats_init(&w->res->dir[1]);
        if (hooks && hooks->latency_log) {
            char lp[4200];
            snprintf(lp, sizeof(lp), "%s.%u", hooks->latency_log, i);
            w->latlog = fopen(lp, "w");
        }
        w->seed = (job->seed ? job->seed : UINT64_C(0x5eed10a1)) + i * UINT64_C(0x9e3779b97f4a7c15);
        const char *why = NULL;
        if (iom_offgen_init(&w->gen, &r->job, w->target->region_start, w->target->region_len,
                            w->thread_idx, per, &shared_next[w->target_idx], w->seed, &why)) {
            snprintf(r->error, sizeof(r->error), "target %s: %s", w->target->path, why);
            rc = -EINVAL;
            break;
        }
        if (pthread_create(&w->tid, NULL, worker_main, w) != 0) {
            snprintf(r->error, sizeof(r->error), "cannot start thread %u of %u: %s", i + 1, nw,
                     strerror(errno));
            rc = -EAGAIN;
            break;
        }
        w->started = 1;
        started++;
    }
    /* wait until every started worker has set up */
    pthread_mutex_lock(&sh.lock);
    while (sh.nr_ready < started)
        pthread_cond_wait(&sh.cond, &sh.lock);
    pthread_mutex_unlock(&sh.lock);
    for (unsigned i = 0; i < started && !rc; i++) {
        if (ws[i].err) {
            snprintf(r->error, sizeof(r->error), "%s", ws[i].errmsg);
            rc = ws[i].err;
        }
    }

    const struct iom_run_sync *sync = hooks ? hooks->sync : NULL;
    uint64_t sync_start = 0; /* the agreed start on this clock, 0 = now */
    if (sync) { /* every participant set up, or none starts */
        char why[400] = "";
        int arc = sync->ready(sync->arg, rc, why, sizeof(why), &sync_start);
        if (arc && !rc) {
            rc = arc;
            snprintf(r->error, sizeof(r->error), "%s", why);
        }
        if (!rc && sync_start > iom_now_ns())
            sleep_until_ns(sync_start);
    }
    /* latched events of sync and their instants on this clock */
    bool sync_meas = false, sync_end = false;
    uint64_t sync_meas_at = 0, sync_end_at = 0;
    struct iom_cpu_sample cpu_a, cpu_b;
    uint64_t t_start = sync_start ? sync_start : iom_now_ns(), t_meas = 0, t_meas_end = 0, t_end = 0;
    sh.start_ns = t_start;
    /* Without sync, the measured window as scheduled is published before the
     * workers start: they count by it, so a main thread that wakes late (a
     * busy machine) does not move the phase boundaries. Only an early end
     * (signal, every worker done) is published later, and only moves the end
     * earlier. With sync, the boundaries are published as they are agreed. */
    const uint64_t sched_start = t_start + job->ramp_ns;
    const uint64_t sched_end = job->runtime_ns ? sched_start + job->runtime_ns : 0;
    if (!rc && !sync) {
        __atomic_store_n(&sh.meas_start_ns, sched_start, __ATOMIC_RELEASE);
        __atomic_store_n(&sh.meas_end_ns, sched_end, __ATOMIC_RELEASE);
    }
    if (rc) {
        set_phase(&sh, IOM_PHASE_STOP);
    } else if (sh.phase == IOM_PHASE_MEASURE) {
        t_meas = t_start;
        __atomic_store_n(&sh.meas_start_ns, t_meas, __ATOMIC_RELEASE);
        iom_cpu_sample_take(&cpu_a, NULL);
        iom_devmon_begin(mon);
    }
    pthread_mutex_lock(&sh.lock);
    sh.go = 1;
    pthread_cond_broadcast(&sh.cond);
    pthread_mutex_unlock(&sh.lock);

    uint64_t interval_start = t_meas, next_tick = t_meas + job->series_interval_ns;
    uint64_t prev_interval_start = t_meas; /* start of the last series point */
    if (!rc) {
        zero_snapshot(snap_a); /* nothing is counted before the measured phase */
        zero_snapshot(snap_prev);
        uint64_t last_prog = t_start, prog_ios = 0, prog_bytes = 0;
        const uint64_t runtime = job->runtime_ns;
        for (;;) {
            uint64_t now = iom_now_ns();
            int phase = sh.phase;
            bool all_done = __atomic_load_n(&sh.nr_finished, __ATOMIC_RELAXED) == nw;
            int ev = IOM_RSYNC_NONE, ev_sig = stop ? *stop : 0;
            if (sync) {
                /* the phase boundaries this clock wants, announced lead_ns early */
                uint64_t lead = sync->lead_ns, at = now;
                int wish = IOM_RSYNC_NONE;
                if (stop && *stop) {
                    wish = IOM_RSYNC_STOP;
                } else if (phase == IOM_PHASE_WARMUP && now + lead >= t_start + job->ramp_ns) {
                    wish = IOM_RSYNC_MEASURE;
                    at = t_start + job->ramp_ns;
                } else if (phase == IOM_PHASE_MEASURE && runtime && now + lead >= t_meas + runtime) {
                    wish = IOM_RSYNC_END;
                    at = t_meas + runtime;
                } else if (all_done) {
                    wish = IOM_RSYNC_DONE;
                }
                ev = sync->poll(sync->arg, wish, &ev_sig, &at);
                /* a boundary is published at once, even when it lies ahead:
                 * completions are classified by their own timestamps */
                if (ev == IOM_RSYNC_MEASURE && !sync_meas) {
                    sync_meas = true;
                    sync_meas_at = at;
                    __atomic_store_n(&sh.meas_start_ns, at ? at : 1, __ATOMIC_RELEASE);
                }
                if (ev == IOM_RSYNC_END && !sync_end) {
                    sync_end = true;
                    sync_end_at = at;
                    if (!sync_meas) { /* ended during warm-up: an empty window */
                        sync_meas = true;
                        sync_meas_at = at;
                        __atomic_store_n(&sh.meas_start_ns, at ? at : 1, __ATOMIC_RELEASE);
                    }
                    __atomic_store_n(&sh.meas_end_ns, at ? at : 1, __ATOMIC_RELEASE);
                }
            }
            if (sync ? ev == IOM_RSYNC_STOP : stop && *stop) {
                r->interrupted_signal = sync ? ev_sig : *stop;
                if (sync || phase != IOM_PHASE_WARMUP)
                    break;
                /* in the warm-up: an empty window, unless the measured phase
                 * has begun (then switch to it first, and stop at once) */
                __atomic_store_n(&sh.meas_end_ns, sched_start, __ATOMIC_RELEASE);
                now = iom_now_ns();
                if (now < sched_start)
                    break;
                __atomic_store_n(&sh.meas_end_ns, sched_end, __ATOMIC_RELEASE);
            }
            if (phase == IOM_PHASE_WARMUP &&
                (sync ? sync_meas && now >= sync_meas_at : now >= sched_start || all_done)) {
                /* all workers done early: now; else as scheduled */
                t_meas = sync ? sync_meas_at : now < sched_start ? now : sched_start;
                interval_start = prev_interval_start = t_meas;
                __atomic_store_n(&sh.meas_start_ns, t_meas, __ATOMIC_RELEASE);
                set_phase(&sh, IOM_PHASE_MEASURE);
                next_tick = t_meas + job->series_interval_ns;
                iom_cpu_sample_take(&cpu_a, NULL);
                iom_devmon_begin(mon);
                continue;
            }
            if (phase == IOM_PHASE_MEASURE) {
                bool end = sync ? sync_end && now >= sync_end_at
                                : (runtime && now - t_meas >= runtime) || all_done;
                if (end) {
                    if (sync)
                        now = sync_end_at > t_meas ? sync_end_at : t_meas;
                    /* stop counting first (without sync at the scheduled end
                     * once the runtime is reached); the last series point is
                     * taken once the workers have stopped (below) */
                    t_meas_end = !sync && runtime && now - t_meas >= runtime ? t_meas + runtime : now;
                    __atomic_store_n(&sh.meas_end_ns, t_meas_end, __ATOMIC_RELEASE);
                    set_phase(&sh, job->cooldown_ns && !all_done ? IOM_PHASE_COOLDOWN
                                                                 : IOM_PHASE_STOP);
                    iom_cpu_sample_take(&cpu_b, NULL);
                    if (now > interval_start + 1000000u) /* as the last series point */
                        iom_devmon_tick(mon, (double)(now - t_meas) / 1e9,
                                        (double)(now - interval_start) / 1e9);
                    iom_devmon_end(mon, (double)(t_meas_end - t_meas) / 1e9);
                    if (!job->cooldown_ns || all_done)
                        break;
                    continue;
                }
                if (now >= next_tick) {
                    take_snapshot(ws, nw, snap_b, true);
                    add_series_point(r, snap_a, snap_b, scratch, (double)(now - t_meas) / 1e9,
                                     (double)(now - interval_start) / 1e9);
                    iom_devmon_tick(mon, (double)(now - t_meas) / 1e9,
                                    (double)(now - interval_start) / 1e9);
                    struct snapshot *tmp = snap_prev;
                    snap_prev = snap_a;
                    snap_a = snap_b;
                    snap_b = tmp;
                    prev_interval_start = interval_start;
                    interval_start = now;
                    next_tick += job->series_interval_ns;
                    if (next_tick <= now)
                        next_tick = now + job->series_interval_ns;
                }
            }
            if (phase == IOM_PHASE_COOLDOWN && (now - t_meas_end >= job->cooldown_ns || all_done))
                break;
            if (hooks && hooks->progress && now - last_prog >= 1000000000u) {
                struct snapshot *s = snap_b; /* free scratch space between ticks */
                take_snapshot(ws, nw, s, false);
                double dt = (double)(now - last_prog) / 1e9;
                double total_s = (double)(job->ramp_ns + runtime + job->cooldown_ns) / 1e9;
                struct iom_progress p = {
                    .phase = (enum iom_phase)phase,
                    .elapsed_s = (double)(now - t_start) / 1e9,
                    .remaining_s = runtime ? total_s - (double)(now - t_start) / 1e9 : -1,
                    .iops = (double)(s->ios_all - prog_ios) / dt,
                    .mib_per_s = (double)(s->bytes_all - prog_bytes) / dt / 1048576.0,
                };
                hooks->progress(&p, hooks->arg);
                prog_ios = s->ios_all;
                prog_bytes = s->bytes_all;
                last_prog = now;
            }
            /* sleep until the next event, 50 ms at most so signals are seen */
            uint64_t wake = now + (sync && sync->max_sleep_ns ? sync->max_sleep_ns : 50000000u);
            if (sync && sync_meas && phase == IOM_PHASE_WARMUP && sync_meas_at < wake)
                wake = sync_meas_at;
            if (sync && sync_end && phase == IOM_PHASE_MEASURE && sync_end_at < wake)
                wake = sync_end_at;
            if (phase == IOM_PHASE_MEASURE) {
                if (next_tick < wake)
                    wake = next_tick;
                if (runtime && t_meas + runtime < wake)
                    wake = t_meas + runtime;
            } else if (phase == IOM_PHASE_WARMUP && t_start + job->ramp_ns < wake) {
                wake = t_start + job->ramp_ns;
            } else if (phase == IOM_PHASE_COOLDOWN && t_meas_end + job->cooldown_ns < wake) {
                wake = t_meas_end + job->cooldown_ns;
            }
            if (wake > now)
                sleep_until_ns(wake);
        }
    }
    t_end = iom_now_ns();
    bool cut_short = t_meas && !t_meas_end; /* stopped during the measured phase */
    if (cut_short) {
        t_meas_end = !sync && job->runtime_ns && t_end - t_meas > job->runtime_ns
                         ? t_meas + job->runtime_ns
                         : t_end;
        __atomic_store_n(&sh.meas_end_ns, t_meas_end, __ATOMIC_RELEASE);
        set_phase(&sh, IOM_PHASE_STOP);
        iom_cpu_sample_take(&cpu_b, NULL);
        if (t_end > interval_start + 1000000u) /* as the last series point */
            iom_devmon_tick(mon, (double)(t_end - t_meas) / 1e9,
                            (double)(t_end - interval_start) / 1e9);
        iom_devmon_end(mon, (double)(t_meas_end - t_meas) / 1e9);
    }
    set_phase(&sh, IOM_PHASE_STOP);
    for (unsigned i = 0; i < nw; i++) {
        if (ws[i].started)
            pthread_join(ws[i].tid, NULL);
        if (ws[i].latlog)
            fclose(ws[i].latlog);
    }
    /* The last, possibly short, interval of the series, from the final counts
     * (the workers have stopped), so the series adds up to the totals. A tail
     * of 1 ms or less is not a point of its own (its rate would be noise): it
     * joins the point before it, which is taken again from that point's start. */
    if (t_meas && !rc) {
        take_snapshot(ws, nw, snap_b, true);
        if (t_meas_end > interval_start + 1000000u ||
            (r->nr_series == 0 && t_meas_end > interval_start)) {
            add_series_point(r, snap_a, snap_b, scratch, (double)(t_meas_end - t_meas) / 1e9,
                             (double)(t_meas_end - interval_start) / 1e9);
        } else if (r->nr_series) {
            r->nr_series--;
            add_series_point(r, snap_prev, snap_b, scratch, (double)(t_meas_end - t_meas) / 1e9,
                             (double)(t_meas_end - prev_interval_start) / 1e9);
        }
    }

    r->warmup_ns = t_meas ? t_meas - t_start : t_end - t_start;
    r->measured_ns = t_meas ? t_meas_end - t_meas : 0;
    r->cooldown_ns = t_meas_end ? t_end - t_meas_end : 0;
    if (t_meas)
        iom_cpu_usage_between(&cpu_a, &cpu_b, &r->cpu);
    for (unsigned i = 0; i < nw; i++) {
        struct iom_thread_result *th = &r->threads[i];
        struct iom_target_result *tr = &r->targets[th->target_idx];
        for (int k = 0; k < 2; k++) {
            iom_io_stats_merge(&tr->dir[k], &th->dir[k]);
            iom_io_stats_merge(&r->total[k], &th->dir[k]);
        }
        if (ws[i].first_io_errno && !tr->first_error_errno) {
            tr->first_error_errno = ws[i].first_io_errno;
            tr->first_error_offset = ws[i].first_io_offset;
        }
        if (ws[i].err && !tr->first_error_errno && ws[i].started && ws[i].err != -EILSEQ) {
            tr->first_error_errno = -ws[i].err;
            tr->first_error_offset = ws[i].err_offset;
        }
        if (ws[i].verify_errors && !tr->verify_errors)
            tr->first_mismatch = ws[i].mismatch;
        tr->verified_blocks += ws[i].verified;
        tr->verify_errors += ws[i].verify_errors;
        if (ws[i].err && !r->error[0] && ws[i].started) {
            snprintf(r->error, sizeof(r->error), "%s", ws[i].errmsg);
            if (!rc)
                rc = ws[i].err;
        }
    }
    /* errors counted under --continue_on_error still fail the run */
    uint64_t nr_io_errors = r->total[0].errors + r->total[1].errors, nr_mismatch = 0;
    for (unsigned i = 0; i < nr; i++)
        nr_mismatch += r->targets[i].verify_errors;
    if ((nr_io_errors || nr_mismatch) && !r->error[0]) {
        snprintf(r->error, sizeof(r->error), "%llu I/O error%s and %llu verify mismatch%s%s",
                 (unsigned long long)nr_io_errors, nr_io_errors == 1 ? "" : "s",
                 (unsigned long long)nr_mismatch, nr_mismatch == 1 ? "" : "es",
                 job->continue_on_error ? " (continued on error)" : "");
        if (!rc)
            rc = nr_mismatch ? -EILSEQ : -EIO;
    }
    for (unsigned i = 0; i < nr; i++)
        r->targets[i].device_mon = iom_devmon_take(mon, i);
    pthread_mutex_destroy(&sh.lock);
    pthread_cond_destroy(&sh.cond);
out:
    iom_devmon_free(mon);
    free(ws);
    free(shared_next);
    free(snap_a);
    free(snap_b);
    free(snap_prev);
    free(scratch);
    return rc;
}
