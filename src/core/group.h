/*
 * group.h - run several jobs at the same time (the jobs of one fio run
 * step: everything between two stonewall / wait_for_previous barriers).
 *
 * Each job runs through iom_run() on its own coordinating thread, so each
 * keeps its own phases (ramp_time, runtime or size limit), worker threads,
 * engine and result, exactly as fio runs concurrent jobs side by side; the
 * call returns when the last job has finished. A single job is the same as
 * calling iom_run() directly.
 */
#ifndef IOMARK_CORE_GROUP_H
#define IOMARK_CORE_GROUP_H

#include "core/runner.h"

/*
 * Run jobs[0..nr_jobs) concurrently; job i on the nr_targets[i] prepared and
 * opened targets targets[i][]. All jobs start together (a gate opens once
 * every coordinating thread exists; if one cannot be created, none runs), except
 * that job i with ctl->wait_for[i] = j (0 <= j < i; -1: none; fio's wait_for)
 * starts when job j has returned; each job's startdelay then follows in
 * iom_run(). When a job with exitall (or exitall_on_error, and it failed)
 * returns, the others end now (hooks.end; fio's exitall): those of its group
 * (ctl->groupid) with exit_what 0, every one with 1 or 2; with 2 also
 * ctl->ended_all is set, so the caller runs no later step. ctl may be NULL. hooks->stop stops every job;
 * hooks->progress is given to job 0 only (one progress line). out[i]
 * receives job i's result (caller frees each with iom_result_free); an
 * entry may be NULL only when that job ran out of memory.
 * Returns 0 when every job returned 0, else the first non-zero return of
 * iom_run() in job order (the results still hold what was measured), or
 * -EAGAIN / -ENOMEM when a coordinating thread could not be started (the
 * jobs already started are joined first).
 */
struct iom_group_ctl {
    const int *wait_for;      /* per job: an earlier job to start after, or -1; NULL: none */
    const uint32_t *groupid;  /* per job: its reporting group (exitall's scope); NULL: one */
    bool ended_all;           /* out: a job with exitall and exit_what=all ended */
};

int iom_run_group(const struct iom_job *const *jobs, struct iom_target *const *targets,
                  const unsigned *nr_targets, unsigned nr_jobs, struct iom_group_ctl *ctl,
                  const struct iom_run_hooks *hooks, struct iom_result **out);

#endif
