/*
 * tpcc.h - a TPC-C derived OLTP workload (in the manner of HammerDB's
 * TPROC-C): schema, loader, the five transactions, the timed driver and the
 * consistency checker. Not a TPC-C result: no auditing, no terminal
 * emulation beyond optional keying and think times.
 *
 * Facts follow the TPC-C specification revision 5.11 (clause numbers in
 * the comments) and HammerDB's defaults (mix 10:10:1:1:1, no keying or
 * think time, NOPM from sum(d_next_o_id)).
 */
#ifndef IOMARK_TPCC_TPCC_H
#define IOMARK_TPCC_TPCC_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "stats/cpu.h"
#include "stats/summary.h"
#include "tpcc/db.h"
#include "tpcc/rand.h"

/* Population per warehouse. TPC-C clause 4.3.3.1: 100,000 items, 3,000
 * customers and orders per district, the last 900 orders undelivered. The
 * small-scale test mode (--scale_test) shrinks it for tests only. */
struct tpcc_scale {
    unsigned warehouses;
    unsigned items;          /* 100000 (scale test: 10000) */
    unsigned cust_per_dist;  /* 3000 (scale test: 1000); also orders per district */
    unsigned new_orders_per_dist; /* 900 (scale test: 300) */
    bool scale_test;
};

/* Fill sc for w warehouses, full TPC-C size or the test size. */
void tpcc_scale_init(struct tpcc_scale *sc, unsigned w, bool scale_test);

/* ---- schema.c ---- */

/* The nine tables, in load order. */
extern const char *const tpcc_tables[9];

/*
 * Drop iomark's objects (ops->reset) and create the nine tables with their
 * primary keys, plus iomark_meta. Indexes come after the load
 * (tpcc_schema_indexes). Returns 0 or -errno (c->err has the reason).
 */
int tpcc_schema_create(struct tpcc_conn *c);

/* Create the two secondary indexes (customer by last name, orders by
 * customer; on PostgreSQL first the primary keys) and refresh planner
 * statistics (VACUUM ANALYZE per table; SQLite ANALYZE). stop (may be NULL)
 * is checked before every statement: once set, the statement in progress
 * finishes and -EINTR is returned without the rest. Returns 0 or -errno. */
int tpcc_schema_indexes(struct tpcc_conn *c, const volatile sig_atomic_t *stop);

/* Store the scale in iomark_meta (call inside the load). Returns 0 or -errno. */
int tpcc_meta_write(struct tpcc_conn *c, const struct tpcc_scale *sc);

/*
 * Read the scale of a loaded database from iomark_meta. Returns 0, -ENOENT
 * when the database holds no complete iomark TPC-C load, or -errno.
 */
int tpcc_meta_read(struct tpcc_conn *c, struct tpcc_scale *sc);

/* ---- load.c ---- */

struct tpcc_load_progress {
    unsigned warehouse;   /* warehouse being loaded, 0 = items */
    unsigned warehouses;
    double pct;           /* 0..100 of all rows */
    uint64_t rows;        /* rows written so far */
    bool indexes;         /* every row is written: building the indexes and statistics */
};

struct tpcc_load_result {
    uint64_t rows;
    double load_s;        /* wall time of data and indexes */
    uint64_t size_bytes;  /* database size after the load */
};

/*
 * Create the schema and load sc->warehouses warehouses (clause 4.3.3.1
 * population) through c: PostgreSQL COPY, SQLite prepared INSERTs in one
 * transaction per table and warehouse. progress (may be NULL) is called
 * about every 50,000 rows, and once more (indexes true) when every row is
 * written and the indexes are built; *stop (may be NULL) non-zero aborts with
 * -EINTR.
 * Returns 0 or -errno with c->err set.
 */
int tpcc_load(struct tpcc_conn *c, const struct tpcc_scale *sc, uint64_t seed,
              const volatile sig_atomic_t *stop,
              void (*progress)(const struct tpcc_load_progress *p, void *arg), void *arg,
              struct tpcc_load_result *out);

/* ---- txn.c ---- */

/* What one virtual user needs to run transactions. */
struct tpcc_vu {
    struct tpcc_conn *c;
    const struct tpcc_scale *sc;
    struct tpcc_rng rng;
    struct tpcc_nurand_c C;
    unsigned w_id;        /* home warehouse, 1-based */
    unsigned d_id;        /* the district this terminal reports stock level for */
    const volatile sig_atomic_t *stop;
    const volatile int *abort_run; /* set by the driver on a fatal error elsewhere */
};

/* Outcome of one transaction call. */
struct tpcc_txn_out {
    bool rolled_back;     /* New-Order with an unused item id (clause 2.4.2.3) */
    uint32_t retries;     /* times it was rolled back and run again (busy, deadlock) */
    uint32_t busy_waits;  /* SQLite busy-handler waits during it */
};

/*
 * Generate the inputs of one transaction of type t (clauses 2.4.1-2.8.1)
 * and run it in one database transaction, retrying on TPCC_RETRY (up to
 * 1000 times, with a short back-off). Returns 0 (committed, or rolled back
 * on purpose: out->rolled_back), -EINTR when *stop, *abort_run or
 * c->cancel was set during retries, or -errno on failure (vu->c->err).
 */
int tpcc_txn_run(struct tpcc_vu *vu, enum tpcc_txn_type t, struct tpcc_txn_out *out);

/* ---- driver.c ---- */

struct tpcc_run_cfg {
    unsigned vu;                     /* virtual users (threads, one connection each) */
    uint64_t ramp_ns, runtime_ns;    /* ramp-up, then measured time */
    unsigned mix[TPCC_NR_TXN];       /* weights, default 10:10:1:1:1 */
    bool keying_think;               /* clause 5.2.5 keying and think times */
    uint64_t seed;
    unsigned vu_first;               /* global number (0-based) of this process's first VU:
                                      * 0 alone; under MPI the ranks continue the numbering */
};

struct tpcc_txn_stats {
    struct iom_io_stats lat;         /* ios = calls, latencies in ns; bytes unused */
    uint64_t rollbacks, retries, busy_waits;
};

struct tpcc_run_progress {
    int phase;            /* 0 ramp-up, 1 measured */
    double elapsed_s, remaining_s;
    double tpm;           /* driver TPM over the last second */
    double nopm;          /* New-Order commits per minute over the last second */
};

struct iom_run_sync;
struct tpcc_run_hooks {
    const volatile sig_atomic_t *stop;  /* non-zero: stop now, report what was measured */
    void (*progress)(const struct tpcc_run_progress *p, void *arg); /* about 1/s, may be NULL */
    void *arg;
    /* When non-NULL, the phases follow this coordinator (core/runner.h; MPI:
     * iom_mpi_sync): every VU connects, sync->ready() agrees and names the
     * start, no VU runs a transaction before it, and the ends of ramp-up and
     * of the measured interval are the instants sync->poll() returns; a call
     * is measured when it finishes inside them. */
    const struct iom_run_sync *sync;
    /* Check mode (tests), when non-NULL: VU g writes "TYPE NS" (type index,
     * latency in ns) for every measured call to latency_log.vG. */
    const char *latency_log;
};

struct tpcc_run_result {
    struct tpcc_txn_stats txn[TPCC_NR_TXN]; /* transactions finished in the measured interval */
    uint64_t measured_ns;
    uint64_t d_next_o_id_start, d_next_o_id_end; /* sum(d_next_o_id) at the ends */
    /* how far each sample of that sum lay from its boundary (ns): [0] from
     * the start of the measured interval, [1] from its end, each the span
     * from the boundary to the far end of the query's [sent, answered]. A
     * New-Order committed within them can count in NOPM and not among the
     * driver's calls, or the reverse (as well as one in flight per VU). */
    uint64_t nopm_gap_ns[2];
    double nopm;          /* (end - start) / measured minutes, HammerDB's NOPM */
    double tpm;           /* calls (committed + rolled back) / measured minutes */
    bool have_tpm_db;     /* PostgreSQL */
    double tpm_db;        /* pg_stat_database xact_commit + xact_rollback per minute */
    bool have_cpu;
    struct iom_cpu_usage cpu; /* whole machine (/proc/stat) over the measured interval */
    int interrupted_signal;
    int64_t win_start_ns, win_end_ns; /* measured interval on CLOCK_REALTIME (ns since 1970) */
    char error[600];
};

/* Fill cfg with the defaults (1 VU, 2 min ramp-up, 5 min run, 10:10:1:1:1). */
void tpcc_run_cfg_defaults(struct tpcc_run_cfg *cfg);

/*
 * Run the timed workload against a loaded database: cfg->vu threads, each
 * with its own connection and home warehouse ((g mod W) + 1 for global VU
 * number g = cfg->vu_first + i, as HammerDB assigns them), ramp-up, then
 * the measured interval. `main_conn` (the caller's) samples sum(d_next_o_id)
 * and the database's counters; NULL (MPI ranks but 0): none are sampled,
 * nopm and tpm_db stay 0. Returns 0 (also when stopped through
 * hooks->stop: out->interrupted_signal) or -errno with out->error.
 */
int tpcc_run(const struct tpcc_db_cfg *dbc, struct tpcc_conn *main_conn,
             const struct tpcc_scale *sc, const struct tpcc_run_cfg *cfg,
             const struct tpcc_run_hooks *hooks, struct tpcc_run_result *out);

/* ---- check.c ---- */

#define TPCC_NR_CHECKS 4

struct tpcc_check_result {
    uint64_t rows_checked[TPCC_NR_CHECKS];   /* warehouses / districts examined */
    uint64_t violations[TPCC_NR_CHECKS];
    char first_violation[TPCC_NR_CHECKS][200];
};

/* One-line statement of consistency condition i (0-based) of clause 3.3.2. */
extern const char *const tpcc_check_text[TPCC_NR_CHECKS];

/*
 * Verify TPC-C consistency conditions 1-4 (clause 3.3.2.1-3.3.2.4) in one
 * read transaction. Money is compared to within half a cent (SQLite keeps
 * it as REAL). Returns 0 after checking (see out->violations) or -errno.
 */
int tpcc_check(struct tpcc_conn *c, struct tpcc_check_result *out);

/* ---- devinfo.c ---- */

struct tpcc_devinfo {
    char path[4096];
    char device[64];      /* kernel name, e.g. "nvme0n1p2", or "" when not a block device */
    char disk[64];        /* whole disk of a partition, e.g. "nvme0n1" */
    char majmin[24];      /* "259:2" */
    char fstype[32];      /* from /proc/self/mountinfo */
    char source[256];     /* mount source */
};

/*
 * Find the device holding path: stat() it (or its folder), map st_dev to
 * /sys/dev/block/MAJ:MIN and to its /proc/self/mountinfo line. Returns 0 or
 * -errno from stat().
 */
int tpcc_devinfo_probe(const char *path, struct tpcc_devinfo *out);

#endif
