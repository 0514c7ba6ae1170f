/* mpi_run.c - `iomark run|diskspd` under mpirun/srun: one iomark per rank, one document. */
#ifdef IOMARK_HAVE_MPI
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "mpi/mpi.h"

/* Rank 0's document for a job that did not start: which rank, host, why. */
static void emit_refusal(const char *cmd, const struct iom_run_opts *ro, int bad, const char *host,
                         const char *why)
{
    char msg[900];
    snprintf(msg, sizeof(msg), "rank %d on %s: %s", bad, host, why);
    iom_cli_error(cmd, "%s", msg);
    if (ro->format == IOM_OUT_JSON) {
        cJSON *doc = iom_json_error_doc(cmd, msg);
        if (doc) {
            cJSON *o = cJSON_AddObjectToObject(doc, "mpi");
            cJSON_AddNumberToObject(o, "ranks", iom_mpi_size());
            cJSON_AddNumberToObject(o, "failed_rank", bad);
            cJSON_AddStringToObject(o, "failed_host", host);
            cJSON_AddStringToObject(o, "reason", why);
            iom_cli_emit_json(cmd, doc, ro);
            cJSON_Delete(doc);
        }
    } else {
        iom_cli_emit_failure(cmd, ro, msg);
    }
}

static int emit_merged(const char *cmd, const struct iom_result *m, const struct iom_mpi_info *in,
                       const struct iom_run_opts *ro)
{
    if (ro->format == IOM_OUT_JSON) {
        cJSON *doc = iom_report_json(m);
        if (!doc)
            return IOM_EXIT_FAIL;
        iom_mpi_report_json(doc, in);
        int rc = iom_cli_emit_json(cmd, doc, ro);
        cJSON_Delete(doc);
        return rc;
    }
    FILE *f = stdout;
    if (ro->output_path && !(f = fopen(ro->output_path, "w"))) {
        iom_cli_error(cmd, "cannot write %s", ro->output_path);
        return IOM_EXIT_FAIL;
    }
    iom_report_text(f, m);
    iom_mpi_report_text(f, in, m);
    return iom_cli_fclose(cmd, f, ro->output_path);
}

int iom_cli_mpi_begin(const char *cmd, struct iom_job *job, const struct iom_run_opts *ro0,
                      struct iom_target *targets, const struct iom_cli_mpi_ops *ops,
                      unsigned nr_steps, bool *patterned)
{
    static const struct iom_cli_mpi_ops none;
    if (!ops)
        ops = &none;
    if (iom_mpi_init()) {
        iom_cli_error(cmd, "started by an MPI launcher, but MPI_Init failed");
        return IOM_EXIT_FAIL;
    }
    iom_cli_signals_install(); /* from here a signal ends the job with a document */
    int rank = iom_mpi_rank(), status = 0, bad = 0;
    struct iom_run_opts ro = *ro0;
    if (rank)
        ro.quiet = true; /* one progress line: rank 0's */
    char why[600], host[64];
    if (iom_mpi_check_same(job, ops->workload, why, sizeof(why))) {
        if (rank == 0)
            iom_cli_error(cmd, "%s", why);
        iom_mpi_finalize();
        return IOM_EXIT_USAGE;
    }
    *patterned = false;
    int erc = iom_mpi_expand_targets(job, patterned, why, sizeof(why));
    if (erc) { /* the same on every rank: the spec is */
        if (rank == 0)
            iom_cli_error(cmd, "%s", erc == -ENOMEM ? "out of memory" : why);
        iom_mpi_finalize();
        return erc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
    }
    iom_cli_last_error[0] = 0;
    if (ops->before_check)
        status = ops->before_check(ops->arg, job);
    if (!status)
        status = iom_cli_check(cmd, job, &ro, targets);
    if (!status && ops->after_check)
        status = ops->after_check(ops->arg, job, targets);
    bool prepared = false;
    /* a target that fails its check stops every rank before any other rank
     * spends minutes creating its file */
    if (iom_mpi_agree(status, iom_cli_last_error[0] ? iom_cli_last_error : "failed", &bad, host,
                      why, sizeof(why))) {
        if (rank == 0)
            emit_refusal(cmd, &ro, bad, host, why);
        iom_mpi_finalize();
        return status ? status : IOM_EXIT_FAIL;
    }
    if (rank)
        ro.output_path = "/dev/null"; /* rank 0 alone writes documents */
    if (rank == 0) {
        double s = iom_cli_job_seconds(job);
        iom_cli_progress_plan(cmd, &ro, nr_steps, s < 0 ? -1 : s * nr_steps, false);
    }
    /* Ranks that share a path (no %r or %h in it) share the file on each
     * host: the host's first rank creates it, then the others check again,
     * find it made and open it (two rounds; one when every rank has its own). */
    bool first = *patterned || iom_mpi_first_on_host();
    for (int round = 0; round < (*patterned ? 1 : 2); round++) {
        status = 0;
        if (first == (round == 0)) {
            if (round == 1)
                status = iom_cli_check(cmd, job, &ro, targets);
            if (!status)
                status = iom_cli_prepare(cmd, job, &ro, targets);
            prepared = !status;
        }
        /* every rank ready, or none starts: the first failing rank's reason */
        if (iom_mpi_agree(status, iom_cli_last_error[0] ? iom_cli_last_error : "failed", &bad,
                          host, why, sizeof(why))) {
            if (prepared)
                iom_cli_close(targets, job->nr_targets, !job->keep);
            if (rank == 0)
                emit_refusal(cmd, &ro, bad, host, why);
            iom_mpi_finalize();
            return status ? status : IOM_EXIT_FAIL;
        }
    }
    return 0;
}

int iom_cli_mpi_step(const char *cmd, const struct iom_job *job, struct iom_target *targets,
                     unsigned nr, struct iom_run_hooks *hooks, bool patterned,
                     struct iom_result **out, struct iom_mpi_info **info, int *job_sig)
{
    int rank = iom_mpi_rank();
    struct iom_run_sync sync;
    iom_mpi_sync(&sync);
    hooks->sync = &sync;
    if (rank)
        hooks->progress = NULL;
    char latlog[4200];
    const char *lat = getenv("IOMARK_LATENCY_LOG"); /* check mode (tests): one file per thread */
    if (lat && *lat) {
        snprintf(latlog, sizeof(latlog), "%s.r%d", lat, rank);
        hooks->latency_log = latlog;
    }
    struct iom_result *r = NULL;
    int rc = iom_run(job, targets, nr, hooks, &r);
    hooks->sync = NULL;
    hooks->latency_log = NULL;
    iom_cli_progress_clear();
    if (rc && r && r->error[0])
        iom_cli_error(cmd, "rank %d on %s: %s", rank, iom_mpi_host(), r->error);
    struct iom_result *m = NULL;
    int job_rc = 0;
    int grc = iom_mpi_gather(r, rc, patterned, &m, info, &job_rc, job_sig);
    if (rank == 0) {
        iom_result_free(r);
        *out = m;
        if (grc || !m) {
            iom_cli_error(cmd, "gathering the ranks' results: %s", strerror(grc ? -grc : ENOMEM));
            return grc ? grc : -ENOMEM;
        }
    } else {
        *out = r;
    }
    return job_rc;
}

void iom_cli_mpi_label(const char *cmd, char *buf, size_t n)
{
    snprintf(buf, n, "%s, rank %d on %s", cmd, iom_mpi_rank(), iom_mpi_host());
}

int iom_cli_mpi_run(const char *cmd, struct iom_job *job, const struct iom_run_opts *ro0,
                    struct iom_target *targets, const struct iom_cli_mpi_ops *ops)
{
    static const struct iom_cli_mpi_ops none;
    if (!ops)
        ops = &none;
    bool patterned = false;
    int status = iom_cli_mpi_begin(cmd, job, ro0, targets, ops, 1, &patterned);
    if (status)
        return status;
    int rank = iom_mpi_rank();
    struct iom_run_opts ro = *ro0;
    if (rank)
        ro.quiet = true;
    struct iom_run_hooks hooks = iom_cli_hooks(&ro, job, job->nr_targets ? job->targets[0] : NULL);
    struct iom_result *m = NULL;
    struct iom_mpi_info *in = NULL;
    int sig = 0;
    int rc = iom_cli_mpi_step(cmd, job, targets, job->nr_targets, &hooks, patterned, &m, &in, &sig);
    /* each rank says what it did with the files it created (the host's first
     * rank, for a path the ranks share), naming itself: the path is its host's */
    char who[160];
    iom_cli_mpi_label(cmd, who, sizeof(who));
    iom_cli_close_noted(who, targets, job->nr_targets, job->keep, IOM_NOTE_ALL);
    status = rc ? IOM_EXIT_FAIL : IOM_EXIT_OK;
    if (rank == 0 && m && in) {
        int erc = ops->emit ? ops->emit(ops->arg, m, in, &ro) : emit_merged(cmd, m, in, &ro);
        if (erc)
            status = erc;
    }
    if (sig && !rc && status == IOM_EXIT_OK)
        status = iom_cli_signal_exit(sig);
    iom_result_free(m);
    iom_mpi_info_free(in);
    iom_mpi_finalize();
    return status;
}
#endif
