/*
 * engine.h - the I/O engine ops table. One file per engine fills one
 * struct iom_engine_ops (the shape of fio's ioengines.h). Engines include
 * only this header.
 *
 * Life of an I/O, per worker thread (one engine instance per thread):
 *   queue(io)      -> IOM_Q_QUEUED (completes later via getevents) or
 *                     IOM_Q_COMPLETED (done now; io->result set), or -errno
 *   commit()       -> hand queued I/Os to the kernel (may be a no-op when
 *                     getevents submits, as io_uring's submit-and-wait does)
 *   getevents(min) -> wait for at least `min` completions (or the timeout),
 *                     return them in out[]
 * The engine never allocates per I/O.
 */
#ifndef IOMARK_ENGINE_ENGINE_H
#define IOMARK_ENGINE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { IOM_Q_QUEUED = 0, IOM_Q_COMPLETED = 1 };

/* Data direction of an I/O: the same numbers as stats/summary.h's IOM_DIR_*
 * and fio's enum fio_ddir (io_ddir.h: DDIR_READ 0, DDIR_WRITE 1, DDIR_TRIM 2,
 * DDIR_SYNC 3, DDIR_DATASYNC 4, DDIR_SYNC_FILE_RANGE 5). A sync has no data
 * (buf unused): fsync(2), or fdatasync(2) for IOM_IO_DATASYNC, len 0, result 0;
 * IOM_IO_SYNC_FILE_RANGE is sync_file_range(2) of [offset, +len) with the flags
 * sync_flags, result len (nothing done when len is 0). */
enum { IOM_IO_READ = 0, IOM_IO_WRITE = 1, IOM_IO_TRIM = 2, IOM_IO_SYNC = 3, IOM_IO_DATASYNC = 4,
       IOM_IO_SYNC_FILE_RANGE = 5 };

/* One in-flight I/O slot; owned by the worker, lent to the engine. */
struct iom_io {
    void *buf;          /* aligned buffer, at least len bytes */
    uint64_t offset;    /* bytes from the start of the target */
    uint32_t len;       /* bytes */
    uint8_t ddir;       /* IOM_IO_READ, _WRITE or _TRIM (a trim has no data: buf unused) */
    uint16_t buf_index; /* index of buf in the buffers given to init() */
    uint32_t slot;      /* index of this slot in the worker's array */
    uint16_t ioprio;    /* 0, or this I/O's own priority, ioprio_set(2)'s class << 13 | level
                           (fio's cmdprio: core/cmdprio.h); io_uring and libaio apply it */
    int64_t result;     /* set on completion: bytes transferred, or -errno */
    uint64_t start_ns;  /* submission (or, paced natively, intended start) time */
    uint8_t verify_failed; /* set by the verify layer (core/layers.h): enum iom_verify_result */
    uint8_t sync_flags;    /* IOM_IO_SYNC_FILE_RANGE: SYNC_FILE_RANGE_* (fcntl.h) */
};

struct iom_engine;

struct iom_engine_ops {
    const char *name;        /* the --ioengine value */
    const char *alias;       /* another accepted name (fio's "sync" for psync), or NULL */
    const char *description; /* one line for --help and the man page */
    /* engine to use instead when available() fails (io_uring -> libaio), or NULL */
    const char *fallback;
    /*
     * queue() completes every I/O before it returns (psync), so a thread has
     * one I/O in flight whatever its iodepth: fio's FIO_SYNCIO engines, whose
     * queue depth fio caps at 1 ("note: both iodepth >= 1 and synchronous I/O
     * engine are selected, queue depth will be capped at 1", fio 3.33
     * backend.c). iom_engine_depth reads it.
     */
    bool synchronous;
    /*
     * Check that the engine can run on this kernel (io_uring may be disabled
     * by sysctl kernel.io_uring_disabled or seccomp). Returns 0 or -errno.
     */
    int (*available)(void);
    /*
     * Set up for `depth` outstanding I/Os on file descriptor fd, using the
     * nr_bufs buffers bufs[] of buf_len bytes each (engines may register
     * them with the kernel). Returns 0 or -errno; on error nothing to clean.
     */
    int (*init)(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                uint32_t buf_len);
    int (*queue)(struct iom_engine *e, struct iom_io *io);
    int (*commit)(struct iom_engine *e);
    /*
     * Reap completions: wait until at least `min` are available (min may be
     * 0 to poll) or timeout_ns passes (0 = no timeout), store up to `max` in
     * out[] and return their number, or -errno.
     */
    int (*getevents)(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                     struct iom_io **out);
    void (*cleanup)(struct iom_engine *e);
    /*
     * Optional (NULL: e->fd is all the engine uses): go on with file
     * descriptor fd instead of the one given to init(), with nothing in
     * flight (io_uring updates its registered file). Returns 0 or -errno.
     */
    int (*set_fd)(struct iom_engine *e, int fd);
};

struct iom_engine {
    const struct iom_engine_ops *ops;
    void *priv; /* engine-private state */
    int fd;
    unsigned depth;
    int trim_kind; /* iom_engine_trim_sync's cache: 0 not known yet, 1 block device, 2 file */
};

/*
 * One trim done synchronously on e->fd: `len` bytes from byte `offset`
 * discarded. A block device gets ioctl(BLKDISCARD) with the range {offset,
 * len} (linux/fs.h; fio's os/os-linux.h os_trim); a regular file gets
 * fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), the range then reads
 * back as zeros and the size stays (fallocate(2); fio's falloc engine's trim).
 * The descriptor's type is looked up once (fstat) and kept in e->trim_kind.
 * Returns len, or -errno (-EOPNOTSUPP where neither exists, e.g. Windows).
 * Engines without an asynchronous trim call it from queue() and complete the
 * I/O at once.
 */
int64_t iom_engine_trim_sync(struct iom_engine *e, uint64_t offset, uint32_t len);

/*
 * A sync of e->fd done at once: fsync(2), or fdatasync(2) when ddir is
 * IOM_IO_DATASYNC (fio's do_io_u_sync, io_u.c). Returns 0 or -errno. Engines
 * without an asynchronous sync call it from queue() and complete the I/O at once.
 */
int64_t iom_engine_sync_now(struct iom_engine *e, unsigned ddir);

/*
 * Switch engine e (a layer or a device engine, set up by init()) to file
 * descriptor fd, nothing being in flight: its ops' set_fd when it has one,
 * then e->fd = fd. The old descriptor is the caller's to close. Used by the
 * verify phase, which reads back through the file opened anew as fio 3.33
 * does (backend.c clear_io_state, verify.c get_next_verify). Returns 0 or
 * -errno (e->fd unchanged).
 */
int iom_engine_set_fd(struct iom_engine *e, int fd);

/*
 * A sync of io's kind on e->fd done at once: iom_engine_sync_now for fsync and
 * fdatasync (result 0), sync_file_range(2) of [io->offset, +io->len) with
 * io->sync_flags for IOM_IO_SYNC_FILE_RANGE (result io->len; no call when len
 * is 0, as fio's do_sync_file_range). Returns the result or -errno
 * (-EOPNOTSUPP for sync_file_range outside Linux).
 */
int64_t iom_engine_sync_io(struct iom_engine *e, const struct iom_io *io);

/*
 * The registry: every engine, in the order help lists them, NULL-terminated
 * (engine.c). Adding an engine = its file (one struct iom_engine_ops) + one
 * line in that table; option parsing, help, error text and the fallback all
 * read it.
 */
extern const struct iom_engine_ops *const iom_engines[];

/* Look up an engine by name or alias (e.g. "io_uring", "sync").
 * Returns NULL when unknown. */
const struct iom_engine_ops *iom_engine_find(const char *name);

/*
 * The I/Os a thread of the engine called name (or its alias) keeps in flight
 * at --iodepth=depth: 1 for a synchronous engine (ops->synchronous: psync),
 * else depth; depth for an unknown name. What a result records as
 * spec.iodepth_effective (docs/json-schema.md).
 */
unsigned iom_engine_depth(const char *name, unsigned depth);

/*
 * The engine names joined by ", " with aliases in parentheses, e.g.
 * "io_uring, libaio, psync (or sync), null", into buf (len bytes,
 * NUL-terminated, truncated when short). Returns buf.
 */
char *iom_engine_list(char *buf, size_t len);

/* The engines' ops tables (one per engine file), listed in iom_engines[]. */
extern const struct iom_engine_ops iom_engine_io_uring, iom_engine_libaio, iom_engine_psync,
    iom_engine_null;
/* Windows only: overlapped ReadFile/WriteFile on an I/O completion port. */
extern const struct iom_engine_ops iom_engine_iocp;

#endif
