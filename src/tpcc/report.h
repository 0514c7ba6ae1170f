/*
 * tpcc/report.h - text and JSON reports of `iomark tpcc` (load, run, check).
 *
 * The JSON document is in the iomark result family (iom_json_doc_new with
 * type "tpcc", "tpcc_load" or "tpcc_check"); field names are documented in
 * docs/tpcc.md and read by `iomark compare`. Latencies are in ms.
 */
#ifndef IOMARK_TPCC_REPORT_H
#define IOMARK_TPCC_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>
#include <time.h>

#include "tpcc/tpcc.h"

/* Everything one `iomark tpcc` invocation reports; NULL parts are left out. */
struct tpcc_report {
    const struct tpcc_db_cfg *dbc;
    char db_version[64];             /* "SQLite 3.40.1", "PostgreSQL 15.18" */
    const struct tpcc_scale *sc;
    const struct tpcc_run_cfg *cfg;  /* with run */
    const struct tpcc_run_result *run;
    const struct tpcc_load_result *load;
    const struct tpcc_check_result *check;
    uint64_t size_bytes;             /* database size at the end */
    bool have_dev;
    struct tpcc_devinfo data_dev, log_dev;
    time_t start_time;
    const char *error;               /* failure message, or NULL */
};

/* The JSON document of r (type "tpcc" with a run, else "tpcc_load" or
 * "tpcc_check"). Returns a new tree (caller cJSON_Delete) or NULL on ENOMEM. */
cJSON *iom_tpcc_json(const struct tpcc_report *r);

/* Human report: the NOPM/TPM headline and the per-transaction time profile
 * table (calls, min, mean, p50, p95, p99, max, stddev in ms), the columns of
 * HammerDB's transaction time profile. */
void iom_tpcc_text(FILE *f, const struct tpcc_report *r);

/* Per-transaction figures in ms derived from s (iom_summarize). */
struct tpcc_txn_figures {
    uint64_t calls;
    double min_ms, mean_ms, p50_ms, p95_ms, p99_ms, max_ms, stddev_ms;
};
void iom_tpcc_txn_figures(const struct tpcc_txn_stats *s, struct tpcc_txn_figures *f);

/* One transaction type's JSON object: calls, min/mean/p50/p95/p99/max/
 * stddev in ms (iom_tpcc_txn_figures), rollbacks, retries. Returns a new
 * object (the caller adds it to a tree) or NULL on ENOMEM. */
cJSON *iom_tpcc_txn_json(const struct tpcc_txn_stats *s);

/*
 * The measured transaction mix of run x: pct[t] = calls of type t in the
 * measured interval / all calls x 100 (0 when nothing ran). Returns a bit
 * mask (1 << t) of the types below TPC-C's minimum share (clause 5.2.3,
 * tpcc_mix_floor_pct: Payment 43%, Delivery, Order-Status, Stock-Level 4%).
 */
unsigned iom_tpcc_mix_measured(const struct tpcc_run_result *x, double pct[TPCC_NR_TXN]);

#endif
