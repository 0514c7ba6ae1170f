/*
 * diskutil.h - fio 3.33's "disk_util" of a job file run (diskutil.c,
 * stat.c json_array_add_disk_util): for each disk under the jobs' files, the
 * kernel's counters (/proc/diskstats, Documentation/admin-guide/iostats.rst)
 * from the jobs' start to the report. A partition counts as its whole disk,
 * as fio's __init_per_file_disk_util steps back to the device that has a
 * queue/ folder. Devices with slaves (dm, md) are reported without fio's
 * aggr_* fields (not measured here).
 */
#ifndef IOMARK_PROBE_DISKUTIL_H
#define IOMARK_PROBE_DISKUTIL_H

#include <stdint.h>

#include "probe/devmon.h"

#define IOM_DISKUTIL_MAX 16

/* One disk's figures, fio's JSON names: ios, merges and ticks (ms) by reads
 * [0] and writes [1], in_queue (ms, field 14), util (%, field 13 over the span). */
struct iom_diskutil_row {
    char name[32];
    uint64_t ios[2], merges[2], ticks[2], in_queue;
    double util;
};

struct iom_diskutil {
    uint32_t n;
    char name[IOM_DISKUTIL_MAX][32];
    struct iom_diskstats start[IOM_DISKUTIL_MAX];
    uint64_t t0_ns;              /* monotonic, when the counters were read */
};

/*
 * Start: resolve each kernel block name in names[0..nr) ("vda1", "loop0";
 * "" skipped) to its whole disk under ROOT/sys/class/block (root "" = live),
 * drop repeats, and read each one's /proc/diskstats row now (t0_ns: monotonic
 * ns of the reading). Disks without a row are skipped. Never fails.
 */
void iom_diskutil_start(struct iom_diskutil *du, const char *root, const char *const *names,
                        uint32_t nr, uint64_t t0_ns);

/*
 * End: rows[i] for each started disk whose row can still be read, the
 * counters' differences since the start; util = 100 x io_ticks / span ms,
 * at most 100 (fio's). now_ns: monotonic ns now. Returns the rows written.
 */
uint32_t iom_diskutil_end(const struct iom_diskutil *du, const char *root, uint64_t now_ns,
                          struct iom_diskutil_row *rows);

#endif
