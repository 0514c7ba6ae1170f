/* repeat.c - --repeat N: run one prepared job N times (see repeat.h). */
#include "cli/repeat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/repeat.h"
#include "workload/args.h"

int iom_cli_take_repeat(const char *cmd, int *argc, char **argv, unsigned *n)
{
    *n = 1;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        if (strcmp(a, "--") == 0) { /* targets only from here on */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strncmp(a, "--repeat=", 9) == 0)
            v = a + 9;
        else if (strcmp(a, "--repeat") == 0)
            v = i + 1 < *argc && iom_args_value_word(argv[i + 1]) ? argv[++i] : "";
        if (!v) {
            argv[out++] = argv[i];
            continue;
        }
        char *end;
        errno = 0;
        unsigned long x = strtoul(v, &end, 10);
        if (!*v || *end || errno || x < 1 || x > IOM_REPEAT_MAX || v[0] == '-') {
            iom_cli_error(cmd, "--repeat=%s: allowed: a whole number of runs from 1 to %d", v,
                          IOM_REPEAT_MAX);
            return IOM_EXIT_USAGE;
        }
        *n = (unsigned)x;
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

int iom_cli_run_repeat(const char *cmd, const struct iom_job *job, const struct iom_run_opts *ro,
                       struct iom_target *targets, unsigned n)
{
    struct iom_result **res = calloc(n, sizeof(*res));
    if (!res) {
        iom_cli_close(targets, job->nr_targets, !job->keep);
        return IOM_EXIT_FAIL;
    }
    unsigned done = 0;
    int status = IOM_EXIT_OK;
    for (unsigned i = 0; i < n && !iom_cli_stop; i++) {
        struct iom_run_hooks hooks =
            iom_cli_hooks(ro, job, job->nr_targets ? job->targets[0] : NULL);
        struct iom_result *r = NULL;
        int rc = iom_run(job, targets, job->nr_targets, &hooks, &r);
        iom_cli_progress_clear();
        if (r)
            res[done++] = r;
        if (rc) {
            if (r && r->error[0])
                iom_cli_error(cmd, "run %u of %u: %s", i + 1, n, r->error);
            status = IOM_EXIT_FAIL;
            break;
        }
        if (r && r->interrupted_signal) {
            status = iom_cli_signal_exit(r->interrupted_signal);
            break;
        }
    }
    if (status == IOM_EXIT_OK && iom_cli_stop)
        status = iom_cli_signal_exit(iom_cli_stop);
    iom_cli_close_noted(cmd, targets, job->nr_targets, job->keep, IOM_NOTE_ALL);
    if (ro->format == IOM_OUT_JSON) {
        cJSON *doc = iom_repeat_json(res, done, n);
        int rc = doc ? iom_cli_emit_json(cmd, doc, ro) : IOM_EXIT_FAIL;
        cJSON_Delete(doc);
        if (rc)
            status = rc;
    } else {
        FILE *f = ro->output_path ? fopen(ro->output_path, "w") : stdout;
        if (!f) {
            iom_cli_error(cmd, "cannot write %s: %s", ro->output_path, strerror(errno));
            status = IOM_EXIT_FAIL;
        } else {
            iom_repeat_text(f, res, done, n);
            int rc = iom_cli_fclose(cmd, f, ro->output_path);
            if (rc)
                status = rc;
        }
    }
    for (unsigned i = 0; i < done; i++)
        iom_result_free(res[i]);
    free(res);
    return status;
}
