/*
 * jobs.c - what the lab guest runs (`iomark COMMAND ARGS` on the lab disk),
 * the host-side checks of those arguments, and the guest module parameters
 * the image knows (read from the .ko files in base.cpio).
 */
#include "lab/lab.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/image.h"
#include "workload/args.h"
#include "workload/diskspd.h"
#include "workload/options.h"
#include "workload/presets.h"
#include "workload/profiles.h"
#include "workload/spec.h"
#include "workload/units.h"

const char *const iom_lab_commands[] = {"run", "diskspd", "sweep", "mark", "tpcc", NULL};

/* The lab's `run` workload when none is given: 4 KiB random reads with 64
 * I/Os outstanding (2 threads x 32), past SATA's 32 and IDE's 1, so the
 * controllers' queue limits show. */
static const char *const default_workload[] = {"--rw=randread", "--bs=4k", "--iodepth=32",
                                               "--numjobs=2", "--ramp_time=2s", "--runtime=10s"};

const char *iom_lab_opts_strdup(struct iom_lab_opts *o, const char *s)
{
    if (o->nr_store == o->cap_store) {
        size_t cap = o->cap_store ? o->cap_store * 2 : 64;
        char **n = realloc(o->store, cap * sizeof(*n));
        if (!n)
            return NULL;
        o->store = n;
        o->cap_store = cap;
    }
    char *d = strdup(s);
    if (d)
        o->store[o->nr_store++] = d;
    return d;
}

void iom_lab_opts_free(struct iom_lab_opts *o)
{
    for (size_t i = 0; i < o->nr_store; i++)
        free(o->store[i]);
    free(o->store);
    o->store = NULL;
    o->nr_store = o->cap_store = 0;
}

/* Does argument a name option `name` ("--name", "--name=..", workload/args.h spelling)? */
static bool is_opt(const char *a, const char *name)
{
    return iom_args_name_eq(a, strcspn(a, "="), name);   /* '-' and '_' alike */
}

static bool has_opt(const struct iom_lab_job *j, const char *name)
{
    for (size_t i = 0; i < j->nr_args; i++)
        if (is_opt(j->args[i], name))
            return true;
    return false;
}

/* The lab's defaults a `run` job gets (those the user did not give again:
 * theirs win anyway) into out (at most max); returns how many. */
static size_t lab_defaults(const struct iom_lab_job *j, const char **out, size_t max)
{
    size_t n = 0;
    if (strcmp(j->command, "run") || !j->lab_defaults || has_opt(j, "--profile"))
        return 0;
    for (size_t i = 0; i < sizeof(default_workload) / sizeof(default_workload[0]) && n < max; i++) {
        const char *d = default_workload[i];
        char name[32];
        snprintf(name, sizeof(name), "%.*s", (int)strcspn(d, "="), d);
        if (!has_opt(j, name))
            out[n++] = d;
    }
    return n;
}

size_t iom_lab_job_guest_args(const struct iom_lab_job *j, uint64_t disk_bytes, char *size_buf,
                              size_t size_len, const char **out, size_t max)
{
    const char *cmd = j->command;
    size_t n = lab_defaults(j, out, max);
    if (strcmp(cmd, "mark") == 0 && !has_opt(j, "--size") && n < max) {
        /* mark's default 1 GiB test region can exceed the lab disk: use the disk */
        snprintf(size_buf, size_len, "--size=%llu", (unsigned long long)disk_bytes);
        out[n++] = size_buf;
    }
    for (size_t i = 0; i < j->nr_args && n < max; i++)
        out[n++] = j->args[i];
    static const char *const json_tail[] = {"--output-format=json", "--quiet", "--force",
                                            "@OUTPUT@", "@DISK@"};
    static const char *const diskspd_tail[] = {"-Rxml", "--quiet", "--force", "@OUTPUT@",
                                               "@DISK@"};
    static const char *const tpcc_tail[] = {"@DB@", "--output-format=json", "--quiet",
                                            "@OUTPUT@"};
    const char *const *tail = json_tail;
    size_t nt = 5;
    if (strcmp(cmd, "diskspd") == 0)
        tail = diskspd_tail;
    else if (strcmp(cmd, "tpcc") == 0)
        tail = tpcc_tail, nt = 4;
    for (size_t i = 0; i < nt && n < max; i++)
        out[n++] = tail[i];
    return n;
}

void iom_lab_job_label(struct iom_lab_job *j)
{
    /* the workload the guest runs: the lab's defaults too, not only what was typed */
    const char *d[sizeof(default_workload) / sizeof(default_workload[0])];
    size_t nd = lab_defaults(j, d, sizeof(d) / sizeof(d[0]));
    size_t l = (size_t)snprintf(j->label, sizeof(j->label), "%s", j->command);
    for (size_t i = 0; i < nd + j->nr_args && l < sizeof(j->label); i++)
        l += (size_t)snprintf(j->label + l, sizeof(j->label) - l, " %s",
                              i < nd ? d[i] : j->args[i - nd]);
    if (l >= sizeof(j->label))
        memcpy(j->label + sizeof(j->label) - 4, "...", 4);
}

/* run and sweep: the option table of `iomark run`, --profile first. */
static int check_run(const struct iom_lab_job *j, bool sweep, double *est_s, double ph[3],
                     char *err, size_t errlen)
{
    const char *ga[IOM_LAB_MAX_ARGS + 16];
    char sz[40];
    size_t n = iom_lab_job_guest_args(j, 0, sz, sizeof(sz), ga, IOM_LAB_MAX_ARGS + 16);
    char *av[IOM_LAB_MAX_ARGS + 20];
    int ac = 0;
    const char *profile = NULL;
    unsigned points = 1, threads = 0, depths = 0;
    av[ac++] = (char *)"run";
    for (size_t i = 0; i < n; i++) {
        const char *a = ga[i];
        if (a[0] == '@')
            continue;   /* the guest's placeholders */
        if (is_opt(a, "--profile")) {
            profile = a[9] == '=' ? a + 10 : i + 1 < n ? ga[++i] : "";
            continue;
        }
        if (sweep && (is_opt(a, "--threads") || is_opt(a, "--iodepth") || is_opt(a, "--knee"))) {
            const char *v = strchr(a, '=') ? strchr(a, '=') + 1 : i + 1 < n ? ga[++i] : "";
            unsigned c = 1;
            for (const char *p = v; *p; p++)
                c += *p == ',';
            if (is_opt(a, "--threads"))
                threads = c;
            else if (is_opt(a, "--iodepth"))
                depths = c;
            continue;
        }
        av[ac++] = (char *)a;
    }
    av[ac] = NULL;
    if (sweep)
        points = (threads ? threads : 1) * (depths ? depths : 1);
    struct iom_job job;
    struct iom_run_opts ro = {0};
    iom_job_defaults(&job);
    int rc = 0;
    const struct iom_profile *p = profile ? iom_profile_find(profile) : NULL;
    if (profile && !p) {
        iom_profile_unknown(profile, err, errlen);
        rc = -EINVAL;
    } else if (p && iom_profile_apply(p, &job, err, errlen)) {
        char tmp[512];
        snprintf(tmp, sizeof(tmp), "--profile=%s: %s", profile, err);
        snprintf(err, errlen, "%s", tmp);
        rc = -EINVAL;
    } else if (iom_options_parse(ac, av, 1, &job, &ro, err, errlen)) {
        rc = -EINVAL;
    } else if (job.nr_targets) {
        /* a word near a sub-command is one mistyped ("clen"), not a target */
        unsigned best = IOM_NAME_FAR;
        const char *near = NULL;
        iom_name_nearer(job.targets[0], "setup", &best, &near);
        iom_name_nearer(job.targets[0], "clean", &best, &near);
        if (near)
            snprintf(err, errlen, "%s: unknown sub-command; did you mean %s? allowed: iomark lab "
                     "setup, iomark lab clean, or iomark lab [OPTIONS]", job.targets[0], near);
        else
            snprintf(err, errlen, "%s: the lab supplies the disk; give workload options only",
                     job.targets[0]);
        rc = -EINVAL;
    } else {
        const char *opt = NULL, *why = NULL;
        iom_job_add_target(&job, "/dev/lab-disk");
        if (iom_job_validate(&job, &opt, &why)) {
            if (strcmp(opt, "target") == 0)
                snprintf(err, errlen, "%s", why);
            else
                snprintf(err, errlen, "--%s: %s", opt, why);
            rc = -EINVAL;
        }
        *est_s = points * (double)(job.ramp_ns + job.runtime_ns + job.cooldown_ns) / 1e9;
        ph[0] = (double)job.ramp_ns / 1e9;
        ph[1] = (double)job.runtime_ns / 1e9;
        ph[2] = (double)job.cooldown_ns / 1e9;
    }
    iom_job_free(&job);
    return rc;
}

static int check_diskspd(const struct iom_lab_job *j, double *est_s, double ph[3], char *err,
                         size_t errlen)
{
    char *av[IOM_LAB_MAX_ARGS + 4];
    int ac = 0;
    av[ac++] = (char *)"diskspd";
    for (size_t i = 0; i < j->nr_args; i++) {
        const char *a = j->args[i];
        if (strncmp(a, "-R", 2) == 0 || is_opt(a, "--output")) {
            snprintf(err, errlen, "%s: the lab keeps DiskSpd's XML report itself; leave out -R "
                                  "and --output", a);
            return -EINVAL;
        }
        av[ac++] = (char *)a;
    }
    av[ac++] = (char *)"/dev/lab-disk";
    av[ac] = NULL;
    struct iom_diskspd *ds = malloc(sizeof(*ds));
    struct iom_run_opts ro = {0};
    if (!ds)
        return -ENOMEM;
    int rc = iom_diskspd_parse(ac, av, 1, ds, &ro, err, errlen) ? -EINVAL : 0;
    if (!rc && ds->job.nr_targets != 1) {
        snprintf(err, errlen, "%s: the lab supplies the disk; give DiskSpd flags only",
                 ds->job.targets[0]);
        rc = -EINVAL;
    }
    if (!rc) {
        *est_s = (double)(ds->job.ramp_ns + ds->job.runtime_ns + ds->job.cooldown_ns) / 1e9;
        ph[0] = (double)ds->job.ramp_ns / 1e9;
        ph[1] = (double)ds->job.runtime_ns / 1e9;
        ph[2] = (double)ds->job.cooldown_ns / 1e9;
    }
    iom_diskspd_free(ds);
    free(ds);
    return rc;
}

/* The value of option `name` ("--name=V" or "--name V"; the last one given), or NULL. */
static const char *opt_value(const struct iom_lab_job *j, const char *name)
{
    const char *v = NULL;
    for (size_t i = 0; i < j->nr_args; i++)
        if (is_opt(j->args[i], name)) {
            const char *eq = strchr(j->args[i], '=');
            v = eq ? eq + 1 : i + 1 < j->nr_args ? j->args[i + 1] : NULL;
        }
    return v;
}

/* A duration option's seconds ("30s", "2m", "500ms", "45": iom_parse_duration); def if absent
 * or unreadable (the guest's iomark refuses the latter). */
static double opt_seconds(const struct iom_lab_job *j, const char *name, double def)
{
    const char *v = opt_value(j, name), *why;
    uint64_t ns;
    return v && iom_parse_duration(v, &ns, &why) == 0 ? (double)ns / 1e9 : def;
}

/* Loading TPC-C into SQLite on the lab disk (ext4) in the guest, per
 * warehouse, for the estimate (the progress line, --dry-run): 1 warehouse
 * (599,530 rows, 113 MiB) loaded in 29.2 s (the guest document's
 * load.time_s) under TCG, 2 vCPUs, on a 2-CPU host at load average 8
 * (2026-12-03; `iomark lab --controllers=virtio-blk -- tpcc --warehouses=1
 * --vu=1 --ramp_time=1s --runtime=2s`, the whole job 32.9 s). A busier host
 * takes longer: the bound (the guest's watchdog) keeps a 600 s allowance. */
#define TPCC_LOAD_EST_S 30.0
#define LOAD_ALLOW_S 600.0

/* mark: its own parser (workload/presets.h) on the guest's arguments, the
 * lab's --size included; the estimate is what mark's own progress line plans
 * (iom_mark_plan_s). */
static int check_mark(const struct iom_lab_job *j, uint64_t disk_bytes, double *est_s,
                      char *err, size_t errlen)
{
    const char *ga[IOM_LAB_MAX_ARGS + 16];
    char sz[40];
    size_t n = iom_lab_job_guest_args(j, disk_bytes ? disk_bytes : 1ull << 30, sz, sizeof(sz), ga,
                                      IOM_LAB_MAX_ARGS + 16);
    char *av[IOM_LAB_MAX_ARGS + 20];
    int ac = 0;
    av[ac++] = (char *)"mark";
    for (size_t i = 0; i < n; i++)
        if (ga[i][0] != '@')
            av[ac++] = (char *)ga[i];   /* the guest's placeholders aside */
    av[ac] = NULL;
    struct iom_job base;
    struct iom_run_opts ro = {0};
    struct iom_mark_opts mo;
    iom_mark_defaults(&mo, &base);
    int rc = iom_mark_parse(ac, av, &base, &ro, &mo, err, errlen);
    if (!rc && base.nr_targets) {
        snprintf(err, errlen, "%s: the lab supplies the disk; give mark options only",
                 base.targets[0]);
        rc = -EINVAL;
    }
    if (!rc)
        *est_s = iom_mark_plan_s(&base, &mo);
    iom_job_free(&base);
    return rc;
}

/* iom_lab_job_check, with the phases of one run (run, diskspd) into ph. */
static int job_check(const struct iom_lab_job *j, uint64_t disk_bytes, double *est_s,
                     double *bound_s, double ph[3], char *err, size_t errlen)
{
    *est_s = *bound_s = 600;
    int rc;
    bool known = false;
    for (const char *const *c = iom_lab_commands; *c; c++)
        known |= strcmp(*c, j->command) == 0;
    if (!known) {
        char why[200];
        iom_allowed_near_list(why, sizeof(why), j->command, iom_lab_commands,
                              "run, diskspd, sweep, mark, tpcc");
        snprintf(err, errlen, "%s: unknown lab command; %s", j->command, why);
        return -EINVAL;
    }
    for (size_t i = 0; i < j->nr_args; i++) {
        const char *a = j->args[i];
        if (strchr(a, '\n')) {
            snprintf(err, errlen, "%s: a newline is not allowed in an argument", a);
            return -EINVAL;
        }
        if (a[0] == '@') {
            snprintf(err, errlen, "%s: arguments starting with @ are the lab's own", a);
            return -EINVAL;
        }
        if (is_opt(a, "--output") || is_opt(a, "--output-format")) {
            snprintf(err, errlen, "%s: the lab writes every result to --output-dir; allowed: "
                                  "--output-dir=DIR before --", a);
            return -EINVAL;
        }
    }
    if (strcmp(j->command, "tpcc") != 0) {
        if (strcmp(j->command, "run") == 0 || strcmp(j->command, "sweep") == 0)
            rc = check_run(j, strcmp(j->command, "sweep") == 0, est_s, ph, err, errlen);
        else if (strcmp(j->command, "diskspd") == 0)
            rc = check_diskspd(j, est_s, ph, err, errlen);
        else
            rc = check_mark(j, disk_bytes, est_s, err, errlen);
        /* mark: a further allowance for checking and creating its test region */
        *bound_s = *est_s + (strcmp(j->command, "mark") == 0 ? LOAD_ALLOW_S : 0);
        return rc;
    }
    for (size_t i = 0; i < j->nr_args; i++) {
        const char *a = j->args[i];
        if (strcmp(a, "load") == 0 || strcmp(a, "run") == 0 || strcmp(a, "check") == 0) {
            snprintf(err, errlen, "%s: the lab loads, runs and checks in every boot; give "
                                  "tpcc options only", a);
            return -EINVAL;
        }
        if (is_opt(a, "--db")) {
            snprintf(err, errlen, "%s: the lab puts the SQLite database on the lab disk; "
                                  "leave out --db", a);
            return -EINVAL;
        }
        if (a[0] != '-') {
            snprintf(err, errlen, "%s: the lab supplies the database; give options only", a);
            return -EINVAL;
        }
    }
    /* iomark tpcc's defaults: 1 warehouse, 2 min ramp, 5 min run; the load's
     * estimate per warehouse, its allowance in the bound only */
    double run = opt_seconds(j, "--ramp_time", 120) + opt_seconds(j, "--runtime", 300);
    const char *wv = opt_value(j, "--warehouses");
    double wh = wv ? strtod(wv, NULL) : 1;
    *est_s = run + (wh >= 1 ? wh : 1) * TPCC_LOAD_EST_S;
    *bound_s = run + LOAD_ALLOW_S;
    return 0;
}

int iom_lab_job_check(const struct iom_lab_job *j, uint64_t disk_bytes, double *est_s,
                      char *err, size_t errlen)
{
    double ph[3], bound;
    return job_check(j, disk_bytes, est_s, &bound, ph, err, errlen);
}

unsigned iom_lab_job_watchdog_s(const struct iom_lab_job *j, uint64_t disk_bytes)
{
    double est, bound = 600, ph[3];
    char err[512];
    job_check(j, disk_bytes, &est, &bound, ph, err, sizeof(err));
    if (!(bound > 0))
        bound = 600;   /* a run without --runtime: as before */
    return (unsigned)(3 * bound + 60);
}

int iom_lab_job_phases(const struct iom_lab_job *j, double *ramp_s, double *run_s,
                       double *cool_s)
{
    double est, bound, ph[3] = {0, 0, 0};
    char err[512];
    if ((strcmp(j->command, "run") != 0 && strcmp(j->command, "diskspd") != 0) ||
        job_check(j, 0, &est, &bound, ph, err, sizeof(err)) || ph[1] <= 0)
        return -ENOENT;
    *ramp_s = ph[0];
    *run_s = ph[1];
    *cool_s = ph[2];
    return 0;
}

int iom_lab_dry_run(FILE *f, const struct iom_lab_opts *o, char *err, size_t errlen)
{
    char size_buf[40];
    double est[IOM_LAB_MAX_JOBS];
    for (size_t j = 0; j < o->nr_jobs; j++)
        if (iom_lab_job_check(&o->jobs[j], o->disk_bytes, &est[j], err, errlen))
            return -EINVAL;
    fprintf(f, "iomark lab --dry-run: %zu controller(s) x %zu job(s), %u run(s) each, boot %s\n",
            o->nr_units, o->nr_jobs, o->repeat, o->shared_boot ? "shared" : "each");
    char tmo[32] = "computed";
    if (o->timeout_s)
        snprintf(tmo, sizeof(tmo), "%u s", o->timeout_s);
    fprintf(f, "disk %llu bytes, cache %s, scheduler %s, vcpus %u, memory %u MiB, accel %s, "
               "timeout %s per boot, output-dir %s%s\n",
            (unsigned long long)o->disk_bytes, o->cache, o->scheduler, o->vcpus, o->memory_mib,
            o->accel, tmo, o->output_dir, o->keep_disk ? ", keep-disk" : "");
    for (size_t u = 0; u < o->nr_units; u++) {
        fprintf(f, "controller %s:", o->units[u].name);
        for (size_t p = 0; p < o->units[u].nr_params; p++)
            fprintf(f, " %s", o->units[u].params[p]);
        fprintf(f, "%s\n", o->units[u].nr_params ? "" : " (no guest parameters)");
    }
    for (size_t j = 0; j < o->nr_jobs; j++) {
        const struct iom_lab_job *jb = &o->jobs[j];
        const char *ga[IOM_LAB_MAX_ARGS + 16];
        size_t n = iom_lab_job_guest_args(jb, o->disk_bytes, size_buf, sizeof(size_buf), ga,
                                          IOM_LAB_MAX_ARGS + 16);
        if (est[j] > 0)
            fprintf(f, "job %zu (about %.0f s a run, bound %u s)", j + 1, est[j],
                    iom_lab_job_watchdog_s(jb, o->disk_bytes));
        else
            fprintf(f, "job %zu (length unknown, bound %u s)", j + 1,
                    iom_lab_job_watchdog_s(jb, o->disk_bytes));
        fprintf(f, " in the guest: iomark %s", jb->command);
        for (size_t i = 0; i < n; i++)
            fprintf(f, " %s", ga[i]);
        fprintf(f, "\n");
    }
    return ferror(f) ? -EIO : 0;
}

/* ---- module parameters of the guest image ---- */

static unsigned long hex8(const char *p)
{
    char b[9];
    memcpy(b, p, 8);
    b[8] = 0;
    return strtoul(b, NULL, 16);
}

/* Append "module param type" lines for every parameter of one .ko: its
 * .modinfo holds "parmtype=NAME:TYPE" (module_param) and "parm=NAME:DESC"
 * (MODULE_PARM_DESC, also for module_param_cb ones that have no parmtype). */
static int scan_ko(const char *mod, const char *data, size_t len, char **out, size_t *olen,
                   size_t *ocap)
{
    static const char *const keys[] = {"parmtype=", "parm="};
    size_t start = *olen;
    for (int k = 0; k < 2; k++) {
        size_t kl = strlen(keys[k]);
        for (size_t i = 1; i + kl < len; i++) {
            if (data[i] != 'p' || data[i - 1] != 0 || memcmp(data + i, keys[k], kl) != 0)
                continue;
            const char *s = data + i + kl;
            size_t sl = strnlen(s, len - (size_t)(s - data));
            const char *colon = memchr(s, ':', sl);
            if (!colon || colon == s || colon - s > 100)
                continue;
            char line[256];
            snprintf(line, sizeof(line), "%s %.*s ", mod, (int)(colon - s), s);
            /* once per parameter */
            (*out)[*olen] = 0;
            bool seen = false;
            for (const char *p = *out + start; (p = strstr(p, line)) != NULL; p++)
                if (p == *out || p[-1] == '\n') {
                    seen = true;
                    break;
                }
            i += sl;
            if (seen)
                continue;
            const char *type = k == 0 ? colon + 1 : "-";
            size_t need = strlen(line) + strlen(type) + 4;
            if (*olen + need >= *ocap) {
                size_t cap = (*ocap + need) * 2;
                char *n = realloc(*out, cap);
                if (!n)
                    return -ENOMEM;
                *out = n;
                *ocap = cap;
            }
            *olen += (size_t)snprintf(*out + *olen, *ocap - *olen, "%s%.40s\n", line, type);
        }
    }
    return 0;
}

int iom_lab_modparams_load(const char *base_cpio, char **text)
{
    FILE *f = fopen(base_cpio, "rb");
    if (!f)
        return -errno;
    size_t cap = 4096, len = 0;
    char *out = calloc(1, cap);
    char hdr[110];
    int rc = out ? 0 : -ENOMEM;
    long pos = 0;
    while (!rc && fread(hdr, 1, 110, f) == 110) {
        if (memcmp(hdr, "070701", 6) != 0) {
            rc = -EPROTO;
            break;
        }
        unsigned long fsize = hex8(hdr + 54), nsize = hex8(hdr + 94);
        char name[512];
        size_t nl = nsize < sizeof(name) ? nsize : sizeof(name) - 1;
        if (fread(name, 1, nl, f) != nl) {
            rc = -EPROTO;
            break;
        }
        name[nl] = 0;
        pos += 110 + (long)nsize;
        pos = (pos + 3) & ~3L;
        if (fseek(f, pos, SEEK_SET)) {
            rc = -EIO;
            break;
        }
        if (strcmp(name, "TRAILER!!!") == 0)
            break;
        size_t l = strlen(name);
        if (l > 3 && strcmp(name + l - 3, ".ko") == 0 && fsize < (64ul << 20)) {
            char *data = malloc(fsize ? fsize : 1);
            if (!data || fread(data, 1, fsize, f) != fsize) {
                free(data);
                rc = data ? -EPROTO : -ENOMEM;
                break;
            }
            char mod[128];
            iom_lab_module_name(name, mod, sizeof(mod));
            rc = scan_ko(mod, data, fsize, &out, &len, &cap);
            /* a module without parameters is still known: "module - -" */
            if (!rc && len + strlen(mod) + 8 < cap)
                len += (size_t)snprintf(out + len, cap - len, "%s - -\n", mod);
            free(data);
        }
        pos += (long)fsize;
        pos = (pos + 3) & ~3L;
        if (fseek(f, pos, SEEK_SET))
            rc = -EIO;
    }
    fclose(f);
    if (rc) {
        free(out);
        return rc;
    }
    *text = out;
    return 0;
}

int iom_lab_param_check(const char *param, const char *modparams, char *err, size_t errlen)
{
    const char *dot = strchr(param, '.'), *eq = strchr(param, '=');
    if (!dot || !eq || dot > eq)
        return 0;   /* a kernel command-line parameter */
    char mod[128], name[128];
    snprintf(mod, sizeof(mod), "%.*s", (int)(dot - param), param);
    snprintf(name, sizeof(name), "%.*s", (int)(eq - dot - 1), dot + 1);
    for (char *q = mod; *q; q++)
        if (*q == '-')
            *q = '_';
    char list[512] = "", near_mod[128] = "", near_par[128] = "";
    unsigned best_mod = IOM_NAME_FAR, best_par = IOM_NAME_FAR; /* "did you mean" (args.h) */
    size_t ll = 0;
    bool mod_known = false;
    for (const char *p = modparams; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        char m[128], n[128];
        if (sscanf(p, "%127s %127s", m, n) == 2 && strcmp(m, mod) == 0) {
            mod_known = true;
            if (strcmp(n, name) == 0)
                return 0;
            if (strcmp(n, "-") != 0 && ll < sizeof(list))
                ll += (size_t)snprintf(list + ll, sizeof(list) - ll, "%s%s", ll ? ", " : "", n);
            unsigned d = strcmp(n, "-") ? iom_name_nearness(name, n) : IOM_NAME_FAR;
            if (d < best_par) {
                best_par = d;
                snprintf(near_par, sizeof(near_par), "%s", n);
            }
        } else if (sscanf(p, "%127s", m) == 1) {
            unsigned d = iom_name_nearness(mod, m);
            if (d < best_mod) {
                best_mod = d;
                snprintf(near_mod, sizeof(near_mod), "%s", m);
            }
        }
        p = eol ? eol + 1 : p + l;
    }
    if (!mod_known)
        snprintf(err, errlen, "module %s is not in the guest image; %s%s%sallowed: parameters of "
                              "the controllers' drivers (e.g. vmw_pvscsi.ring_pages, "
                              "nvme.io_queue_depth)", mod, near_mod[0] ? "did you mean " : "",
                 near_mod, near_mod[0] ? "? " : "");
    else if (!ll)
        snprintf(err, errlen, "module %s has no parameters", mod);
    else
        snprintf(err, errlen, "%s has no parameter %s; %s%s%sallowed: %s", mod, name,
                 near_par[0] ? "did you mean " : "", near_par, near_par[0] ? "? " : "", list);
    return -EINVAL;
}
