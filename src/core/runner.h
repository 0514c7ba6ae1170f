/*
 * runner.h - run one job on prepared targets and measure it.
 *
 * The runner starts job->numjobs worker threads per target, each with its
 * own engine instance and job->iodepth I/O slots, takes the phases
 * (warm-up, measured, cool-down) on the calling thread, samples the
 * per-interval series and CPU use, and returns a struct iom_result.
 * Only I/Os that complete inside the measured phase are counted; rates are
 * divided by the measured phase's actual length.
 */
#ifndef IOMARK_CORE_RUNNER_H
#define IOMARK_CORE_RUNNER_H

#include <signal.h>

#include "core/target.h"
#include "workload/spec.h"
#include "stats/result.h"

enum iom_phase { IOM_PHASE_WARMUP, IOM_PHASE_MEASURE, IOM_PHASE_COOLDOWN, IOM_PHASE_STOP };

/* What the progress callback sees, about once a second. */
struct iom_progress {
    enum iom_phase phase;
    double elapsed_s;    /* since the start of the run */
    double remaining_s;  /* until the end of the run, < 0 when unknown (size-based) */
    double iops;         /* over the last second, all phases */
    double mib_per_s;
};

struct iom_run_hooks {
    /* Polled every 50 ms at most; non-zero = stop now and report what was
     * measured (SIGINT/SIGTERM handlers set it). May be NULL. */
    const volatile sig_atomic_t *stop;
    /* Called about once a second when non-NULL. */
    void (*progress)(const struct iom_progress *p, void *arg);
    void *arg;
};

/*
 * Run `job` on the nr targets t[] (checked, prepared and opened: t[i].fd >= 0).
 * On success returns 0 and *out (the caller frees it with iom_result_free).
 * A run stopped by hooks->stop also returns 0, with
 * (*out)->interrupted_signal set to the value of *stop.
 * On failure (engine set-up, I/O error that stops every thread) returns
 * -errno, and *out, when not NULL, holds what was measured and the reason
 * in (*out)->error.
 * If job->ioengine is io_uring and io_uring is unavailable (kernel too old,
 * kernel.io_uring_disabled, seccomp), libaio is used and the result says so
 * in engine_note.
 */
int iom_run(const struct iom_job *job, struct iom_target *t, unsigned nr,
            const struct iom_run_hooks *hooks, struct iom_result **out);

struct iom_engine_ops;

/*
 * iom_run with the engine ops instead of the one job->ioengine names (no
 * availability check, no fallback): for tests with a scripted engine and
 * for engines outside the registry. ops == NULL is iom_run. Same returns.
 */
int iom_run_ops(const struct iom_job *job, struct iom_target *t, unsigned nr,
                const struct iom_run_hooks *hooks, const struct iom_engine_ops *ops,
                struct iom_result **out);

/* Monotonic clock in ns (CLOCK_MONOTONIC). */
uint64_t iom_now_ns(void);

#endif
