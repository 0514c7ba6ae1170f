/*
 * repeat.h - the document and the text summary of a repeated run
 * (`iomark run --repeat N`): every run kept, and per metric the mean, min,
 * max and sample standard deviation over the runs.
 */
#ifndef IOMARK_REPORT_REPEAT_H
#define IOMARK_REPORT_REPEAT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "stats/result.h"

/*
 * Build {"schema", "type": "repeat", "repeat": n asked, "completed": runs
 * done, "status", "runs": [run documents as iom_report_json], "summary":
 * {"read"|"write"|"total": {"iops"|"mb_per_s"|"mib_per_s"|"lat_mean_us"|
 * "lat_p99_us": {n, mean, min, max, stddev}}, "cpu": {"busy_pct",
 * "iops_per_cpu_pct": {...}}}}. stddev is the sample one (n - 1). The
 * summary and "completed" count only runs that finished their measured phase;
 * an interrupted or failed run stays in "runs" with its own status
 * ("interrupted", "error"), as sweep keeps a partial point out of its curve.
 * r[] are
 * borrowed. Returns a new tree (cJSON_Delete) or NULL when out of memory.
 */
cJSON *iom_repeat_json(struct iom_result *const *r, unsigned nr, unsigned asked);

/* Print one line per run (an interrupted or failed one marked "not in the
 * statistics") and the mean/min/max/stddev rows over the completed runs. */
void iom_repeat_text(FILE *f, struct iom_result *const *r, unsigned nr, unsigned asked);

#endif
