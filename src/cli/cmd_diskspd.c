/* cmd_diskspd.c - `iomark diskspd [DiskSpd flags] TARGET...`: a DiskSpd 2.x
 * command line run on iomark's engine, reported in DiskSpd's layout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "report/diskspd.h"
#include "workload/diskspd.h"
#ifdef IOMARK_HAVE_MPI
#include "mpi/mpi.h"
#endif

static int write_report(const struct iom_diskspd *ds, const struct iom_result *r,
                        const struct iom_run_opts *ro)
{
    FILE *f = stdout;
    if (ro->output_path && !(f = fopen(ro->output_path, "w"))) {
        iom_cli_error("diskspd", "--output=%s: %s", ro->output_path, strerror(errno));
        return IOM_EXIT_FAIL;
    }
    int rc = 0;
    if (ds->xml)
        rc = iom_report_diskspd_xml(f, ds, r);
    else if (r)
        iom_report_diskspd_text(f, ds, r);
    else
        iom_report_diskspd_profile_text(f, ds);
    int crc = iom_cli_fclose("diskspd", f, ro->output_path);
    if (rc && !crc) {
        iom_cli_error("diskspd", "writing the report: %s", strerror(-rc));
        return IOM_EXIT_FAIL;
    }
    return crc;
}

/* A missing file needs -c (DiskSpd's way to say how large to create it). */
static int check_missing(void *arg, struct iom_job *job)
{
    const struct iom_diskspd *ds = arg;
    for (uint32_t i = 0; i < job->nr_targets && !ds->create; i++) {
        struct stat st;
        if (stat(job->targets[i], &st) != 0 && errno == ENOENT) {
            iom_cli_error("diskspd", "target %s does not exist; give -c<size> to create it, "
                          "e.g. -c1G", job->targets[i]);
            return IOM_EXIT_USAGE;
        }
    }
    return 0;
}

/* -rdabs: zones are per job, every target must offer the same region. */
static int check_zones(void *arg, struct iom_job *job, struct iom_target *targets)
{
    struct iom_diskspd *ds = arg;
    char err[600];
    (void)job;
    if (ds->dist != IOM_DSPD_DIST_ABS)
        return 0;
    for (uint32_t i = 1; i < ds->job.nr_targets; i++)
        if (targets[i].region_len != targets[0].region_len) {
            iom_cli_error("diskspd", "-rdabs: the targets differ in size (%s: %llu, %s: %llu "
                          "bytes); give -f<size> to use the same range on each",
                          targets[0].path, (unsigned long long)targets[0].region_len,
                          targets[i].path, (unsigned long long)targets[i].region_len);
            return IOM_EXIT_USAGE;
        }
    uint32_t seen = ds->nr_warnings;
    if (iom_diskspd_resolve(ds, targets[0].region_len, err, sizeof(err))) {
        iom_cli_error("diskspd", "%s", err);
        return IOM_EXIT_USAGE;
    }
    for (uint32_t i = seen; i < ds->nr_warnings; i++)
        fprintf(stderr, "iomark diskspd: warning: %s\n", ds->warnings[i]);
    return 0;
}

#ifdef IOMARK_HAVE_MPI
/* Under mpirun: the merged result in DiskSpd's layout (one "thread" per
 * rank), and in text the per-host table after it. */
static int emit_mpi(void *arg, const struct iom_result *m, const struct iom_mpi_info *in,
                    const struct iom_run_opts *ro)
{
    const struct iom_diskspd *ds = arg;
    int rc = write_report(ds, m, ro);
    if (rc || ds->xml)
        return rc;
    FILE *f = ro->output_path ? fopen(ro->output_path, "a") : stdout;
    if (!f)
        return IOM_EXIT_FAIL;
    iom_mpi_report_text(f, in, m);
    return iom_cli_fclose("diskspd", f, ro->output_path);
}
#endif

int iom_cmd_diskspd(int argc, char **argv)
{
    struct iom_diskspd *ds = malloc(sizeof(*ds));
    struct iom_run_opts ro = {0};
    char err[600];
    if (!ds)
        return IOM_EXIT_FAIL;
    if (argc < 2) {
        iom_diskspd_help(stderr);
        free(ds);
        return IOM_EXIT_USAGE;
    }
    int status = IOM_EXIT_OK;
    struct iom_target *targets = NULL;
    if (iom_diskspd_parse(argc, argv, 1, ds, &ro, err, sizeof(err))) {
        iom_cli_error("diskspd", "%s", err);
        status = IOM_EXIT_USAGE;
        goto out;
    }
    if (ro.help) {
        iom_diskspd_help(stdout);
        goto out;
    }
    for (uint32_t i = 0; i < ds->nr_warnings; i++)
        fprintf(stderr, "iomark diskspd: warning: %s\n", ds->warnings[i]);
    if (ds->profile_only) {
        status = write_report(ds, NULL, &ro);
        goto out;
    }
    struct iom_job *job = &ds->job;
    targets = calloc(job->nr_targets, sizeof(*targets));
    if (!targets) {
        status = IOM_EXIT_FAIL;
        goto out;
    }
#ifdef IOMARK_HAVE_MPI
    if (iom_mpi_launched()) { /* under mpirun/srun: one iomark per rank (docs/mpi.md) */
        struct iom_cli_mpi_ops ops = {.before_check = check_missing, .after_check = check_zones,
                                      .emit = emit_mpi, .arg = ds};
        status = iom_cli_mpi_run("diskspd", job, &ro, targets, &ops);
        goto out;
    }
#endif
    status = check_missing(ds, job);
    if (!status)
        status = iom_cli_check("diskspd", job, &ro, targets);
    if (!status)
        status = check_zones(ds, job, targets);
    if (status)
        goto out;
    {
        char qd[32];
        snprintf(qd, sizeof(qd), "-o%u", job->iodepth);
        iom_cli_depth_note("diskspd", &ro, job->ioengine, qd, job->iodepth);
    }
    iom_cli_signals_install();
    iom_cli_progress_plan("diskspd", &ro, 1, iom_cli_job_seconds(job), false);
    status = iom_cli_prepare("diskspd", job, &ro, targets);
    if (status)
        goto out;
    struct iom_run_hooks hooks = iom_cli_hooks(&ro, job, job->nr_targets ? job->targets[0] : NULL);
    struct iom_result *r = NULL;
    int rc = iom_run(job, targets, job->nr_targets, &hooks, &r);
    iom_cli_progress_clear();
    iom_cli_close_noted("diskspd", targets, job->nr_targets, job->keep, IOM_NOTE_ALL);
    if (rc && r && r->error[0])
        iom_cli_error("diskspd", "%s", r->error);
    if (r && r->engine_note[0])
        fprintf(stderr, "iomark diskspd: note: %s\n", r->engine_note);
    status = rc ? IOM_EXIT_FAIL : IOM_EXIT_OK;
    if (rc == -EINVAL) {  /* refused before any I/O (e.g. -T past the end): bad input */
        iom_result_free(r);
        status = IOM_EXIT_USAGE;
        goto out;
    }
    if (r) {
        int wrc = write_report(ds, r, &ro);
        if (wrc)
            status = wrc;
        if (r->interrupted_signal)
            status = iom_cli_signal_exit(r->interrupted_signal);
    }
    iom_result_free(r);
out:
    free(targets);
    iom_diskspd_free(ds);
    free(ds);
    return status;
}
