/* fio_ss.c - fio's steady-state output (report/fio.h; fio 3.33 stat.c). */
#include "report/fio.h"

#include <stdlib.h>

#include "stats/steady.h"

/* fio's steady-state line (stat.c show_ss_normal): the window's means, bw as
 * num2str(mean / 1024) in KiB and, as fio, the same count labelled kB */
void iom_fio_ss_text(FILE *f, const struct iom_ss *ss)
{
    char bw[32], bwalt[32], iops[32];
    uint64_t kib = iom_ss_bw_mean(ss) / 1024;
    iom_fio_num2str(kib * 1024, 4, 1, "B/s", bw, sizeof(bw));
    iom_fio_num2str(kib * 1000, 4, 0, "B/s", bwalt, sizeof(bwalt));
    iom_fio_num2str(iom_ss_iops_mean(ss), 4, 0, "", iops, sizeof(iops));
    fprintf(f, "  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
            ss->attained ? "yes" : "no", bw, bwalt, iops, ss->state & IOM_SS_IOPS ? "iops" : "bw",
            ss->state & IOM_SS_SLOPE ? " slope" : " mean dev", ss->criterion,
            ss->state & IOM_SS_PCT ? "%" : "");
}

/* fio's "steadystate" object (stat.c show_thread_status_json) */
void iom_fio_ss_json(cJSON *j, const struct iom_ss *ss)
{
    char buf[64];
    cJSON *o = cJSON_AddObjectToObject(j, "steadystate");
    uint64_t *iops = calloc(ss->dur, sizeof(*iops)), *bw = calloc(ss->dur, sizeof(*bw));
    if (!o || !iops || !bw) {
        free(iops);
        free(bw);
        return;
    }
    iom_ss_name(ss->state, ss->limit, buf, sizeof(buf));
    cJSON_AddStringToObject(o, "ss", buf);
    cJSON_AddNumberToObject(o, "duration", ss->dur);
    cJSON_AddNumberToObject(o, "attained", ss->attained);
    snprintf(buf, sizeof(buf), "%f%s", (float)ss->criterion, ss->state & IOM_SS_PCT ? "%" : "");
    cJSON_AddStringToObject(o, "criterion", buf);
    cJSON_AddNumberToObject(o, "max_deviation", ss->deviation);
    cJSON_AddNumberToObject(o, "slope", ss->slope);
    cJSON *d = cJSON_AddObjectToObject(o, "data");
    iom_ss_data(ss, iops, bw);
    cJSON_AddNumberToObject(d, "bw_mean", (double)iom_ss_bw_mean(ss));
    cJSON_AddNumberToObject(d, "iops_mean", (double)iom_ss_iops_mean(ss));
    cJSON *ai = cJSON_AddArrayToObject(d, "iops"), *ab = cJSON_AddArrayToObject(d, "bw");
    for (uint32_t i = 0; i < ss->dur; i++) {
        cJSON_AddItemToArray(ai, cJSON_CreateNumber((double)iops[i]));
        cJSON_AddItemToArray(ab, cJSON_CreateNumber((double)bw[i]));
    }
    free(iops);
    free(bw);
}
