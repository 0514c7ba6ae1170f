/* mark.c - text table and JSON document of `iomark mark` (see mark.h). */
#include "report/mark.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "report/report.h"

static const char *statistic_words(const struct iom_mark_doc *d)
{
    if (d->kind == IOM_MARKSTAT_BEST)
        return "best of runs: max MB/s and IOPS, lowest mean latency of the counted runs";
    return "mean of runs: arithmetic mean of the counted runs";
}

static const char *convention_words(const struct iom_mark_doc *d)
{
    if (!strcmp(d->convention, "crystaldiskmark"))
        return "CrystalDiskMark's definition";
    if (!strcmp(d->convention, "kdiskmark"))
        return "KDiskMark's convention: mean for Default, best for Peak and Real World";
    return d->kind == IOM_MARKSTAT_BEST ? "--statistic=best" : "--statistic=mean";
}

int iom_mark_print(FILE *f, const struct iom_mark_doc *d)
{
    const struct iom_mark_profile *p = d->profile;
    const struct iom_target *t = d->target;
    char sz[32];
    iom_fmt_bytes(t->region_len, sz, sizeof(sz));
    fprintf(f, "iomark %s mark: %s (%s), %s\n", IOMARK_VERSION, p->name, p->title,
            d->direct ? "direct I/O" : "BUFFERED I/O (page cache)");
    fprintf(f, "each test: ");
    if (d->prepare_s > 0)
        fprintf(f, "a %.3g s preparation run (not counted), then ", d->prepare_s);
    fprintf(f, "%u run%s x %.3g s; %.3g s between tests; reads, then writes\n", d->runs,
            d->runs == 1 ? "" : "s", d->runtime_s, d->pause_s);
    fprintf(f, "statistic: %s (%s)\n", statistic_words(d), convention_words(d));
    fprintf(f, "target %s (%s, tested %s%s%s), engine %s; MB/s = 10^6 bytes/s\n", t->path,
            t->is_blockdev ? "block device" : "file", sz, t->devname[0] ? ", on " : "",
            t->devname, d->engine && d->engine[0] ? d->engine : "-");
    for (unsigned i = 0; d->engine && i < p->nr_tests; i++)
        if (iom_engine_depth(d->engine, p->tests[i].iodepth) != p->tests[i].iodepth) {
            fprintf(f, "note: %s is synchronous: every test had 1 I/O in flight per thread, "
                       "whatever its Q (iodepth_effective in the JSON)\n", d->engine);
            break;
        }
    if (d->nr_ranks > 0) {
        unsigned hosts = 0;
        for (unsigned i = 0; i < d->nr_groups; i++)
            hosts += d->groups[i].rank < 0;
        fprintf(f, "MPI: %d ranks on %u host%s, each run one window decided by rank 0; figures are "
                   "all hosts' (every rank's I/Os over the slowest rank's time, latency from the "
                   "merged histograms); per host and per rank in the JSON document\n",
                d->nr_ranks, hosts, hosts == 1 ? "" : "s");
        if (!d->own_targets && d->nr_ranks > 1)
            fprintf(f, "note: every rank used the same target path (no %%r or %%h in the name)\n");
    }
    if (d->sig)
        fprintf(f, "INTERRUPTED by %s: partial results\n", iom_signal_name(d->sig));
    if (d->error)
        fprintf(f, "FAILED: %s\n", d->error);
    for (int w = 0; w < 2; w++) {
        fprintf(f, "\n[%s]\n%-14s %10s %10s %10s   %10s %21s %10s %19s\n", w ? "Write" : "Read",
                "test", "MB/s", "IOPS", "us", "mean MB/s", "MB/s min-max", "mean us",
                "us min-max");
        for (unsigned i = 0; i < p->nr_tests; i++) {
            const struct iom_mark_cell *c = &d->cells[i * 2 + w];
            const struct iom_markstat *s = &c->stat;
            fprintf(f, "%-14s", p->tests[i].name);
            /* a run stopped by a signal: noted under the row, in no figure */
            char note[128] = "";
            for (unsigned k = 0, nrun = 0; k < c->nr_runs; k++) {
                nrun += !c->runs[k].prepare;
                if (!c->runs[k].interrupted)
                    continue;
                if (c->runs[k].prepare)
                    snprintf(note, sizeof(note), "%14s (preparation run interrupted after %.2f s)\n",
                             "", c->runs[k].measured_s);
                else
                    snprintf(note, sizeof(note),
                             "%14s (run %u/%u interrupted after %.2f s: not in the statistics)\n",
                             "", nrun, d->runs, c->runs[k].measured_s);
            }
            if (!s->nr_counted) {
                fprintf(f, " %10s %10s %10s   %10s %21s %10s %19s\n%s", "-", "-", "-", "-", "-",
                        "-", "-", note);
                continue;
            }
            char lat[32], mbr[48], latr[48];
            if (s->has_latency)
                snprintf(lat, sizeof(lat), "%.1f", s->reported.lat_mean_us);
            else
                snprintf(lat, sizeof(lat), "-");
            snprintf(mbr, sizeof(mbr), "%.2f-%.2f", s->mb_per_s.min, s->mb_per_s.max);
            snprintf(latr, sizeof(latr), "%.1f-%.1f", s->lat_mean_us.min, s->lat_mean_us.max);
            fprintf(f, " %10.2f %10.1f %10s   %10.2f %21s %10.1f %19s\n", s->reported.mb_per_s,
                    s->reported.iops, lat, s->mb_per_s.mean, mbr, s->lat_mean_us.mean, latr);
            fputs(note, f);
        }
    }
    return ferror(f) ? -EIO : 0;
}

static cJSON *fig_json(const struct iom_markstat_run *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "mb_per_s", r->mb_per_s);
    cJSON_AddNumberToObject(o, "mib_per_s", r->mib_per_s);
    cJSON_AddNumberToObject(o, "iops", r->iops);
    cJSON_AddNumberToObject(o, "lat_mean_us", r->lat_mean_us);
    cJSON_AddNumberToObject(o, "lat_p99_us", r->lat_p99_us);
    cJSON_AddNumberToObject(o, "measured_s", r->measured_s);
    cJSON_AddNumberToObject(o, "ios", (double)r->ios);
    return o;
}

static cJSON *range_json(const struct iom_markstat *s, int which)
{
    cJSON *o = cJSON_CreateObject();
    const struct iom_markstat_range *r[3] = {&s->mb_per_s, &s->iops, &s->lat_mean_us};
    const char *names[3] = {"mb_per_s", "iops", "lat_mean_us"};
    for (int i = 0; o && i < 3; i++)
        cJSON_AddNumberToObject(o, names[i],
                                which == 0 ? r[i]->min : which == 1 ? r[i]->mean : r[i]->max);
    return o;
}

static cJSON *dir_json(const struct iom_mark_cell *c)
{
    cJSON *dir = fig_json(&c->stat.reported);
    if (!dir)
        return NULL;
    cJSON_AddNumberToObject(dir, "counted_runs", c->stat.nr_counted);
    cJSON_AddBoolToObject(dir, "has_latency", c->stat.has_latency);
    cJSON_AddItemToObject(dir, "min", range_json(&c->stat, 0));
    cJSON_AddItemToObject(dir, "mean", range_json(&c->stat, 1));
    cJSON_AddItemToObject(dir, "max", range_json(&c->stat, 2));
    if (!c->stat.nr_counted) { /* every run uncounted (interrupted): no figure to report */
        static const char *const figs[] = {"mb_per_s", "mib_per_s", "iops", "lat_mean_us",
                                           "lat_p99_us", "measured_s", "ios", "min",
                                           "mean", "max", NULL};
        for (const char *const *n = figs; *n; n++)
            cJSON_ReplaceItemInObject(dir, *n, cJSON_CreateNull());
    }
    cJSON *runs = cJSON_AddArrayToObject(dir, "each_run");
    for (unsigned k = 0; runs && k < c->nr_runs; k++) {
        cJSON *r = fig_json(&c->runs[k]);
        if (!r)
            break;
        cJSON_AddBoolToObject(r, "counted", c->runs[k].counted);
        cJSON_AddStringToObject(r, "phase", c->runs[k].prepare ? "prepare" : "run");
        cJSON_AddStringToObject(r, "status", c->runs[k].interrupted ? "interrupted" : "ok");
        cJSON_AddItemToArray(runs, r);
    }
    return dir;
}

/* The "tests" array of one set of cells (the document's, a host's or a rank's),
 * run with engine (NULL or "": none ran). */
static cJSON *tests_json(const struct iom_mark_profile *p, const struct iom_mark_cell *cells,
                         const char *engine)
{
    cJSON *tests = cJSON_CreateArray();
    for (unsigned i = 0; tests && i < p->nr_tests; i++) {
        const struct iom_mark_test *mt = &p->tests[i];
        cJSON *o = cJSON_CreateObject();
        if (!o)
            break;
        cJSON_AddStringToObject(o, "name", mt->name);
        cJSON_AddStringToObject(o, "rw", mt->random ? "random" : "sequential");
        cJSON_AddNumberToObject(o, "bs_bytes", (double)mt->bs_bytes);
        cJSON_AddNumberToObject(o, "iodepth", mt->iodepth);
        /* 1 with a synchronous engine (psync): one I/O in flight per thread */
        cJSON_AddNumberToObject(o, "iodepth_effective", iom_engine_depth(engine, mt->iodepth));
        cJSON_AddNumberToObject(o, "threads", mt->threads);
        for (int w = 0; w < 2; w++) {
            const struct iom_mark_cell *c = &cells[i * 2 + w];
            if (!c->nr_runs) /* not run (interrupted or failed before it) */
                cJSON_AddNullToObject(o, w ? "write" : "read");
            else
                cJSON_AddItemToObject(o, w ? "write" : "read", dir_json(c));
        }
        cJSON_AddItemToArray(tests, o);
    }
    return tests;
}

/* The "mpi" object: ranks, and per host and per rank their own tests. */
static void mpi_json(cJSON *d, const struct iom_mark_doc *m)
{
    cJSON *o = cJSON_AddObjectToObject(d, "mpi");
    if (!o)
        return;
    cJSON_AddNumberToObject(o, "ranks", m->nr_ranks);
    cJSON_AddBoolToObject(o, "own_targets", m->own_targets);
    cJSON_AddStringToObject(o, "rates_over", "slowest rank's measured time of each run");
    cJSON *hosts = cJSON_AddArrayToObject(o, "hosts");
    cJSON *ranks = cJSON_AddArrayToObject(o, "per_rank");
    for (unsigned i = 0; hosts && ranks && i < m->nr_groups; i++) {
        const struct iom_mark_group *g = &m->groups[i];
        cJSON *e = cJSON_CreateObject();
        if (!e)
            break;
        if (g->rank >= 0)
            cJSON_AddNumberToObject(e, "rank", g->rank);
        cJSON_AddStringToObject(e, "host", g->host);
        if (g->rank < 0)
            cJSON_AddNumberToObject(e, "ranks", g->nr_ranks);
        cJSON_AddItemToObject(e, "tests", tests_json(m->profile, g->cells, m->engine));
        cJSON_AddItemToArray(g->rank < 0 ? hosts : ranks, e);
    }
}

cJSON *iom_mark_json(const struct iom_mark_doc *m)
{
    cJSON *d = iom_json_doc_new("mark");
    if (!d)
        return NULL;
    char ts[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
    cJSON_AddStringToObject(d, "start_time", ts);
    cJSON_AddStringToObject(d, "status", m->error ? "error" : m->sig ? "interrupted" : "ok");
    if (m->sig)
        cJSON_AddStringToObject(d, "interrupted_by", iom_signal_name(m->sig));
    if (m->error)
        cJSON_AddStringToObject(d, "error", m->error);
    iom_json_add_host(d, NULL, NULL, 0);
    cJSON_AddStringToObject(d, "profile", m->profile->name);
    cJSON_AddStringToObject(d, "profile_title", m->profile->title);
    cJSON_AddStringToObject(d, "selection", iom_markstat_kind_name(m->kind));
    cJSON_AddStringToObject(d, "convention", m->convention);
    cJSON_AddNumberToObject(d, "runs", m->runs);
    cJSON_AddNumberToObject(d, "runtime_s", m->runtime_s);
    cJSON_AddNumberToObject(d, "prepare_s", m->prepare_s);
    cJSON_AddNumberToObject(d, "pause_s", m->pause_s);
    cJSON_AddStringToObject(d, "engine", m->engine ? m->engine : "");
    cJSON_AddStringToObject(d, "io_mode", m->direct ? "direct" : "buffered");
    const struct iom_target *t = m->target;
    cJSON *tg = cJSON_AddObjectToObject(d, "target");
    if (tg) {
        cJSON_AddStringToObject(tg, "path", t->path);
        cJSON_AddStringToObject(tg, "device", t->devname);
        cJSON_AddStringToObject(tg, "kind", t->is_blockdev ? "block_device" : "file");
        cJSON_AddNumberToObject(tg, "size_bytes", (double)t->size_bytes);
        cJSON_AddNumberToObject(tg, "tested_bytes", (double)t->region_len);
    }
    cJSON_AddItemToObject(d, "tests", tests_json(m->profile, m->cells, m->engine));
    if (m->nr_ranks > 0)
        mpi_json(d, m);
    return d;
}
