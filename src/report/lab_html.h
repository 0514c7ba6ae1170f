/*
 * lab_html.h - the lab report: one HTML page from an `iomark lab` folder's
 * lab.json (docs/lab.md "Files written").
 */
#ifndef IOMARK_REPORT_LAB_HTML_H
#define IOMARK_REPORT_LAB_HTML_H

#include <cjson/cJSON.h>
#include <stdio.h>

/*
 * Write the page for lab (the parsed lab.json; borrowed) to f: per job bars
 * per controller (IOPS, MiB/s, p99 latency, NOPM/TPM for tpcc, QEMU and guest
 * CPU per I/O in microseconds, sampled device in-flight; latencies of 10 ms
 * and more in ms, CPU per I/O always in us), the scaling lines of sweeps (IOPS and mean latency of
 * each point against threads x iodepth, log2 axis, the knee ringed), the
 * I/O path table (iomark's outstanding I/O beside the guest disk's aqu-sz
 * and in-flight), the guest's queue limits with requested/effective
 * parameters, the time per controller, failures and the caveats (QEMU's
 * models, TCG, host load). title NULL = "iomark lab".
 * Returns 0, -EINVAL when lab has no "controllers" or "jobs" array, -EIO
 * when writing failed.
 */
int iom_lab_html_report(FILE *f, const cJSON *lab, const char *title);

#endif
