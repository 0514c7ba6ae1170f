/*
 * db.h - the database back-end ops table of the TPC-C workload.
 *
 * One ops table per engine (db_sqlite.c, db_pg.c), in the manner of fio's
 * ioengine ops: the loader, the transactions, the driver and the checker
 * speak only this interface. SQL text is written once, with PostgreSQL's
 * positional parameters ($1, $2, ...); the SQLite back end rewrites them to
 * SQLite's numbered form (?1, ?2, ...), which binds the same way.
 *
 * A connection is used by one thread at a time. Statements are prepared on
 * first use and cached per connection under a caller-chosen id.
 *
 * Errors: every int-returning op returns 0 (or a documented positive value)
 * or a negative errno. TPCC_RETRY (-EAGAIN) means "the database could not
 * take the lock or detected a serialization failure or deadlock; roll back
 * and run the transaction again" (SQLite SQLITE_BUSY/SQLITE_LOCKED after the
 * busy handler gave up, PostgreSQL SQLSTATE 40001 and 40P01). Any other
 * negative value is a failure; the connection's err[] holds the database's
 * message.
 */
#ifndef IOMARK_TPCC_DB_H
#define IOMARK_TPCC_DB_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TPCC_RETRY (-EAGAIN)
#define TPCC_MAX_STMTS 64

enum tpcc_engine { TPCC_DB_SQLITE, TPCC_DB_PG };

/* Where the database lives and how it is opened; filled by tpcc_db_parse(). */
struct tpcc_db_cfg {
    enum tpcc_engine engine;
    char path[4096];        /* SQLite: database file path */
    char conninfo[4096];    /* PostgreSQL: libpq connection string or URI */
    char journal_mode[16];  /* SQLite: wal (default), delete, truncate, persist, memory, off */
    char synchronous[16];   /* SQLite: full (default), normal, off, extra */
    uint64_t busy_timeout_ns; /* SQLite: give up waiting for a lock after this long */
    char schema[64];        /* PostgreSQL: iomark's own schema (default iomark_tpcc) */
    bool create;            /* SQLite: create the file when missing (load); else -ENOENT */
};

enum tpcc_vtype { TPCC_V_NULL, TPCC_V_INT, TPCC_V_REAL, TPCC_V_TEXT };

/* One statement parameter or bulk-load column value (text is borrowed). */
struct tpcc_val {
    enum tpcc_vtype t;
    int64_t i;
    double d;
    const char *s;
};

#define TV_NULL ((struct tpcc_val){.t = TPCC_V_NULL})
#define TV_I(x) ((struct tpcc_val){.t = TPCC_V_INT, .i = (int64_t)(x)})
#define TV_R(x) ((struct tpcc_val){.t = TPCC_V_REAL, .d = (double)(x)})
#define TV_S(x) ((struct tpcc_val){.t = TPCC_V_TEXT, .s = (x)})

struct tpcc_db_ops;

/* Common head of every back end's connection object. */
struct tpcc_conn {
    const struct tpcc_db_ops *ops;
    const struct tpcc_db_cfg *cfg;
    uint64_t busy_retries;  /* SQLite: times the busy handler waited for a lock */
    const volatile int *cancel; /* when set and non-zero, lock waits give up at once */
    char err[512];          /* last error message from the database */
};

struct tpcc_db_ops {
    const char *name; /* "sqlite" or "postgresql" */
    /* Open a connection. On failure returns -errno and writes the reason to err. */
    int (*connect)(const struct tpcc_db_cfg *cfg, struct tpcc_conn **out, char *err, size_t errlen);
    /* Close it and free everything it owns. NULL is allowed. */
    void (*disconnect)(struct tpcc_conn *c);
    /* Run SQL text without parameters or result rows (DDL, PRAGMA, SET). */
    int (*exec)(struct tpcc_conn *c, const char *sql);
    /*
     * Run statement `id` (< TPCC_MAX_STMTS; prepared from sql on first use)
     * with np parameters. Ends the previous statement of this connection.
     * Returns 0 when it ran; rows, if any, are then read with step().
     */
    int (*query)(struct tpcc_conn *c, unsigned id, const char *sql, const struct tpcc_val *p,
                 unsigned np);
    /* Next result row: 1 = a row is current, 0 = no more rows, < 0 error. */
    int (*step)(struct tpcc_conn *c);
    /* Columns of the current row (0-based). Text stays valid until the next step/query. */
    int64_t (*col_int)(struct tpcc_conn *c, unsigned col);
    double (*col_real)(struct tpcc_conn *c, unsigned col);
    const char *(*col_text)(struct tpcc_conn *c, unsigned col);
    bool (*col_null)(struct tpcc_conn *c, unsigned col);
    /* Transactions. write = true opens a write transaction (SQLite: BEGIN IMMEDIATE). */
    int (*begin)(struct tpcc_conn *c, bool write);
    int (*commit)(struct tpcc_conn *c);
    int (*rollback)(struct tpcc_conn *c);
    /*
     * Bulk load into table (columns cols[0..ncols)): PostgreSQL COPY FROM
     * STDIN through PQputCopyData, SQLite a prepared INSERT. Rows go in with
     * copy_row (n == ncols) and end with copy_end. The caller brackets it
     * with begin/commit.
     */
    int (*copy_begin)(struct tpcc_conn *c, const char *table, const char *const *cols,
                      unsigned ncols);
    int (*copy_row)(struct tpcc_conn *c, const struct tpcc_val *v, unsigned n);
    int (*copy_end)(struct tpcc_conn *c);
    /* Bytes the database occupies (SQLite: file + WAL; PostgreSQL: iomark's schema). */
    int (*size_bytes)(struct tpcc_conn *c, uint64_t *bytes);
    /* PostgreSQL: xact_commit + xact_rollback of this database (pg_stat_database).
     * SQLite: -ENOTSUP. */
    int (*xact_count)(struct tpcc_conn *c, uint64_t *n);
    /* Local paths of the data and of the log (WAL), for the device probe.
     * Returns -ENOENT when not known (remote server, no privilege). */
    int (*paths)(struct tpcc_conn *c, char *data, size_t dlen, char *log, size_t llen);
    /* Server or library version text, e.g. "SQLite 3.40.1". */
    void (*version)(struct tpcc_conn *c, char *buf, size_t len);
    /* Drop every object iomark created (SQLite: its tables; PostgreSQL: its
     * schema, CASCADE) and make a fresh empty namespace. Nothing else is touched. */
    int (*reset)(struct tpcc_conn *c);
};

extern const struct tpcc_db_ops tpcc_db_sqlite_ops;
extern const struct tpcc_db_ops tpcc_db_pg_ops;

/*
 * Parse the --db value: "sqlite:PATH" or a plain PATH with no scheme (PATH a
 * file, or an existing folder or one written with a trailing '/', which gets
 * iomark-tpcc.db inside it; a drive letter, C:/, is no scheme),
 * "postgresql://..." / "postgres://..." (a libpq URI) or "pg:CONNINFO"
 * (libpq key=value string; the same string without pg: is refused, naming
 * the fix). NULL or "" means sqlite in the current folder. The SQLite file's
 * folder must exist (the message names the first missing folder, or a part
 * of the path that is a file: core/target.h iom_path_folder_error). Fills
 * cfg with defaults for the rest. Returns 0 or -EINVAL with a one-line
 * reason in err (errlen bytes).
 */
int tpcc_db_parse(const char *spec, struct tpcc_db_cfg *cfg, char *err, size_t errlen);

/* The ops table of cfg->engine. */
const struct tpcc_db_ops *tpcc_db_ops_of(const struct tpcc_db_cfg *cfg);

/* Connect with the engine of cfg; see tpcc_db_ops.connect. */
int tpcc_db_connect(const struct tpcc_db_cfg *cfg, struct tpcc_conn **out, char *err,
                    size_t errlen);

/* Run a statement and read the first column of its first row as an integer
 * into *v (0 when there is no row or it is NULL). Returns 0 or -errno. */
int tpcc_db_scalar_int(struct tpcc_conn *c, unsigned id, const char *sql,
                       const struct tpcc_val *p, unsigned np, int64_t *v);

/* Conninfo with any password replaced by "***", for reports. */
void tpcc_db_describe(const struct tpcc_db_cfg *cfg, char *buf, size_t len);

#endif
