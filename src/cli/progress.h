/*
 * progress.h - the one progress line of a command: what is happening (phase,
 * run k of N, test name), the current rates and the overall time left,
 * "[eta mm:ss]" as fio prints it (fio's HOWTO, --eta and --status-interval).
 *
 * On a terminal (stderr) the line is redrawn in place every second by a
 * ticker thread, so it never goes blank: not in the last second of a run,
 * not during pauses, not for runs shorter than the runner's first progress
 * callback. When stderr is not a terminal nothing is printed unless
 * --status-interval=SECONDS was given; then one full line is written every
 * SECONDS (fio's --status-interval). A line identical to the one written
 * before it (status line, or the line on the terminal) is not written again.
 * --quiet prints nothing.
 *
 * The overall time left is planned seconds minus planned seconds used: the
 * command gives its total (iom_cli_progress_plan), each step its planned
 * warm-up, measured and cool-down seconds, and pauses their length; a step's
 * consumed share is its elapsed time capped at its plan. Steps without a
 * time limit (size-based runs) make the time left unknown ("eta --:--").
 * All functions are safe to call from any thread and do nothing while no
 * line is wanted.
 */
#ifndef IOMARK_CLI_PROGRESS_H
#define IOMARK_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/runner.h"
#include "workload/options.h"

/*
 * Start a command's progress: cmd names the command ("mark"), nr_steps the
 * runs it plans (k of N), total_s the planned seconds of all runs and
 * pauses (< 0 unknown). mb_units: rates in MB/s (10^6 bytes, as mark's
 * table) instead of MiB/s. ro gives --quiet and --status-interval; ro NULL
 * means a terminal line only. Calling it again starts a new plan.
 */
void iom_cli_progress_plan(const char *cmd, const struct iom_run_opts *ro, unsigned nr_steps,
                           double total_s, bool mb_units);

/*
 * The next step (run k+1 of N) starts now: name is shown as given (copied),
 * ramp_s, run_s and cool_s are its planned phases in seconds (run_s <= 0:
 * no time limit). The phase shown follows the clock: warm-up, measuring,
 * cool-down.
 */
void iom_cli_progress_step(const char *name, double ramp_s, double run_s, double cool_s);

/* The step's seconds as a job plans them: ramp, runtime, cool-down (ns -> s). */
void iom_cli_progress_step_job(const char *name, const struct iom_job *job);

/*
 * Show a phase the runner does not drive ("preparing", "booting"), with an
 * optional detail ("creating x.dat: 45%"); NULL phase returns to the
 * step's clock-driven phases. Strings are copied. done_frac: the part of
 * the phase done, 0..1 (0.45 with the detail above), < 0 unknown; with it
 * the eta adds the rest of the phase at its rate so far (seconds since the
 * phase began times (1 - done_frac) / done_frac).
 */
void iom_cli_progress_phase(const char *phase, const char *detail, double done_frac);

/* Rates of the last second for the line ("1234 IOPS, 45.6 MiB/s"). */
void iom_cli_progress_rates(double iops, double bytes_per_s);

/* Free-form figures of the second just ended instead of IOPS/bandwidth
 * ("TPM 1234, NOPM 510"), copied; a status line prints when due, as with
 * iom_cli_progress_rates. */
void iom_cli_progress_text(const char *text);

/*
 * The step ended: its final line ("done, " + text, the result's figures; a
 * step stopped by a signal: "interrupted by SIGINT, partial: " + text) and
 * the step counts as finished for the eta. text is copied; outside a step
 * nothing is printed. iom_cli_progress calls it with a run's IOPS and rate.
 */
void iom_cli_progress_done(const char *text);

/*
 * Pause seconds between runs with the line showing "pause" and the time
 * left; returns early when a signal sets iom_cli_stop. Counts the pause's
 * planned length as used.
 */
void iom_cli_pause(uint64_t ns);

/* The word for the first phase of a step: "warm-up" (default; fio's ramp)
 * or e.g. "ramp-up" (tpcc, HammerDB's word). Static string, not copied. */
void iom_cli_progress_ramp_word(const char *word);

/* A job's planned seconds (ramp + runtime + cool-down), < 0 without --runtime. */
double iom_cli_job_seconds(const struct iom_job *job);

/* Seconds left overall, < 0 when unknown; for tests and the line. */
double iom_cli_progress_eta(void);

/* "mm:ss" (or "h:mm:ss" from one hour, "--:--" when s < 0) into buf. */
void iom_cli_format_eta(double s, char *buf, unsigned len);

/*
 * A step the command schedules itself (the lab: a boot, then the guest's
 * runs and its shutdown as they are reported, all of boot k): step k of the
 * plan's N is shown (not the next one), named name, with the clock's phases
 * of ramp_s, run_s and cool_s as iom_cli_progress_step, or, when phase is
 * not NULL, that phase's text (as iom_cli_progress_phase) while its planned
 * seconds still count down. The time left overall becomes this step's
 * planned seconds (ramp + run + cool, used up by its clock and never below
 * 0) + left_s, the seconds planned after it; unknown when run_s <= 0 or
 * left_s < 0. No runner figures are awaited: status lines keep their
 * interval; with phase NULL the line is drawn (a terminal) or printed (status
 * lines, the next one moved up to 1 s earlier) at the step's own whole seconds,
 * so its counter neither repeats nor skips a second while the host keeps up.
 * Call after iom_cli_progress_plan; strings are copied.
 */
void iom_cli_progress_step_at(unsigned k, const char *name, const char *phase, double ramp_s,
                              double run_s, double cool_s, double left_s);

#endif
