/*
 * cli.h - shared plumbing of the sub-commands: signals, the progress line,
 * the check -> create -> run -> report pipeline and exit statuses. Only
 * cli/ calls exit().
 */
#ifndef IOMARK_CLI_CLI_H
#define IOMARK_CLI_CLI_H

#include <signal.h>
#include <stdbool.h>

#include "core/runner.h"
#include "report/report.h"
#include "workload/options.h"
#include "workload/spec.h"

/* Exit statuses */
#define IOM_EXIT_OK 0
#define IOM_EXIT_FAIL 1    /* the run failed (I/O error, engine) */
#define IOM_EXIT_USAGE 2   /* bad input or refusal; nothing was touched */

/* Set by SIGINT/SIGTERM/SIGHUP/SIGPIPE to the signal number. */
extern volatile sig_atomic_t iom_cli_stop;

/* Install the handlers (no SA_RESTART, so sleeps wake). */
void iom_cli_signals_install(void);

/* 128 + signal for an interrupted run (130 for SIGINT, 143 for SIGTERM,
 * 141 for SIGPIPE). */
int iom_cli_signal_exit(int sig);

/* Print "iomark CMD: MSG" on stderr; MSG is also kept in iom_cli_last_error. */
void iom_cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * A value that is none of an option's choices: prints "iomark CMD: --NAME=V:
 * did you mean K? allowed: LIST" (the question only when a known value is
 * near V: workload/args.h iom_allowed_near_list) through iom_cli_error and
 * returns IOM_EXIT_USAGE. known: the choices, NULL-ended; list: the choices
 * as shown to the user; v NULL is shown as "".
 */
int iom_cli_bad_choice(const char *cmd, const char *name, const char *v, const char *const *known,
                       const char *list);

/* Print one formatted line (FMT ends it with "\n") on stderr with a single
 * write(2), so that lines of ranks sharing stderr under mpirun do not
 * interleave; longer than 1199 bytes is cut (still ending in "\n").
 * Errors writing are ignored. */
void iom_cli_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern char iom_cli_last_error[512];

/* Progress-line hook: the runner's figures of the last second (src/cli/progress.c). */
void iom_cli_progress(const struct iom_progress *p, void *arg);
/* The step under way has ended: clear the progress line if one was drawn. */
void iom_cli_progress_clear(void);

/* Make hooks for a run: stop flag and, unless --quiet, the progress line;
 * the run is the next step of the plan (cli/progress.h), named label (or
 * nothing), its phases planned from job (NULL: no time limit known). */
struct iom_run_hooks iom_cli_hooks(const struct iom_run_opts *ro, const struct iom_job *job,
                                   const char *label);

/*
 * Check an --output path before any work, so that bad input writes nothing
 * and exits 2: it is not a block device (core/target.h iom_output_danger;
 * results would be written over it in place) nor, unless force is 1, a
 * file carrying a filesystem or partition-table signature (a disk image);
 * its folder exists (else iom_path_folder_error's line names the first
 * missing folder) and is writable, the path is not a folder, a device
 * written in place (/dev/null) is writable, and elsewhere a file can be
 * created beside it (a temporary, removed at once). force: 1 --force given,
 * 0 not given (the message offers it), -1 the command has no --force.
 * path NULL: nothing to check. Prints the one-line reason ("iomark CMD:
 * --output=P: ...") and returns IOM_EXIT_USAGE, IOM_EXIT_FAIL when out of
 * memory, else 0.
 */
int iom_cli_check_output(const char *cmd, const char *path, int force);

/*
 * Is --output out apart from the n files in names (what: "the target",
 * "the input", "the database")? The same file is one inode when both exist,
 * else the same absolute name (a file the run would create: the folder's
 * real path and the last part). out NULL: 0. Otherwise prints "iomark CMD:
 * --output=OUT: is also WHAT NAME, which the results would replace; name
 * another file" and returns IOM_EXIT_USAGE for the first match, else 0.
 */
int iom_cli_output_apart(const char *cmd, const char *out, const char *const *names, size_t n,
                         const char *what);

/*
 * iom_cli_output_apart for the n input specs of compare and report (their
 * files as compare/cmp.h iom_cmp_spec_each names them): each existing file
 * of each spec, what "the input". Returns as that, or IOM_EXIT_FAIL when
 * out of memory.
 */
int iom_cli_output_apart_specs(const char *cmd, const char *out, const char *const *specs,
                               size_t n);

/*
 * The note for a queue depth a synchronous engine cannot keep (fio's "note:
 * both iodepth >= 1 and synchronous I/O engine are selected, queue depth
 * will be capped at 1"): when depth (the most any run of the command asks,
 * e.g. a sweep's largest --iodepth) is above what engine (a --ioengine name
 * or alias) keeps in flight (engine/engine.h iom_engine_depth), one line on
 * stderr naming both options: "iomark CMD: note: --iodepth=8 with
 * --ioengine=psync, a synchronous engine: 1 I/O in flight per thread ...".
 * given is the depth as the command's user gave it ("--iodepth=8",
 * "--iodepth=1,4,32", "-o8"). Nothing with --quiet (ro), as the other notes.
 */
void iom_cli_depth_note(const char *cmd, const struct iom_run_opts *ro, const char *engine,
                        const char *given, unsigned depth);

/*
 * Check everything about a job that can be checked before touching a disk:
 * cross-field validation, memory for the buffers, every target (see
 * iom_target_check), and that the --output folder exists. targets[] gets
 * job->nr_targets entries. Prints the one-line reason and returns
 * IOM_EXIT_USAGE on refusal, 0 when all is well.
 */
int iom_cli_check(const char *cmd, const struct iom_job *job, const struct iom_run_opts *ro,
                  struct iom_target *targets);

/*
 * Create/fill test files and open every target. On failure prints the
 * reason, closes what was opened, removes files it created, and returns
 * the exit status (IOM_EXIT_FAIL, or 128+sig when interrupted).
 */
int iom_cli_prepare(const char *cmd, const struct iom_job *job, const struct iom_run_opts *ro,
                    struct iom_target *targets);

/* Close every target; remove the files iomark created when remove_created. */
void iom_cli_close(struct iom_target *targets, unsigned nr, bool remove_created);

/* Which lines iom_cli_close_noted writes. */
enum iom_cli_note {
    IOM_NOTE_NONE,         /* none */
    IOM_NOTE_ALL,          /* every line below */
    IOM_NOTE_KEPT_GROWN,   /* for a command that removes its file by default (mark): the
                              kept and extended lines only, no line for the default removal */
};

/*
 * iom_cli_close(targets, nr, !keep), and with note one line on stderr per
 * regular file this run created: kept (--keep=1, the default as in fio),
 * its size and how to remove it ("iomark run: the test file x.dat it
 * created is left in place, 64 MiB (67108864 bytes); remove it with rm
 * x.dat, or run with --keep=0 ..."), or removed ("iomark run: removed the
 * test file x.dat it created, 64 MiB (67108864 bytes) (--keep=0)"). cmd
 * names the command in the line. A regular file that existed before gets
 * a line with keep false ("... existed before the run and is left in
 * place (--keep=0 removes only a file iomark created)"), and one when the
 * run extended it ("... the test file x.dat was 1 MiB (1048576 bytes);
 * iomark extended it to 3 MiB (3145728 bytes) for the region of --offset
 * and --size ...", in mark's words --size, diskspd's -c, -B and -f);
 * block devices, files gone before the close and a file named twice (once)
 * get no line. IOM_NOTE_KEPT_GROWN leaves out the removed and
 * existed-before lines.
 */
void iom_cli_close_noted(const char *cmd, struct iom_target *targets, unsigned nr, bool keep,
                         enum iom_cli_note note);

/*
 * Write a finished document to --output or stdout. Returns 0, or as
 * iom_cli_write_failed.
 */
int iom_cli_emit_json(const char *cmd, const cJSON *doc, const struct iom_run_opts *ro);

/*
 * Results that did not reach path (NULL: standard output) because of error
 * rc (-errno, e.g. -ENOSPC): prints "iomark CMD: writing PATH: REASON"
 * ("writing standard output: No space left on device") and returns
 * IOM_EXIT_FAIL; a reader of standard output that went away (-EPIPE,
 * `iomark run t.dat | true`) prints nothing and returns 128 + SIGPIPE (141),
 * the status of a program the signal ended.
 */
int iom_cli_write_failed(const char *cmd, const char *path, int rc);

/*
 * Finish a report written on f: flush it, and close it unless it is stdout
 * (path: its --output name, NULL for stdout). Returns 0 when everything
 * reached it, else as iom_cli_write_failed (f is closed either way).
 */
int iom_cli_fclose(const char *cmd, FILE *f, const char *path);

/*
 * At the end of command cmd with exit status rc: did what was printed on
 * standard output get there (a full disk, a closed pipe)? Returns rc when
 * it did or rc is non-zero already, else as iom_cli_write_failed.
 */
int iom_cli_stdout_status(const char *cmd, int rc);

/*
 * A run that failed after the checks (exit status 1): with JSON output,
 * write an error document ({"status": "error", "error": message}) to
 * --output or stdout; with text output and --output, write the message to
 * that file, so a requested result file is never missing or empty.
 */
void iom_cli_emit_failure(const char *cmd, const struct iom_run_opts *ro, const char *message);

/* Sub-commands: argv[0] is the sub-command name. Return the exit status. */
int iom_cmd_run(int argc, char **argv);
int iom_cmd_mark(int argc, char **argv);
/* `iomark lab [setup]`: the workload on QEMU's emulated controllers (docs/lab.md). */
int iom_cmd_lab(int argc, char **argv);
int iom_cmd_tpcc(int argc, char **argv);
int iom_cmd_compare(int argc, char **argv);
int iom_cmd_sweep(int argc, char **argv);
int iom_cmd_report(int argc, char **argv);
int iom_cmd_diskspd(int argc, char **argv);
int iom_cmd_profiles(int argc, char **argv);
/* `iomark model`: fit a queueing model to a sweep, predict what-if queue limits (docs/model.md). */
int iom_cmd_model(int argc, char **argv);

/* `iomark run` front ends (cmd_run_jobfile.c). The index of the first
 * argument that is a fio job file (see iom_fio_is_jobfile); minus the index
 * of an argument ending in .fio or .ini that does not exist (a mistyped job
 * file, never a target to create); or 0. */
int iom_cli_find_jobfile(int argc, char **argv);
/* Run the fio job file argv[jobfile]; the other arguments are --options.
 * A negative jobfile (see above) is refused: "job file not found", exit 2. */
int iom_cmd_run_jobfile(int argc, char **argv, int jobfile);
/* Take --profile NAME / --profile=NAME out of argv (argc shrinks) and apply
 * the profile to job. 0 when absent or applied; IOM_EXIT_USAGE after
 * printing the reason for an unknown profile. */
int iom_cli_take_profile(int *argc, char **argv, struct iom_job *job);
int iom_cmd_probe(int argc, char **argv);

#ifdef IOMARK_HAVE_MPI
struct iom_mpi_info;
/* What a command adds to iom_cli_mpi_run; every member may be NULL. */
struct iom_cli_mpi_ops {
    /* after %r/%h/%n expansion, before iom_cli_check: returns an exit status
     * (0 = go on), having printed its one-line reason */
    int (*before_check)(void *arg, struct iom_job *job);
    /* after iom_cli_check succeeded, targets checked: the same */
    int (*after_check)(void *arg, struct iom_job *job, struct iom_target *targets);
    /* rank 0 writes the merged result (NULL: a run document, JSON or text);
     * returns an exit status */
    int (*emit)(void *arg, const struct iom_result *merged, const struct iom_mpi_info *info,
                const struct iom_run_opts *ro);
    void *arg;
    /* the command's own settings outside the spec, compared across ranks
     * with the workload (iom_mpi_check_same); NULL: none */
    const char *workload;
};
/*
 * `iomark run|diskspd ...` started by an MPI launcher (cli/mpi_run.c,
 * docs/mpi.md): initialises MPI, refuses mismatched ranks, expands %r/%h/%n
 * in the targets, checks and prepares them, agrees on the status, runs one
 * shared window, and rank 0 writes the merged document (JSON or text, as
 * --output-format says, or ops->emit). job is parsed (its targets are
 * expanded in place); targets[] has job->nr_targets entries; ops may be
 * NULL. Returns the exit status (non-zero on every rank when any rank
 * failed); MPI is finalised.
 */
int iom_cli_mpi_run(const char *cmd, struct iom_job *job, const struct iom_run_opts *ro,
                    struct iom_target *targets, const struct iom_cli_mpi_ops *ops);
/* The command as a rank names itself in its file notes, into buf (size n):
 * "run, rank 1 on node2" (a rank's test file is on its own host). */
void iom_cli_mpi_label(const char *cmd, char *buf, size_t n);
/*
 * The parts of iom_cli_mpi_run for commands that run several measurements
 * (sweep). iom_cli_mpi_begin: MPI_Init, version and workload agreement, %
 * expansion, checks, preparation of the targets and status agreement, with
 * a progress plan of nr_steps runs; returns 0 (MPI initialised, targets
 * open) or an exit status (the refusal written by rank 0, MPI finalised).
 * iom_cli_mpi_step: one run of job on targets[0..nr) in the shared window,
 * gathered: *out is the merged result on rank 0 (with *info) and this
 * rank's own elsewhere (*info NULL); the caller frees both. Returns the
 * status agreed by all ranks (0 or -errno) and in *job_sig the signal that
 * stopped any rank (0 none), so every rank takes the same next step. The
 * caller calls iom_mpi_finalize() at the end.
 */
int iom_cli_mpi_begin(const char *cmd, struct iom_job *job, const struct iom_run_opts *ro,
                      struct iom_target *targets, const struct iom_cli_mpi_ops *ops,
                      unsigned nr_steps, bool *patterned);
int iom_cli_mpi_step(const char *cmd, const struct iom_job *job, struct iom_target *targets,
                     unsigned nr, struct iom_run_hooks *hooks, bool patterned,
                     struct iom_result **out, struct iom_mpi_info **info, int *job_sig);
#endif

#endif
