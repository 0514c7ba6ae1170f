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

/*
 * As iom_replay_load, and also a `run --repeat N` document (type "repeat"):
 * its runs ran one workload, taken from its first run's spec; *repeat is
 * then the document's N (the caller says whether it replays once or N
 * times), else 0 (a run or sweep document).
 */
int iom_replay_load_doc(const char *path, struct iom_job *job, unsigned *repeat, char *err,
                        size_t errlen);

#endif
