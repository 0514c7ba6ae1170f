/*
 * options_prio.c - the native options of fio's per-I/O priorities (fio 3.33
 * engines/cmdprio.h option table, HOWTO "cmdprio_percentage", "cmdprio_class",
 * "cmdprio", "cmdprio_bssplit"): cmdprio_percentage, cmdprio_class, cmdprio and
 * cmdprio_bssplit, each READ[,WRITE] (one value applies to reads and writes; a
 * third, trim, value is ignored as fio ignores it), and their check.
 */
#include "workload/options_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/units.h"

/* "R[,W[,T]]" into parts[0..1] (one value: both); -1 for more than three parts
 * or a part of 1 KiB or more. */
static int split_rw(const char *v, char parts[2][1024])
{
    const char *c = strchr(v, ',');
    size_t n0 = c ? (size_t)(c - v) : strlen(v);
    if (n0 >= 1024)
        return -1;
    memcpy(parts[0], v, n0);
    parts[0][n0] = '\0';
    if (!c) {
        memcpy(parts[1], parts[0], n0 + 1);
        return 0;
    }
    const char *w = c + 1, *c2 = strchr(w, ',');
    size_t n1 = c2 ? (size_t)(c2 - w) : strlen(w);
    if (n1 >= 1024 || (c2 && strchr(c2 + 1, ',')))
        return -1;
    memcpy(parts[1], w, n1);
    parts[1][n1] = '\0';
    return 0;
}

/* cmdprio_percentage (0..100), cmdprio_class (1..3), cmdprio (0..7): READ[,WRITE] */
int iom_opt_set_cmdprio(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    bool pct = strcmp(o->name, "cmdprio_percentage") == 0;
    bool cls = strcmp(o->name, "cmdprio_class") == 0;
    uint64_t lo = cls ? 1 : 0, hi = pct ? 100 : cls ? 3 : 7;
    const char *allowed = pct   ? "a percentage of the I/Os from 0 to 100, READ[,WRITE]"
                          : cls ? "1 (real-time), 2 (best-effort) or 3 (idle), READ[,WRITE]"
                                : "a priority level from 0 (highest) to 7, READ[,WRITE]";
    char part[2][1024];
    uint64_t val[2];
    const char *why;
    if (!v || split_rw(v, part))
        return iom_opt_bad(err, errlen, o->name, v, allowed);
    for (int d = 0; d < 2; d++) {
        if (!part[d][0]) { /* empty: fio's default */
            val[d] = pct ? 0 : lo;
            continue;
        }
        if (iom_parse_u64(part[d], &val[d], &why) || val[d] < lo || val[d] > hi)
            return iom_opt_bad(err, errlen, o->name, v, allowed);
    }
    uint8_t *dst = pct ? job->cmdprio_pct : cls ? job->cmdprio_class : job->cmdprio_level;
    dst[0] = (uint8_t)val[0];
    dst[1] = (uint8_t)val[1];
    return 0;
}

static int fmt_pair(const uint8_t v[2], char *buf, size_t len, bool set)
{
    if (v[0] == v[1])
        snprintf(buf, len, "%u", v[0]);
    else
        snprintf(buf, len, "%u,%u", v[0], v[1]);
    return set ? 1 : 0;
}

int iom_opt_fmt_cmdprio_pct(const struct iom_job *job, char *buf, size_t len)
{
    return fmt_pair(job->cmdprio_pct, buf, len, job->cmdprio_pct[0] || job->cmdprio_pct[1]);
}

int iom_opt_fmt_cmdprio_class(const struct iom_job *job, char *buf, size_t len)
{
    return fmt_pair(job->cmdprio_class, buf, len,
                    job->cmdprio_class[0] || job->cmdprio_class[1]);
}

int iom_opt_fmt_cmdprio_level(const struct iom_job *job, char *buf, size_t len)
{
    return fmt_pair(job->cmdprio_level, buf, len,
                    job->cmdprio_level[0] || job->cmdprio_level[1]);
}

static int by_bs(const void *a, const void *b)
{
    const struct iom_cmdprio_bs *x = a, *y = b;
    return (x->bs > y->bs) - (x->bs < y->bs);
}

/* One direction's list "bs/pct[/class/level]:..." (fio 3.33 options.c
 * split_parse_prio_ddir, parse_cmdprio_bssplit_entry): "bs/" or "bs/pct" take
 * cmdprio_class/cmdprio, "bs/pct/class/level" its own (class and level clamped
 * to 3 and 7 as fio does; class 0 is best-effort, fio's ioprio_value); entries of
 * 0 % are dropped; the list is sorted by bs. Returns 0, or -1 with *why. */
static int parse_bs_list(char *s, struct iom_cmdprio_bs *out, uint8_t *nr, const char **why)
{
    unsigned n = 0, tot[IOM_MAX_BSSPLIT] = {0};
    for (char *save = NULL, *e = strtok_r(s, ":", &save); e; e = strtok_r(NULL, ":", &save)) {
        char *f[4] = {e, NULL, NULL, NULL};
        int nf = 1;
        for (char *p = strchr(e, '/'); p && nf < 4; p = strchr(p + 1, '/')) {
            *p = '\0';
            f[nf++] = p + 1;
        }
        uint64_t bs, pct = 0, cls = 0, lvl = 0;
        if (iom_parse_size(f[0], &bs, why) || bs == 0 || bs > UINT32_MAX) {
            *why = "each entry SIZE/PCT or SIZE/PCT/CLASS/LEVEL with a block size";
            return -1;
        }
        if ((nf > 1 && *f[1] && iom_parse_u64(f[1], &pct, why)) || nf == 3 ||
            (nf == 4 && (iom_parse_u64(f[2], &cls, why) || iom_parse_u64(f[3], &lvl, why)))) {
            *why = "each entry SIZE/PCT or SIZE/PCT/CLASS/LEVEL with whole numbers";
            return -1;
        }
        if (pct == 0)
            continue; /* fio: "skip zero perc entries" */
        if (n == IOM_MAX_BSSPLIT) {
            *why = "at most 64 entries per direction (fio's BSSPLIT_MAX)";
            return -1;
        }
        cls = cls > 3 ? 3 : cls;
        lvl = lvl > 7 ? 7 : lvl;
        out[n].bs = (uint32_t)bs; /* fields one by one: out[] is zeroed, padding too */
        out[n].pct = (uint8_t)(pct > 100 ? 100 : pct);
        out[n].prio = nf == 4 ? (uint16_t)(((cls ? cls : 2) << 13) | lvl) : 0;
        n++;
    }
    qsort(out, n, sizeof(*out), by_bs);
    for (unsigned i = 0, k = 0; i < n; i++) { /* fio: a block size's total at most 100 % */
        k = i && out[i].bs == out[i - 1].bs ? k : i;
        tot[k] += out[i].pct;
        if (tot[k] > 100) {
            *why = "the percentages of one block size add up to more than 100";
            return -1;
        }
    }
    *nr = (uint8_t)n;
    return 0;
}

int iom_opt_set_cmdprio_bssplit(const struct opt *o, const char *v, struct iom_job *job,
                                struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    char part[2][1024];
    const char *why = "SIZE/PCT[/CLASS/LEVEL]:...[,WRITES]";
    if (!v || split_rw(v, part))
        return iom_opt_bad(err, errlen, o->name, v, why);
    struct iom_cmdprio_bs tmp[2][IOM_MAX_BSSPLIT];
    uint8_t nr[2];
    memset(tmp, 0, sizeof(tmp)); /* the job compares whole (replay round trip) */
    for (int d = 0; d < 2; d++)
        if (parse_bs_list(part[d], tmp[d], &nr[d], &why))
            return iom_opt_bad(err, errlen, o->name, v, why);
    memcpy(job->cmdprio_bs, tmp, sizeof(tmp));
    memcpy(job->nr_cmdprio_bs, nr, sizeof(nr));
    return 0;
}

static size_t fmt_bs_dir(const struct iom_job *job, int d, char *buf, size_t len)
{
    size_t at = 0;
    for (unsigned i = 0; i < job->nr_cmdprio_bs[d] && at < len; i++) {
        const struct iom_cmdprio_bs *e = &job->cmdprio_bs[d][i];
        int w = e->prio ? snprintf(buf + at, len - at, "%s%u/%u/%u/%u", i ? ":" : "", e->bs,
                                   e->pct, e->prio >> 13, e->prio & 7)
                        : snprintf(buf + at, len - at, "%s%u/%u", i ? ":" : "", e->bs, e->pct);
        at += w > 0 ? (size_t)w : 0;
    }
    return at < len ? at : len;
}

int iom_opt_fmt_cmdprio_bssplit(const struct iom_job *job, char *buf, size_t len)
{
    if (len == 0)
        return 0;
    buf[0] = '\0';
    if (!job->nr_cmdprio_bs[0] && !job->nr_cmdprio_bs[1])
        return 0;
    size_t at = fmt_bs_dir(job, 0, buf, len);
    if (at + 1 < len) {
        buf[at++] = ',';
        buf[at] = '\0';
        fmt_bs_dir(job, 1, buf + at, len - at);
    }
    return 1;
}

bool iom_job_cmdprio(const struct iom_job *job)
{
    return job->cmdprio_pct[0] || job->cmdprio_pct[1] || job->nr_cmdprio_bs[0] ||
           job->nr_cmdprio_bs[1];
}

int iom_job_cmdprio_check(const struct iom_job *job, const char **option, const char **why)
{
    if (!iom_job_cmdprio(job))
        return 0;
    bool bssplit = job->nr_cmdprio_bs[0] || job->nr_cmdprio_bs[1];
    *option = bssplit ? "cmdprio_bssplit" : "cmdprio_percentage";
    if (bssplit && (job->cmdprio_pct[0] || job->cmdprio_pct[1])) { /* fio cmdprio.c */
        *why = "cmdprio_percentage and cmdprio_bssplit are mutually exclusive (fio)";
        return -EINVAL;
    }
    if (strcmp(job->ioengine, "io_uring") != 0 && strcmp(job->ioengine, "libaio") != 0) {
        *why = "a per-I/O priority needs --ioengine=io_uring or libaio (fio 3.33: an option "
               "of those engines only)";
        return -EINVAL;
    }
    return 0;
}
