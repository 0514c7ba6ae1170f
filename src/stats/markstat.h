/*
 * markstat.h - the statistic `iomark mark` reports over the repeated runs of
 * one test and direction (CrystalDiskMark-style presets).
 *
 * Sources (docs/mark.md compares them side by side):
 * - CrystalDiskMark, github.com/hiyohiyo/CrystalDiskMark, DiskBench.cpp,
 *   function DiskSpd(): run j = 0 is the "Preparing..." run and is never
 *   counted; over the counted runs j = 1..N the score shown is the maximum
 *   MB/s (`if (j > 0 && score > *maxScore)`) and the latency shown is the
 *   minimum mean latency over the counted runs whose score is above zero
 *   (`if (j > 0 && score > 0.0 && (latency < *minLatency || ...))`). IOPS
 *   is derived from the shown MB/s (DiskMarkDlg.cpp, SetMeter:
 *   score * 1000 * 1000 / blockSize), i.e. it is the IOPS of the best run.
 * - KDiskMark, github.com/JonMagon/KDiskMark, src/benchmark.cpp
 *   (Benchmark::startTest, sendResult): profile "Default" reports the sum
 *   of every run divided by the number of runs (the mean of MB/s, IOPS and
 *   mean latency); "Peak" and "Real World" keep the maximum MB/s, the
 *   maximum IOPS and the minimum latency (PerformanceResult::
 *   updateWithBetterValues, src/benchmark.h). KDiskMark has no
 *   preparation run.
 *
 * Everything here is pure arithmetic over figures the caller measured.
 */
#ifndef IOMARK_STATS_MARKSTAT_H
#define IOMARK_STATS_MARKSTAT_H

#include <stdbool.h>
#include <stdint.h>

/* Which figure of the counted runs is reported. */
enum iom_markstat_kind {
    IOM_MARKSTAT_BEST, /* CrystalDiskMark: max MB/s and IOPS, min mean latency */
    IOM_MARKSTAT_MEAN, /* arithmetic mean of every counted run */
};

/* The figures of one run (one test, one direction). */
struct iom_markstat_run {
    double mb_per_s;    /* 10^6 bytes/s */
    double mib_per_s;   /* 2^20 bytes/s */
    double iops;        /* I/Os per second */
    double lat_mean_us; /* mean completion latency, microseconds */
    double lat_p99_us;  /* 99th percentile latency, microseconds */
    double measured_s;  /* measured time of the run, seconds */
    uint64_t ios;       /* I/Os completed in the measured time */
    bool counted;       /* false: the preparation run or an interrupted run (never in a statistic) */
    bool prepare;       /* the preparation run */
    bool interrupted;   /* stopped part-way by a signal: kept for the record, not counted */
};

/* min, mean and max of one figure over the counted runs. */
struct iom_markstat_range {
    double min, mean, max;
};

struct iom_markstat {
    unsigned nr_counted;              /* counted runs the figures are over */
    enum iom_markstat_kind kind;      /* how `reported` was chosen */
    /* The reported figures. BEST: mb_per_s, mib_per_s, iops = maxima;
     * lat_mean_us = the lowest run mean among counted runs with
     * mb_per_s > 0 (CrystalDiskMark's minLatency), lat_p99_us = the lowest
     * p99 among the same runs; 0 for both when no counted run moved data
     * (has_latency false). MEAN: every figure is the arithmetic mean of the
     * counted runs. In both, measured_s and ios are sums over the counted
     * runs and counted is true. */
    struct iom_markstat_run reported;
    bool has_latency;                 /* BEST: some counted run had mb_per_s > 0 */
    /* spread over all counted runs (shown next to the reported figure) */
    struct iom_markstat_range mb_per_s, iops, lat_mean_us;
};

/*
 * Compute the statistic of `n` runs (runs[i].counted == false entries, the
 * preparation runs, are skipped). runs is borrowed; out is filled whole.
 * Returns 0, or -ENODATA when no run is counted (out is then all zeros
 * with nr_counted 0), or -EINVAL when runs is NULL with n > 0, out is NULL
 * or kind is unknown.
 */
int iom_markstat_compute(const struct iom_markstat_run *runs, unsigned n,
                         enum iom_markstat_kind kind, struct iom_markstat *out);

/* "best" or "mean" (static string). */
const char *iom_markstat_kind_name(enum iom_markstat_kind kind);

#endif
