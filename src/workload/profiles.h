/*
 * profiles.h - named workloads for the I/O a SQL Server instance issues
 * (`iomark run --profile NAME TARGET`). Each profile is a list of native
 * name=value options applied with iom_option_apply(), so a profile means
 * exactly what the same options on the command line mean; options given
 * after it override its values. docs/profiles.md gives each pattern and
 * its public source.
 */
#ifndef IOMARK_WORKLOAD_PROFILES_H
#define IOMARK_WORKLOAD_PROFILES_H

#include <stddef.h>

#include "workload/spec.h"

struct iom_profile {
    const char *name;     /* "sql-oltp" */
    const char *pattern;  /* one line: what SQL Server does */
    const char *options;  /* space-separated name=value pairs of the native option table */
    const char *source;   /* public documentation the pattern comes from */
};

/* All profiles, in listing order; *n receives the count. */
const struct iom_profile *iom_profile_list(size_t *n);

/* The profile called name, or NULL. */
const struct iom_profile *iom_profile_find(const char *name);

/*
 * The message for --profile=name when iom_profile_find(name) is NULL, into
 * err (errlen bytes, truncated): "--profile=NAME: unknown profile; did you
 * mean sql-oltp? allowed: sql-oltp, ..." (the nearest name, workload/args.h
 * iom_allowed_near, when one is near).
 */
void iom_profile_unknown(const char *name, char *err, size_t errlen);

/*
 * Apply a profile's options to job (initialised by iom_job_defaults) and
 * name the job after it (job->name and job->profile, the latter printed in
 * the text report). Returns 0, or -EINVAL/-ENOENT with err filled
 * (only possible if the table itself is wrong; a unit test applies every
 * profile).
 */
int iom_profile_apply(const struct iom_profile *p, struct iom_job *job, char *err, size_t errlen);

#endif
