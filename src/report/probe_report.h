/*
 * probe_report.h - text and JSON output of `iomark probe` and the probe
 * summary carried in run results. Printing only; the facts come from
 * src/probe/probe.c and the advice from src/probe/advice.c.
 */
#ifndef IOMARK_REPORT_PROBE_REPORT_H
#define IOMARK_REPORT_PROBE_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "probe/probe.h"

#define IOM_PROBE_JSON_SCHEMA "iomark-probe"
#define IOM_PROBE_JSON_SCHEMA_VERSION 1

/* Print host, then per target its stack and disks, then the advice lines
 * (each followed by its source) to f. nr may be 0; adv may be NULL. */
void iom_probe_report_text(FILE *f, const struct iom_probe_host *h,
                           const struct iom_probe_target *t, int nr,
                           const struct iom_probe_advice_list *adv);

/*
 * The probe document: {"schema":"iomark-probe","schema_version":1,
 * "type":"probe","iomark_version","sysfs_root","host":{...},"targets":[...],
 * "advice":[{"disk","text","source"}]} (fields in docs/probe.md). Numbers
 * sysfs does not show are null. Returns a new tree (cJSON_Delete) or NULL
 * when out of memory.
 */
cJSON *iom_probe_report_json(const char *root, const struct iom_probe_host *h,
                             const struct iom_probe_target *t, int nr,
                             const struct iom_probe_advice_list *adv);

/* JSON object of one probed target (the elements of "targets" above, also
 * the per-target "probe" object of a run result). NULL when out of memory. */
cJSON *iom_probe_json_target(const struct iom_probe_target *t);

/* One line about a target's first disk for run reports: "vda1 -> vda:
 * virtio_blk (virtio-blk 1af4:1042), adapter -, LUN -, nr_requests 256 x 2
 * hw queues, max 1280 KiB, scheduler mq-deadline". Never fails (truncates). */
void iom_probe_summary_line(const struct iom_probe_target *t, char *buf, size_t len);

/* --- run results (report/devmon_report.c) --- */

#include "stats/result.h"

/*
 * Add to `o` (the JSON object of target i of run r) the "probe" object
 * (iom_probe_json_target plus "summary" and "advice": the controller advice
 * and whether iodepth x numjobs exceeds the disk's queue limit) and the
 * "device_monitor" object (device figures over the measured phase, iomark's
 * mean outstanding I/O by Little's law = sum of latencies / measured time,
 * the part waiting above the device, and a per-interval "series"). Nothing
 * is added for what the run did not record. Fields: docs/probe.md.
 */
void iom_probe_json_run_target(cJSON *o, const struct iom_result *r, uint32_t i);

/* Print each target's probe line, advice, and the "device view" table
 * (iomark's outstanding I/O against the device's in-flight count, per
 * interval and over the run) to f. Prints nothing when no target has them. */
void iom_probe_text_run(FILE *f, const struct iom_result *r);

#endif
