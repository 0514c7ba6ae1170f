/* worker.c - one worker thread: issue, reap, count (worker.h). */
#include "core/worker.h"
#include "core/worker_int.h"
#include "core/abuf.h"
#include "core/ioerr.h" /* iom_ddir_name */
#include "core/ioevents.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifndef _WIN32
#include <sched.h>
#include <unistd.h>
#endif

#include "core/bufgen.h"
#include "core/cmdprio.h"
#include "core/jobctl.h"
#include "core/lattarget.h"
#include "core/layers.h"
#include "core/pace.h"
#include "core/verify.h"
#include "core/vlog.h"
#include "stats/slog.h"

#define DRAIN_TIMEOUT_NS UINT64_C(10000000000) /* give in-flight I/O 10 s at the end */
#define POLL_NS UINT64_C(50000000)             /* notice a phase change within 50 ms */

static inline bool after_warmup(struct iom_run_shared *sh)
{
    return __atomic_load_n(&sh->phase, __ATOMIC_ACQUIRE) != IOM_PHASE_WARMUP;
}

/* Whether a completion at time t (ns) belongs to the measured phase. */
static inline bool measured_at(struct iom_run_shared *sh, uint64_t t)
{
    uint64_t a = __atomic_load_n(&sh->meas_start_ns, __ATOMIC_ACQUIRE);
    uint64_t b = __atomic_load_n(&sh->meas_end_ns, __ATOMIC_ACQUIRE);
    return a && t >= a && (!b || t < b);
}

/* The scheduled end of the run (0 = none): the worker stops issuing there. */
static inline uint64_t run_end(struct iom_run_shared *sh)
{
    return __atomic_load_n(&sh->end_ns, __ATOMIC_ACQUIRE);
}

/* This thread's measured phase's start: the run's window moved by its clone's
 * delay; 0 while not yet known (with sync it is published when agreed). */
static inline uint64_t own_meas_start(const struct iom_worker *w)
{
    uint64_t a = __atomic_load_n(&w->sh->meas_start_ns, __ATOMIC_ACQUIRE);
    return a ? a + w->delay_ns : 0;
}

/* When the next paced I/O is due: the lanes' next due time, or in the warm-up
 * the measured phase's start if that comes first (pacing starts again there). */
static inline uint64_t pace_due(const struct iom_worker *w, const struct wctx *c)
{
    uint64_t due = c->pace.next_due;
    if (__builtin_expect(c->pace_warm, 0)) {
        uint64_t m = own_meas_start(w);
        if (m && m < due)
            due = m;
    }
    return due;
}

/* Sleep until t, but not past the run's scheduled end. */
static void nap_until(struct iom_run_shared *sh, uint64_t t)
{
    uint64_t end = run_end(sh);
    iom_sleep_until_ns(end && end < t ? end : t);
}

void iom_worker_fail(struct iom_worker *w, int err, const char *what, uint64_t offset)
{
    if (w->err)
        return;
    w->err = err;
    w->err_offset = offset;
    snprintf(w->errmsg, sizeof(w->errmsg), "%s %s thread %u: %s: %s", w->target->path,
             w->ops->name, w->thread_idx, what, strerror(-err));
}

/* The device engine, under the inject layer, under the verify layer, as the job asks. */
static void stack_engine(struct wctx *c, const struct iom_job *job, const struct iom_engine_ops *dev,
                         const char *path, unsigned thread)
{
    const struct iom_engine_ops *ops = dev;
    void *priv = NULL;
    c->eng = (struct iom_engine){.ops = dev};
    if (job->inject_every) {
        c->inject.inject_errno = job->inject_errno;
        c->inject.inject_every = job->inject_every;
        c->inject.inner.priv = priv;
        iom_layer_make(&c->eng, &iom_layer_inject, ops, &c->inject);
        ops = &iom_layer_inject;
        priv = &c->inject;
    }
    if (job->verify) {
        c->verify.seed = job->seed; /* the same in the write run and the read run */
        c->verify.pat = job->verify_pat; /* verify_pattern: the pattern, not the header */
        c->verify.pat_len = job->verify_pat_len;
        c->verify.interval = job->verify_interval;
        iom_layer_verify_fio(&c->verify, job, dev->name);
        c->verify.thread = (uint16_t)(thread + 1);
        c->verify.dump_path = job->verify_dump ? path : NULL;
        c->verify.inner.priv = priv;
        iom_layer_make(&c->eng, &iom_layer_verify, ops, &c->verify);
    }
}

/* Slots, buffers (incompressible data, or zeros) and the engine. */
static void worker_setup(struct iom_worker *w, struct wctx *c)
{
    const struct iom_job *job = w->job;
    unsigned depth = c->depth = job->iodepth;
    uint32_t max_bs = (uint32_t)iom_job_max_bs(job);
    struct iom_rng *fill = &c->fill;
    iom_rng_seed(fill, w->seed ^ 0xfeedULL);
    char why[200];
    int prc = iom_place_thread(job, w->target_idx * w->nr_threads + w->thread_idx, why,
                               sizeof(why));
    if (prc) { /* before the buffers, so they follow the memory policy */
        iom_worker_fail(w, prc, why, 0);
        return;
    }
    c->slots = calloc(depth, sizeof(*c->slots));
    c->done = calloc(depth, sizeof(*c->done));
    c->free_stack = calloc(depth, sizeof(*c->free_stack));
    c->bufs = calloc(depth, sizeof(*c->bufs));
    if (!c->slots || !c->done || !c->free_stack || !c->bufs) {
        iom_worker_fail(w, -ENOMEM, "allocating I/O slots", 0);
        return;
    }
    for (unsigned i = 0; i < depth; i++) {
        if (posix_memalign(&c->bufs[i], 4096, max_bs)) {
            c->bufs[i] = NULL;
            iom_worker_fail(w, -ENOMEM, "allocating buffers", 0);
            return;
        }
        uint64_t *p = c->bufs[i];
        if (i == 0 && iom_bufgen_wanted(job)) {
            c->bg = &c->bgs;
            iom_bufgen_init(c->bg, job, w->seed, w->target_idx * w->nr_threads + w->thread_idx);
        }
        if (c->bg)
            iom_bufgen_fill(c->bg, p, max_bs);
        else
            for (size_t k = 0; k < max_bs / 8; k++)
                p[k] = job->zero_buffers ? 0 : iom_rng_next(fill);
        c->slots[i].buf = c->bufs[i];
        c->slots[i].buf_index = (uint16_t)(i < 65535 ? i : 0);
        c->slots[i].slot = i;
        c->free_stack[i] = depth - 1 - i;
    }
    c->nfree = depth;
    if (iom_job_cmdprio(job)) {
        c->cp = &c->cps;
        iom_cmdprio_init(c->cp, job, w->seed);
    }
    c->trim_mode = iom_job_trimwrite(job) ? 2 : iom_job_trims(job) ? 1 : 0;
    c->syncs = job->fsync_blocks || job->fdatasync_blocks || job->sfr_blocks;
    c->w_first = UINT64_MAX; /* no write since a sync yet */
    c->rare = c->trim_mode || c->cp || c->syncs;
    if (c->trim_mode == 2) {
        c->tw_off = calloc(depth, sizeof(*c->tw_off));
        c->tw_len = calloc(depth, sizeof(*c->tw_len));
        if (!c->tw_off || !c->tw_len) {
            iom_worker_fail(w, -ENOMEM, "allocating trimwrite slots", 0);
            return;
        }
    }
    stack_engine(c, job, w->ops, w->target->path, w->target_idx * w->nr_threads + w->thread_idx);
    int rc = c->eng.ops->init(&c->eng, depth, w->target->fd, c->bufs, depth > 65535 ? 0 : depth,
                              max_bs);
    if (rc < 0) {
        iom_worker_fail(w, rc, "engine set-up", 0);
        return;
    }
    c->engine_up = 1;
}

static void signal_ready(struct iom_worker *w)
{
    pthread_mutex_lock(&w->sh->lock);
    w->sh->nr_ready++;
    pthread_cond_broadcast(&w->sh->cond);
    while (!w->sh->go)
        pthread_cond_wait(&w->sh->cond, &w->sh->lock);
    pthread_mutex_unlock(&w->sh->lock);
}

/* The next I/O of a trim pattern into io (io->len drawn): trims only, every I/O a trim
 * from the offset generator; trimwrite, the write of the oldest trimmed block waiting
 * (its offset and length: fio io_u.c get_next_block for randtrimwrite, and trimwrite's
 * equal trim and write sequences), else a new trim. A trimmed block waits for its write
 * from the trim's completion, so the write never overtakes the trim in the queue. */
static void take_trim(struct iom_worker *w, struct wctx *c, struct iom_io *io)
{
    if (c->trim_mode == 2 && c->next_write) {
        io->ddir = IOM_IO_WRITE;
        io->offset = c->tw_off[c->tw_head];
        io->len = c->tw_len[c->tw_head];
        c->tw_head = (c->tw_head + 1) % c->depth;
        c->tw_n--;
        c->next_write = false;
        return;
    }
    io->ddir = IOM_IO_TRIM;
    io->offset = iom_offgen_take(&w->gen, &io->len);
}

/*
 * Issue I/Os while slots are free (and pacing, think time and the io limit
 * allow). Returns how many were queued for a commit; an engine that
 * completes at once (psync) leaves its I/O in done[0] with *sync_end set
 * to its completion time.
 */
static inline __attribute__((always_inline)) unsigned
issue_t(struct iom_worker *w, struct wctx *c, uint64_t now, uint64_t *sync_end, const bool rare)
{
    const struct iom_job *job = w->job;
    unsigned nq = 0;
    if (c->flow_held)
        return 0;
    if (c->low_wait) { /* iodepth_low: refill once in flight fell to the mark */
        if (c->inflight > job->iodepth_low)
            return 0;
        c->low_wait = false;
    }
    if (__builtin_expect(c->lt != NULL, 0) && c->lt_quiesce)
        return 0; /* latency_target: draining before a new window */
    while (c->nfree && (!c->limit_hit || c->tw_n) && !c->think.due) {
        if (__builtin_expect(c->lt != NULL, 0) && c->inflight >= c->lt->qd)
            break; /* latency_target: the search's depth */
        int sy = rare && c->syncs ? iom_worker_sync(c, job, &nq, now, sync_end) : 0;
        if (sy == 1) /* fsync=N: a sync queued */
            continue;
        if (sy) { /* done at once, failed, or the queued writes go first */
            if (sy < 0)
                iom_worker_fail(w, sy, "queueing a sync", 0);
            break;
        }
        if (rare && c->trim_mode == 2) { /* trimwrite: a trimmed block's write */
            c->next_write = c->tw_n > 0; /* first (fio io_u.c set_rw_ddir), else a new trim */
            if (c->next_write)
                c->next_len = c->tw_len[c->tw_head];
            else if (c->limit_hit)
                break;
        }
        /* the direction first: writes' own sizes (fio's bs=R,W), or their own sequential
         * position (rw=rw) */
        const bool dir_first = w->gen.wbs_own || w->gen.seq_dirs || c->pace.dirs;
        if (!c->next_len) { /* drawn once; kept while pacing holds the I/O back */
            if (dir_first)
                c->next_write = !iom_offgen_is_read(&w->gen);
            c->next_len = iom_offgen_bs_dir(&w->gen, c->next_write);
        }
        bool wr = c->next_write;
        if (!iom_pacer_ready(&c->pace, now, &wr))
            break;
        if (wr != c->next_write) { /* fio's rate_ddir: the other direction is due */
            c->next_write = wr;
            c->next_len = iom_offgen_bs_dir(&w->gen, wr);
        }
        if (c->flow && iom_flow_held(c->flow, &c->flow_mine, job->flow)) {
            c->flow_held = true;
            break;
        }
        struct iom_io *io = &c->slots[c->free_stack[--c->nfree]];
        io->len = c->next_len;
        c->next_len = 0;
        if (w->gen.passes != c->passes) { /* a new pass: fio drops the cache again */
            char ie[160];                 /* (io_u.c loop_cache_invalidate; buffered) */
            c->passes = w->gen.passes;
            if (job->invalidate && !job->direct && w->target->fd >= 0) /* not null jobs */
                (void)iom_target_invalidate(w->target, ie, sizeof(ie));
        }
        if (rare && c->trim_mode) {
            take_trim(w, c, io);
        } else {
            /* may shorten it (random_map) */
            io->offset = iom_offgen_take_dir(&w->gen, &io->len, dir_first && c->next_write);
            io->ddir = (dir_first ? c->next_write : !iom_offgen_is_read(&w->gen))
                           ? IOM_IO_WRITE : IOM_IO_READ;
            if (__builtin_expect(c->vlog.on, 0) && io->ddir == IOM_IO_WRITE &&
                iom_vlog_add(&c->vlog, io->offset, io->len)) {
                c->nfree++;
                iom_worker_fail(w, -ENOMEM, "logging a write for the verify phase", io->offset);
                break;
            }
        }
        if (rare && c->cp) /* fio's cmdprio: on the final size */
            io->ioprio = iom_cmdprio_pick(c->cp, io->ddir, io->len);
        /* the intended start (a paced job file's is moved to submission by iom_io_ready) */
        io->start_ns = iom_pacer_take(&c->pace, now, io->len, io->ddir == IOM_IO_WRITE);
        iom_io_ready(job, c, io);
        if (!rare || c->trim_mode != 2 || io->ddir != IOM_IO_WRITE) { /* trimwrite: its trims */
            c->issued_bytes += io->len;
            c->limit_hit = c->limit && c->issued_bytes >= c->limit;
        }
        iom_think_issued(&c->think);
        if (rare) { /* fio counts writes at queue time (ioengines.c td_io_queue) */
            c->last_sync = false;
            c->w_issued += io->ddir == IOM_IO_WRITE;
        }
        int rc = c->eng.ops->queue(&c->eng, io);
        if (rc == IOM_Q_QUEUED) {
            c->inflight++;
            nq++;
            if (job->iodepth_batch_submit && nq >= job->iodepth_batch_submit) {
                c->more = c->nfree > 0; /* submit this batch, then go on issuing */
                break;
            }
            continue;
        }
        if (rc == IOM_Q_COMPLETED) {
            *sync_end = iom_now_ns();
            c->done[0] = io;
            c->inflight++;
            break;
        }
        c->nfree++;
        if (!rare || c->trim_mode != 2 || io->ddir != IOM_IO_WRITE)
            c->issued_bytes -= io->len;
        iom_worker_fail(w, rc, "queueing I/O", io->offset);
        break;
    }
    if (job->iodepth_low && c->nfree == 0)
        c->low_wait = true;
    return nq;
}

/* issue_t made twice: a job without trims, cmdprio or syncs tests for them per call */
static inline unsigned issue(struct iom_worker *w, struct wctx *c, uint64_t now, uint64_t *sync_end)
{
    return __builtin_expect(c->rare, 0)
               ? issue_t(w, c, now, sync_end, true)
               : issue_t(w, c, now, sync_end, false);
}

/* latency_target: one completion into the search (fio io_u.c io_completed: a latency
 * above the target is a miss; with latency_percentile 100 at depth 1 the job fails with
 * ETIMEDOUT, fio's lat_fatal). Not during the warm-up: fio judges windows only after
 * ramp_time (backend.c do_io). */
static void lt_completed(struct iom_worker *w, struct wctx *c, const struct iom_io *io,
                         uint64_t end)
{
    bool fatal = false;
    if (iom_lt_complete(c->lt, end - io->start_ns, &fatal) == IOM_LT_QUIESCE)
        c->lt_quiesce = true;
    if (fatal && !w->err) {
        iom_worker_fail(w, -ETIMEDOUT, "max latency exceeded", io->offset);
        snprintf(w->errmsg, sizeof(w->errmsg),
                 "latency of %llu nsec exceeds specified max (%llu nsec): %s %s %llu %u",
                 (unsigned long long)(end - io->start_ns), (unsigned long long)c->lt->target_ns,
                 w->target->path,
                 iom_ddir_name(io->ddir),
                 (unsigned long long)io->offset, io->len);
    }
}

/* latency_target after a batch of completions at `now`: restart the search when the
 * measured phase begins (fio reset_all_stats -> lat_target_reset), judge the window,
 * end a quiesce. Returns true when the search is done (the thread stops, fio td->done). */
static bool lt_after(struct iom_worker *w, struct wctx *c, uint64_t now)
{
    struct iom_lat_target *lt = c->lt;
    if (!c->lt_measuring) {
        if (__atomic_load_n(&w->sh->phase, __ATOMIC_ACQUIRE) == IOM_PHASE_WARMUP)
            return false;
        c->lt_measuring = true;
        iom_lt_init(lt, w->job, now);
        c->lt_quiesce = c->inflight > 0;
    }
    if (c->lt_quiesce) {
        if (c->inflight)
            return false;
        c->lt_quiesce = false;
        iom_lt_cycle(lt, now);
        return false;
    }
    enum iom_lt_action a = iom_lt_window(lt, now);
    if (a == IOM_LT_DONE)
        return true;
    c->lt_quiesce = a == IOM_LT_QUIESCE;
    w->res->latency_depth = lt->qd;
    return false;
}

/* Account n completions in done[], completed at `end`. */
static inline __attribute__((always_inline)) void
complete_t(struct iom_worker *w, struct wctx *c, int n, uint64_t end, const bool trims)
{
    /* one timestamp for the whole batch; a clone delayed by a startdelay range measures
     * (and logs) on its own clock, the job's window moved by its delay (fio: per clone) */
    bool measuring = measured_at(w->sh, end - w->delay_ns);
    struct iom_io_stats *st = w->res->dir;
    for (int i = 0; i < n; i++) {
        struct iom_io *io = c->done[i];
        c->inflight--;
        c->free_stack[c->nfree++] = io->slot;
        if (__builtin_expect(io->result != (int64_t)io->len || io->verify_failed, 0)) {
            iom_worker_failed(w, c, io);
            if (io->result != (int64_t)io->len)
                continue; /* a read that failed its check counts as a read, as fio's */
        }
        if (trims && io->ddir >= IOM_IO_SYNC) { /* fio's "sync" latency, no bytes */
            c->w_first = UINT64_MAX, c->w_last = 0; /* fio: the written range starts anew */
            if (measuring) {
                iom_io_stats_add(&w->res->sync, 0, end - io->start_ns);
                w->res->datasyncs += io->ddir != IOM_IO_SYNC;
            }
            continue;
        }
        if (trims && c->syncs && io->ddir == IOM_IO_WRITE) { /* fio io_u.c io_completed */
            c->w_first = io->offset < c->w_first ? io->offset : c->w_first;
            c->w_last = io->offset + io->len > c->w_last ? io->offset + io->len : c->w_last;
        }
        if (__builtin_expect(c->lt != NULL, 0))
            lt_completed(w, c, io, end);
        c->done_bytes[io->ddir] += io->len;
        c->done_ios[io->ddir]++;
        if (trims && c->trim_mode == 2 && io->ddir == IOM_IO_TRIM) {
            unsigned k = (c->tw_head + c->tw_n++) % c->depth; /* its write may go now */
            c->tw_off[k] = io->offset;
            c->tw_len[k] = io->len;
        }
        __atomic_store_n(&w->ios_all, w->ios_all + 1, __ATOMIC_RELAXED);
        __atomic_store_n(&w->bytes_all, w->bytes_all + io->len, __ATOMIC_RELAXED);
        if (measuring) {
            iom_io_stats_add(&st[io->ddir], io->len, end - io->start_ns);
            if (__builtin_expect(w->latlog != NULL, 0))
                fprintf(w->latlog, "%llu\n", (unsigned long long)(end - io->start_ns));
            if (__builtin_expect(w->res->block_infos != NULL, 0) && io->ddir == IOM_IO_TRIM)
                iom_worker_block_info(w, io, true);
            if (__builtin_expect(w->res->slog != NULL, 0))
                iom_slog_add(w->res->slog,
                             end - w->delay_ns -
                                 __atomic_load_n(&w->sh->meas_start_ns, __ATOMIC_ACQUIRE),
                             io->ddir, io->len, end - io->start_ns, io->offset, io->ioprio);
            w->last_done_ns = end;
        }
    }
}

/* complete_t made twice, as issue() */
static inline void complete(struct iom_worker *w, struct wctx *c, int n, uint64_t end)
{
    if (__builtin_expect(c->trim_mode || c->syncs, 0))
        complete_t(w, c, n, end, true);
    else
        complete_t(w, c, n, end, false);
}

/* Wait for completions (or, with nothing in flight, for the next due time). */
static inline int reap(struct iom_worker *w, struct wctx *c, uint64_t now, uint64_t *end)
{
    if (c->inflight == 0) {
        if (c->pace.on && !c->limit_hit) { /* sleep to the next due time, noticing a phase change */
            uint64_t due = pace_due(w, c);
            nap_until(w->sh, due < now + POLL_NS ? due : now + POLL_NS);
        }
        return 0;
    }
    uint64_t timeout = 0;
    if (c->pace.on && c->nfree && !c->limit_hit) {
        uint64_t due = pace_due(w, c);
        timeout = due > now ? due - now : 1000;
    }
    const struct iom_job *job = w->job; /* iodepth_batch_complete_min/max, iodepth_low */
    unsigned mn = job->iodepth_batch_complete_min ? job->iodepth_batch_complete_min : 1;
    /* fio HOWTO: iodepth_batch_complete_max "by default ... is equal to the
     * iodepth_batch_complete_min value"; without either, as many as there are */
    unsigned mx = job->iodepth_batch_complete_max   ? job->iodepth_batch_complete_max
                  : job->iodepth_batch_complete_min ? job->iodepth_batch_complete_min
                                                    : c->depth;
    if (c->low_wait && c->inflight - job->iodepth_low > mn)
        mn = c->inflight - job->iodepth_low;
    mn = mn < c->inflight ? mn : c->inflight;
    mx = mx > c->depth ? c->depth : mx < mn ? mn : mx;
    int n = c->eng.ops->getevents(&c->eng, mn, mx, timeout, c->done);
    if (n < 0)
        iom_worker_fail(w, n, "reaping completions", 0);
    else /* fio's io_u_complete (ioengines.c td_io_getevents) */
        iom_depth_reaped(&w->res->depth, (unsigned)n);
    *end = iom_now_ns();
    return n;
}

/* rate_min / rate_iops_min not met (fio): the thread stops with EIO and fio's message. */
static bool ratemin_failed(struct iom_worker *w, struct wctx *c, uint64_t now)
{
    char msg[200];
    if (!iom_ratemin_failed(&c->rmin, w->job->name, now, c->done_bytes, c->done_ios, msg,
                            sizeof(msg)))
        return false;
    iom_worker_fail(w, -EIO, "rate_min", 0);
    snprintf(w->errmsg, sizeof(w->errmsg), "%s", msg);
    return true;
}

/* Held back by the flow: with flow_sleep, sleep once nothing is in flight (fio quiesces,
 * then sleeps); without, retry after the next completion or a yield. */
static void flow_wait(const struct iom_job *job, struct wctx *c)
{
    if (c->inflight && job->flow_sleep_ns)
        return;
    if (!c->inflight) {
        if (job->flow_sleep_ns)
            iom_sleep_until_ns(iom_now_ns() + job->flow_sleep_ns);
#ifndef _WIN32
        else
            sched_yield();
#endif
    }
    c->flow_held = false;
}

/* A clone's own start delay: sleep until sh->start_ns + delay_ns, waking every 50 ms
 * for the stop phase; a time-based clone then ends its own runtime after it
 * (c->own_end), as fio's clone does. */
static void clone_delay(struct iom_worker *w, struct wctx *c)
{
    uint64_t until = w->sh->start_ns + w->delay_ns;
    for (uint64_t now = iom_now_ns(); now < until; now = iom_now_ns()) {
        if (__atomic_load_n(&w->sh->phase, __ATOMIC_ACQUIRE) == IOM_PHASE_STOP)
            return;
        iom_sleep_until_ns(until - now > 50000000u ? now + 50000000u : until);
    }
    if (w->job->runtime_ns)
        c->own_end = until + w->job->ramp_ns + w->job->runtime_ns;
}

/* The hot loop: until the stop phase, the scheduled end, the io limit or a fatal error. */
static void worker_loop(struct iom_worker *w, struct wctx *c)
{
    struct iom_run_shared *sh = w->sh;
    for (;;) {
        if (__atomic_load_n(&sh->phase, __ATOMIC_ACQUIRE) == IOM_PHASE_STOP || w->err)
            break;
        if (c->limit_hit && c->inflight == 0 && c->tw_n == 0) {
            w->own_stop = true;
            break;
        }
        uint64_t now = iom_now_ns(), end = 0, stop_at = run_end(sh);
        if (stop_at && now >= stop_at) /* on schedule, whenever the main thread wakes */
            break;
        if (__builtin_expect(c->ru_warm, 0) && after_warmup(sh)) /* fio's reset_all_stats */
            c->ru_warm = !iom_thread_rusage(c->ru0);
        if (__builtin_expect(c->pace_warm, 0)) { /* fio's reset_io_counters at ramp's end */
            uint64_t m = own_meas_start(w);
            if (m && now >= m) {
                iom_pacer_restart(&c->pace, m);
                c->pace_warm = false;
            }
        }
        if (__builtin_expect(c->own_end != 0, 0) && now >= c->own_end) {
            w->own_stop = true; /* a delayed clone's own runtime is over */
            break;
        }
        uint64_t wake = iom_think_wait(&c->think, c->inflight, now);
        if (wake > now) {
            nap_until(sh, wake);
            continue;
        }
        unsigned nq = issue(w, c, now, &end);
        if (nq || end) /* fio's io_u_map, io_u_submit (ioengines.c td_io_queue/commit) */
            iom_depth_issued(&w->res->depth, end ? 1 : nq, c->inflight, end != 0);
        if (w->err)
            break;
        if (nq) {
            int rc = c->eng.ops->commit(&c->eng);
            if (rc < 0) {
                iom_worker_fail(w, rc, "submitting I/O", 0);
                break;
            }
        }
        int n = end ? 1 : c->more ? 0 : reap(w, c, now, &end);
        c->more = false;
        if (n < 0)
            break;
        complete(w, c, n, end);
        if (c->rmin.on && n > 0 && after_warmup(sh) && ratemin_failed(w, c, end))
            break;
        if (__builtin_expect(c->lt != NULL, 0) && lt_after(w, c, end ? end : now)) {
            w->own_stop = true; /* the search found its depth: fio ends the job */
            break;
        }
        if (c->flow_held)
            flow_wait(w->job, c);
    }
}

/* fio's verify phase (backend.c do_verify): once a verify job's writes ended by their
 * size, fio closes the file (clear_io_state; no fsync unless end_fsync or fsync_on_close,
 * done before) and its first verify read opens it again (verify.c get_next_verify ->
 * td_io_open_file: invalidate=1's cache drop, which leaves dirty pages, and the fadvise
 * hint; with direct=1 too): iom_verify_reopen (core/worker_int.h). Then every logged block
 * (core/vlog.h: fio's order) is read back at the job's depth in iodepth_batch batches,
 * through the verify layer, counted as reads; until the run's end, a stop or an error. */
static void verify_phase(struct iom_worker *w, struct wctx *c)
{
    struct iom_run_shared *sh = w->sh;
    iom_vlog_seal(&c->vlog);
    c->verify.skip_reads = false; /* fio checks the verify list's reads (IO_U_F_VER_LIST) */
    w->verify_start_ns = iom_now_ns(); /* fio: td->start, then clear_io_state, do_verify */
    int orc = iom_verify_reopen(w, c);
    if (orc < 0) {
        iom_worker_fail(w, orc, "opening the file again for the verify phase", 0);
        return;
    }
    c->lt = NULL; /* no depth search, think time or iodepth_low here */
    c->low_wait = false;
    bool left = true;
    while (!w->err && __atomic_load_n(&sh->phase, __ATOMIC_ACQUIRE) != IOM_PHASE_STOP) {
        uint64_t now = iom_now_ns(), end = 0, stop_at = run_end(sh);
        unsigned nq = 0;
        if ((stop_at && now >= stop_at) || (c->own_end && now >= c->own_end))
            break;
        while (left && c->nfree && !end) {
            struct iom_io *io = &c->slots[c->free_stack[--c->nfree]];
            int rc = IOM_Q_QUEUED;
            if ((left = iom_vlog_next(&c->vlog, &io->offset, &io->len))) {
                io->ddir = IOM_IO_READ;
                io->start_ns = iom_now_ns();
                rc = c->eng.ops->queue(&c->eng, io);
            }
            if (!left || (rc != IOM_Q_QUEUED && rc != IOM_Q_COMPLETED)) {
                c->nfree++;
                if (left)
                    iom_worker_fail(w, rc, "queueing a verify read", io->offset);
                break;
            }
            c->inflight++;
            nq += rc == IOM_Q_QUEUED;
            if (rc == IOM_Q_COMPLETED)
                c->done[0] = io, end = iom_now_ns();
            else if (w->job->iodepth_batch_submit && nq >= w->job->iodepth_batch_submit)
                break; /* submit these, go on issuing */
        }
        int rc = nq && !w->err ? c->eng.ops->commit(&c->eng) : 0;
        if (rc < 0 || w->err) {
            iom_worker_fail(w, rc, "submitting verify reads", 0);
            break;
        }
        if (!left && !c->inflight)
            break;
        bool more = left && c->nfree && !end; /* a batch submitted, room for more */
        int n = end ? 1 : more ? 0 : reap(w, c, now, &end);
        if (n < 0)
            break;
        complete(w, c, n, end);
    }
}

/* Wait for what is still in flight; it is not counted. */
static void worker_drain(struct wctx *c)
{
    uint64_t give_up = iom_now_ns() + DRAIN_TIMEOUT_NS;
    while (c->inflight > 0 && iom_now_ns() < give_up) {
        int n = c->eng.ops->getevents(&c->eng, 1, c->depth, 100000000u, c->done);
        if (n < 0)
            break;
        c->inflight -= (unsigned)n;
    }
}

/* Hand the layers' findings to the worker and free everything. */
static void worker_finish(struct iom_worker *w, struct wctx *c)
{
    w->verified = c->verify.verified;
    w->verify_errors = c->verify.mismatches;
    w->mismatch = c->verify.first;
    if (c->engine_up)
        c->eng.ops->cleanup(&c->eng);
    if (c->bufs)
        for (unsigned i = 0; i < c->depth; i++)
            buf_free(c->bufs[i]);
    free(c->bufs);
    free(c->tw_off);
    free(c->tw_len);
    iom_vlog_free(&c->vlog);
#ifndef _WIN32
    if (c->vfd >= 0)
        close(c->vfd);
#endif
    free(c->slots);
    free(c->done);
    free(c->free_stack);
}

void *iom_worker_main(void *arg)
{
    struct iom_worker *w = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the main thread */
    struct wctx c;
    memset(&c, 0, sizeof(c));
    c.vfd = -1;
    worker_setup(w, &c);
    signal_ready(w);
    if (!w->err && w->job->startdelay_hi_ns > w->job->startdelay_ns)
        clone_delay(w, &c); /* the rest of its clone's startdelay (fio: per clone) */
    if (!w->err) {
        c.limit = w->job->io_limit_bytes;
        c.ru_warm = w->job->ramp_ns > 0;
        if (w->job->io_passes) { /* whole passes over this thread's range, no wrap inside */
            uint64_t pass = iom_offgen_pass_bytes(&w->gen);
            if (pass && (!c.limit || pass * w->job->io_passes < c.limit))
                c.limit = pass * w->job->io_passes;
        }
        const struct iom_job *j = w->job; /* the verify phase's log, if ended by size */
        if (c.limit && j->verify && j->do_verify && iom_job_writes(j))
            iom_vlog_init(&c.vlog, iom_job_random(j) && j->random_map); /* fio's list order */
        uint64_t t0 = w->sh->start_ns + w->delay_ns; /* this clone's start */
        iom_pacer_init(&c.pace, w->job, t0);
        c.pace_warm = c.pace.on && w->job->ramp_ns > 0;
        iom_think_init(&c.think, w->job);
        c.pace.rs ^= w->seed; /* each thread its own Poisson arrivals */
        iom_ratemin_init(&c.rmin, w->job, t0);
        if (w->job->latency_target_ns) { /* fio: depth 1 from the start, ramp included */
            c.lt = &c.lts;
            iom_lt_init(c.lt, w->job, t0);
            w->res->latency_depth = c.lt->qd;
        }
        /* a weight the group already holds (flow_reserved) is not added again */
        uint32_t fw = w->job->flow_reserved ? 0 : w->job->flow;
        if (w->job->flow)
            c.flow = iom_flow_join(w->job->flow_id, fw);
        if (!w->gen.idle) /* a clone past the file's end does nothing, as in fio */
            worker_loop(w, &c);
        if (c.flow)
            iom_flow_leave(c.flow, c.flow_mine, fw);
        bool vphase = c.vlog.on && w->own_stop && c.limit_hit && !w->err;
        if (vphase) { /* fio: end_fsync at the end of do_io, before do_verify */
            iom_end_fsync(w->job, w->target);
            verify_phase(w, &c);
        }
        worker_drain(&c);
        if (!vphase)
            iom_end_fsync(w->job, w->target);
        iom_thread_result_rusage(w->res, c.ru0); /* fio: from the start or the ramp's end */
        pthread_mutex_lock(&w->sh->lock);
        w->sh->nr_finished++;
        pthread_cond_broadcast(&w->sh->cond);
        pthread_mutex_unlock(&w->sh->lock);
    }
    worker_finish(w, &c);
    __atomic_store_n(&w->exited, 1, __ATOMIC_RELEASE);
    return NULL;
}
