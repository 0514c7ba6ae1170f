/*
 * replay.h - the workload of an iomark result, back as a job: what
 * `iomark run --replay RESULT.json` reruns.
 *
 * A result's "spec" holds "options", every workload option of the option
 * table as text (workload/options.h, iom_options_each), and "targets".
 * Applying those options to a job with the native defaults gives the same
 * workload: the same pattern, sizes, timing, engine, seed (randseed) and
 * features (thinktime, strides, zones, create size, inject_error, ...).
 */
#ifndef IOMARK_IMPORT_REPLAY_H
#define IOMARK_IMPORT_REPLAY_H

#include <stddef.h>

#include "workload/spec.h"

/*
 * Read the iomark result `path` (a JSON document, optionally after log
 * lines; a run or sweep document with a top-level "spec") and apply its
 * spec.options to job, in table order, then add spec.targets to job's
 * targets. job must hold the native defaults (iom_job_defaults) and no
 * targets. Afterwards the job counts as if no --rwmixread/--rwmixwrite had
 * been given, so options given after the replay may change the mix.
 * Returns 0; -EINVAL with one line in err (the file and the reason: not
 * JSON, no spec.options (a result of an iomark without replay support, or
 * not a run), a value the option table refuses); -ENOENT/-EACCES/... when
 * the file cannot be read; -ENOMEM.
 */
int iom_replay_load(const char *path, struct iom_job *job, char *err, size_t errlen);

#define IOM_REPLAY_MAX_LIST 32 /* a sweep's --threads/--iodepth list at most (cmd_sweep.c) */

/* What a replayed document is, besides the workload it gives. */
struct iom_replay_doc {
    unsigned repeat;       /* a `run --repeat N` document: N; else 0 */
    unsigned sweep_points; /* a sweep document: its planned points (grid x targets); else 0 */
    unsigned sweep_targets;            /* a sweep: its targets */
    unsigned nthreads, niodepth;       /* a sweep: its grid, 0 when not known */
    unsigned threads[IOM_REPLAY_MAX_LIST], iodepth[IOM_REPLAY_MAX_LIST]; /* ascending */
    double knee_pct;       /* a sweep's knee_min_gain_pct; 0 when absent */
};

/*
 * As iom_replay_load, and also says what the document is (*doc, zeroed
 * first). A `run --repeat N` document (type "repeat"): its runs ran one
 * workload, taken from its first run's spec; doc->repeat is N. A sweep
 * document (type "sweep"): its top-level spec is the sweep's workload with
 * numjobs and iodepth of its largest point; doc->sweep_points is its
 * planned_points, and its grid is read from "grid" ({"threads": [...],
 * "iodepth": [...]}, up to IOM_REPLAY_MAX_LIST whole numbers from 1 to 4096
 * each) or, in a document written before iomark recorded the grid, from the
 * distinct threads and iodepth of its points and dropped_point when those
 * make up planned_points (else nthreads = niodepth = 0: not known). A grid
 * that is present but malformed is -EINVAL with err set.
 */
int iom_replay_load_info(const char *path, struct iom_job *job, struct iom_replay_doc *doc,
                         char *err, size_t errlen);

#endif
