/*
 * cmd_lab.c - `iomark lab` argument handling: the lab's options, the
 * workload (old form: `iomark run` options; new form: `-- COMMAND ARGS`),
 * studies, and `iomark lab setup`. The lab itself lives in src/lab (lab.h).
 * See docs/lab.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "lab/image.h"
#include "lab/lab.h"
#include "lab/qemu.h"
#include "workload/args.h"
#include "workload/options.h"
#include "workload/presets.h"
#include "workload/units.h"


#define CMD "lab"

static const char *const cache_modes[] = {"writeback", "none", "writethrough", "directsync",
                                          "unsafe", NULL};

static void usage(FILE *f, const char *exe)
{
    size_t n;
    const struct iom_lab_ctrl *c = iom_lab_ctrls(&n);
    fprintf(f,
            "usage: iomark lab [lab options] [run options]\n"
            "       iomark lab [lab options] -- COMMAND ARGS...   (run, diskspd, sweep, mark, tpcc)\n"
            "       iomark lab --study NAME|FILE [--scale=F] [lab options]\n"
            "       iomark lab setup [--no-install] [--kernel-package=PKG]\n"
            "       iomark lab clean [--all]   remove cached guest images\n"
            "Run the same iomark workload on one backing disk behind each of QEMU's emulated\n"
            "controllers, with iomark inside a minimal Linux guest, and compare.\n"
            "These are QEMU's device models, not VMware's: absolute IOPS, latency and CPU\n"
            "cost do not carry over; the guest driver's queue limits do.\n\n"
            "  --controllers=LIST   comma-separated, or default, all (default: default); an entry\n"
            "                       may carry guest parameters: pvscsi+vmw_pvscsi.ring_pages=32\n"
            "  --repeat=N           runs per controller (one boot, N runs), 1-%d (default 1)\n"
            "  --disk-size=SIZE     backing raw image, 16M-64G (default 512M)\n"
            "  --guest-param=K=V    guest module parameter for every controller, repeatable;\n"
            "                       refused unless the guest image's module has it\n"
            "  --cache=MODE         QEMU cache mode of the disk: writeback (default), none,\n"
            "                       writethrough, directsync, unsafe\n"
            "  --scheduler=NAME     I/O scheduler set in the guest for every controller:\n"
            "                       none (default), mq-deadline, kyber, bfq, keep\n"
            "  --vcpus=N            guest vCPUs, 1-64 (default 2)\n"
            "  --memory=MIB         guest memory in MiB, 512-65536 (default 1024; the guest image unpacks into it)\n"
            "  --accel=A            auto (default: KVM when /dev/kvm opens, else TCG), kvm, tcg\n"
            "  --timeout=SECONDS    bound per boot (default: computed from the workload)\n"
            "  --output-dir=DIR     results folder (default ./iomark-lab-YYYYmmdd-HHMMSS)\n"
            "  --study=NAME|FILE    run a study (variants and workloads from a file); NAME is a\n"
            "                       shipped one, --study=list lists them\n"
            "  --scale=F            study durations and sizes times F, 0.01-10 (default 1)\n"
            "  --preset=mark        same as -- mark (its options, e.g. --runs=1, pass through)\n"
            "  --profile=NAME       passed to `iomark run` in the guest\n"
            "  --boot=shared|each   shared (default): controllers on the same machine type with\n"
            "                       the same guest parameters share one guest, one disk each,\n"
            "                       used one at a time; each: one boot per controller\n"
            "  --keep-disk          keep the backing image in DIR\n"
            "  --dry-run            check the options and the workload on the host, print what\n"
            "                       each guest would run, boot nothing, write nothing\n"
            "  --status-interval=T  progress line every T when stderr is not a terminal (fio's)\n"
            "  --help, -h\n\n"
            "Options are --name=VALUE or --name VALUE; '-' and '_' are the same in names.\n"
            "Without --, any other option is a workload option of `iomark run`, passed to the\n"
            "guest unchanged on top of the lab's default workload (--rw=randread --bs=4k\n"
            "--iodepth=32 --numjobs=2 --ramp_time=2s --runtime=10s). After --, the command\n"
            "and its arguments are run as given (diskspd: a DiskSpd line without target;\n"
            "tpcc: on SQLite on an ext2 file system made on the lab disk, loaded, run,\n"
            "then checked in the guest). The lab supplies the disk: give no TARGET.\n\n"
            "controllers:\n",
            IOM_LAB_MAX_REPEAT);
    for (size_t i = 0; i < n; i++) {
        /* the controller's own driver: skip the bus (virtio_pci) in front of it */
        const char *drv = c[i].modules[0];
        if (strcmp(drv, "virtio_pci") == 0 && c[i].modules[1])
            drv = c[i].modules[1];
        fprintf(f, "  %-12s %-18s QEMU %-15s guest driver %-13s%s\n", c[i].name, c[i].title,
                c[i].qemu_device, drv, c[i].is_default ? " (default)" : "");
    }
    fprintf(f, "\nstudies:\n");
    iom_lab_study_list(f, exe);
    fprintf(f, "\nThe guest image lives in $IOMARK_LAB_DIR, else $XDG_CACHE_HOME/iomark/lab,\n"
               "else ~/.cache/iomark/lab. Exit status: 0 all controllers ran, 1 one or more\n"
               "failed (each with its reason), 2 bad input, 130/143 interrupted (lab.json\n"
               "then holds what finished).\n");
}

static int bad(const char *opt, const char *val, const char *why)
{
    if (*opt)
        iom_cli_error(CMD, "--%s=%s: %s", opt, val ? val : "", why);
    else /* a word that is not one option: as typed */
        iom_cli_error(CMD, "%s: %s", val ? val : "", why);
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

struct cli {
    const char *params[IOM_LAB_MAX_PARAMS];   /* --guest-param words */
    size_t nr_params;
    const char *ctrls;                        /* --controllers value */
    const char *study;
    const char *scale_val;                    /* --scale value, NULL when not given */
    struct iom_run_opts ro;                   /* --status-interval: the host's progress line */
    bool preset_mark, dashdash, help, dry_run;
};

/* Split one --guest-param value into K=V words. */
static int add_params(struct iom_lab_opts *o, struct cli *c, const char *val)
{
    char *dup = strdup(val ? val : "");
    if (!dup)
        return IOM_EXIT_FAIL;
    char *save = NULL;
    int words = 0, rc = 0;
    for (char *w = strtok_r(dup, " \t", &save); w && !rc; w = strtok_r(NULL, " \t", &save)) {
        const char *eq = strchr(w, '=');
        if (!eq || eq == w ||
            strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.=,:/") !=
                strlen(w))
            rc = bad("guest-param", val,
                     "allowed: KEY=VALUE words (letters, digits, _ - . , : /), e.g. "
                     "vmw_pvscsi.ring_pages=32");
        else if (c->nr_params >= IOM_LAB_MAX_PARAMS)
            rc = bad("guest-param", val, "at most 64 parameters");
        else if (!(c->params[c->nr_params++] = iom_lab_opts_strdup(o, w)))
            rc = IOM_EXIT_FAIL;
        words++;
    }
    free(dup);
    if (!rc && !words)
        rc = bad("guest-param", val, "needs KEY=VALUE, e.g. nvme.io_queue_depth=64");
    return rc;
}

/* Units from a controller list whose entries may carry "+module.param=value". */
static int add_units(struct iom_lab_opts *o, const struct cli *c, const char *list)
{
    char err[512];
    char *dup = strdup(list);
    if (!dup)
        return IOM_EXIT_FAIL;
    char *save = NULL;
    size_t nent = 0;
    char *ent[IOM_LAB_MAX_UNITS * 2];
    for (char *e = strtok_r(dup, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
        if (nent < sizeof(ent) / sizeof(ent[0]))
            ent[nent++] = e;
    }
    const struct iom_lab_ctrl *ctrls[IOM_LAB_MAX_CTRLS];
    size_t nc = 0;
    int rc = 0;
    for (size_t i = 0; i < nent && !rc; i++) {
        char *plus = strchr(ent[i], '+');
        char name[64];
        snprintf(name, sizeof(name), "%.*s", plus ? (int)(plus - ent[i]) : (int)strlen(ent[i]),
                 ent[i]);
        if (!plus) {
            /* plain names (and the default/all sets): the table's parser */
            if (iom_lab_ctrl_list_parse(name, ctrls, IOM_LAB_MAX_CTRLS, &nc, err, sizeof(err))) {
                rc = bad("controllers", list, err);
                break;
            }
        } else {
            const struct iom_lab_ctrl *one = iom_lab_ctrl_find(name);
            if (!one) {
                iom_lab_ctrl_list_parse(name, ctrls, IOM_LAB_MAX_CTRLS, &nc, err, sizeof(err));
                rc = bad("controllers", list, err);
                break;
            }
            ctrls[0] = one;
            nc = 1;
        }
        for (size_t k = 0; k < nc && !rc; k++) {
            if (o->nr_units >= IOM_LAB_MAX_UNITS) {
                rc = bad("controllers", list, "at most 16 controllers and variants");
                break;
            }
            struct iom_lab_unit *u = &o->units[o->nr_units];
            memset(u, 0, sizeof(*u));
            u->c = ctrls[k];
            snprintf(u->name, sizeof(u->name), "%s%s", ctrls[k]->name, plus ? plus : "");
            for (size_t j = 0; j < o->nr_units; j++)
                if (strcmp(o->units[j].name, u->name) == 0)
                    rc = bad("controllers", list, "a controller or variant is named twice");
            for (size_t p = 0; p < c->nr_params && !rc; p++)
                u->params[u->nr_params++] = c->params[p];
            for (char *w = plus; w && !rc;) {
                char *next = strchr(w + 1, '+');
                char word[256];
                snprintf(word, sizeof(word), "%.*s", next ? (int)(next - w - 1) : (int)strlen(w + 1),
                         w + 1);
                if (!strchr(word, '=') || word[0] == '=')
                    rc = bad("controllers", list,
                             "a variant is CONTROLLER+module.param=value, e.g. "
                             "pvscsi+vmw_pvscsi.ring_pages=32");
                else if (u->nr_params >= IOM_LAB_MAX_PARAMS)
                    rc = bad("controllers", list, "at most 64 parameters");
                else if (!(u->params[u->nr_params++] = iom_lab_opts_strdup(o, word)))
                    rc = IOM_EXIT_FAIL;
                w = next;
            }
            o->nr_units++;
        }
    }
    free(dup);
    if (!rc && !o->nr_units)
        rc = bad("controllers", list, "names no controller");
    return rc;
}

/*
 * The lab's own options: the grammar of every sub-command (workload/args.h:
 * --x=y or --x y, '-' and '_' alike, "--" ends them). Any other option is
 * the old form's workload, an option of `iomark run` passed to the guest.
 */
enum {
    O_CONTROLLERS, O_REPEAT, O_DISK_SIZE, O_GUEST_PARAM, O_CACHE, O_SCHEDULER, O_VCPUS,
    O_MEMORY, O_ACCEL, O_TIMEOUT, O_OUTPUT_DIR, O_PRESET, O_STUDY, O_SCALE, O_BOOT,
    O_KEEP_DISK, O_DRY_RUN, O_STATUS_INTERVAL, O_HELP,
};
static const struct iom_arg_opt lab_table[] = {
    [O_CONTROLLERS] = {"controllers", 0, true}, [O_REPEAT] = {"repeat", 0, true},
    [O_DISK_SIZE] = {"disk-size", 0, true},     [O_GUEST_PARAM] = {"guest-param", 0, true},
    [O_CACHE] = {"cache", 0, true},             [O_SCHEDULER] = {"scheduler", 0, true},
    [O_VCPUS] = {"vcpus", 0, true},             [O_MEMORY] = {"memory", 0, true},
    [O_ACCEL] = {"accel", 0, true},             [O_TIMEOUT] = {"timeout", 0, true},
    [O_OUTPUT_DIR] = {"output-dir", 0, true},   [O_PRESET] = {"preset", 0, true},
    [O_STUDY] = {"study", 0, true},             [O_SCALE] = {"scale", 0, true},
    [O_BOOT] = {"boot", 0, true},               [O_KEEP_DISK] = {"keep-disk", 0, false},
    [O_DRY_RUN] = {"dry-run", 0, false},        [O_STATUS_INTERVAL] = {"status-interval", 0, true},
    [O_HELP] = {"help", 'h', false},
    {NULL, 0, false},
};

/* One value from the one-of list `allowed` (NULL-ended), else NULL. */
static const char *one_of(const char *v, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (strcmp(*allowed, v) == 0)
            return *allowed;
    return NULL;
}

/* Lab option k (lab_table) with value v (NULL for a bare flag): 0 or exit 2. */
static int lab_option(int k, const char *v, struct iom_lab_opts *o, struct cli *c)
{
    static const char *const scheds[] = {"none", "mq-deadline", "kyber", "bfq", "keep", NULL};
    static const char *const accels[] = {"auto", "kvm", "tcg", NULL};
    static const char *const boots[] = {"shared", "each", NULL};
    static const char *const presets[] = {"mark", NULL};
    const char *name = lab_table[k].name, *why = NULL;
    char *end;
    switch (k) {
    case O_CONTROLLERS:
        c->ctrls = v;
        return 0;
    case O_REPEAT:
        return parse_uint(v, 1, IOM_LAB_MAX_REPEAT, &o->repeat)
                   ? 0 : bad(name, v, "allowed: 1-100 runs per controller");
    case O_DISK_SIZE:
        if (iom_parse_size(v, &o->disk_bytes, &why) || o->disk_bytes < (16ull << 20) ||
            o->disk_bytes > (64ull << 30) || o->disk_bytes % 512)
            return bad(name, v, "allowed: 16M to 64G, a multiple of 512 bytes (K, M, G)");
        return 0;
    case O_GUEST_PARAM:
        return add_params(o, c, v);
    case O_CACHE:
        return (o->cache = one_of(v, cache_modes))
                   ? 0
                   : iom_cli_bad_choice(CMD, name, v, cache_modes,
                                        "writeback, none, writethrough, directsync, unsafe");
    case O_SCHEDULER:
        return (o->scheduler = one_of(v, scheds))
                   ? 0
                   : iom_cli_bad_choice(CMD, name, v, scheds,
                                        "none, mq-deadline, kyber, bfq, keep");
    case O_VCPUS:
        return parse_uint(v, 1, 64, &o->vcpus) ? 0 : bad(name, v, "allowed: 1-64");
    case O_MEMORY:
        return parse_uint(v, 512, 65536, &o->memory_mib) ? 0
                                                          : bad(name, v, "allowed: 512-65536 (MiB)");
    case O_ACCEL:
        return (o->accel = one_of(v, accels))
                   ? 0
                   : iom_cli_bad_choice(CMD, name, v, accels, "auto, kvm, tcg");
    case O_TIMEOUT:
        return parse_uint(v, 10, 86400, &o->timeout_s) ? 0
                                                        : bad(name, v, "allowed: 10-86400 seconds");
    case O_OUTPUT_DIR:
        o->output_dir = v;
        return *v ? 0 : bad(name, v, "needs a folder name");
    case O_PRESET:
        c->preset_mark = strcmp(v, "mark") == 0;
        return c->preset_mark ? 0 : iom_cli_bad_choice(CMD, name, v, presets, "mark");
    case O_STUDY:
        c->study = v;
        return *v ? 0 : bad(name, v, "needs a study name or file; --study=list lists them");
    case O_SCALE:
        o->scale = strtod(v, &end);
        c->scale_val = v;
        if (*end || end == v || !(o->scale >= 0.01 && o->scale <= 10))
            return bad(name, v, "allowed: 0.01-10 (a factor on study durations and sizes)");
        return 0;
    case O_STATUS_INTERVAL:   /* the host's progress line; the guest's iomark has --quiet */
        return iom_parse_duration(v, &c->ro.status_interval_ns, &why) ||
                       c->ro.status_interval_ns < 1000000000ull ||
                       c->ro.status_interval_ns > 86400ull * 1000000000ull
                   ? bad(name, v, "allowed: 1s to 24h, e.g. 10s") : 0;
    case O_BOOT:
        if (!one_of(v, boots))
            return iom_cli_bad_choice(CMD, name, v, boots, "shared, each");
        o->shared_boot = strcmp(v, "shared") == 0;
        return 0;
    default: { /* the flags */
        int f = iom_args_flag(v);
        if (f < 0)
            return bad(name, v, "allowed: 0 or 1");
        if (k == O_KEEP_DISK)
            o->keep_disk = f;
        else if (k == O_DRY_RUN)
            c->dry_run = f;
        else
            c->help = f;
        return 0;
    }
    }
}

/*
 * Word w (argv) is not a lab option. An option of `iomark run` (or its
 * --profile) is the old form's workload: 0. Anything else: one line naming
 * the closest lab or run option, exit 2.
 */
static int not_lab_option(const char *w)
{
    char name[64];
    const char *n = w + (w[1] == '-' ? 2 : 1);
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(n, "="), n);
    const char *via, *run = iom_option_suggest_via(name, &via);
    if (iom_args_name_eq(name, (size_t)-1, "output") ||
        iom_args_name_eq(name, (size_t)-1, "output-format"))
        return bad("", w, "the lab writes JSON results to --output-dir; allowed: --output-dir=DIR");
    if ((run && iom_args_name_eq(name, (size_t)-1, run)) || strcmp(name, "profile") == 0 ||
        iom_mark_own_option(name))
        return 0;   /* mark's own (--runs, ...): with --preset=mark only (parse_args);
                     * --profile is run's SQL Server profile too */
    const char *lab = NULL;
    size_t dl = 4, dr = run ? iom_edit_distance(name, run) : 99;
    for (const struct iom_arg_opt *t = lab_table; t->name; t++) {
        size_t d = iom_edit_distance(name, t->name);
        if (d < dl) {
            dl = d;
            lab = t->name;
        }
    }
    /* another tool's name first: "--loops" is the lab's --repeat, "--ba" run's --blockalign */
    const char *near = run && via ? run : lab && dl <= dr ? lab : run, *by = near == run ? via : 0;
    if (near)
        iom_cli_error(CMD, "%s: unknown option; did you mean --%s%s%s%s? (lab options: iomark lab "
                           "--help; any other option is iomark run's)", w, near,
                      by ? " (iomark's name for --" : "", by ? by : "", by ? ")" : "");
    else
        iom_cli_error(CMD, "%s: unknown option; allowed: the lab options of iomark lab --help "
                           "and the options of iomark run --help", w);
    return IOM_EXIT_USAGE;
}

/* The workload after "--": COMMAND ARGS... from argv[i]. */
static int take_command(int argc, char **argv, int i, struct iom_lab_opts *o, struct cli *c)
{
    struct iom_lab_job *j = &o->jobs[0];
    if (j->nr_args)
        return bad("", j->args[0], "workload options go after -- COMMAND (e.g. -- run --bs=8k); "
                                   "before -- only lab options are allowed");
    if (c->study)
        return bad("study", c->study, "give either a study, --preset or -- COMMAND ARGS");
    /* --preset=mark -- ARGS: ARGS are mark's (`-- mark ARGS` too) */
    if (c->preset_mark && i < argc && strcmp(argv[i], "mark") && one_of(argv[i], iom_lab_commands))
        return bad("preset", "mark", "give either --preset=mark or -- COMMAND ARGS");
    if (i >= argc && !c->preset_mark)
        return bad("", "--", "needs COMMAND ARGS after --; allowed commands: run, diskspd, "
                             "sweep, mark, tpcc");
    memset(j, 0, sizeof(*j));
    if (!c->preset_mark && !one_of(argv[i], iom_lab_commands)) {
        char why[200];
        iom_allowed_near_list(why, sizeof(why), argv[i], iom_lab_commands,
                              "run, diskspd, sweep, mark, tpcc");
        iom_cli_error(CMD, "-- %s: unknown command; %s", argv[i], why);
        return IOM_EXIT_USAGE;
    }
    snprintf(j->command, sizeof(j->command), "%s", c->preset_mark ? "mark" : argv[i]);
    if (c->preset_mark && i < argc && strcmp(argv[i], "mark"))
        i--;   /* no command word: argv[i] is mark's first argument */
    for (i++; i < argc; i++) {
        const char *a = argv[i], *v = strchr(a, '=');
        if (a[0] == '-' && a[1] == '-' && iom_args_name_eq(a + 2, strcspn(a + 2, "="),
                                                           lab_table[O_STATUS_INTERVAL].name)) {
            const char *val = v ? v + 1 : "";
            if (!v && i + 1 < argc && iom_args_value_word(argv[i + 1]))
                val = argv[++i];
            int rc = lab_option(O_STATUS_INTERVAL, val, o, c);
            if (rc)
                return rc;
            continue;
        }
        if (j->nr_args >= IOM_LAB_MAX_ARGS)
            return bad("", argv[i], "too many workload arguments (at most 256)");
        j->args[j->nr_args++] = argv[i];
    }
    o->nr_jobs = 1;
    return 0;
}

static int parse_args(int argc, char **argv, struct iom_lab_opts *o, struct cli *c)
{
    o->repeat = 1;
    o->disk_bytes = 512ull << 20;
    o->cache = "writeback";
    o->scheduler = "none";
    o->vcpus = 2;
    o->memory_mib = 1024;
    o->accel = "auto";
    o->scale = 1;
    o->shared_boot = true;
    struct iom_lab_job *legacy = &o->jobs[0];
    snprintf(legacy->command, sizeof(legacy->command), "run");
    legacy->lab_defaults = true;
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, lab_table, CMD);
    const char *v;
    char aerr[1024];
    int k, rc;
    while ((k = iom_args_next(&args, &v, aerr, sizeof(aerr))) != IOM_ARG_END) {
        const char *w = argv[args.i - 1];
        if (k == IOM_ARG_POSITIONAL && args.only_positional) {
            c->dashdash = true; /* COMMAND: the rest is the guest's */
            break;
        }
        if (k >= 0) {
            if ((rc = lab_option(k, v, o, c)))
                return rc;
            continue;
        }
        if (k == IOM_ARG_ERROR) {
            /* the table's own errors: a lab option without its value, a typographic dash */
            bool table = w[0] != '-';
            for (const struct iom_arg_opt *t = lab_table; t->name && !table; t++)
                table = w[1] == '-' ? iom_args_name_eq(w + 2, strcspn(w + 2, "="), t->name)
                                    : t->short_name && w[1] == t->short_name && !w[2];
            if (table) {
                iom_cli_error(CMD, "%s", aerr);
                return IOM_EXIT_USAGE;
            }
            if ((rc = not_lab_option(w)))
                return rc;
        }
        /* the old form: the word goes to `iomark run` in the guest */
        if (legacy->nr_args >= IOM_LAB_MAX_ARGS)
            return bad("", w, "too many workload options (at most 256)");
        if (strchr(w, '\n'))
            return bad("", w, "a newline is not allowed in an option");
        legacy->args[legacy->nr_args++] = w;
    }
    c->dashdash |= args.only_positional;
    if (c->help || (c->study && strcmp(c->study, "list") == 0))
        return 0;
    /* the workload: a study, -- COMMAND ARGS, --preset=mark, or run options */
    if (c->dashdash) {
        if ((rc = take_command(argc, argv, args.i - (k == IOM_ARG_END ? 0 : 1), o, c)))
            return rc;
    } else if (c->study) {
        if (legacy->nr_args || c->preset_mark)
            return bad("study", c->study, "a study brings its workloads; give lab options only");
        if (c->ctrls)
            return bad("study", c->study, "a study names its controllers; leave out --controllers");
    } else {
        if (c->preset_mark)
            snprintf(legacy->command, sizeof(legacy->command), "mark");
        for (size_t n = 0; n < legacy->nr_args && !c->preset_mark; n++) {
            const char *w = legacy->args[n];
            char nm[64] = "";
            if (w[0] == '-' && w[1] == '-')
                snprintf(nm, sizeof(nm), "%.*s", (int)strcspn(w + 2, "="), w + 2);
            if (nm[0] && iom_mark_own_option(nm) && !iom_args_name_eq(nm, (size_t)-1, "profile"))
                return bad("", w, "an option of iomark mark; allowed with --preset=mark or "
                                  "-- mark");
        }
        o->nr_jobs = 1;
    }
    if (c->scale_val && !c->study)
        return bad("scale", c->scale_val, "applies to --study only");
    for (size_t n = 0; n < o->nr_jobs; n++)
        iom_lab_job_label(&o->jobs[n]);
    if (!c->study)
        return add_units(o, c, c->ctrls ? c->ctrls : "default");
    return 0;
}

static int cmd_setup(int argc, char **argv)
{
    struct iom_lab_setup_opts so = {.install = true, .log = stderr};
    char labdir[4096], err[1024];
    static const struct iom_arg_opt table[] = {
        {"no-install", 0, false}, {"kernel-package", 0, true}, {"help", 'h', false},
        {NULL, 0, false},
    };
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, table, "lab setup");
    const char *v;
    int k;
    while ((k = iom_args_next(&args, &v, err, sizeof(err))) != IOM_ARG_END) {
        if (k == IOM_ARG_ERROR || k == IOM_ARG_POSITIONAL) {
            iom_cli_error("lab setup", "%s%s", k == IOM_ARG_ERROR ? err : v,
                          k == IOM_ARG_ERROR ? "" : ": unexpected argument; allowed: "
                                                    "--no-install, --kernel-package=PKG, --help");
            return IOM_EXIT_USAGE;
        }
        if (k != 1 && iom_args_flag(v) < 0) {
            iom_cli_error("lab setup", "--%s=%s: allowed: 0 or 1", table[k].name, v);
            return IOM_EXIT_USAGE;
        }
        if (k == 0) {
            so.install = !iom_args_flag(v);
        } else if (k == 1) {
            so.kernel_package = v;
            if (strncmp(v, "linux-image-", 12) != 0 ||
                strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789.+-") != strlen(v)) {
                iom_cli_error("lab setup", "--kernel-package=%s: allowed: a Debian package name "
                                           "linux-image-VERSION-FLAVOUR", v);
                return IOM_EXIT_USAGE;
            }
        } else if (iom_args_flag(v)) {
            printf("usage: iomark lab setup [--no-install] [--kernel-package=PKG]\n"
                   "Install or check qemu-system-x86, busybox-static and kmod (apt-get,\n"
                   "--no-install-recommends, as root), download Debian's kernel package\n"
                   "without installing it, and build the guest image in the lab folder:\n"
                   "$IOMARK_LAB_DIR, else $XDG_CACHE_HOME/iomark/lab, else ~/.cache/iomark/lab.\n");
            return IOM_EXIT_OK;
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
    static const struct iom_arg_opt table[] = {
        {"all", 0, false}, {"help", 'h', false}, {NULL, 0, false},
    };
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, table, "lab clean");
    const char *v;
    char err[600];
    int k;
    while ((k = iom_args_next(&args, &v, err, sizeof(err))) != IOM_ARG_END) {
        if (k == IOM_ARG_ERROR || k == IOM_ARG_POSITIONAL) {
            iom_cli_error("lab clean", "%s%s", k == IOM_ARG_ERROR ? err : v,
                          k == IOM_ARG_ERROR ? "" : ": unexpected argument; allowed: --all, --help");
            return IOM_EXIT_USAGE;
        }
        if (iom_args_flag(v) < 0) {
            iom_cli_error("lab clean", "--%s=%s: allowed: 0 or 1", table[k].name, v);
            return IOM_EXIT_USAGE;
        }
        if (k == 0) {
            co.all = iom_args_flag(v);
        } else if (iom_args_flag(v)) {
            printf("usage: iomark lab clean [--all]\n"
                   "Remove the cached guest images of iomark builds (iomark-HASH.cpio, 60-80 MB\n"
                   "each; `iomark lab` writes its own again in a few seconds) and leftovers of\n"
                   "interrupted runs; images in use by a running lab are kept. --all also\n"
                   "removes what `iomark lab setup` made (kernel, base.cpio, lab.conf).\n"
                   "Prints each file removed and the MiB freed. The lab folder:\n"
                   "$IOMARK_LAB_DIR, else $XDG_CACHE_HOME/iomark/lab, else ~/.cache/iomark/lab\n"
                   "(here: %s).\n",
                   iom_lab_dir(labdir, sizeof(labdir)) ? "none: set IOMARK_LAB_DIR or HOME" : labdir);
            return IOM_EXIT_OK;
        }
    }
    if (iom_lab_dir(labdir, sizeof(labdir))) {
        iom_cli_error("lab clean", "no lab folder: set IOMARK_LAB_DIR or HOME");
        return IOM_EXIT_USAGE;
    }
    struct stat lst;
    if (stat(labdir, &lst) != 0 && errno == ENOENT) { /* nothing to clean, nothing created */
        printf("%s: no lab folder yet (no lab has run here); nothing to remove\n", labdir);
        return IOM_EXIT_OK;
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

/* --dry-run: what each guest would run, after the host's checks (src/lab/jobs.c). */
static int dry_run(FILE *f, const struct iom_lab_opts *o)
{
    char err[1024];
    int rc = iom_lab_dry_run(f, o, err, sizeof(err));
    if (rc == -EINVAL)
        iom_cli_error(CMD, "%s", err);
    return rc == -EINVAL ? IOM_EXIT_USAGE : rc ? IOM_EXIT_FAIL : IOM_EXIT_OK;
}

/* The progress line (cli/progress.h): "lab K/N NAME: WHAT [eta mm:ss]" for boot K
 * of N, what its guest does as the result channel tells (src/lab/measure.c), the
 * time left recomputed at each stage. arg: the host's --status-interval. */
static void hook_plan(void *arg, size_t nr_boots, double est_total_s)
{
    iom_cli_progress_plan(CMD, arg, (unsigned)nr_boots, est_total_s, false);
}

static void hook_progress(void *arg, const struct iom_lab_progress *p)
{
    static const char *const what[] = {"booting", "running", "sending results", "shutting down"};
    char name[96];
    (void)arg;
    snprintf(name, sizeof(name), "%s job %zu/%zu run %u/%u", p->unit ? p->unit : "", p->job,
             p->nr_jobs, p->run, p->nr_runs);
    iom_cli_progress_step_at((unsigned)p->boot, p->unit ? name : p->label,
                             p->phased ? NULL : what[p->stage], p->ramp_s, p->run_s, p->cool_s,
                             p->left_s);
}

static void hook_boot_done(void *arg)
{
    (void)arg;
    iom_cli_progress_clear();
}

int iom_cmd_lab(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "setup") == 0)
        return cmd_setup(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "clean") == 0)
        return cmd_clean(argc - 1, argv + 1);
    char exe[4096], labdir[4096], err[1024];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = 0;
    struct iom_lab_opts *o = calloc(1, sizeof(*o));
    struct cli c;
    memset(&c, 0, sizeof(c));
    if (!o)
        return IOM_EXIT_FAIL;
    int status = parse_args(argc, argv, o, &c);
    if (status)
        goto out;
    if (c.help) {
        usage(stdout, exe);
        goto out;
    }
    if (c.study && strcmp(c.study, "list") == 0) {
        iom_lab_study_list(stdout, exe);
        goto out;
    }
    if (c.study) {
        if (iom_lab_study_load(o, c.study, o->scale, err, sizeof(err))) {
            iom_cli_error(CMD, "--study=%s: %s", c.study, err);
            status = IOM_EXIT_USAGE;
            goto out;
        }
        /* --guest-param applies to every variant, before the variant's own */
        for (size_t u = 0; u < o->nr_units; u++) {
            struct iom_lab_unit *un = &o->units[u];
            if (un->nr_params + c.nr_params > IOM_LAB_MAX_PARAMS) {
                status = bad("guest-param", c.params[0], "at most 64 parameters");
                goto out;
            }
            memmove(un->params + c.nr_params, un->params, un->nr_params * sizeof(un->params[0]));
            memcpy(un->params, c.params, c.nr_params * sizeof(c.params[0]));
            un->nr_params += c.nr_params;
        }
    }
    /* output folder: must not hold results already */
    char defdir[64];
    if (!o->output_dir) {
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(defdir, sizeof(defdir), "iomark-lab-%Y%m%d-%H%M%S", &tm);
        o->output_dir = defdir;
    }
    {
        char p[4300];
        struct stat st;
        snprintf(p, sizeof(p), "%s/lab.json", o->output_dir);
        if (stat(o->output_dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
            status = bad("output-dir", o->output_dir, "is a file; name a folder");
            goto out;
        }
        if (access(p, F_OK) == 0) {
            status = bad("output-dir", o->output_dir,
                         "already holds lab results (lab.json); name a new folder");
            goto out;
        }
    }
    if (c.dry_run) {
        status = dry_run(stdout, o);
        goto out;
    }
    if (iom_lab_dir(labdir, sizeof(labdir))) {
        iom_cli_error(CMD, "no lab folder: set IOMARK_LAB_DIR or HOME");
        status = IOM_EXIT_USAGE;
        goto out;
    }
    /* the accelerator */
    bool kvm = iom_lab_kvm_usable();
    if (strcmp(o->accel, "kvm") == 0 && !kvm) {
        status = bad("accel", "kvm", "/dev/kvm cannot be opened here; allowed: auto, tcg");
        goto out;
    }
    if (strcmp(o->accel, "tcg") == 0) {
        o->accel_reason = "--accel=tcg";
    } else if (kvm) {
        o->accel = "kvm";
        o->accel_reason = "/dev/kvm usable";
        o->accel_auto = true;
    } else {
        o->accel = "tcg";
        o->accel_reason = "no usable /dev/kvm: software emulation, slower";
    }
    o->labdir = labdir;
    o->exe = exe;
    o->log = stderr;
    const struct iom_lab_hooks hooks = {.plan = hook_plan, .progress = hook_progress,
                                        .boot_done = hook_boot_done, .arg = &c.ro};
    o->hooks = &hooks;
    iom_cli_signals_install();
    int rc = iom_lab_run(o, &iom_cli_stop, stdout, err, sizeof(err));
    if (rc == -EINVAL) {
        iom_cli_error(CMD, "%s", err);
        status = IOM_EXIT_USAGE;
    } else if (rc < 0) {
        iom_cli_error(CMD, "%s", err);
        status = IOM_EXIT_FAIL;
    } else {
        status = rc ? IOM_EXIT_FAIL : IOM_EXIT_OK;
    }
    if (iom_cli_stop)
        status = iom_cli_signal_exit(iom_cli_stop);
out:
    iom_lab_opts_free(o);
    free(o);
    return status;
}
