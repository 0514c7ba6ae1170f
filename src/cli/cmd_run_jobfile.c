/* cmd_run_jobfile.c - `iomark run JOBFILE` (fio job files) and
 * `iomark run --profile NAME ...` (SQL Server profiles): the parts of the
 * run command that are front ends of their own. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "core/group.h"
#include "core/runner.h"
#include "engine/engine.h"
#include "probe/diskutil.h"
#include "report/fio.h"
#include "report/report.h"
#include "workload/args.h"
#include "workload/fiojob.h"
#include "workload/profiles.h"

#define CMD "run"

int iom_cli_find_jobfile(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            return 0;
        if (strcmp(argv[i], "-") == 0 && strcmp(argv[i - 1], "--output") != 0)
            return i; /* the job file on stdin, as fio's `fio -` */
        if (argv[i][0] == '-')
            continue;
        if (iom_fio_is_jobfile(argv[i]))
            return i;
        /* a mistyped job file name is not a target to create; a bare --name
         * before it may take it as its value (--output x.fio) */
        size_t l = strlen(argv[i]);
        struct stat st;
        bool value = argv[i - 1][0] == '-' && !strchr(argv[i - 1], '=');
        if (!value && l > 4 && (!strcmp(argv[i] + l - 4, ".fio") || !strcmp(argv[i] + l - 4, ".ini")) &&
            stat(argv[i], &st) != 0 && errno == ENOENT)
            return -i;
    }
    return 0;
}

int iom_cli_take_profile(int *argc, char **argv, struct iom_job *job)
{
    const char *name = NULL;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--profile") == 0 && i + 1 < *argc) {
            name = argv[++i];
            continue;
        }
        if (strncmp(a, "--profile=", 10) == 0) {
            name = a + 10;
            continue;
        }
        if (strcmp(a, "--profile") == 0) {
            iom_cli_error(CMD, "--profile: needs a name; see iomark profiles");
            return IOM_EXIT_USAGE;
        }
        argv[out++] = argv[i];
    }
    if (!name)
        return 0;
    *argc = out;
    argv[out] = NULL;
    const struct iom_profile *p = iom_profile_find(name);
    if (!p) {
        char why[600];
        iom_profile_unknown(name, why, sizeof(why));
        iom_cli_error(CMD, "%s", why);
        return IOM_EXIT_USAGE;
    }
    char err[300];
    if (iom_profile_apply(p, job, err, sizeof(err))) {
        iom_cli_error(CMD, "--profile=%s: %s", name, err);
        return IOM_EXIT_USAGE;
    }
    return 0;
}

static void jobfile_usage(FILE *f)
{
    fprintf(f, "usage: iomark run [options] JOBFILE\n"
               "Run a fio job file ([global] and job sections) and report as fio does.\n\n"
               "  --output-format=normal|json|json+  fio's human output (default), fio's\n"
               "                               JSON, or JSON with clat_ns bins (fio's json+)\n"
               "  --output=FILE                write the report to FILE\n"
               "  --ignore-unknown             skip options outside iomark's fio subset and list\n"
               "                               them in the report (default: refuse the file)\n"
               "  --filename-map=FROM=TO       run on TO wherever the job file names FROM\n"
               "  --parse-only                 print the workload of each job and stop (no file\n"
               "                               is opened or created)\n"
               "  --NAME=VALUE                 a fio option applied to every job after its own\n"
               "                               (e.g. --runtime=5 --size=64m)\n"
               "  --force, --keep, --quiet, --status-interval   as for iomark run\n"
               "A JOBFILE is a regular file ending in .fio, or whose first line that is not\n"
               "blank or a ';'/'#' comment is a [section] header. See docs/fio-jobs.md.\n");
}

struct jf_args {
    struct iom_run_opts ro;
    struct iom_fio_parse_opts po;
    bool force, keep, parse_only, json_plus;
    const char *path;
};

/* --parse-only: the workload each job runs, one line per job, nothing opened or created */
static void print_parsed(FILE *f, const struct iom_fio_file *ff)
{
    for (uint32_t i = 0; i < ff->nr_jobs; i++) {
        const struct iom_fio_job *fj = &ff->jobs[i];
        const struct iom_job *j = &fj->job;
        fprintf(f, "[%s] line=%u step=%u group=%u rw=%s", fj->jobname, fj->line, fj->step,
                fj->groupid, iom_rw_name(j->rw));
        if (j->nr_bssplit) {
            fprintf(f, " bssplit=");
            for (uint32_t k = 0; k < j->nr_bssplit; k++)
                fprintf(f, "%s%llu/%u", k ? ":" : "", (unsigned long long)j->bssplit[k].bs_bytes,
                        j->bssplit[k].pct);
        } else {
            fprintf(f, " bs=%llu", (unsigned long long)j->bs_bytes);
        }
        if (j->nr_wbssplit) { /* writes' own sizes (fio's bs=READ,WRITE) */
            fprintf(f, " bssplit_write=");
            for (uint32_t k = 0; k < j->nr_wbssplit; k++)
                fprintf(f, "%s%llu/%u", k ? ":" : "", (unsigned long long)j->wbssplit[k].bs_bytes,
                        j->wbssplit[k].pct);
        } else if (j->wbs_bytes) {
            fprintf(f, " bs_write=%llu", (unsigned long long)j->wbs_bytes);
        }
        if (j->offset_increment_bytes)
            fprintf(f, " offset_increment=%llu", (unsigned long long)j->offset_increment_bytes);
        if (j->seq_back_bytes)
            fprintf(f, " seq_back=%llu", (unsigned long long)j->seq_back_bytes);
        const char *rn[4] = {"rate", "rate_write", "rate_iops", "rate_iops_write"};
        const uint64_t rv[4] = {j->rate_bytes_per_s, j->rate_w_bytes_per_s, j->rate_iops,
                                j->rate_w_iops};
        for (int k = 0; k < 4; k++) /* UINT64_MAX: writes unpaced beside paced reads */
            if (rv[k] == UINT64_MAX)
                fprintf(f, " %s=unpaced", rn[k]);
            else if (rv[k])
                fprintf(f, " %s=%llu", rn[k], (unsigned long long)rv[k]);
        fprintf(f, " iodepth=%u clones=%u rwmixread=%u size=%llu offset=%llu seq_stride=%llu "
                "runtime_s=%.3f time_based=%d io_limit=%s", fj->fio_iodepth, fj->fio_numjobs,
                iom_job_read_pct(j), (unsigned long long)j->size_bytes,
                (unsigned long long)j->offset_bytes, (unsigned long long)j->seq_stride_bytes,
                (double)j->runtime_ns / 1e9, fj->time_based,
                fj->limit_is_region ? "region" : "");
        if (!fj->limit_is_region)
            fprintf(f, "%llu", (unsigned long long)j->io_limit_bytes);
        fprintf(f, " random_map=%d random_generator=%s invalidate=%d ioengine=%s direct=%d "
                "verify=%d files=", j->random_map, fj->random_generator, j->invalidate,
                j->ioengine, j->direct, j->verify);
        for (uint32_t t = 0; t < j->nr_targets; t++)
            fprintf(f, "%s%s", t ? ":" : "", j->targets[t]);
        fprintf(f, "\n");
    }
    for (uint32_t i = 0; i < ff->nr_ignored; i++)
        fprintf(f, "ignored: %s\n", ff->ignored[i]);
}

static int parse_args(int argc, char **argv, int jf, struct jf_args *a)
{
    a->path = argv[jf];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (i == jf)
            continue;
        if (s[0] != '-' || s[1] != '-') {
            iom_cli_error(CMD, "%s: with a job file (%s) give options as --name=value; targets "
                          "come from the file (rename them with --filename-map=FROM=TO)", s,
                          a->path);
            return IOM_EXIT_USAGE;
        }
        const char *eq = strchr(s, '=');
        char name[48];
        size_t nl = eq ? (size_t)(eq - s - 2) : strlen(s + 2);
        if (nl == 0 || nl >= sizeof(name)) {
            iom_cli_error(CMD, "%s: unknown option", s);
            return IOM_EXIT_USAGE;
        }
        memcpy(name, s + 2, nl);
        name[nl] = '\0';
        const char *v = eq ? eq + 1 : NULL;
        if (strcmp(name, "help") == 0) {
            a->ro.help = true;
        } else if (strcmp(name, "quiet") == 0) {
            a->ro.quiet = true;
        } else if (strcmp(name, "force") == 0) {
            a->force = true;
        } else if (strcmp(name, "keep") == 0) {
            if (!v || strcmp(v, "1") == 0 || strcmp(v, "true") == 0) {
                a->keep = true;
            } else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0) {
                a->keep = false;
            } else {
                iom_cli_error(CMD, "--keep=%s: allowed: 0 or 1", v);
                return IOM_EXIT_USAGE;
            }
        } else if (strcmp(name, "parse-only") == 0) {
            a->parse_only = true;
        } else if (strcmp(name, "ignore-unknown") == 0) {
            a->po.ignore_unknown = true;
        } else if (strcmp(name, "output-format") == 0 || strcmp(name, "output") == 0 ||
                   strcmp(name, "status-interval") == 0) {
            char err[300];
            struct iom_job dummy;
            iom_job_defaults(&dummy);
            if (strcmp(name, "output-format") == 0 &&
                (!v || (strcmp(v, "normal") && strcmp(v, "json") && strcmp(v, "json+")))) {
                return iom_cli_bad_choice(CMD, "output-format", v,
                                          (const char *const[]){"normal", "json", "json+", NULL},
                                          "normal, json, json+");
            }
            if (strcmp(name, "output-format") == 0)
                a->json_plus = v && strcmp(v, "json+") == 0;
            if (strcmp(name, "output-format") == 0 && a->json_plus)
                v = "json"; /* fio's json+: json with each clat_ns's "bins" */
            if (iom_option_apply(name, v, &dummy, &a->ro, err, sizeof(err))) {
                iom_cli_error(CMD, "%s", err);
                return IOM_EXIT_USAGE;
            }
        } else if (strcmp(name, "filename-map") == 0) {
            const char *sep = v ? strchr(v, '=') : NULL;
            if (!sep || sep == v || !sep[1]) {
                iom_cli_error(CMD, "--filename-map=%s: expected FROM=TO, e.g. "
                              "--filename-map=/dev/sdd=/tmp/sdd.img", v ? v : "");
                return IOM_EXIT_USAGE;
            }
            if (a->po.nr_maps == IOM_FIO_MAX_MAPS) {
                iom_cli_error(CMD, "--filename-map: at most %d", IOM_FIO_MAX_MAPS);
                return IOM_EXIT_USAGE;
            }
            char *from = strndup(v, (size_t)(sep - v));
            if (!from)
                return IOM_EXIT_FAIL;
            a->po.map_from[a->po.nr_maps] = from;
            a->po.map_to[a->po.nr_maps++] = sep + 1;
        } else {
            if (a->po.nr_overrides == IOM_FIO_MAX_OPTS ||
                strlen(v ? v : "") >= sizeof(a->po.overrides[0].value)) {
                iom_cli_error(CMD, "%s: too many or too long overrides", s);
                return IOM_EXIT_USAGE;
            }
            struct iom_fio_kv *kv = &a->po.overrides[a->po.nr_overrides++];
            snprintf(kv->name, sizeof(kv->name), "%s", name);
            snprintf(kv->value, sizeof(kv->value), "%s", v ? v : "");
            kv->line = 0;
        }
    }
    return 0;
}

/* ioengine=null: as fio's null engine, no file is opened or created (and so
 * no free space is needed); the region is size= (or filesize=) from offset=. */
static bool is_null(const struct iom_fio_job *fj)
{
    return strcmp(fj->job.ioengine, "null") == 0;
}

static int null_targets(const struct iom_fio_job *fj, struct iom_target *t, char *err,
                        size_t errlen)
{
    const struct iom_job *j = &fj->job;
    uint64_t len = j->size_bytes ? j->size_bytes : fj->filesize;
    if (!len) {
        snprintf(err, errlen, "[%s] (line %u): ioengine=null needs size= or filesize= (no file "
                 "is opened, so there is no size to take)", fj->jobname, fj->line);
        return -EINVAL;
    }
    for (uint32_t i = 0; i < j->nr_targets; i++) {
        memset(&t[i], 0, sizeof(t[i]));
        t[i].path = j->targets[i];
        t[i].fd = -1;
        t[i].size_bytes = j->offset_bytes + len;
        t[i].region_start = j->offset_bytes;
        t[i].region_len = len;
        t[i].logical_block_bytes = 512;
    }
    return 0;
}

static int emit(const struct iom_fio_file *ff, struct iom_result *const *res,
                const struct iom_run_opts *ro, bool plus, uint64_t genesis_ns,
                const struct iom_diskutil *du)
{
    /* an interrupted run: fio 3.33's own mark, written into its report (normal
     * or JSON, stdout or --output) before the results: "\nfio: terminating on
     * signal N\n" (fio's sig_int -> log_info; iomark's importers read it) */
    char mark[64] = "";
    if (iom_cli_stop)
        snprintf(mark, sizeof(mark), "\nfio: terminating on signal %d\n", (int)iom_cli_stop);
    if (ro->format == IOM_OUT_JSON) {
        /* fio reads the clock at output: the wall clock, and the time since the
         * jobs began (its genesis, after the layout) */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t now = iom_now_ns();
        struct iom_diskutil_row disks[IOM_DISKUTIL_MAX];
        struct iom_fio_clock ck = {(uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000,
                                   genesis_ns && now > genesis_ns ? (now - genesis_ns) / 1000000
                                                                  : 0,
                                   disks, genesis_ns ? iom_diskutil_end(du, "", now, disks) : 0};
        cJSON *doc = iom_report_fio_json(ff, res, plus, &ck);
        if (!doc)
            return IOM_EXIT_FAIL;
        int rc = iom_json_write_after(mark, doc, ro->output_path);
        cJSON_Delete(doc);
        return rc ? iom_cli_write_failed(CMD, ro->output_path, rc) : 0;
    }
    FILE *f = stdout;
    if (ro->output_path && !(f = fopen(ro->output_path, "w"))) {
        iom_cli_error(CMD, "--output=%s: %s", ro->output_path, strerror(errno));
        return IOM_EXIT_FAIL;
    }
    if (mark[0])
        fprintf(f, "%s\n", mark);
    iom_report_fio_text(f, ff, res);
    return iom_cli_fclose(CMD, f, ro->output_path);
}

/* write_*_log=PREFIX: the folder of each log must exist and be writable
 * before anything runs (fio_log.c writes PREFIX_bw.N.log after the run) */
static int check_logs(const char *label, const struct iom_fio_job *fj)
{
    static const char *const opt[3] = {"write_bw_log", "write_lat_log", "write_iops_log"};
    static const int kind[3] = {IOM_FIO_LOG_BW, IOM_FIO_LOG_LAT, IOM_FIO_LOG_IOPS};
    for (int k = 0; k < 3; k++) {
        const char *p = fj->log_name[kind[k]];
        const char *slash = strrchr(p, '/');
        if (!p[0] || !slash)
            continue; /* not written, or in the working folder */
        char dir[IOM_FIO_LOG_NAME];
        snprintf(dir, sizeof(dir), "%.*s", slash == p ? 1 : (int)(slash - p), p);
        struct stat st;
        const char *why = stat(dir, &st) ? strerror(errno)
                          : !S_ISDIR(st.st_mode) ? "not a folder"
                          : access(dir, W_OK | X_OK) ? strerror(errno) : NULL;
        if (why) {
            iom_cli_error(label, "%s=%s: the log folder %s: %s; name an existing folder", opt[k],
                          p, dir, why);
            return IOM_EXIT_USAGE;
        }
    }
    return 0;
}

/* Under an MPI launcher each rank runs the job file on its own: --output
 * must name one file per rank with %r (the rank, from the launcher's
 * OMPI_COMM_WORLD_RANK, PMI_RANK or PMIX_RANK), or the ranks overwrite one
 * another's report. out holds the expanded name. */
static int mpi_output(struct iom_run_opts *ro, char *out, size_t outlen)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE")
                                                      : getenv("PMI_SIZE");
    const char *rank = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK")
                       : getenv("PMI_RANK") ? getenv("PMI_RANK") : getenv("PMIX_RANK");
    if (!ro->output_path || (!size && !rank) || (size && strcmp(size, "1") == 0))
        return 0;
    const char *r = strstr(ro->output_path, "%r");
    if (!r || !rank) {
        iom_cli_error(CMD, "--output=%s: under an MPI launcher every rank runs the job file and "
                      "writes its own report; put %%r (the rank) in the name, e.g. out.%%r.json",
                      ro->output_path);
        return IOM_EXIT_USAGE;
    }
    snprintf(out, outlen, "%.*s%s%s", (int)(r - ro->output_path), ro->output_path, rank, r + 2);
    ro->output_path = out;
    return 0;
}

int iom_cmd_run_jobfile(int argc, char **argv, int jf)
{
    struct jf_args a;
    memset(&a, 0, sizeof(a));
    a.keep = true;   /* as fio: files the job creates stay; --keep=0 removes them */
    struct iom_fio_file ff;
    memset(&ff, 0, sizeof(ff));
    struct iom_target **tg = NULL;
    struct iom_result **res = NULL;
    char err[8192]; /* a refusal lists every option of the file (fio-jobs.md) */
    char outname[4096];
    if (jf < 0) {
        iom_cli_error(CMD, "%s: job file not found (a name ending in .fio or .ini is taken for "
                      "a fio job file, never for a target)", argv[-jf]);
        return IOM_EXIT_USAGE;
    }
    int status = parse_args(argc, argv, jf, &a);
    a.ro.repeat_targets = true; /* fio: a file named twice is two file entries */
    a.ro.fio_job_file = true;
    if (!status && !a.ro.help)
        status = mpi_output(&a.ro, outname, sizeof(outname));
    if (!status && !a.ro.help) {
        const char *job_file = a.path;
        status = iom_cli_output_apart(CMD, a.ro.output_path, &job_file, 1, "the job file");
    }
    if (status || a.ro.help) {
        if (a.ro.help)
            jobfile_usage(stdout);
        goto out;
    }
    int rc = iom_fio_parse_file(a.path, &a.po, &ff, err, sizeof(err));
    if (rc) {
        iom_cli_error(CMD, "%s: %s", a.path, err);
        status = rc == -EINVAL ? IOM_EXIT_USAGE : IOM_EXIT_FAIL;
        goto out;
    }
    if (a.parse_only) {
        for (uint32_t i = 0; i < ff.nr_jobs; i++) {
            iom_fio_earlier_size(&ff, i);
            if (iom_fio_resolve_pct(&ff.jobs[i], err, sizeof(err))) {
                iom_cli_error(CMD, "%s: %s", a.path, err);
                status = IOM_EXIT_USAGE;
                goto out;
            }
        }
        print_parsed(stdout, &ff);
        goto out;
    }
    tg = calloc(ff.nr_jobs, sizeof(*tg));
    res = calloc(ff.nr_jobs, sizeof(*res));
    if (!tg || !res) {
        status = IOM_EXIT_FAIL;
        goto out;
    }
    /* check every job before anything is created */
    for (uint32_t i = 0; i < ff.nr_jobs; i++) {
        struct iom_fio_job *fj = &ff.jobs[i];
        fj->job.force = a.force;
        fj->job.keep = a.keep && !fj->unlink; /* unlink=1: remove the files iomark made */
        tg[i] = calloc(fj->job.nr_targets, sizeof(**tg));
        if (!tg[i]) {
            status = IOM_EXIT_FAIL;
            goto out;
        }
        for (uint32_t t = 0; t < fj->job.nr_targets; t++)
            tg[i][t].fd = -1;
        char label[128];
        snprintf(label, sizeof(label), CMD ": %s: [%s] (line %u)", a.path, fj->jobname, fj->line);
        iom_fio_earlier_size(&ff, i);
        if (iom_fio_check_dirs(fj, err, sizeof(err)) ||
            iom_fio_resolve_pct(fj, err, sizeof(err))) {
            iom_cli_error(CMD, "%s: %s", a.path, err);
            status = IOM_EXIT_USAGE;
            goto out;
        }
        if (is_null(fj)) {
            const char *opt = NULL, *why = NULL;
            if (iom_job_validate(&fj->job, &opt, &why)) {
                iom_cli_error(label, "%s%s%s", strcmp(opt, "target") ? opt : "",
                              strcmp(opt, "target") ? ": " : "", why);
                status = IOM_EXIT_USAGE;
                goto out;
            }
            if (null_targets(fj, tg[i], err, sizeof(err))) {
                iom_cli_error(CMD, "%s: %s", a.path, err);
                status = IOM_EXIT_USAGE;
                goto out;
            }
            continue;
        }
        status = check_logs(label, fj);
        if (!status)
            status = iom_cli_check(label, &fj->job, &a.ro, tg[i]);
        if (status)
            goto out;
    }
    for (uint32_t s = 0; s < ff.nr_steps; s++) {
        uint64_t threads = 0;
        for (uint32_t i = 0; i < ff.nr_jobs; i++)
            if (ff.jobs[i].step == s)
                threads += (uint64_t)ff.jobs[i].job.numjobs * ff.jobs[i].job.nr_targets;
        if (threads > 4096) {
            iom_cli_error(CMD, "%s: jobs that run together (step %u) need %llu threads; at most "
                          "4096", a.path, s, (unsigned long long)threads);
            status = IOM_EXIT_USAGE;
            goto out;
        }
    }
    /* each job's notes (buffered I/O, invalidate): on stderr, and in the report (text, JSON) */
    for (uint32_t i = 0; i < ff.nr_jobs && !a.ro.quiet; i++) {
        if (ff.jobs[i].note[0])
            fprintf(stderr, "iomark run: note: [%s] %s\n", ff.jobs[i].jobname, ff.jobs[i].note);
        const struct iom_job *jj = &ff.jobs[i].job; /* fio's note on a synchronous engine */
        if (iom_engine_depth(jj->ioengine, jj->iodepth) != jj->iodepth)
            fprintf(stderr, "iomark run: note: [%s] iodepth=%u with a synchronous ioengine (%s): "
                            "1 I/O in flight per thread, so the queue depth is 1 (as fio caps "
                            "it)\n", ff.jobs[i].jobname, jj->iodepth, jj->ioengine);
    }
    for (uint32_t i = 0; i < ff.nr_ignored; i++)
        fprintf(stderr, "iomark run: ignored (--ignore-unknown): %s\n", ff.ignored[i]);

    iom_cli_signals_install();
    int run_failed = 0;
    uint64_t genesis_ns = 0;
    struct iom_diskutil du = {0};
    for (uint32_t s = 0; s < ff.nr_steps && !iom_cli_stop; s++) {
        const struct iom_job *jobs[ff.nr_jobs];
        struct iom_target *tgs[ff.nr_jobs];
        unsigned nrs[ff.nr_jobs];
        uint32_t idx[ff.nr_jobs], n = 0;
        int wf[ff.nr_jobs]; /* wait_for: the waitee's place in this step, or -1 */
        uint32_t gids[ff.nr_jobs];
        for (uint32_t i = 0; i < ff.nr_jobs; i++) {
            struct iom_fio_job *fj = &ff.jobs[i];
            if (fj->step != s)
                continue;
            /* look again: an earlier job may have created or grown the file */
            memset(tg[i], 0, fj->job.nr_targets * sizeof(**tg));
            for (uint32_t t = 0; t < fj->job.nr_targets; t++)
                tg[i][t].fd = -1;
            char label[128];
            snprintf(label, sizeof(label), CMD ": %s: [%s]", a.path, fj->jobname);
            for (uint32_t t = 0; is_null(fj) && t < 1; t++)
                null_targets(fj, tg[i], err, sizeof(err)); /* checked above */
            for (uint32_t t = 0; !is_null(fj) && t < fj->job.nr_targets; t++) {
                if (iom_target_check(&fj->job, fj->job.targets[t], &tg[i][t], err, sizeof(err))) {
                    iom_cli_error(label, "%s", err);
                    status = IOM_EXIT_USAGE;
                    goto report;
                }
            }
            status = is_null(fj) ? 0 : iom_cli_prepare(label, &fj->job, &a.ro, tg[i]);
            if (status)
                goto report;
            if (fj->job.invalidate && !is_null(fj)) {
                for (uint32_t t = 0; t < fj->job.nr_targets; t++)
                    if (iom_target_invalidate(&tg[i][t], err, sizeof(err)) && !a.ro.quiet)
                        fprintf(stderr, "iomark run: note: [%s] invalidate: %s\n", fj->jobname,
                                err);
            }
            for (uint32_t t = 0; fj->pre_read && !is_null(fj) && t < fj->job.nr_targets; t++)
                if (iom_target_pre_read(&tg[i][t], iom_job_max_bs(&fj->job), err, sizeof(err))) {
                    iom_cli_error(label, "%s", err);
                    status = IOM_EXIT_FAIL;
                    goto report;
                }
            if (fj->limit_is_region) {
                uint64_t len = tg[i][0].region_len;
                fj->job.io_limit_bytes = len * fj->loops;
            }
            /* a size-based pass ends where the last whole block does (fio 3.33 reads a
             * 30 KiB file with bs=4k in 7 reads and leaves the tail): job.io_passes, per
             * thread and target in the worker (core/offsets.h iom_offgen_pass_bytes) */
            wf[n] = -1;
            for (uint32_t k = 0; k < n; k++)
                if (fj->wait_for >= 0 && idx[k] == (uint32_t)fj->wait_for)
                    wf[n] = (int)k;
            /* the group holds the flow weight from the start, unless the job waits */
            fj->job.flow_reserved = fj->job.flow && wf[n] < 0;
            gids[n] = fj->groupid;
            jobs[n] = &fj->job;
            tgs[n] = tg[i];
            nrs[n] = fj->job.nr_targets;
            idx[n++] = i;
        }
        /* the group runs its jobs together: it lasts as long as the longest */
        const struct iom_job *longest = n ? jobs[0] : NULL;
        for (uint32_t k = 1; k < n && longest; k++) {
            double sk = iom_cli_job_seconds(jobs[k]);
            if (sk < 0)
                longest = NULL;
            else if (sk > iom_cli_job_seconds(longest))
                longest = jobs[k];
        }
        iom_cli_progress_plan("run", &a.ro, 1, iom_cli_job_seconds(longest), false);
        struct iom_run_hooks hooks = iom_cli_hooks(&a.ro, longest, argv[jf]);
        struct iom_result *out[ff.nr_jobs];
        struct iom_group_ctl gctl = {.wait_for = wf, .groupid = gids};
        if (!genesis_ns) { /* fio's genesis: the jobs start after the layout; disk_util */
            const char *dn[IOM_DISKUTIL_MAX];
            uint32_t nd = 0;
            for (uint32_t k = 0; k < n; k++)
                for (unsigned t = 0; t < nrs[k] && nd < IOM_DISKUTIL_MAX; t++)
                    dn[nd++] = tgs[k][t].devname;
            genesis_ns = iom_now_ns();
            iom_diskutil_start(&du, "", dn, nd, genesis_ns);
        }
        rc = iom_run_group(jobs, tgs, nrs, n, &gctl, &hooks, out);
        iom_cli_progress_clear();
        for (uint32_t k = 0; k < n; k++) {
            res[idx[k]] = out[k];
            iom_cli_close_noted(CMD, tgs[k], nrs[k], jobs[k]->keep, IOM_NOTE_ALL);
            if (out[k] && out[k]->error[0])
                iom_cli_error(CMD, "[%s]: %s", ff.jobs[idx[k]].jobname, out[k]->error);
        }
        if (rc) {
            run_failed = 1;
            break;
        }
        if (gctl.ended_all) /* exitall with exit_what=all: no later step runs (fio) */
            break;
    }
report:
    for (uint32_t i = 0; i < ff.nr_jobs; i++)
        for (uint32_t t = 0; tg[i] && t < ff.jobs[i].job.nr_targets; t++)
            if (tg[i][t].fd > 0)
                iom_target_close(&tg[i][t], false);
    if (status == 0 || run_failed) {
        /* fio's write_*_log files of the jobs that name them, then the report */
        if (iom_fio_write_logs(&ff, res, err, sizeof(err))) {
            iom_cli_error(CMD, "%s: %s", a.path, err);
            run_failed = 1;
        }
        int erc = emit(&ff, res, &a.ro, a.json_plus, genesis_ns, &du);
        status = erc ? erc : run_failed ? IOM_EXIT_FAIL : IOM_EXIT_OK;
    }
    if (iom_cli_stop) /* fio 3.33 backend.c sig_int: exit_value = 128 on SIGINT and SIGTERM
                       * (fio leaves SIGHUP and SIGPIPE to their default and dies
                       * of them: iomark's 128 + signal stays) */
        status = iom_cli_stop == SIGINT || iom_cli_stop == SIGTERM ? 128 : iom_cli_signal_exit(iom_cli_stop);
out:
    if (res)
        for (uint32_t i = 0; i < ff.nr_jobs; i++)
            iom_result_free(res[i]);
    if (tg)
        for (uint32_t i = 0; i < ff.nr_jobs; i++)
            free(tg[i]);
    free(tg);
    free(res);
    for (uint32_t i = 0; i < a.po.nr_maps; i++)
        free((char *)a.po.map_from[i]);
    iom_fio_file_free(&ff);
    return status;
}
