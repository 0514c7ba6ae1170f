/*
 * import_cdm_text.c - CrystalDiskMark (7.x/8.x) and KDiskMark text reports.
 *
 *   [Read]
 *     SEQ    1MiB (Q=  8, T= 1):   534.383 MB/s [    509.6 IOPS] < 15662.75 us>
 *    Sequential 1 MiB (Q= 8, T= 1):   542.516 MB/s [    529.8 IOPS] < 14415.61 us>   (KDiskMark)
 *
 * Each row becomes a workload named as iomark mark names its tests
 * ("SEQ1M Q8T1 read", "RND4K Q32T16 write") so reports of the three tools
 * compare row by row. MB/s is 10^6 bytes/s (the report's own legend);
 * MiB/s is derived. The latency is the mean in us. The figures are the
 * tool's mean (or best, for Peak/Real World profiles) of its runs; the
 * single runs are not in the report.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static int probe(const char *text, size_t len)
{
    (void)len;
    return (strstr(text, "CrystalDiskMark") || strstr(text, "KDiskMark")) &&
           strstr(text, "[Read]") && strstr(text, "MB/s [");
}

/* "1MiB" / "1 MiB" / "4KiB" / "128 KiB" -> "1M", "4K", "128K". */
static int size_tag(const char *p, char *out, size_t len)
{
    char *e;
    double v = strtod(p, &e);
    if (e == p)
        return -1;
    while (*e == ' ')
        e++;
    char unit = *e == 'M' || *e == 'K' || *e == 'G' ? *e : 0;
    if (!unit)
        return -1;
    snprintf(out, len, "%g%c", v, unit);
    return 0;
}

static int parse_row(const char *l, const char *le, int write, struct iom_imp_result *res)
{
    const char *t = l;
    while (*t == ' ')
        t++;
    const char *kind;
    if (strncmp(t, "SEQ", 3) == 0 || strncmp(t, "Sequential", 10) == 0)
        kind = "SEQ";
    else if (strncmp(t, "RND", 3) == 0 || strncmp(t, "Random", 6) == 0)
        kind = "RND";
    else
        return 0;
    while (*t && *t != ' ')
        t++;
    while (*t == ' ')
        t++;
    char sz[16];
    if (size_tag(t, sz, sizeof(sz)))
        return 0;
    const char *q = strstr(t, "(Q="), *th = strstr(t, "T=");
    const char *mb = strstr(t, "):");
    if (!q || !th || !mb || mb > le)
        return 0;
    int qd = atoi(q + 3), nt = atoi(th + 2);
    char *e;
    double mbps = strtod(mb + 2, &e);
    const char *br = strchr(e, '['), *lt = strchr(e, '<');
    if (e == mb + 2 || !br || br > le)
        return 0;
    char name[96];
    snprintf(name, sizeof(name), "%s%s Q%dT%d %s", kind, sz, qd, nt, write ? "write" : "read");
    struct iom_imp_workload *w = iom_imp_add_workload(res, name);
    if (!w)
        return -ENOMEM;
    w->threads = nt;
    w->iodepth = qd;
    struct iom_imp_run *run = &w->runs[0];
    struct iom_imp_dir *d = &run->dir[write];
    d->mb_per_s = mbps;
    d->mib_per_s = mbps * 1e6 / 1048576.0;
    d->iops = strtod(br + 1, NULL);
    if (lt && lt < le)
        d->lat_mean_us = strtod(lt + 1, NULL);
    struct iom_imp_dir *o = &run->dir[1 - write];
    o->iops = o->mb_per_s = o->mib_per_s = 0; /* the other direction; sample counts unknown */
    iom_imp_make_total(run);
    run->dir[2].lat_mean_us = d->lat_mean_us;
    return 0;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    (void)len;
    const char *c = strstr(text, "CrystalDiskMark"), *k = strstr(text, "KDiskMark");
    const char *name = c && (!k || c < k) ? c : k;
    if (!name) {
        snprintf(err, errlen, "not a CrystalDiskMark or KDiskMark text report");
        return -EINVAL;
    }
    size_t n = strcspn(name, "\r\n:");
    /* "CrystalDiskMark 8.0.1 x64 (C) ..." -> up to "(C)"; "KDiskMark (1.6.0)" */
    const char *cc = strstr(name, " (C)");
    if (cc && (size_t)(cc - name) < n)
        n = (size_t)(cc - name);
    while (n > 0 && name[n - 1] == ' ')
        n--;
    snprintf(res->tool, sizeof(res->tool), "%.*s", (int)(n < 60 ? n : 60), name);
    if (name == k)
        snprintf(res->format, sizeof(res->format), "kdiskmark-text");
    int write = -1;
    for (const char *l = text; *l;) {
        const char *le = strchr(l, '\n');
        if (!le)
            le = l + strlen(l);
        if (strncmp(l, "[Read]", 6) == 0)
            write = 0;
        else if (strncmp(l, "[Write]", 7) == 0)
            write = 1;
        else if (l[0] == '[' || strncmp(l, "Profile:", 8) == 0)
            write = -1;
        else if (write >= 0 && parse_row(l, le, write, res))
            return -ENOMEM;
        l = *le ? le + 1 : le;
    }
    if (res->nr_workloads == 0) {
        snprintf(err, errlen, "no test rows under [Read] or [Write]");
        return -EINVAL;
    }
    return 0;
}

const struct iom_importer iom_import_cdm_text = {"crystaldiskmark-text", probe, parse};
