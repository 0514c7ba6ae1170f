/* libaio.c - Linux native AIO (io_submit/io_getevents) through libaio.
 * Asynchronous only with O_DIRECT; buffered I/O completes inside io_submit. */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

#ifndef IOCB_FLAG_IOPRIO /* include/uapi/linux/aio_abi.h (Linux 4.18) */
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

struct aio_priv {
    io_context_t ctx;
    unsigned nr_pending;
    struct iocb **pending;   /* queued, not yet submitted */
    struct iocb *iocbs;      /* one per slot */
    struct io_event *events;
};

static int aio_available(void)
{
    io_context_t ctx = 0;
    int rc = io_setup(1, &ctx);
    if (rc == 0)
        io_destroy(ctx);
    return rc;
}

static int aio_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                    uint32_t buf_len)
{
    (void)bufs, (void)nr_bufs, (void)buf_len;
    struct aio_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->pending = calloc(depth, sizeof(*p->pending));
    p->iocbs = calloc(depth, sizeof(*p->iocbs));
    p->events = calloc(depth, sizeof(*p->events));
    int rc = -ENOMEM;
    if (!p->pending || !p->iocbs || !p->events)
        goto fail;
    rc = io_setup((int)depth, &p->ctx);
    if (rc < 0)
        goto fail;
    e->priv = p;
    e->fd = fd;
    e->depth = depth;
    return 0;
fail:
    free(p->pending);
    free(p->iocbs);
    free(p->events);
    free(p);
    return rc;
}

static int aio_commit(struct iom_engine *e);

static int aio_queue(struct iom_engine *e, struct iom_io *io)
{
    struct aio_priv *p = e->priv;
    if (p->nr_pending >= e->depth)
        return -EBUSY;
    if (io->ddir == IOM_IO_TRIM) { /* Linux AIO has no discard: done here, at once */
        io->result = iom_engine_trim_sync(e, io->offset, io->len);
        return IOM_Q_COMPLETED;
    }
    if (io->ddir >= IOM_IO_SYNC) { /* nor a working fsync: done here after the queued I/Os
                                    * are submitted (fio's libaio returns BUSY to have them
                                    * committed first; the ones in flight are not waited for) */
        int rc = aio_commit(e);
        io->result = rc < 0 ? rc : iom_engine_sync_now(e, io->ddir);
        return IOM_Q_COMPLETED;
    }
    struct iocb *cb = &p->iocbs[io->slot];
    if (io->ddir == IOM_IO_WRITE)
        io_prep_pwrite(cb, e->fd, io->buf, io->len, (long long)io->offset);
    else
        io_prep_pread(cb, e->fd, io->buf, io->len, (long long)io->offset);
    cb->data = io;
    if (__builtin_expect(io->ioprio != 0, 0)) { /* cmdprio (fio engines/libaio.c) */
        cb->u.c.flags |= IOCB_FLAG_IOPRIO;
        cb->aio_reqprio = (short)io->ioprio;
    }
    p->pending[p->nr_pending++] = cb;
    return IOM_Q_QUEUED;
}

static int aio_commit(struct iom_engine *e)
{
    struct aio_priv *p = e->priv;
    unsigned done = 0;
    while (done < p->nr_pending) {
        int rc = io_submit(p->ctx, (long)(p->nr_pending - done), p->pending + done);
        if (rc == -EAGAIN || rc == -EINTR)
            continue;
        if (rc < 0)
            return rc;
        done += (unsigned)rc;
    }
    p->nr_pending = 0;
    return 0;
}

static int aio_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                         struct iom_io **out)
{
    struct aio_priv *p = e->priv;
    struct timespec ts, *tsp = NULL;
    if (timeout_ns) {
        ts.tv_sec = (time_t)(timeout_ns / 1000000000u);
        ts.tv_nsec = (long)(timeout_ns % 1000000000u);
        tsp = &ts;
    } else if (min == 0) {
        ts.tv_sec = 0;
        ts.tv_nsec = 0;
        tsp = &ts;
    }
    if (max > e->depth)
        max = e->depth;
    int rc;
    do {
        rc = io_getevents(p->ctx, (long)min, (long)max, p->events, tsp);
    } while (rc == -EINTR && !tsp);
    if (rc == -EINTR)
        rc = 0;
    if (rc < 0)
        return rc;
    for (int i = 0; i < rc; i++) {
        struct iom_io *io = p->events[i].data;
        long res = (long)p->events[i].res;
        io->result = res;
        out[i] = io;
    }
    return rc;
}

static void aio_cleanup(struct iom_engine *e)
{
    struct aio_priv *p = e->priv;
    if (!p)
        return;
    io_destroy(p->ctx);
    free(p->pending);
    free(p->iocbs);
    free(p->events);
    free(p);
    e->priv = NULL;
}

const struct iom_engine_ops iom_engine_libaio = {
    .name = "libaio",
    .description = "Linux native AIO, io_submit(2)/io_getevents(2); O_DIRECT only is asynchronous",
    .available = aio_available,
    .init = aio_init,
    .queue = aio_queue,
    .commit = aio_commit,
    .getevents = aio_getevents,
    .cleanup = aio_cleanup,
};
