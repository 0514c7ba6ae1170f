/* ioevents.c - a worker's rarer events: syncs (fsync=N between writes, worker_int.h;
 * the sync at a job's end, ioevents.h); the verify phase's reopen; a failed
 * completion and block_error_percentiles' per-block record (worker_int.h). */
#include "core/ioevents.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/ioerr.h"
#include "core/worker_int.h"
#include "stats/blockinfo.h"

#ifndef EDQUOT /* mingw's errno.h has no quota error */
#define EDQUOT ENOSPC
#endif

void iom_end_fsync(const struct iom_job *job, const struct iom_target *t)
{
    if (!job->end_fsync || !iom_job_writes(job) || t->fd < 0)
        return;
    struct iom_engine e = {.fd = t->fd};
    int64_t rc = iom_engine_sync_now(&e, IOM_IO_SYNC);
    if (rc < 0)
        fprintf(stderr, "iomark: end_fsync failed for file %s: %s\n", t->path,
                strerror((int)-rc));
}

int iom_worker_sync(struct wctx *c, const struct iom_job *job, unsigned *nq, uint64_t now,
                    uint64_t *sync_end)
{
    unsigned ddir = iom_sync_due(job, c->w_issued, c->last_sync);
    if (!ddir)
        return 0;
    if (*nq) {
        c->more = true;
        return 2;
    }
    struct iom_io *io = &c->slots[c->free_stack[--c->nfree]];
    io->ddir = (uint8_t)ddir;
    bool sfr = ddir == IOM_IO_SYNC_FILE_RANGE, any = c->w_last > c->w_first;
    io->offset = sfr && any ? c->w_first : 0; /* fio: the range written since the last sync */
    io->len = sfr && any ? (uint32_t)(c->w_last - c->w_first) : 0;
    io->sync_flags = job->sfr_flags;
    io->start_ns = now;
    c->last_sync = true;
    int rc = c->eng.ops->queue(&c->eng, io);
    if (rc < 0) {
        c->nfree++;
        return rc;
    }
    c->inflight++;
    if (rc == IOM_Q_QUEUED) {
        (*nq)++;
        return 1;
    }
    c->done[0] = io;
    *sync_end = iom_now_ns();
    return 2;
}

int iom_verify_reopen(struct iom_worker *w, struct wctx *c)
{
#ifndef _WIN32
    if (w->target->fd < 0) /* null jobs (fio's FIO_DISKLESSIO opens nothing) */
        return 0;
    char ie[600];
    bool alone = w->nr_threads == 1;
    if (alone)
        iom_target_close(w->target, false);
    int fd = iom_target_reopen(w->job, w->target, ie, sizeof(ie));
    if (fd < 0)
        return fd;
    if (alone)
        w->target->fd = fd;
    else
        c->vfd = fd;
    return iom_engine_set_fd(&c->eng, fd);
#else
    (void)w;
    (void)c;
    return 0;
#endif
}

/* fio's block_error_percentiles: a trim completed (ok) or a write or trim failed on
 * the block the I/O starts in (fio io_u_block_info: an I/O over several blocks
 * counts for its first only) */
void iom_worker_block_info(struct iom_worker *w, const struct iom_io *io, bool ok)
{
    uint64_t idx = (io->offset - w->target->region_start) / w->job->block_info_bs;
    if (io->offset < w->target->region_start || idx >= w->res->nr_block_infos)
        return;
    if (ok)
        iom_block_trimmed(&w->res->block_infos[idx]);
    else
        iom_block_failed(&w->res->block_infos[idx], io->ddir == IOM_IO_TRIM);
}

/* A completion that failed (error, short transfer, verify mismatch). */
void iom_worker_failed(struct iom_worker *w, struct wctx *c, struct iom_io *io)
{
    const struct iom_job *job = w->job;
    if (job->fill_device && io->ddir == IOM_IO_WRITE &&
        (io->result == -ENOSPC || io->result == -EDQUOT ||
         (io->result >= 0 && io->result < (int64_t)io->len))) {
        /* fio's fill_device: the device is full, the job ends without an error (backend.c
         * do_io: ENOSPC/EDQUOT clears td->error); a short write is the last space
         * (its bytes are not counted, as a failed I/O's) */
        c->limit_hit = true;
        return;
    }
    if (io->result != (int64_t)io->len) {
        int e = io->result < 0 ? (int)io->result : -EIO;
        /* fio td_error_type: EILSEQ is a verify error, a read a read, the rest writes */
        int cls = -e == EILSEQ ? IOM_ERRCLS_VERIFY
                  : io->ddir == IOM_IO_READ ? IOM_ERRCLS_READ : IOM_ERRCLS_WRITE;
        /* fio counts an error (total_err) only in a class continue_on_error names
         * (backend.c break_on_this_error); iomark's native runs count every one */
        struct iom_io_stats *st = io->ddir >= IOM_IO_SYNC ? &w->res->sync : &w->res->dir[io->ddir];
        if (!job->fio_errors || (job->coe_classes & (1u << cls)))
            __atomic_store_n(&st->errors, st->errors + 1, __ATOMIC_RELAXED);
        if (!w->first_io_errno) {
            w->first_io_errno = -e;
            w->first_io_offset = io->offset;
        }
        /* fio marks a failed write it logged for verify (iolog.c unlog_io_piece), when the
         * error comes through io_completed: not from its sync engines, whose errors
         * backend.c io_queue_event drops first (fio 3.33, psync on ENOSPC: no marks) */
        if (w->res->block_infos && io->ddir == IOM_IO_WRITE && job->verify &&
            strcmp(job->ioengine, "psync") != 0)
            iom_worker_block_info(w, io, false);
        bool go_on = iom_error_non_fatal(job, cls, -e);
        if (go_on)
            iom_error_dump(job, w->target->path, io, -e);
        else
            iom_worker_fail(w, e,
                            io->result < 0 ? iom_ddir_name(io->ddir)
                                           : "short transfer (target truncated?)",
                            io->offset);
        return;
    }
    if (!iom_error_non_fatal(job, IOM_ERRCLS_VERIFY, EILSEQ)) { /* the verify layer: a bad block */
        iom_worker_fail(w, -EILSEQ, "verify", io->offset);
        iom_layer_verify_message(&c->verify, io, w->target->path, w->errmsg, sizeof(w->errmsg));
    }
}
