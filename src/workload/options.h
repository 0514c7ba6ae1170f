/*
 * options.h - the native option table: one row per option drives parsing,
 * range checks, --help text and "did you mean" (the shape of fio's
 * options.c). Names follow fio where fio has the option.
 */
#ifndef IOMARK_WORKLOAD_OPTIONS_H
#define IOMARK_WORKLOAD_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "workload/spec.h"

enum iom_output_format { IOM_OUT_NORMAL, IOM_OUT_JSON };

/* Options that shape the session, not the workload. */
struct iom_run_opts {
    enum iom_output_format format;
    const char *output_path;   /* NULL = stdout; borrowed from argv */
    bool quiet;                /* no progress line */
    const char *replay_path;   /* --replay RESULT.json (cli/cmd_run.c applies it first) */
    uint64_t status_interval_ns; /* status lines when stderr is not a terminal, 0 none */
    bool help;
    bool repeat_targets;       /* a target may be named again (fio job files: a file named
                                  twice is two file entries, as in fio); else refused */
    bool fio_job_file;         /* the run is a fio job file's: where fio 3.33 goes ahead and
                                  fails later (a verify read of a file it creates), so does
                                  iomark; native runs refuse such a job up front */
};

/*
 * Parse argv[first..argc) into job and ro. Options may come in any order
 * before or between targets; "--" ends options. Non-option arguments are
 * added to job->targets. On error returns -EINVAL and writes one line to
 * err: the option, the value and what is allowed (no "iomark:" prefix);
 * --direct and --buffered given with values that disagree (--direct=0
 * --buffered=0) are refused naming both.
 * job and ro must be initialised (iom_job_defaults, zeroed ro) beforehand,
 * so a preset can set its own defaults first.
 */
int iom_options_parse(int argc, char **argv, int first, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen);

/*
 * Apply one option by name (no leading dashes) with its value text (NULL
 * for a bare flag). Used by the command-line parser and by front ends that
 * read name=value pairs (profiles). Returns 0, -ENOENT for an unknown name
 * (err holds a "did you mean" hint when one is close), or -EINVAL.
 */
int iom_option_apply(const char *name, const char *value, struct iom_job *job,
                     struct iom_run_opts *ro, char *err, size_t errlen);

/*
 * Serialise a job from the option table itself: fn(name, value, arg) for
 * every workload option in table order, value being text that
 * iom_option_apply(name, value) reads back to the same field values (sizes
 * in bytes, durations in ns, "zipf:THETA" with 17 significant digits,
 * bssplit and zones in full), or NULL when the option is unset (its feature
 * off, e.g. no --rate_iops, an --io_size run without a --runtime). Left
 * out: aliases (readwrite, rwmixwrite, buffered), the session options
 * (output, output-format, quiet, help) and --force (a safety override a
 * replay never inherits). Targets are not options (job->targets). Stops and
 * returns fn's value when it is nonzero; else 0. This is what a result's
 * spec.options holds and what `iomark run --replay` applies.
 */
int iom_options_each(const struct iom_job *job,
                     int (*fn)(const char *name, const char *value, void *arg), void *arg);

/* Print the option table as help text. */
void iom_options_help(FILE *f);

/* The closest known option name to `name` (iom_name_nearness of
 * workload/args.h: edit distance <= 3, or a prefix or substring match), or
 * NULL; a known name ('-' and '_' alike, as the parser reads it) returns
 * itself, so iom_args_name_eq(name, -1, result) tells whether name is an
 * option. Other tools' names count too ("blocksize" of fio: "bs"); fio's
 * "loops" gives "repeat", run's own --repeat (not in the table: a command
 * without one names its own or none). */
const char *iom_option_suggest(const char *name);

/* As iom_option_suggest; *via is set to the other tool's name the match came
 * through ("blocksize" for "blocksz" -> "bs"), else NULL. Static strings. */
const char *iom_option_suggest_via(const char *name, const char **via);

#endif
