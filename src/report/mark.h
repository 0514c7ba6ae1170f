/*
 * mark.h - the `iomark mark` result: its text table and its JSON document
 * (`"type": "mark"`, docs/mark.schema.json). Writers only: the figures come
 * from stats/markstat.h, the tests from workload/presets.h.
 */
#ifndef IOMARK_REPORT_MARK_H
#define IOMARK_REPORT_MARK_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/target.h"
#include "stats/markstat.h"
#include "workload/presets.h"

/* One test and direction: every run in the order run (the preparation run,
 * counted == false, first) and the statistic over the counted ones. */
struct iom_mark_cell {
    unsigned nr_runs;
    struct iom_markstat_run *runs; /* owned by the caller */
    struct iom_markstat stat;      /* iom_markstat_compute over runs */
};

/* Under an MPI launcher (docs/mpi.md): the cells of one host (its ranks
 * together, rank -1) or of one rank, each run's figures over the same shared
 * window as the all-hosts cells of the document. */
struct iom_mark_group {
    const char *host;                   /* short host name */
    int rank;                           /* the rank, or -1 for a host's ranks together */
    int nr_ranks;                       /* ranks in the group */
    const struct iom_mark_cell *cells;  /* as iom_mark_doc.cells */
};

struct iom_mark_doc {
    const struct iom_mark_profile *profile;
    enum iom_markstat_kind kind;  /* the reported statistic */
    const char *convention;       /* "crystaldiskmark", "kdiskmark" or "option" (--statistic=best|mean) */
    unsigned runs;                /* counted runs per test and direction */
    double runtime_s;             /* length of each counted run, s */
    double prepare_s;             /* length of the uncounted preparation run, s (0: none) */
    double pause_s;               /* interval between tests, s */
    bool direct;                  /* O_DIRECT (else buffered) */
    const struct iom_target *target; /* path, kind, device, tested region */
    const char *engine;           /* engine the runs used ("" if none ran) */
    int sig;                      /* interrupting signal or 0 */
    const char *error;            /* failure message or NULL */
    /* profile->nr_tests * 2 cells, index test * 2 + (write ? 1 : 0); a cell
     * with nr_runs == 0 did not run */
    const struct iom_mark_cell *cells;
    /* under MPI: nr_ranks > 0; cells above are then every rank's I/Os over
     * the slowest rank's time (merged histograms), and groups hold the hosts
     * (rank -1) then the ranks; own_targets: target names had %r or %h */
    int nr_ranks;
    bool own_targets;
    unsigned nr_groups;
    const struct iom_mark_group *groups;
};

/*
 * Print the banner (profile, I/O mode, runs, preparation run, interval, the
 * statistic used) and the table: reads, then writes, one row per test with
 * the reported MB/s (10^6 bytes/s), IOPS and mean latency (us), then the
 * mean and min-max of MB/s and of the mean latency over the counted runs.
 * Under MPI a line says the figures are all hosts' and how many ranks and
 * hosts ran. Returns 0 or -EIO when writing to f failed.
 */
int iom_mark_print(FILE *f, const struct iom_mark_doc *d);

/*
 * Build the JSON document: header, host, settings, target, and per test and
 * direction the reported figures, "counted_runs", "mean"/"min"/"max" of the
 * counted runs and "each_run" with every run (the preparation run with
 * "counted": false, "phase": "prepare"). Under MPI (d->nr_ranks > 0) an
 * "mpi" object adds "ranks", "own_targets", and "hosts" and "per_rank",
 * each entry with "host" (and "rank") and its own "tests". Returns a new tree (the caller frees
 * it with cJSON_Delete) or NULL when out of memory.
 */
cJSON *iom_mark_json(const struct iom_mark_doc *d);

#endif
