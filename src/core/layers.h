/*
 * layers.h - engines that wrap any engine to add a per-I/O feature, the way
 * SQLite injects faults through a VFS that wraps the real one: error
 * injection (--inject_error) and data verification (--verify=crc32c). A
 * run without those features uses the engine itself, so the runner's hot
 * loop has no per-I/O test for them.
 *
 * A layer is a struct iom_engine whose priv points at a struct iom_layer
 * (set before init) holding the inner engine. Layers stack: verify over
 * inject over the device engine, so an injected error is never verified.
 * Completions the inner engine returns (from getevents, or at once from
 * queue) pass through the layer's completion step before the runner sees
 * them.
 */
#ifndef IOMARK_CORE_LAYERS_H
#define IOMARK_CORE_LAYERS_H

#include <stdint.h>

#include "engine/engine.h"
#include "stats/result.h"
#include "workload/spec.h"

struct iom_layer {
    const struct iom_engine_ops *inner_ops;
    struct iom_engine inner;
    /* error injection: every `every`-th completion gets result -inject_errno */
    int inject_errno;
    uint64_t inject_every, inject_count;
    /* verify: writes carry self-checking blocks, reads are checked */
    uint64_t seed;                  /* the run's --randseed (same for the write and read runs) */
    uint32_t generation;            /* writes of this thread so far */
    uint64_t verified, mismatches;  /* reads checked, reads that failed */
    struct iom_verify_mismatch first;
    /* verify_pattern (fio's verify=pattern) instead of the header: the pattern, the
     * reporting interval (0: the I/O), and verify_dump's file name (NULL: no dump) */
    const uint8_t *pat;
    uint32_t pat_len;
    uint8_t fio_type;               /* fio's verify blocks of this enum iom_fio_vtype
                                     * (core/fioverify.h; with pat: the pattern after the
                                     * header); 0: iomark's own, or the pattern alone */
    bool skip_reads;                /* fio: a job that also writes checks no plain read */
    /* fio's verify_backlog (with do_verify=1 and fio's blocks): each completed write is
     * logged and, after every `backlog` writes (or IOM_VLOG_MAX), read back with pread on
     * the file and checked (header, digest, and the header's numberio against the
     * write's). Of writes that overlap only the latest is checked (fio drops the older
     * piece). The end of the job's read-back is the worker's verify phase (core/vlog.h). */
    bool readback;
    uint32_t backlog;
    struct iom_vlog_ent *log;       /* owned; freed by cleanup */
    uint32_t log_n, log_cap, log_seq;
    void *rb_buf;                   /* owned, aligned for O_DIRECT */
    uint32_t rb_len;
    uint16_t thread;                /* their thread number */
    uint64_t interval;
    const char *dump_path;
};

#define IOM_VLOG_MAX (1u << 20)

/* One logged write: where, how long, and the numberio its header carries. */
struct iom_vlog_ent {
    uint64_t off;
    uint32_t len;
    uint16_t numberio;
    uint32_t seq;
};

/* The one-line message of a verify failure of io (its verify_failed set) on the file
 * path into buf (len bytes): the failing block's offset, the kind, and fio's words or
 * the bad pattern byte when it is the layer's first mismatch. */
void iom_layer_verify_message(const struct iom_layer *l, const struct iom_io *io,
                              const char *path, char *buf, size_t len);

/* Set l's fio fields from job (verify_fio, do_verify, verify_backlog) for the
 * device engine named engine: fio (verify.c, backend.c) checks no plain read of a job
 * that also writes, and nothing on a fake engine (null: FIO_FAKEIO). */
void iom_layer_verify_fio(struct iom_layer *l, const struct iom_job *job, const char *engine);

/* The layers' ops tables (name "inject" and "verify"). */
extern const struct iom_engine_ops iom_layer_inject, iom_layer_verify;

/*
 * Make e a layer of kind ops (iom_layer_inject or iom_layer_verify) over
 * inner_ops, configured by l (zeroed by the caller, then the inject_* or
 * seed fields set). l must outlive e; nothing is allocated. Then call
 * e->ops->init as for any engine; it initialises the inner engine (a
 * struct iom_engine inside l, which may itself be a layer made with this
 * function, its struct iom_layer given as the inner priv before).
 */
void iom_layer_make(struct iom_engine *e, const struct iom_engine_ops *ops,
                    const struct iom_engine_ops *inner_ops, struct iom_layer *l);

#endif
