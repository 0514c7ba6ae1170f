/* markopts.c - `iomark mark`'s arguments and its planned length, shared by
 * the command (src/cli/cmd_mark.c) and the lab, which checks a mark job on
 * the host and estimates its length for its progress line (src/lab/jobs.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/args.h"
#include "workload/options.h"
#include "workload/presets.h"
#include "workload/units.h"

/* native options that make sense for a preset; the pattern options do not */
static const char *const allowed[] = {"size",   "runtime",      "ioengine", "direct",
                                      "buffered", "keep",       "force",    "quiet",
                                      "output-format", "output", "randseed", "zero_buffers",
                                      "help",   "sync",         "ramp_time", "status-interval", NULL};

/* mark's own options */
static const char *const own_names[] = {"profile", "runs", "pause", "prepare", "statistic", NULL};

void iom_mark_defaults(struct iom_mark_opts *mo, struct iom_job *base)
{
    *mo = (struct iom_mark_opts){.profile = iom_mark_profile_find("default"),
                                 .runs = 5,
                                 .pause_ns = UINT64_C(5000000000),
                                 .prepare_ns = UINT64_C(5000000000)};
    iom_job_defaults(base);
    base->runtime_ns = UINT64_C(5000000000);
    base->size_bytes = UINT64_C(1) << 30; /* CrystalDiskMark's "1GiB" = 1024 MiB */
}

bool iom_mark_own_option(const char *name)
{
    for (const char *const *o = own_names; *o; o++)
        if (iom_args_name_eq(name, (size_t)-1, *o))
            return true;
    return false;
}

static bool is_allowed(const char *arg)
{
    size_t n = strcspn(arg + 2, "=");
    for (const char *const *a = allowed; *a; a++)
        if (iom_args_name_eq(arg + 2, n, *a))
            return true;
    return false;
}

/* The one line for an option mark does not take: a pattern option of run
 * (--bs, --rw: the preset sets the pattern), or a name near one of mark's
 * own (--profle: did you mean --profile?), or neither (the list). */
static void unknown_option(const char *name, char *err, size_t errlen)
{
    const char *via, *native = iom_option_suggest_via(name, &via);
    if (native && iom_args_name_eq(name, (size_t)-1, native)) {
        snprintf(err, errlen, "--%s: not an option of mark (the preset sets the pattern); see "
                              "iomark mark --help", name);
        return;
    }
    /* run's --repeat, or fio's loops (via): mark repeats each test --runs times */
    if (iom_args_name_eq(name, (size_t)-1, "repeat") ||
        (native && via && strcmp(native, "repeat") == 0)) {
        snprintf(err, errlen, "--%s: unknown option; did you mean --runs (iomark mark's name for "
                              "--%s: each test's runs)?", name, via ? via : "repeat");
        return;
    }
    if (native && via) { /* another tool's name of a run option: mark's, or the preset's */
        char dashed[40];
        snprintf(dashed, sizeof(dashed), "--%s", native);
        if (is_allowed(dashed))
            snprintf(err, errlen, "--%s: unknown option; did you mean --%s (iomark's name for "
                                  "--%s)?", name, native, via);
        else
            snprintf(err, errlen, "--%s (iomark's --%s): not an option of mark (the preset sets "
                                  "the pattern); see iomark mark --help", name, native);
        return;
    }
    const char *near = NULL;
    unsigned best = IOM_NAME_FAR;
    for (const char *const *o = own_names; *o; o++)
        iom_name_nearer(name, *o, &best, &near);
    for (const char *const *o = allowed; *o; o++)
        if (strcmp(*o, "help"))
            iom_name_nearer(name, *o, &best, &near);
    char list[400];
    size_t n = 0;
    list[0] = '\0';
    for (int pass = 0; pass < 2; pass++)
        for (const char *const *o = pass ? allowed : own_names; *o && n < sizeof(list); o++) {
            int k = snprintf(list + n, sizeof(list) - n, "%s--%s", n ? ", " : "", *o);
            n += k > 0 ? (size_t)k : 0;
        }
    snprintf(err, errlen, "--%s: unknown option; %s%s%sallowed: %s", name,
             near ? "did you mean --" : "", near ? near : "", near ? "? " : "", list);
}

/* One of mark's own options, name canonical, v its value (NULL: none). */
static int own_option(const char *name, const char *v, struct iom_mark_opts *mo, char *err,
                      size_t errlen)
{
    const char *why = "needs a value";
    if (!v) { /* "--runs" last, or before another option: each of mark's own takes a value */
        snprintf(err, errlen, "--%s: %s", name, why);
        return -EINVAL;
    }
    if (!strcmp(name, "profile")) {
        mo->profile = v ? iom_mark_profile_find(v) : NULL;
        if (!mo->profile) {
            const char *known[IOM_MARK_NR_PROFILES];
            for (size_t k = 0; k < IOM_MARK_NR_PROFILES; k++)
                known[k] = iom_mark_profiles[k].name;
            char hint[160];
            iom_allowed_near(hint, sizeof(hint), v, known, IOM_MARK_NR_PROFILES,
                             "default, peak, realworld, nvme, cdm7");
            snprintf(err, errlen, "--profile=%s: %s", v ? v : "", hint);
            return -EINVAL;
        }
    } else if (!strcmp(name, "runs")) {
        if (!v || iom_parse_u64(v, &mo->runs, &why) || mo->runs < 1 || mo->runs > 1000) {
            snprintf(err, errlen, "--runs=%s: must be a whole number from 1 to 1000", v ? v : "");
            return -EINVAL;
        }
    } else if (!strcmp(name, "statistic")) {
        if (!v || (strcmp(v, "best") && strcmp(v, "mean") && strcmp(v, "kdiskmark"))) {
            static const char *const stats[] = {"best", "mean", "kdiskmark"};
            char hint[96];
            iom_allowed_near(hint, sizeof(hint), v, stats, 3, "best, mean, kdiskmark");
            snprintf(err, errlen, "--statistic=%s: %s", v ? v : "", hint);
            return -EINVAL;
        }
        mo->statistic = v;
    } else if (!strcmp(name, "prepare")) {
        if (!v || iom_parse_duration(v, &mo->prepare_ns, &why)) {
            snprintf(err, errlen, "--prepare=%s: %s", v ? v : "",
                     v && v[0] == '-' ? "must be 0 or more (a duration such as 5s)" : why);
            return -EINVAL;
        }
        mo->prepare_given = true;
    } else if (!v || iom_parse_duration(v, &mo->pause_ns, &why)) {
        snprintf(err, errlen, "--pause=%s: %s", v ? v : "",
                 v && v[0] == '-' ? "must be 0 or more (a duration such as 5s)" : why);
        return -EINVAL;
    }
    return 0;
}

int iom_mark_parse(int argc, char **argv, struct iom_job *job, struct iom_run_opts *ro,
                   struct iom_mark_opts *mo, char *err, size_t errlen)
{
    char **rest = calloc((size_t)argc + 1, sizeof(*rest));
    if (!rest)
        return -ENOMEM;
    int nrest = 0, rc = 0;
    rest[nrest++] = argv[0];
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        const char *v = NULL;
        char name[32] = "";
        if (strncmp(a, "--", 2) == 0 && a[2]) {
            size_t n = strcspn(a + 2, "=");
            if (n < sizeof(name)) {
                memcpy(name, a + 2, n);
                name[n] = '\0';
            }
            v = a[2 + n] == '=' ? a + 3 + n : NULL;
        }
        bool own = false;
        for (const char *const *o = own_names; *o; o++)
            if (iom_args_name_eq(name, (size_t)-1, *o)) {
                snprintf(name, sizeof(name), "%s", *o); /* the canonical spelling */
                own = true;
            }
        if (own) {
            if (!v && i + 1 < argc && iom_args_value_word(argv[i + 1]))
                v = argv[++i];
            rc = own_option(name, v, mo, err, errlen);
            continue;
        }
        if (strncmp(a, "--", 2) == 0 && a[2] && !is_allowed(a)) {
            unknown_option(name, err, errlen);
            rc = -EINVAL;
            break;
        }
        rest[nrest++] = argv[i];
    }
    if (!rc && iom_options_parse(nrest, rest, 1, job, ro, err, errlen))
        rc = -EINVAL;
    if (!rc && mo->statistic && !strcmp(mo->statistic, "kdiskmark") && !mo->prepare_given)
        mo->prepare_ns = 0; /* KDiskMark has no preparation run */
    free(rest);
    return rc;
}

double iom_mark_plan_s(const struct iom_job *base, const struct iom_mark_opts *mo)
{
    const struct iom_mark_profile *p = mo->profile;
    if (!base->runtime_ns || !p)
        return -1;
    double s = (double)(p->nr_tests * 2 - 1) * (double)mo->pause_ns / 1e9;
    for (unsigned i = 0; i < p->nr_tests; i++)
        for (int w = 0; w < 2; w++) {
            struct iom_job j;
            if (iom_mark_job(base, &p->tests[i], w, &j))
                return -1;
            double around = (double)(j.ramp_ns + j.cooldown_ns) / 1e9;
            s += (double)mo->runs * (around + (double)j.runtime_ns / 1e9);
            if (mo->prepare_ns)
                s += around + (double)mo->prepare_ns / 1e9;
            iom_job_free(&j);
        }
    return s;
}
