/* bufgen.c - fio's pattern, compressible and dedupable write data (bufgen.h). */
#include "core/bufgen.h"

#include <string.h>

#include "workload/pattern.h"

bool iom_bufgen_wanted(const struct iom_job *job)
{
    return job->buf_pattern_len || job->compress_pct || job->dedupe_pct;
}

#define GOLDEN UINT64_C(0x9e3779b97f4a7c15)

/* the seed of the unique writes of thread number t (of all jobs' threads) */
static uint64_t thread_base(const struct iom_bufgen *g, uint64_t t)
{
    return (g->seed0 + t * GOLDEN) ^ 0xb0f5eedULL;
}

void iom_bufgen_init(struct iom_bufgen *g, const struct iom_job *job, uint64_t seed,
                     uint32_t thread)
{
    memset(g, 0, sizeof(*g));
    g->job = job;
    g->seed0 = seed - thread * GOLDEN;
    g->self = job->thread_base + thread;
    g->nall = job->threads_all > g->self ? job->threads_all : g->self + 1;
    g->base = thread_base(g, g->self);
    iom_rng_seed(&g->dedupe, (g->seed0 + g->self * GOLDEN) ^ 0xdedeULL); /* = seed natively */
    g->min_write = iom_job_min_bs(job);
    g->ws = job->size_bytes * job->dedupe_ws_pct / 100 / (g->min_write ? g->min_write : 1);
    if (!g->ws)
        g->ws = 1;
    bool compress = job->compress_pct && job->compress_pct < 100;
    g->refill = job->refill_buffers || compress || job->dedupe_pct ||
                (job->buf_pattern_len && iom_job_read_pct(job) > 0);
}

/* fio get_buf_state / save_buf_state: the generator of this write's data, from
 * the number of the unique write whose bytes it carries */
static void buf_state(struct iom_bufgen *g, struct iom_rng *rs)
{
    uint32_t d = g->job->dedupe_pct;
    uint64_t id, base = g->base;
    if (d == 100) {
        id = 0;
    } else if (d && iom_rng_below(&g->dedupe, 100) + 1 <= d) { /* fio rand_between(1, 100) <= D */
        id = g->job->dedupe_ws ? iom_rng_below(&g->dedupe, g->ws) : g->last;
        if (g->job->dedupe_ws && g->job->dedupe_global) {
            /* fio dedupe.c: run c = id / P of the working set is thread (t + c) mod N's */
            uint64_t per = g->ws / g->nall ? g->ws / g->nall : 1;
            base = thread_base(g, (g->self + id / per) % g->nall);
            id %= per;
        }
    } else {
        id = g->last = g->next++;
    }
    iom_rng_seed(rs, base ^ (id * GOLDEN));
}

static void fill_random(struct iom_rng *rs, uint8_t *p, uint64_t len)
{
    uint64_t v;
    for (; len >= 8; p += 8, len -= 8) {
        v = iom_rng_next(rs);
        memcpy(p, &v, 8);
    }
    if (len) {
        v = iom_rng_next(rs);
        memcpy(p, &v, len);
    }
}

static void fill_rest(const struct iom_job *job, uint8_t *p, uint64_t len)
{
    if (job->buf_pattern_len)
        iom_pattern_fill(job->buf_pattern, job->buf_pattern_len, p, len);
    else
        memset(p, 0, len);
}

/* fio fill_random_buf_percentage: segments of (100 - pct) % random, pct % zeros/pattern */
static void fill_pct(const struct iom_job *job, struct iom_rng *rs, uint8_t *p, uint32_t pct,
                     uint64_t segment, uint64_t len)
{
    if (pct == 100) {
        fill_rest(job, p, len);
        return;
    }
    while (len) {
        uint64_t n = segment * (100 - pct) / 100;
        n = n > len ? len : n;
        fill_random(rs, p, n);
        len -= n;
        p += n;
        if (!len)
            break;
        n = segment - n;
        n = n > len ? len : n;
        fill_rest(job, p, n);
        len -= n;
        p += n;
    }
}

void iom_bufgen_fill(struct iom_bufgen *g, void *buf, uint64_t len)
{
    const struct iom_job *job = g->job;
    uint8_t *p = buf;
    if (job->compress_pct || job->dedupe_pct) { /* fio fill_io_buffer */
        struct iom_rng r, *rs = &r;
        uint64_t left = len;
        buf_state(g, rs); /* the whole buffer from one generator (fio: chunks go on) */
        do {
            uint64_t w = g->min_write < left ? g->min_write : left;
            if (job->compress_chunk && job->compress_chunk < w)
                w = job->compress_chunk;
            fill_pct(job, rs, p, job->compress_pct, w, w);
            p += w;
            left -= w;
        } while (left);
    } else if (job->buf_pattern_len) {
        iom_pattern_fill(job->buf_pattern, job->buf_pattern_len, p, len);
    }
}

void iom_bufgen_scramble(void *buf, uint32_t len, uint64_t offset, uint64_t start_ns,
                         struct iom_rng *r, bool refill)
{
    uint64_t *p = buf;
    if (refill) {
        for (size_t k = 0; k < len / 8; k++)
            p[k] = iom_rng_next(r);
        return;
    }
    char *b = buf;
    uint64_t off = offset, sec = start_ns / 1000000000u, nsec = start_ns % 1000000000u;
    unsigned line = (unsigned)((nsec ^ off) & 7);
    for (uint64_t i = 0; i < len / 512; i++, b += 512, off += 512) {
        memcpy(b + (line << 6), &off, sizeof(off));
        memcpy(b + 64 - 16, &sec, sizeof(sec));
        memcpy(b + 64 - 8, &nsec, sizeof(nsec));
    }
}
