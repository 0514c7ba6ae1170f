/*
 * cmd_lab.c - `iomark lab`: the same workload on one backing disk behind
 * each of QEMU's emulated controllers (PVSCSI, NVMe, LSI SAS, SATA, IDE,
 * virtio...), run by iomark inside a minimal Linux guest; prints the
 * comparison and writes every result to a folder. `iomark lab setup`
 * prepares the guest image once. See docs/lab.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "lab/collect.h"
#include "lab/image.h"
#include "lab/proc.h"
#include "lab/qemu.h"
#include "workload/profiles.h"
#include "workload/units.h"

/* seconds a guest takes to boot and shut down, for the progress line's time
 * left only (the bound per boot is separate, run_one) */
#define LAB_BOOT_EST_S(accel) (strcmp((accel), "kvm") == 0 ? 10.0 : 60.0)

#define CMD "lab"
#define MAX_ARGS 256
#define MAX_PARAMS 64
#define MAX_REPEAT 100

/* The lab's workload when none is given: 4 KiB random reads with 64 I/Os
 * outstanding (2 threads x 32), past SATA's 32 and IDE's 1, so the
 * controllers' queue limits show. */
static const char *const default_workload[] = {"--rw=randread", "--bs=4k", "--iodepth=32",
                                               "--numjobs=2", "--ramp_time=2s", "--runtime=10s"};

static const char *const cache_modes[] = {"writeback", "none", "writethrough", "directsync",
                                          "unsafe", NULL};

struct lab_opts {
    const struct iom_lab_ctrl *ctrls[IOM_LAB_MAX_CTRLS];
    size_t nr_ctrls;
    unsigned repeat;
    uint64_t disk_bytes;
    const char *params[MAX_PARAMS];   /* guest kernel parameters K=V */
    size_t nr_params;
    char *param_store[MAX_PARAMS];    /* strdup'd words of --guest-param values */
    size_t nr_store;
    const char *cache;
    const char *scheduler;
    unsigned vcpus, memory_mib;
    const char *accel;                /* auto, kvm, tcg */
    unsigned timeout_s;               /* 0 = computed */
    const char *output_dir;
    const char *command;              /* "run" or "mark" */
    const char *work[MAX_ARGS];       /* pass-through workload arguments */
    size_t nr_work;
    bool has_profile;
    char mark_size[40];               /* "--size=BYTES" of the disk for --preset=mark */
    bool keep_disk;
    bool help;
};

static void usage(FILE *f)
{
    size_t n;
    const struct iom_lab_ctrl *c = iom_lab_ctrls(&n);
    fprintf(f,
            "usage: iomark lab [options] [workload options]\n"
            "       iomark lab setup [--no-install] [--kernel-package=PKG]\n"
            "       iomark lab clean [--all]   remove cached guest images\n"
            "Run the same workload on one backing disk behind each of QEMU's emulated\n"
            "controllers, with iomark inside a minimal Linux guest, and compare.\n"
            "These are QEMU's device models, not VMware's: absolute IOPS, latency and CPU\n"
            "cost do not carry over; the guest driver's queue limits do.\n\n"
            "  --controllers=LIST   comma-separated, or default, all (default: default)\n"
            "  --repeat=N           runs per controller (one boot, N runs), 1-%d (default 1)\n"
            "  --disk-size=SIZE     backing raw image, 16M-64G (default 512M)\n"
            "  --guest-param=K=V    guest kernel parameter, repeatable; several may be given\n"
            "                       space-separated (vmw_pvscsi.ring_pages=32 nvme.io_queue_depth=64)\n"
            "  --cache=MODE         QEMU cache mode of the disk: writeback (default), none,\n"
            "                       writethrough, directsync, unsafe\n"
            "  --scheduler=NAME     I/O scheduler set in the guest for every controller:\n"
            "                       none (default), mq-deadline, keep (driver default)\n"
            "  --vcpus=N            guest vCPUs, 1-64 (default 2)\n"
            "  --memory=MIB         guest memory in MiB, 256-65536 (default 1024)\n"
            "  --accel=A            auto (default: KVM when /dev/kvm opens, else TCG), kvm, tcg\n"
            "  --timeout=SECONDS    bound per boot (default: computed from the workload)\n"
            "  --output-dir=DIR     results folder (default ./iomark-lab-YYYYmmdd-HHMMSS)\n"
            "  --preset=mark        run `iomark mark` in the guest instead of `iomark run`\n"
            "  --profile=NAME       passed to `iomark run` in the guest\n"
            "  --keep-disk          keep the backing image in DIR\n\n"
            "Any other option is a workload option of `iomark run` and is passed to the\n"
            "guest unchanged (the default workload is",
            MAX_REPEAT);
    for (size_t i = 0; i < sizeof(default_workload) / sizeof(default_workload[0]); i++)
        fprintf(f, " %s", default_workload[i]);
    fprintf(f, "; options\ngiven override it). The lab supplies the disk: give no TARGET.\n\n"
               "controllers:\n");
    for (size_t i = 0; i < n; i++) {
        /* the controller's own driver: skip the bus (virtio_pci) in front of it */
        const char *drv = c[i].modules[0];
        if (strcmp(drv, "virtio_pci") == 0 && c[i].modules[1])
            drv = c[i].modules[1];
        fprintf(f, "  %-12s %-18s QEMU %-15s guest driver %-13s%s\n", c[i].name, c[i].title,
                c[i].qemu_device, drv, c[i].is_default ? " (default)" : "");
    }
    fprintf(f, "\nThe guest image lives in $IOMARK_LAB_DIR, else $XDG_CACHE_HOME/iomark/lab,\n"
               "else ~/.cache/iomark/lab. Exit status: 0 all controllers ran, 1 one or more\n"
               "failed (each with its reason), 2 bad input, 130/143 interrupted.\n");
}

static int bad(const char *opt, const char *val, const char *why)
{
    iom_cli_error(CMD, "--%s=%s: %s", opt, val ? val : "", why);
    return IOM_EXIT_USAGE;
}

static bool parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    if (!s || !*s)
        return false;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || s[0] == '-' || v < lo || v > hi)
        return false;
    *out = (unsigned)v;
    return true;
}

/* Split one --guest-param value into K=V words. */
static int add_params(struct lab_opts *o, const char *val)
{
    char *dup = strdup(val ? val : "");
    if (!dup)
        return IOM_EXIT_FAIL;
    char *save = NULL;
    int words = 0;
    for (char *w = strtok_r(dup, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        const char *eq = strchr(w, '=');
        if (!eq || eq == w || strspn(w, "abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.=,:/+") !=
                                   strlen(w)) {
            free(dup);
            return bad("guest-param", val,
                       "allowed: KEY=VALUE words (letters, digits, _ - . , : / +), e.g. "
                       "vmw_pvscsi.ring_pages=32");
        }
        if (o->nr_store >= MAX_PARAMS) {
            free(dup);
            return bad("guest-param", val, "at most 64 parameters");
        }
        o->param_store[o->nr_store] = strdup(w);
        if (!o->param_store[o->nr_store]) {
            free(dup);
            return IOM_EXIT_FAIL;
        }
        o->params[o->nr_params++] = o->param_store[o->nr_store++];
        words++;
    }
    free(dup);
    if (!words)
        return bad("guest-param", val, "needs KEY=VALUE, e.g. nvme.io_queue_depth=64");
    return 0;
}

/* Lab option names that take a value. */
static const char *const lab_valued[] = {"controllers", "repeat", "disk-size", "guest-param",
                                         "cache", "scheduler", "vcpus", "memory", "accel",
                                         "timeout", "output-dir", "preset", NULL};

static int parse_args(int argc, char **argv, struct lab_opts *o)
{
    char err[512];
    o->repeat = 1;
    o->disk_bytes = 512ull << 20;
    o->cache = "writeback";
    o->scheduler = "none";
    o->vcpus = 2;
    o->memory_mib = 1024;
    o->accel = "auto";
    o->command = "run";
    bool have_ctrls = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = true;
            continue;
        }
        if (strcmp(a, "--keep-disk") == 0) {
            o->keep_disk = true;
            continue;
        }
        char name[64] = "";
        const char *val = NULL;
        bool lab = false;
        if (strncmp(a, "--", 2) == 0) {
            size_t nl = strcspn(a + 2, "=");
            snprintf(name, sizeof(name), "%.*s", (int)nl, a + 2);
            val = a[2 + nl] == '=' ? a + 3 + nl : NULL;
            for (const char *const *l = lab_valued; *l; l++)
                lab |= strcmp(*l, name) == 0;
        }
        if (!lab) {
            if (strcmp(name, "output") == 0 || strcmp(name, "output-format") == 0)
                return bad(name, val,
                           "the lab writes JSON results to --output-dir; allowed: --output-dir=DIR");
            if (strcmp(name, "profile") == 0)
                o->has_profile = true;
            if (o->nr_work >= MAX_ARGS)
                return bad(name, val, "too many workload options (at most 256)");
            if (strchr(a, '\n'))
                return bad(name, val, "a newline is not allowed in an option");
            o->work[o->nr_work++] = a;
            continue;
        }
        if (!val) {
            if (i + 1 >= argc)
                return bad(name, NULL, "needs a value");
            val = argv[++i];
        }
        if (strcmp(name, "controllers") == 0) {
            if (iom_lab_ctrl_list_parse(val, o->ctrls, IOM_LAB_MAX_CTRLS, &o->nr_ctrls, err,
                                        sizeof(err)))
                return bad(name, val, err);
            have_ctrls = true;
        } else if (strcmp(name, "repeat") == 0) {
            if (!parse_uint(val, 1, MAX_REPEAT, &o->repeat))
                return bad(name, val, "allowed: 1-100 runs per controller");
        } else if (strcmp(name, "disk-size") == 0) {
            const char *why = NULL;
            if (iom_parse_size(val, &o->disk_bytes, &why) || o->disk_bytes < (16ull << 20) ||
                o->disk_bytes > (64ull << 30) || o->disk_bytes % 512)
                return bad(name, val, "allowed: 16M to 64G, a multiple of 512 bytes (K, M, G)");
        } else if (strcmp(name, "guest-param") == 0) {
            int rc = add_params(o, val);
            if (rc)
                return rc;
        } else if (strcmp(name, "cache") == 0) {
            bool ok = false;
            for (const char *const *m = cache_modes; *m; m++)
                ok |= strcmp(*m, val) == 0;
            if (!ok)
                return bad(name, val, "allowed: writeback, none, writethrough, directsync, unsafe");
            o->cache = val;
        } else if (strcmp(name, "scheduler") == 0) {
            if (strcmp(val, "none") && strcmp(val, "mq-deadline") && strcmp(val, "keep") &&
                strcmp(val, "kyber") && strcmp(val, "bfq"))
                return bad(name, val, "allowed: none, mq-deadline, kyber, bfq, keep");
            o->scheduler = val;
        } else if (strcmp(name, "vcpus") == 0) {
            if (!parse_uint(val, 1, 64, &o->vcpus))
                return bad(name, val, "allowed: 1-64");
        } else if (strcmp(name, "memory") == 0) {
            if (!parse_uint(val, 256, 65536, &o->memory_mib))
                return bad(name, val, "allowed: 256-65536 (MiB)");
        } else if (strcmp(name, "accel") == 0) {
            if (strcmp(val, "auto") && strcmp(val, "kvm") && strcmp(val, "tcg"))
                return bad(name, val, "allowed: auto, kvm, tcg");
            o->accel = val;
        } else if (strcmp(name, "timeout") == 0) {
            if (!parse_uint(val, 10, 86400, &o->timeout_s))
                return bad(name, val, "allowed: 10-86400 seconds");
        } else if (strcmp(name, "output-dir") == 0) {
            if (!*val)
                return bad(name, val, "needs a folder name");
            o->output_dir = val;
        } else if (strcmp(name, "preset") == 0) {
            if (strcmp(val, "mark") != 0)
                return bad(name, val, "allowed: mark");
            o->command = "mark";
        }
    }
    snprintf(o->mark_size, sizeof(o->mark_size), "--size=%llu",
             (unsigned long long)o->disk_bytes);
    if (!have_ctrls &&
        iom_lab_ctrl_list_parse("default", o->ctrls, IOM_LAB_MAX_CTRLS, &o->nr_ctrls, err,
                                sizeof(err)))
        return IOM_EXIT_FAIL;
    return 0;
}

/* The guest's arguments to `iomark run|mark` (before --output and the disk). */
static size_t guest_args(const struct lab_opts *o, const char **out, size_t max)
{
    size_t n = 0;
    if (strcmp(o->command, "run") == 0 && !o->has_profile)
        for (size_t i = 0; i < sizeof(default_workload) / sizeof(default_workload[0]) && n < max;
             i++) {
            /* a default the user gave again is left out (theirs wins anyway) */
            const char *d = default_workload[i];
            size_t dl = strcspn(d, "=");
            bool given = false;
            for (size_t k = 0; k < o->nr_work; k++)
                given |= strncmp(o->work[k], d, dl) == 0 &&
                         (o->work[k][dl] == '=' || o->work[k][dl] == 0);
            if (!given)
                out[n++] = d;
        }
    if (strcmp(o->command, "mark") == 0) {
        /* mark's default 1 GiB test region can exceed the lab disk: use the disk */
        bool given = false;
        for (size_t k = 0; k < o->nr_work; k++)
            given |= strncmp(o->work[k], "--size", 6) == 0 &&
                     (o->work[k][6] == '=' || o->work[k][6] == 0);
        if (!given && n < max)
            out[n++] = o->mark_size;
    }
    for (size_t i = 0; i < o->nr_work && n < max; i++)
        out[n++] = o->work[i];
    static const char *const tail[] = {"--output-format=json", "--quiet", "--force"};
    for (size_t i = 0; i < 3 && n < max; i++)
        out[n++] = tail[i];
    return n;
}

/*
 * Check the workload on the host with the same option parser the guest's
 * iomark uses, so bad input stops here with exit 2. Returns 0 or the exit
 * status; *est_s gets the seconds one run should take.
 */
static int check_workload(const struct lab_opts *o, double *est_s)
{
    *est_s = 600;   /* mark: its runs and pauses are its own; bounded generously */
    if (strcmp(o->command, "run") != 0)
        return 0;
    const char *ga[MAX_ARGS + 16];
    size_t n = guest_args(o, ga, MAX_ARGS + 16);
    /* --profile applies first, then the options (as `iomark run` does) */
    char *av[MAX_ARGS + 20];
    int ac = 0;
    const char *profile = NULL;
    av[ac++] = (char *)"run";
    for (size_t i = 0; i < n; i++) {
        if (strcmp(ga[i], "--profile") == 0 || strncmp(ga[i], "--profile=", 10) == 0) {
            profile = ga[i][9] == '=' ? ga[i] + 10 : i + 1 < n ? ga[++i] : "";
            continue;
        }
        av[ac++] = (char *)ga[i];
    }
    av[ac] = NULL;
    struct iom_job job;
    struct iom_run_opts ro = {0};
    char err[512];
    iom_job_defaults(&job);
    int status = 0;
    const struct iom_profile *p = profile ? iom_profile_find(profile) : NULL;
    if (profile && !p) {
        size_t np;
        const struct iom_profile *all = iom_profile_list(&np);
        char list[512] = "";
        for (size_t i = 0; i < np; i++)
            snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
                     all[i].name);
        iom_cli_error(CMD, "--profile=%s: unknown profile; allowed: %s", profile, list);
        status = IOM_EXIT_USAGE;
    } else if (p && iom_profile_apply(p, &job, err, sizeof(err))) {
        iom_cli_error(CMD, "--profile=%s: %s", profile, err);
        status = IOM_EXIT_USAGE;
    } else if (iom_options_parse(ac, av, 1, &job, &ro, err, sizeof(err))) {
        iom_cli_error(CMD, "%s", err);
        status = IOM_EXIT_USAGE;
    } else if (job.nr_targets) {
        iom_cli_error(CMD, "%s: the lab supplies the disk; give workload options only",
                      job.targets[0]);
        status = IOM_EXIT_USAGE;
    } else {
        const char *opt = NULL, *why = NULL;
        iom_job_add_target(&job, "/dev/lab-disk");
        if (iom_job_validate(&job, &opt, &why)) {
            if (strcmp(opt, "target") == 0)
                iom_cli_error(CMD, "%s", why);
            else
                iom_cli_error(CMD, "--%s: %s", opt, why);
            status = IOM_EXIT_USAGE;
        }
        *est_s = (double)(job.ramp_ns + job.runtime_ns + job.cooldown_ns) / 1e9;
    }
    iom_job_free(&job);
    return status;
}

/* Create the backing image: non-zero pseudo-random bytes, so reads are not
 * served from holes. Returns 0 or -errno. */
static int make_disk(const char *path, uint64_t bytes)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -errno;
    static uint64_t buf[1 << 17];   /* 1 MiB */
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int rc = 0;
    for (uint64_t off = 0; off < bytes && !rc; off += sizeof(buf)) {
        for (size_t i = 0; i < sizeof(buf) / sizeof(buf[0]); i++) {
            x ^= x << 13;   /* xorshift64 (Marsaglia 2003) */
            x ^= x >> 7;
            x ^= x << 17;
            buf[i] = x;
        }
        size_t len = bytes - off < sizeof(buf) ? (size_t)(bytes - off) : sizeof(buf);
        if (write(fd, buf, len) != (ssize_t)len)
            rc = errno ? -errno : -EIO;
        if (iom_cli_stop)
            rc = -EINTR;
    }
    if (close(fd) != 0 && !rc)
        rc = -errno;
    if (rc)
        unlink(path);
    return rc;
}

/* Modules to insmod for a controller, with their parameters from the guest
 * parameters ("vmw_pvscsi.ring_pages=32" goes to vmw_pvscsi). */
static int module_lines(const struct iom_lab_ctrl *c, const struct lab_opts *o,
                        const char *kver, const char *dep_text, char **lines, char **drivers,
                        char *err, size_t errlen)
{
    const char *names[8];
    size_t nn = 0;
    names[nn++] = "virtio_pci";
    names[nn++] = "virtio_console";
    for (size_t k = 0; c->modules[k]; k++)
        names[nn++] = c->modules[k];
    char **paths = NULL, missing[128] = "";
    size_t np = 0;
    int rc = iom_lab_moddep_resolve(dep_text, names, nn, &paths, &np, missing, sizeof(missing));
    if (rc) {
        snprintf(err, errlen, "guest kernel %s has no module %s", kver, missing);
        return rc;
    }
    size_t cap = 8192;
    char *l = calloc(1, cap), *d = calloc(1, 512);
    if (!l || !d) {
        free(l);
        free(d);
        iom_lab_strv_free(paths, np);
        return -ENOMEM;
    }
    for (size_t i = 0; i < np; i++) {
        char m[128];
        iom_lab_module_name(paths[i], m, sizeof(m));
        size_t len = strlen(l);
        snprintf(l + len, cap - len, "/lib/modules/%s/%s", kver, paths[i]);
        for (size_t p = 0; p < o->nr_params; p++) {
            char pm[128];
            const char *dot = strchr(o->params[p], '.');
            const char *eq = strchr(o->params[p], '=');
            if (!dot || !eq || dot > eq)
                continue;
            snprintf(pm, sizeof(pm), "%.*s", (int)(dot - o->params[p]), o->params[p]);
            for (char *q = pm; *q; q++)
                if (*q == '-')
                    *q = '_';
            if (strcmp(pm, m) == 0) {
                len = strlen(l);
                snprintf(l + len, cap - len, " %s", dot + 1);
            }
        }
        len = strlen(l);
        snprintf(l + len, cap - len, "\n");
    }
    for (size_t k = 0; c->modules[k]; k++) {
        if (strcmp(c->modules[k], "sd_mod") == 0 || strcmp(c->modules[k], "virtio_pci") == 0)
            continue;
        size_t len = strlen(d);
        snprintf(d + len, 512 - len, "%s ", c->modules[k]);
    }
    iom_lab_strv_free(paths, np);
    *lines = l;
    *drivers = d;
    return 0;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, r;
    char *b = malloc(cap);
    while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
            }
            b = nb;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

/* Last non-empty line of a text (console, stderr) into buf. */
static void last_line(const char *text, char *buf, size_t len)
{
    buf[0] = 0;
    if (!text)
        return;
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(buf, len, "%.*s", (int)(end - start), start);
}

static void first_line(const char *text, char *buf, size_t len)
{
    buf[0] = 0;
    if (!text)
        return;
    while (*text == '\n')
        text++;
    snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
}

struct env {
    char qemu_version[128];
    const char *accel;             /* "kvm" / "tcg" */
    char accel_reason[128];
    struct iom_lab_setup_info setup;
    char *dep_text;
    char labdir[4096];
    char iomark_cpio[4300];
    char outdir[4096];
    char disk[4200];
    char append[4096];
    char workload[4096];
    char host_cpu[128];            /* /proc/cpuinfo "model name" */
    long host_cpus;
    double load_start, load_end;   /* 1-minute load average around the lab */
    time_t t_start;
};

static void iso_utc(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The host's CPU model and load: under TCG the host's other work moves the
 * figures, so the lab records it. */
static void host_info(struct env *e)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(e->host_cpu, sizeof(e->host_cpu), "unknown");
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "model name", 10) == 0) {
            const char *c = strchr(line, ':');
            if (c) {
                c += 1 + strspn(c + 1, " \t");
                snprintf(e->host_cpu, sizeof(e->host_cpu), "%.*s", (int)strcspn(c, "\n"), c);
            }
            break;
        }
    if (f)
        fclose(f);
    e->host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    double l[1];
    e->load_start = getloadavg(l, 1) == 1 ? l[0] : -1;
}

struct outcome {
    const struct iom_lab_ctrl *c;
    bool ok;
    char reason[512];
    double wall_s;
    unsigned nr_results;
    struct iom_lab_figures mean, min, max;
    struct iom_lab_guest_view view;
    bool have_view;
    cJSON *runs;                   /* array of figures per run */
    cJSON *mark_tests;             /* --preset=mark: the first run's "tests" array */
    cJSON *probe;                  /* `iomark probe` in the guest, when it ran */
};

static cJSON *env_json(const struct env *e, const struct lab_opts *o)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddStringToObject(l, "accelerator", e->accel);
    cJSON_AddStringToObject(l, "accelerator_reason", e->accel_reason);
    cJSON_AddStringToObject(l, "qemu_version", e->qemu_version);
    cJSON_AddStringToObject(l, "guest_kernel", e->setup.kernel_version);
    cJSON_AddStringToObject(l, "guest_kernel_package", e->setup.kernel_package);
    cJSON_AddNumberToObject(l, "vcpus", o->vcpus);
    cJSON_AddNumberToObject(l, "memory_mib", o->memory_mib);
    cJSON_AddStringToObject(l, "cache", o->cache);
    cJSON_AddStringToObject(l, "scheduler", o->scheduler);
    cJSON_AddNumberToObject(l, "disk_size_bytes", (double)o->disk_bytes);
    cJSON_AddStringToObject(l, "disk_format", "raw");
    cJSON_AddStringToObject(l, "kernel_cmdline", e->append);
    cJSON_AddStringToObject(l, "workload", e->workload);
    cJSON *h = cJSON_AddObjectToObject(l, "host");
    cJSON_AddStringToObject(h, "cpu_model", e->host_cpu);
    cJSON_AddNumberToObject(h, "nr_cpus", (double)e->host_cpus);
    cJSON_AddNumberToObject(h, "loadavg_1m_start", e->load_start);
    if (e->load_end >= 0)
        cJSON_AddNumberToObject(h, "loadavg_1m_end", e->load_end);
    cJSON *gp = cJSON_AddArrayToObject(l, "guest_params");
    for (size_t i = 0; i < o->nr_params; i++)
        cJSON_AddItemToArray(gp, cJSON_CreateString(o->params[i]));
    cJSON_AddStringToObject(l, "note",
                            "QEMU's emulated device models are measured, not VMware's: absolute "
                            "IOPS, latency and CPU cost do not carry over; the guest driver's "
                            "queue limits and maximum I/O size do");
    return l;
}

static void fig_acc(struct outcome *oc, const struct iom_lab_figures *f)
{
    double *m = &oc->mean.iops, *lo = &oc->min.iops, *hi = &oc->max.iops;
    const double *v = &f->iops;
    size_t nf = sizeof(*f) / sizeof(double);
    for (size_t i = 0; i < nf; i++) {
        m[i] += v[i];
        if (oc->nr_results == 0 || v[i] < lo[i])
            lo[i] = v[i];
        if (oc->nr_results == 0 || v[i] > hi[i])
            hi[i] = v[i];
    }
    oc->nr_results++;
}

static cJSON *fig_json(const struct iom_lab_figures *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "iops", f->iops);
    cJSON_AddNumberToObject(o, "mib_per_s", f->mib_per_s);
    cJSON_AddNumberToObject(o, "lat_mean_us", f->lat_mean_us);
    cJSON_AddNumberToObject(o, "lat_p99_us", f->lat_p99_us);
    cJSON_AddNumberToObject(o, "cpu_pct", f->cpu_pct);
    return o;
}

/* Boot one controller, collect, write its files. Fills oc. */
static void run_one(const struct lab_opts *o, struct env *e, size_t idx, double est_s,
                    struct outcome *oc)
{
    const struct iom_lab_ctrl *c = oc->c;
    char initrd[4300], chan[4300], console[4300], qlog[4300], err[512];
    snprintf(initrd, sizeof(initrd), "%s/.%s.initrd", e->outdir, c->name);
    snprintf(chan, sizeof(chan), "%s/%s.channel", e->outdir, c->name);
    snprintf(console, sizeof(console), "%s/%s.console.log", e->outdir, c->name);
    snprintf(qlog, sizeof(qlog), "%s/%s.qemu.log", e->outdir, c->name);
    oc->runs = cJSON_CreateArray();

    char *mods = NULL, *drivers = NULL;
    if (module_lines(c, o, e->setup.kernel_version, e->dep_text, &mods, &drivers, err,
                     sizeof(err))) {
        snprintf(oc->reason, sizeof(oc->reason), "%s", err);
        return;
    }
    const char *ga[MAX_ARGS + 16];
    size_t na = guest_args(o, ga, MAX_ARGS + 16);
    struct iom_lab_job_files jf = {
        .init_script = iom_lab_init_script, .args = ga, .nr_args = na, .command = o->command,
        .modules = mods, .drivers = drivers, .scheduler = o->scheduler, .ctrl = c->name,
        .repeat = o->repeat, .run_timeout_s = (unsigned)(1.5 * est_s + 30)};
    utimes(e->iomark_cpio, NULL);   /* newest: pruned last (it is also flock'ed while in use) */
    int rc = iom_lab_initrd_write(initrd, e->setup.base_cpio, e->iomark_cpio, &jf);
    free(mods);
    free(drivers);
    if (rc) {
        snprintf(oc->reason, sizeof(oc->reason), "writing %s: %s", initrd, strerror(-rc));
        return;
    }
    unlink(chan);
    struct iom_lab_vm vm = {.accel = e->accel, .vcpus = o->vcpus, .memory_mib = o->memory_mib,
                            .kernel = e->setup.vmlinuz, .initrd = initrd, .append = e->append,
                            .disk = e->disk, .cache = o->cache, .result_path = chan,
                            .console_path = console};
    char **argv = NULL;
    if (iom_lab_qemu_argv(c, &vm, &argv)) {
        snprintf(oc->reason, sizeof(oc->reason), "out of memory");
        unlink(initrd);
        return;
    }
    /* TCG boots in ~6 s and powers off in ~2 s on an idle host (measured
     * here), but 3-4 times slower on a loaded one; the bound is for hangs: 300 s
     * for boot and shutdown under TCG (120 s with KVM), and twice the
     * workload's time + 30 s per run */
    unsigned boot_s = strcmp(e->accel, "kvm") == 0 ? 120 : 300;
    unsigned timeout = o->timeout_s ? o->timeout_s
                                    : (unsigned)(boot_s + o->repeat * (2 * est_s + 30));
    fprintf(stderr, "[%zu/%zu] %s (QEMU %s on %s): booting, bound %u s\n", idx + 1, o->nr_ctrls,
            c->name, c->qemu_device, c->machine, timeout);
    struct iom_lab_proc_opts po = {.stdout_path = qlog, .stderr_path = qlog,
                                   .timeout_s = timeout, .stop = &iom_cli_stop};
    struct iom_lab_proc_result pr;
    iom_cli_progress_step(c->name, 0, LAB_BOOT_EST_S(e->accel) + o->repeat * est_s, 0);
    iom_cli_progress_phase("in the guest", o->repeat > 1 ? "booting, then the runs" : "booting, then the run");
    rc = iom_lab_proc_run(argv, &po, &pr);
    iom_cli_progress_clear();
    iom_lab_argv_free(argv);
    unlink(initrd);
    oc->wall_s = pr.wall_s;
    if (rc) {
        snprintf(oc->reason, sizeof(oc->reason), "cannot start %s: %s", IOM_LAB_QEMU,
                 strerror(-rc));
        return;
    }
    struct iom_lab_channel ch;
    rc = iom_lab_channel_read(chan, &ch);
    char *ctext = read_all(console), *qtext = read_all(qlog);
    char cl[256], ql[256];
    last_line(ctext, cl, sizeof(cl));
    first_line(qtext, ql, sizeof(ql));
    const struct iom_lab_section *sys = iom_lab_channel_get(&ch, "sysfs");
    const struct iom_lab_section *meta = iom_lab_channel_get(&ch, "meta");
    if (sys || meta) {
        iom_lab_guest_view_parse(sys ? sys->data : NULL, meta ? meta->data : NULL, &oc->view);
        oc->have_view = sys != NULL;
    }
    const struct iom_lab_section *pb = iom_lab_channel_get(&ch, "probe");
    if (pb)
        oc->probe = cJSON_ParseWithLength(pb->data, pb->len);
    const struct iom_lab_section *dm = iom_lab_channel_get(&ch, "dmesg");
    if (dm) {
        char p[4300];
        snprintf(p, sizeof(p), "%s/%s.dmesg.txt", e->outdir, c->name);
        FILE *f = fopen(p, "w");
        if (f) {
            fwrite(dm->data, 1, dm->len, f);
            fclose(f);
        }
    }
    /* results */
    char first_fail[512] = "";
    for (unsigned r = 1; r <= o->repeat; r++) {
        char name[32], path[4300];
        snprintf(name, sizeof(name), "result.%u", r);
        const struct iom_lab_section *res = iom_lab_channel_get(&ch, name);
        snprintf(name, sizeof(name), "status.%u", r);
        const struct iom_lab_section *st = iom_lab_channel_get(&ch, name);
        snprintf(name, sizeof(name), "stderr.%u", r);
        const struct iom_lab_section *se = iom_lab_channel_get(&ch, name);
        int status = st ? atoi(st->data) : -1;
        cJSON *doc = res ? cJSON_ParseWithLength(res->data, res->len) : NULL;
        struct iom_lab_figures fig;
        bool figs = doc && status == 0 && iom_lab_figures_from_doc(doc, &fig) == 0;
        bool other = doc && status == 0 && strcmp(o->command, "run") != 0; /* a mark document */
        if (figs) {
            fig_acc(oc, &fig);
            cJSON_AddItemToArray(oc->runs, fig_json(&fig));
        } else if (!other && !first_fail[0]) {
            char el[256];
            last_line(se ? se->data : NULL, el, sizeof(el));
            if (!st)
                snprintf(first_fail, sizeof(first_fail), "run %u did not report", r);
            else if (status != 0)
                snprintf(first_fail, sizeof(first_fail),
                         "iomark in the guest exited with %d: %s", status,
                         el[0] ? el : "(no message)");
            else
                snprintf(first_fail, sizeof(first_fail), "run %u sent no readable result", r);
        }
        if (!doc)
            continue;
        if (other && !oc->mark_tests) {
            const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "tests");
            if (cJSON_IsArray(t))
                oc->mark_tests = cJSON_Duplicate(t, 1);
        }
        /* the guest's document plus what the lab knows */
        cJSON *lab = env_json(e, o);
        cJSON_AddStringToObject(lab, "controller", c->name);
        cJSON_AddStringToObject(lab, "controller_title", c->title);
        cJSON_AddStringToObject(lab, "qemu_device", c->qemu_device);
        cJSON_AddStringToObject(lab, "machine", c->machine);
        cJSON_AddNumberToObject(lab, "run", r);
        if (oc->have_view)
            cJSON_AddItemToObject(lab, "guest", iom_lab_guest_view_json(&oc->view));
        if (oc->probe)
            cJSON_AddItemToObject(lab, "probe", cJSON_Duplicate(oc->probe, 1));
        cJSON_AddItemToObject(doc, "lab", lab);
        if (o->repeat == 1)
            snprintf(path, sizeof(path), "%s/%s.json", e->outdir, c->name);
        else
            snprintf(path, sizeof(path), "%s/%s.%u.json", e->outdir, c->name, r);
        int wrc = iom_json_write(doc, path);
        if (wrc && !first_fail[0])
            snprintf(first_fail, sizeof(first_fail), "writing %s: %s", path, strerror(-wrc));
        cJSON_Delete(doc);
    }
    if (oc->nr_results) {
        double *m = &oc->mean.iops;
        for (size_t i = 0; i < sizeof(oc->mean) / sizeof(double); i++)
            m[i] /= oc->nr_results;
    }
    const struct iom_lab_section *gerr = iom_lab_channel_get(&ch, "error");
    if (pr.stopped)
        snprintf(oc->reason, sizeof(oc->reason), "interrupted");
    else if (gerr)
        snprintf(oc->reason, sizeof(oc->reason), "%.*s", (int)strcspn(gerr->data, "\n"),
                 gerr->data);
    else if (pr.timed_out)
        snprintf(oc->reason, sizeof(oc->reason),
                 "guest did not finish within %u s (hang?); last console line: %s", timeout,
                 cl[0] ? cl : "(none)");
    else if (ch.n == 0 && pr.exit_status != 0)
        snprintf(oc->reason, sizeof(oc->reason), "QEMU exited with %d: %s", pr.exit_status,
                 ql[0] ? ql : "(no message)");
    else if (ch.n == 0)
        snprintf(oc->reason, sizeof(oc->reason),
                 "nothing came back on the result channel; last console line: %s",
                 cl[0] ? cl : "(none)");
    else if (rc == -EPROTO)
        snprintf(oc->reason, sizeof(oc->reason), "result channel garbled");
    else if (first_fail[0])
        snprintf(oc->reason, sizeof(oc->reason), "%s", first_fail);
    else if (!ch.complete)
        snprintf(oc->reason, sizeof(oc->reason),
                 "guest stopped before the end of its report; last console line: %s",
                 cl[0] ? cl : "(none)");
    else
        oc->ok = oc->nr_results == o->repeat || strcmp(o->command, "run") != 0;
    if (!oc->ok && !oc->reason[0])
        snprintf(oc->reason, sizeof(oc->reason), "fewer results than runs");
    free(ctext);
    free(qtext);
    iom_lab_channel_free(&ch);
    if (oc->ok)
        fprintf(stderr, "[%zu/%zu] %s: done in %.1f s\n", idx + 1, o->nr_ctrls, c->name,
                oc->wall_s);
    else
        fprintf(stderr, "[%zu/%zu] %s: FAILED after %.1f s: %s\n", idx + 1, o->nr_ctrls, c->name,
                oc->wall_s, oc->reason);
}

static void fmt_long(long v, char *buf, size_t len)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%ld", v);
}

static void print_table(FILE *f, const struct lab_opts *o, const struct env *e,
                        const struct outcome *oc)
{
    fprintf(f, "\niomark lab: %s on %s (%s), QEMU %s\n", e->setup.kernel_version,
            strcmp(e->accel, "kvm") == 0 ? "KVM" : "TCG", e->accel_reason, e->qemu_version);
    char ts[32];
    iso_utc(e->t_start, ts, sizeof(ts));
    fprintf(f, "started %s, %.0f s in all\n", ts, difftime(time(NULL), e->t_start));
    fprintf(f, "host: %s, %ld CPUs, load average %.1f at start, %.1f at end\n", e->host_cpu,
            e->host_cpus, e->load_start, e->load_end);
    fprintf(f, "guest: %u vCPUs, %u MiB; disk: %llu MiB raw, cache=%s, scheduler %s\n", o->vcpus,
            o->memory_mib, (unsigned long long)(o->disk_bytes >> 20), o->cache, o->scheduler);
    fprintf(f, "workload: iomark %s %s\n", o->command, e->workload);
    if (o->nr_params) {
        fprintf(f, "guest parameters:");
        for (size_t i = 0; i < o->nr_params; i++)
            fprintf(f, " %s", o->params[i]);
        fprintf(f, "\n");
    }
    fprintf(f, "These are QEMU's emulated device models, not VMware's: absolute IOPS, latency\n"
               "and CPU cost do not carry over; the guest driver's queue limits do.\n");
    if (o->repeat > 1)
        fprintf(f, "figures: mean of %u runs; IOPS range shows min-max\n", o->repeat);
    fprintf(f, "\n%-12s %-13s %10s %9s %9s %9s %6s %8s %6s %7s %4s %8s\n", "controller", "driver",
            "IOPS", "MiB/s", "mean us", "p99 us", "CPU %", "adapterQ", "LUN Q", "nr_req",
            "hwq", "max KiB");
    for (size_t i = 0; i < o->nr_ctrls; i++) {
        const struct outcome *x = &oc[i];
        char aq[16], lq[16], nr[16], hw[16], mk[16];
        long adapter = -1, lun = -1;
        if (x->have_view)
            iom_lab_guest_queues(&x->view, &adapter, &lun);
        fmt_long(adapter, aq, sizeof(aq));
        fmt_long(lun, lq, sizeof(lq));
        fmt_long(x->have_view ? x->view.nr_requests : -1, nr, sizeof(nr));
        fmt_long(x->have_view ? x->view.nr_hw_queues : -1, hw, sizeof(hw));
        fmt_long(x->have_view ? x->view.max_sectors_kb : -1, mk, sizeof(mk));
        const char *drv = x->have_view && x->view.driver[0] ? x->view.driver : "-";
        if (x->nr_results) {
            fprintf(f, "%-12s %-13s %10.0f %9.1f %9.0f %9.0f %6.1f %8s %6s %7s %4s %8s\n",
                    x->c->name, drv, x->mean.iops, x->mean.mib_per_s, x->mean.lat_mean_us,
                    x->mean.lat_p99_us, x->mean.cpu_pct, aq, lq, nr, hw, mk);
            if (o->repeat > 1) {
                char range[48];
                snprintf(range, sizeof(range), "%.0f-%.0f", x->min.iops, x->max.iops);
                fprintf(f, "%-12s %-13s %10s\n", "", "", range);
            }
        } else {
            fprintf(f, "%-12s %-13s %10s %9s %9s %9s %6s %8s %6s %7s %4s %8s\n", x->c->name, drv,
                    "-", "-", "-", "-", "-", aq, lq, nr, hw, mk);
        }
    }
    for (size_t i = 0; i < o->nr_ctrls; i++) {
        const cJSON *t;
        if (!oc[i].mark_tests)
            continue;
        fprintf(f, "\n%s, iomark mark (MB/s = 10^6 bytes/s, first run):\n%-14s %10s %10s %10s %10s\n",
                oc[i].c->name, "test", "read MB/s", "write MB/s", "read IOPS", "write IOPS");
        cJSON_ArrayForEach(t, oc[i].mark_tests)
        {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(t, "name");
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(t, "read");
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(t, "write");
            const cJSON *rm = cJSON_GetObjectItemCaseSensitive(r, "mb_per_s");
            const cJSON *wm = cJSON_GetObjectItemCaseSensitive(w, "mb_per_s");
            const cJSON *ri = cJSON_GetObjectItemCaseSensitive(r, "iops");
            const cJSON *wi = cJSON_GetObjectItemCaseSensitive(w, "iops");
            fprintf(f, "%-14s %10.1f %10.1f %10.0f %10.0f\n",
                    cJSON_IsString(nm) ? nm->valuestring : "?",
                    cJSON_IsNumber(rm) ? rm->valuedouble : 0, cJSON_IsNumber(wm) ? wm->valuedouble : 0,
                    cJSON_IsNumber(ri) ? ri->valuedouble : 0, cJSON_IsNumber(wi) ? wi->valuedouble : 0);
        }
    }
    fprintf(f, "\nadapterQ = scsi_host can_queue; LUN Q = device queue_depth (NVMe, virtio-blk: "
               "nr_requests per hardware queue);\nhwq = blk-mq hardware queues; max KiB = "
               "max_sectors_kb; CPU %% = guest user+system of all vCPUs.\n");
    bool any_fail = false;
    for (size_t i = 0; i < o->nr_ctrls; i++)
        if (!oc[i].ok) {
            if (!any_fail)
                fprintf(f, "\nfailed:\n");
            any_fail = true;
            fprintf(f, "  %-12s %s\n", oc[i].c->name, oc[i].reason);
        }
    for (size_t i = 0; i < o->nr_ctrls; i++)
        if (oc[i].have_view && oc[i].view.module_params[0])
            fprintf(f, "%s module parameters: %s\n", oc[i].c->name, oc[i].view.module_params);
    fprintf(f, "\nresults: %s (lab.json, lab.txt, one CONTROLLER.json per run)\n", e->outdir);
}

static int cmd_setup(int argc, char **argv)
{
    struct iom_lab_setup_opts so = {.install = true, .log = stderr};
    char labdir[4096], err[1024];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: iomark lab setup [--no-install] [--kernel-package=PKG]\n"
                   "Install or check qemu-system-x86, busybox-static and kmod (apt-get,\n"
                   "--no-install-recommends, as root), download Debian's kernel package\n"
                   "without installing it, and build the guest image in the lab folder:\n"
                   "$IOMARK_LAB_DIR, else $XDG_CACHE_HOME/iomark/lab, else ~/.cache/iomark/lab.\n");
            return IOM_EXIT_OK;
        } else if (strcmp(a, "--no-install") == 0) {
            so.install = false;
        } else if (strncmp(a, "--kernel-package=", 17) == 0) {
            so.kernel_package = a + 17;
            if (strncmp(so.kernel_package, "linux-image-", 12) != 0 ||
                strspn(so.kernel_package, "abcdefghijklmnopqrstuvwxyz0123456789.+-") !=
                    strlen(so.kernel_package))
                return bad("kernel-package", so.kernel_package,
                           "allowed: a Debian package name linux-image-VERSION-FLAVOUR");
        } else {
            iom_cli_error("lab setup", "%s: unknown option; allowed: --no-install, "
                                       "--kernel-package=PKG, --help", a);
            return IOM_EXIT_USAGE;
        }
    }
    if (iom_lab_dir(labdir, sizeof(labdir))) {
        iom_cli_error("lab setup", "no lab folder: set IOMARK_LAB_DIR or HOME");
        return IOM_EXIT_USAGE;
    }
    so.labdir = labdir;
    if (iom_lab_setup(&so, err, sizeof(err))) {
        iom_cli_error("lab setup", "%s", err);
        return IOM_EXIT_FAIL;
    }
    bool rebuilt;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = 0;
    char img[4300];
    if (iom_lab_iomark_image(labdir, exe, img, sizeof(img), &rebuilt, err, sizeof(err))) {
        iom_cli_error("lab setup", "%s", err);
        return IOM_EXIT_FAIL;
    }
    fprintf(stderr, "iomark image: %s (%s)\nlab ready\n", img, rebuilt ? "built" : "up to date");
    return IOM_EXIT_OK;
}

/* iomark lab clean [--all]: remove cached guest images (src/lab/image.c). */
static int cmd_clean(int argc, char **argv)
{
    struct iom_lab_clean_opts co = {.leftovers = true, .log = stdout};
    char labdir[4096];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: iomark lab clean [--all]\n"
                   "Remove the cached guest images of iomark builds (iomark-HASH.cpio, 60-80 MB\n"
                   "each; `iomark lab` writes its own again in a few seconds) and leftovers of\n"
                   "interrupted runs; images in use by a running lab are kept. --all also\n"
                   "removes what `iomark lab setup` made (kernel, base.cpio, lab.conf).\n"
                   "Prints each file removed and the MiB freed.\n");
            return IOM_EXIT_OK;
        } else if (strcmp(argv[i], "--all") == 0) {
            co.all = true;
        } else {
            iom_cli_error("lab clean", "%s: unknown option; allowed: --all, --help", argv[i]);
            return IOM_EXIT_USAGE;
        }
    }
    if (iom_lab_dir(labdir, sizeof(labdir))) {
        iom_cli_error("lab clean", "no lab folder: set IOMARK_LAB_DIR or HOME");
        return IOM_EXIT_USAGE;
    }
    co.labdir = labdir;
    struct iom_lab_clean_result r;
    int rc = iom_lab_clean(&co, &r);
    printf("%s: removed %u file%s, freed %.1f MiB", labdir, r.nr_removed,
           r.nr_removed == 1 ? "" : "s", (double)r.bytes_freed / (1024.0 * 1024.0));
    if (r.nr_in_use)
        printf("; %u image%s in use kept (%.1f MiB)", r.nr_in_use, r.nr_in_use == 1 ? "" : "s",
               (double)r.bytes_left / (1024.0 * 1024.0));
    printf("\n");
    if (rc) {
        iom_cli_error("lab clean", "%s: %s", labdir, strerror(-rc));
        return IOM_EXIT_FAIL;
    }
    return IOM_EXIT_OK;
}

int iom_cmd_lab(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "setup") == 0)
        return cmd_setup(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "clean") == 0)
        return cmd_clean(argc - 1, argv + 1);
    struct lab_opts o;
    memset(&o, 0, sizeof(o));
    struct env e;
    memset(&e, 0, sizeof(e));
    struct outcome *oc = NULL;
    char err[1024];
    int status = parse_args(argc, argv, &o);
    if (status)
        goto out;
    if (o.help) {
        usage(stdout);
        goto out;
    }
    double est_s;
    if ((status = check_workload(&o, &est_s)))
        goto out;
    /* output folder: must not hold results already */
    char defdir[64];
    if (!o.output_dir) {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(defdir, sizeof(defdir), "iomark-lab-%Y%m%d-%H%M%S", &tm);
        o.output_dir = defdir;
    }
    {
        char p[4300];
        struct stat st;
        snprintf(p, sizeof(p), "%s/lab.json", o.output_dir);
        if (stat(o.output_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            status = bad("output-dir", o.output_dir, "is a file; name a folder");
            goto out;
        }
        if (access(p, F_OK) == 0) {
            status = bad("output-dir", o.output_dir,
                         "already holds lab results (lab.json); name a new folder");
            goto out;
        }
    }
    /* environment: setup done, QEMU present, accelerator */
    if (iom_lab_dir(e.labdir, sizeof(e.labdir))) {
        iom_cli_error(CMD, "no lab folder: set IOMARK_LAB_DIR or HOME");
        status = IOM_EXIT_USAGE;
        goto out;
    }
    int rc = iom_lab_setup_load(e.labdir, &e.setup);
    if (rc) {
        iom_cli_error(CMD, "the guest image in %s is %s; run 'iomark lab setup' first", e.labdir,
                      rc == -ENOENT ? "missing" : "damaged");
        status = IOM_EXIT_FAIL;
        goto out;
    }
    if ((rc = iom_lab_qemu_version(e.qemu_version, sizeof(e.qemu_version)))) {
        iom_cli_error(CMD, "%s: %s; run 'iomark lab setup' (package qemu-system-x86)",
                      IOM_LAB_QEMU, rc == -ENOENT ? "not found" : "does not run");
        status = IOM_EXIT_FAIL;
        goto out;
    }
    bool kvm = iom_lab_kvm_usable();
    if (strcmp(o.accel, "kvm") == 0 && !kvm) {
        status = bad("accel", "kvm", "/dev/kvm cannot be opened here; allowed: auto, tcg");
        goto out;
    }
    if (strcmp(o.accel, "tcg") == 0) {
        e.accel = "tcg";
        snprintf(e.accel_reason, sizeof(e.accel_reason), "--accel=tcg");
    } else if (kvm) {
        e.accel = "kvm";
        snprintf(e.accel_reason, sizeof(e.accel_reason), "/dev/kvm usable");
    } else {
        e.accel = "tcg";
        snprintf(e.accel_reason, sizeof(e.accel_reason),
                 "no usable /dev/kvm: software emulation, slower");
    }
    /* modules.dep of the guest kernel is inside base.cpio; setup also keeps
     * a copy next to it */
    {
        char p[4300];
        snprintf(p, sizeof(p), "%s/modules.dep", e.labdir);
        if (!(e.dep_text = read_all(p))) {
            iom_cli_error(CMD, "%s is missing; run 'iomark lab setup' again", p);
            status = IOM_EXIT_FAIL;
            goto out;
        }
    }
    /* the iomark the guest runs is this one */
    {
        char exe[4096];
        bool rebuilt;
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        exe[n > 0 ? n : 0] = 0;
        if (iom_lab_iomark_image(e.labdir, exe, e.iomark_cpio, sizeof(e.iomark_cpio), &rebuilt,
                                 err, sizeof(err))) {
            iom_cli_error(CMD, "%s", err);
            status = IOM_EXIT_FAIL;
            goto out;
        }
        if (rebuilt)
            fprintf(stderr, "iomark lab: guest image of this iomark build written: %s\n",
                    e.iomark_cpio);
    }
    if ((rc = iom_lab_mkdirs(o.output_dir, 0755))) {
        iom_cli_error(CMD, "--output-dir=%s: cannot create: %s", o.output_dir, strerror(-rc));
        status = IOM_EXIT_USAGE;
        goto out;
    }
    snprintf(e.outdir, sizeof(e.outdir), "%s", o.output_dir);
    {
        const char *ga[MAX_ARGS + 16];
        size_t n = guest_args(&o, ga, MAX_ARGS + 16);
        for (size_t i = 0; i + 3 < n; i++) {   /* without the lab's own tail */
            size_t l = strlen(e.workload);
            snprintf(e.workload + l, sizeof(e.workload) - l, "%s%s", l ? " " : "", ga[i]);
        }
        size_t l = snprintf(e.append, sizeof(e.append), "console=ttyS0 panic=-1 quiet");
        for (size_t i = 0; i < o.nr_params && l < sizeof(e.append); i++)
            l += snprintf(e.append + l, sizeof(e.append) - l, " %s", o.params[i]);
    }
    iom_cli_signals_install();
    host_info(&e);
    e.load_end = -1;
    e.t_start = time(NULL);
    snprintf(e.disk, sizeof(e.disk), "%s/disk.raw", e.outdir);
    fprintf(stderr, "iomark lab: %s; %zu controller(s); backing disk %s (%llu MiB)\n",
            strcmp(e.accel, "kvm") == 0 ? "KVM" : "TCG (no usable /dev/kvm)", o.nr_ctrls,
            e.disk, (unsigned long long)(o.disk_bytes >> 20));
    if ((rc = make_disk(e.disk, o.disk_bytes))) {
        iom_cli_error(CMD, "creating %s: %s", e.disk, strerror(-rc));
        status = rc == -EINTR ? iom_cli_signal_exit(iom_cli_stop) : IOM_EXIT_FAIL;
        goto out;
    }
    oc = calloc(o.nr_ctrls, sizeof(*oc));
    if (!oc) {
        status = IOM_EXIT_FAIL;
        goto out;
    }
    /* progress line (cli/progress.h): per controller its boot (an estimate) and runs */
    iom_cli_progress_plan(CMD, NULL, (unsigned)o.nr_ctrls,
                          (double)o.nr_ctrls * (LAB_BOOT_EST_S(e.accel) + o.repeat * est_s), false);
    for (size_t i = 0; i < o.nr_ctrls; i++) {
        oc[i].c = o.ctrls[i];
        if (iom_cli_stop) {
            snprintf(oc[i].reason, sizeof(oc[i].reason), "not run (interrupted)");
            continue;
        }
        run_one(&o, &e, i, est_s, &oc[i]);
    }
    if (!o.keep_disk)
        unlink(e.disk);
    {
        double l[1];
        e.load_end = getloadavg(l, 1) == 1 ? l[0] : -1;
    }
    /* summary document and table */
    cJSON *doc = iom_json_doc_new("lab");
    if (doc) {
        char ts[32];
        time_t t_end = time(NULL);
        iso_utc(e.t_start, ts, sizeof(ts));
        cJSON_AddStringToObject(doc, "start_time", ts);
        iso_utc(t_end, ts, sizeof(ts));
        cJSON_AddStringToObject(doc, "end_time", ts);
        cJSON_AddNumberToObject(doc, "wall_s", difftime(t_end, e.t_start));
        cJSON_AddItemToObject(doc, "lab", env_json(&e, &o));
        cJSON_AddStringToObject(doc, "command", o.command);
        cJSON_AddNumberToObject(doc, "repeat", o.repeat);
        cJSON *arr = cJSON_AddArrayToObject(doc, "controllers");
        for (size_t i = 0; i < o.nr_ctrls; i++) {
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "name", oc[i].c->name);
            cJSON_AddStringToObject(x, "title", oc[i].c->title);
            cJSON_AddStringToObject(x, "qemu_device", oc[i].c->qemu_device);
            cJSON_AddStringToObject(x, "machine", oc[i].c->machine);
            cJSON_AddStringToObject(x, "status", oc[i].ok ? "ok" : "failed");
            if (!oc[i].ok)
                cJSON_AddStringToObject(x, "reason", oc[i].reason);
            cJSON_AddNumberToObject(x, "wall_s", oc[i].wall_s);
            if (oc[i].have_view)
                cJSON_AddItemToObject(x, "guest", iom_lab_guest_view_json(&oc[i].view));
            if (oc[i].nr_results) {
                cJSON_AddItemToObject(x, "mean", fig_json(&oc[i].mean));
                cJSON_AddItemToObject(x, "min", fig_json(&oc[i].min));
                cJSON_AddItemToObject(x, "max", fig_json(&oc[i].max));
            }
            if (oc[i].runs) {
                cJSON_AddItemToObject(x, "runs", oc[i].runs);
                oc[i].runs = NULL;
            }
            if (oc[i].probe) {
                cJSON_AddItemToObject(x, "probe", oc[i].probe);
                oc[i].probe = NULL;
            }
            cJSON_AddItemToArray(arr, x);
        }
        char p[4300];
        snprintf(p, sizeof(p), "%s/lab.json", e.outdir);
        if ((rc = iom_json_write(doc, p)))
            iom_cli_error(CMD, "writing %s: %s", p, strerror(-rc));
        cJSON_Delete(doc);
    }
    print_table(stdout, &o, &e, oc);
    {
        char p[4300];
        snprintf(p, sizeof(p), "%s/lab.txt", e.outdir);
        FILE *f = fopen(p, "w");
        if (f) {
            print_table(f, &o, &e, oc);
            fclose(f);
        }
    }
    status = IOM_EXIT_OK;
    for (size_t i = 0; i < o.nr_ctrls; i++)
        if (!oc[i].ok)
            status = IOM_EXIT_FAIL;
    if (iom_cli_stop)
        status = iom_cli_signal_exit(iom_cli_stop);
out:
    if (oc)
        for (size_t i = 0; i < o.nr_ctrls; i++) {
            cJSON_Delete(oc[i].runs);
            cJSON_Delete(oc[i].mark_tests);
            cJSON_Delete(oc[i].probe);
        }
    free(oc);
    free(e.dep_text);
    for (size_t i = 0; i < o.nr_store; i++)
        free(o.param_store[i]);
    return status;
}
