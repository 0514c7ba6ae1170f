/* ioevents.c - a worker's syncs: fsync=N between writes (worker_int.h), the sync at a
 * job's end (ioevents.h); the verify phase's reopen (worker_int.h). */
#include "core/ioevents.h"

#include <stdio.h>
#include <string.h>

#include "core/worker_int.h"

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
