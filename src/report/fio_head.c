/* fio_head.c - the top of the fio-style JSON document (see fio.h): fio 3.33
 * stat.c __show_run_stats' "fio version", "timestamp", "timestamp_ms", "time"
 * and "global options"; and an entry's I/O depth distributions. */
#include "report/fio.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

/* Without a clock from the caller: the end of the last result's phases, and the
 * time since the earliest result's start (ms). */
static struct iom_fio_clock results_clock(const struct iom_fio_file *ff,
                                          struct iom_result *const *res)
{
    struct iom_fio_clock c;
    memset(&c, 0, sizeof(c));
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

/* fio stat.c stat_calc_dist: each bucket's share of total in %, at most 100 */
static void dist_obj(cJSON *j, const char *key, const uint64_t *map, uint64_t total, bool level)
{
    cJSON *o = cJSON_AddObjectToObject(j, key);
    for (int i = 0; o && i < IOM_DEPTH_BUCKETS; i++) {
        char name[20];
        if (i == IOM_DEPTH_BUCKETS - 1)
            snprintf(name, sizeof(name), ">=%d", 1 << i);
        else if (level)
            snprintf(name, sizeof(name), "%d", 1 << i);
        else
            snprintf(name, sizeof(name), "%d", i ? 1 << (i + 1) : 0);
        double v = total ? (double)map[i] / (double)total * 100.0 : 0.0;
        cJSON_AddNumberToObject(o, name, v > 100.0 ? 100.0 : v);
    }
}

void iom_fio_depth_json(cJSON *j, const struct iom_depth_map *m)
{
    if (!m->submits) /* nothing counted (no I/O, or a result without the counts) */
        return;
    dist_obj(j, "iodepth_level", m->level, m->ios, true);
    dist_obj(j, "iodepth_submit", m->submit, m->submits, false);
    dist_obj(j, "iodepth_complete", m->complete, m->completes, false);
}

void iom_fio_disk_util_json(cJSON *doc, const struct iom_diskutil_row *rows, uint32_t n)
{
    cJSON *a = n ? cJSON_AddArrayToObject(doc, "disk_util") : NULL;
    for (uint32_t i = 0; a && i < n; i++) {
        const struct iom_diskutil_row *r = &rows[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(a, o);
        cJSON_AddStringToObject(o, "name", r->name);
        cJSON_AddNumberToObject(o, "read_ios", (double)r->ios[0]);
        cJSON_AddNumberToObject(o, "write_ios", (double)r->ios[1]);
        cJSON_AddNumberToObject(o, "read_merges", (double)r->merges[0]);
        cJSON_AddNumberToObject(o, "write_merges", (double)r->merges[1]);
        cJSON_AddNumberToObject(o, "read_ticks", (double)r->ticks[0]);
        cJSON_AddNumberToObject(o, "write_ticks", (double)r->ticks[1]);
        cJSON_AddNumberToObject(o, "in_queue", (double)r->in_queue);
        cJSON_AddNumberToObject(o, "util", r->util);
    }
}
