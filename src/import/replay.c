/* replay.c - an iomark result's spec back as a job (see replay.h). */
#include "import/replay.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "workload/options.h"

static int read_all(const char *path, char **out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *b = cap < (SIZE_MAX >> 2) ? realloc(buf, cap * 2 + 1) : NULL;
        if (!b) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = b;
        cap *= 2;
    }
    int rc = ferror(f) ? -EIO : 0;
    fclose(f);
    if (!buf)
        return -ENOMEM;
    buf[n] = '\0';
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    return 0;
}

static int apply(const char *path, const cJSON *spec, struct iom_job *job, char *err, size_t errlen)
{
    const cJSON *opts = cJSON_GetObjectItemCaseSensitive(spec, "options");
    if (!cJSON_IsObject(opts)) {
        snprintf(err, errlen,
                 "%s: the result holds no spec.options (written by an iomark without --replay, "
                 "or not a run result)",
                 path);
        return -EINVAL;
    }
    struct iom_run_opts ro = {0};
    char why[512];
    for (const cJSON *o = opts->child; o; o = o->next) {
        if (cJSON_IsNull(o))
            continue; /* unset in the recorded run: the default */
        if (!cJSON_IsString(o) || !o->string) {
            snprintf(err, errlen, "%s: spec.options.%s: a string or null expected", path,
                     o->string ? o->string : "?");
            return -EINVAL;
        }
        if (iom_option_apply(o->string, o->valuestring, job, &ro, why, sizeof(why))) {
            snprintf(err, errlen, "%s: spec.options: %s", path, why);
            return -EINVAL;
        }
    }
    job->rwmix_given = false;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(spec, "targets");
    const cJSON *e;
    cJSON_ArrayForEach(e, t)
    {
        if (!cJSON_IsString(e)) {
            snprintf(err, errlen, "%s: spec.targets: file names expected", path);
            return -EINVAL;
        }
        if (iom_job_add_target(job, e->valuestring))
            return -ENOMEM;
    }
    return 0;
}

int iom_replay_load(const char *path, struct iom_job *job, char *err, size_t errlen)
{
    struct iom_replay_doc doc;
    return iom_replay_load_info(path, job, &doc, err, errlen);
}

/* Add v to the ascending distinct list l (n entries, at most max). */
static void list_add(unsigned *l, unsigned *n, unsigned max, unsigned v)
{
    unsigned i = 0;
    while (i < *n && l[i] < v)
        i++;
    if ((i < *n && l[i] == v) || *n >= max)
        return;
    memmove(l + i + 1, l + i, (*n - i) * sizeof(*l));
    l[i] = v;
    (*n)++;
}

/* One list of a sweep's "grid": 1..IOM_REPLAY_MAX_LIST whole numbers from 1
 * to 4096, kept ascending and distinct. -EINVAL when malformed. */
static int grid_list(const cJSON *a, unsigned *l, unsigned *n)
{
    const cJSON *e;
    *n = 0;
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) < 1 ||
        cJSON_GetArraySize(a) > IOM_REPLAY_MAX_LIST)
        return -EINVAL;
    cJSON_ArrayForEach(e, a)
    {
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 1 && e->valuedouble <= 4096) ||
            e->valuedouble != (double)(unsigned)e->valuedouble)
            return -EINVAL;
        list_add(l, n, IOM_REPLAY_MAX_LIST, (unsigned)e->valuedouble);
    }
    return 0;
}

/* A sweep document's plan: planned points, targets, grid, knee. */
static int sweep_info(const char *path, const cJSON *d, const cJSON *spec,
                      struct iom_replay_doc *doc, char *err, size_t errlen)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(d, "planned_points");
    const cJSON *knee = cJSON_GetObjectItemCaseSensitive(d, "knee_min_gain_pct");
    const cJSON *grid = cJSON_GetObjectItemCaseSensitive(d, "grid");
    int nt = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(spec, "targets"));
    doc->sweep_targets = nt > 0 ? (unsigned)nt : 1;
    doc->sweep_points = cJSON_IsNumber(n) && n->valuedouble >= 1 ? (unsigned)n->valuedouble : 1;
    doc->knee_pct = cJSON_IsNumber(knee) ? knee->valuedouble : 0;
    if (grid) {
        if (grid_list(cJSON_GetObjectItemCaseSensitive(grid, "threads"), doc->threads,
                      &doc->nthreads) ||
            grid_list(cJSON_GetObjectItemCaseSensitive(grid, "iodepth"), doc->iodepth,
                      &doc->niodepth)) {
            snprintf(err, errlen, "%s: grid: \"threads\" and \"iodepth\" must each be 1 to %d "
                     "whole numbers from 1 to 4096", path, IOM_REPLAY_MAX_LIST);
            return -EINVAL;
        }
        return 0;
    }
    /* older documents: the grid the points (and a dropped one) show, if whole */
    const cJSON *p;
    const cJSON *pts = cJSON_GetObjectItemCaseSensitive(d, "points");
    const cJSON *drop = cJSON_GetObjectItemCaseSensitive(d, "dropped_point");
    for (p = pts ? pts->child : NULL;; p = p->next) {
        const cJSON *pt = p ? p : drop;
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(pt, "threads");
        const cJSON *q = cJSON_GetObjectItemCaseSensitive(pt, "iodepth");
        if (cJSON_IsNumber(t) && cJSON_IsNumber(q) && t->valuedouble >= 1 &&
            t->valuedouble <= 4096 && q->valuedouble >= 1 && q->valuedouble <= 4096) {
            list_add(doc->threads, &doc->nthreads, IOM_REPLAY_MAX_LIST, (unsigned)t->valuedouble);
            list_add(doc->iodepth, &doc->niodepth, IOM_REPLAY_MAX_LIST, (unsigned)q->valuedouble);
        }
        if (!p)
            break;
    }
    if (doc->nthreads * doc->niodepth * doc->sweep_targets != doc->sweep_points)
        doc->nthreads = doc->niodepth = 0;
    return 0;
}

int iom_replay_load_info(const char *path, struct iom_job *job, struct iom_replay_doc *info,
                         char *err, size_t errlen)
{
    memset(info, 0, sizeof(*info));
    char *text = NULL;
    int rc = read_all(path, &text);
    if (rc) {
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return rc;
    }
    const char *start = iom_imp_json_start(text);
    cJSON *doc = start ? cJSON_Parse(start) : NULL;
    free(text);
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(doc, "spec");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(doc, "type");
    bool is_type = cJSON_IsString(type);
    if (!spec && is_type && strcmp(type->valuestring, "repeat") == 0) {
        /* a --repeat document: the workload its runs ran, from run 1 */
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(doc, "repeat");
        const cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
        spec = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(runs, 0), "spec");
        info->repeat = cJSON_IsNumber(n) && n->valuedouble >= 1 ? (unsigned)n->valuedouble : 1;
    }
    if (!cJSON_IsObject(spec) && is_type) { /* mark, tpcc, compare, lab, ...: no one workload */
        snprintf(err, errlen, "%s: an iomark %s document has no workload to replay; --replay takes "
                 "the JSON of iomark run, run --repeat or sweep", path, type->valuestring);
        cJSON_Delete(doc);
        return -EINVAL;
    }
    if (!cJSON_IsObject(spec)) {
        snprintf(err, errlen, "%s: not an iomark run result (no JSON document with a \"spec\")",
                 path);
        cJSON_Delete(doc);
        return -EINVAL;
    }
    rc = is_type && strcmp(type->valuestring, "sweep") == 0
             ? sweep_info(path, doc, spec, info, err, errlen)
             : 0;
    if (!rc)
        rc = apply(path, spec, job, err, errlen);
    cJSON_Delete(doc);
    return rc;
}
