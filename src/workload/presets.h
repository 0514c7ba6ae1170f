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
#include <stdint.h>

#include "workload/spec.h"

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

#endif
