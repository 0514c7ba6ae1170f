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
#include <stdio.h>

#include "workload/fiojob.h"
#include "stats/result.h"

/*
 * results[i] is the run of jobfile->jobs[i] (NULL = the job did not run:
 * an earlier step failed or the run was interrupted). Reports follow fio:
 * one entry per job clone, or one per reporting group with group_reporting.
 */
void iom_report_fio_text(FILE *f, const struct iom_fio_file *jobfile,
                         struct iom_result *const *results);

/* The JSON document; caller frees with cJSON_Delete. NULL when out of memory. */
cJSON *iom_report_fio_json(const struct iom_fio_file *jobfile, struct iom_result *const *results);

/*
 * fio's num2str(): num scaled by 1000 (pow2 = 0) or 1024 (pow2 = 1) until
 * it has at most maxlen digits, with decimals filling the room left, then
 * the prefix (k/M/G or Ki/Mi/Gi) and unit ("", "B", "B/s"). Exposed for
 * tests; buf gets at most len bytes.
 */
void iom_fio_num2str(uint64_t num, int maxlen, int pow2, const char *unit, char *buf, size_t len);

#endif
