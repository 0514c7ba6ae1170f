/* cmd_run.c - `iomark run [options] TARGET...`: one workload, measured. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "core/offsets.h"
#include "import/replay.h"
#include "workload/args.h"
#include "cli/repeat.h"
#ifdef IOMARK_HAVE_MPI
#include "mpi/mpi.h"
#endif

static void usage(FILE *f)
{
    fprintf(f, "usage: iomark run [options] TARGET...\n"
               "       iomark run --profile NAME [options] TARGET...  (SQL Server profiles: "
               "iomark profiles)\n"
               "       iomark run [options] JOBFILE  (a fio job file: iomark run JOBFILE --help)\n"
               "Run one workload on files or block devices and report IOPS, throughput\n"
               "(MB/s and MiB/s) and latency percentiles. Option names follow fio.\n\n");
    iom_options_help(f);
    fprintf(f, "  --repeat=N                   run the workload N times; report each run and\n"
               "                               the mean, min, max and stddev of each metric\n");
    fprintf(f, "\nSizes take K, M, G, T (binary: 1K = 1024, also KiB, Ki); times take\n"
               "ns, us, ms, s (default), m, h, d. Exit status: 0 ok, 1 run failed,\n"
               "2 bad input (nothing touched), 130/143 interrupted (partial results).\n");
}

/* Report a finished (or failed, or interrupted) run; returns the exit status. */
static int emit(const struct iom_result *r, const struct iom_run_opts *ro, int run_rc)
{
    int status = run_rc ? IOM_EXIT_FAIL : IOM_EXIT_OK;
    if (run_rc == -EINVAL)  /* refused before any I/O (engine, offsets): bad input */
        return IOM_EXIT_USAGE;
    if (r && r->interrupted_signal)
        status = iom_cli_signal_exit(r->interrupted_signal);
    if (ro->format == IOM_OUT_JSON) {
        cJSON *doc = r ? iom_report_json(r) : iom_json_error_doc("run", "out of memory");
        if (!doc)
            return IOM_EXIT_FAIL;
        int rc = iom_cli_emit_json("run", doc, ro);
        cJSON_Delete(doc);
        return rc ? rc : status;
    }
    if (!r)
        return status;
    FILE *f = stdout;
    if (ro->output_path && !(f = fopen(ro->output_path, "w"))) {
        iom_cli_error("run", "cannot write %s", ro->output_path);
        return IOM_EXIT_FAIL;
    }
    iom_report_text(f, r);
    int rc = iom_cli_fclose("run", f, ro->output_path);
    return rc ? rc : status;
}

/* The value of --replay (any spelling of the one grammar), or NULL. It is
 * applied before the other options, which then override it. */
static const char *replay_path(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            break;
        size_t n = a[0] == '-' && a[1] == '-' ? strcspn(a + 2, "=") : 0;
        if (n && iom_args_name_eq(a + 2, n, "replay"))
            return a[2 + n] == '=' ? a + 3 + n : i + 1 < argc ? argv[i + 1] : NULL;
    }
    return NULL;
}

/* A sweep document given to --replay: one line saying what it is and the
 * command that reruns it. */
static void sweep_refusal(const char *path, const struct iom_replay_doc *d)
{
    char grid[2 * 12 * IOM_REPLAY_MAX_LIST + 64] = "";
    size_t n = 0;
    for (unsigned i = 0; d->nthreads && i < d->nthreads; i++)
        n += (size_t)snprintf(grid + n, sizeof(grid) - n, "%s%u", i ? "," : ": threads ",
                              d->threads[i]);
    for (unsigned i = 0; d->nthreads && i < d->niodepth; i++)
        n += (size_t)snprintf(grid + n, sizeof(grid) - n, "%s%u", i ? "," : " x iodepth ",
                              d->iodepth[i]);
    if (n)
        snprintf(grid + n, sizeof(grid) - n, " on %u target%s", d->sweep_targets,
                 d->sweep_targets == 1 ? "" : "s");
    iom_cli_error("run", "--replay=%s: a sweep document of %u points%s, not one run; rerun the "
                  "sweep with iomark sweep --replay %s", path, d->sweep_points, grid, path);
}

/* --ioengine=null: the option checks of iom_cli_check without touching any target
 * path; each target is a region of --size bytes at --offset that no I/O reaches. */
static int null_check(const struct iom_job *job, const struct iom_run_opts *ro,
                      struct iom_target *targets)
{
    const char *opt = NULL, *why = NULL;
    if (iom_job_validate(job, &opt, &why)) {
        iom_cli_error("run", "--%s: %s", opt, why);
        return IOM_EXIT_USAGE;
    }
    (void)ro;
    for (uint32_t i = 0; i < job->nr_targets; i++) {
        uint64_t len = job->size_bytes;
        struct stat st;
        if (!len) { /* an existing regular file lends its size; it is not opened */
            if (stat(job->targets[i], &st) || !S_ISREG(st.st_mode) ||
                (uint64_t)st.st_size <= job->offset_bytes) {
                iom_cli_error("run", "--ioengine=null: %s: needs --size unless the target is an "
                              "existing file larger than --offset", job->targets[i]);
                return IOM_EXIT_USAGE;
            }
            len = (uint64_t)st.st_size - job->offset_bytes;
        }
        memset(&targets[i], 0, sizeof(targets[i]));
        targets[i].path = job->targets[i];
        targets[i].fd = -1;
        targets[i].size_bytes = job->offset_bytes + len;
        targets[i].region_start = job->offset_bytes;
        targets[i].region_len = len;
        targets[i].logical_block_bytes = 512;
    }
    return 0;
}

int iom_cmd_run(int argc, char **argv)
{
    struct iom_job job;
    struct iom_run_opts ro = {0};
    char err[512];
    unsigned repeat = 1;
    if (iom_cli_take_repeat("run", &argc, argv, &repeat))
        return IOM_EXIT_USAGE;
    int jobfile = iom_cli_find_jobfile(argc, argv);
    if (jobfile < 0) /* a missing *.fio / *.ini: refused, never created as a target */
        return iom_cmd_run_jobfile(argc, argv, jobfile);
    if (jobfile && repeat > 1) {
        iom_cli_error("run", "--repeat: not available with a fio job file (%s)", argv[jobfile]);
        return IOM_EXIT_USAGE;
    }
    if (jobfile)
        return iom_cmd_run_jobfile(argc, argv, jobfile);
    iom_job_defaults(&job);
    job.keep = true;   /* a test file run creates stays (as fio's); --keep=0 removes it */
    struct iom_job replayed = {0}; /* the targets of --replay, used when none are given */
    const char *replay = replay_path(argc, argv);
    if (replay) {
        struct iom_replay_doc rd;
        int lrc = iom_replay_load_info(replay, &job, &rd, err, sizeof(err));
        if (lrc || rd.sweep_points) {
            if (lrc)
                iom_cli_error("run", "--replay=%s", err);
            else /* its spec is only the largest point: rerun the whole sweep */
                sweep_refusal(replay, &rd);
            iom_job_free(&job);
            return lrc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
        }
        unsigned doc_repeat = rd.repeat;
        if (doc_repeat && repeat > 1)
            fprintf(stderr, "iomark run: --replay=%s: a --repeat=%u document; its workload %u times "
                            "(--repeat=%u)\n", replay, doc_repeat, repeat, repeat);
        else if (doc_repeat)
            fprintf(stderr, "iomark run: --replay=%s: a --repeat=%u document; its workload once "
                            "(add --repeat=%u to repeat it as it did)\n", replay, doc_repeat, doc_repeat);
        replayed.targets = job.targets;
        replayed.nr_targets = job.nr_targets;
        job.targets = NULL;
        job.nr_targets = 0;
    }
    int prc = iom_cli_take_profile(&argc, argv, &job);
    if (prc) {
        iom_job_free(&replayed);
        return prc;
    }
    if (iom_options_parse(argc, argv, 1, &job, &ro, err, sizeof(err))) {
        iom_cli_error("run", "%s", err);
        iom_job_free(&job);
        iom_job_free(&replayed);
        return IOM_EXIT_USAGE;
    }
    if (job.nr_targets == 0) { /* the replayed run's targets unless others are named */
        job.targets = replayed.targets;
        job.nr_targets = replayed.nr_targets;
    } else {
        iom_job_free(&replayed);
    }
    if (ro.help) {
        usage(stdout);
        iom_job_free(&job);
        return IOM_EXIT_OK;
    }
    /* --ioengine=null (as fio's null engine, a FIO_DISKLESSIO engine): no file is
     * needed, opened, created or monitored; the region is --size from --offset */
    bool null_engine = strcmp(job.ioengine, "null") == 0;
    if (null_engine && !job.size_bytes && job.nr_targets == 0) {
        iom_cli_error("run", "--ioengine=null: needs --size (no file is opened, so there is no "
                      "size to take; fio says 'you need to specify size=')");
        iom_job_free(&job);
        return IOM_EXIT_USAGE;
    }
    if (null_engine && job.nr_targets == 0 && iom_job_add_target(&job, "null")) {
        iom_job_free(&job);
        return IOM_EXIT_FAIL;
    }
    struct iom_target *targets = calloc(job.nr_targets ? job.nr_targets : 1, sizeof(*targets));
    if (!targets) {
        iom_job_free(&job);
        return IOM_EXIT_FAIL;
    }
    int status;
#ifdef IOMARK_HAVE_MPI
    if (iom_mpi_launched()) { /* under mpirun/srun: one iomark per rank (docs/mpi.md) */
        if (repeat > 1) {
            iom_cli_error("run", "--repeat=%u: not available under an MPI launcher", repeat);
            status = IOM_EXIT_USAGE;
        } else {
            status = iom_cli_mpi_run("run", &job, &ro, targets, NULL);
        }
        goto out;
    }
#endif
    status = null_engine ? null_check(&job, &ro, targets) : iom_cli_check("run", &job, &ro, targets);
    if (status)
        goto out;
    {
        char qd[32];
        snprintf(qd, sizeof(qd), "--iodepth=%u", job.iodepth);
        iom_cli_depth_note("run", &ro, job.ioengine, qd, job.iodepth);
    }
    iom_cli_signals_install();
    {
        unsigned runs = repeat > 1 ? repeat : 1;
        double s = iom_cli_job_seconds(&job);
        iom_cli_progress_plan("run", &ro, runs, s < 0 ? -1 : s * runs, false);
    }
    status = null_engine ? 0 : iom_cli_prepare("run", &job, &ro, targets);
    if (status)
        goto out;
    if (!null_engine && job.nr_targets == 1 && job.numjobs == 1 && job.io_limit_bytes &&
        job.io_limit_bytes == targets[0].region_len) {
        /* one size-based pass ends where the last whole block does (fio 3.33:
         * io_size=30k over a 30 KiB file with bs=4k is 7 reads); no wrap */
        uint64_t tail = iom_offgen_unused_tail(&job, targets[0].region_len, job.numjobs);
        if (tail && tail < targets[0].region_len)
            job.io_limit_bytes -= tail;
    }
    if (repeat > 1) { /* --repeat N: cli/repeat.c */
        status = iom_cli_run_repeat("run", &job, &ro, targets, repeat);
        goto out;
    }
    struct iom_run_hooks hooks = iom_cli_hooks(&ro, &job, job.nr_targets ? job.targets[0] : NULL);
    struct iom_result *r = NULL;
    int rc = iom_run(&job, targets, job.nr_targets, &hooks, &r);
    iom_cli_progress_clear();
    iom_cli_close_noted("run", targets, job.nr_targets, job.keep, IOM_NOTE_ALL);
    if (rc && r && r->error[0])
        iom_cli_error("run", "%s", r->error);
    status = emit(r, &ro, rc);
    iom_result_free(r);
out:
    free(targets);
    iom_job_free(&job);
    return status;
}
