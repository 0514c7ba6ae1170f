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

#endif
