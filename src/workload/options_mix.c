/* options_mix.c - the native options with a list value: bssplit (fio's block-size
 * mix) and random_distribution (options_int.h). */
#include "workload/options_int.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/units.h"

/* "4k/50:8k/30:64k/20" (fio's bssplit; an empty percentage shares the rest) */
int iom_opt_set_bssplit(const struct opt *o, const char *v, struct iom_job *job,
                       struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v || !*v)
        return iom_opt_bad(err, errlen, o->name, v, "expected SIZE/PCT:SIZE/PCT...");
    char *copy = strdup(v), *save = NULL;
    if (!copy)
        return -ENOMEM;
    uint32_t n = 0, sum = 0, empty = 0;
    bool given[IOM_MAX_BSSPLIT] = {false};
    int rc = 0;
    for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
        if (n == IOM_MAX_BSSPLIT) {
            rc = iom_opt_bad(err, errlen, o->name, v, "at most 64 block sizes");
            goto out;
        }
        char *slash = strchr(tok, '/');
        if (slash)
            *slash = '\0';
        const char *why;
        uint64_t bs;
        uint32_t pct = 0;
        if (iom_parse_size(tok, &bs, &why) || bs == 0 || bs > (UINT64_C(1) << 30)) {
            rc = iom_opt_bad(err, errlen, o->name, v, "each block size must be 1 byte to 1 GiB");
            goto out;
        }
        if (slash && slash[1]) {
            if (iom_parse_percent(slash + 1, &pct, &why)) {
                rc = iom_opt_bad(err, errlen, o->name, v, why);
                goto out;
            }
            given[n] = true;
        } else {
            empty++;
        }
        job->bssplit[n].bs_bytes = bs;
        job->bssplit[n].pct = pct;
        sum += pct;
        n++;
    }
    if (sum > 100 || (empty == 0 && sum != 100) || n == 0) {
        rc = iom_opt_bad(err, errlen, o->name, v, "the percentages must add up to 100");
        goto out;
    }
    if (empty) { /* fio: sizes without a percentage share what is left equally */
        uint32_t share = (100 - sum) / empty, extra = (100 - sum) % empty;
        for (uint32_t i = 0; i < n; i++)
            if (!given[i]) {
                job->bssplit[i].pct = share + (extra ? 1 : 0);
                if (extra)
                    extra--;
            }
    }
    job->nr_bssplit = n;
out:
    free(copy);
    return rc;
}

/* a size/percent list as "4096/60:65536/40": 1 when it has entries, else 0 */
static int fmt_bs_list(const struct iom_bs_weight *v, uint32_t nr, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < nr && n < len; i++) {
        int k = snprintf(buf + n, len - n, "%s%llu/%u", i ? ":" : "",
                         (unsigned long long)v[i].bs_bytes, v[i].pct);
        if (k > 0)
            n += (size_t)k;
    }
    return nr ? 1 : 0;
}

/* bssplit_write: the same list for writes (fio's bssplit=READS,WRITES) */
int iom_opt_set_bssplit_write(const struct opt *o, const char *v, struct iom_job *job,
                              struct iom_run_opts *ro, char *err, size_t errlen)
{
    struct iom_job *tmp = malloc(sizeof(*tmp));
    if (!tmp)
        return -ENOMEM;
    *tmp = *job;
    int rc = iom_opt_set_bssplit(o, v, tmp, ro, err, errlen);
    if (rc == 0) {
        memcpy(job->wbssplit, tmp->bssplit, sizeof(job->wbssplit));
        job->nr_wbssplit = tmp->nr_bssplit;
    }
    free(tmp);
    return rc;
}

int iom_opt_fmt_bssplit_write(const struct iom_job *job, char *buf, size_t len)
{
    return fmt_bs_list(job->wbssplit, job->nr_wbssplit, buf, len);
}

/* random | zipf:THETA | pareto:H | zoned:A/R:A/R... */
int iom_opt_set_dist(const struct opt *o, const char *v, struct iom_job *job,
                    struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (!v)
        return iom_opt_bad(err, errlen, o->name, v, "allowed: random, zipf:THETA, pareto:H, zoned:A/R:...");
    if (strcmp(v, "random") == 0) {
        job->dist = IOM_DIST_RANDOM;
        return 0;
    }
    if (strncmp(v, "zipf:", 5) == 0 || strncmp(v, "pareto:", 7) == 0) {
        bool zipf = v[0] == 'z';
        char *end;
        double p = strtod(v + (zipf ? 5 : 7), &end);
        if (*end || (zipf && (p <= 0 || p == 1.0 || p > 100)) || (!zipf && (p <= 0 || p >= 1)))
            return iom_opt_bad(err, errlen, o->name, v,
                       zipf ? "zipf needs a theta > 0 other than 1, e.g. zipf:1.2"
                            : "pareto needs 0 < h < 1, e.g. pareto:0.9");
        job->dist = zipf ? IOM_DIST_ZIPF : IOM_DIST_PARETO;
        job->dist_param = p;
        return 0;
    }
    if (strncmp(v, "zoned:", 6) == 0) {
        uint32_t n = 0, sa = 0, sr = 0, r_missing = 0;
        const char *p = v + 6;
        bool no_range[IOM_MAX_ZONES] = {false};
        while (*p) {
            unsigned a, r = 0;
            int used = 0;
            /* fio (options.c zone_split_ddir): a pair without its range ("20/") gets
             * an equal part of what the others leave (the remainder to the last) */
            if (n == IOM_MAX_ZONES || sscanf(p, "%u/%n", &a, &used) != 1 || !used || a > 100 ||
                (p[used] != ':' && p[used] && (sscanf(p + used, "%u", &r) != 1 || r > 100)))
                return iom_opt_bad(err, errlen, o->name, v,
                           "zoned needs ACCESS%/RANGE% pairs joined by ':', each summing to 100");
            no_range[n] = p[used] == ':' || !p[used];
            r_missing += no_range[n];
            if (!no_range[n])
                used += (int)strspn(p + used, "0123456789");
            job->zones[n].access_pct = a;
            job->zones[n].range_pct = r;
            sa += a;
            sr += r;
            n++;
            p += used;
            if (*p == ':')
                p++;
            else if (*p)
                return iom_opt_bad(err, errlen, o->name, v, "zoned pairs are joined by ':'");
        }
        for (uint32_t i = 0, k = 0; r_missing && sr <= 100 && i < n; i++)
            if (no_range[i])
                job->zones[i].range_pct = ++k == r_missing ? 100 - sr - (k - 1) * ((100 - sr) / r_missing)
                                                           : (100 - sr) / r_missing;
        if (r_missing && sr <= 100)
            sr = 100;
        if (n == 0 || sa != 100 || sr != 100)
            return iom_opt_bad(err, errlen, o->name, v, "zoned access and range shares must each add up to 100");
        job->nr_zones = n;
        job->dist = IOM_DIST_ZONED;
        return 0;
    }
    return iom_opt_bad_near(err, errlen, o->name, v,
                            (const char *const[]){"random", "zipf", "pareto", "zoned", NULL},
                            "random, zipf:THETA, pareto:H, zoned:A/R:...");
}

int iom_opt_fmt_bssplit(const struct iom_job *job, char *buf, size_t len)
{
    return fmt_bs_list(job->bssplit, job->nr_bssplit, buf, len);
}

int iom_opt_fmt_dist(const struct iom_job *job, char *buf, size_t len)
{
    size_t n;
    switch (job->dist) {
    case IOM_DIST_ZIPF:
    case IOM_DIST_PARETO: /* 17 significant digits read back to the same double */
        snprintf(buf, len, "%s:%.17g", job->dist == IOM_DIST_ZIPF ? "zipf" : "pareto",
                 job->dist_param);
        break;
    case IOM_DIST_ZONED:
        n = (size_t)snprintf(buf, len, "zoned:");
        for (uint32_t i = 0; i < job->nr_zones && n < len; i++) {
            int k = snprintf(buf + n, len - n, "%s%u/%u", i ? ":" : "", job->zones[i].access_pct,
                             job->zones[i].range_pct);
            if (k > 0)
                n += (size_t)k;
        }
        break;
    default:
        snprintf(buf, len, "random");
    }
    return 1;
}
