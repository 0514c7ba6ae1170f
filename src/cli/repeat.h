/*
 * repeat.h - `--repeat N` for commands that run one workload: take the
 * option out of argv, then run the prepared job N times and report the
 * runs and their spread (report/repeat.h).
 */
#ifndef IOMARK_CLI_REPEAT_H
#define IOMARK_CLI_REPEAT_H

#include "cli/cli.h"

#define IOM_REPEAT_MAX 1000

/*
 * Remove "--repeat=N" / "--repeat N" from argv (argc updated, argv
 * compacted, order kept) and store N in *n (1 when absent). Returns 0, or
 * IOM_EXIT_USAGE after printing "iomark CMD: --repeat=V: allowed: ..."
 * when N is not an integer 1..IOM_REPEAT_MAX.
 */
int iom_cli_take_repeat(const char *cmd, int *argc, char **argv, unsigned *n);

/*
 * Run the checked, prepared and opened job n times on targets, one after
 * the other; stop early on an interrupt or a failed run. Closes the
 * targets, writes the repeat document (JSON) or the summary table (text)
 * to ro->output_path or stdout, and returns the exit status (0, 1 failed,
 * 128+signal interrupted).
 */
int iom_cli_run_repeat(const char *cmd, const struct iom_job *job, const struct iom_run_opts *ro,
                       struct iom_target *targets, unsigned n);

#endif
