/*
 * fio.h - fio-style reports of a job-file run: fio 3.x "normal" human
 * output (per job: IOPS, BW, clat min/max/avg/stdev and percentiles in the
 * unit fio would pick, bw/iops interval statistics; per group: the "Run
 * status group" lines) and fio's JSON layout (--output-format=json) for
 * the fields iomark measures, so fio's parsing and plotting tools read it.
 *
 * Layout source: fio 3.33 stat.c (show_ddir_status, show_clat_percentiles,
 * show_group_stats, add_ddir_status_json) and lib/num2str.c, checked
 * against output of fio-3.33 and the files in tests/data/results/.
 *
 * Meaning of the latency fields: iomark times each I/O from just before
 * submission to completion, which is fio's "lat" (slat + clat). The report
 * puts that measurement under clat (with percentiles, as tools expect) and
 * lat; slat_ns has N = 0 (not measured separately). Standard deviations are
 * sample deviations (n - 1), as fio computes them.
 */
#ifndef IOMARK_REPORT_FIO_H
#define IOMARK_REPORT_FIO_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "workload/fiojob.h"
#include "stats/result.h"
#include "probe/diskutil.h"

/*
 * results[i] is the run of jobfile->jobs[i] (NULL = the job did not run:
 * an earlier step failed or the run was interrupted). Reports follow fio:
 * one entry per job clone, or one per reporting group with group_reporting.
 */
void iom_report_fio_text(FILE *f, const struct iom_fio_file *jobfile,
                         struct iom_result *const *results);

/* When the report is made, as fio 3.33 stat.c __show_run_stats reads the clock at
 * output: wall_ms the wall clock then (ms since the epoch: "timestamp" its seconds,
 * "timestamp_ms", "time"), elapsed_ms the time since fio's genesis (the jobs' start
 * after the file layout, backend.c run_threads) for each job's "elapsed", which fio
 * (eta.c calc_thread_status) rounds up to whole seconds: (ms + 999) / 1000. */
struct iom_fio_clock {
    uint64_t wall_ms;
    uint64_t elapsed_ms;
    const struct iom_diskutil_row *disks; /* fio's "disk_util" (probe/diskutil.h), */
    uint32_t nr_disks;                    /* none: the key is left out, as fio's */
};

/*
 * The JSON document; caller frees with cJSON_Delete. NULL when out of memory.
 * Each job's clat_ns "percentile" holds its percentile_list (fio's default
 * list without one), keyed as fio prints them ("%f": "99.990000"). plus:
 * fio's --output-format=json+, each clat_ns also gets "bins" (non-empty
 * histogram buckets: key = the bucket's midpoint in ns as fio's stat.c
 * plat_idx_to_val(), value = I/O count), which fio_jsonplus_clat2csv reads.
 * clock: when the report is made (the CLI reads it at output); NULL: the end of
 * the last result's phases, and the time since the earliest result's start.
 * "global options" and each "job options" are left out when empty, as fio's
 * json_add_job_opts.
 */
cJSON *iom_report_fio_json(const struct iom_fio_file *jobfile, struct iom_result *const *results,
                           bool plus, const struct iom_fio_clock *clock);

/*
 * The document's top (fio_head.c): "fio version", "timestamp", "timestamp_ms",
 * "time" from clock (NULL: from the results, as iom_report_fio_json says) and
 * "global options" when the file has any. Returns the clock's elapsed ms.
 */
uint64_t iom_fio_json_head(cJSON *doc, const struct iom_fio_file *jobfile,
                           struct iom_result *const *results, const struct iom_fio_clock *clock);

/*
 * An entry's "iodepth_level", "iodepth_submit" and "iodepth_complete" into j, as
 * fio 3.33 stat.c show_thread_status_json: each bucket's share in % (keys "1",
 * "2", ... ">=64"; "0", "4", ... ">=64"); nothing when no submission was counted
 * (fio_head.c).
 */
void iom_fio_depth_json(cJSON *j, const struct iom_depth_map *m);

/*
 * fio's top-level "disk_util" array (stat.c json_array_add_disk_util: name,
 * read/write ios, merges, ticks, in_queue, util) from rows[0..n); nothing when
 * n is 0 (fio_head.c).
 */
void iom_fio_disk_util_json(cJSON *doc, const struct iom_diskutil_row *rows, uint32_t n);

/*
 * fio's log files (write_bw_log, write_lat_log, write_iops_log) of the jobs
 * that name them, in fio 3.33's names and line format (HOWTO "Log File
 * Formats"; iolog.c flush_samples): per clone N (fio's job number: 1, 2, ...
 * over the file's jobs and their clones) PREFIX_bw.N.log, PREFIX_iops.N.log,
 * and for the latency log PREFIX_lat.N.log, PREFIX_clat.N.log (the same
 * submit-to-complete values: iomark measures one latency) and an empty
 * PREFIX_slat.N.log (not measured; fio's sync engines leave it empty too).
 * Each line: "time_ms, value, direction (0 read, 1 write), block size,
 * [offset, ] priority (0)". Time is ms since the measured phase began.
 * Values: bw KiB/s, iops I/Os per second, lat ns. log_avg_msec = 0: one line
 * per I/O (bw = bytes * 10^6 / latency_ns, iops = 1, as fio); > 0: one line per
 * window and direction with I/O, stamped at the window's end (the last one at
 * the clone's end), bw and iops as fio's __add_samples (units * 1000 /
 * spent_ms, bw / 1024 more), lat the rounded mean; block size 0 (as fio 3.33).
 * Files are created (truncated) relative to the current directory. Returns 0,
 * or -errno with one line in err (the file that failed and why, or the
 * samples a worker could not keep for lack of memory).
 */
int iom_fio_write_logs(const struct iom_fio_file *jobfile, struct iom_result *const *results,
                       char *err, size_t errlen);

/*
 * fio's num2str(): num scaled by 1000 (pow2 = 0) or 1024 (pow2 = 1) until
 * it has at most maxlen digits, with decimals filling the room left, then
 * the prefix (k/M/G or Ki/Mi/Gi) and unit ("", "B", "B/s"). Exposed for
 * tests; buf gets at most len bytes.
 */
void iom_fio_num2str(uint64_t num, int maxlen, int pow2, const char *unit, char *buf, size_t len);

/*
 * fio 3.33's latency distribution lines (stat.c show_lat): the ranges of v[0..n)
 * (percent of all I/Os) that are above 0, five per line after "  lat (unit)   : ",
 * each "KEY=P.PP%" with KEY keys[i] (range i's exclusive upper end in unit;
 * i == 11 is printed ">=2000"). Nothing when all are 0. Writes to f.
 */
void iom_fio_show_lat_dist(FILE *f, const double *v, int n, const char *unit, const double *keys);

struct iom_ss;
/*
 * fio's steady-state report of a job (fio 3.33 stat.c): iom_fio_ss_text writes
 * the normal report's line "  steadystate  : attained=yes, bw=8002KiB/s
 * (8002kB/s), iops=2000, iops mean dev=0.033%" (the window's means; bw is the
 * mean in whole KiB/s, shown in KiB/s and, as fio does, the same number in
 * kB/s) to f; iom_fio_ss_json adds the "steadystate" object (ss, duration,
 * attained, criterion, max_deviation, slope, data: bw_mean, iops_mean, iops[],
 * bw[] in time order) to the job object j. ss is the result's (stats/steady.h),
 * read only; out of memory leaves the object out.
 */
void iom_fio_ss_text(FILE *f, const struct iom_ss *ss);
void iom_fio_ss_json(cJSON *j, const struct iom_ss *ss);

/* The job's percentile_list (fj->pcts, 0-100 ascending), or fio's default list
 * (1, 5, ... 99.99) when fj is NULL or has none; *n gets its length. Static data
 * or fj's own, not to be freed. */
const double *iom_fio_pct_list(const struct iom_fio_job *fj, size_t *n);

/*
 * fio's block error histogram of a job (block_error_percentiles; fio 3.33
 * stat.c show_block_infos, show_thread_status_json) from th's block words
 * (th->block_infos, th->nr_block_infos; stats/blockinfo.h, read only) at fj's
 * percentile list (iom_fio_pct_list). iom_fio_block_text writes
 * "  block lifetime percentiles :", then "   |" and " 1.00th=N," ... wrapped
 * at 75 characters, then "        states               : unwritten=N,
 * trimmed=N, written=N, trim failure=N, write failure=N" to f (percentiles
 * only when some block is not unwritten, as fio); iom_fio_block_json adds
 * fio's "block" object ("percentiles": {"1.000000": N, ...}, "states":
 * {"unwritten": N, ...}) to the job object j when some block is not
 * unwritten, as fio. Out of memory leaves the lines or the object out.
 */
void iom_fio_block_text(FILE *f, const struct iom_thread_result *th, const struct iom_fio_job *fj);
void iom_fio_block_json(cJSON *j, const struct iom_thread_result *th, const struct iom_fio_job *fj);

#endif
