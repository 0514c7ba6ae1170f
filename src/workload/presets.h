/*
 * presets.h - CrystalDiskMark's test presets for `iomark mark`.
 *
 * Source: CrystalDiskMark, github.com/hiyohiyo/CrystalDiskMark (MIT):
 * - CrystalDiskMark 8 (tag 8.0.6, commit 8f3cd04), DiskMarkDlg.cpp,
 *   CDiskMarkDlg::SettingsQueuesThreads: test slots 0-3 are the default
 *   profile, 4-5 "Peak Performance", 6-7 "Real World Performance";
 *   "Default" settings: SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1,
 *   peak SEQ1M Q8T1 + RND4K Q32T1, real world SEQ1M Q1T1 + RND4K Q1T1;
 *   "NVMe SSD Ver.8": SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1.
 *   Defaults (CDiskMarkDlg::OnInitDialog, UpdateQueuesThreads): 5 runs
 *   ("TestCount" index 4), "1GiB" test file (1024 MiB, DiskBench.cpp
 *   Init), measure time 5 s, interval 5 s.
 * - CrystalDiskMark 7 (7.0.0h, commit 8456982), DiskMarkDlg.cpp:
 *   SequentialQueues1 8 / Threads1 1, SequentialQueues2 1, RandomQueues1
 *   32 / RandomThreads1 16, RandomQueues2 1; peak uses the first
 *   sequential and random tests (SEQ1M Q8T1, RND4K Q32T16).
 * - DiskBench.cpp (both): all reads of a profile, then all writes
 *   (ExecDiskBenchAll), Interval() sleeps between tests (not between the
 *   runs of a test); each test is one 5 s "Preparing..." run that is not
 *   counted followed by the counted runs (DiskSpd()).
 * KDiskMark (github.com/JonMagon/KDiskMark, src/appsettings.cpp,
 * defaultBenchmarkParams) uses the same tests; its Default profile reports
 * the mean of the runs, Peak and Real World the best run (kdiskmark_best).
 */
#ifndef IOMARK_WORKLOAD_PRESETS_H
#define IOMARK_WORKLOAD_PRESETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/spec.h"

struct iom_run_opts;

struct iom_mark_test {
    const char *name;      /* "SEQ1M Q8T1" */
    bool random;
    uint64_t bs_bytes;
    uint32_t iodepth;      /* Q: outstanding I/Os per thread (DiskSpd -o) */
    uint32_t threads;      /* T: threads (DiskSpd -t) */
};

#define IOM_MARK_MAX_TESTS 4

struct iom_mark_profile {
    const char *name;      /* "default", "peak", "realworld", "nvme", "cdm7" */
    const char *title;     /* what it emulates */
    bool kdiskmark_best;   /* KDiskMark's convention: best run (Peak, Real World), else mean */
    unsigned nr_tests;
    struct iom_mark_test tests[IOM_MARK_MAX_TESTS];
};

/* The profile named `name`, or NULL. */
const struct iom_mark_profile *iom_mark_profile_find(const char *name);

/* All profiles, terminated by an entry with name == NULL. */
#define IOM_MARK_NR_PROFILES 5
extern const struct iom_mark_profile iom_mark_profiles[IOM_MARK_NR_PROFILES + 1];

/*
 * Derive the job of one test and direction from `base` (which carries the
 * target, size, engine, duration and I/O mode): pattern read/write or
 * randread/randwrite, block size, iodepth, threads. out must not own
 * targets; on success it owns a copy of base's targets. Returns 0 or -ENOMEM.
 */
int iom_mark_job(const struct iom_job *base, const struct iom_mark_test *t, bool write,
                 struct iom_job *out);

/* mark's own options (the rest are `iomark run`'s, in the base job). */
struct iom_mark_opts {
    const struct iom_mark_profile *profile;
    uint64_t runs;          /* counted runs per test and direction */
    uint64_t pause_ns;      /* between tests */
    uint64_t prepare_ns;    /* the uncounted preparation run of each test and direction; 0 none */
    bool prepare_given;
    const char *statistic;  /* "best", "mean", "kdiskmark" or NULL (CrystalDiskMark's); points
                             * into the argv parsed */
};

/*
 * mark's defaults, CrystalDiskMark 8's (sources above): profile default, 5
 * runs of 5 s, a 5 s preparation run, 5 s between tests, a 1 GiB test file.
 * Sets base with iom_job_defaults first (base must not own anything).
 */
void iom_mark_defaults(struct iom_mark_opts *mo, struct iom_job *base);

/*
 * Parse `iomark mark`'s arguments (argv[0] the command, skipped): mark's
 * own options (--profile, --runs, --pause, --prepare, --statistic, as
 * `--name=V` or `--name V`) into mo, and the `iomark run` options a preset
 * takes (size, runtime, ramp_time, ioengine, ...) and a TARGET into job
 * and ro (iom_options_parse). --statistic=kdiskmark without --prepare sets
 * prepare_ns to 0 (KDiskMark has no preparation run). Start from
 * iom_mark_defaults. Returns 0, -ENOMEM, or -EINVAL with one line
 * "--option=value: what is allowed" in err (no "iomark mark:" prefix).
 */
int iom_mark_parse(int argc, char **argv, struct iom_job *job, struct iom_run_opts *ro,
                   struct iom_mark_opts *mo, char *err, size_t errlen);

/* Is name (without "--", '-' and '_' alike) one of mark's own options? */
bool iom_mark_own_option(const char *name);

/*
 * The planned seconds of a whole mark (its progress line's and the lab's
 * estimate): per test and direction of mo->profile, runs x (ramp + runtime
 * + cool-down of the test's job) plus, when prepare_ns, one preparation
 * run (ramp + prepare + cool-down), and pause_ns between consecutive tests
 * (2 x tests - 1 pauses: reads, then writes). -1 when base has no runtime
 * (as long as its I/O takes) or on ENOMEM. Creating the test file is not
 * counted.
 */
double iom_mark_plan_s(const struct iom_job *base, const struct iom_mark_opts *mo);

#endif
