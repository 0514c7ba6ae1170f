/*
 * presets.h - CrystalDiskMark-style test presets for `iomark mark`.
 *
 * Source: CrystalDiskMark 7/8 (github.com/hiyohiyo/CrystalDiskMark,
 * DiskBench.cpp) and KDiskMark (github.com/JonMagon/KDiskMark,
 * src/benchmark.cpp): 1 GiB test file, 5 runs of 5 s each,
 * default profile SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1 (8.x;
 * 7.x had RND4K Q32T16); "Peak" and "Real World" keep the best run, the
 * others average the runs. CrystalDiskMark's MB/s is 10^6 bytes/s.
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
    uint32_t iodepth;      /* Q */
    uint32_t threads;      /* T */
};

#define IOM_MARK_MAX_TESTS 4

struct iom_mark_profile {
    const char *name;      /* "default", "peak", "realworld", "nvme", "cdm7" */
    const char *title;     /* what it emulates */
    bool best_of_runs;     /* keep the best run instead of the mean */
    unsigned nr_tests;
    struct iom_mark_test tests[IOM_MARK_MAX_TESTS];
};

/* The profile named `name`, or NULL. */
const struct iom_mark_profile *iom_mark_profile_find(const char *name);

/* All profiles, terminated by an entry with name == NULL. */
extern const struct iom_mark_profile iom_mark_profiles[];

/*
 * Derive the job of one test and direction from `base` (which carries the
 * target, size, engine, duration and I/O mode): pattern read/write or
 * randread/randwrite, block size, iodepth, threads. out must not own
 * targets; on success it owns a copy of base's targets. Returns 0 or -ENOMEM.
 */
int iom_mark_job(const struct iom_job *base, const struct iom_mark_test *t, bool write,
                 struct iom_job *out);

#endif
