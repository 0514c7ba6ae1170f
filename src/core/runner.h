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
    double iops;         /* over the last second, all phases (IOM_PHASE_STOP: the
                          * one call at the end, over the measured phase as in
                          * the result; with none measured, since the last call) */
    double mib_per_s;
};

/* Events of a run whose phases several processes share (struct iom_run_sync). */
enum iom_rsync_event {
    IOM_RSYNC_NONE = 0,
    IOM_RSYNC_MEASURE = 1, /* switch from warm-up to the measured phase now */
    IOM_RSYNC_END = 2,     /* end the measured phase now */
    IOM_RSYNC_STOP = 3,    /* stop now, interrupted (wish: a signal arrived here) */
    IOM_RSYNC_DONE = 4,    /* wish only: this process's I/O limit is reached */
};

/*
 * Optional coordination of the phases with other processes (src/mpi/ uses it
 * so every rank measures the same window). All callbacks run on the thread
 * that called iom_run(), never on a worker thread.
 */
struct iom_run_sync {
    /* Called once after the workers are set up and before warm-up starts,
     * with this process's status (0 or -errno). Returns the status every
     * participant agreed on: 0 = start at *start_at (CLOCK_MONOTONIC ns of
     * this process, iom_now_ns(); 0 = now; the runner sleeps until then),
     * non-zero = do not start; why (whylen bytes) then says which other
     * participant failed and why (on entry: this process's own reason when
     * local_rc is non-zero, or ""). Blocks until all participants called it. */
    int (*ready)(void *arg, int local_rc, char *why, size_t whylen, uint64_t *start_at);
    /* Called on every pass of the control loop with this process's wish
     * (an enum iom_rsync_event: what its own clock, signal or I/O limit
     * says; IOM_RSYNC_NONE when nothing). A MEASURE or END wish comes
     * lead_ns before its instant, which *at holds on entry (iom_now_ns()
     * clock; for other wishes *at is now). Returns the event decided for
     * all (never DONE) and, for MEASURE and END, its instant on this
     * process's clock in *at (it may lie ahead: the runner publishes the
     * boundary at once and switches when its clock gets there). *sig holds
     * the local signal on entry (0 if none); on IOM_RSYNC_STOP it receives
     * the signal that stopped the run (on any participant). Must not block. */
    int (*poll)(void *arg, int wish, int *sig, uint64_t *at);
    /* (poll is also called, with IOM_RSYNC_NONE and its result ignored,
     * while the runner waits after the run for its threads to finish their
     * last I/Os, so a participant slow to finish still shows signs of life.) */
    uint64_t max_sleep_ns; /* longest sleep of the control loop (0: 50 ms) */
    uint64_t lead_ns;      /* how early MEASURE and END wishes are made */
    void *arg;
};

struct iom_run_hooks {
    /* Polled every 50 ms at most; non-zero = stop now and report what was
     * measured (SIGINT/SIGTERM handlers set it). May be NULL. */
    const volatile sig_atomic_t *stop;
    /* Called about once a second when non-NULL. */
    void (*progress)(const struct iom_progress *p, void *arg);
    void *arg;
    /* When non-NULL, the phases follow this coordinator instead of the
     * local clock alone (see struct iom_run_sync). */
    const struct iom_run_sync *sync;
    /* Check mode, when non-NULL: each worker thread i writes the latency (ns,
     * one decimal per line) of every I/O counted in the measured phase to
     * the file "<latency_log>.<i>" (created, truncated). For tests that
     * compute percentiles independently of the histograms. */
    const char *latency_log;
    /* When non-NULL (and without sync): called once on the run's thread after its
     * workers are set up, just before its clock starts; it may block (iom_run_group
     * lines up the clocks of the jobs it starts together, as fio starts its jobs).
     * Returns the run's start on the iom_now_ns() clock (ns), shared by the runs
     * it lines up so that their windows start and end at the same instant
     * whichever control thread the machine wakes first; 0 = now. */
    uint64_t (*before_start)(void *arg);
    void *before_start_arg;
    /* When non-NULL: non-zero ends the run now as if its time were up (fio's
     * exitall ending the other jobs); not an interruption. Polled as stop. */
    const volatile int *end;
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
