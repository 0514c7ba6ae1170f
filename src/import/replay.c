/* replay.c - an iomark result's spec back as a job (see replay.h). */
#include "import/replay.h"

#include <cjson/cJSON.h>
#include <errno.h>
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
    unsigned repeat;
    return iom_replay_load_doc(path, job, &repeat, err, errlen);
}

int iom_replay_load_doc(const char *path, struct iom_job *job, unsigned *repeat, char *err,
                        size_t errlen)
{
    *repeat = 0;
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
    if (!spec && cJSON_IsString(type) && strcmp(type->valuestring, "repeat") == 0) {
        /* a --repeat document: the workload its runs ran, from run 1 */
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(doc, "repeat");
        const cJSON *runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
        spec = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(runs, 0), "spec");
        *repeat = cJSON_IsNumber(n) && n->valuedouble >= 1 ? (unsigned)n->valuedouble : 1;
    }
    if (!cJSON_IsObject(spec)) {
        snprintf(err, errlen, "%s: not an iomark run result (no JSON document with a \"spec\")",
                 path);
        cJSON_Delete(doc);
        return -EINVAL;
    }
    rc = apply(path, spec, job, err, errlen);
    cJSON_Delete(doc);
    return rc;
}
