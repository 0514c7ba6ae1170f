/* presets.c - the CrystalDiskMark-style profiles (see presets.h for sources). */
#include "workload/presets.h"

#include <stdio.h>
#include <string.h>

#define MIB (UINT64_C(1) << 20)
#define KIB UINT64_C(1024)

const struct iom_mark_profile iom_mark_profiles[IOM_MARK_NR_PROFILES + 1] = {
    {"default", "CrystalDiskMark 8 default", false, 4,
     {{"SEQ1M Q8T1", false, MIB, 8, 1},
      {"SEQ1M Q1T1", false, MIB, 1, 1},
      {"RND4K Q32T1", true, 4 * KIB, 32, 1},
      {"RND4K Q1T1", true, 4 * KIB, 1, 1}}},
    {"peak", "CrystalDiskMark 8 Peak Performance", true, 2,
     {{"SEQ1M Q8T1", false, MIB, 8, 1}, {"RND4K Q32T1", true, 4 * KIB, 32, 1}}},
    {"realworld", "CrystalDiskMark 8 Real World Performance", true, 2,
     {{"SEQ1M Q1T1", false, MIB, 1, 1}, {"RND4K Q1T1", true, 4 * KIB, 1, 1}}},
    {"nvme", "CrystalDiskMark 8 NVMe SSD settings", false, 4,
     {{"SEQ1M Q8T1", false, MIB, 8, 1},
      {"SEQ128K Q32T1", false, 128 * KIB, 32, 1},
      {"RND4K Q32T16", true, 4 * KIB, 32, 16},
      {"RND4K Q1T1", true, 4 * KIB, 1, 1}}},
    {"cdm7", "CrystalDiskMark 7 default", false, 4,
     {{"SEQ1M Q8T1", false, MIB, 8, 1},
      {"SEQ1M Q1T1", false, MIB, 1, 1},
      {"RND4K Q32T16", true, 4 * KIB, 32, 16},
      {"RND4K Q1T1", true, 4 * KIB, 1, 1}}},
    {NULL, NULL, false, 0, {{0}}},
};

const struct iom_mark_profile *iom_mark_profile_find(const char *name)
{
    for (const struct iom_mark_profile *p = iom_mark_profiles; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int iom_mark_job(const struct iom_job *base, const struct iom_mark_test *t, bool write,
                 struct iom_job *out)
{
    if (iom_job_copy(out, base))
        return -12; /* -ENOMEM */
    out->rw = t->random ? (write ? IOM_RW_RANDWRITE : IOM_RW_RANDREAD)
                        : (write ? IOM_RW_WRITE : IOM_RW_READ);
    out->bs_bytes = t->bs_bytes;
    out->nr_bssplit = 0;
    out->iodepth = t->iodepth;
    out->numjobs = t->threads;
    snprintf(out->name, sizeof(out->name), "%s %s", t->name, write ? "write" : "read");
    return 0;
}
