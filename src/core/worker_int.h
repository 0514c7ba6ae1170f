/*
 * worker_int.h - a worker thread's own state (core/worker.c), shared with the
 * files that run its rarer steps (core/ioevents.c: the syncs of fsync=N, the
 * verify phase's reopen, failed completions).
 * Internal to src/core.
 */
#ifndef IOMARK_CORE_WORKER_INT_H
#define IOMARK_CORE_WORKER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bufgen.h"
#include "core/cmdprio.h"
#include "core/jobctl.h"
#include "core/lattarget.h"
#include "core/layers.h"
#include "core/pace.h"
#include "core/vlog.h"
#include "core/worker.h"

/* What one worker owns while it runs. */
struct wctx {
    unsigned depth, nfree, inflight;
    struct iom_io *slots, **done;
    unsigned *free_stack;
    void **bufs;
    struct iom_engine eng;        /* the device engine, or the top layer over it */
    struct iom_layer inject, verify;
    int engine_up;
    uint64_t issued_bytes, limit;
    bool ru_warm;                 /* in the warm-up: rusage is read again at its end */
    uint64_t ru0[3];              /* the thread's rusage then (ctx, majf, minf), else 0 */
    bool limit_hit;
    uint64_t passes;              /* w->gen.passes when last seen (invalidate at each pass) */
    struct iom_pacer pace;
    bool pace_warm;               /* paced, in the warm-up: pacing starts again when this
                                   * thread's measured phase begins (iom_pacer_restart) */
    struct iom_think think;
    uint32_t next_len;            /* the next I/O's size once drawn, 0 before */
    bool next_write;              /* its direction, drawn first when writes have own sizes */
    uint8_t trim_mode;            /* 0 no trims, 1 trims only, 2 trimwrite (trim, then write) */
    bool rare;                    /* trims, cmdprio or syncs: issue_t's variant for them */
    bool syncs, last_sync;        /* fsync=N/fdatasync=N; the last I/O issued was a sync */
    uint64_t w_issued;            /* writes issued (fio's io_issues[DDIR_WRITE]) */
    uint64_t w_first, w_last;     /* bytes written since the last sync: [first, last); none
                                     when last <= first (fio's first_write, last_write) */
    unsigned tw_n, tw_head;       /* trimwrite: trimmed blocks waiting for their write (FIFO) */
    uint64_t *tw_off;             /* their offsets and lengths, depth entries each; owned */
    uint32_t *tw_len;
    uint64_t done_bytes[IOM_NDIR], done_ios[IOM_NDIR]; /* completed, all phases, per direction */
    struct iom_ratemin rmin;      /* rate_min / rate_iops_min (core/jobctl.h) */
    struct iom_flow *flow;        /* flow=N: the shared flow, or NULL */
    uint64_t flow_mine;           /* this thread's I/Os counted in the flow */
    bool flow_held;               /* held back by the flow: drain, sleep, retry */
    bool low_wait;                /* iodepth_low: full; wait until it is reached */
    bool more;                    /* iodepth_batch_submit cut the issue short: issue again */
    struct iom_rng fill;          /* refill_buffers: new data for each write */
    struct iom_bufgen *bg;        /* buffer_pattern/compress/dedupe: write data (&bgs), or NULL */
    struct iom_bufgen bgs;
    struct iom_lat_target *lt;    /* latency_target: the depth search (&lts), or NULL */
    struct iom_lat_target lts;
    bool lt_quiesce;              /* latency_target: drain, then a new window */
    bool lt_measuring;            /* the search was restarted at the measured phase */
    struct iom_vlog vlog;         /* do_verify: the writes to read back (core/vlog.h) */
    int vfd;                      /* the verify phase's own descriptor, or -1 (worker.c) */
    uint64_t own_end;             /* a delayed clone's own end (clone_delay), 0 = the run's */
    struct iom_cmdprio *cp;       /* cmdprio: the per-I/O priorities (&cps), or NULL */
    struct iom_cmdprio cps;
};

/*
 * fsync=N / fdatasync=N before the next I/O of issue_t (core/worker.c), with
 * *nq I/Os queued so far in this issue call: when fio 3.33 would issue a sync
 * now (iom_sync_due, core/ioevents.h), take a free slot for it (len 0) and
 * queue it on c->eng. Returns 0: no sync due, go on with the next I/O; 1: the
 * sync is queued (*nq counts it), go on; 2: stop issuing, because the sync
 * completed at once (in c->done[0], *sync_end its completion time) or because
 * *nq > 0 writes are to be submitted first (c->more set; fio's libaio returns
 * BUSY so they are committed before the sync); -errno: queue() failed, the
 * slot is free again.
 */
int iom_worker_sync(struct wctx *c, const struct iom_job *job, unsigned *nq, uint64_t now,
                    uint64_t *sync_end);

/*
 * The verify phase's reopen (core/worker.c verify_phase; fio 3.33 backend.c
 * clear_io_state closes the file, verify.c get_next_verify opens it again):
 * with a target descriptor (not null jobs), the only thread on the target
 * closes it, opens the file anew (iom_target_reopen: the job's flags,
 * invalidate's cache drop, the fadvise hint) and keeps the new descriptor in
 * w->target->fd; a clone sharing the target opens its own into c->vfd (closed
 * by the worker at its end). Then c->eng goes on with it (iom_engine_set_fd).
 * Nothing may be in flight. Returns 0 or -errno (POSIX only; 0 on Windows).
 */
int iom_verify_reopen(struct iom_worker *w, struct wctx *c);

/* The worker's first fatal error (later ones are dropped): err (-errno) at
 * offset, and w->errmsg "PATH ENGINE thread N: WHAT: strerror". */
void iom_worker_fail(struct iom_worker *w, int err, const char *what, uint64_t offset);

/* A completion that failed (error, short transfer, verify mismatch): as the
 * job asks, fill_device's end (c->limit_hit), a counted error that goes on
 * (continue_on_error, fio's classes) or the worker's fatal error. */
void iom_worker_failed(struct iom_worker *w, struct wctx *c, struct iom_io *io);

/* block_error_percentiles (fio io_u_block_info): io's first block trimmed (ok)
 * or failed by a write or trim; outside the target's region: nothing. */
void iom_worker_block_info(struct iom_worker *w, const struct iom_io *io, bool ok);

/*
 * Make io (offset, length, direction and start_ns set) ready to queue: a write's
 * data as the job asks (fio's pattern/compress/dedupe data, or refill/scramble;
 * not for verify jobs, whose data the verify layer writes), then, in a paced job
 * file, the latency's start: now, once the offset and the buffer are ready, as
 * fio 3.33 io_u.c get_io_u reads start_time after filling the io_u (under ASan
 * the offset pick alone cost 20 us a paced I/O). On the issue path.
 */
static inline void iom_io_ready(const struct iom_job *job, struct wctx *c, struct iom_io *io)
{
    if (io->ddir == IOM_IO_WRITE && !job->verify) {
        if (__builtin_expect(c->bg != NULL, 0)) { /* fio's pattern/compress/dedupe data */
            if (c->bg->refill)
                iom_bufgen_fill(c->bg, io->buf, io->len);
        } else if ((job->refill_buffers || job->scramble_buffers) && !job->zero_buffers) {
            iom_bufgen_scramble(io->buf, io->len, io->offset, io->start_ns, &c->fill,
                                job->refill_buffers);
        }
    }
    if (__builtin_expect(job->lat_from_submit && c->pace.on, 0))
        io->start_ns = iom_now_ns();
}

#endif
