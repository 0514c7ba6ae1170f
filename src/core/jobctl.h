/*
 * jobctl.h - what fio's job options say about when, how fast at least, in
 * which proportion and where a job's threads run (fio HOWTO, fio 3.33):
 *   startdelay   the job starts this long after the others (a LOW-HIGH range
 *                is drawn once per job), its ramp_time follows;
 *   rate_min / rate_iops_min / rate_cycle
 *                after a 2 s settle period, a thread whose rate in a direction
 *                over rate_cycle falls below the minimum stops with EIO
 *                (fio backend.c __check_min_rate);
 *   flow / flow_id / flow_sleep
 *                threads of the jobs sharing a flow_id issue I/Os in the ratio
 *                of their weights (fio flow.c: a thread is held back while its
 *                share of the flow's I/Os exceeds its share of the weights);
 *   cpus_allowed / cpumask / numa_cpu_nodes / cpus_allowed_policy /
 *   numa_mem_policy
 *                worker threads' CPU affinity (sched_setaffinity) and memory
 *                policy (set_mempolicy), Linux only.
 * Internal to src/core (runner.c, worker.c). Times are CLOCK_MONOTONIC ns.
 */
#ifndef IOMARK_CORE_JOBCTL_H
#define IOMARK_CORE_JOBCTL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/spec.h"

/* The start delay in ns of clone `clone` of the job (fio: each clone draws its own,
 * init.c fixup_options per thread_data): startdelay_ns, or with a range
 * (startdelay_hi_ns above it) a uniform draw from [startdelay_ns, startdelay_hi_ns]
 * seeded by the job's seed, name and the clone's number (so two jobs or two
 * clones draw differently, and the same job file draws the same again). */
uint64_t iom_startdelay_clone(const struct iom_job *job, uint32_t clone);

/* The clone a thread stands for: thread_idx, or with clone_files (fio's
 * generated files) target_idx / clone_files. */
uint32_t iom_clone_of(const struct iom_job *job, uint32_t target_idx, uint32_t thread_idx);

/* The job's start delay: the smallest of its clones' (iom_startdelay_clone over
 * numjobs clones, or nr_targets / clone_files); 0 when none. The run waits this
 * long, and each thread the rest of its clone's delay. */
uint64_t iom_startdelay_pick(const struct iom_job *job);

/* Sleep ns, waking every 50 ms to look at *stop and *end (either may be NULL).
 * Returns 0 after the whole delay, the value of *stop when it became non-zero,
 * or -1 when *end did. */
int iom_startdelay_wait(uint64_t ns, const volatile sig_atomic_t *stop, const volatile int *end);

/* ---- minimum rate ---- */
struct iom_ratemin {
    bool on;
    uint64_t t0, min_bytes, min_iops, cycle_ns;
    uint64_t last_t[3], last_bytes[3], last_ios[3]; /* per direction: 0 read, 1 write, 2 trim */
    bool have[3];
};

/* Set up the check for a thread that started at t0 (no check when the job sets
 * neither rate_min nor rate_iops_min). */
void iom_ratemin_init(struct iom_ratemin *m, const struct iom_job *job, uint64_t t0);

/* Check at `now` with the thread's completed bytes and I/Os per direction so
 * far (a direction without any is skipped, as fio). Returns false while the
 * minimum holds (or is not yet due); true when it failed, with fio's message in
 * msg: "NAME: rate_min=NB/s not met, got MB/s" or "NAME: rate_iops_min=N not
 * met, got M IOPS". */
bool iom_ratemin_failed(struct iom_ratemin *m, const char *name, uint64_t now,
                        const uint64_t bytes[3], const uint64_t ios[3], char *msg, size_t len);

/* ---- flow ---- */
struct iom_flow; /* one per flow_id, shared by every run in the process */

/* Join flow `id` with `weight` (> 0). NULL when out of memory (the thread then
 * runs without flow control). */
struct iom_flow *iom_flow_join(uint32_t id, uint32_t weight);

/* Whether a thread of `weight` that issued *mine I/Os under flow f must hold
 * back now (its share of the flow's I/Os is above its share of the weights);
 * when not, counts the I/O it is about to issue (*mine and the flow's). */
bool iom_flow_held(struct iom_flow *f, uint64_t *mine, uint32_t weight);

/* Leave the flow: take the thread's I/Os and weight out (the last one frees it). */
void iom_flow_leave(struct iom_flow *f, uint64_t mine, uint32_t weight);

/* ---- placement ---- */

/* Bind the calling thread (worker number `idx` of the run) to the job's CPUs
 * (all of them; with cpus_split only the (idx mod n)-th of the n CPUs), set
 * its memory policy, and its I/O priority with job->ioprio_given (ioprio_set(2)
 * IOPRIO_WHO_PROCESS on the thread, value class << 13 | level, class 0 taken as
 * best-effort as fio's os-linux.h ioprio_value; the real-time class needs
 * CAP_SYS_ADMIN). 0 when the job asks for none or all succeeded; else
 * -errno with the reason in err (errlen bytes). Linux only; elsewhere -ENOTSUP
 * when the job asks for it. */
int iom_place_thread(const struct iom_job *job, unsigned idx, char *err, size_t errlen);

#endif
