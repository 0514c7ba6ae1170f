/*
 * mpi_tpcc.h - `iomark tpcc run` under an MPI launcher (docs/mpi.md, "tpcc
 * across ranks"): the ranks share the virtual users against one database
 * server, as HammerDB's multiple clients do; one timeline for all (the
 * window of mpi/mpi.h, iom_mpi_sync); NOPM counted once, by rank 0, from
 * the database; TPM and per-transaction percentiles from the ranks'
 * merged histograms (never averages of percentiles).
 *
 * Every function is called on the thread that called iom_mpi_init().
 */
#ifndef IOMARK_MPI_MPI_TPCC_H
#define IOMARK_MPI_MPI_TPCC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "tpcc/tpcc.h"

/* One rank's part of a tpcc run. */
struct iom_mpi_tpcc_rank {
    int rank;
    char host[64];
    int rc;                       /* its tpcc_run status (0 ok, -errno; -EPIPE lost) */
    int interrupted_signal;
    unsigned vu_first, vu;        /* its VUs: global numbers vu_first .. vu_first + vu - 1 */
    uint64_t measured_ns;
    int64_t win_start_ns, win_end_ns; /* its measured interval, CLOCK_REALTIME ns */
    struct tpcc_txn_stats txn[TPCC_NR_TXN]; /* raw histograms */
    bool have_cpu;
    struct iom_cpu_usage cpu;     /* its host over its interval */
    char error[600];
};

struct iom_mpi_tpcc_info {
    int nr_ranks;
    unsigned warehouses;
    struct iom_mpi_tpcc_rank *ranks; /* nr_ranks, by rank */
    int lost_rank;                /* -1: none */
    double start_spread_ms, end_spread_ms; /* max - min of the ranks' window starts, ends */
};

/*
 * The share of rank `rank` of `size` ranks in vu virtual users: the first
 * vu % size ranks get one more (HammerDB spreads its virtual users over
 * its clients the same way); *first is the global 0-based number of its
 * first VU, so home warehouses continue across ranks ((g mod W) + 1,
 * tpcc_run). *count may be 0 (more ranks than VUs).
 */
void iom_mpi_tpcc_share(unsigned vu, int rank, int size, unsigned *first, unsigned *count);

/*
 * After tpcc_run on every rank: rank 0 collects every rank's figures
 * point to point (iom_mpi_collect: a dead or silent rank is named, not
 * waited for). mine: this rank's result (run_rc its status, cfg its share).
 * On rank 0, *merged (caller's memory) receives: transactions = the sums of
 * the ranks' raw histograms and counters, measured_ns / window / CPU /
 * NOPM / tpm_db = rank 0's own (rank 0 samples the database at the shared
 * window's ends; NOPM is never a sum of per-rank counts), tpm = all ranks'
 * calls over that time, error = the first failing rank's "rank R on HOST:
 * why"; *info (iom_mpi_tpcc_info_free) the per-rank figures. Other ranks:
 * *info NULL, *merged untouched. *job_rc (0, or the lowest rank status;
 * -EPIPE when a rank was lost: then no collective may follow) and *job_sig
 * (the signal that stopped any rank, 0 none) on every rank that is left.
 * Returns 0 or -ENOMEM (rank 0).
 */
int iom_mpi_tpcc_gather(const struct tpcc_run_result *mine, int run_rc,
                        const struct tpcc_run_cfg *cfg, unsigned warehouses,
                        struct tpcc_run_result *merged, struct iom_mpi_tpcc_info **info,
                        int *job_rc, int *job_sig);

void iom_mpi_tpcc_info_free(struct iom_mpi_tpcc_info *info);

/* Add "mpi" to a tpcc document: ranks, how NOPM and the percentiles were
 * formed, the window spread, per_rank (rank, host, status, VUs, home
 * warehouses, window, calls, TPM, per-transaction figures as the
 * document's own "transactions"). */
void iom_mpi_tpcc_json(cJSON *doc, const struct iom_mpi_tpcc_info *info);

/* The text report's MPI part: a per-rank table and an "all ranks" line
 * (calls, TPM and New-Order p99 from the merged histograms; NOPM from the
 * database). */
void iom_mpi_tpcc_text(FILE *f, const struct iom_mpi_tpcc_info *info,
                       const struct tpcc_run_result *merged);

#endif
