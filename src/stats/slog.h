/*
 * slog.h - the per-I/O sample log one worker thread keeps for fio's
 * write_bw_log, write_lat_log and write_iops_log (fio HOWTO, "Log File
 * Formats"; fio 3.33 stat.c add_bw_sample/add_iops_sample/add_lat_sample,
 * iolog.c flush_samples).
 *
 * Two modes, as fio's log_avg_msec:
 *  - avg_ns == 0: one record per I/O (completion time, latency, direction,
 *    size, offset). Memory grows with the I/O count (32 bytes per I/O), as
 *    fio's in-memory logs do.
 *  - avg_ns > 0: per window [k*avg_ns, (k+1)*avg_ns) of the measured phase
 *    and per direction, the I/O count, bytes and latency sum. Memory grows
 *    with the run time only (48 bytes per window).
 * Times are ns since the measured phase began (fio: since the job's epoch,
 * which fio resets when ramp_time ends). Single writer (the worker); read
 * after the worker has been joined.
 */
#ifndef IOMARK_STATS_SLOG_H
#define IOMARK_STATS_SLOG_H

#include <stddef.h>
#include <stdint.h>

struct iom_slog_rec {
    uint64_t t_ns;       /* completion, since the measured phase began */
    uint64_t lat_ns;     /* submit-to-complete time */
    uint64_t offset;     /* bytes */
    uint32_t len;        /* bytes */
    uint16_t dir;        /* 0 read, 1 write, 2 trim (fio's log ddir column) */
    uint16_t prio;       /* the I/O's own priority (ioprio_set(2) value), 0: none */
};

struct iom_slog_win {
    uint64_t ios[3], bytes[3], lat_sum_ns[3]; /* read, write, trim */
};

struct iom_slog {
    uint64_t avg_ns;     /* 0 = one record per I/O */
    uint64_t last_t_ns;  /* the latest completion added */
    struct iom_slog_rec *rec;
    size_t nr_rec, cap_rec;
    struct iom_slog_win *win;
    size_t nr_win, cap_win;
    int enomem;          /* an add failed for memory: the log misses samples */
};

/* A new empty log (avg_ns as above). Returns NULL when out of memory; free
 * with iom_slog_free(). */
struct iom_slog *iom_slog_new(uint64_t avg_ns);

/*
 * Add one I/O that completed t_ns after the measured phase began, after
 * lat_ns, in direction dir (0 read, 1 write, 2 trim), len bytes at offset, with
 * priority prio (ioprio_set(2)'s value; 0 none; kept in per-I/O logs only, as fio's
 * averaged samples carry none: stat.c __add_stat_to_log). O(1) amortized; on
 * allocation failure the sample is dropped and l->enomem set (the writer
 * reports it). l may be NULL (no-op).
 */
void iom_slog_add(struct iom_slog *l, uint64_t t_ns, int dir, uint32_t len, uint64_t lat_ns,
                  uint64_t offset, uint16_t prio);

/* dst += src window by window (averaged logs of one fio clone over several
 * files; both must have the same avg_ns > 0). Returns 0 or -ENOMEM. */
int iom_slog_merge_windows(struct iom_slog *dst, const struct iom_slog *src);

/* Append src's records to dst and sort dst by time (per-I/O logs of one
 * clone over several files). Returns 0 or -ENOMEM. */
int iom_slog_merge_records(struct iom_slog *dst, const struct iom_slog *src);

/*
 * fio's averaged rate of one window: units * 1000 / spent_ms (integer, as
 * fio 3.33 stat.c __add_samples; divided by 1024 more for KiB/s when kib).
 * spent_ms 0 gives 0.
 */
uint64_t iom_slog_rate(uint64_t units, uint64_t spent_ms, int kib);

/* Free l and everything it owns. NULL is fine. */
void iom_slog_free(struct iom_slog *l);

#endif
