/* fio_block.c - fio's block error histogram output (report/fio.h; fio 3.33
 * stat.c show_block_infos and the "block" object of show_thread_status_json). */
#include "report/fio.h"

#include <stdlib.h>
#include <string.h>

#include "stats/blockinfo.h"

#define MAX_PCTS 64

/* the percentiles of th's blocks at fj's list: how many (0: every block unwritten) */
static uint32_t calc(const struct iom_thread_result *th, const struct iom_fio_job *fj,
                     const double **plist, uint32_t pct[MAX_PCTS],
                     uint32_t states[IOM_BLOCK_STATES])
{
    size_t np;
    *plist = iom_fio_pct_list(fj, &np);
    return iom_block_percentiles(th->block_infos, th->nr_block_infos, *plist,
                                 np > MAX_PCTS ? MAX_PCTS : (uint32_t)np, pct, states);
}

void iom_fio_block_text(FILE *f, const struct iom_thread_result *th, const struct iom_fio_job *fj)
{
    uint32_t pct[MAX_PCTS], states[IOM_BLOCK_STATES] = {0};
    const double *plist;
    uint32_t len = calc(th, fj, &plist, pct, states);
    if (!len) /* fio then leaves its counts unset; iomark counts them (all unwritten) */
        states[IOM_BLOCK_UNINIT] = th->nr_block_infos;
    fprintf(f, "  block lifetime percentiles :\n   |");
    int pos = 0;
    for (uint32_t i = 0; i < len; i++) {
        char s[75]; /* fio's LINE_LENGTH */
        int l = snprintf(s, sizeof(s), " %3.2fth=%u%c", plist[i], pct[i], i == len - 1 ? '\n' : ',');
        if (pos + l > 75) {
            pos = 0;
            fprintf(f, "\n   |");
        }
        fputs(s, f);
        pos += l;
    }
    fprintf(f, "        states               :");
    for (int s = 0; s < IOM_BLOCK_STATES; s++)
        fprintf(f, " %s=%u%c", iom_block_state_names[s], states[s],
                s == IOM_BLOCK_STATES - 1 ? '\n' : ',');
}

void iom_fio_block_json(cJSON *j, const struct iom_thread_result *th, const struct iom_fio_job *fj)
{
    uint32_t pct[MAX_PCTS], states[IOM_BLOCK_STATES];
    const double *plist;
    uint32_t len = calc(th, fj, &plist, pct, states);
    if (!len)
        return;
    cJSON *b = cJSON_AddObjectToObject(j, "block");
    cJSON *p = b ? cJSON_AddObjectToObject(b, "percentiles") : NULL;
    cJSON *st = b ? cJSON_AddObjectToObject(b, "states") : NULL;
    if (!p || !st)
        return;
    for (uint32_t i = 0; i < len; i++) {
        char key[32];
        snprintf(key, sizeof(key), "%f", plist[i]);
        cJSON_AddNumberToObject(p, key, pct[i]);
    }
    for (int s = 0; s < IOM_BLOCK_STATES; s++)
        cJSON_AddNumberToObject(st, iom_block_state_names[s], states[s]);
}
