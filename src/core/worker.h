/*
 * worker.h - one worker thread of a run (core/runner.c starts them): its
 * engine (with the verify and inject layers when the job asks), its I/O
 * slots, pacing and think time, and the measured counters. Internal to
 * src/core.
 *
 * A completion counts when its completion time falls inside the measured
 * window [meas_start_ns, meas_end_ns) that the main thread publishes; the
 * worker decides once per batch of completions from one timestamp and adds
 * the I/O to its stats, from which the totals and the series are both
 * taken, so each counted I/O is in exactly one series point.
 */
#ifndef IOMARK_CORE_WORKER_H
#define IOMARK_CORE_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/offsets.h"
#include "core/runner.h"
#include "engine/engine.h"

/* State shared by the main thread and the workers. */
struct iom_run_shared {
    int phase;               /* enum iom_phase, atomic */
    int go;                  /* workers start when set */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned nr_ready;       /* workers that finished set-up (ok or not) */
    unsigned nr_finished;    /* workers that stopped on their own (io limit, error) */
    uint64_t start_ns;       /* pacing starts here */
    uint64_t meas_start_ns, meas_end_ns; /* the measured window, 0 = not yet (atomic) */
    uint64_t end_ns;         /* the run's scheduled end (after any cool-down): the
                              * workers stop issuing there themselves, however late
                              * the main thread wakes; 0 = none (io limit; atomic) */
};

struct iom_worker {
    pthread_t tid;
    struct iom_run_shared *sh;
    const struct iom_job *job;
    const struct iom_engine_ops *ops;  /* the device engine */
    struct iom_target *target;
    struct iom_thread_result *res;     /* stats of this thread (measured phase) */
    struct iom_offgen gen;
    unsigned target_idx, thread_idx, nr_threads;
    uint64_t seed;
    uint64_t delay_ns;        /* its clone's start delay beyond the run's (fio: per clone) */
    /* counters for the progress line, all phases; written by the worker only */
    uint64_t ios_all, bytes_all;
    int err;                  /* set-up or fatal I/O error (-errno) */
    char errmsg[256];
    uint64_t err_offset;
    int started;
    int exited;               /* set (release) as the thread function returns */
    /* faults seen (also with --continue_on_error) */
    int first_io_errno;
    uint64_t first_io_offset;
    uint64_t verified, verify_errors;
    struct iom_verify_mismatch mismatch;
    FILE *latlog;             /* check mode (iom_run_hooks.latency_log) or NULL */
    uint64_t last_done_ns;    /* completion time of the last counted I/O (0 = none) */
    bool own_stop;            /* stopped on its own: the I/O limit was reached */
    uint64_t verify_start_ns; /* when its verify phase began (fio's td->start before
                                 do_verify), 0 = none */
};

/* The thread function: set up, wait for sh->go, run until the phase is
 * IOM_PHASE_STOP (or the io limit, or a fatal error), drain, clean up. */
void *iom_worker_main(void *arg);

/* Monotonic sleep until t (ns), restarted after signals. */
void iom_sleep_until_ns(uint64_t t);

#endif
