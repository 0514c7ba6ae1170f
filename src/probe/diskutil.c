/* diskutil.c - fio's disk_util figures of a job file run (see diskutil.h). */
#include "probe/diskutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the whole disk of block name `name`: the parent folder of a partition (one
 * with a "partition" file) under ROOT/sys/class/block, else the name itself */
static void whole_disk(const char *root, const char *name, char *out, size_t len)
{
    char p[PATH_MAX], real[PATH_MAX];
    struct stat st;
    snprintf(out, len, "%s", name);
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/partition", root, name);
    if (stat(p, &st) != 0)
        return;
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/..", root, name);
    if (!realpath(p, real))
        return;
    const char *b = strrchr(real, '/');
    snprintf(out, len, "%s", b ? b + 1 : real);
}

void iom_diskutil_start(struct iom_diskutil *du, const char *root, const char *const *names,
                        uint32_t nr, uint64_t t0_ns)
{
    memset(du, 0, sizeof(*du));
    du->t0_ns = t0_ns;
    for (uint32_t i = 0; i < nr && du->n < IOM_DISKUTIL_MAX; i++) {
        if (!names[i] || !names[i][0])
            continue;
        char d[32];
        whole_disk(root, names[i], d, sizeof(d));
        uint32_t k = 0;
        while (k < du->n && strcmp(du->name[k], d) != 0)
            k++;
        if (k < du->n || iom_diskstats_read(root, d, &du->start[du->n]) != 0)
            continue;
        snprintf(du->name[du->n++], sizeof(du->name[0]), "%s", d);
    }
}

uint32_t iom_diskutil_end(const struct iom_diskutil *du, const char *root, uint64_t now_ns,
                          struct iom_diskutil_row *rows)
{
    uint32_t n = 0;
    double ms = now_ns > du->t0_ns ? (double)(now_ns - du->t0_ns) / 1e6 : 0;
    for (uint32_t k = 0; k < du->n; k++) {
        struct iom_diskstats e;
        const struct iom_diskstats *s = &du->start[k];
        if (iom_diskstats_read(root, du->name[k], &e) != 0)
            continue;
        struct iom_diskutil_row *r = &rows[n++];
        memset(r, 0, sizeof(*r));
        snprintf(r->name, sizeof(r->name), "%s", du->name[k]);
        r->ios[0] = e.rd_ios - s->rd_ios;
        r->ios[1] = e.wr_ios - s->wr_ios;
        r->merges[0] = e.rd_merges - s->rd_merges;
        r->merges[1] = e.wr_merges - s->wr_merges;
        r->ticks[0] = e.rd_ticks_ms - s->rd_ticks_ms;
        r->ticks[1] = e.wr_ticks_ms - s->wr_ticks_ms;
        r->in_queue = e.time_in_queue_ms - s->time_in_queue_ms;
        r->util = ms > 0 ? 100.0 * (double)(e.io_ticks_ms - s->io_ticks_ms) / ms : 0;
        if (r->util > 100.0)
            r->util = 100.0;
    }
    return n;
}
