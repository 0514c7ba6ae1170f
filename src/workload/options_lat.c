/* options_lat.c - setters of the native option table for fio's latency_target
 * search and steady state (options_int.h). */
#include "workload/options_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
