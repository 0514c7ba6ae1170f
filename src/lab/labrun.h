/*
 * labrun.h - internal to src/lab: what session.c collects from each boot
 * and output.c writes (lab.json, lab.txt, the tables). Units: seconds, I/Os,
 * microseconds; NAN = not known.
 */
#ifndef IOMARK_LAB_LABRUN_H
#define IOMARK_LAB_LABRUN_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <time.h>

#include "import/import.h"
#include "lab/collect.h"
#include "lab/image.h"
#include "lab/lab.h"

/* The guest's own counters around one run (sections t0.J.R / t1.J.R) and
 * the QEMU process's CPU time sampled by the host when they arrived. */
struct iom_lab_io {
    bool have;
    double wall_s;           /* guest /proc/uptime difference */
    double ios;              /* reads + writes completed at the disk (block/stat.rst) */
    double sectors;          /* 512-byte sectors read + written */
    double guest_cpu_s;      /* user+nice+system+irq+softirq+steal of /proc/stat, USER_HZ=100 */
    double aqu_sz;           /* time_in_queue difference / wall (iostat's aqu-sz) */
    double util_pct;         /* io_ticks difference / wall */
    double inflight_mean, inflight_max;   /* /sys/block/DISK/inflight sampled at 10 Hz */
    double inflight_samples;
    double qemu_cpu_s;       /* QEMU's user+system seconds between t0 and t1; NAN unknown */
    double t0_uptime;        /* guest uptime at t0, seconds */
};

#define IOM_LAB_MAX_POINTS 64

/* The guest kernel's command line before the units' module parameters.
 * no_timer_check (Documentation/admin-guide/kernel-parameters.txt: "Disables
 * the code which tests for broken timer IRQ sources"): under TCG on a busy
 * host the boot-time IO-APIC timer check can miss its ticks and panic the
 * guest at boot; panic=-1 reboots at once, which -no-reboot turns into QEMU's
 * exit, so a crash ends the run instead of hanging it. */
#define IOM_LAB_GUEST_CMDLINE "console=ttyS0 panic=-1 no_timer_check quiet"

/* The sampled in-flight count of one sweep point (NAN when not known). */
struct iom_lab_point_io {
    double inflight_mean, inflight_max;
};

/* One run of one job in one boot. */
struct iom_lab_runrec {
    bool ok;                 /* exit 0 and a readable document */
    int status;              /* guest iomark's exit status, -1 none */
    double iops, mib_per_s, lat_mean_us, lat_p99_us, cpu_pct, nopm, tpm;  /* NAN unknown */
    double ios;              /* iomark's I/Os behind lat_mean_us (its latency samples); NAN unknown */
    double qd;               /* iomark's outstanding I/O by Little's law, iops x lat_mean_us;
                              * the mean record: the mean of the runs' (never the product of
                              * the means) */
    struct iom_imp_result *imp;   /* the document as the importer reads it (owned) */
    struct iom_lab_io io;
    double qemu_t0, qemu_t1;      /* QEMU CPU seconds when t0/t1 arrived; NAN unknown */
    unsigned nr_points;           /* sweep: points with a window in the in-flight series */
    struct iom_lab_point_io points[IOM_LAB_MAX_POINTS];
};

/* One job in one boot. */
struct iom_lab_jobout {
    struct iom_lab_runrec *runs;  /* opts->repeat entries */
    unsigned nr_ok;
    struct iom_lab_runrec mean;   /* mean of the ok runs (figures and io only) */
    cJSON *mark_tests;            /* mark: the first run's "tests" array (owned) */
    cJSON *check;                 /* tpcc: the guest's `tpcc check` document (owned) */
    int check_status;             /* its exit status, -1 when it did not run */
    char fail[256];
};

/* One boot (a controller variant). */
struct iom_lab_unitout {
    const struct iom_lab_unit *u;
    bool ok;
    char reason[512];
    double wall_s;                /* QEMU start to exit */
    double boot_s;                /* QEMU start to the first job's t0 (boot + modules) */
    double qemu_user_s, qemu_sys_s;  /* the whole QEMU process (wait4) */
    struct iom_lab_guest_view view;
    bool have_view;
    cJSON *probe;                 /* `iomark probe` in the guest (owned) */
    cJSON *params;                /* requested vs effective guest parameters (owned) */
    struct iom_lab_jobout *jobs;  /* opts->nr_jobs entries */
    size_t nr_shared;             /* controllers in its boot (1: a boot of its own) */
    double image_s;               /* writing its boot's initramfs (base + iomark + job) */
    char boot_name[160];          /* its boot's file prefix (the unit's name, or boot-N) */
};

/* The lab's environment, found once. */
struct iom_lab_env {
    char qemu_version[128];
    struct iom_lab_setup_info setup;
    char *dep_text;               /* modules.dep of the guest kernel */
    char *modparams;              /* iom_lab_modparams_load */
    char iomark_cpio[4300];
    char kernel[4300];            /* vmlinux-VER (PVH ELF) or vmlinuz-VER */
    const char *bios;             /* qboot.rom when QEMU ships it, else NULL (SeaBIOS) */
    char outdir[4096];
    char disk[4200];
    char host_cpu[128];
    long host_cpus;
    double load_start, load_end;
    time_t t_start;
    bool interrupted;
};

/* ---- measure.c ---- */

/*
 * The lab's time plan for the progress hook (lab.h struct iom_lab_progress),
 * seconds. A boot takes boot_s to its first run, then per run its job's
 * est plus run_extra_s (iomark starting and ending in the guest, the results
 * sent before the next run), then shutdown_s after its last run's end.
 */
struct iom_lab_plan {
    double est[IOM_LAB_MAX_JOBS];      /* one run of job j (iom_lab_job_check) */
    bool phased[IOM_LAB_MAX_JOBS];     /* ramp, run, cool known (iom_lab_job_phases) */
    double ramp[IOM_LAB_MAX_JOBS], run[IOM_LAB_MAX_JOBS], cool[IOM_LAB_MAX_JOBS];
    double boot_s;                     /* QEMU's start to the first run */
    double shutdown_s;                 /* the last run's end to QEMU's exit */
    double run_extra_s;                /* per run, beyond est */
    size_t nr_boots;
    double boot_sum_s;                 /* boots measured so far (their first run's t0) */
    unsigned nr_boot_seen;
};

/* Fill pl for o's jobs (est: iom_lab_job_check's seconds per run; a run
 * without --runtime has none) and nr_boots boots, with the boot, shutdown
 * and per-run estimates of o->accel. */
void iom_lab_plan_init(struct iom_lab_plan *pl, const struct iom_lab_opts *o, const double *est,
                       size_t nr_boots);

/* A boot reached its first run after boot_s seconds (NAN or <= 0: it did
 * not): later boots are estimated by the mean of the boots measured, this
 * host's own figure, instead of the fixed estimate. Re-reads o->accel (the
 * KVM to TCG fallback changes it). */
void iom_lab_plan_update(struct iom_lab_plan *pl, const struct iom_lab_opts *o, double boot_s);

/* Seconds planned for boots from..to-1, boot g holding nr_units[g]
 * controllers that each run every job o->repeat times: per boot, boot +
 * runs + shutdown. < 0 when a job has no estimate (a run without --runtime);
 * 0 for no boots. */
double iom_lab_plan_boots_s(const struct iom_lab_plan *pl, const struct iom_lab_opts *o,
                            const size_t *nr_units, size_t from, size_t to);

/* State of the channel watcher (iom_lab_watch_tick's arg). */
struct iom_lab_watch {
    const char *chan;
    long offset;
    char carry[96];
    struct iom_lab_unitout *uo[IOM_LAB_MAX_UNITS];  /* the boot's units, in /lab/units order */
    size_t nr_uo;
    bool prefixed;          /* sections are "K/NAME" (several units in the boot) */
    const struct iom_lab_opts *o;
    double t_start;
    double boot_bound_s;    /* nothing on the channel by then: the guest did not boot */
    bool no_boot;
    /* the progress hook (o->hooks->progress), optional: */
    const struct iom_lab_plan *plan;   /* NULL: no progress events */
    size_t boot_no;         /* this boot, 1-based, of plan->nr_boots */
    const char *label;      /* its controllers */
    double later_s;         /* seconds planned for the boots after this one; at the
                             * first run re-estimated with this boot's time */
    long last_seq;          /* the latest t0/t1 reported (-1 none): a header is reported once */
};

/* Monotonic clock, seconds. */
double iom_lab_now_s(void);

/* The boot starts (QEMU about to run): reports the booting stage to
 * o->hooks->progress when w->plan is set. Sets w->last_seq. */
void iom_lab_watch_begin(struct iom_lab_watch *w);

/* proc-run tick: reads what arrived on the channel since the last call and
 * records QEMU's CPU time (/proc/PID/stat utime+stime, proc(5)) into the
 * run whose t0/t1 section arrived, and reports that run's start (t0) or
 * end (t1; the boot's last: shutting down) to o->hooks->progress, each
 * header once and in the guest's order; returns 1 (stop QEMU) when nothing
 * came within boot_bound_s, else 0. */
int iom_lab_watch_tick(int pid, void *arg);

/* The guest's counters of one run from the texts of its t0 and t1 sections
 * (either NULL: io->have stays false). */
void iom_lab_io_from(const char *t0, const char *t1, struct iom_lab_io *io);

/*
 * Sweep: split the run's in-flight series (section series.J.R: "uptime
 * count" lines, 10 per second) into nr equal windows between t0 and t1, one
 * per point in the order run (every point has the same ramp + runtime), and
 * keep the middle 80% of each (process start and the gaps between points
 * fall outside). Fills r->points and r->nr_points.
 */
void iom_lab_points_from_series(const char *series, struct iom_lab_runrec *r, unsigned nr);

/* Figures of a run from its document: run -> iom_lab_figures_from_doc;
 * diskspd, sweep (the point with most IOPS), tpcc (NOPM, TPM) -> r->imp;
 * r->ios the I/Os behind the mean latency, r->qd that run's iops x mean
 * latency (Little's law). */
void iom_lab_figures_of(const char *command, const cJSON *doc, struct iom_lab_runrec *r);

/* jo->mean = the mean of every figure over jo's ok runs (NAN-aware), but
 * lat_mean_us is the mean latency of all their I/Os (each run's mean weighted
 * by its ios; the plain mean of the runs' means when a run's ios is unknown)
 * and qd the mean of the runs' own Little's law products. */
void iom_lab_mean_of(struct iom_lab_jobout *jo, unsigned n);

/* Seconds unit uo's jobs took in the guest: from its first run's t0 to its
 * last run's t1 (guest uptime); NAN when unknown. */
double iom_lab_unit_jobs_s(const struct iom_lab_unitout *uo, const struct iom_lab_opts *o);

/* Requested vs effective guest parameters of unit u, as a JSON array. */
cJSON *iom_lab_params_json(const struct iom_lab_unit *u, const struct iom_lab_guest_view *v);

/* ---- results.c ---- */

/* Section `name` of the unit whose sections start with pfx ("" when the boot
 * has one controller, "K/" when it has several); NULL when absent. */
const struct iom_lab_section *iom_lab_usec(const struct iom_lab_channel *ch, const char *pfx,
                                           const char *name);

/*
 * Read unit uo's results (sections prefixed pfx) from the channel: guest
 * view, parameters in effect, probe (its own target only), every job's runs
 * (figures, I/O path, tpcc check), and write the guest's documents to
 * e->outdir as FNAME[.jobJ-CMD][.R].json|xml. first_fail gets the first
 * failure, "" when none.
 */
void iom_lab_collect_unit(const struct iom_lab_opts *o, struct iom_lab_env *e,
                          const struct iom_lab_channel *ch, const char *pfx, const char *fname,
                          struct iom_lab_unitout *uo, char *first_fail, size_t fflen);

/* lab.json of the run so far (partial when some units did not run). */
cJSON *iom_lab_doc(const struct iom_lab_opts *o, const struct iom_lab_env *e,
                   const struct iom_lab_unitout *uo);

/* The lab's environment record (the "lab" object of lab.json and of every
 * per-unit document). */
cJSON *iom_lab_env_json(const struct iom_lab_env *e, const struct iom_lab_opts *o,
                        const struct iom_lab_unit *u);

/* The comparison tables, one per job, and the I/O path table. */
void iom_lab_print(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_env *e,
                   const struct iom_lab_unitout *uo);

/* ISO 8601 UTC time. */
void iom_lab_iso_utc(time_t t, char *buf, size_t len);

#endif
