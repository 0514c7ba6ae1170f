/* options_lat.c - setters of the native option table for fio's latency_target
 * search, steady state and buffer pattern (options_int.h). */
#include "workload/options_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/pattern.h"
#include "workload/units.h"

int iom_opt_set_latency_pct(const struct opt *o, const char *v, struct iom_job *job,
                            struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    char *end = NULL;
    double d = v && *v ? strtod(v, &end) : NAN;
    if (!end || *end || !(d >= 0.0 && d <= 100.0))
        return iom_opt_bad(err, errlen, o->name, v, "allowed: a percentage from 0 to 100, e.g. 99.9");
    job->latency_pct = d;
    return 0;
}

int iom_opt_fmt_latency_pct(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%.17g", job->latency_pct);
    return job->latency_target_ns ? 1 : 0;
}

/* fio's steadystate=CRITERION:LIMIT (options.c str_steadystate_cb): iops, iops_slope, bw,
 * bw_slope; the limit a percentage ("10%"), else IOPS (a float) or bytes/s (a size) */
int iom_opt_set_ss(const struct opt *o, const char *v, struct iom_job *job,
                   struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    static const char *const names[] = {"iops", "iops_slope", "bw", "bw_slope"};
    static const uint32_t states[] = {IOM_SS_IOPS, IOM_SS_IOPS | IOM_SS_SLOPE, 0, IOM_SS_SLOPE};
    const char *colon = v ? strchr(v, ':') : NULL;
    int k = -1;
    for (int i = 0; colon && i < 4; i++)
        if ((size_t)(colon - v) == strlen(names[i]) && strncmp(v, names[i], strlen(names[i])) == 0)
            k = i;
    const char *lim = colon ? colon + 1 : "";
    size_t n = strlen(lim);
    uint32_t st = k >= 0 ? states[k] : 0;
    double d = NAN;
    char *end = NULL;
    if (k >= 0 && n && lim[n - 1] == '%') {
        d = strtod(lim, &end);
        st |= IOM_SS_PCT;
        if (end != lim + n - 1)
            d = NAN;
    } else if (k >= 0 && n && (st & IOM_SS_IOPS)) {
        d = strtod(lim, &end);
        if (*end)
            d = NAN;
    } else if (k >= 0 && n) {
        uint64_t b;
        const char *why;
        if (iom_parse_size(lim, &b, &why) == 0)
            d = (double)b;
    }
    if (!(d >= 0.0) || isinf(d))
        return iom_opt_bad(err, errlen, o->name, v,
                           "allowed: iops, iops_slope, bw or bw_slope, ':' and a limit (a "
                           "percentage of the mean like 10%, else IOPS or bytes/s), e.g. iops_slope:0.1%");
    job->ss_state = st;
    job->ss_limit = d;
    return 0;
}

int iom_opt_fmt_ss(const struct iom_job *job, char *buf, size_t len)
{
    static const char *const names[] = {"bw", "iops", "bw_slope", "iops_slope"};
    uint32_t i = (job->ss_state & IOM_SS_IOPS ? 1u : 0u) + (job->ss_state & IOM_SS_SLOPE ? 2u : 0u);
    snprintf(buf, len, "%s:%.17g%s", names[i], job->ss_limit, job->ss_state & IOM_SS_PCT ? "%" : "");
    return job->ss_dur_ns ? 1 : 0;
}

int iom_opt_set_pattern(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    int n = iom_pattern_parse(v, job->buf_pattern, sizeof(job->buf_pattern));
    if (n <= 0)
        return iom_opt_bad(err, errlen, o->name, v,
                           "allowed: fio's pattern of up to 512 bytes: 0xHEX, \"text\", a number "
                           "(INT_MIN..INT_MAX) or 'file', in any order, e.g. 0xdeadbeef\"abc\"");
    memset(job->buf_pattern + n, 0, sizeof(job->buf_pattern) - (size_t)n);
    job->buf_pattern_len = (uint32_t)n;
    return 0;
}

int iom_opt_fmt_pattern(const struct iom_job *job, char *buf, size_t len)
{
    if (!job->buf_pattern_len || len < 3)
        return 0;
    size_t k = (size_t)snprintf(buf, len, "0x");
    for (uint32_t i = 0; i < job->buf_pattern_len && k + 3 <= len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%02x", job->buf_pattern[i]);
    return 1;
}

int iom_opt_set_dedupe_mode(const struct opt *o, const char *v, struct iom_job *job,
                            struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (v && (strcmp(v, "repeat") == 0 || strcmp(v, "working_set") == 0))
        job->dedupe_ws = v[0] == 'w';
    else
        return iom_opt_bad_near(err, errlen, o->name, v,
                                (const char *const[]){"repeat", "working_set", NULL},
                                "repeat, working_set");
    return 0;
}

int iom_opt_fmt_dedupe_mode(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", job->dedupe_ws ? "working_set" : "repeat");
    return job->dedupe_ws ? 1 : 0;
}
