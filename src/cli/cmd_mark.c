/* cmd_mark.c - `iomark mark [options] [TARGET]`: CrystalDiskMark's tests
 * (workload/presets.h). Argument handling and the run loop only: the
 * statistic is stats/markstat.c, the table and JSON report/mark.c.
 * As CrystalDiskMark's DiskBench.cpp: every test's reads, then its
 * writes; each test is one uncounted preparation run then the counted
 * runs back to back; `pause` between tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "report/mark.h"
#include "stats/markstat.h"
#include "workload/args.h"
#include "workload/presets.h"
#include "workload/units.h"

#define DEFAULT_FILE "iomark-test.dat"

/* native options that make sense for a preset; the pattern options do not */
static const char *const allowed[] = {"size",   "runtime",      "ioengine", "direct",
                                      "buffered", "keep",       "force",    "quiet",
                                      "output-format", "output", "randseed", "zero_buffers",
                                      "help",   "sync",         "ramp_time", "status-interval", NULL};

struct mark_opts {
    const struct iom_mark_profile *profile;
    uint64_t runs;
    uint64_t pause_ns;
    uint64_t prepare_ns;
    bool prepare_given;
    const char *statistic; /* "best", "mean", "kdiskmark" or NULL (CrystalDiskMark's) */
};

static void usage(FILE *f)
{
    fprintf(f, "usage: iomark mark [options] [TARGET]\n"
               "CrystalDiskMark-style tests. TARGET is a file, a folder (the test file\n"
               "%s is made there) or a block device; default ./%s, created,\n"
               "used and removed afterwards (kept with --keep).\n\n"
               "  --profile=NAME             default, peak, realworld, nvme, cdm7\n"
               "  --runs=N                   counted runs per test and direction (default 5)\n"
               "  --runtime=TIME             length of each counted run (default 5s)\n"
               "  --prepare=TIME             uncounted preparation run before each test's\n"
               "                             runs (default 5s, as CrystalDiskMark 8; 0: none)\n"
               "  --pause=TIME               interval between tests (default 5s)\n"
               "  --statistic=S              best (default: max MB/s and IOPS, lowest mean\n"
               "                             latency, as CrystalDiskMark), mean, or kdiskmark\n"
               "                             (mean for default/nvme/cdm7, best for peak and\n"
               "                             realworld, no preparation run, as KDiskMark)\n"
               "  --size=SIZE                test file size (default 1G)\n"
               "  --ioengine, --direct, --buffered, --sync, --ramp_time, --randseed,\n"
               "  --zero_buffers, --keep, --force, --quiet, --status-interval,\n"
               "  --output-format, --output:\n"
               "                             as for iomark run\n\nprofiles:\n",
            DEFAULT_FILE, DEFAULT_FILE);
    for (const struct iom_mark_profile *p = iom_mark_profiles; p->name; p++) {
        fprintf(f, "  %-10s %s:", p->name, p->title);
        for (unsigned i = 0; i < p->nr_tests; i++)
            fprintf(f, "%s %s", i ? "," : "", p->tests[i].name);
        fputc('\n', f);
    }
}

static bool is_allowed(const char *arg)
{
    size_t n = strcspn(arg + 2, "=");
    for (const char *const *a = allowed; *a; a++)
        if (iom_args_name_eq(arg + 2, n, *a))
            return true;
    return false;
}

/* Split mark's own options from the native ones. Returns 0 or IOM_EXIT_USAGE. */
static int parse(int argc, char **argv, struct iom_job *job, struct iom_run_opts *ro,
                 struct mark_opts *mo)
{
    char **rest = calloc((size_t)argc + 1, sizeof(*rest));
    if (!rest)
        return IOM_EXIT_FAIL;
    int nrest = 0, rc = 0;
    rest[nrest++] = argv[0];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        char name[32] = "";
        if (strncmp(a, "--", 2) == 0 && a[2]) {
            size_t n = strcspn(a + 2, "=");
            if (n < sizeof(name)) {
                memcpy(name, a + 2, n);
                name[n] = '\0';
            }
            v = a[2 + n] == '=' ? a + 3 + n : NULL;
        }
        static const char *const own_names[] = {"profile", "runs", "pause", "prepare", "statistic",
                                                NULL};
        bool own = false;
        for (const char *const *o = own_names; *o; o++)
            if (iom_args_name_eq(name, (size_t)-1, *o)) {
                snprintf(name, sizeof(name), "%s", *o); /* the canonical spelling */
                own = true;
            }
        if (own) {
            if (!v && i + 1 < argc)
                v = argv[++i];
            const char *why = "needs a value";
            if (!strcmp(name, "profile")) {
                mo->profile = v ? iom_mark_profile_find(v) : NULL;
                if (!mo->profile) {
                    iom_cli_error("mark", "--profile=%s: allowed: default, peak, realworld, nvme, cdm7",
                                  v ? v : "");
                    rc = IOM_EXIT_USAGE;
                    break;
                }
            } else if (!strcmp(name, "runs")) {
                if (!v || iom_parse_u64(v, &mo->runs, &why) || mo->runs < 1 || mo->runs > 1000) {
                    iom_cli_error("mark", "--runs=%s: must be a whole number from 1 to 1000",
                                  v ? v : "");
                    rc = IOM_EXIT_USAGE;
                    break;
                }
            } else if (!strcmp(name, "statistic")) {
                if (!v || (strcmp(v, "best") && strcmp(v, "mean") && strcmp(v, "kdiskmark"))) {
                    iom_cli_error("mark", "--statistic=%s: allowed: best, mean, kdiskmark",
                                  v ? v : "");
                    rc = IOM_EXIT_USAGE;
                    break;
                }
                mo->statistic = v;
            } else if (!strcmp(name, "prepare")) {
                if (!v || iom_parse_duration(v, &mo->prepare_ns, &why)) {
                    iom_cli_error("mark", "--prepare=%s: %s", v ? v : "",
                                  v && v[0] == '-' ? "must be 0 or more (a duration such as 5s)" : why);
                    rc = IOM_EXIT_USAGE;
                    break;
                }
                mo->prepare_given = true;
            } else if (!v || iom_parse_duration(v, &mo->pause_ns, &why)) {
                iom_cli_error("mark", "--pause=%s: %s", v ? v : "",
                              v && v[0] == '-' ? "must be 0 or more (a duration such as 5s)" : why);
                rc = IOM_EXIT_USAGE;
                break;
            }
            continue;
        }
        if (strncmp(a, "--", 2) == 0 && a[2] && !is_allowed(a)) {
            iom_cli_error("mark",
                          "--%s: not an option of mark (the preset sets the pattern); see "
                          "iomark mark --help",
                          name);
            rc = IOM_EXIT_USAGE;
            break;
        }
        rest[nrest++] = argv[i];
    }
    if (!rc) {
        char err[512];
        if (iom_options_parse(nrest, rest, 1, job, ro, err, sizeof(err))) {
            iom_cli_error("mark", "%s", err);
            rc = IOM_EXIT_USAGE;
        }
    }
    free(rest);
    return rc;
}

static void figures(const struct iom_result *r, bool write, bool counted,
                    struct iom_markstat_run *f)
{
    struct iom_summary m;
    iom_summarize(&r->total[write], r->measured_ns, &m);
    f->mb_per_s = m.mb_per_s;
    f->mib_per_s = m.mib_per_s;
    f->iops = m.iops;
    f->lat_mean_us = m.lat_mean_us;
    f->lat_p99_us = m.lat_pct_us[5];
    f->measured_s = (double)r->measured_ns / 1e9;
    f->ios = m.ios;
    f->prepare = !counted;
    f->interrupted = r->interrupted_signal != 0;
    f->counted = counted && !f->interrupted; /* a partial run is in no statistic */
}

/* Resolve the target: none -> ./iomark-test.dat, a folder -> FOLDER/iomark-test.dat. */
static int resolve_target(struct iom_job *job, bool *remove_after, char **owned)
{
    *remove_after = false;
    *owned = NULL;
    if (job->nr_targets > 1) {
        iom_cli_error("mark", "give at most one target (a file, folder or block device)");
        return IOM_EXIT_USAGE;
    }
    struct stat st;
    const char *dir = NULL;
    if (job->nr_targets == 0)
        dir = ".";
    else if (stat(job->targets[0], &st) == 0 && S_ISDIR(st.st_mode))
        dir = job->targets[0];
    if (dir) {
        size_t n = strlen(dir) + sizeof(DEFAULT_FILE) + 2;
        *owned = malloc(n);
        if (!*owned)
            return IOM_EXIT_FAIL;
        snprintf(*owned, n, "%s/%s", dir, DEFAULT_FILE);
        iom_job_free(job);
        if (iom_job_add_target(job, *owned))
            return IOM_EXIT_FAIL;
        *remove_after = true; /* only if iomark creates it (see iom_target_close) */
    }
    return 0;
}

/* One run of test i, direction w: `counted` false for the preparation run.
 * Appends its figures to c; an interruption sets *sig, a failure errbuf. */
static void one_run(const struct iom_job *base, const struct iom_run_opts *ro,
                    const struct iom_mark_test *mt, bool w, uint64_t runtime_ns, bool counted,
                    const char *label, struct iom_target *target, struct iom_mark_cell *c,
                    char *engine, size_t englen, int *sig, char *errbuf, size_t errlen)
{
    struct iom_job j;
    if (iom_mark_job(base, mt, w, &j)) {
        snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
        return;
    }
    j.runtime_ns = runtime_ns;
    if (iom_target_open(&j, target, errbuf, errlen)) {
        iom_job_free(&j);
        return;
    }
    struct iom_run_hooks hooks = iom_cli_hooks(ro, &j, label);
    struct iom_result *r = NULL;
    int rc = iom_run(&j, target, 1, &hooks, &r);
    iom_cli_progress_clear();
    iom_target_close(target, false);
    if (r) {
        snprintf(engine, englen, "%s", r->engine);
        if (rc && r->error[0])
            snprintf(errbuf, errlen, "%s", r->error);
        *sig = r->interrupted_signal;
        if (!rc && r->measured_ns)
            figures(r, w, counted, &c->runs[c->nr_runs++]);
    } else if (rc) {
        snprintf(errbuf, errlen, "%s", strerror(-rc));
    }
    iom_result_free(r);
    iom_job_free(&j);
}

int iom_cmd_mark(int argc, char **argv)
{
    struct iom_job base;
    struct iom_run_opts ro = {0};
    struct mark_opts mo = {.profile = iom_mark_profile_find("default"),
                           .runs = 5,
                           .pause_ns = UINT64_C(5000000000),
                           .prepare_ns = UINT64_C(5000000000)};
    iom_job_defaults(&base);
    base.runtime_ns = UINT64_C(5000000000);
    base.size_bytes = UINT64_C(1) << 30; /* CrystalDiskMark's "1GiB" = 1024 MiB */
    int status = parse(argc, argv, &base, &ro, &mo);
    bool size_given = false;
    for (int i = 1; i < argc; i++)
        size_given |= strncmp(argv[i], "--size", 6) == 0 && (argv[i][6] == '=' || !argv[i][6]);
    struct iom_mark_cell *cells = NULL;
    struct iom_target target;
    char *owned = NULL;
    bool remove_after = false, prepared = false;
    char engine[16] = "";
    char errbuf[512] = "";
    int sig = 0;
    if (status)
        goto out;
    if (ro.help) {
        usage(stdout);
        goto out;
    }
    /* the statistic: CrystalDiskMark's best of runs unless asked otherwise */
    enum iom_markstat_kind kind = IOM_MARKSTAT_BEST;
    const char *convention = "crystaldiskmark";
    if (mo.statistic && !strcmp(mo.statistic, "kdiskmark")) {
        kind = mo.profile->kdiskmark_best ? IOM_MARKSTAT_BEST : IOM_MARKSTAT_MEAN;
        convention = "kdiskmark";
        if (!mo.prepare_given) /* KDiskMark has no preparation run */
            mo.prepare_ns = 0;
    } else if (mo.statistic) {
        kind = strcmp(mo.statistic, "mean") ? IOM_MARKSTAT_BEST : IOM_MARKSTAT_MEAN;
        convention = "option";
    }
    status = resolve_target(&base, &remove_after, &owned);
    if (status)
        goto out;
    /* a test file iomark creates is removed at the end (also on Ctrl-C)
     * unless --keep; an existing file or device is never removed */
    remove_after = !base.keep;
    /* a block device is tested whole unless --size says otherwise */
    struct stat tst;
    if (!size_given && stat(base.targets[0], &tst) == 0 && S_ISBLK(tst.st_mode))
        base.size_bytes = 0;

    /* check every test's job first: nothing is created unless all pass */
    const struct iom_mark_profile *p = mo.profile;
    /* planned seconds for the progress line: pauses between tests, each
     * test's preparation run and counted runs */
    double plan_s = (double)(p->nr_tests * 2 - 1) * (double)mo.pause_ns / 1e9;
    for (unsigned i = 0; i < p->nr_tests && !status; i++) {
        for (int w = 0; w < 2 && !status; w++) {
            struct iom_job j;
            if (iom_mark_job(&base, &p->tests[i], w, &j)) {
                status = IOM_EXIT_FAIL;
                break;
            }
            double js = iom_cli_job_seconds(&j);
            if (mo.prepare_ns && js >= 0)
                js = js * (double)mo.runs +
                     (double)(j.ramp_ns + mo.prepare_ns + j.cooldown_ns) / 1e9;
            else if (js >= 0)
                js *= (double)mo.runs;
            plan_s = plan_s < 0 || js < 0 ? -1 : plan_s + js;
            status = iom_cli_check("mark", &j, &ro, &target);
            target.path = base.targets[0]; /* j's copy is freed below */
            iom_job_free(&j);
        }
    }
    if (status)
        goto out;
    unsigned per_cell = (unsigned)mo.runs + (mo.prepare_ns ? 1 : 0);
    cells = calloc(p->nr_tests * 2, sizeof(*cells));
    for (unsigned i = 0; cells && i < p->nr_tests * 2; i++) {
        cells[i].runs = calloc(per_cell, sizeof(*cells[i].runs));
        if (!cells[i].runs) {
            status = IOM_EXIT_FAIL;
            goto out;
        }
    }
    if (!cells) {
        status = IOM_EXIT_FAIL;
        goto out;
    }
    iom_cli_signals_install();
    iom_cli_progress_plan("mark", &ro, p->nr_tests * 2 * per_cell, plan_s, true);
    {
        /* create the file once with a job that writes, then reopen per run */
        struct iom_job j;
        iom_mark_job(&base, &p->tests[0], true, &j);
        status = iom_cli_prepare("mark", &j, &ro, &target);
        target.path = base.targets[0];
        iom_job_free(&j);
        if (status)
            goto out;
        prepared = true;
        iom_target_close(&target, false);
    }
    /* CrystalDiskMark's order: every test's reads, then every test's writes */
    for (int w = 0; w < 2 && !sig && !errbuf[0]; w++) {
        for (unsigned i = 0; i < p->nr_tests && !sig && !errbuf[0]; i++) {
            struct iom_mark_cell *c = &cells[i * 2 + w];
            if ((w || i) && mo.pause_ns) {
                iom_cli_pause(mo.pause_ns); /* shown on the progress line; ends on a signal */
                if ((sig = iom_cli_stop))
                    break;
            }
            char label[64];
            if (mo.prepare_ns) {
                snprintf(label, sizeof(label), "%s %s preparing", p->tests[i].name,
                         w ? "write" : "read");
                one_run(&base, &ro, &p->tests[i], w, mo.prepare_ns, false, label, &target, c,
                        engine, sizeof(engine), &sig, errbuf, sizeof(errbuf));
            }
            for (unsigned k = 0; k < mo.runs && !sig && !errbuf[0]; k++) {
                snprintf(label, sizeof(label), "%s %s run %u/%llu", p->tests[i].name,
                         w ? "write" : "read", k + 1, (unsigned long long)mo.runs);
                one_run(&base, &ro, &p->tests[i], w, base.runtime_ns, true, label, &target, c,
                        engine, sizeof(engine), &sig, errbuf, sizeof(errbuf));
            }
            iom_markstat_compute(c->runs, c->nr_runs, kind, &c->stat); /* -ENODATA: shown as "-" */
        }
    }
    if (errbuf[0])
        iom_cli_error("mark", "%s", errbuf);
    struct iom_mark_doc doc = {.profile = p,
                               .kind = kind,
                               .convention = convention,
                               .runs = (unsigned)mo.runs,
                               .runtime_s = (double)base.runtime_ns / 1e9,
                               .prepare_s = (double)mo.prepare_ns / 1e9,
                               .pause_s = (double)mo.pause_ns / 1e9,
                               .direct = base.direct,
                               .target = &target,
                               .engine = engine,
                               .sig = sig,
                               .error = errbuf[0] ? errbuf : NULL,
                               .cells = cells};
    if (ro.format == IOM_OUT_JSON) {
        cJSON *d = iom_mark_json(&doc);
        status = d ? iom_cli_emit_json("mark", d, &ro) : IOM_EXIT_FAIL;
        cJSON_Delete(d);
    } else {
        FILE *f = ro.output_path ? fopen(ro.output_path, "w") : stdout;
        if (!f) {
            iom_cli_error("mark", "cannot write %s: %s", ro.output_path, strerror(errno));
            status = IOM_EXIT_FAIL;
        } else {
            iom_mark_print(f, &doc);
            if (f != stdout)
                fclose(f);
        }
    }
    if (!status)
        status = sig ? iom_cli_signal_exit(sig) : errbuf[0] ? IOM_EXIT_FAIL : IOM_EXIT_OK;
out:
    if (prepared && remove_after)
        iom_target_close(&target, true);
    if (cells)
        for (unsigned i = 0; i < mo.profile->nr_tests * 2; i++)
            free(cells[i].runs);
    free(cells);
    free(owned);
    iom_job_free(&base);
    return status;
}
