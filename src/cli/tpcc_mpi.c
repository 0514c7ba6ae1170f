/* tpcc_mpi.c - `iomark tpcc [run]` under mpirun/srun: the ranks share the VUs, one document (cli/tpcc_mpi.h). */
#ifdef IOMARK_HAVE_MPI
#include "cli/tpcc_mpi.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "mpi/mpi.h"
#include "mpi/mpi_tpcc.h"
#include "report/report.h"
#include "tpcc/report.h"

/* Rank 0's document for a job that did not start: which rank, host, why. */
static void refusal_doc(const struct iom_cli_tpcc_mpi *a, int bad, const char *host,
                        const char *why)
{
    char msg[900];
    snprintf(msg, sizeof(msg), "rank %d on %s: %s", bad, host, why);
    iom_cli_error(a->cmd, "%s", msg);
    if (!a->json)
        return;
    cJSON *doc = iom_json_error_doc("tpcc", msg);
    if (!doc)
        return;
    cJSON *o = cJSON_AddObjectToObject(doc, "mpi");
    cJSON_AddNumberToObject(o, "ranks", iom_mpi_size());
    cJSON_AddNumberToObject(o, "failed_rank", bad);
    cJSON_AddStringToObject(o, "failed_host", host);
    cJSON_AddStringToObject(o, "reason", why);
    if (iom_json_write(doc, a->output))
        iom_cli_error(a->cmd, "cannot write %s", a->output ? a->output : "stdout");
    cJSON_Delete(doc);
}

/* This rank's refusal of the options (identical options give the same answer on every rank,
 * but --db may differ). */
static int refuse(const struct iom_cli_tpcc_mpi *a, char *why, size_t len)
{
    if (a->other_step)
        snprintf(why, len, "under an MPI launcher only 'tpcc' and 'tpcc run' are allowed; "
                           "run 'tpcc load' and 'tpcc check' as one process");
    else if (a->keep0)
        snprintf(why, len, "--keep=0: not under an MPI launcher (the ranks share one database)");
    else if (a->dbc->engine == TPCC_DB_SQLITE)
        snprintf(why, len, "--db=%s: SQLite is refused under an MPI launcher (a one-file "
                 "database cannot be shared by ranks on several hosts); allowed: postgresql://URI "
                 "or pg:CONNINFO", a->db ? a->db : "sqlite:.");
    else
        return 0;
    return IOM_EXIT_USAGE;
}

/* Rank 0: connect, then load (no step) or read the scale of the load; others: connect once to
 * see that they can. Returns an exit status (0 ok), why says what failed. */
static int prepare(const struct iom_cli_tpcc_mpi *a, struct tpcc_conn **c, struct tpcc_scale *sc,
                   struct tpcc_load_result *lr, char *why, size_t len)
{
    int rc = tpcc_db_connect(a->dbc, c, why, len);
    if (rc)
        return rc == -ENOENT ? IOM_EXIT_USAGE : IOM_EXIT_FAIL;
    if (iom_mpi_rank() != 0) {
        (*c)->ops->disconnect(*c);
        *c = NULL;
        return 0;
    }
    if (a->load) {
        tpcc_scale_init(sc, a->warehouses, a->scale_test);
        rc = tpcc_load(*c, sc, a->run->seed, &iom_cli_stop, NULL, NULL, lr);
        if (rc)
            snprintf(why, len, "load failed: %s", (*c)->err);
        return rc == -EEXIST ? IOM_EXIT_USAGE : rc ? IOM_EXIT_FAIL : 0;
    }
    rc = tpcc_meta_read(*c, sc);
    if (rc) {
        snprintf(why, len, "%s", (*c)->err);
        return rc == -ENOENT ? IOM_EXIT_USAGE : IOM_EXIT_FAIL;
    }
    if (a->warehouses_set && a->warehouses != sc->warehouses) {
        snprintf(why, len, "--warehouses=%u: the database holds %u warehouses; load again to "
                 "change it", a->warehouses, sc->warehouses);
        return IOM_EXIT_USAGE;
    }
    return 0;
}

static void progress(const struct tpcc_run_progress *p, void *arg)
{
    (void)arg;
    char t[96];
    snprintf(t, sizeof(t), "rank 0: TPM %.0f, NOPM %.0f", p->tpm, p->nopm);
    iom_cli_progress_text(t);
}

static int emit(const struct iom_cli_tpcc_mpi *a, const struct tpcc_report *rep,
                const struct iom_mpi_tpcc_info *in)
{
    if (a->json) {
        cJSON *doc = iom_tpcc_json(rep);
        if (!doc)
            return IOM_EXIT_FAIL;
        iom_mpi_tpcc_json(doc, in);
        int rc = iom_json_write(doc, a->output);
        cJSON_Delete(doc);
        return rc ? iom_cli_write_failed(a->cmd, a->output, rc) : 0;
    }
    FILE *f = a->output ? fopen(a->output, "w") : stdout;
    if (!f) {
        iom_cli_error(a->cmd, "cannot write %s: %s", a->output, strerror(errno));
        return IOM_EXIT_FAIL;
    }
    iom_tpcc_text(f, rep);
    iom_mpi_tpcc_text(f, in, rep->run);
    return iom_cli_fclose(a->cmd, f, a->output);
}

/* Every rank: its share of the VUs in the shared window; rank 0 writes the document. */
static int run_shared(const struct iom_cli_tpcc_mpi *a, struct tpcc_conn *c,
                      const struct tpcc_scale *sc, struct tpcc_report *rep)
{
    int rank = iom_mpi_rank();
    struct tpcc_run_cfg cfg = *a->run;
    MPI_Bcast(&cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD); /* --seed's default: rank 0's time */
    iom_mpi_tpcc_share(a->run->vu, rank, iom_mpi_size(), &cfg.vu_first, &cfg.vu);
    struct iom_run_sync sync;
    iom_mpi_sync(&sync);
    struct tpcc_run_hooks hooks = {.stop = &iom_cli_stop, .sync = &sync};
    if (rank == 0 && !a->quiet)
        hooks.progress = progress;
    char lat[4200];
    const char *e = getenv("IOMARK_LATENCY_LOG"); /* check mode (tests) */
    if (e && *e) {
        snprintf(lat, sizeof(lat), "%s.r%d", e, rank);
        hooks.latency_log = lat;
    }
    struct tpcc_run_result *rr = calloc(1, sizeof(*rr)), *m = calloc(1, sizeof(*m));
    if (!rr || !m)
        MPI_Abort(MPI_COMM_WORLD, 1); /* the others would wait for ever */
    int rc = tpcc_run(a->dbc, c, sc, &cfg, &hooks, rr);
    iom_cli_progress_clear();
    if (rc)
        iom_cli_error(a->cmd, "rank %d on %s: %s", rank, iom_mpi_host(), rr->error);
    struct iom_mpi_tpcc_info *in = NULL;
    int job_rc = 0, sig = 0, status;
    iom_mpi_tpcc_gather(rr, rc, &cfg, sc->warehouses, m, &in, &job_rc, &sig);
    status = job_rc ? IOM_EXIT_FAIL : sig ? iom_cli_signal_exit(sig) : IOM_EXIT_OK;
    if (rank == 0 && in) {
        cfg.vu = a->run->vu;
        cfg.vu_first = 0;
        rep->cfg = &cfg;
        rep->run = m;
        rep->error = m->error[0] ? m->error : NULL;
        if (rep->error && !rc)
            iom_cli_error(a->cmd, "%s", rep->error);
        c->ops->size_bytes(c, &rep->size_bytes);
        int erc = emit(a, rep, in);
        if (erc && !status)
            status = erc;
    }
    iom_mpi_tpcc_info_free(in);
    free(rr);
    free(m);
    return status;
}

int iom_cli_tpcc_mpi(const struct iom_cli_tpcc_mpi *a)
{
    if (iom_mpi_init()) {
        iom_cli_error(a->cmd, "started by an MPI launcher, but MPI_Init failed");
        return IOM_EXIT_FAIL;
    }
    iom_cli_signals_install(); /* from here a signal ends the job with a document */
    int rank = iom_mpi_rank(), bad = 0, status;
    char why[600], reason[600], host[64];
    if (iom_mpi_check_same(NULL, a->same, why, sizeof(why))) {
        if (rank == 0)
            iom_cli_error(a->cmd, "%s", why);
        iom_mpi_finalize();
        return IOM_EXIT_USAGE;
    }
    struct tpcc_report rep;
    memset(&rep, 0, sizeof(rep));
    rep.dbc = a->dbc;
    rep.start_time = time(NULL);
    struct tpcc_conn *c = NULL;
    struct tpcc_scale sc;
    struct tpcc_load_result lr;
    memset(&sc, 0, sizeof(sc));
    why[0] = 0;
    status = refuse(a, why, sizeof(why));
    if (!status) {
        if (rank == 0 && !a->quiet)
            fprintf(stderr, "iomark %s: %d ranks share %u virtual user(s)%s\n", a->cmd,
                    iom_mpi_size(), a->run->vu, a->load ? "; rank 0 loads first" : "");
        status = prepare(a, &c, &sc, &lr, why, sizeof(why));
    }
    /* only rank 0 builds or checks the schema; the others wait here, then connect */
    int arc = iom_mpi_agree(status, why, &bad, host, reason, sizeof(reason));
    if (arc) {
        if (rank == 0 && arc == IOM_EXIT_USAGE && bad == 0) /* bad input: one line, no document */
            iom_cli_error(a->cmd, "%s", reason);
        else if (rank == 0 && arc == IOM_EXIT_USAGE)
            iom_cli_error(a->cmd, "rank %d on %s: %s", bad, host, reason);
        else if (rank == 0)
            refusal_doc(a, bad, host, reason);
        if (c)
            c->ops->disconnect(c);
        iom_mpi_finalize();
        return status ? status : arc;
    }
    MPI_Bcast(&sc, (int)sizeof(sc), MPI_BYTE, 0, MPI_COMM_WORLD);
    rep.sc = &sc;
    if (rank == 0) {
        c->ops->version(c, rep.db_version, sizeof(rep.db_version));
        if (a->load)
            rep.load = &lr;
        struct iom_run_opts pro = {.quiet = a->quiet, .status_interval_ns = a->status_interval_ns};
        iom_cli_progress_plan("tpcc", &pro, 1, (double)(a->run->ramp_ns + a->run->runtime_ns) / 1e9,
                              false);
        iom_cli_progress_ramp_word("ramp-up");
        char vus[48];
        snprintf(vus, sizeof(vus), "%u VU on %d ranks", a->run->vu, iom_mpi_size());
        iom_cli_progress_step(vus, (double)a->run->ramp_ns / 1e9, (double)a->run->runtime_ns / 1e9,
                              0);
    }
    status = run_shared(a, c, &sc, &rep);
    if (c)
        c->ops->disconnect(c);
    iom_mpi_finalize();
    return status;
}
#endif
