/*
 * diskspd.h - the DiskSpd 2.x command-line front end: parse DiskSpd flags
 * (-b8K -r -w30 -t8 -o32 -Sh -L ... TARGET...) into a struct iom_job with
 * the meaning DiskSpd gives them, plus the DiskSpd-only facts its reports
 * show (write ratio, alignment, cache mode, -L, -D, -Rxml).
 *
 * Source of the semantics: DiskSpd's own usage text and command-line parser
 * (github.com/microsoft/diskspd, CmdLineParser/CmdLineParser.cpp, v2.1) and
 * its documentation. Differences forced by Linux are warnings or refusals
 * that name the flag; see docs/diskspd.md for the full table.
 */
#ifndef IOMARK_WORKLOAD_DISKSPD_H
#define IOMARK_WORKLOAD_DISKSPD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/options.h"
#include "workload/spec.h"

#define IOM_DSPD_MAX_WARN 16
#define IOM_DSPD_MAX_RANGES 15   /* one slot stays free for the implied remainder */

enum iom_dspd_dist {
    IOM_DSPD_DIST_UNIFORM,   /* no -rd */
    IOM_DSPD_DIST_PCT,       /* -rdpct: IO% / target% pairs (converted to zones at parse time) */
    IOM_DSPD_DIST_ABS,       /* -rdabs: IO% / byte ranges (zones once the target size is known) */
};

/* One -rdabs element: io_pct of the I/O goes to the next span_bytes of the target. */
struct iom_dspd_range {
    uint32_t io_pct;
    uint64_t span_bytes;
};

struct iom_diskspd {
    struct iom_job job;          /* the workload; owns its target list */
    char cmdline[2048];          /* "diskspd ARG ARG ..." as DiskSpd prints it */

    /* DiskSpd's view, kept for the text and XML reports */
    uint32_t duration_s, warmup_s, cooldown_s;  /* -d (10), -W (5), -C (0) */
    uint32_t write_pct;          /* -w (0) */
    bool random;                 /* -r or -rs */
    uint32_t random_pct;         /* 100 with -r, N with -rsN */
    uint64_t align_bytes;        /* -r<align> / -s<stride>; 0 = block size */
    bool interlocked;            /* -si */
    uint32_t threads_per_target; /* -t (1), 0 when -F is used */
    uint32_t total_threads;      /* -F, 0 = not given */
    uint32_t requests_per_thread;/* -O, 0 = not given */
    uint32_t outstanding;        /* -o (2) */
    bool create;                 /* -c given */
    uint64_t create_bytes;
    uint64_t base_offset_bytes;  /* -B */
    uint64_t max_file_bytes;     /* -f<size>, 0 = whole target */
    uint64_t thread_stride_bytes;/* -T */
    char thread_stride_arg[64];  /* -T as typed ("-T5M"), for messages */
    bool sw_cache_disabled;      /* -S, -Su, -Sh, -h: O_DIRECT */
    bool write_through;          /* -Sw, -Sh, -h: O_DSYNC */
    bool measure_latency;        /* -L */
    bool iops_stddev;            /* -D */
    uint32_t bucket_ms;          /* -D<ms> (1000) */
    bool xml;                    /* -Rxml */
    bool profile_only;           /* -Rp: print the profile, do not run */
    uint32_t seed;               /* -z<seed> (0) */
    uint64_t throughput_bpms;    /* -g<n>: bytes per millisecond per thread per target */
    uint64_t throughput_iops;    /* -g<n>i */
    bool zero_buffers;           /* -Z */
    uint64_t random_buffer_bytes;/* -Z<size> */
    uint32_t io_priority;        /* -I (3 = normal) */

    enum iom_dspd_dist dist;
    uint32_t nr_ranges;
    struct iom_dspd_range ranges[IOM_DSPD_MAX_RANGES]; /* -rdabs, unresolved */

    uint32_t nr_warnings;        /* flags accepted with a different effect on Linux */
    char warnings[IOM_DSPD_MAX_WARN][240];
};

/*
 * Parse DiskSpd arguments argv[first..argc). Flags come first, targets
 * after (as DiskSpd requires). Sizes take K, M, G, T (binary) and b
 * (blocks of the final -b, whatever the flag order). iomark's own long
 * options (--ioengine=, --output=, --quiet, --force, --keep, --output-format
 * is refused: use -Rxml) may be mixed in before the targets.
 * ds is filled completely (no need to initialise it); free it with
 * iom_diskspd_free(). On success returns 0; ro->help is set for -? or --help.
 * On bad input returns -EINVAL and writes one line to err naming the flag,
 * its value and what is allowed; nothing is created or opened.
 */
int iom_diskspd_parse(int argc, char **argv, int first, struct iom_diskspd *ds,
                      struct iom_run_opts *ro, char *err, size_t errlen);

/*
 * Turn an -rdabs distribution into percentage zones once the target size
 * is known (target_bytes = the size of the region the threads use).
 * DiskSpd's rule: ranges beyond the end are cut off and the I/O shares of
 * the ranges that remain are scaled to 100%; an I/O remainder below 100%
 * goes to the rest of the target. Zones are whole percentages, so spans
 * are rounded (a warning is added when that changes a span by more than
 * 0.5 percentage points). No-op for other distributions. Returns 0 or
 * -EINVAL with err filled.
 */
int iom_diskspd_resolve(struct iom_diskspd *ds, uint64_t target_bytes, char *err, size_t errlen);

/* Free what ds owns (the job's targets). */
void iom_diskspd_free(struct iom_diskspd *ds);

/* Print DiskSpd-style usage of `iomark diskspd` to f. */
void iom_diskspd_help(FILE *f);

#endif
