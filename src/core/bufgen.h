/*
 * bufgen.h - the data of writes as fio makes it with buffer_pattern,
 * buffer_compress_percentage/_chunk and dedupe_percentage (fio 3.33 io_u.c
 * fill_io_buffer, get_buf_state, save_buf_state; lib/rand.c
 * fill_random_buf_percentage; options.c str_buffer_pattern_cb, str_dedupe_cb;
 * init.c fixup_options). Internal to src/core (core/worker.c).
 *
 *  - compression P % (1..99): each chunk of a write (buffer_compress_chunk,
 *    default 512, or the job's smallest write size when that is smaller or
 *    the chunk is 0) is (100 - P) % random bytes, then
 *    P % zeros, or the pattern when one is set; 100 % is all zeros (or the
 *    pattern);
 *  - dedupe D %: before each write's data is made, with probability D % it
 *    repeats an earlier unique write's bytes: the last one (fio's
 *    dedupe_mode=repeat) or, with dedupe_mode=working_set, one drawn at
 *    random from the first K unique writes, K = size x
 *    dedupe_working_set_percentage / 100 / the smallest write size (fio
 *    dedupe.c init_dedupe_working_set_seeds); 100 % makes every write the
 *    same. Each unique write's data comes from a seed of its own (its
 *    number), so repeating one is regenerating it; with dedupe_global (fio
 *    dedupe.c, global_dedup) the working set of thread t of N (all jobs'
 *    threads, job->threads_all) is cut into runs of P = max(K / N, 1): run c
 *    holds the first P unique writes of thread (t + c) mod N, so jobs repeat
 *    each other's data;
 *  - a pattern alone: every buffer holds the pattern, repeated.
 * fio's scramble_buffers is off with any of these (TD_F_COMPRESS, and the
 * pattern callback clears it); writes get new data each time with
 * compression (1..99 %) or dedupe (fio sets refill_buffers), with a pattern
 * when the job also reads, or with refill_buffers.
 */
#ifndef IOMARK_CORE_BUFGEN_H
#define IOMARK_CORE_BUFGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/offsets.h"
#include "workload/spec.h"

struct iom_bufgen {
    const struct iom_job *job;
    uint64_t base;                       /* seed of the unique writes' seeds */
    uint64_t seed0;                      /* the job's seed (thread 0's) */
    uint32_t self, nall;                 /* dedupe_global: this thread's number; all threads */
    uint64_t next, last;                 /* the next unique write's number; the last one's */
    uint64_t ws;                         /* working set: its number of writes (K) */
    struct iom_rng dedupe;               /* fio dedupe_state: the D % draws */
    uint64_t min_write;                  /* the job's smallest write size */
    bool refill;                         /* new data for every write */
};

/* Whether the job's writes take their data from a bufgen (a pattern,
 * compression or dedupe is set). */
bool iom_bufgen_wanted(const struct iom_job *job);

/* Set up for job (iom_bufgen_wanted true) from seed, the seed of the job's
 * thread number `thread` (0-based within the job; the runner's seed + thread x
 * 0x9e3779b97f4a7c15). Jobs of one job file (job->thread_base) get different data. */
void iom_bufgen_init(struct iom_bufgen *g, const struct iom_job *job, uint64_t seed,
                     uint32_t thread);

/* Fill buf (len bytes) with the next write's data. */
void iom_bufgen_fill(struct iom_bufgen *g, void *buf, uint64_t len);

/* A write's data as fio makes it, in buf (len bytes, 8-byte aligned) of the I/O at
 * offset started at start_ns: refill: new random data from r; else fio's
 * scramble_buffers (io_u.c small_content_scramble): in every 512-byte block the
 * block's offset at a cache line picked from the start time and offset, and the
 * start time (s, ns) in the last 16 bytes of the block's first cache line. */
void iom_bufgen_scramble(void *buf, uint32_t len, uint64_t offset, uint64_t start_ns,
                         struct iom_rng *r, bool refill);

#endif
