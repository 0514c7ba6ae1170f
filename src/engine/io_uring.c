/* io_uring.c - asynchronous I/O through liburing. The worker's file and
 * buffers are registered with the ring (fixed file, READ_FIXED/WRITE_FIXED),
 * which saves a file-table lookup and the page pinning of each O_DIRECT I/O;
 * the ring's descriptor is registered as well (no lookup per system call).
 * Queued I/Os are submitted together with the wait for completions
 * (io_uring_submit_and_wait), one system call per batch.
 * Trims: on a regular file IORING_OP_FALLOCATE with FALLOC_FL_PUNCH_HOLE |
 * FALLOC_FL_KEEP_SIZE (Linux 5.6, fio's falloc engine's trim); on a block
 * device the block layer's discard command, IORING_OP_URING_CMD with
 * BLOCK_URING_CMD_DISCARD, the range in addr/addr3 (Linux 6.12; liburing
 * 2.8's io_uring_prep_cmd_discard, written out here for older liburing). A
 * kernel without it answers -EOPNOTSUPP/-EINVAL/-ENOTTY; that trim is then
 * done synchronously (iom_engine_trim_sync: BLKDISCARD) and so are all
 * later ones. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "engine/engine.h"

#ifndef BLOCK_URING_CMD_DISCARD /* include/uapi/linux/fs.h, Linux 6.12 */
#define BLOCK_URING_CMD_DISCARD _IO(0x12, 0)
#endif

struct uring_priv {
    struct io_uring ring;
    int fixed_bufs;   /* buffers registered */
    int is_blk;       /* the target is a block device (trims: discard command) */
    int sync_discard; /* the ring has no discard command here: trims go synchronously */
};

/* A trim's submission entry (see the top of the file). */
static void uring_prep_trim(struct uring_priv *p, struct io_uring_sqe *sqe, struct iom_io *io)
{
    if (!p->is_blk) {
        io_uring_prep_fallocate(sqe, 0, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                                io->offset, io->len);
        return;
    }
    io_uring_prep_rw(IORING_OP_URING_CMD, sqe, 0, NULL, 0, 0);
    sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
    sqe->addr = io->offset;
    sqe->addr3 = io->len;
}

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
    struct stat st;
    p->is_blk = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode);
    e->priv = p;
    e->fd = fd;
    e->depth = depth;
    return 0;
}

static int uring_queue(struct iom_engine *e, struct iom_io *io)
{
    struct uring_priv *p = e->priv;
    if (__builtin_expect(io->ddir == IOM_IO_TRIM && p->sync_discard, 0)) {
        io->result = iom_engine_trim_sync(e, io->offset, io->len);
        return IOM_Q_COMPLETED;
    }
    struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
    if (!sqe)
        return -EBUSY;
    if (__builtin_expect(io->ddir == IOM_IO_TRIM, 0))
        uring_prep_trim(p, sqe, io);
    else if (__builtin_expect(io->ddir == IOM_IO_SYNC_FILE_RANGE, 0)) /* fio's io_uring too */
        io_uring_prep_sync_file_range(sqe, 0, io->len, io->offset, io->sync_flags);
    else if (__builtin_expect(io->ddir >= IOM_IO_SYNC, 0)) /* fio: IORING_OP_FSYNC, no drain */
        io_uring_prep_fsync(sqe, 0, io->ddir == IOM_IO_DATASYNC ? IORING_FSYNC_DATASYNC : 0);
    else if (p->fixed_bufs) {
        if (io->ddir == IOM_IO_WRITE)
            io_uring_prep_write_fixed(sqe, 0, io->buf, io->len, io->offset, io->buf_index);
        else
            io_uring_prep_read_fixed(sqe, 0, io->buf, io->len, io->offset, io->buf_index);
    } else {
        if (io->ddir == IOM_IO_WRITE)
            io_uring_prep_write(sqe, 0, io->buf, io->len, io->offset);
        else
            io_uring_prep_read(sqe, 0, io->buf, io->len, io->offset);
    }
    sqe->flags |= IOSQE_FIXED_FILE;
    sqe->ioprio = io->ioprio; /* 0 unless cmdprio (the prep left 0: no branch) */
    io_uring_sqe_set_data(sqe, io);
    return IOM_Q_QUEUED;
}

/* A trim's completion: 0 is success (len bytes); a kernel without the discard
 * command gets this trim and later ones done synchronously. */
static void uring_trim_done(struct iom_engine *e, struct uring_priv *p, struct iom_io *io)
{
    if (io->result == 0) {
        io->result = io->len;
    } else if (p->is_blk && (io->result == -EOPNOTSUPP || io->result == -EINVAL ||
                             io->result == -ENOTTY)) {
        p->sync_discard = 1;
        io->result = iom_engine_trim_sync(e, io->offset, io->len);
    }
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
            if (__builtin_expect(io->ddir >= IOM_IO_TRIM, 0)) { /* one test for the rare kinds */
                if (io->ddir == IOM_IO_TRIM)
                    uring_trim_done(e, p, io);
                else if (io->ddir == IOM_IO_SYNC_FILE_RANGE && !io->result)
                    io->result = io->len; /* its bytes, as the other engines' */
            }
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
    /* The registered file dropped now: the ring's own teardown runs later in a
     * kernel worker (io_ring_exit_work), and until then its reference kept the
     * file open: umount right after a run failed with EBUSY for about a second. */
    (void)io_uring_unregister_files(&p->ring);
    io_uring_queue_exit(&p->ring);
    free(p);
    e->priv = NULL;
}

/* The registered file (index 0) replaced by fd (io_uring_register_files_update(3)). */
static int uring_set_fd(struct iom_engine *e, int fd)
{
    struct uring_priv *p = e->priv;
    int rc = io_uring_register_files_update(&p->ring, 0, &fd, 1);
    return rc < 0 ? rc : rc == 1 ? 0 : -EIO;
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
    .set_fd = uring_set_fd,
};
