/*
 * cmd_sweep.c - `iomark sweep --threads 1,8,16 --iodepth 1,4,32 [run options] TARGET...`:
 * one workload over a grid of thread counts and queue depths, on one or
 * more targets measured in turns (for each point, every target once, so
 * slow drift - thermal, cache, a neighbour VM - hits all targets alike),
 * then the scaling table and the knee per target (stats/compare.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "import/replay.h"
#include "workload/args.h"
#include "workload/options.h"
#include "stats/compare.h"
#ifdef IOMARK_HAVE_MPI
#include "mpi/mpi.h"
#endif

#define MAX_LIST 32
#define CMD "sweep"
_Static_assert(MAX_LIST == IOM_REPLAY_MAX_LIST, "a replayed grid fits the lists");

struct point {
    uint32_t threads, iodepth;
    uint32_t target;
    double iops, mb_per_s, mib_per_s, lat_mean_us, lat_p99_us, cpu_pct;
    int knee;                    /* first point of the flat part */
    int knee_base;               /* the best point before it */
    struct iom_result *r;
    struct iom_mpi_info *mpi;    /* under mpirun: the point's ranks and hosts (docs/mpi.md) */
};

static void usage(FILE *f)
{
    fprintf(f, "usage: iomark sweep --threads LIST --iodepth LIST [run options] TARGET...\n"
               "       iomark sweep --replay SWEEP.json [options] [TARGET...]\n"
               "Run one workload (the options of iomark run) once per combination of\n"
               "threads (numjobs) and queue depth (iodepth), on every TARGET in turn, and\n"
               "report the scaling table and the knee: the first point (in order of\n"
               "outstanding I/O = threads x iodepth) from which no more concurrency adds\n"
               "--knee percent IOPS over the best point before it, while mean latency grows.\n\n"
               "  --threads=LIST       thread counts per target, e.g. 1,8,16 (default: --numjobs)\n"
               "  --iodepth=LIST       queue depths per thread, e.g. 1,4,32 (default 1)\n"
               "  --knee=PCT           IOPS gain below which a step counts as flat (default 5)\n"
               "  --replay=SWEEP.json  rerun the sweep of an iomark sweep document: its grid,\n"
               "                       knee, workload and targets (options given override them)\n"
               "  --output-format=normal|json, --output=FILE, and every option of iomark run\n\n"
               "Exit status: 0 ok, 1 a run failed, 2 bad input (nothing touched),\n"
               "130/143 interrupted (the points measured so far are reported).\n");
}

/* Why item k (from 1) of a list is refused, in why; "" when it is a number
 * from 1 to 4096 (*x then holds it). Digits only: no sign, space or hex. */
static void list_item(const char *t, size_t n, unsigned k, unsigned long *x, char *why, size_t len)
{
    size_t d = 0;
    while (d < n && t[d] >= '0' && t[d] <= '9')
        d++;
    *x = 0;
    for (size_t i = 0; i < d && *x <= 4096; i++)
        *x = *x * 10 + (unsigned long)(t[i] - '0');
    why[0] = '\0';
    if (n == 0)
        snprintf(why, len, "item %u is empty", k);
    else if (t[0] == '-' && n > 1 && strspn(t + 1, "0123456789") >= n - 1)
        snprintf(why, len, "item %u \"%.*s\" is below 1", k, (int)(n > 40 ? 40 : n), t);
    else if (d < n)
        snprintf(why, len, "item %u \"%.*s\" is not a whole number", k, (int)(n > 40 ? 40 : n), t);
    else if (*x < 1)
        snprintf(why, len, "item %u \"%.*s\" is below 1", k, (int)n, t);
    else if (*x > 4096)
        snprintf(why, len, "item %u \"%.*s\" is above 4096", k, (int)(n > 40 ? 40 : n), t);
}

/* A --threads/--numjobs/--iodepth list: 1 to MAX_LIST whole numbers from 1 to
 * 4096, comma-separated, no empty item; out gets the distinct values in
 * ascending order. opt: the name the user typed. On a bad list one line
 * naming the first bad item, -EINVAL. */
static int parse_list(const char *opt, const char *v, uint32_t *out, unsigned *n)
{
    char why[96] = "";
    unsigned k = 0;
    *n = 0;
    for (const char *t = v;; t++) {
        size_t len = strcspn(t, ",");
        unsigned long x;
        if (++k > MAX_LIST) {
            snprintf(why, sizeof(why), "more than %d items", MAX_LIST);
            break;
        }
        list_item(t, len, k, &x, why, sizeof(why));
        if (why[0])
            break;
        int dup = 0;
        for (unsigned i = 0; i < *n; i++)
            dup |= out[i] == x;
        if (!dup)
            out[(*n)++] = (uint32_t)x;
        t += len;
        if (!*t)
            break;
    }
    if (!*v)
        snprintf(why, sizeof(why), "the list is empty");
    if (why[0]) {
        iom_cli_error(CMD, "--%s=%s: %s; allowed: a comma-separated list of 1 to %d whole "
                           "numbers from 1 to 4096, e.g. 1,4,32", opt, v, why, MAX_LIST);
        return -EINVAL;
    }
    /* ascending */
    for (unsigned i = 1; i < *n; i++)
        for (unsigned j = i; j > 0 && out[j - 1] > out[j]; j--) {
            uint32_t t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return 0;
}

static int cmp_points(const void *pa, const void *pb)
{
    const struct point *a = pa, *b = pb;
    uint64_t oa = (uint64_t)a->threads * a->iodepth, ob = (uint64_t)b->threads * b->iodepth;
    if (oa != ob)
        return oa < ob ? -1 : 1;
    return a->threads < b->threads ? -1 : a->threads > b->threads;
}

static void figures(struct point *p)
{
    const struct iom_result *r = p->r;
    struct iom_io_stats *s = malloc(sizeof(*s));
    struct iom_summary m;
    p->iops = p->mb_per_s = p->mib_per_s = p->lat_mean_us = p->lat_p99_us = p->cpu_pct = NAN;
    if (!s)
        return;
    iom_result_merge_dirs(r->total, s);
    iom_summarize(s, r->measured_ns, &m);
    free(s);
    p->iops = m.iops;
    p->mb_per_s = m.mb_per_s;
    p->mib_per_s = m.mib_per_s;
    if (m.ios) {
        p->lat_mean_us = m.lat_mean_us;
        for (int i = 0; i < IOM_NR_PCT; i++)
            if (iom_pct_list[i] == 99)
                p->lat_p99_us = m.lat_pct_us[i];
    }
    if (r->cpu.nr_cpus)
        p->cpu_pct = r->cpu.user_pct + r->cpu.system_pct;
}

/* The ranks whose I/O a point merges: 1 outside MPI (docs/mpi.md). */
static unsigned ranks_of(const struct point *p)
{
#ifdef IOMARK_HAVE_MPI
    if (p->mpi && p->mpi->nr_ranks > 0)
        return (unsigned)p->mpi->nr_ranks;
#endif
    (void)p;
    return 1;
}

/* Outstanding I/O of a point: threads x iodepth, times the ranks under MPI
 * (every rank runs the point's threads x iodepth at once). */
static unsigned long long outstanding_of(const struct point *p)
{
    return (unsigned long long)p->threads * p->iodepth * ranks_of(p);
}

static cJSON *num(double v)
{
    return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

/* The grid swept (each list ascending), for `iomark sweep --replay`. */
struct grid {
    uint32_t th[MAX_LIST], qd[MAX_LIST];
    unsigned nth, nqd;
};

/* The sweep's document; sig: the signal that interrupted it, 0 = none;
 * dropped: the point it stopped part-way (-1: none); g: the grid. */
static cJSON *sweep_json(const struct iom_job *job, struct point *pts, unsigned np, unsigned done,
                         double knee_pct, const char *status, int sig, int dropped,
                         const struct grid *g)
{
    cJSON *d = iom_json_doc_new("sweep");
    if (!d)
        return NULL;
    for (unsigned i = 0; i < np; i++)
        if (pts[i].r) { /* the sweep starts when its first point did */
            char ts[32];
            struct tm tm;
            gmtime_r(&pts[i].r->start_time, &tm);
            strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
            cJSON_AddStringToObject(d, "start_time", ts);
            break;
        }
    cJSON_AddStringToObject(d, "status", status);
    if (sig) /* as a run's document (docs/json-schema.md) */
        cJSON_AddStringToObject(d, "interrupted_by", iom_signal_name(sig));
    cJSON_AddItemToObject(d, "spec", iom_json_spec(job));
    cJSON_AddNumberToObject(d, "knee_min_gain_pct", knee_pct);
    cJSON_AddStringToObject(d, "order", "outstanding I/O (threads x iodepth, x ranks under MPI) "
                                        "ascending, then threads");
    cJSON_AddNumberToObject(d, "planned_points", np);
    cJSON *gr = cJSON_AddObjectToObject(d, "grid"); /* what sweep --replay reruns */
    cJSON *ga = cJSON_AddArrayToObject(gr, "threads");
    for (unsigned i = 0; i < g->nth; i++)
        cJSON_AddItemToArray(ga, cJSON_CreateNumber(g->th[i]));
    ga = cJSON_AddArrayToObject(gr, "iodepth");
    for (unsigned i = 0; i < g->nqd; i++)
        cJSON_AddItemToArray(ga, cJSON_CreateNumber(g->qd[i]));
    if (dropped >= 0) { /* stopped part-way: not in points */
        cJSON *o = cJSON_AddObjectToObject(d, "dropped_point");
        cJSON_AddStringToObject(o, "target", job->targets[pts[dropped].target]);
        cJSON_AddNumberToObject(o, "threads", pts[dropped].threads);
        cJSON_AddNumberToObject(o, "iodepth", pts[dropped].iodepth);
    }
    cJSON *a = cJSON_AddArrayToObject(d, "points");
    for (unsigned i = 0; i < np; i++) {
        const struct point *p = &pts[i];
        if (!p->r)
            continue;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "target", job->targets[p->target]);
        cJSON_AddNumberToObject(o, "threads", p->threads);
        cJSON_AddNumberToObject(o, "iodepth", p->iodepth);
        cJSON_AddNumberToObject(o, "outstanding", (double)outstanding_of(p));
        if (p->mpi) { /* threads and iodepth are per rank */
            cJSON_AddNumberToObject(o, "ranks", ranks_of(p));
            cJSON *rt = cJSON_AddArrayToObject(o, "rank_targets");
            for (uint32_t k = 0; k < p->r->nr_targets; k++)
                if (p->r->targets[k].of_rank)
                    cJSON_AddItemToArray(rt, cJSON_CreateString(p->r->targets[k].path));
        }
        cJSON_AddItemToObject(o, "iops", num(p->iops));
        cJSON_AddItemToObject(o, "mb_per_s", num(p->mb_per_s));
        cJSON_AddItemToObject(o, "mib_per_s", num(p->mib_per_s));
        cJSON_AddItemToObject(o, "lat_mean_us", num(p->lat_mean_us));
        cJSON_AddItemToObject(o, "lat_p99_us", num(p->lat_p99_us));
        cJSON_AddItemToObject(o, "cpu_pct", num(p->cpu_pct));
        cJSON_AddBoolToObject(o, "knee", p->knee);
        cJSON_AddBoolToObject(o, "knee_base", p->knee_base);
        cJSON *res = iom_report_json(p->r);
#ifdef IOMARK_HAVE_MPI
        if (res && p->mpi)
            iom_mpi_report_json(res, p->mpi);
#endif
        cJSON_AddItemToObject(o, "result", res);
        cJSON_AddItemToArray(a, o);
    }
    (void)done;
    return d;
}

/* sig: the signal that stopped the sweep (0: it ran to the end); dropped:
 * the point it stopped in the middle of (-1: none), not reported. */
static void sweep_text(FILE *f, const struct iom_job *job, struct point *pts, unsigned np,
                       double knee_pct, int sig, int dropped)
{
    char bs[32];
    iom_fmt_bytes(iom_job_max_bs(job), bs, sizeof(bs));
    fprintf(f, "sweep: %s, bs %s, %s I/O, engine %s; knee = first point from which more "
               "concurrency adds < %g%% IOPS over the best so far while mean latency grows\n",
            iom_rw_name(job->rw), bs, job->direct ? "direct" : "buffered", job->ioengine, knee_pct);
    for (unsigned i = 0; i < np; i++)
        if (pts[i].r && pts[i].r->cpu.nr_cpus) { /* the run's CPU line: the whole machine */
            fprintf(f, "CPU u+s %%: user + system time of all %u CPUs during each point's "
                       "measured phase, the whole machine's, not only iomark's (as iomark run's "
                       "\"CPU (%u CPUs): user, system\")\n",
                    pts[i].r->cpu.nr_cpus, pts[i].r->cpu.nr_cpus);
            break;
        }
    if (sig) {
        unsigned measured = 0;
        for (unsigned i = 0; i < np; i++)
            measured += pts[i].r != NULL;
        fprintf(f, "INTERRUPTED by %s: %u of %u points measured", iom_signal_name(sig), measured,
                np);
        if (dropped >= 0)
            fprintf(f, "; point T%u Q%u on %s was stopped part-way and dropped",
                    pts[dropped].threads, pts[dropped].iodepth, job->targets[pts[dropped].target]);
        fputc('\n', f);
    }
#ifdef IOMARK_HAVE_MPI
    for (unsigned i = 0; i < np; i++)
        if (pts[i].mpi) { /* every point is one shared window of all ranks */
            fprintf(f, "MPI: every point is the merged I/O of %d ranks in one window; threads and "
                       "iodepth are per rank, outstanding = threads x iodepth x %d ranks (per-rank "
                       "and per-host figures: --output-format=json, each point's result.mpi)\n",
                    pts[i].mpi->nr_ranks, pts[i].mpi->nr_ranks);
            break;
        }
#endif
    for (uint32_t t = 0; t < job->nr_targets; t++) {
        bool complete = true; /* every planned point of this target measured */
        const struct iom_result *first = NULL; /* under MPI its targets are the ranks' */
        for (unsigned i = 0; i < np && !first; i++)
            if (pts[i].target == t && pts[i].r)
                first = pts[i].r;
        if (first && first->nr_targets && first->targets[0].of_rank) {
            fprintf(f, "\ntarget ");
            for (uint32_t k = 0; k < first->nr_targets && k < 4; k++) {
                char name[400];
                fprintf(f, "%s%s", k ? "; " : "",
                        iom_report_target_name(&first->targets[k], name, sizeof(name)));
            }
            if (first->nr_targets > 4)
                fprintf(f, "; ... (%u ranks)", first->nr_targets);
            fputc('\n', f);
        } else {
            fprintf(f, "\ntarget %s\n", job->targets[t]);
        }
        fprintf(f, "%7s %7s %11s %12s %10s %14s %13s %9s %9s\n", "threads", "iodepth", "outstanding",
                "IOPS", "MiB/s", "mean lat (us)", "p99 lat (us)", "CPU u+s %", "IOPS step");
        const struct point *prev = NULL, *knee = NULL, *before = NULL;
        for (unsigned i = 0; i < np; i++) {
            const struct point *p = &pts[i];
            if (p->target == t && !p->r)
                complete = false;
            if (p->target != t || !p->r)
                continue;
            char step[24] = "";
            if (prev && prev->iops > 0)
                snprintf(step, sizeof(step), "%+.1f%%", (p->iops - prev->iops) / prev->iops * 100);
            fprintf(f, "%7u %7u %11llu %12.0f %10.2f %14.1f %13.1f %9.1f %9s%s\n", p->threads,
                    p->iodepth, outstanding_of(p), p->iops, p->mib_per_s,
                    p->lat_mean_us, p->lat_p99_us, p->cpu_pct, step, p->knee ? "  <- knee" : p->knee_base ? "  <- best before the knee" : "");
            if (p->knee)
                knee = p;
            if (p->knee_base)
                before = p;
            prev = p;
        }
        if (knee && before) {
            const char *per = ranks_of(knee) > 1 ? " per rank" : "";
            fprintf(f, "knee: at %u thread(s) x iodepth %u%s (%llu outstanding) IOPS are %+.1f%% "
                       "over the best earlier point (%u x %u, %llu outstanding) and no later point "
                       "gains %g%%, while mean latency grows %+.1f%%: more concurrency than %u x %u%s "
                       "stops paying\n",
                    knee->threads, knee->iodepth, per, outstanding_of(knee),
                    (knee->iops - before->iops) / before->iops * 100, before->threads,
                    before->iodepth, outstanding_of(before), knee_pct,
                    (knee->lat_mean_us - before->lat_mean_us) / before->lat_mean_us * 100,
                    before->threads, before->iodepth, per);
        }
        else if (!complete)
            fprintf(f, "knee: not judged, sweep %s before this target's last point\n",
                    sig ? "interrupted" : "stopped");
        else
            fprintf(f, "knee: none found; IOPS still grow by %g%% or more\n", knee_pct);
    }
}

/* Remove "--NAME=V" / "--NAME V" from argv; *val gets V (or stays NULL).
 * Returns the index in argv (as it is when called) of its last occurrence,
 * 0 when absent. */
static int take_opt(int *argc, char **argv, const char *name, const char **val)
{
    int out = 1, at = 0;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        size_t an = a[0] == '-' && a[1] == '-' ? strcspn(a + 2, "=") : 0;
        if (an && iom_args_name_eq(a + 2, an, name)) { /* '-' and '_' alike (workload/args.h) */
            at = i;
            if (a[2 + an] == '=')
                *val = a + 3 + an;
            else
                *val = i + 1 < *argc && iom_args_value_word(argv[i + 1]) ? argv[++i] : "";
            continue;
        }
        argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = NULL;
    return at;
}

/* --replay=FILE: the workload of an iomark document into job, its targets
 * moved to *replayed (used when none are named), and what the document is
 * into *d (a sweep's grid and knee). Returns 0 or an exit status, after one
 * line. */
static int load_replay(const char *path, struct iom_job *job, struct iom_job *replayed,
                       struct iom_replay_doc *d)
{
    char err[600];
    if (!*path) {
        iom_cli_error(CMD, "--replay=: needs an iomark sweep document (JSON), e.g. "
                           "--replay=sweep.json");
        return IOM_EXIT_USAGE;
    }
    int rc = iom_replay_load_info(path, job, d, err, sizeof(err));
    if (rc) {
        iom_cli_error(CMD, "--replay=%s", err);
        return rc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
    }
    replayed->targets = job->targets;
    replayed->nr_targets = job->nr_targets;
    job->targets = NULL;
    job->nr_targets = 0;
    return 0;
}

/* The lists a replayed document gives where none were typed (a sweep: its
 * grid and knee; a run: its one workload needs a list typed). Returns 0 or
 * IOM_EXIT_USAGE after one line. */
static int replay_lists(const char *path, const struct iom_replay_doc *d, bool th_typed,
                        bool qd_typed, bool knee_typed, struct grid *g, double *knee_pct)
{
    if (!d->sweep_points && !th_typed && !qd_typed) {
        iom_cli_error(CMD, "--replay=%s: a %s document (one workload), not a sweep; give "
                           "--threads and/or --iodepth lists to sweep its workload, or rerun it "
                           "with iomark run --replay %s", path, d->repeat ? "run --repeat" : "run",
                      path);
        return IOM_EXIT_USAGE;
    }
    if (!d->sweep_points)
        return 0;
    if (!d->nthreads && (!th_typed || !qd_typed)) {
        iom_cli_error(CMD, "--replay=%s: a sweep of %u points that does not record its grid "
                           "(no \"grid\", and its points do not show all of it); give --threads "
                           "and --iodepth", path, d->sweep_points);
        return IOM_EXIT_USAGE;
    }
    if (!th_typed) {
        g->nth = d->nthreads;
        for (unsigned i = 0; i < g->nth; i++)
            g->th[i] = d->threads[i];
    }
    if (!qd_typed) {
        g->nqd = d->niodepth;
        for (unsigned i = 0; i < g->nqd; i++)
            g->qd[i] = d->iodepth[i];
    }
    if (!knee_typed && d->knee_pct > 0 && d->knee_pct < 1000)
        *knee_pct = d->knee_pct;
    return 0;
}

/* A mistyped option of sweep's own (--thread, --kne): one line naming it
 * (run's table would point --thread at --numjobs). Returns whether one was. */
static bool own_near(int argc, char **argv)
{
    static const char *const own[] = {"threads", "knee", "replay"};
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (strncmp(argv[i], "--", 2) || !argv[i][2])
            continue;
        char name[64];
        snprintf(name, sizeof(name), "%.*s", (int)strcspn(argv[i] + 2, "="), argv[i] + 2);
        const char *via, *run = iom_option_suggest_via(name, &via), *near = NULL;
        if (run && iom_args_name_eq(name, (size_t)-1, run))
            continue; /* an option of run's */
        if (run && via && strcmp(run, "repeat") == 0) { /* fio's loops: run's --repeat */
            iom_cli_error(CMD, "--%s: unknown option; a sweep measures each point once (fio's "
                          "--%s is iomark run --repeat); see iomark sweep --help", name, via);
            return true;
        }
        unsigned best = run ? iom_name_nearness(name, run) : IOM_NAME_FAR;
        for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
            iom_name_nearer(name, own[k], &best, &near);
        if (near) {
            iom_cli_error(CMD, "--%s: unknown option; did you mean --%s? see iomark sweep --help",
                          name, near);
            return true;
        }
    }
    return false;
}

int iom_cmd_sweep(int argc, char **argv)
{
    bool mpi = false; /* under mpirun/srun (docs/mpi.md) */
    const char *threads_s = NULL, *numjobs_s = NULL, *iodepth_s = NULL, *knee_s = NULL;
    int at_th = take_opt(&argc, argv, "threads", &threads_s);
    /* taken from what is left: an index below at_th means typed before --threads */
    int at_nj = take_opt(&argc, argv, "numjobs", &numjobs_s);
    take_opt(&argc, argv, "iodepth", &iodepth_s);
    take_opt(&argc, argv, "knee", &knee_s);
    const char *replay_s = NULL; /* a sweep document: its grid, knee, workload and targets */
    take_opt(&argc, argv, "replay", &replay_s);
    if (threads_s && numjobs_s) { /* both name the threads per point: as typed, in order */
        bool nj_first = at_nj < at_th;
        iom_cli_error(CMD, "--%s=%s --%s=%s: both set the threads per point; give one of them",
                      nj_first ? "numjobs" : "threads", nj_first ? numjobs_s : threads_s,
                      nj_first ? "threads" : "numjobs", nj_first ? threads_s : numjobs_s);
        return IOM_EXIT_USAGE;
    }
    /* the name the user typed for the thread list, in every message */
    const char *th_name = numjobs_s ? "numjobs" : "threads";
    if (!threads_s)
        threads_s = numjobs_s;
    struct iom_job job;
    struct iom_run_opts ro = {0};
    char err[512];
    iom_job_defaults(&job);
    job.keep = true;   /* as run: a created test file stays unless --keep=0 */
    struct iom_job replayed = {0}; /* the targets of --replay, used when none are given */
    struct iom_replay_doc rdoc;
    if (replay_s) {
        int rrc = load_replay(replay_s, &job, &replayed, &rdoc);
        if (rrc) {
            iom_job_free(&job);
            return rrc;
        }
    }
    bool near_own = own_near(argc, argv);
    if (near_own || iom_options_parse(argc, argv, 1, &job, &ro, err, sizeof(err))) {
        if (!near_own)
            iom_cli_error(CMD, "%s", err);
        iom_job_free(&job);
        iom_job_free(&replayed);
        return IOM_EXIT_USAGE;
    }
    if (job.nr_targets == 0) { /* the replayed sweep's targets unless others are named */
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
    struct grid gr = {.th = {job.numjobs}, .qd = {job.iodepth}, .nth = 1, .nqd = 1};
    uint32_t *th = gr.th, *qd = gr.qd;
    double knee_pct = 5;
    if ((threads_s && parse_list(th_name, threads_s, th, &gr.nth)) ||
        (iodepth_s && parse_list("iodepth", iodepth_s, qd, &gr.nqd)) ||
        (replay_s && replay_lists(replay_s, &rdoc, threads_s != NULL, iodepth_s != NULL,
                                  knee_s != NULL, &gr, &knee_pct))) {
        iom_job_free(&job);
        return IOM_EXIT_USAGE;
    }
    unsigned nth = gr.nth, nqd = gr.nqd;
    if (knee_s) {
        char *end;
        knee_pct = strtod(knee_s, &end);
        if (end == knee_s || *end || !(knee_pct > 0 && knee_pct < 1000)) {
            iom_cli_error(CMD, "--knee=%s: allowed: a percentage above 0, e.g. 5", knee_s);
            iom_job_free(&job);
            return IOM_EXIT_USAGE;
        }
    }
    if (nth * nqd < 2) { /* name only what was typed */
        if (threads_s && iodepth_s)
            iom_cli_error(CMD, "--%s=%s --iodepth=%s: one point only; give at least two "
                               "different values to sweep, e.g. --iodepth=1,4,32", th_name,
                          threads_s, iodepth_s);
        else if (threads_s || iodepth_s)
            iom_cli_error(CMD, "--%s=%s: one point only; give at least two different values to "
                               "sweep, e.g. --iodepth=1,4,32", threads_s ? th_name : "iodepth",
                          threads_s ? threads_s : iodepth_s);
        else
            iom_cli_error(CMD, "--threads, --iodepth: neither given; give at least two "
                               "different values to sweep, e.g. --iodepth=1,4,32");
        iom_job_free(&job);
        return IOM_EXIT_USAGE;
    }
    /* check once with the largest point: memory and thread limits */
    job.numjobs = th[nth - 1];
    job.iodepth = qd[nqd - 1];
    struct iom_target *targets = calloc(job.nr_targets ? job.nr_targets : 1, sizeof(*targets));
    unsigned np = nth * nqd * (job.nr_targets ? job.nr_targets : 1);
    struct point *pts = calloc(np, sizeof(*pts));
    int status = IOM_EXIT_FAIL;
    if (!targets || !pts)
        goto out;
    /* under mpirun/srun (docs/mpi.md): every point is one shared window of
     * all ranks; rank 0 reports the merged points */
#ifdef IOMARK_HAVE_MPI
    bool patterned = false;
#endif
    int stop_sig = 0; /* agreed by all ranks under MPI */
#ifdef IOMARK_HAVE_MPI
    mpi = iom_mpi_launched();
#endif
    if (!mpi) {
        status = iom_cli_check(CMD, &job, &ro, targets);
        if (status)
            goto out;
    }
    { /* psync: every point's depth is 1 */
        char given[300];
        if (iodepth_s)
            snprintf(given, sizeof(given), "--iodepth=%s", iodepth_s);
        else
            snprintf(given, sizeof(given), "--iodepth=%u", job.iodepth);
        iom_cli_depth_note(CMD, &ro, job.ioengine, given, job.iodepth);
    }
    /* plan: grid points in order of concurrency, and for each point every
     * target in turn */
    struct point *grid = calloc(nth * nqd, sizeof(*grid));
    if (!grid) {
        status = IOM_EXIT_FAIL;
        goto out;
    }
    for (unsigned a = 0; a < nth; a++)
        for (unsigned b = 0; b < nqd; b++)
            grid[a * nqd + b] = (struct point){.threads = th[a], .iodepth = qd[b]};
    qsort(grid, nth * nqd, sizeof(*grid), cmp_points);
    unsigned k = 0;
    for (unsigned g = 0; g < nth * nqd; g++)
        for (uint32_t t = 0; t < job.nr_targets; t++) {
            pts[k] = grid[g];
            pts[k++].target = t;
        }
    free(grid);
#ifdef IOMARK_HAVE_MPI
    if (mpi) {
        status = iom_cli_mpi_begin(CMD, &job, &ro, targets, NULL, np, &patterned);
        if (status)
            goto out;
        if (iom_mpi_rank())
            ro.quiet = true;
    } else
#endif
    {
        iom_cli_signals_install();
        double s = iom_cli_job_seconds(&job);
        iom_cli_progress_plan(CMD, &ro, np, s < 0 ? -1 : s * np, false);
        status = iom_cli_prepare(CMD, &job, &ro, targets);
        if (status)
            goto out;
    }
    unsigned done = 0;
    int dropped = -1; /* the point a signal stopped part-way */
    for (unsigned i = 0; i < np && !(mpi ? stop_sig : iom_cli_stop); i++) {
        struct point *p = &pts[i];
        struct iom_job one = job; /* shallow: iom_run keeps its own deep copy */
        one.numjobs = p->threads;
        one.iodepth = p->iodepth;
        one.nr_targets = 1;
        one.targets = &job.targets[p->target];
        char label[64];
        snprintf(label, sizeof(label), "T%u Q%u", p->threads, p->iodepth);
        if (job.nr_targets > 1)
            snprintf(label + strlen(label), sizeof(label) - strlen(label), " %s",
                     job.targets[p->target]);
        struct iom_run_hooks hooks = iom_cli_hooks(&ro, &one, label);
        int rc;
#ifdef IOMARK_HAVE_MPI
        if (mpi) {
            struct iom_mpi_info *info = NULL;
            rc = iom_cli_mpi_step(CMD, &one, &targets[p->target], 1, &hooks, patterned, &p->r,
                                  &info, &stop_sig);
            p->mpi = info;
            if (p->r && stop_sig && !p->r->interrupted_signal)
                p->r->interrupted_signal = stop_sig;
        } else
#endif
            rc = iom_run(&one, &targets[p->target], 1, &hooks, &p->r);
        iom_cli_progress_clear();
        if (rc) {
            iom_cli_error(CMD, "T%u Q%u on %s: %s", p->threads, p->iodepth, job.targets[p->target],
                          p->r && p->r->error[0] ? p->r->error : strerror(-rc));
            iom_result_free(p->r);
            p->r = NULL;
            status = IOM_EXIT_FAIL;
            break;
        }
        if (p->r && p->r->interrupted_signal) { /* a partial point is no point */
            dropped = (int)i;
            iom_result_free(p->r);
            p->r = NULL;
            break;
        }
        figures(p);
        done++;
    }
    /* under MPI each rank says what it did with the files it created, naming
     * itself (the path is its host's), as run does */
    char who[160] = "sweep";
#ifdef IOMARK_HAVE_MPI
    if (mpi)
        iom_cli_mpi_label("sweep", who, sizeof(who));
#endif
    iom_cli_close_noted(who, targets, job.nr_targets, job.keep, IOM_NOTE_ALL);
    if (mpi ? stop_sig : iom_cli_stop) {
        if (status == 0)
            status = iom_cli_signal_exit(mpi ? stop_sig : iom_cli_stop);
    }
#ifdef IOMARK_HAVE_MPI
    if (mpi && iom_mpi_rank()) /* rank 0 writes the sweep */
        goto out;
#endif
    /* knee per target, on its measured points in order; a target the
     * sweep did not finish is not judged (a later point might still gain) */
    for (uint32_t t = 0; t < job.nr_targets; t++) {
        double iops[MAX_LIST * MAX_LIST], lat[MAX_LIST * MAX_LIST];
        unsigned idx[MAX_LIST * MAX_LIST], n = 0;
        bool complete = true;
        for (unsigned i = 0; i < np; i++)
            if (pts[i].target == t && pts[i].r) {
                idx[n] = i;
                iops[n] = pts[i].iops;
                lat[n++] = pts[i].lat_mean_us;
            } else if (pts[i].target == t) {
                complete = false;
            }
        if (!complete)
            continue;
        int base = -1, kn = iom_knee_find(iops, lat, n, knee_pct, &base);
        if (kn >= 0) {
            pts[idx[kn]].knee = 1;
            pts[idx[base]].knee_base = 1;
        }
    }
    const char *st = status == 0 ? "ok" : status == IOM_EXIT_FAIL ? "error" : "interrupted";
    int sig = status == 0 || status == IOM_EXIT_FAIL ? 0 : (mpi ? stop_sig : iom_cli_stop);
    if (ro.format == IOM_OUT_JSON) {
        cJSON *doc = sweep_json(&job, pts, np, done, knee_pct, st, sig, dropped, &gr);
        int rc = doc ? iom_cli_emit_json(CMD, doc, &ro) : IOM_EXIT_FAIL;
        cJSON_Delete(doc);
        if (rc)
            status = rc;
    } else {
        FILE *f = ro.output_path ? fopen(ro.output_path, "w") : stdout;
        if (!f) {
            iom_cli_error(CMD, "cannot write %s: %s", ro.output_path, strerror(errno));
            status = IOM_EXIT_FAIL;
        } else {
            sweep_text(f, &job, pts, np, knee_pct, sig, dropped);
            int rc = iom_cli_fclose(CMD, f, ro.output_path);
            if (rc)
                status = rc;
        }
    }
out:
#ifdef IOMARK_HAVE_MPI
    if (mpi)
        iom_mpi_finalize();
#endif
    if (pts)
        for (unsigned i = 0; i < np; i++) {
            iom_result_free(pts[i].r);
#ifdef IOMARK_HAVE_MPI
            iom_mpi_info_free(pts[i].mpi);
#endif
        }
    free(pts);
    free(targets);
    iom_job_free(&job);
    return status;
}
