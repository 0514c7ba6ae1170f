/* cmd_mark.c - `iomark mark [options] [TARGET]`: CrystalDiskMark-style
 * presets. Each test runs read then write, `runs` times for `runtime`
 * each with `pause` between runs; the mean (or the best run for the
 * peak/realworld profiles) is reported in MB/s (10^6), IOPS and mean
 * latency in us. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "workload/args.h"
#include "workload/presets.h"
#include "workload/units.h"

#define DEFAULT_FILE "iomark-test.dat"

/* native options that make sense for a preset; the pattern options do not */
static const char *const allowed[] = {"size",   "runtime",      "ioengine", "direct",
                                      "buffered", "keep",       "force",    "quiet",
                                      "output-format", "output", "randseed", "zero_buffers",
                                      "help",   "sync",         "ramp_time", NULL};

struct mark_opts {
    const struct iom_mark_profile *profile;
    uint64_t runs;
    uint64_t pause_ns;
};

struct run_fig {
    double mb_per_s, mib_per_s, iops, lat_mean_us, lat_p99_us, measured_s;
    uint64_t ios;
};

struct cell { /* one test x direction */
    unsigned nr_runs;
    struct run_fig *runs;
    struct run_fig agg;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: iomark mark [options] [TARGET]\n"
               "CrystalDiskMark-style tests. TARGET is a file, a folder (the test file\n"
               "%s is made there) or a block device; default ./%s, created,\n"
               "used and removed afterwards (kept with --keep).\n\n"
               "  --profile=NAME             default, peak, realworld, nvme, cdm7\n"
               "  --runs=N                   runs per test and direction (default 5)\n"
               "  --runtime=TIME             length of each run (default 5s)\n"
               "  --pause=TIME               pause between runs (default 5s)\n"
               "  --size=SIZE                test file size (default 1G)\n"
               "  --ioengine, --direct, --buffered, --sync, --ramp_time, --randseed,\n"
               "  --zero_buffers, --keep, --force, --quiet, --output-format, --output:\n"
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
        static const char *const own_names[] = {"profile", "runs", "pause", NULL};
        for (const char *const *o = own_names; *o; o++)
            if (iom_args_name_eq(name, (size_t)-1, *o))
                snprintf(name, sizeof(name), "%s", *o); /* the canonical spelling */
        bool own = !strcmp(name, "profile") || !strcmp(name, "runs") || !strcmp(name, "pause");
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
            } else if (!v || iom_parse_duration(v, &mo->pause_ns, &why)) {
                iom_cli_error("mark", "--pause=%s: %s", v ? v : "", why);
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

static void figures(const struct iom_result *r, bool write, struct run_fig *f)
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
}

static void aggregate(struct cell *c, bool best)
{
    memset(&c->agg, 0, sizeof(c->agg));
    if (!c->nr_runs)
        return;
    if (best) {
        for (unsigned i = 0; i < c->nr_runs; i++)
            if (c->runs[i].mb_per_s > c->agg.mb_per_s)
                c->agg = c->runs[i];
        return;
    }
    for (unsigned i = 0; i < c->nr_runs; i++) {
        c->agg.mb_per_s += c->runs[i].mb_per_s / c->nr_runs;
        c->agg.mib_per_s += c->runs[i].mib_per_s / c->nr_runs;
        c->agg.iops += c->runs[i].iops / c->nr_runs;
        c->agg.lat_mean_us += c->runs[i].lat_mean_us / c->nr_runs;
        c->agg.lat_p99_us += c->runs[i].lat_p99_us / c->nr_runs;
        c->agg.measured_s += c->runs[i].measured_s;
        c->agg.ios += c->runs[i].ios;
    }
}

static void print_table(FILE *f, const struct mark_opts *mo, const struct iom_job *base,
                        const struct iom_target *t, struct cell *cells, const char *engine,
                        int sig)
{
    const struct iom_mark_profile *p = mo->profile;
    char sz[32];
    iom_fmt_bytes(t->region_len, sz, sizeof(sz));
    fprintf(f, "iomark %s mark: %s (%s), %s, %llu run%s x %.3g s, %s of runs\n", IOMARK_VERSION,
            p->name, p->title, base->direct ? "direct I/O" : "BUFFERED I/O (page cache)",
            (unsigned long long)mo->runs, mo->runs == 1 ? "" : "s",
            (double)base->runtime_ns / 1e9, p->best_of_runs ? "best" : "mean");
    fprintf(f, "target %s (%s, tested %s%s%s), engine %s; MB/s = 10^6 bytes/s\n", t->path,
            t->is_blockdev ? "block device" : "file", sz, t->devname[0] ? ", on " : "",
            t->devname, engine);
    if (sig)
        fprintf(f, "INTERRUPTED by %s: partial results\n", iom_signal_name(sig));
    fprintf(f, "\n%-14s %11s %11s %13s   %11s %11s %13s\n", "test", "read MB/s", "read IOPS",
            "read mean us", "write MB/s", "write IOPS", "write mean us");
    for (unsigned i = 0; i < p->nr_tests; i++) {
        fprintf(f, "%-14s", p->tests[i].name);
        for (int w = 0; w < 2; w++) {
            const struct cell *c = &cells[i * 2 + w];
            if (c->nr_runs)
                fprintf(f, " %11.2f %11.1f %13.1f%s", c->agg.mb_per_s, c->agg.iops,
                        c->agg.lat_mean_us, w ? "" : "  ");
            else
                fprintf(f, " %11s %11s %13s%s", "-", "-", "-", w ? "" : "  ");
        }
        fputc('\n', f);
    }
}

static cJSON *fig_json(const struct run_fig *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "mb_per_s", r->mb_per_s);
    cJSON_AddNumberToObject(o, "mib_per_s", r->mib_per_s);
    cJSON_AddNumberToObject(o, "iops", r->iops);
    cJSON_AddNumberToObject(o, "lat_mean_us", r->lat_mean_us);
    cJSON_AddNumberToObject(o, "lat_p99_us", r->lat_p99_us);
    cJSON_AddNumberToObject(o, "measured_s", r->measured_s);
    cJSON_AddNumberToObject(o, "ios", (double)r->ios);
    return o;
}

static cJSON *mark_json(const struct mark_opts *mo, const struct iom_job *base,
                        const struct iom_target *t, struct cell *cells, const char *engine,
                        int sig, const char *error)
{
    cJSON *d = iom_json_doc_new("mark");
    char ts[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(d, "start_time", ts);
    cJSON_AddStringToObject(d, "status", error ? "error" : sig ? "interrupted" : "ok");
    if (sig)
        cJSON_AddStringToObject(d, "interrupted_by", iom_signal_name(sig));
    if (error)
        cJSON_AddStringToObject(d, "error", error);
    struct utsname un;
    cJSON *h = cJSON_AddObjectToObject(d, "host");
    if (uname(&un) == 0) {
        char k[160];
        snprintf(k, sizeof(k), "%s %s", un.sysname, un.release);
        cJSON_AddStringToObject(h, "hostname", un.nodename);
        cJSON_AddStringToObject(h, "kernel", k);
    }
    cJSON_AddNumberToObject(h, "nr_cpus", (double)sysconf(_SC_NPROCESSORS_ONLN));
    cJSON_AddStringToObject(d, "profile", mo->profile->name);
    cJSON_AddStringToObject(d, "profile_title", mo->profile->title);
    cJSON_AddStringToObject(d, "selection", mo->profile->best_of_runs ? "best" : "mean");
    cJSON_AddNumberToObject(d, "runs", (double)mo->runs);
    cJSON_AddNumberToObject(d, "runtime_s", (double)base->runtime_ns / 1e9);
    cJSON_AddNumberToObject(d, "pause_s", (double)mo->pause_ns / 1e9);
    cJSON_AddStringToObject(d, "engine", engine);
    cJSON_AddStringToObject(d, "io_mode", base->direct ? "direct" : "buffered");
    cJSON *tg = cJSON_AddObjectToObject(d, "target");
    cJSON_AddStringToObject(tg, "path", t->path);
    cJSON_AddStringToObject(tg, "device", t->devname);
    cJSON_AddStringToObject(tg, "kind", t->is_blockdev ? "block_device" : "file");
    cJSON_AddNumberToObject(tg, "size_bytes", (double)t->size_bytes);
    cJSON_AddNumberToObject(tg, "tested_bytes", (double)t->region_len);
    cJSON *tests = cJSON_AddArrayToObject(d, "tests");
    for (unsigned i = 0; i < mo->profile->nr_tests; i++) {
        const struct iom_mark_test *mt = &mo->profile->tests[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", mt->name);
        cJSON_AddStringToObject(o, "rw", mt->random ? "random" : "sequential");
        cJSON_AddNumberToObject(o, "bs_bytes", (double)mt->bs_bytes);
        cJSON_AddNumberToObject(o, "iodepth", mt->iodepth);
        cJSON_AddNumberToObject(o, "threads", mt->threads);
        for (int w = 0; w < 2; w++) {
            const struct cell *c = &cells[i * 2 + w];
            if (!c->nr_runs) { /* not run (interrupted or failed before it) */
                cJSON_AddNullToObject(o, w ? "write" : "read");
                continue;
            }
            cJSON *dir = fig_json(&c->agg);
            cJSON *runs = cJSON_AddArrayToObject(dir, "each_run");
            for (unsigned k = 0; k < c->nr_runs; k++)
                cJSON_AddItemToArray(runs, fig_json(&c->runs[k]));
            cJSON_AddItemToObject(o, w ? "write" : "read", dir);
        }
        cJSON_AddItemToArray(tests, o);
    }
    return d;
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

int iom_cmd_mark(int argc, char **argv)
{
    struct iom_job base;
    struct iom_run_opts ro = {0};
    struct mark_opts mo = {.profile = iom_mark_profile_find("default"),
                           .runs = 5,
                           .pause_ns = UINT64_C(5000000000)};
    iom_job_defaults(&base);
    base.runtime_ns = UINT64_C(5000000000);
    base.size_bytes = UINT64_C(1) << 30;
    int status = parse(argc, argv, &base, &ro, &mo);
    bool size_given = false;
    for (int i = 1; i < argc; i++)
        size_given |= strncmp(argv[i], "--size", 6) == 0 && (argv[i][6] == '=' || !argv[i][6]);
    struct cell *cells = NULL;
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
    for (unsigned i = 0; i < p->nr_tests && !status; i++) {
        for (int w = 0; w < 2 && !status; w++) {
            struct iom_job j;
            if (iom_mark_job(&base, &p->tests[i], w, &j)) {
                status = IOM_EXIT_FAIL;
                break;
            }
            status = iom_cli_check("mark", &j, &ro, &target);
            target.path = base.targets[0]; /* j's copy is freed below */
            iom_job_free(&j);
        }
    }
    if (status)
        goto out;
    cells = calloc(p->nr_tests * 2, sizeof(*cells));
    for (unsigned i = 0; cells && i < p->nr_tests * 2; i++) {
        cells[i].runs = calloc(mo.runs, sizeof(*cells[i].runs));
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
    for (unsigned i = 0; i < p->nr_tests && !sig && !errbuf[0]; i++) {
        for (int w = 0; w < 2 && !sig && !errbuf[0]; w++) {
            struct cell *c = &cells[i * 2 + w];
            for (unsigned k = 0; k < mo.runs && !sig && !errbuf[0]; k++) {
                if ((i || w || k) && mo.pause_ns) {
                    struct timespec ts = {.tv_sec = (time_t)(mo.pause_ns / 1000000000u),
                                          .tv_nsec = (long)(mo.pause_ns % 1000000000u)};
                    nanosleep(&ts, NULL);
                    if ((sig = iom_cli_stop))
                        break;
                }
                struct iom_job j;
                char label[64];
                iom_mark_job(&base, &p->tests[i], w, &j);
                snprintf(label, sizeof(label), "%s %s run %u/%llu", p->tests[i].name,
                         w ? "write" : "read", k + 1, (unsigned long long)mo.runs);
                if (iom_target_open(&j, &target, errbuf, sizeof(errbuf))) {
                    iom_job_free(&j);
                    break;
                }
                struct iom_run_hooks hooks = iom_cli_hooks(&ro, label);
                struct iom_result *r = NULL;
                int rc = iom_run(&j, &target, 1, &hooks, &r);
                iom_cli_progress_clear();
                iom_target_close(&target, false);
                if (r) {
                    snprintf(engine, sizeof(engine), "%s", r->engine);
                    if (rc && r->error[0])
                        snprintf(errbuf, sizeof(errbuf), "%s", r->error);
                    sig = r->interrupted_signal;
                    if (!rc && r->measured_ns)
                        figures(r, w, &c->runs[c->nr_runs++]);
                } else if (rc) {
                    snprintf(errbuf, sizeof(errbuf), "%s", strerror(-rc));
                }
                iom_result_free(r);
                iom_job_free(&j);
            }
            aggregate(c, p->best_of_runs);
        }
    }
    if (errbuf[0])
        iom_cli_error("mark", "%s", errbuf);
    if (ro.format == IOM_OUT_JSON) {
        cJSON *d = mark_json(&mo, &base, &target, cells, engine, sig, errbuf[0] ? errbuf : NULL);
        status = d ? iom_cli_emit_json("mark", d, &ro) : IOM_EXIT_FAIL;
        cJSON_Delete(d);
    } else {
        FILE *f = ro.output_path ? fopen(ro.output_path, "w") : stdout;
        if (!f) {
            iom_cli_error("mark", "cannot write %s: %s", ro.output_path, strerror(errno));
            status = IOM_EXIT_FAIL;
        } else {
            print_table(f, &mo, &base, &target, cells, engine, sig);
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
