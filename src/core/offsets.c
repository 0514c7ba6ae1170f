/* offsets.c - sequential, random, zipf, pareto and zoned offset generators. */
#include "core/offsets.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

void iom_rng_seed(struct iom_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

/* Zipf over ranks 1..n with exponent s: rejection-inversion sampling
 * (W. Hormann, G. Derflinger, "Rejection-inversion to generate variates
 * from monotone discrete distributions", 1996), O(1) per draw, no table. */
static double zipf_h(double x, double s)
{
    return s == 1.0 ? log(x) : (pow(x, 1.0 - s) - 1.0) / (1.0 - s);
}

static double zipf_hinv(double x, double s)
{
    return s == 1.0 ? exp(x) : pow(1.0 + x * (1.0 - s), 1.0 / (1.0 - s));
}

static uint64_t zipf_draw(struct iom_offgen *g)
{
    double s = g->zipf_s;
    for (;;) {
        double u = g->zipf_hxn + iom_rng_unit(&g->rng) * (g->zipf_hx0 - g->zipf_hxn);
        double x = zipf_hinv(u, s);
        double k = floor(x + 0.5);
        if (k < 1)
            k = 1;
        if (k > (double)g->dist_n)
            k = (double)g->dist_n;
        if (k - x <= g->zipf_c || u >= zipf_h(k + 0.5, s) - pow(k, -s))
            return (uint64_t)k - 1;
    }
}

/* Spread hot ranks over the range, as fio does, so the hot set is not
 * one contiguous area at the start. A fixed 64-bit mix keeps it a bijection
 * only in expectation; collisions only shift a little probability mass. */
static uint64_t scatter(uint64_t rank, uint64_t n)
{
    uint64_t x = rank * UINT64_C(0x9e3779b97f4a7c15);
    x ^= x >> 29;
    return (uint64_t)(((unsigned __int128)x * n) >> 64);
}

/* An empty map: the bits past map_n are set so they are never taken. */
static void map_reset(struct iom_offgen *g)
{
    uint64_t words = (g->map_n + 63) / 64;
    memset(g->map, 0, words * sizeof(uint64_t));
    memset(g->map1, 0, (words + 63) / 64 * sizeof(uint64_t));
    if (g->map_n % 64) {
        g->map[words - 1] = ~UINT64_C(0) << (g->map_n % 64);
    }
    g->map_left = g->map_n;
}

/* Set unit u; keep the level of full words. */
static void map_set(struct iom_offgen *g, uint64_t u)
{
    uint64_t w = u / 64;
    g->map[w] |= UINT64_C(1) << (u % 64);
    if (g->map[w] == ~UINT64_C(0))
        g->map1[w / 64] |= UINT64_C(1) << (w % 64);
    g->map_left--;
}

static bool map_get(const struct iom_offgen *g, uint64_t u)
{
    return (g->map[u / 64] >> (u % 64)) & 1;
}

/* The first free unit at or after u, wrapping; the map has one. */
static uint64_t map_next_free(const struct iom_offgen *g, uint64_t u)
{
    uint64_t words = (g->map_n + 63) / 64, w = u / 64;
    uint64_t free_bits = ~g->map[w] & (~UINT64_C(0) << (u % 64));
    if (free_bits)
        return w * 64 + (uint64_t)__builtin_ctzll(free_bits);
    /* the next word that is not full, from the level above */
    uint64_t l1n = (words + 63) / 64;
    uint64_t start = w + 1;
    for (uint64_t pass = 0; pass < 2; pass++) {
        for (uint64_t i = start / 64; i < l1n; i++) {
            uint64_t notfull = ~g->map1[i];
            if (i == start / 64)
                notfull &= ~UINT64_C(0) << (start % 64);
            if (i == l1n - 1 && words % 64)
                notfull &= (UINT64_C(1) << (words % 64)) - 1;
            if (notfull) {
                uint64_t ww = i * 64 + (uint64_t)__builtin_ctzll(notfull);
                return ww * 64 + (uint64_t)__builtin_ctzll(~g->map[ww]);
            }
        }
        start = 0;
    }
    return u; /* not reached while map_left > 0 */
}

void iom_offgen_free(struct iom_offgen *g)
{
    free(g->map);
    free(g->map1);
    g->map = g->map1 = NULL;
}

int iom_offgen_init(struct iom_offgen *g, const struct iom_job *job, uint64_t region_start,
                    uint64_t region_len, unsigned thread_idx, unsigned nr_threads,
                    uint64_t *shared_next, uint64_t seed, const char **why)
{
    memset(g, 0, sizeof(*g));
    g->job = job;
    iom_rng_seed(&g->rng, seed);
    uint64_t max_bs = iom_job_max_bs(job);
    g->random = iom_job_random(job);
    g->read_pct = iom_job_read_pct(job);
    g->align = job->blockalign_bytes ? job->blockalign_bytes : max_bs;
    g->wbs_own = iom_job_write_sizes(job);
    if (job->nr_bssplit || g->wbs_own) {
        /* mixed sizes: align to the smallest block unless told otherwise */
        if (!job->blockalign_bytes)
            g->align = iom_job_min_bs(job);
        uint32_t cum = 0;
        for (uint32_t i = 0; i < job->nr_wbssplit; i++) {
            cum += job->wbssplit[i].pct;
            g->wbs_cum[i] = cum;
        }
        cum = 0;
        for (uint32_t i = 0; i < job->nr_bssplit; i++) {
            cum += job->bssplit[i].pct;
            g->bs_cum[i] = cum;
        }
    }
    g->stride = job->seq_stride_bytes ? job->seq_stride_bytes : max_bs;
    g->start = region_start;
    g->len = region_len;
    g->shared_next = job->seq_shared ? shared_next : NULL;

    if (job->offset_increment_bytes) {
        /* fio's offset_increment: clone k's region starts k increments later, with the
         * job's size (or to the end of the target without one) */
        uint64_t skip = job->offset_increment_bytes * thread_idx;
        if (thread_idx && (skip / thread_idx != job->offset_increment_bytes ||
                           skip >= region_len)) {
            *why = "offset_increment x clone number is past the end of the region";
            return -EINVAL;
        }
        g->start = region_start + skip;
        g->len = job->size_bytes ? job->size_bytes : region_len - skip;
        if (g->len > region_len - skip)
            g->len = region_len - skip;
    } else if (!g->random && !job->seq_shared && nr_threads > 1) {
        if (job->thread_stride_bytes || job->seq_same_start) {
            /* DiskSpd -T: all threads walk the whole region, starting apart
             * (DiskSpd without -T: all from the start, stride 0) */
            /* DiskSpd refuses a start past the end ("The file is too small"); no wrap */
            if (job->thread_stride_bytes &&
                job->thread_stride_bytes * (uint64_t)(nr_threads - 1) + max_bs > region_len) {
                *why = "file too small: -T thread stride x (threads-1) + block size is past the "
                       "end of the region (DiskSpd refuses this too)";
                return -EINVAL;
            }
            g->next = (job->thread_stride_bytes * thread_idx) % region_len;
            g->next -= g->next % g->align;
        } else {
            /* disjoint slices, each a whole number of blocks */
            uint64_t slice = region_len / nr_threads;
            slice -= slice % max_bs;
            if (slice < max_bs) {
                *why = "the region is too small to give each sequential thread its own block; "
                       "use a larger size or shared sequential offsets";
                return -EINVAL;
            }
            g->start = region_start + slice * thread_idx;
            g->len = slice;
        }
    }
    if (g->len < max_bs) {
        *why = "the region is smaller than one block";
        return -EINVAL;
    }
    if (job->seq_back_bytes && g->len < job->seq_back_bytes) {
        /* fio would wrap to (end - skip) below the region's start */
        *why = "the region is smaller than the backward skip (rw=read:-N)";
        return -EINVAL;
    }
    g->dist_n = (g->len - max_bs) / g->align + 1;
    g->next_w = g->next; /* DiskSpd -T: both directions from the thread's start */
    g->seq_dirs = !g->random && g->read_pct > 0 && g->read_pct < 100 && !g->shared_next &&
                  !job->seq_back_bytes;
    if (job->random_map && g->random) {
        uint64_t units = g->len / g->align;
        if (units <= IOM_OFFGEN_MAP_MAX_UNITS) {
            uint64_t words = (units + 63) / 64;
            g->map = calloc(words, sizeof(uint64_t));
            g->map1 = calloc((words + 63) / 64, sizeof(uint64_t));
            if (!g->map || !g->map1) {
                iom_offgen_free(g);
                *why = "no memory for the random map";
                return -ENOMEM;
            }
            g->map_n = units;
            map_reset(g);
        } else {
            /* full-period LCG over 2^k >= the number of whole-block offsets */
            uint64_t m = g->dist_n;
            unsigned k = 1;
            while (k < 64 && (UINT64_C(1) << k) < m)
                k++;
            g->perm = true;
            g->perm_m = m;
            g->perm_mask = k == 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1;
            g->perm_shift = k / 2 + 1;
            g->perm_a = ((iom_rng_next(&g->rng) << 2) | 1) & g->perm_mask;
            if ((g->perm_a & 3) != 1)
                g->perm_a = 5;
            g->perm_c = (iom_rng_next(&g->rng) | 1) & g->perm_mask;
            g->perm_x = iom_rng_next(&g->rng) & g->perm_mask;
        }
    }
    if (job->dist == IOM_DIST_ZIPF) {
        g->zipf_s = job->dist_param;
        g->zipf_hx0 = zipf_h(1.5, g->zipf_s) - 1.0;
        g->zipf_hxn = zipf_h((double)g->dist_n + 0.5, g->zipf_s);
        g->zipf_c = 2.0 - zipf_hinv(zipf_h(2.5, g->zipf_s) - pow(2.0, -g->zipf_s), g->zipf_s);
    }
    return 0;
}

uint32_t iom_offgen_bs(struct iom_offgen *g)
{
    const struct iom_job *job = g->job;
    if (!job->nr_bssplit)
        return (uint32_t)job->bs_bytes;
    uint32_t r = (uint32_t)iom_rng_below(&g->rng, 100);
    for (uint32_t i = 0; i < job->nr_bssplit; i++)
        if (r < g->bs_cum[i])
            return (uint32_t)job->bssplit[i].bs_bytes;
    return (uint32_t)job->bssplit[job->nr_bssplit - 1].bs_bytes;
}

uint32_t iom_offgen_bs_dir(struct iom_offgen *g, bool is_write)
{
    const struct iom_job *job = g->job;
    if (!is_write || !g->wbs_own)
        return iom_offgen_bs(g);
    if (!job->nr_wbssplit)
        return (uint32_t)job->wbs_bytes;
    uint32_t r = (uint32_t)iom_rng_below(&g->rng, 100);
    for (uint32_t i = 0; i < job->nr_wbssplit; i++)
        if (r < g->wbs_cum[i])
            return (uint32_t)job->wbssplit[i].bs_bytes;
    return (uint32_t)job->wbssplit[job->nr_wbssplit - 1].bs_bytes;
}

static uint64_t random_unit(struct iom_offgen *g, uint64_t n)
{
    const struct iom_job *job = g->job;
    switch (job->dist) {
    case IOM_DIST_ZIPF:
        return scatter(zipf_draw(g), n);
    case IOM_DIST_PARETO: {
        /* fio's pareto: n * u^(log(h)/log(1-h)), then scattered */
        double h = job->dist_param;
        double v = pow(iom_rng_unit(&g->rng), log(h) / log(1.0 - h));
        uint64_t k = (uint64_t)(v * (double)(n - 1));
        return scatter(k, n);
    }
    case IOM_DIST_ZONED: {
        uint32_t r = (uint32_t)iom_rng_below(&g->rng, 100), acc = 0, base_pct = 0;
        for (uint32_t i = 0; i < job->nr_zones; i++) {
            acc += job->zones[i].access_pct;
            if (r < acc || i + 1 == job->nr_zones) {
                uint64_t lo = n * base_pct / 100;
                uint64_t hi = n * (base_pct + job->zones[i].range_pct) / 100;
                if (hi <= lo)
                    hi = lo + 1;
                if (hi > n)
                    hi = n;
                return lo + iom_rng_below(&g->rng, hi - lo);
            }
            base_pct += job->zones[i].range_pct;
        }
        return 0;
    }
    default:
        return iom_rng_below(&g->rng, n);
    }
}

/* fio's backward skips (rw=read:-N; io_u.c get_next_seq_offset, fio 3.33):
 * the first I/O is at the region's start; then each starts N bytes before the
 * end of the previous one (last = previous offset + bs), and when that would
 * be below the start, at N before the region's end. g->next holds `last`,
 * relative to the start. fio counts no new pass here (it never invalidates
 * again), so neither does this. */
static uint64_t back_next(struct iom_offgen *g, uint32_t bs)
{
    uint64_t skip = g->job->seq_back_bytes, last = g->next, pos;
    if (last == 0)
        pos = 0;
    else if (last >= skip)
        pos = last - skip;
    else
        pos = g->len - skip;
    g->next = pos + bs;
    return pos;
}

uint64_t iom_offgen_next(struct iom_offgen *g, uint32_t bs)
{
    const struct iom_job *job = g->job;
    bool random = g->random;
    if (random && job->percentage_random < 100)
        random = iom_rng_below(&g->rng, 100) < job->percentage_random;
    if (random) {
        uint64_t n = (g->len - bs) / g->align + 1;
        return g->start + random_unit(g, n) * g->align;
    }
    if (job->seq_back_bytes)
        return g->start + back_next(g, bs);
    uint64_t pos;
    if (g->shared_next) {
        uint64_t span = g->len / g->stride * g->stride;
        pos = __atomic_fetch_add(g->shared_next, g->stride, __ATOMIC_RELAXED) % span;
    } else {
        if (g->next + bs > g->len) {
            g->next = 0;
            g->passes++;
        }
        pos = g->next;
        /* fio io_u.c get_next_seq_offset: the next I/O starts where this one ends (plus
         * rw=...:N), so mixed sizes leave no holes */
        g->next += job->seq_stride_bytes ? g->stride : bs;
    }
    if (pos + bs > g->len)
        pos = 0; /* wrap: a tail shorter than a block is not used */
    return g->start + pos;
}

uint64_t iom_offgen_take(struct iom_offgen *g, uint32_t *bs)
{
    const struct iom_job *job = g->job;
    if (!g->random && !g->shared_next && !job->seq_back_bytes && !job->seq_stride_bytes &&
        (job->nr_bssplit || g->wbs_own) && g->next + *bs > g->len) {
        /* fio io_u.c get_next_buflen: at the region's end a size that still fits (here
         * the smallest), so the last bytes are written before the pass wraps */
        uint64_t m = iom_job_min_bs(job);
        if (g->next + m <= g->len)
            *bs = (uint32_t)m;
    }
    if (!g->map && !g->perm)
        return iom_offgen_next(g, *bs);
    if (job->percentage_random < 100 && iom_rng_below(&g->rng, 100) >= job->percentage_random) {
        bool r = g->random;
        g->random = false;
        uint64_t off = iom_offgen_next(g, *bs);
        g->random = r;
        return off;
    }
    if (g->perm) {
        uint64_t y;
        do {
            g->perm_x = (g->perm_a * g->perm_x + g->perm_c) & g->perm_mask;
            y = g->perm_x ^ (g->perm_x >> g->perm_shift);
            y = (y * UINT64_C(0x9e3779b97f4a7c15)) & g->perm_mask;
        } while (y >= g->perm_m);
        return g->start + y * g->align;
    }
    uint64_t u = random_unit(g, g->map_n);
    if (map_get(g, u))
        u = map_next_free(g, u);
    uint64_t want = (*bs + g->align - 1) / g->align, got = 0;
    while (got < want && u + got < g->map_n && !map_get(g, u + got)) {
        map_set(g, u + got);
        got++;
    }
    if (got * g->align < *bs)
        *bs = (uint32_t)(got * g->align);
    if (g->map_left == 0) {
        map_reset(g); /* the pass is complete: the next one starts */
        g->passes++;
    }
    return g->start + u * g->align;
}

uint64_t iom_offgen_take_dir(struct iom_offgen *g, uint32_t *bs, bool is_write)
{
    if (!g->seq_dirs || !is_write)
        return iom_offgen_take(g, bs);
    uint64_t reads = g->next; /* the walk below advances the writes' position */
    g->next = g->next_w;
    uint64_t off = iom_offgen_take(g, bs);
    g->next_w = g->next;
    g->next = reads;
    return off;
}

uint64_t iom_offgen_unused_tail(const struct iom_job *job, uint64_t region_len,
                                unsigned nr_threads)
{
    uint64_t bs = iom_job_max_bs(job);
    if (region_len < bs)
        return region_len;
    if (iom_job_random(job)) {
        uint64_t align = job->blockalign_bytes ? job->blockalign_bytes : bs;
        if ((job->nr_bssplit || iom_job_write_sizes(job)) && !job->blockalign_bytes)
            align = iom_job_min_bs(job);
        uint64_t last = (region_len - bs) / align * align; /* highest offset used */
        return region_len - (last + bs);
    }
    if (job->seq_back_bytes) /* the highest I/O is at end - skip (back_next) */
        return job->seq_back_bytes - bs < region_len ? job->seq_back_bytes - bs : region_len;
    if (nr_threads > 1 && !job->seq_shared && !job->thread_stride_bytes && !job->seq_same_start) {
        uint64_t slice = region_len / nr_threads;
        slice -= slice % bs;
        return region_len - slice * nr_threads;
    }
    uint64_t stride = job->seq_stride_bytes ? job->seq_stride_bytes : bs;
    uint64_t last = (region_len - bs) / stride * stride;
    return region_len - (last + bs);
}

uint64_t iom_offgen_pass_bytes(const struct iom_offgen *g)
{
    uint64_t bs = iom_job_max_bs(g->job);
    if (g->map)
        return g->map_n * g->align;
    if (g->len < bs)
        return 0;
    if (g->job->seq_back_bytes) /* fio 3.33 goes on until size is done: a partial block's
                                   worth rounds up to a whole I/O (size=30k bs=4k: 8 reads) */
        return (g->len + bs - 1) / bs * bs;
    if (!g->random && !g->job->nr_bssplit && g->stride > bs)
        return ((g->len - bs) / g->stride + 1) * bs;
    return g->len - iom_offgen_unused_tail(g->job, g->len, 1);
}
