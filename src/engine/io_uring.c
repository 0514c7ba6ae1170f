/* io_uring.c - asynchronous I/O through liburing. The worker's file and
 * buffers are registered with the ring (fixed file, READ_FIXED/WRITE_FIXED),
 * which saves a file-table lookup and the page pinning of each O_DIRECT I/O;
 * the ring's descriptor is registered as well (no lookup per system call).
 * Queued I/Os are submitted together with the wait for completions
 * (io_uring_submit_and_wait), one system call per batch. */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "engine/engine.h"

struct uring_priv {
    struct io_uring ring;
    int fixed_bufs; /* buffers registered */
};

static int uring_setup(struct io_uring *ring, unsigned depth)
{
    /* Single issuer + deferred task work (Linux 6.1+) cut completion overhead;
     * fall back step by step on older kernels. */
    static const unsigned flag_sets[] = {
#ifdef IORING_SETUP_DEFER_TASKRUN
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
        IORING_SETUP_COOP_TASKRUN,
#endif
        0,
    };
    int rc = -EINVAL;
    for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
        rc = io_uring_queue_init(depth, ring, flag_sets[i]);
        if (rc != -EINVAL)
            return rc;
    }
    return rc;
}

static int uring_available(void)
{
    struct io_uring ring;
    int rc = io_uring_queue_init(1, &ring, 0);
    if (rc == 0)
        io_uring_queue_exit(&ring);
    return rc;
}

static int uring_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                      uint32_t buf_len)
{
    struct uring_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    int rc = uring_setup(&p->ring, depth);
    if (rc < 0) {
        free(p);
        return rc;
    }
    /* The ring's own descriptor registered too (Linux 5.18, liburing 2.2):
     * io_uring_enter(2) then skips the file-table lookup and reference count
     * of the ring on every call (io_uring_register_ring_fd(3)); optional. */
    (void)io_uring_register_ring_fd(&p->ring);
    rc = io_uring_register_files(&p->ring, &fd, 1);
    if (rc < 0) {
        io_uring_queue_exit(&p->ring);
        free(p);
        return rc;
    }
    struct iovec *iov = calloc(nr_bufs, sizeof(*iov));
    if (iov) {
        for (unsigned i = 0; i < nr_bufs; i++) {
            iov[i].iov_base = bufs[i];
            iov[i].iov_len = buf_len;
        }
        /* Registration can fail under RLIMIT_MEMLOCK; plain reads still work. */
        p->fixed_bufs = io_uring_register_buffers(&p->ring, iov, nr_bufs) == 0;
        free(iov);
    }
    e->priv = p;
    e->fd = fd;
    e->depth = depth;
    return 0;
}

static int uring_queue(struct iom_engine *e, struct iom_io *io)
{
    struct uring_priv *p = e->priv;
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    if (!sqe)
        return -EBUSY;
    if (p->fixed_bufs) {
        if (io->is_write)
            io_uring_prep_write_fixed(sqe, 0, io->buf, io->len, io->offset, io->buf_index);
        else
            io_uring_prep_read_fixed(sqe, 0, io->buf, io->len, io->offset, io->buf_index);
    } else {
        if (io->is_write)
            io_uring_prep_write(sqe, 0, io->buf, io->len, io->offset);
        else
            io_uring_prep_read(sqe, 0, io->buf, io->len, io->offset);
    }
    sqe->flags |= IOSQE_FIXED_FILE;
    io_uring_sqe_set_data(sqe, io);
    return IOM_Q_QUEUED;
}

static int uring_commit(struct iom_engine *e)
{
    (void)e; /* submitted together with the wait in getevents */
    return 0;
}

static int uring_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                           struct iom_io **out)
{
    struct uring_priv *p = e->priv;
    int rc;
    if (timeout_ns && min) {
        struct __kernel_timespec ts = {.tv_sec = (long long)(timeout_ns / 1000000000u),
                                       .tv_nsec = (long long)(timeout_ns % 1000000000u)};
        struct io_uring_cqe *cqe;
        rc = io_uring_submit_and_wait_timeout(&p->ring, &cqe, min, &ts, NULL);
    } else {
        rc = io_uring_submit_and_wait(&p->ring, min);
    }
    if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
        return rc;

    struct io_uring_cqe *cqes[256];
    unsigned total = 0;
    while (total < max) {
        unsigned want = max - total < 256 ? max - total : 256;
        unsigned n = io_uring_peek_batch_cqe(&p->ring, cqes, want);
        if (n == 0)
            break;
        for (unsigned i = 0; i < n; i++) {
            struct iom_io *io = io_uring_cqe_get_data(cqes[i]);
            io->result = cqes[i]->res;
            out[total++] = io;
        }
        io_uring_cq_advance(&p->ring, n);
    }
    return (int)total;
}

static void uring_cleanup(struct iom_engine *e)
{
    struct uring_priv *p = e->priv;
    if (!p)
        return;
    io_uring_queue_exit(&p->ring);
    free(p);
    e->priv = NULL;
}

const struct iom_engine_ops iom_engine_io_uring = {
    .name = "io_uring",
    .description = "io_uring(7): shared submission/completion rings (default)",
    .fallback = "libaio",
    .available = uring_available,
    .init = uring_init,
    .queue = uring_queue,
    .commit = uring_commit,
    .getevents = uring_getevents,
    .cleanup = uring_cleanup,
};
