/*
 * import_iomark.c - iomark's own JSON documents ("schema": "iomark-result").
 *
 * type "run"    one workload, one run (docs/json-schema.md).
 * type "repeat" {"runs": [run documents]}: one workload, N runs.
 * type "mark"   {"tests": [{name, iodepth, threads, read|write: {mb_per_s,
 *               mib_per_s, iops, lat_mean_us, lat_p99_us, ios, each_run: [...]}}]}:
 *               one workload per test and direction ("SEQ1M Q8T1 read"), each
 *               counted run of "each_run" kept (a run with "counted": false,
 *               the preparation run or a run with "status": "interrupted", is
 *               skipped; a direction without counted
 *               runs is left out).
 * type "sweep"  {"points": [{target, threads, iodepth, knee: bool, result: run
 *               document}]}: one workload per point ("TARGET T8 Q4").
 * type "tpcc"   {"nopm", "tpm", "vu", "duration": {"measured_s"}, "cpu":
 *               {"busy_pct"}, "transactions": {name: {calls, mean_ms, p50_ms,
 *               p95_ms, p99_ms, max_ms}}} (docs/tpcc.md), or {"runs": [such
 *               documents]}; "tpcc_load"/"tpcc_check" hold nothing to compare.
 * A document with "status": "error" is refused with its "error" text
 * unless it measured I/O; a run document with "status" "interrupted" or
 * "error" gets a note (res->note) saying after how long, as fio's does.
 * A direction the workload does not do (rw=randread: no writes) is missing
 * (NAN), never 0.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "util/json_get.h"

static int probe(const char *text, size_t len)
{
    (void)len;
    const char *j = iom_imp_json_start(text);
    return j && strstr(j, "\"iomark-result\"");
}

static const cJSON *obj(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static void unset_idle_dirs(const cJSON *doc, struct iom_imp_run *run);

static void read_stats(const cJSON *s, struct iom_imp_dir *d)
{
    if (!cJSON_IsObject(s))
        return;
    d->ios = iom_json_num(s, "ios", NAN);
    d->iops = iom_json_num(s, "iops", NAN);
    d->mb_per_s = iom_json_num(s, "mb_per_s", NAN);
    d->mib_per_s = iom_json_num(s, "mib_per_s", NAN);
    const cJSON *lat = obj(s, "lat_us");
    if (d->ios > 0 && lat) {
        d->lat_mean_us = iom_json_num(lat, "mean", NAN);
        d->lat_max_us = iom_json_num(lat, "max", NAN);
        d->lat_p99_us = iom_json_num(obj(lat, "percentiles"), "99", NAN);
    }
}

/* One "run" document into run. */
static int read_run(const cJSON *doc, struct iom_imp_run *run)
{
    const cJSON *tot = obj(doc, "total");
    read_stats(obj(tot, "read"), &run->dir[0]);
    read_stats(obj(tot, "write"), &run->dir[1]);
    read_stats(obj(tot, "total"), &run->dir[2]);
    read_stats(obj(tot, "trim"), &run->dir[IOM_IMP_TRIM]); /* absent before trims: NAN */
    unset_idle_dirs(doc, run);
    run->runtime_s = iom_json_num(obj(doc, "duration"), "measured_s", NAN);
    const cJSON *cpu = obj(doc, "cpu");
    double u = iom_json_num(cpu, "user_pct", NAN), s = iom_json_num(cpu, "system_pct", NAN);
    if (!isnan(u) && !isnan(s) && iom_json_num(cpu, "nr_cpus", NAN) > 0)
        run->cpu_pct = u + s;
    double pu = iom_json_num(cpu, "process_user_s", NAN),
           ps = iom_json_num(cpu, "process_system_s", NAN);
    if (!isnan(pu) && !isnan(ps) && run->runtime_s > 0)
        run->cpu_proc_pct = (pu + ps) / run->runtime_s * 100.0;
    run->iops_per_cpu_pct = iom_json_num(cpu, "iops_per_cpu_pct", NAN);
    if (run->iops_per_cpu_pct == 0 && !(run->cpu_pct > 0))
        run->iops_per_cpu_pct = NAN;
    const cJSON *pm = obj(obj(obj(tot, "total"), "lat_us"), "percentiles");
    const cJSON *e;
    if (run->dir[2].ios > 0) {
        cJSON_ArrayForEach(e, pm)
        {
            if (e->string && cJSON_IsNumber(e) &&
                iom_imp_add_pct(run, strtod(e->string, NULL), e->valuedouble))
                return -ENOMEM;
        }
    }
    const cJSON *targets = obj(doc, "targets");
    if (cJSON_GetArraySize(targets) > 1) { /* one curve per target as well */
        const cJSON *t;
        cJSON_ArrayForEach(t, targets)
        {
            const cJSON *tt = obj(t, "total");
            double ios = iom_json_num(tt, "ios", NAN);
            if (!(ios > 0))
                continue;
            cJSON_ArrayForEach(e, obj(obj(tt, "lat_us"), "percentiles"))
            {
                if (e->string && cJSON_IsNumber(e) &&
                    iom_imp_add_target_pct(run, iom_json_str(t, "path", "?"), ios,
                                           strtod(e->string, NULL), e->valuedouble))
                    return -ENOMEM;
            }
        }
    }
    cJSON_ArrayForEach(e, obj(obj(doc, "series"), "points"))
    {
        struct iom_imp_point p = {iom_json_num(e, "t_s", NAN), iom_json_num(e, "iops", NAN),
                                  iom_json_num(e, "lat_mean_us", NAN),
                                  iom_json_num(e, "lat_p99_us", NAN)};
        if (iom_imp_add_point(run, &p))
            return -ENOMEM;
    }
    return 0;
}

static void run_names(const cJSON *doc, struct iom_imp_workload *w)
{
    const cJSON *spec = obj(doc, "spec");
    const cJSON *t = obj(spec, "targets");
    if (cJSON_GetArraySize(t) == 1 && cJSON_IsString(cJSON_GetArrayItem(t, 0)))
        snprintf(w->target, sizeof(w->target), "%s", cJSON_GetArrayItem(t, 0)->valuestring);
    double nj = iom_json_num(spec, "numjobs", NAN), qd = iom_json_num(spec, "iodepth", NAN);
    w->threads = iom_imp_count(nj);
    w->iodepth = iom_imp_count(qd);
    /* a synchronous engine kept one I/O in flight whatever was asked (psync
     * --iodepth=8): compare shows and checks the depth that ran */
    double eff = iom_json_num(spec, "iodepth_effective", NAN);
    if (eff >= 1)
        w->iodepth = iom_imp_count(eff);
    double bs = iom_json_num(spec, "bs_bytes", NAN);
    if (bs > 0 && !cJSON_IsArray(obj(spec, "bssplit")))
        w->bs_bytes = (uint64_t)bs;
    const cJSON *rw = obj(spec, "rw");
    if (cJSON_IsString(rw))
        snprintf(w->rw, sizeof(w->rw), "%s", rw->valuestring);
}

/* A run document with "status": "error" that measured no I/O is refused
 * with its "error" text; one that did is read with a note (below). */
static int refuse_error(const cJSON *doc, char *err, size_t errlen)
{
    if (strcmp(iom_json_str(doc, "status", "ok"), "error") == 0 &&
        !(iom_json_num(obj(obj(doc, "total"), "total"), "ios", NAN) > 0)) {
        snprintf(err, errlen, "the run failed: %s",
                 iom_json_str(doc, "error", "(no reason given)"));
        return -EINVAL;
    }
    return 0;
}

/* The note of a document that did not complete, as the fio and DiskSpd
 * importers word a run's: "source run interrupted (SIGINT) after 1.5 s of 5 s"
 * (measured_s of spec.runtime_s; "of" left out without a time limit), or
 * "source run failed (ERROR) after ... ; its figures are up to the failure".
 * A sweep's says how many of its points were measured and which one a
 * signal stopped part-way, as its text does: "source sweep interrupted
 * (SIGINT): 2 of 4 points measured; point T1 Q4 on p.dat was stopped
 * part-way and dropped". */
static void note_sweep(const cJSON *doc, struct iom_imp_result *res, const char *st,
                       const char *why)
{
    int n = cJSON_GetArraySize(obj(doc, "points"));
    double planned = iom_json_num(doc, "planned_points", NAN);
    char drop[600] = "";
    const cJSON *dp = obj(doc, "dropped_point");
    if (dp)
        snprintf(drop, sizeof(drop), "; point T%.0f Q%.0f on %s was stopped part-way and dropped",
                 iom_json_num(dp, "threads", 0), iom_json_num(dp, "iodepth", 0),
                 iom_json_str(dp, "target", "?"));
    if (planned > 0)
        iom_imp_note(res, "source sweep %s (%s): %d of %.0f points measured%s", st, why, n,
                     planned, drop);
    else
        iom_imp_note(res, "source sweep %s (%s): %d points measured%s", st, why, n, drop);
}

static void note_status(const cJSON *doc, struct iom_imp_result *res)
{
    const char *st = iom_json_str(doc, "status", "ok");
    int intr = strcmp(st, "interrupted") == 0;
    if (!intr && strcmp(st, "error") != 0)
        return;
    char why[200];
    snprintf(why, sizeof(why), "%s",
             intr ? iom_json_str(doc, "interrupted_by", "signal")
                  : iom_json_str(doc, "error", "no reason given"));
    double ran = iom_json_num(obj(doc, "duration"), "measured_s", NAN);
    double asked = iom_json_num(obj(doc, "spec"), "runtime_s", NAN);
    const char *tail = intr ? "" : "; its figures are up to the failure";
    st = intr ? "interrupted" : "failed";
    if (strcmp(iom_json_str(doc, "type", ""), "sweep") == 0) {
        note_sweep(doc, res, st, why);
        return;
    }
    if (!(ran >= 0))
        iom_imp_note(res, "source run %s (%s)%s", st, why, tail);
    else if (asked > 0)
        iom_imp_note(res, "source run %s (%s) after %.3g s of %.3g s%s", st, why, ran, asked, tail);
    else
        iom_imp_note(res, "source run %s (%s) after %.3g s%s", st, why, ran, tail);
}

/* A direction the run's workload never does (spec.rwmixread_pct 100: no
 * writes; 0: no reads; no trims unless spec.rw names them) and that moved no
 * I/O is missing (NAN), not zero. */
static void unset_idle_dirs(const cJSON *doc, struct iom_imp_run *run)
{
    double rp = iom_json_num(obj(doc, "spec"), "rwmixread_pct", NAN);
    const char *rw = iom_json_str(obj(doc, "spec"), "rw", "");
    for (int d = 0; d < IOM_IMP_NDIR; d++) {
        if (d == IOM_IMP_TOTAL || run->dir[d].ios > 0)
            continue;
        bool trims = strstr(rw, "trim") != NULL, does;
        if (d == IOM_IMP_TRIM)
            does = trims;
        else if (d == IOM_IMP_READ)
            does = rp != 0.0 && !trims;
        else
            does = rp != 100.0 && (!trims || strstr(rw, "trimwrite"));
        if (does)
            continue;
        struct iom_imp_dir *x = &run->dir[d];
        x->iops = x->mb_per_s = x->mib_per_s = x->ios = NAN;
        x->lat_mean_us = x->lat_p99_us = x->lat_max_us = NAN;
    }
}

static int read_tpcc(const cJSON *doc, struct iom_imp_run *run)
{
    run->nopm = iom_json_num(doc, "nopm", NAN);
    run->tpm = iom_json_num(doc, "tpm", NAN);
    run->runtime_s = iom_json_num(doc, "measured_s", NAN);
    if (isnan(run->runtime_s))
        run->runtime_s = iom_json_num(obj(doc, "duration"), "measured_s", NAN);
    run->cpu_pct = iom_json_num(obj(doc, "cpu"), "busy_pct", NAN); /* % of all CPUs */
    const cJSON *e;
    cJSON_ArrayForEach(e, obj(doc, "transactions"))
    {
        struct iom_imp_txn t;
        memset(&t, 0, sizeof(t));
        snprintf(t.name, sizeof(t.name), "%s",
                 e->string ? e->string : iom_json_str(e, "name", "?"));
        t.calls = iom_json_num(e, "calls", NAN);
        t.mean_ms = iom_json_num(e, "mean_ms", NAN);
        if (isnan(t.mean_ms))
            t.mean_ms = iom_json_num(e, "avg_ms", NAN);
        t.p50_ms = iom_json_num(e, "p50_ms", NAN);
        t.p95_ms = iom_json_num(e, "p95_ms", NAN);
        t.p99_ms = iom_json_num(e, "p99_ms", NAN);
        t.max_ms = iom_json_num(e, "max_ms", NAN);
        if (iom_imp_add_txn(run, &t))
            return -ENOMEM;
    }
    return 0;
}

/* Every test's read, then every test's write, each in the document's (the
 * preset's) order: mark's run order and CrystalDiskMark's text export
 * ([Read], then [Write]). */
static int parse_mark(const cJSON *doc, struct iom_imp_result *res)
{
    const cJSON *t;
    bool multi = false;
    for (int d = 0; d < 2; d++) {
        cJSON_ArrayForEach(t, obj(doc, "tests"))
        {
            const cJSON *dir = obj(t, d ? "write" : "read");
            if (!cJSON_IsObject(dir))
                continue;
            const cJSON *each = obj(dir, "each_run");
            int n = cJSON_GetArraySize(each), counted = 0;
            for (int k = 0; k < n; k++)
                counted += !cJSON_IsFalse(obj(cJSON_GetArrayItem(each, k), "counted"));
            if (n && !counted)
                continue;
            char name[96];
            snprintf(name, sizeof(name), "%s %s", iom_json_str(t, "name", "test"),
                     d ? "write" : "read");
            struct iom_imp_workload *w = iom_imp_add_workload(res, name);
            if (!w)
                return -ENOMEM;
            w->threads = iom_imp_count(iom_json_num(t, "threads", NAN));
            w->iodepth = iom_imp_count(iom_json_num(t, "iodepth", NAN));
            snprintf(w->target, sizeof(w->target), "%s",
                     iom_json_str(obj(doc, "target"), "path", ""));
            const cJSON *src = dir;
            int kept = 0;
            for (int k = 0; k < (n ? n : 1); k++) {
                if (n) {
                    src = cJSON_GetArrayItem(each, k);
                    if (cJSON_IsFalse(obj(src, "counted")))
                        continue;
                }
                struct iom_imp_run *run = kept++ == 0 ? &w->runs[0] : iom_imp_add_run(w);
                if (!run)
                    return -ENOMEM;
                struct iom_imp_dir *x = &run->dir[d];
                x->mb_per_s = iom_json_num(src, "mb_per_s", NAN);
                x->mib_per_s = iom_json_num(src, "mib_per_s", NAN);
                x->iops = iom_json_num(src, "iops", NAN);
                x->lat_mean_us = iom_json_num(src, "lat_mean_us", NAN);
                x->lat_p99_us = iom_json_num(src, "lat_p99_us", NAN);
                x->ios = iom_json_num(src, "ios", NAN);
                run->runtime_s = iom_json_num(src, "measured_s", NAN);
                run->dir[1 - d].iops = run->dir[1 - d].mb_per_s = run->dir[1 - d].mib_per_s = 0;
                run->dir[1 - d].ios = 0;
                iom_imp_make_total(run);
            }
            multi |= kept > 1;
        }
    }
    /* mark's own table shows one figure per test (the best counted run by
     * default, docs/mark.md); a comparison pools the counted runs, so its
     * figures differ from that table unless it says so */
    if (multi && strcmp(iom_json_str(doc, "selection", "best"), "mean") != 0)
        iom_imp_note(res, "each test's figures here are the mean of its counted runs "
                          "(with their spread); mark's own table shows the best run");
    return 0;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    (void)len;
    cJSON *doc = cJSON_Parse(iom_imp_json_start(text));
    if (!doc) {
        snprintf(err, errlen, "the JSON document does not parse (truncated?)");
        return -EINVAL;
    }
    const char *type = iom_json_str(doc, "type", "run");
    snprintf(res->kind, sizeof(res->kind), "%s", type);
    snprintf(res->tool, sizeof(res->tool), "iomark %s", iom_json_str(doc, "iomark_version", "?"));
    int rc = refuse_error(doc, err, errlen);
    if (rc)
        goto out;
    if (strcmp(type, "run") == 0) {
        struct iom_imp_workload *w =
            iom_imp_add_workload(res, iom_json_str(obj(doc, "spec"), "name", "run"));
        rc = w ? read_run(doc, &w->runs[0]) : -ENOMEM;
        if (w)
            run_names(doc, w);
        note_status(doc, res);
    } else if (strcmp(type, "repeat") == 0) {
        const cJSON *runs = obj(doc, "runs");
        const cJSON *first = cJSON_GetArrayItem(runs, 0);
        if (!first) {
            snprintf(err, errlen, "repeat document without runs");
            rc = -EINVAL;
            goto out;
        }
        struct iom_imp_workload *w =
            iom_imp_add_workload(res, iom_json_str(obj(first, "spec"), "name", "run"));
        if (!w) {
            rc = -ENOMEM;
            goto out;
        }
        run_names(first, w);
        int k = 0, whole = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, runs) whole +=
            strcmp(iom_json_str(r, "status", "ok"), "interrupted") != 0;
        cJSON_ArrayForEach(r, runs)
        {
            /* an interrupted run is kept out of the pooled runs, as the
             * repeat summary does, unless no run completed */
            if (whole && strcmp(iom_json_str(r, "status", "ok"), "interrupted") == 0)
                continue;
            if ((rc = refuse_error(r, err, errlen)))
                goto out;
            struct iom_imp_run *run = k++ == 0 ? &w->runs[0] : iom_imp_add_run(w);
            if (!run || (rc = read_run(r, run))) {
                rc = rc ? rc : -ENOMEM;
                goto out;
            }
            note_status(r, res);
        }
    } else if (strcmp(type, "mark") == 0) {
        rc = parse_mark(doc, res);
    } else if (strcmp(type, "sweep") == 0) {
        snprintf(res->sweep_status, sizeof(res->sweep_status), "%s", iom_json_str(doc, "status", ""));
        res->sweep_knee_pct = iom_json_num(doc, "knee_min_gain_pct", 0);
        const cJSON *p;
        cJSON_ArrayForEach(p, obj(doc, "points"))
        {
            char name[96];
            int th = iom_imp_count(iom_json_num(p, "threads", NAN)),
                qd = iom_imp_count(iom_json_num(p, "iodepth", NAN));
            const char *tg = iom_json_str(p, "target", "");
            snprintf(name, sizeof(name), "%s T%d Q%d", tg, th, qd);
            struct iom_imp_workload *w = iom_imp_add_workload(res, name);
            if (!w) {
                rc = -ENOMEM;
                goto out;
            }
            w->threads = th;
            w->iodepth = qd;
            snprintf(w->target, sizeof(w->target), "%s", tg);
            w->is_knee = cJSON_IsTrue(obj(p, "knee"));
            w->is_knee_base = cJSON_IsTrue(obj(p, "knee_base"));
            if ((rc = read_run(obj(p, "result"), &w->runs[0])))
                goto out;
        }
    } else if (strcmp(type, "tpcc") == 0) {
        struct iom_imp_workload *w = iom_imp_add_workload(res, iom_json_str(doc, "name", "tpcc"));
        if (!w) {
            rc = -ENOMEM;
            goto out;
        }
        w->is_tpcc = 1;
        double vu = iom_json_num(doc, "vu", NAN);
        w->threads = iom_imp_count(vu);
        const cJSON *runs = obj(doc, "runs");
        if (cJSON_GetArraySize(runs) > 0) {
            int k = 0;
            const cJSON *r;
            cJSON_ArrayForEach(r, runs)
            {
                struct iom_imp_run *run = k++ == 0 ? &w->runs[0] : iom_imp_add_run(w);
                if (!run || (rc = read_tpcc(r, run))) {
                    rc = rc ? rc : -ENOMEM;
                    goto out;
                }
            }
        } else {
            rc = read_tpcc(doc, &w->runs[0]);
        }
        if (!rc && isnan(w->runs[0].nopm) && isnan(w->runs[0].tpm) && w->runs[0].nr_txn == 0) {
            snprintf(err, errlen, "tpcc document without nopm, tpm or transactions");
            rc = -EINVAL;
        }
    } else {
        snprintf(err, errlen, "document type \"%s\" holds no comparable result", type);
        rc = -EINVAL;
    }
    if (!rc && strcmp(type, "run") != 0 && strcmp(type, "repeat") != 0)
        note_status(doc, res); /* mark, sweep, tpcc stopped early */
out:
    cJSON_Delete(doc);
    return rc;
}

const struct iom_importer iom_import_iomark = {"iomark", probe, parse};
