/*
 * cmdprio.h - fio's per-I/O priorities in one worker thread (fio 3.33
 * engines/cmdprio.c fio_cmdprio_set_ioprio): for each read or write a number r
 * is drawn uniformly from 0..99; with cmdprio_percentage P the I/O gets the
 * direction's priority when r < P; with cmdprio_bssplit the entries of the
 * I/O's exact size are walked in order and the first whose running sum of
 * percentages exceeds r gives it. The value is ioprio_set(2)'s (class << 13 |
 * level); the engine puts it in the request (io_uring: sqe->ioprio; libaio:
 * IOCB_FLAG_IOPRIO and aio_reqprio). 0 = none: the kernel then uses the
 * thread's own priority (prio/prioclass), as for fio's other I/Os.
 * A job without cmdprio never builds one; the worker's hot loop tests one
 * pointer per I/O.
 */
#ifndef IOMARK_CORE_CMDPRIO_H
#define IOMARK_CORE_CMDPRIO_H

#include <stdint.h>

#include "core/offsets.h"
#include "workload/spec.h"

struct iom_cmdprio {
    struct iom_rng rng;
    uint8_t pct[2];                          /* cmdprio_percentage mode: reads, writes */
    uint16_t prio[2];                        /* their value (cmdprio_class/cmdprio) */
    const struct iom_cmdprio_bs *bs[2];      /* cmdprio_bssplit mode: the job's lists */
    uint8_t nr_bs[2];
};

/*
 * Set c up for job (which must have iom_job_cmdprio true), its draws seeded
 * by seed (the worker's own). A class left 0 is real-time, as fio's
 * fio_cmdprio_parse_and_gen. c borrows job's lists: job outlives it.
 */
void iom_cmdprio_init(struct iom_cmdprio *c, const struct iom_job *job, uint64_t seed);

/* The priority value of one I/O of ddir (0 read, 1 write, else none) and len
 * bytes: as the top of this file says; 0 = none. */
static inline uint16_t iom_cmdprio_pick(struct iom_cmdprio *c, unsigned ddir, uint32_t len)
{
    if (ddir > 1)
        return 0;
    if (!c->nr_bs[ddir]) {
        if (!c->pct[ddir])
            return 0;
        return iom_rng_below(&c->rng, 100) < c->pct[ddir] ? c->prio[ddir] : 0;
    }
    const struct iom_cmdprio_bs *e = c->bs[ddir];
    unsigned i = 0, n = c->nr_bs[ddir];
    while (i < n && e[i].bs != len)
        i++;
    if (i == n)
        return 0; /* no entry for this size: fio's "totally fine" */
    unsigned r = (unsigned)iom_rng_below(&c->rng, 100), sum = 0;
    for (; i < n && e[i].bs == len; i++) {
        sum += e[i].pct;
        if (r < sum)
            return e[i].prio ? e[i].prio : c->prio[ddir];
    }
    return 0;
}

#endif
