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
#include "workload/options.h"
#include "workload/presets.h"
#include "workload/units.h"
#ifdef IOMARK_HAVE_MPI
#include "mpi/mpi.h"
#endif

#define DEFAULT_FILE "iomark-test.dat"
#define DEFAULT_FILE_MPI "iomark-test.%r.dat" /* under MPI: one file per rank */

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

/* Split mark's own options from the native ones. Returns 0 or the exit status. */
static int parse(int argc, char **argv, struct iom_job *job, struct iom_run_opts *ro,
                 struct iom_mark_opts *mo)
{
    char err[512];
    int rc = iom_mark_parse(argc, argv, job, ro, mo, err, sizeof(err));
    if (rc == -ENOMEM)
        return IOM_EXIT_FAIL;
    if (rc) {
        iom_cli_error("mark", "%s", err);
        return IOM_EXIT_USAGE;
    }
    return 0;
}

static void figures_of(const struct iom_io_stats *st, uint64_t measured_ns, bool interrupted,
                       bool counted, struct iom_markstat_run *f)
{
    struct iom_summary m;
    iom_summarize(st, measured_ns, &m);
    f->mb_per_s = m.mb_per_s;
    f->mib_per_s = m.mib_per_s;
    f->iops = m.iops;
    f->lat_mean_us = m.lat_mean_us;
    f->lat_p99_us = m.lat_pct_us[5];
    f->measured_s = (double)measured_ns / 1e9;
    f->ios = m.ios;
    f->prepare = !counted;
    f->interrupted = interrupted;
    f->counted = counted && !f->interrupted; /* a partial run is in no statistic */
}

static void figures(const struct iom_result *r, bool write, bool counted,
                    struct iom_markstat_run *f)
{
    figures_of(&r->total[write], r->measured_ns, r->interrupted_signal != 0, counted, f);
}

/* Under an MPI launcher (docs/mpi.md): each run is one shared window of
 * every rank (iom_cli_mpi_step); rank 0 keeps the all-hosts figures in the
 * document's cells and a host's and a rank's own in groups. */
struct mark_mpi {
    bool on, patterned;
    unsigned nr_cells, per_cell;      /* cells per group, runs per cell */
    unsigned nr_groups;               /* rank 0, after the first run: hosts, then ranks */
    struct iom_mark_group *groups;
    struct iom_mark_cell *cells;      /* nr_groups * nr_cells */
    char (*hosts)[64];                /* the groups' host names */
};

static void mark_mpi_free(struct mark_mpi *mm)
{
    for (unsigned i = 0; mm->cells && i < mm->nr_groups * mm->nr_cells; i++)
        free(mm->cells[i].runs);
    free(mm->cells);
    free(mm->groups);
    free(mm->hosts);
}

#ifdef IOMARK_HAVE_MPI
/* The groups of the ranks in info: each host once (first appearance), then
 * every rank. Returns 0 or -ENOMEM. */
static int groups_make(struct mark_mpi *mm, const struct iom_mpi_info *in)
{
    unsigned n = 0, max = (unsigned)in->nr_ranks * 2;
    mm->groups = calloc(max, sizeof(*mm->groups));
    mm->hosts = calloc(max, sizeof(*mm->hosts));
    mm->cells = calloc((size_t)max * mm->nr_cells, sizeof(*mm->cells));
    if (!mm->groups || !mm->hosts || !mm->cells)
        return -ENOMEM;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < in->nr_ranks; i++) {
            const struct iom_mpi_rank *k = &in->ranks[i];
            unsigned j = 0;
            while (pass == 0 && j < n && strcmp(mm->hosts[j], k->host))
                j++;
            if (pass == 0 && j < n) {
                mm->groups[j].nr_ranks++;
                continue;
            }
            snprintf(mm->hosts[n], sizeof(mm->hosts[n]), "%s", k->host);
            mm->groups[n] = (struct iom_mark_group){.host = mm->hosts[n], .rank = pass ? k->rank : -1,
                                                    .nr_ranks = 1,
                                                    .cells = &mm->cells[n * mm->nr_cells]};
            n++;
        }
    mm->nr_groups = n;
    for (unsigned i = 0; i < n * mm->nr_cells; i++)
        if (!(mm->cells[i].runs = calloc(mm->per_cell, sizeof(*mm->cells[i].runs))))
            return -ENOMEM;
    return 0;
}

/* Rank 0: one run's figures per host (its ranks' histograms merged, over
 * the slowest rank's time, as the all-hosts figure) and per rank (its own
 * time). */
static void groups_add(struct mark_mpi *mm, const struct iom_mpi_info *in, unsigned cell, bool w,
                       bool counted, bool interrupted)
{
    if (!mm->groups && groups_make(mm, in))
        return;
    for (unsigned g = 0; g < mm->nr_groups; g++) {
        const struct iom_mark_group *gr = &mm->groups[g];
        struct iom_io_stats st;
        iom_io_stats_init(&st);
        uint64_t ns = in->slowest_ns;
        for (int i = 0; i < in->nr_ranks; i++) {
            const struct iom_mpi_rank *k = &in->ranks[i];
            if (gr->rank >= 0 ? k->rank != gr->rank : strcmp(k->host, gr->host) != 0)
                continue;
            iom_io_stats_merge(&st, &k->total[w]);
            if (gr->rank >= 0)
                ns = k->measured_ns;
        }
        struct iom_mark_cell *c = &mm->cells[g * mm->nr_cells + cell];
        if (c->nr_runs < mm->per_cell)
            figures_of(&st, ns, interrupted, counted, &c->runs[c->nr_runs++]);
    }
}

/* One run on every rank in one shared window: the target is opened on every
 * rank or on none (the first failing rank named in errbuf, on all ranks);
 * the status and the signal are the same on every rank afterwards. */
static void one_run_mpi(struct iom_job *j, const struct iom_run_opts *ro, bool w, bool counted,
                        const char *label, struct iom_target *target, struct iom_mark_cell *c,
                        struct mark_mpi *mm, unsigned cell, char *engine, size_t englen, int *sig,
                        char *errbuf, size_t errlen)
{
    char why[400] = "", host[64], reason[400];
    int bad = 0, orc = iom_target_open(j, target, why, sizeof(why)) ? -EIO : 0;
    if (iom_mpi_agree(orc, why, &bad, host, reason, sizeof(reason))) {
        snprintf(errbuf, errlen, "rank %d on %s: %s", bad, host, reason);
        if (!orc)
            iom_target_close(target, false);
        return;
    }
    struct iom_run_hooks hooks = iom_cli_hooks(ro, j, label);
    struct iom_result *r = NULL;
    struct iom_mpi_info *in = NULL;
    int rc = iom_cli_mpi_step("mark", j, target, 1, &hooks, mm->patterned, &r, &in, sig);
    iom_target_close(target, false);
    if (r) {
        snprintf(engine, englen, "%s", r->engine);
        if (*sig && !r->interrupted_signal)
            r->interrupted_signal = *sig;
    }
    if (rc) /* on every rank, so every rank leaves the loop */
        snprintf(errbuf, errlen, "%s", r && r->error[0] ? r->error : strerror(-rc));
    else if (r && r->measured_ns) {
        figures(r, w, counted, &c->runs[c->nr_runs++]);
        if (in)
            groups_add(mm, in, cell, w, counted, r->interrupted_signal != 0);
    }
    iom_result_free(r);
    iom_mpi_info_free(in);
}
#endif

/* Resolve the target: none -> ./iomark-test.dat, a folder -> FOLDER/iomark-test.dat
 * (under MPI iomark-test.%r.dat: one file per rank). */
static int resolve_target(struct iom_job *job, bool mpi, bool *remove_after, char **owned)
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
        size_t n = strlen(dir) + sizeof(DEFAULT_FILE_MPI) + 2;
        *owned = malloc(n);
        if (!*owned)
            return IOM_EXIT_FAIL;
        size_t len = strlen(dir); /* "data/" -> data/iomark-test.dat, not data//... */
        snprintf(*owned, n, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/",
                 mpi ? DEFAULT_FILE_MPI : DEFAULT_FILE);
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
                    struct mark_mpi *mm, unsigned cell, char *engine, size_t englen, int *sig,
                    char *errbuf, size_t errlen)
{
    struct iom_job j;
    if (iom_mark_job(base, mt, w, &j)) {
        snprintf(errbuf, errlen, "%s", strerror(ENOMEM));
        return;
    }
    j.runtime_ns = runtime_ns;
#ifdef IOMARK_HAVE_MPI
    if (mm->on) {
        one_run_mpi(&j, ro, w, counted, label, target, c, mm, cell, engine, englen, sig, errbuf,
                    errlen);
        iom_job_free(&j);
        return;
    }
#else
    (void)mm;
    (void)cell;
#endif
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

/* What the checks need (and the planned seconds they compute). */
struct mark_ctx {
    struct iom_job *base;
    struct iom_run_opts *ro;
    const struct iom_mark_opts *mo;
    struct iom_target *target;
    bool size_given;
    double plan_s; /* out: pauses, preparation and counted runs; -1 unknown */
};

/* Check every test's job on the (expanded) target before anything is
 * created; a block device is tested whole unless --size says otherwise.
 * Returns 0 or the exit status (the reason printed). */
static int check_tests(struct mark_ctx *x)
{
    struct iom_job *base = x->base;
    const struct iom_mark_opts *mo = x->mo;
    const struct iom_mark_profile *p = mo->profile;
    struct stat tst;
    if (!x->size_given && stat(base->targets[0], &tst) == 0 && S_ISBLK(tst.st_mode))
        base->size_bytes = 0;
    int status = 0;
    x->plan_s = iom_mark_plan_s(base, mo);
    for (unsigned i = 0; i < p->nr_tests && !status; i++) {
        /* each test's write first: a refusal it meets (a signature, no write
         * permission) is the one to act on, not its read's of the same file */
        for (int w = 1; w >= 0 && !status; w--) {
            struct iom_job j;
            if (iom_mark_job(base, &p->tests[i], w, &j))
                return IOM_EXIT_FAIL;
            status = iom_cli_check("mark", &j, x->ro, x->target);
            x->target->path = base->targets[0]; /* j's copy is freed below */
            iom_job_free(&j);
        }
    }
    return status;
}

/* A signal seen by any rank ends the mark on every rank (MPI), or this
 * process's (no MPI). */
static int stop_agreed(const struct mark_mpi *mm)
{
#ifdef IOMARK_HAVE_MPI
    if (mm->on) {
        int bad = 0;
        char host[64], why[16];
        int rc = iom_mpi_agree(iom_cli_stop, "signal", &bad, host, why, sizeof(why));
        return rc > 0 ? rc : 0;
    }
#else
    (void)mm;
#endif
    return iom_cli_stop;
}

#ifdef IOMARK_HAVE_MPI
/* before_check of iom_cli_mpi_begin: the expanded target becomes the base
 * job's, then every test is checked on it. */
static int mpi_check(void *arg, struct iom_job *job)
{
    struct mark_ctx *x = arg;
    /* a %r/%h target that names a folder on some rank (checked after the
     * expansion): every rank's must be a folder, holding its own
     * iomark-test.RANK.dat; a rank whose folder is missing is named */
    struct stat st;
    const char *t0 = job->targets[0];
    bool dir = stat(t0, &st) == 0 && S_ISDIR(st.st_mode);
    int bad = 0;
    char host[64], why[16];
    bool any_dir = iom_mpi_agree(dir, "folder", &bad, host, why, sizeof(why)) != 0;
    char *t;
    if (dir) {
        size_t n = strlen(t0) + sizeof(DEFAULT_FILE_MPI) + 24;
        if (!(t = malloc(n)))
            return IOM_EXIT_FAIL;
        snprintf(t, n, "%s/iomark-test.%d.dat", t0, iom_mpi_rank());
        free(job->targets[0]);
        job->targets[0] = t;
        t = strdup(t);
    } else if (any_dir) {
        iom_cli_error("mark", "target %s: folder does not exist (rank %d's target is a folder)",
                      t0, bad);
        return IOM_EXIT_USAGE;
    } else {
        t = strdup(t0);
    }
    if (!t)
        return IOM_EXIT_FAIL;
    free(x->base->targets[0]);
    x->base->targets[0] = t;
    int status = check_tests(x);
    job->size_bytes = x->base->size_bytes;
    return status;
}

/* Under MPI: agreement on the version and the whole mark (profile, runs,
 * preparation, pause, statistic), %r/%h/%n, every test checked on every
 * rank, the file created (or the first failing rank named by rank 0), as
 * iom_cli_mpi_begin. Returns 0 (MPI initialised) or an exit status. */
static int mark_mpi_begin(struct mark_ctx *x, struct mark_mpi *mm, enum iom_markstat_kind kind)
{
    const struct iom_mark_opts *mo = x->mo;
    const struct iom_mark_profile *p = mo->profile;
    char workload[200];
    snprintf(workload, sizeof(workload), "mark profile=%s runs=%llu prepare=%llu pause=%llu %s",
             p->name, (unsigned long long)mo->runs, (unsigned long long)mo->prepare_ns,
             (unsigned long long)mo->pause_ns, iom_markstat_kind_name(kind));
    struct iom_job j;
    if (iom_mark_job(x->base, &p->tests[0], true, &j)) /* it writes: it creates the file */
        return IOM_EXIT_FAIL;
    struct iom_cli_mpi_ops ops = {.before_check = mpi_check, .arg = x, .workload = workload};
    unsigned per_cell = (unsigned)mo->runs + (mo->prepare_ns ? 1 : 0);
    int status = iom_cli_mpi_begin("mark", &j, x->ro, x->target, &ops, p->nr_tests * 2 * per_cell,
                                   &mm->patterned);
    x->target->path = x->base->targets[0];
    iom_job_free(&j);
    if (status)
        return status;
    iom_target_close(x->target, false); /* reopened per run */
    if (iom_mpi_rank())
        x->ro->quiet = true; /* one progress line: rank 0's */
    else
        iom_cli_progress_plan("mark", x->ro, p->nr_tests * 2 * per_cell, x->plan_s, true);
    return 0;
}
#endif

/* The end of a mark: the test file it created removed unless --keep; a kept
 * one, or a file of the user's it extended to --size, named on stderr as run
 * names them (iom_cli_close_noted); the default removal goes without a line. */
static void close_target(struct iom_target *target, bool remove_after)
{
    iom_cli_close_noted("mark", target, 1, !remove_after, IOM_NOTE_KEPT_GROWN);
}

int iom_cmd_mark(int argc, char **argv)
{
    struct iom_job base;
    struct iom_run_opts ro = {0};
    struct iom_mark_opts mo;
    iom_mark_defaults(&mo, &base);
    int status = parse(argc, argv, &base, &ro, &mo);
    bool size_given = false;
    for (int i = 1; i < argc; i++)
        size_given |= strncmp(argv[i], "--size", 6) == 0 && (argv[i][6] == '=' || !argv[i][6]);
    struct iom_mark_cell *cells = NULL;
    struct mark_mpi mm = {0}; /* under an MPI launcher */
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
        convention = "kdiskmark"; /* and no preparation run unless --prepare (iom_mark_parse) */
    } else if (mo.statistic) {
        kind = strcmp(mo.statistic, "mean") ? IOM_MARKSTAT_BEST : IOM_MARKSTAT_MEAN;
        convention = "option";
    }
#ifdef IOMARK_HAVE_MPI
    mm.on = iom_mpi_launched();
#endif
    status = resolve_target(&base, mm.on, &remove_after, &owned);
    if (status)
        goto out;
    /* a test file iomark creates is removed at the end (also on Ctrl-C)
     * unless --keep; an existing file or device is never removed */
    remove_after = !base.keep;
    const struct iom_mark_profile *p = mo.profile;
    struct mark_ctx x = {&base, &ro, &mo, &target, size_given, 0};
    unsigned per_cell = (unsigned)mo.runs + (mo.prepare_ns ? 1 : 0);
    mm.nr_cells = p->nr_tests * 2;
    mm.per_cell = per_cell;
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
#ifdef IOMARK_HAVE_MPI
    if (mm.on) {
        status = mark_mpi_begin(&x, &mm, kind);
        if (status)
            goto out_mpi;
        prepared = true;
    }
#endif
    if (!mm.on) {
        status = check_tests(&x); /* nothing is created unless every test passes */
        if (status)
            goto out;
        unsigned maxq = 1;
        for (unsigned i = 0; i < p->nr_tests; i++)
            maxq = p->tests[i].iodepth > maxq ? p->tests[i].iodepth : maxq;
        char given[96];
        snprintf(given, sizeof(given), "tests up to Q%u (profile %s)", maxq, p->name);
        iom_cli_depth_note("mark", &ro, base.ioengine, given, maxq);
        iom_cli_signals_install();
        iom_cli_progress_plan("mark", &ro, p->nr_tests * 2 * per_cell, x.plan_s, true);
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
            unsigned ci = i * 2 + (unsigned)w;
            if ((w || i) && mo.pause_ns) {
                iom_cli_pause(mo.pause_ns); /* shown on the progress line; ends on a signal */
                if ((sig = stop_agreed(&mm)))
                    break;
            }
            char label[64];
            if (mo.prepare_ns) {
                snprintf(label, sizeof(label), "%s %s preparation run", p->tests[i].name,
                         w ? "write" : "read");
                one_run(&base, &ro, &p->tests[i], w, mo.prepare_ns, false, label, &target, c,
                        &mm, ci, engine, sizeof(engine), &sig, errbuf, sizeof(errbuf));
            }
            for (unsigned k = 0; k < mo.runs && !sig && !errbuf[0]; k++) {
                snprintf(label, sizeof(label), "%s %s run %u/%llu", p->tests[i].name,
                         w ? "write" : "read", k + 1, (unsigned long long)mo.runs);
                one_run(&base, &ro, &p->tests[i], w, base.runtime_ns, true, label, &target, c,
                        &mm, ci, engine, sizeof(engine), &sig, errbuf, sizeof(errbuf));
            }
            iom_markstat_compute(c->runs, c->nr_runs, kind, &c->stat); /* -ENODATA: shown as "-" */
            for (unsigned g = 0; g < mm.nr_groups; g++) {
                struct iom_mark_cell *gc = &mm.cells[g * mm.nr_cells + ci];
                iom_markstat_compute(gc->runs, gc->nr_runs, kind, &gc->stat);
            }
        }
    }
#ifdef IOMARK_HAVE_MPI
    if (mm.on && iom_mpi_rank()) { /* rank 0 writes the document */
        status = sig ? iom_cli_signal_exit(sig) : errbuf[0] ? IOM_EXIT_FAIL : IOM_EXIT_OK;
        goto out_mpi;
    }
#endif
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
                               .cells = cells,
                               .own_targets = mm.patterned,
                               .nr_groups = mm.nr_groups,
                               .groups = mm.groups};
#ifdef IOMARK_HAVE_MPI
    if (mm.on)
        doc.nr_ranks = iom_mpi_size();
#endif
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
            status = iom_cli_fclose("mark", f, ro.output_path);
        }
    }
    if (!status)
        status = sig ? iom_cli_signal_exit(sig) : errbuf[0] ? IOM_EXIT_FAIL : IOM_EXIT_OK;
#ifdef IOMARK_HAVE_MPI
out_mpi:
    if (mm.on) { /* every rank removes the file it created (or names it), then MPI ends */
        if (prepared)
            close_target(&target, remove_after);
        prepared = false;
        iom_mpi_finalize();
    }
#endif
out:
    if (prepared)
        close_target(&target, remove_after);
    mark_mpi_free(&mm);
    if (cells)
        for (unsigned i = 0; i < mo.profile->nr_tests * 2; i++)
            free(cells[i].runs);
    free(cells);
    free(owned);
    iom_job_free(&base);
    return status;
}
