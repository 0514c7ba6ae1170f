/* tpcc_mpi.h - `iomark tpcc [run]` under an MPI launcher (cli/tpcc_mpi.c, docs/mpi.md). */
#ifndef IOMARK_CLI_TPCC_MPI_H
#define IOMARK_CLI_TPCC_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include "tpcc/tpcc.h"

/* What cmd_tpcc.c hands over once its options are checked. */
struct iom_cli_tpcc_mpi {
    const char *cmd;            /* "tpcc" or "tpcc run" (error messages) */
    bool load;                  /* no step: rank 0 loads first */
    bool other_step;            /* load or check: refused under a launcher */
    bool keep0;                 /* --keep=0: refused under a launcher */
    const char *db;             /* this rank's --db as given (NULL: the default) */
    const struct tpcc_db_cfg *dbc; /* this rank's --db */
    const struct tpcc_run_cfg *run; /* --vu is the total over all ranks */
    unsigned warehouses;
    bool warehouses_set, scale_test;
    bool json, quiet;
    const char *output;
    uint64_t status_interval_ns;
    const char *same;           /* the options every rank must share (all but --db and output) */
};

/*
 * Run the step on every rank of the job (one process per rank, started by
 * mpirun/srun): rank 0 loads (no step) or checks that a load exists, every
 * other rank only checks that it can connect; the ranks agree, then each
 * runs its share of the VUs in one shared window; rank 0 writes one
 * document. Returns the exit status: 0, 1 (this or another rank failed or
 * was lost), 2 (refused: options differ between ranks, SQLite, a step
 * other than run, no load), 130/143 (interrupted).
 */
int iom_cli_tpcc_mpi(const struct iom_cli_tpcc_mpi *a);

#endif
