/*
 * lab.h - `iomark lab`: iomark workloads (run, diskspd, sweep, mark, tpcc)
 * run inside a minimal Linux guest on one backing disk behind each of QEMU's
 * emulated controllers, collected into one folder and one comparison.
 * The command line is parsed by src/cli/cmd_lab.c; everything else lives in
 * src/lab (jobs.c: what the guest runs and the host-side checks; session.c:
 * boots and collection; output.c: lab.json and the tables; study.c: study
 * files). See docs/lab.md.
 */
#ifndef IOMARK_LAB_LAB_H
#define IOMARK_LAB_LAB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lab/qemu.h"

#define IOM_LAB_MAX_ARGS 256
#define IOM_LAB_MAX_PARAMS 64
#define IOM_LAB_MAX_JOBS 16
#define IOM_LAB_MAX_UNITS 16
#define IOM_LAB_MAX_REPEAT 100

/* One workload: `iomark COMMAND ARGS` in the guest on the lab disk. */
struct iom_lab_job {
    char command[16];                     /* run, diskspd, sweep, mark, tpcc */
    const char *args[IOM_LAB_MAX_ARGS];   /* the user's arguments (borrowed) */
    size_t nr_args;
    bool lab_defaults;                    /* run: add the lab's default workload
                                           * (the old `iomark lab [run options]` form) */
    char label[128];                      /* shown in tables: "diskspd -b8K -t1 ..." */
};

/* One boot: a controller and the guest parameters of this variant. */
struct iom_lab_unit {
    const struct iom_lab_ctrl *c;
    char name[160];                             /* "pvscsi" or "pvscsi+vmw_pvscsi.ring_pages=32" */
    const char *params[IOM_LAB_MAX_PARAMS];     /* KEY=VALUE: global ones, then the variant's */
    size_t nr_params;
};

/* What a boot is doing, as the host learns it: QEMU started (booting), then
 * the guest announces each run's start and end on the result channel (its
 * t0.J.R and t1.J.R sections, docs/lab.md "How it works"). */
enum iom_lab_stage {
    IOM_LAB_STAGE_BOOTING,    /* QEMU started; no run has begun yet */
    IOM_LAB_STAGE_RUN,        /* run R of job J on a controller began (its t0) */
    IOM_LAB_STAGE_BETWEEN,    /* that run ended (its t1): the guest sends its results,
                               * the boot's next run follows */
    IOM_LAB_STAGE_SHUTDOWN,   /* the boot's last run ended: the guest sends the rest
                               * and powers off */
};

/* One stage of one boot for the progress line. Seconds are estimates from
 * the lab's plan (measure.c: the jobs' planned lengths, boot and shutdown
 * estimates, and once a boot reached its first run this host's boot time). */
struct iom_lab_progress {
    enum iom_lab_stage stage;
    size_t boot, nr_boots;        /* this boot, 1-based, of all the lab's boots */
    const char *label;            /* the boot's controllers ("virtio-blk, nvme") */
    const char *unit;             /* RUN, BETWEEN: the controller (variant) measured; else NULL */
    size_t job, nr_jobs;          /* RUN, BETWEEN: job J (1-based) of N */
    unsigned run, nr_runs;        /* RUN, BETWEEN: run R (1-based) of --repeat */
    bool phased;                  /* RUN: ramp_s, run_s, cool_s are the run's own warm-up,
                                   * measured and cool-down (run, diskspd) */
    double ramp_s, run_s, cool_s; /* not phased: the stage is one block, 0, est_s, 0 */
    double est_s;                 /* this stage's seconds (a RUN: its job's estimate, see
                                   * iom_lab_job_check); <= 0 unknown */
    double left_s;                /* seconds of everything after this stage: the boot's
                                   * later runs, its shutdown, the later boots; < 0 unknown */
};

/* Progress callbacks (all optional): the CLI draws its progress line. They
 * run on the thread that called iom_lab_run. */
struct iom_lab_hooks {
    void (*plan)(void *arg, size_t nr_boots, double est_total_s);  /* once, before the boots */
    void (*progress)(void *arg, const struct iom_lab_progress *p); /* at every stage of a boot */
    void (*boot_done)(void *arg);                                  /* after each boot */
    void *arg;
};

/* Everything one lab run needs. Strings are borrowed unless noted. */
struct iom_lab_opts {
    struct iom_lab_unit units[IOM_LAB_MAX_UNITS];
    size_t nr_units;
    struct iom_lab_job jobs[IOM_LAB_MAX_JOBS];
    size_t nr_jobs;
    unsigned repeat;            /* runs of every job per boot, 1-100 */
    uint64_t disk_bytes;        /* backing raw image, bytes */
    const char *cache;          /* QEMU cache mode */
    const char *scheduler;      /* guest I/O scheduler or "keep" */
    unsigned vcpus, memory_mib;
    const char *accel;          /* "kvm" or "tcg" (resolved by the caller) */
    const char *accel_reason;
    bool accel_auto;            /* KVM was chosen by auto: fall back to TCG when its
                                 * guest does not boot */
    unsigned timeout_s;         /* bound per boot; 0 = computed from the jobs */
    const char *output_dir;
    bool keep_disk;
    bool shared_boot;           /* controllers that can share a guest share one boot */
    const char *study;          /* study name or file, NULL */
    const char *study_title;
    double scale;               /* study --scale factor (1 = as written) */
    const char *labdir;         /* the lab folder (iom_lab_dir) */
    const char *exe;            /* this iomark binary (/proc/self/exe) */
    FILE *log;                  /* progress lines (stderr) */
    const struct iom_lab_hooks *hooks;  /* NULL = none */
    char **store;               /* strings owned by opts (iom_lab_opts_strdup) */
    size_t nr_store, cap_store;
};

/* The commands the guest may run. */
extern const char *const iom_lab_commands[];

/* Copy s into opts' store; NULL on ENOMEM. Freed by iom_lab_opts_free. */
const char *iom_lab_opts_strdup(struct iom_lab_opts *o, const char *s);

/* Free opts' store (opts itself is the caller's). */
void iom_lab_opts_free(struct iom_lab_opts *o);

/*
 * Check one job on the host with the parsers the guest's iomark uses (run
 * and sweep: the option table; diskspd: the DiskSpd parser; mark: mark's,
 * iom_mark_parse; tpcc: the options the lab supplies itself are refused), so
 * bad input stops before anything boots. *est_s gets an ESTIMATE of the seconds one run takes, for
 * the progress line and --dry-run: run, diskspd: ramp + runtime + cool-down
 * (a sweep: times its points); mark: what mark's own progress line plans
 * (iom_mark_plan_s, with mark's defaults and --size=disk_bytes); tpcc: ramp +
 * runtime + a load estimate per warehouse (jobs.c). Not a bound: see
 * iom_lab_job_watchdog_s. Returns 0, or -EINVAL with one line
 * "--option=value: what is allowed" in err.
 */
int iom_lab_job_check(const struct iom_lab_job *j, uint64_t disk_bytes, double *est_s,
                      char *err, size_t errlen);

/*
 * The BOUND of one run of job j, seconds: the guest's watchdog (and, summed,
 * QEMU's timeout), 3 x the run's allowance + 60 s, generous for a loaded
 * TCG host. The allowance is the estimate (iom_lab_job_check) for run,
 * sweep and diskspd, the estimate + 600 s for mark (checking and creating
 * its test region), ramp + runtime + 600 s for tpcc (the load), and 600 s
 * when the job has no estimate or is refused.
 */
unsigned iom_lab_job_watchdog_s(const struct iom_lab_job *j, uint64_t disk_bytes);

/*
 * --dry-run: check every job of o (iom_lab_job_check) and print the plan to
 * f: the settings, the controllers with their guest parameters, and per job
 * its estimate and bound per run and the exact `iomark COMMAND ...` line each
 * guest runs ("@OUTPUT@", "@DISK@", "@DB@" for what the guest fills in).
 * Boots and writes nothing. Returns 0, -EIO (f failed), or -EINVAL with the
 * job's one-line reason in err (nothing printed).
 */
int iom_lab_dry_run(FILE *f, const struct iom_lab_opts *o, char *err, size_t errlen);

/*
 * The planned phases of one run of job j in seconds, as the guest's iomark
 * will parse them: warm-up (--ramp_time, DiskSpd -W), measured (--runtime,
 * -d) and cool-down (--cooldown_time, -C). For run and diskspd with a time limit;
 * returns -ENOENT for the other commands (a sweep's points, mark's tests,
 * tpcc's load have phases of their own), a run without --runtime, or
 * arguments iom_lab_job_check refuses.
 */
int iom_lab_job_phases(const struct iom_lab_job *j, double *ramp_s, double *run_s,
                       double *cool_s);

/*
 * The guest's argument lines of job j (after `iomark COMMAND`), including
 * the lab's own options and the placeholders the guest's /init replaces:
 * "@OUTPUT@" (--output=its result file), "@DISK@" (/dev/DISK) and "@DB@"
 * (--db=sqlite:/mnt/lab, tpcc only). size_buf holds "--size=BYTES" for
 * mark. Returns the number of lines written to out (at most max).
 */
size_t iom_lab_job_guest_args(const struct iom_lab_job *j, uint64_t disk_bytes, char *size_buf,
                              size_t size_len, const char **out, size_t max);

/* Human label of a job ("run --rw=randread ..."), into j->label. */
void iom_lab_job_label(struct iom_lab_job *j);

/*
 * Guest module parameters the image knows: read from the .ko files inside
 * base.cpio (their .modinfo "parmtype=NAME:TYPE" strings, as modinfo(8)
 * shows them). *text gets malloc'd "module param type\n" lines. Returns 0
 * or -errno.
 */
int iom_lab_modparams_load(const char *base_cpio, char **text);

/*
 * Check one guest parameter "module.param=value" against the module
 * parameters text of iom_lab_modparams_load. Parameters without a '.'
 * (kernel command-line parameters) are accepted as they are. Returns 0, or
 * -EINVAL with what is allowed in err (unknown module, unknown parameter
 * with the module's parameter list).
 */
int iom_lab_param_check(const char *param, const char *modparams, char *err, size_t errlen);

/*
 * Run the lab: write the backing disk, boot every unit once (all jobs x
 * repeat in one boot), collect, write lab.json, lab.txt and the per-unit
 * documents into o->output_dir (created), print the tables to out. stop is
 * polled: non-zero ends the QEMU in flight, removes temporary files and
 * still writes a partial lab.json. Returns 0 when every unit ran, 1 when
 * one or more failed, or -errno with one line in err when the lab could
 * not start (missing setup, unwritable folder).
 */
int iom_lab_run(struct iom_lab_opts *o, const volatile sig_atomic_t *stop, FILE *out,
                char *err, size_t errlen);

/* ---- studies (study.c) ---- */

/*
 * Load a study into o: name is a shipped study (looked up in the folders
 * of iom_lab_study_dirs) or a file path. The format (docs/lab.md "Studies"):
 *
 *   # comment
 *   title TEXT
 *   variant NAME[+module.param=value...]      (one per boot, in order)
 *   workload COMMAND ARGS...                  (in order, all in every boot)
 *
 * In workload lines ${T:SECONDS} becomes SECONDS x scale (rounded, at least
 * 2) and ${S:SIZE} a size scaled the same way (at least 16M, rounded to
 * MiB). Returns 0, or -EINVAL / -ENOENT with one line in err.
 */
int iom_lab_study_load(struct iom_lab_opts *o, const char *name, double scale, char *err,
                       size_t errlen);

/* Where shipped studies are looked for, in order: $IOMARK_STUDY_DIR, the
 * source tree's src/lab/studies (next to the build), and
 * PREFIX/share/iomark/studies. Writes up to max paths; returns the count. */
size_t iom_lab_study_dirs(const char *exe, char dirs[][4096], size_t max);

/* Print the shipped studies (name and title) to f. */
void iom_lab_study_list(FILE *f, const char *exe);

#endif
