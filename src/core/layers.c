/* layers.c - error injection and verification as engines around any engine (layers.h). */
#include "core/layers.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/abuf.h"
#include "core/fioverify.h"
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

static int layer_set_fd(struct iom_engine *e, int fd)
{
    struct iom_layer *l = e->priv;
    return iom_engine_set_fd(&l->inner, fd);
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
    free(l->log);
    buf_free(l->rb_buf);
    l->log = NULL;
    l->rb_buf = NULL;
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
    .set_fd = layer_set_fd,
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

static void fio_params(const struct iom_layer *l, const struct iom_io *io,
                       struct iom_fio_vparams *p)
{
    memset(p, 0, sizeof(*p));
    p->type = (enum iom_fio_vtype)l->fio_type;
    p->interval = (uint32_t)l->interval;
    p->offset = io->offset;
    p->pat = l->pat;
    p->pat_len = l->pat_len;
}

/* fio's blocks (core/fioverify.h): check len bytes read at off (numberio >= 0: the
 * header's must be it); a failure is counted and names its interval */
static enum iom_verify_result fio_check_buf(struct iom_layer *l, const void *buf, uint32_t len,
                                            uint64_t off, int numberio)
{
    struct iom_fio_vparams p = {.type = (enum iom_fio_vtype)l->fio_type,
                                .interval = (uint32_t)l->interval, .offset = off, .pat = l->pat,
                                .pat_len = l->pat_len, .check_numberio = numberio >= 0,
                                .numberio = (uint16_t)(numberio >= 0 ? numberio : 0)};
    struct iom_fio_vfail f;
    l->verified++;
    enum iom_verify_result vr = iom_fio_verify_check(buf, len, &p, &f);
    if (vr == IOM_VERIFY_OK)
        return vr;
    if (!l->mismatches++) {
        memset(&l->first, 0, sizeof(l->first));
        l->first.offset = f.offset;
        l->first.kind = (int)vr;
        l->first.reason = f.what;
        l->first.pattern_byte = f.pat_byte;
        l->first.got = f.got;
        l->first.wanted = f.wanted;
    }
    if (l->dump_path) { /* fio verify_header/log_verify_failure: the interval as read */
        uint32_t step = iom_fio_verify_step((uint32_t)l->interval, len);
        uint64_t at = f.offset - off;
        dump_buf(l->dump_path, (const uint8_t *)buf + at, at + step <= len ? step : len - at,
                 f.offset, vr == IOM_VERIFY_BAD_META ? "hdr_fail" : "received");
    }
    return vr;
}

static int by_off(const void *a, const void *b)
{
    const struct iom_vlog_ent *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off ? 1 : (x->seq > y->seq) - (x->seq < y->seq);
}

/* an entry a later write overlaps (fio log_io_piece drops the older piece) */
static bool overwritten(const struct iom_vlog_ent *s, uint32_t n, uint32_t i, uint32_t maxlen)
{
    uint64_t lo = s[i].off, hi = s[i].off + s[i].len;
    for (uint32_t j = i + 1; j < n && s[j].off < hi; j++)
        if (s[j].seq > s[i].seq)
            return true;
    for (uint32_t j = i; j-- > 0 && s[j].off + maxlen > lo;)
        if (s[j].off + s[j].len > lo && s[j].seq > s[i].seq)
            return true;
    return false;
}

/* Read back and check the logged writes in offset order; returns the first failure's
 * kind (IOM_VERIFY_OK: none). */
static enum iom_verify_result readback(struct iom_layer *l, int fd)
{
    enum iom_verify_result first = IOM_VERIFY_OK;
    uint32_t n = l->log_n, maxlen = 0;
    l->log_n = 0;
    qsort(l->log, n, sizeof(l->log[0]), by_off);
    for (uint32_t i = 0; i < n; i++)
        maxlen = l->log[i].len > maxlen ? l->log[i].len : maxlen;
    if (maxlen > l->rb_len) {
        buf_free(l->rb_buf);
        l->rb_buf = NULL;
        l->rb_len = 0;
        if (posix_memalign(&l->rb_buf, 4096, maxlen))
            return IOM_VERIFY_OK; /* no memory: nothing checked */
        l->rb_len = maxlen;
    }
    for (uint32_t i = 0; i < n; i++) {
        const struct iom_vlog_ent *e = &l->log[i];
        if (overwritten(l->log, n, i, maxlen))
            continue;
        ssize_t got = pread(fd, l->rb_buf, e->len, (off_t)e->off);
        if (got != (ssize_t)e->len)
            memset(l->rb_buf, 0, e->len); /* a short read checks as a bad header */
        enum iom_verify_result vr = fio_check_buf(l, l->rb_buf, e->len, e->off, e->numberio);
        if (vr != IOM_VERIFY_OK && first == IOM_VERIFY_OK)
            first = vr;
    }
    return first;
}

/* a completed write joins the log; a full backlog is read back now */
static void log_write(struct iom_layer *l, int fd, struct iom_io *io)
{
    if (l->log_n == l->log_cap) {
        uint32_t cap = l->log_cap ? l->log_cap * 2 : 1024;
        struct iom_vlog_ent *g = realloc(l->log, cap * sizeof(*g));
        if (!g)
            return; /* no memory: this write is not read back */
        l->log = g;
        l->log_cap = cap;
    }
    const uint8_t *h = io->buf;
    l->log[l->log_n] = (struct iom_vlog_ent){.off = io->offset, .len = io->len,
                                             .numberio = (uint16_t)(h[34] | h[35] << 8),
                                             .seq = l->log_seq++};
    l->log_n++;
    if ((l->backlog && l->log_n >= l->backlog) || l->log_n >= IOM_VLOG_MAX) {
        enum iom_verify_result vr = readback(l, fd);
        if (vr != IOM_VERIFY_OK)
            io->verify_failed = (uint8_t)vr; /* the job fails at this write, as fio */
    }
}

void iom_layer_verify_message(const struct iom_layer *l, const struct iom_io *io,
                              const char *path, char *buf, size_t len)
{
    const struct iom_verify_mismatch *m = &l->first; /* this I/O's when first */
    /* a write fails only by its backlog's read-back: the first mismatch of it */
    bool mine = l->mismatches == 1 || io->ddir == IOM_IO_WRITE;
    int k = io->verify_failed;
    bool pat = (k == IOM_VERIFY_BAD_PATTERN || k == IOM_VERIFY_BAD_META ||
                k == IOM_VERIFY_BAD_DIGEST) && mine;
    int n = snprintf(buf, len, "%s: verify failed at byte %llu: %s", path,
                     (unsigned long long)(pat ? m->offset : io->offset),
                     iom_verify_result_name((enum iom_verify_result)k));
    if (n < 0 || (size_t)n >= len)
        return;
    if ((k == IOM_VERIFY_BAD_DIGEST || k == IOM_VERIFY_BAD_META) && mine && l->fio_type)
        snprintf(buf + n, len - (size_t)n, ": %s", m->reason); /* fio's: "md5", "bad header crc" */
    else if (pat && k == IOM_VERIFY_BAD_PATTERN) /* fio: "got pattern 'xx', wanted 'yy'",
                                                  * "bad pattern block offset N" */
        snprintf(buf + n, len - (size_t)n, " (got 0x%02x, wanted 0x%02x, byte %u of the interval)",
                 m->got, m->wanted, m->pattern_byte);
}

void iom_layer_verify_fio(struct iom_layer *l, const struct iom_job *job, const char *engine)
{
    bool fake = strcmp(engine, "null") == 0;
    l->fio_type = job->verify_fio;
    l->readback = job->do_verify && job->verify_backlog && job->verify_fio && !fake &&
                  iom_job_writes(job);
    l->backlog = job->verify_backlog;
    l->skip_reads = job->verify_fio && (job->rw == IOM_RW_RW || job->rw == IOM_RW_RANDRW || fake);
}

static void verify_done(struct iom_layer *l, int fd, struct iom_io *io)
{
    io->verify_failed = 0;
    if (io->ddir == IOM_IO_WRITE && l->readback && io->result == (int64_t)io->len)
        log_write(l, fd, io);
    if (io->ddir != IOM_IO_READ || io->result != (int64_t)io->len)
        return; /* writes and failed reads carry nothing to check */
    if (l->fio_type) {
        enum iom_verify_result vr = IOM_VERIFY_OK;
        if (!l->skip_reads)
            vr = fio_check_buf(l, io->buf, io->len, io->offset, -1);
        io->verify_failed = (uint8_t)vr;
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
    if (io->ddir == IOM_IO_WRITE && l->fio_type) {
        struct iom_fio_vparams p;
        fio_params(l, io, &p);
        /* fio draws each write's rand_seed; here from the run's seed, offset and count */
        p.seed = l->seed ^ (io->offset * UINT64_C(0x9e3779b97f4a7c15)) ^
                 ((uint64_t)l->generation << 40);
        p.thread = l->thread;
        p.numberio = (uint16_t)l->generation++;
        p.time_ns = io->start_ns;
        iom_fio_verify_fill(io->buf, io->len, &p);
    } else if (io->ddir == IOM_IO_WRITE && l->pat_len)
        iom_pattern_fill(l->pat, l->pat_len, io->buf, io->len);
    else if (io->ddir == IOM_IO_WRITE)
        iom_verify_fill(io->buf, io->len, io->offset, l->seed, l->generation++);
    int rc = l->inner_ops->queue(&l->inner, io);
    if (rc == IOM_Q_COMPLETED)
        verify_done(l, e->fd, io);
    return rc;
}

static int verify_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                            struct iom_io **out)
{
    struct iom_layer *l = e->priv;
    int n = l->inner_ops->getevents(&l->inner, min, max, timeout_ns, out);
    for (int i = 0; i < n; i++)
        verify_done(l, e->fd, out[i]);
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
    .set_fd = layer_set_fd,
};
