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

static int probe(const char *text, size_t len)
{
    (void)len;
    const char *j = iom_imp_json_start(text);
    return j && strstr(j, "\"iomark-result\"");
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const cJSON *obj(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str(const cJSON *o, const char *key, const char *dflt);
static void unset_idle_dirs(const cJSON *doc, struct iom_imp_run *run);

static void read_stats(const cJSON *s, struct iom_imp_dir *d)
{
    if (!cJSON_IsObject(s))
        return;
    d->ios = num(s, "ios");
    d->iops = num(s, "iops");
    d->mb_per_s = num(s, "mb_per_s");
    d->mib_per_s = num(s, "mib_per_s");
    const cJSON *lat = obj(s, "lat_us");
    if (d->ios > 0 && lat) {
        d->lat_mean_us = num(lat, "mean");
        d->lat_max_us = num(lat, "max");
        d->lat_p99_us = num(obj(lat, "percentiles"), "99");
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
    run->runtime_s = num(obj(doc, "duration"), "measured_s");
    const cJSON *cpu = obj(doc, "cpu");
    double u = num(cpu, "user_pct"), s = num(cpu, "system_pct");
    if (!isnan(u) && !isnan(s) && num(cpu, "nr_cpus") > 0)
        run->cpu_pct = u + s;
    double pu = num(cpu, "process_user_s"), ps = num(cpu, "process_system_s");
    if (!isnan(pu) && !isnan(ps) && run->runtime_s > 0)
        run->cpu_proc_pct = (pu + ps) / run->runtime_s * 100.0;
    run->iops_per_cpu_pct = num(cpu, "iops_per_cpu_pct");
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
            if (!(num(tt, "ios") > 0))
                continue;
            cJSON_ArrayForEach(e, obj(obj(tt, "lat_us"), "percentiles"))
            {
                if (e->string && cJSON_IsNumber(e) &&
                    iom_imp_add_target_pct(run, str(t, "path", "?"), strtod(e->string, NULL),
                                           e->valuedouble))
                    return -ENOMEM;
            }
        }
    }
    cJSON_ArrayForEach(e, obj(obj(doc, "series"), "points"))
    {
        struct iom_imp_point p = {num(e, "t_s"), num(e, "iops"), num(e, "lat_mean_us"),
                                  num(e, "lat_p99_us")};
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
    double nj = num(spec, "numjobs"), qd = num(spec, "iodepth");
    w->threads = iom_imp_count(nj);
    w->iodepth = iom_imp_count(qd);
    double bs = num(spec, "bs_bytes");
    if (bs > 0 && !cJSON_IsArray(obj(spec, "bssplit")))
        w->bs_bytes = (uint64_t)bs;
    const cJSON *rw = obj(spec, "rw");
    if (cJSON_IsString(rw))
        snprintf(w->rw, sizeof(w->rw), "%s", rw->valuestring);
}

static const char *str(const cJSON *o, const char *key, const char *dflt)
{
    const cJSON *v = obj(o, key);
    return cJSON_IsString(v) ? v->valuestring : dflt;
}

/* A run document with "status": "error" that measured no I/O is refused
 * with its "error" text; one that did is read with a note (below). */
static int refuse_error(const cJSON *doc, char *err, size_t errlen)
{
    if (strcmp(str(doc, "status", "ok"), "error") == 0 &&
        !(num(obj(obj(doc, "total"), "total"), "ios") > 0)) {
        snprintf(err, errlen, "the run failed: %s", str(doc, "error", "(no reason given)"));
        return -EINVAL;
    }
    return 0;
}

/* The note of a run document that did not complete, as the fio and DiskSpd
 * importers word it: "source run interrupted (SIGINT) after 1.5 s of 5 s"
 * (measured_s of spec.runtime_s; "of" left out without a time limit), or
 * "source run failed (ERROR) after ... ; its figures are up to the failure". */
static void note_status(const cJSON *doc, struct iom_imp_result *res)
{
    const char *st = str(doc, "status", "ok");
    int intr = strcmp(st, "interrupted") == 0;
    if (!intr && strcmp(st, "error") != 0)
        return;
    char why[200];
    snprintf(why, sizeof(why), "%s", intr ? str(doc, "interrupted_by", "signal")
                                          : str(doc, "error", "no reason given"));
    double ran = num(obj(doc, "duration"), "measured_s");
    double asked = num(obj(doc, "spec"), "runtime_s");
    const char *tail = intr ? "" : "; its figures are up to the failure";
    st = intr ? "interrupted" : "failed";
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
    double rp = num(obj(doc, "spec"), "rwmixread_pct");
    const char *rw = str(obj(doc, "spec"), "rw", "");
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
    run->nopm = num(doc, "nopm");
    run->tpm = num(doc, "tpm");
    run->runtime_s = num(doc, "measured_s");
    if (isnan(run->runtime_s))
        run->runtime_s = num(obj(doc, "duration"), "measured_s");
    run->cpu_pct = num(obj(doc, "cpu"), "busy_pct"); /* % of all CPUs */
    const cJSON *e;
    cJSON_ArrayForEach(e, obj(doc, "transactions"))
    {
        struct iom_imp_txn t;
        memset(&t, 0, sizeof(t));
        snprintf(t.name, sizeof(t.name), "%s", e->string ? e->string : str(e, "name", "?"));
        t.calls = num(e, "calls");
        t.mean_ms = num(e, "mean_ms");
        if (isnan(t.mean_ms))
            t.mean_ms = num(e, "avg_ms");
        t.p50_ms = num(e, "p50_ms");
        t.p95_ms = num(e, "p95_ms");
        t.p99_ms = num(e, "p99_ms");
        t.max_ms = num(e, "max_ms");
        if (iom_imp_add_txn(run, &t))
            return -ENOMEM;
    }
    return 0;
}

static int parse_mark(const cJSON *doc, struct iom_imp_result *res)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, obj(doc, "tests"))
    {
        for (int d = 0; d < 2; d++) {
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
            snprintf(name, sizeof(name), "%s %s", str(t, "name", "test"), d ? "write" : "read");
            struct iom_imp_workload *w = iom_imp_add_workload(res, name);
            if (!w)
                return -ENOMEM;
            w->threads = iom_imp_count(num(t, "threads"));
            w->iodepth = iom_imp_count(num(t, "iodepth"));
            snprintf(w->target, sizeof(w->target), "%s", str(obj(doc, "target"), "path", ""));
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
                x->mb_per_s = num(src, "mb_per_s");
                x->mib_per_s = num(src, "mib_per_s");
                x->iops = num(src, "iops");
                x->lat_mean_us = num(src, "lat_mean_us");
                x->lat_p99_us = num(src, "lat_p99_us");
                x->ios = num(src, "ios");
                run->runtime_s = num(src, "measured_s");
                run->dir[1 - d].iops = run->dir[1 - d].mb_per_s = run->dir[1 - d].mib_per_s = 0;
                run->dir[1 - d].ios = 0;
                iom_imp_make_total(run);
            }
        }
    }
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
    const char *type = str(doc, "type", "run");
    snprintf(res->kind, sizeof(res->kind), "%s", type);
    snprintf(res->tool, sizeof(res->tool), "iomark %s", str(doc, "iomark_version", "?"));
    int rc = refuse_error(doc, err, errlen);
    if (rc)
        goto out;
    if (strcmp(type, "run") == 0) {
        struct iom_imp_workload *w =
            iom_imp_add_workload(res, str(obj(doc, "spec"), "name", "run"));
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
            iom_imp_add_workload(res, str(obj(first, "spec"), "name", "run"));
        if (!w) {
            rc = -ENOMEM;
            goto out;
        }
        run_names(first, w);
        int k = 0, whole = 0;
        const cJSON *r;
        cJSON_ArrayForEach(r, runs)
            whole += strcmp(str(r, "status", "ok"), "interrupted") != 0;
        cJSON_ArrayForEach(r, runs)
        {
            /* an interrupted run is kept out of the pooled runs, as the
             * repeat summary does, unless no run completed */
            if (whole && strcmp(str(r, "status", "ok"), "interrupted") == 0)
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
        const cJSON *p;
        cJSON_ArrayForEach(p, obj(doc, "points"))
        {
            char name[96];
            int th = iom_imp_count(num(p, "threads")), qd = iom_imp_count(num(p, "iodepth"));
            const char *tg = str(p, "target", "");
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
            if ((rc = read_run(obj(p, "result"), &w->runs[0])))
                goto out;
        }
    } else if (strcmp(type, "tpcc") == 0) {
        struct iom_imp_workload *w = iom_imp_add_workload(res, str(doc, "name", "tpcc"));
        if (!w) {
            rc = -ENOMEM;
            goto out;
        }
        w->is_tpcc = 1;
        double vu = num(doc, "vu");
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
