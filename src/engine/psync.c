/* psync.c - synchronous pread(2)/pwrite(2), and trims through
 * iom_engine_trim_sync (BLKDISCARD, or a punched hole in a file); every I/O
 * completes in queue(), so a thread has at most one I/O in flight whatever
 * its iodepth. */
#include <errno.h>
#include <unistd.h>

#include "engine/engine.h"

static int psync_available(void)
{
    return 0;
}

static int psync_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                      uint32_t buf_len)
{
    (void)bufs, (void)nr_bufs, (void)buf_len;
    e->fd = fd;
    e->depth = depth;
    e->priv = NULL;
    return 0;
}

static int psync_queue(struct iom_engine *e, struct iom_io *io)
{
    if (io->ddir == IOM_IO_TRIM) {
        io->result = iom_engine_trim_sync(e, io->offset, io->len);
        return IOM_Q_COMPLETED;
    }
    if (io->ddir >= IOM_IO_SYNC) {
        io->result = iom_engine_sync_io(e, io);
        return IOM_Q_COMPLETED;
    }
    ssize_t r;
    do {
        r = io->ddir == IOM_IO_WRITE ? pwrite(e->fd, io->buf, io->len, (off_t)io->offset)
                         : pread(e->fd, io->buf, io->len, (off_t)io->offset);
    } while (r < 0 && errno == EINTR);
    io->result = r < 0 ? -errno : r;
    return IOM_Q_COMPLETED;
}

static int psync_commit(struct iom_engine *e)
{
    (void)e;
    return 0;
}

static int psync_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                           struct iom_io **out)
{
    (void)e, (void)min, (void)max, (void)timeout_ns, (void)out;
    return 0;
}

static void psync_cleanup(struct iom_engine *e)
{
    (void)e;
}

const struct iom_engine_ops iom_engine_psync = {
    .name = "psync",
    .description = "pread(2)/pwrite(2), one I/O in flight per thread whatever --iodepth",
    .alias = "sync",
    .synchronous = true, /* every I/O completes in queue() */
    .available = psync_available,
    .init = psync_init,
    .queue = psync_queue,
    .commit = psync_commit,
    .getevents = psync_getevents,
    .cleanup = psync_cleanup,
};
