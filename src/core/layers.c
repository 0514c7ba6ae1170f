/* layers.c - error injection and verification as engines around any engine (layers.h). */
#include "core/layers.h"

#include <errno.h>
#include <string.h>

#include "core/verify.h"

void iom_layer_make(struct iom_engine *e, const struct iom_engine_ops *ops,
                    const struct iom_engine_ops *inner_ops, struct iom_layer *l)
{
    void *inner_priv = l->inner.priv; /* a layer below keeps its struct iom_layer */
    memset(e, 0, sizeof(*e));
    e->ops = ops;
    e->priv = l;
    l->inner_ops = inner_ops;
    l->inner.ops = inner_ops;
    l->inner.priv = inner_priv;
}

static int layer_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                      uint32_t buf_len)
{
    struct iom_layer *l = e->priv;
    e->fd = fd;
    e->depth = depth;
    return l->inner_ops->init(&l->inner, depth, fd, bufs, nr_bufs, buf_len);
}

static int layer_commit(struct iom_engine *e)
{
    struct iom_layer *l = e->priv;
    return l->inner_ops->commit(&l->inner);
}

static void layer_cleanup(struct iom_engine *e)
{
    struct iom_layer *l = e->priv;
    l->inner_ops->cleanup(&l->inner);
}

/* ---- inject: every N-th completion fails with the chosen errno ---- */

static void inject_done(struct iom_layer *l, struct iom_io *io)
{
    if (++l->inject_count % l->inject_every == 0)
        io->result = -l->inject_errno;
}

static int inject_available(void)
{
    return 0;
}

static int inject_queue(struct iom_engine *e, struct iom_io *io)
{
    struct iom_layer *l = e->priv;
    int rc = l->inner_ops->queue(&l->inner, io);
    if (rc == IOM_Q_COMPLETED)
        inject_done(l, io);
    return rc;
}

static int inject_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                            struct iom_io **out)
{
    struct iom_layer *l = e->priv;
    int n = l->inner_ops->getevents(&l->inner, min, max, timeout_ns, out);
    for (int i = 0; i < n; i++)
        inject_done(l, out[i]);
    return n;
}

const struct iom_engine_ops iom_layer_inject = {
    .name = "inject",
    .description = "fails every N-th completion of the engine below (--inject_error)",
    .available = inject_available,
    .init = layer_init,
    .queue = inject_queue,
    .commit = layer_commit,
    .getevents = inject_getevents,
    .cleanup = layer_cleanup,
};

/* ---- verify: self-checking blocks written, read blocks checked ---- */

static void verify_done(struct iom_layer *l, struct iom_io *io)
{
    io->verify_failed = 0;
    if (io->ddir != IOM_IO_READ || io->result != (int64_t)io->len)
        return; /* writes and failed reads carry nothing to check */
    struct iom_verify_found f;
    enum iom_verify_result vr = iom_verify_check(io->buf, io->len, io->offset, l->seed, &f);
    l->verified++;
    if (vr == IOM_VERIFY_OK)
        return;
    io->verify_failed = (uint8_t)vr;
    if (!l->mismatches++) {
        struct iom_verify_mismatch *m = &l->first;
        m->offset = io->offset;
        m->kind = (int)vr;
        m->reason = iom_verify_result_name(vr);
        m->expected_seed = l->seed;
        m->found_offset = f.offset;
        m->found_seed = f.seed;
        m->found_generation = f.generation;
        m->found_len = f.len;
        m->crc_stored = f.crc_stored;
        m->crc_computed = f.crc_computed;
    }
}

static int verify_queue(struct iom_engine *e, struct iom_io *io)
{
    struct iom_layer *l = e->priv;
    if (io->ddir == IOM_IO_WRITE)
        iom_verify_fill(io->buf, io->len, io->offset, l->seed, l->generation++);
    int rc = l->inner_ops->queue(&l->inner, io);
    if (rc == IOM_Q_COMPLETED)
        verify_done(l, io);
    return rc;
}

static int verify_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                            struct iom_io **out)
{
    struct iom_layer *l = e->priv;
    int n = l->inner_ops->getevents(&l->inner, min, max, timeout_ns, out);
    for (int i = 0; i < n; i++)
        verify_done(l, out[i]);
    return n;
}

const struct iom_engine_ops iom_layer_verify = {
    .name = "verify",
    .description = "writes self-checking blocks through the engine below and checks reads",
    .available = inject_available,
    .init = layer_init,
    .queue = verify_queue,
    .commit = layer_commit,
    .getevents = verify_getevents,
    .cleanup = layer_cleanup,
};
