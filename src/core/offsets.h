/*
 * offsets.h - per-thread offset and block-size generators.
 *
 * Random numbers come from xoshiro256** (Blackman & Vigna, 2018), seeded
 * through splitmix64; a range is drawn with Lemire's multiply-shift
 * ("Fast random integer generation in an interval", 2019) without the
 * rejection step: the bias is below n / 2^64, far under any measurable
 * effect for ranges of block counts.
 */
#ifndef IOMARK_CORE_OFFSETS_H
#define IOMARK_CORE_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/spec.h"

struct iom_rng {
    uint64_t s[4];
};

/* Seed a generator; any seed (including 0) gives a valid state. */
void iom_rng_seed(struct iom_rng *r, uint64_t seed);

static inline uint64_t iom_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* Next 64 random bits (xoshiro256**). */
static inline uint64_t iom_rng_next(struct iom_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = iom_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = iom_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n); n >= 1. */
static inline uint64_t iom_rng_below(struct iom_rng *r, uint64_t n)
{
    return (uint64_t)(((unsigned __int128)iom_rng_next(r) * n) >> 64);
}

/* Uniform double in [0, 1). */
static inline double iom_rng_unit(struct iom_rng *r)
{
    return (double)(iom_rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * Offset generator of one worker thread on one target region.
 * For sequential patterns each thread walks its own slice of the region
 * [region_start, region_start + region_len) unless the job shares one
 * offset among the threads (seq_shared; then *shared_next is used with an
 * atomic fetch-add). Random patterns draw over the whole region.
 */
struct iom_offgen {
    struct iom_rng rng;
    const struct iom_job *job;
    uint64_t start, len;       /* this thread's range in bytes */
    uint64_t next;             /* sequential position, relative to start */
    uint64_t next_w;           /* seq_dirs: the writes' own position (next is the reads') */
    bool seq_dirs;             /* a sequential read/write mix: each direction walks on its own */
    bool idle;                 /* offset_increment puts this clone past the end: no I/O (fio) */
    uint64_t stride;           /* sequential step in bytes */
    uint64_t align;            /* random alignment in bytes */
    uint64_t *shared_next;     /* seq_shared: counter shared by the target's threads */
    bool random;
    uint32_t read_pct;         /* iom_job_read_pct() */
    /* zipf (rejection-inversion) constants */
    double zipf_hx0, zipf_hxn, zipf_s, zipf_c;
    uint64_t dist_n;           /* number of alignment units in the range */
    uint32_t bs_cum[IOM_MAX_BSSPLIT]; /* cumulative bssplit percentages */
    bool wbs_own;              /* writes have sizes of their own (job->wbs_bytes/wbssplit) */
    uint32_t wbs_cum[IOM_MAX_BSSPLIT]; /* cumulative wbssplit percentages */
    /* job->random_map: each alignment unit once per pass (see iom_offgen_take) */
    uint64_t *map, *map1;      /* bitmap mode: used units, and full 64-unit words; owned */
    uint64_t map_n, map_left;  /* units in the map, units not yet used this pass */
    uint64_t passes;           /* passes completed: random map emptied, or a sequential
                                  walk wrapped to the start (not with seq_shared) */
    bool perm;                 /* permutation mode (regions too large for a bitmap) */
    uint64_t perm_mask, perm_x, perm_a, perm_c, perm_m;
    unsigned perm_shift;
};

/* Largest random map kept as a bitmap, in alignment units (16 MiB of bits
 * per thread); larger regions use the permutation generator. */
#define IOM_OFFGEN_MAP_MAX_UNITS (UINT64_C(1) << 27)

/*
 * Set up thread `thread_idx` of `nr_threads` on a target region
 * [region_start, region_start + region_len) bytes. shared_next is the
 * target's shared sequential counter (only used with seq_shared).
 * Returns 0, or -EINVAL with *why set when the thread's slice is smaller
 * than one block, or -ENOMEM (random map). Free with iom_offgen_free().
 */
int iom_offgen_init(struct iom_offgen *g, const struct iom_job *job, uint64_t region_start,
                    uint64_t region_len, unsigned thread_idx, unsigned nr_threads,
                    uint64_t *shared_next, uint64_t seed, const char **why);
/* With job->offset_increment_bytes (fio's offset_increment), thread k's range
 * is [region_start + k x increment, + size_bytes), or to the region's end
 * without a size, and the region spans every thread's range
 * (iom_job_span_bytes); a thread whose range would start less than a block before
 * the region's end (a file smaller than the span) gets g->idle: it does no I/O, as a
 * fio 3.33 clone past the file's end. */

/*
 * Bytes at the end of a region of region_len bytes that no I/O of `job`
 * with nr_threads threads can touch, because they do not make a whole
 * block (or alignment unit): random I/O ends at the last aligned offset
 * where a largest block still fits; sequential slices are whole blocks;
 * backward skips (job->seq_back_bytes = N) never reach above end - N + bs,
 * so N - bs bytes.
 */
uint64_t iom_offgen_unused_tail(const struct iom_job *job, uint64_t region_len,
                                unsigned nr_threads);

/*
 * Offset of the next I/O; *bs (bytes, from iom_offgen_bs) may be shortened.
 * Without job->random_map (fio's norandommap; iomark's native default) this
 * is iom_offgen_next(). With it, random offsets follow fio's random map
 * (fio's io_u.c: get_next_rand_offset, mark_random_map), in units of the
 * alignment (the smallest block size):
 * - regions of at most IOM_OFFGEN_MAP_MAX_UNITS units keep a two-level
 *   bitmap: a unit is drawn from the job's distribution with xoshiro256**;
 *   if it was used this pass the next free unit after it (wrapping) is
 *   taken, and the I/O is cut to the free units that follow it (so a 64k
 *   block over partly used space shrinks, as in fio); when every unit has
 *   been used a new pass starts with an empty map;
 * - larger regions walk a full-period permutation of the block numbers
 *   (an LCG modulo 2^k, a ≡ 1 mod 4 and c odd, scrambled by a k-bit
 *   bijection, values >= the block count skipped: Hull-Dobell theorem), so
 *   each block comes once per pass with O(1) memory, without shortening.
 * Sequential I/Os of a mixed pattern (percentage_random < 100) are not
 * marked. Never fails.
 */
uint64_t iom_offgen_take(struct iom_offgen *g, uint32_t *bs);

/*
 * Bytes one pass over g's range transfers when no I/O wraps inside the pass
 * (fio's size-based jobs: a 30 KiB file read with bs=4k is 7 reads, 28 KiB,
 * the tail left): with a random map, every alignment unit once (units x
 * alignment); a sequential walk with a skip (stride > bs, fixed bs), the
 * blocks it reads (count x bs); backward skips (job->seq_back_bytes), the
 * range rounded up to whole blocks (fio 3.33 issues I/Os until `size` is
 * done, every offset of the walk lying inside the range); otherwise the range up to the end of the last
 * whole block (iom_offgen_unused_tail with one thread over g->len). 0 when
 * the range holds no block. Pure; never fails.
 */
uint64_t iom_offgen_pass_bytes(const struct iom_offgen *g);

/*
 * iom_offgen_take() for an I/O whose direction is known (is_write). In a
 * sequential mix (rw=rw/readwrite, g->seq_dirs: 0 < rwmixread < 100, not
 * random, no shared offsets, no backward skips) reads and writes keep their
 * own position, as fio does (io_u.c get_next_seq_offset reads and advances
 * f->last_pos[ddir]): size=256k bs=4k gives reads at 0, 4k, 8k, ... and
 * writes at 0, 4k, 8k, ..., the same blocks read and written. Otherwise the
 * same as iom_offgen_take(). Never fails.
 */
uint64_t iom_offgen_take_dir(struct iom_offgen *g, uint32_t *bs, bool is_write);

/* Free what iom_offgen_init allocated (the random map); g may be zeroed. */
void iom_offgen_free(struct iom_offgen *g);

/* Block size of the next I/O in bytes (fixed, or drawn from bssplit). */
uint32_t iom_offgen_bs(struct iom_offgen *g);
/* The same for a write when g->wbs_own (the job's wbs_bytes, or drawn from
 * wbssplit: fio's bs=READ,WRITE); otherwise iom_offgen_bs(g). */
uint32_t iom_offgen_bs_dir(struct iom_offgen *g, bool is_write);

/* Offset in bytes of the next I/O of `bs` bytes; offset + bs never passes the range.
 * With job->seq_back_bytes = N (fio's rw=read:-N, io_u.c get_next_seq_offset):
 * the range's start first, then N before the previous I/O's end, wrapping to
 * N before the range's end (bs=4k N=8k on 64 KiB: 0, 56k, 52k, ..., 4k, 0, 56k). */
uint64_t iom_offgen_next(struct iom_offgen *g, uint32_t bs);

/* True when the next I/O should be a read (rwmixread_pct chance for mixed patterns). */
static inline bool iom_offgen_is_read(struct iom_offgen *g)
{
    uint32_t mix = g->read_pct;
    if (mix >= 100)
        return true;
    if (mix == 0)
        return false;
    return iom_rng_below(&g->rng, 100) < mix;
}

#endif
