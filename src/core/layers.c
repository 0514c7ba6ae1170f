/* layers.c - error injection and verification as engines around any engine (layers.h). */
#include "core/layers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/verify.h"
#include "workload/pattern.h"

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

/* fio dump_buf: <basename>.<offset>.<type> in the current directory */
static void dump_buf(const char *path, const void *buf, uint64_t len, uint64_t off,
                     const char *type)
{
    const char *base = strrchr(path, '/');
    char name[4096];
    snprintf(name, sizeof(name), "%s.%llu.%s", base ? base + 1 : path, (unsigned long long)off,
             type);
    int fd = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        return;
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n <= 0)
            break;
        p += n;
        len -= (uint64_t)n;
    }
    close(fd);
    fprintf(stderr, "       %s data dumped as %s\n", type, name);
}

/* verify_pattern (fio verify_io_u_pattern): the pattern runs on from the I/O's
 * start; the first differing byte's interval is the mismatch (fio reports that
 * interval's offset and the byte within it) */
static bool pattern_ok(struct iom_layer *l, const struct iom_io *io)
{
    const uint8_t *b = io->buf;
    uint32_t pos = 0, i = 0;
    for (; i < io->len; i++) {
        if (b[i] != l->pat[pos])
            break;
        if (++pos == l->pat_len)
            pos = 0;
    }
    if (i == io->len)
        return true;
    uint64_t iv = l->interval && l->interval < io->len ? l->interval : io->len;
    uint64_t start = i / iv * iv;
    if (!l->mismatches) {
        struct iom_verify_mismatch *m = &l->first;
        memset(m, 0, sizeof(*m));
        m->offset = io->offset + start;
        m->kind = IOM_VERIFY_BAD_PATTERN;
        m->reason = iom_verify_result_name(IOM_VERIFY_BAD_PATTERN);
        m->pattern_byte = (uint32_t)(i - start);
        m->got = b[i];
        m->wanted = l->pat[pos];
    }
    if (l->dump_path) {
        uint64_t n = start + iv <= io->len ? iv : io->len - start;
        uint8_t *exp = malloc(io->len);
        dump_buf(l->dump_path, b + start, n, io->offset + start, "received");
        if (exp) {
            iom_pattern_fill(l->pat, l->pat_len, exp, io->len);
            dump_buf(l->dump_path, exp + start, n, io->offset + start, "expected");
        }
        free(exp);
    }
    return false;
}

static void verify_done(struct iom_layer *l, struct iom_io *io)
{
    io->verify_failed = 0;
    if (io->ddir != IOM_IO_READ || io->result != (int64_t)io->len)
        return; /* writes and failed reads carry nothing to check */
    if (l->meta) {
        uint64_t bad = io->offset;
        l->verified++;
        enum iom_verify_result vr =
            iom_verify_meta_check(io->buf, io->len, (uint32_t)l->interval, io->offset, &bad);
        if (vr == IOM_VERIFY_OK)
            return;
        io->verify_failed = (uint8_t)vr;
        if (!l->mismatches++) {
            memset(&l->first, 0, sizeof(l->first));
            l->first.offset = bad;
            l->first.kind = (int)vr;
            l->first.reason = iom_verify_result_name(vr);
        }
        if (l->dump_path) /* fio verify_header: the interval as "hdr_fail" */
            dump_buf(l->dump_path, (const uint8_t *)io->buf + (bad - io->offset),
                     l->interval && l->interval < io->len ? l->interval : io->len, bad,
                     "hdr_fail");
        return;
    }
    if (l->pat_len) {
        l->verified++;
        if (!pattern_ok(l, io)) {
            io->verify_failed = IOM_VERIFY_BAD_PATTERN;
            l->mismatches++;
        }
        return;
    }
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
    if (io->ddir == IOM_IO_WRITE && l->meta)
        iom_verify_meta_fill(io->buf, io->len, (uint32_t)l->interval, io->offset, l->seed,
                             l->thread, (uint16_t)l->generation++, io->start_ns);
    else if (io->ddir == IOM_IO_WRITE && l->pat_len)
        iom_pattern_fill(l->pat, l->pat_len, io->buf, io->len);
    else if (io->ddir == IOM_IO_WRITE)
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
