/* null.c - completes every I/O at once without touching a device; measures
 * iomark's own per-I/O overhead (as fio's null engine). I/Os are queued and
 * returned by getevents, so the asynchronous path of the runner is exercised. */
#include <errno.h>
#include <stdlib.h>

#include "engine/engine.h"

struct null_priv {
    unsigned nr_queued;
    struct iom_io *queued[];
};

static int null_available(void)
{
    return 0;
}

static int null_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                     uint32_t buf_len)
{
    (void)bufs, (void)nr_bufs, (void)buf_len;
    struct null_priv *p = calloc(1, sizeof(*p) + depth * sizeof(p->queued[0]));
    if (!p)
        return -ENOMEM;
    e->priv = p;
    e->fd = fd;
    e->depth = depth;
    return 0;
}

static int null_queue(struct iom_engine *e, struct iom_io *io)
{
    struct null_priv *p = e->priv;
    if (p->nr_queued >= e->depth)
        return -EBUSY;
    io->result = io->len;
    p->queued[p->nr_queued++] = io;
    return IOM_Q_QUEUED;
}

static int null_commit(struct iom_engine *e)
{
    (void)e;
    return 0;
}

static int null_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                          struct iom_io **out)
{
    (void)min, (void)timeout_ns;
    struct null_priv *p = e->priv;
    unsigned n = p->nr_queued < max ? p->nr_queued : max;
    for (unsigned i = 0; i < n; i++)
        out[i] = p->queued[p->nr_queued - n + i];
    p->nr_queued -= n;
    return (int)n;
}

static void null_cleanup(struct iom_engine *e)
{
    free(e->priv);
    e->priv = NULL;
}

const struct iom_engine_ops iom_engine_null = {
    .name = "null",
    .description = "completes every I/O at once without a device: iomark's own per-I/O cost",
    .available = null_available,
    .init = null_init,
    .queue = null_queue,
    .commit = null_commit,
    .getevents = null_getevents,
    .cleanup = null_cleanup,
};
