/*
 * devmon.h - the device monitor: what the block device under each target
 * did while a run measured, from the kernel's own counters.
 *
 * Sources: /proc/diskstats (Documentation/admin-guide/iostats.rst: field 4
 * reads completed, 6 sectors read, 7 ms reading, 8 writes completed, 10
 * sectors written, 11 ms writing, 12 I/Os in flight, 13 ms doing I/O,
 * 14 weighted ms doing I/O) and /sys/block/<dev>/inflight (reads and writes
 * in flight: for request-based (blk-mq) devices the requests issued to the
 * driver and not yet completed, MQ_RQ_IN_FLIGHT in block/blk-mq.c; for
 * bio-based ones (dm, md) the I/Os started and not completed).
 * Derived figures follow sysstat's iostat -x: r/s, w/s, MiB/s, r_await,
 * w_await, await = ms spent by completed I/Os / I/Os, aqu-sz = delta field
 * 14 / interval ms, %util = delta field 13 / interval ms x 100.
 * aqu-sz counts each request from its start in the block layer (before the
 * scheduler), so aqu-sz - in-flight is roughly what waits in the block
 * layer (scheduler, tag wait). In-flight is sampled by a helper thread
 * (every 10 ms by default) and at each tick, reported as mean and max.
 *
 * A partition has its own diskstats row; monitoring one is fine (the
 * result names the device). Results are flat allocations (one free()).
 */
#ifndef IOMARK_PROBE_DEVMON_H
#define IOMARK_PROBE_DEVMON_H

#include <stdbool.h>
#include <stdint.h>

/* One /proc/diskstats row (fields 4-20; discard/flush fields are 0 on old kernels). */
struct iom_diskstats {
    uint64_t rd_ios, rd_merges, rd_sectors, rd_ticks_ms;
    uint64_t wr_ios, wr_merges, wr_sectors, wr_ticks_ms;
    uint64_t in_flight, io_ticks_ms, time_in_queue_ms;
    uint64_t dc_ios, dc_merges, dc_sectors, dc_ticks_ms;
    uint64_t fl_ios, fl_ticks_ms;
};

/* Figures over one interval (or the whole measured phase). */
struct iom_dev_figures {
    double dur_s;
    uint64_t ios[3];             /* completed reads, writes, discards (fields 15-18, Linux 4.18) */
    uint64_t bytes[3];           /* sectors x 512 */
    uint64_t merges[3];
    double iops, read_iops, write_iops, discard_iops, mib_per_s; /* iops, MiB/s: all three */
    double r_await_ms, w_await_ms, d_await_ms, await_ms; /* 0 when no I/O completed */
    double aqu_sz;               /* mean requests queued or in service (field 14) */
    double util_pct;             /* share of time with I/O in flight (field 13) */
    double inflight_mean, inflight_max; /* sampled sysfs inflight (reads + writes) */
    uint64_t inflight_samples;
};

struct iom_dev_point {
    double t_end_s;              /* the run's series point it belongs to: seconds since the
                                  * measured phase began; f.dur_s is the device's own interval */
    struct iom_dev_figures f;
};

/* What the monitor hands to a run result, per target. */
struct iom_devmon_result {
    char device[32];             /* kernel name monitored ("vda1", "loop0"); "" if none */
    char note[160];              /* why not monitored, or what the device is */
    bool ok;                     /* false: nothing was monitored; see note */
    uint64_t inflight_period_ns; /* sampling period of the in-flight thread */
    /* The device's window is from its first reading to its last, on the
     * monitor's clock; these say where it lies against the run's measured
     * window (ms, + = later): the first reading is taken when the run's
     * control thread wakes for the window's start, which a busy machine
     * delays (the run itself counts from the scheduled instant). */
    double window_start_offset_ms, window_end_offset_ms;
    struct iom_dev_figures total;/* over the device's window (total.dur_s) */
    uint32_t nr_points, cap_points;
    struct iom_dev_point points[];
};

/*
 * Read the diskstats row of device `name` from ROOT/proc/diskstats
 * (root "" = live). Returns 0, -ENOENT (file or row missing), -EINVAL.
 */
int iom_diskstats_read(const char *root, const char *name, struct iom_diskstats *out);

/* Read ROOT/sys/class/block/NAME/inflight ("reads writes"). 0 or -errno. */
int iom_inflight_read(const char *root, const char *name, uint64_t *reads, uint64_t *writes);

/*
 * Figures from two snapshots a (earlier) and b taken dur_s apart, by
 * iostat -x's formulas (see the file comment). Counter wrap is treated as
 * zero progress. The inflight_* fields are left 0 (the caller adds samples).
 */
void iom_diskstats_figures(const struct iom_diskstats *a, const struct iom_diskstats *b,
                           double dur_s, struct iom_dev_figures *out);

struct iom_devmon;
/*
 * A monitor for nr devices (names[i] is a kernel name, "" or NULL for a
 * target without a block device: that slot records `why not` from
 * notes[i] when given). root "" = live. inflight_period_ns 0 = 10 ms.
 * Returns 0 or -ENOMEM. Devices missing from diskstats are noted, not errors.
 */
int iom_devmon_new(struct iom_devmon **out, const char *root, const char *const *names,
                   const char *const *notes, unsigned nr, uint64_t inflight_period_ns);
/*
 * The clock the monitor stamps its diskstats readings with, in ns (default:
 * CLOCK_MONOTONIC, the runner's iom_now_ns clock). For tests that replay
 * files under `root`; call before iom_devmon_begin. now_ns NULL = default.
 */
void iom_devmon_set_clock(struct iom_devmon *m, uint64_t (*now_ns)(void *arg), void *arg);
/*
 * Start of the measured phase, which began at window_start_ns (the clock
 * above): first snapshot, stamped with the time it was read; its distance
 * from window_start_ns is the result's window_start_offset_ms. Starts the
 * in-flight sampling thread (if it cannot start, only tick-time samples
 * are kept).
 */
void iom_devmon_begin(struct iom_devmon *m, uint64_t window_start_ns);
/*
 * Close one interval, the run's series point ending t_end_s into the
 * measured phase: appends a point per device, its figures over the time
 * since the previous reading (f.dur_s, by the readings' stamps). Cheap
 * (one read of /proc/diskstats).
 */
void iom_devmon_tick(struct iom_devmon *m, double t_end_s);
/*
 * End of the measured phase, which ended at window_end_ns: totals from the
 * first snapshot to the last tick's (so the series adds up to them), or to
 * a fresh reading when there was no tick, over the time between the two
 * readings (total.dur_s); window_end_offset_ms = last reading -
 * window_end_ns. Stops the thread.
 */
void iom_devmon_end(struct iom_devmon *m, uint64_t window_end_ns);
/* Hand over device i's result (the caller frees it with free()); NULL when
 * i is out of range or already taken. */
struct iom_devmon_result *iom_devmon_take(struct iom_devmon *m, unsigned i);

/* Stop the thread if running and free the monitor and untaken results. NULL is fine. */
void iom_devmon_free(struct iom_devmon *m);

#endif
