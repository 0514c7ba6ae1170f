/* fio_head.c - the top of the fio-style JSON document (see fio.h): fio 3.33
 * stat.c __show_run_stats' "fio version", "timestamp", "timestamp_ms", "time"
 * and "global options". */
#include "report/fio.h"

#include <stdio.h>
#include <time.h>

/* Without a clock from the caller: the end of the last result's phases, and the
 * time since the earliest result's start (ms). */
static struct iom_fio_clock results_clock(const struct iom_fio_file *ff,
                                          struct iom_result *const *res)
{
    struct iom_fio_clock c = {0, 0};
    uint64_t first = 0;
    for (uint32_t i = 0; i < ff->nr_jobs; i++) {
        if (!res[i])
            continue;
        const struct iom_result *r = res[i];
        uint64_t s = r->start_ms ? r->start_ms : (uint64_t)r->start_time * 1000;
        uint64_t e = s + (r->warmup_ns + r->measured_ns + r->cooldown_ns) / 1000000;
        first = !first || s < first ? s : first;
        c.wall_ms = e > c.wall_ms ? e : c.wall_ms;
    }
    c.elapsed_ms = c.wall_ms - first;
    return c;
}

uint64_t iom_fio_json_head(cJSON *doc, const struct iom_fio_file *ff, struct iom_result *const *res,
                           const struct iom_fio_clock *clock)
{
    struct iom_fio_clock ck = clock ? *clock : results_clock(ff, res);
    time_t t0 = (time_t)(ck.wall_ms / 1000);
    char vers[64], when[64] = "";
    snprintf(vers, sizeof(vers), "iomark-%s", IOMARK_VERSION);
    cJSON_AddStringToObject(doc, "fio version", vers);
    cJSON_AddNumberToObject(doc, "timestamp", (double)t0);
    cJSON_AddNumberToObject(doc, "timestamp_ms", (double)ck.wall_ms);
    struct tm tm;
    if (localtime_r(&t0, &tm))
        strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
    cJSON_AddStringToObject(doc, "time", when);
    cJSON *go = ff->nr_global ? cJSON_AddObjectToObject(doc, "global options") : NULL;
    for (uint32_t i = 0; go && i < ff->nr_global; i++) {
        cJSON_DeleteItemFromObject(go, ff->global[i].name);
        cJSON_AddStringToObject(go, ff->global[i].name, ff->global[i].value);
    }
    return ck.elapsed_ms;
}
