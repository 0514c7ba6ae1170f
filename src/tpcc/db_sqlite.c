/*
 * db_sqlite.c - the embedded SQLite back end.
 *
 * Journal mode and synchronous level come from the configuration (default
 * WAL + FULL, so a commit reaches the disk before it returns). Write
 * transactions open with BEGIN IMMEDIATE so a writer takes the write lock
 * up front instead of failing to upgrade a read lock. Lock waits go through
 * a busy handler that sleeps with back-off, counts each wait in
 * conn.busy_retries and gives up after busy_timeout_ns; the caller then
 * sees TPCC_RETRY and runs the transaction again.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tpcc/db.h"

struct sq_conn {
    struct tpcc_conn base;
    sqlite3 *db;
    sqlite3_stmt *stmt[TPCC_MAX_STMTS];
    sqlite3_stmt *cur;      /* statement whose rows step() reads */
    int pending;            /* first step's result not yet returned: 1 row, 0 done */
    sqlite3_stmt *copy;
    uint64_t busy_start_ns;
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int busy_handler(void *arg, int count)
{
    struct sq_conn *c = arg;
    uint64_t now = now_ns();
    if (c->base.cancel && *c->base.cancel)
        return 0; /* the run is over: stop waiting, the caller sees TPCC_RETRY */
    if (count == 0)
        c->busy_start_ns = now;
    else if (now - c->busy_start_ns > c->base.cfg->busy_timeout_ns)
        return 0;
    c->base.busy_retries++;
    /* 50 us doubling to 5 ms: short waits keep the write lock hand-over quick */
    unsigned us = 50u << (count < 7 ? count : 7);
    if (us > 5000)
        us = 5000;
    usleep(us);
    return 1;
}

static int fail(struct sq_conn *c, int rc)
{
    snprintf(c->base.err, sizeof(c->base.err), "sqlite: %s", sqlite3_errmsg(c->db));
    int prim = rc & 0xff;
    if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED)
        return TPCC_RETRY;
    if (prim == SQLITE_FULL)
        return -ENOSPC;
    return -EIO;
}

static int sq_exec(struct tpcc_conn *bc, const char *sql)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    if (c->cur) {
        sqlite3_reset(c->cur);
        c->cur = NULL;
    }
    int rc = sqlite3_exec(c->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : fail(c, rc);
}

static void sq_disconnect(struct tpcc_conn *bc)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    if (!c)
        return;
    for (unsigned i = 0; i < TPCC_MAX_STMTS; i++)
        sqlite3_finalize(c->stmt[i]);
    sqlite3_finalize(c->copy);
    sqlite3_close(c->db);
    free(c);
}

static int sq_connect(const struct tpcc_db_cfg *cfg, struct tpcc_conn **out, char *err,
                      size_t errlen)
{
    *out = NULL;
    struct stat st;
    if (!cfg->create && stat(cfg->path, &st) != 0) {
        snprintf(err, errlen, "%s: no such database file (run 'iomark tpcc load' first)",
                 cfg->path);
        return -ENOENT;
    }
    struct sq_conn *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->base.ops = &tpcc_db_sqlite_ops;
    c->base.cfg = cfg;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (cfg->create ? SQLITE_OPEN_CREATE : 0);
    int rc = sqlite3_open_v2(cfg->path, &c->db, flags, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", cfg->path, c->db ? sqlite3_errmsg(c->db) : "out of memory");
        sq_disconnect(&c->base);
        return -EIO;
    }
    sqlite3_busy_handler(c->db, busy_handler, c);
    char sql[128];
    snprintf(sql, sizeof(sql), "PRAGMA journal_mode=%s", cfg->journal_mode);
    int r = sq_exec(&c->base, sql);
    if (!r) {
        snprintf(sql, sizeof(sql), "PRAGMA synchronous=%s", cfg->synchronous);
        r = sq_exec(&c->base, sql);
    }
    if (r) {
        snprintf(err, errlen, "%s: %s", cfg->path, c->base.err);
        sq_disconnect(&c->base);
        return r;
    }
    *out = &c->base;
    return 0;
}

/* "$12" -> "?12": PostgreSQL positional parameters to SQLite numbered ones. */
static char *convert_params(const char *sql)
{
    char *s = strdup(sql);
    if (!s)
        return NULL;
    for (char *p = s; *p; p++)
        if (*p == '$' && p[1] >= '0' && p[1] <= '9')
            *p = '?';
    return s;
}

static int bind_all(struct sq_conn *c, sqlite3_stmt *st, const struct tpcc_val *p, unsigned np)
{
    for (unsigned i = 0; i < np; i++) {
        int rc;
        switch (p[i].t) {
        case TPCC_V_INT:
            rc = sqlite3_bind_int64(st, (int)i + 1, p[i].i);
            break;
        case TPCC_V_REAL:
            rc = sqlite3_bind_double(st, (int)i + 1, p[i].d);
            break;
        case TPCC_V_TEXT:
            rc = sqlite3_bind_text(st, (int)i + 1, p[i].s, -1, SQLITE_STATIC);
            break;
        default:
            rc = sqlite3_bind_null(st, (int)i + 1);
        }
        if (rc != SQLITE_OK)
            return fail(c, rc);
    }
    return 0;
}

static int sq_query(struct tpcc_conn *bc, unsigned id, const char *sql, const struct tpcc_val *p,
                    unsigned np)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    if (id >= TPCC_MAX_STMTS)
        return -EINVAL;
    if (c->cur) {
        sqlite3_reset(c->cur);
        c->cur = NULL;
    }
    if (!c->stmt[id]) {
        char *q = convert_params(sql);
        if (!q)
            return -ENOMEM;
        int rc = sqlite3_prepare_v3(c->db, q, -1, SQLITE_PREPARE_PERSISTENT, &c->stmt[id], NULL);
        free(q);
        if (rc != SQLITE_OK)
            return fail(c, rc);
    }
    sqlite3_stmt *st = c->stmt[id];
    sqlite3_clear_bindings(st);
    int rc = bind_all(c, st, p, np);
    if (rc)
        return rc;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
        c->cur = st;
        c->pending = rc == SQLITE_ROW ? 1 : 0;
        return 0;
    }
    int r = fail(c, rc);
    sqlite3_reset(st);
    return r;
}

static int sq_step(struct tpcc_conn *bc)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    if (!c->cur)
        return 0;
    if (c->pending >= 0) {
        int r = c->pending;
        c->pending = -1;
        if (r == 0) {
            sqlite3_reset(c->cur);
            c->cur = NULL;
        }
        return r;
    }
    int rc = sqlite3_step(c->cur);
    if (rc == SQLITE_ROW)
        return 1;
    sqlite3_stmt *st = c->cur;
    c->cur = NULL;
    if (rc == SQLITE_DONE) {
        sqlite3_reset(st);
        return 0;
    }
    int r = fail(c, rc);
    sqlite3_reset(st);
    return r;
}

static int64_t sq_col_int(struct tpcc_conn *bc, unsigned col)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    return c->cur ? sqlite3_column_int64(c->cur, (int)col) : 0;
}

static double sq_col_real(struct tpcc_conn *bc, unsigned col)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    return c->cur ? sqlite3_column_double(c->cur, (int)col) : 0;
}

static const char *sq_col_text(struct tpcc_conn *bc, unsigned col)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    const unsigned char *t = c->cur ? sqlite3_column_text(c->cur, (int)col) : NULL;
    return t ? (const char *)t : "";
}

static bool sq_col_null(struct tpcc_conn *bc, unsigned col)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    return !c->cur || sqlite3_column_type(c->cur, (int)col) == SQLITE_NULL;
}

static int sq_begin(struct tpcc_conn *c, bool write)
{
    return sq_exec(c, write ? "BEGIN IMMEDIATE" : "BEGIN");
}

static int sq_commit(struct tpcc_conn *c)
{
    return sq_exec(c, "COMMIT");
}

static int sq_rollback(struct tpcc_conn *bc)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    if (sqlite3_get_autocommit(c->db)) /* no transaction open (SQLite may have rolled back) */
        return 0;
    return sq_exec(bc, "ROLLBACK");
}

static int sq_copy_begin(struct tpcc_conn *bc, const char *table, const char *const *cols,
                         unsigned ncols)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    char sql[2048];
    size_t o = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s (", table);
    for (unsigned i = 0; i < ncols && o < sizeof(sql); i++)
        o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s%s", i ? "," : "", cols[i]);
    if (o < sizeof(sql))
        o += (size_t)snprintf(sql + o, sizeof(sql) - o, ") VALUES (");
    for (unsigned i = 0; i < ncols && o < sizeof(sql); i++)
        o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s?%u", i ? "," : "", i + 1);
    if (o < sizeof(sql))
        o += (size_t)snprintf(sql + o, sizeof(sql) - o, ")");
    if (o >= sizeof(sql))
        return -E2BIG;
    sqlite3_finalize(c->copy);
    c->copy = NULL;
    int rc = sqlite3_prepare_v2(c->db, sql, -1, &c->copy, NULL);
    return rc == SQLITE_OK ? 0 : fail(c, rc);
}

static int sq_copy_row(struct tpcc_conn *bc, const struct tpcc_val *v, unsigned n)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    int rc = bind_all(c, c->copy, v, n);
    if (rc)
        return rc;
    rc = sqlite3_step(c->copy);
    int r = rc == SQLITE_DONE ? 0 : fail(c, rc);
    sqlite3_reset(c->copy);
    return r;
}

static int sq_copy_end(struct tpcc_conn *bc)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    sqlite3_finalize(c->copy);
    c->copy = NULL;
    return 0;
}

static int sq_size(struct tpcc_conn *bc, uint64_t *bytes)
{
    char p[4200];
    struct stat st;
    *bytes = 0;
    if (stat(bc->cfg->path, &st) != 0)
        return -errno;
    *bytes = (uint64_t)st.st_size;
    snprintf(p, sizeof(p), "%s-wal", bc->cfg->path);
    if (stat(p, &st) == 0)
        *bytes += (uint64_t)st.st_size;
    return 0;
}

static int sq_xact_count(struct tpcc_conn *c, uint64_t *n)
{
    (void)c;
    *n = 0;
    return -ENOTSUP;
}

static int sq_paths(struct tpcc_conn *bc, char *data, size_t dlen, char *log, size_t llen)
{
    snprintf(data, dlen, "%s", bc->cfg->path);
    const char *jm = bc->cfg->journal_mode;
    snprintf(log, llen, "%s%s", bc->cfg->path, strcmp(jm, "wal") == 0 ? "-wal" : "-journal");
    return 0;
}

static void sq_version(struct tpcc_conn *c, char *buf, size_t len)
{
    (void)c;
    snprintf(buf, len, "SQLite %s", sqlite3_libversion());
}

static const char *const our_objects[] = {
    "warehouse", "district", "customer", "history", "new_order", "orders", "order_line",
    "item", "stock", "iomark_meta", "customer_i2", "orders_i2", NULL};

static int sq_reset(struct tpcc_conn *bc)
{
    struct sq_conn *c = (struct sq_conn *)bc;
    /* refuse a database that holds anything that is not iomark's */
    int rc = sq_query(bc, TPCC_MAX_STMTS - 1,
                      "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'", NULL, 0);
    if (rc)
        return rc;
    while ((rc = sq_step(bc)) == 1) {
        const char *name = sq_col_text(bc, 0);
        bool ours = false;
        for (int i = 0; our_objects[i]; i++)
            ours |= strcmp(name, our_objects[i]) == 0;
        if (!ours) {
            snprintf(c->base.err, sizeof(c->base.err),
                     "%s holds '%s', which is not iomark's; name another file", bc->cfg->path, name);
            sq_exec(bc, "SELECT 1"); /* ends the statement */
            return -EEXIST;
        }
    }
    if (rc < 0)
        return rc;
    char sql[128];
    for (int i = 0; i < 10; i++) {
        snprintf(sql, sizeof(sql), "DROP TABLE IF EXISTS %s", our_objects[i]);
        if ((rc = sq_exec(bc, sql)))
            return rc;
    }
    return sq_exec(bc, "VACUUM");
}

const struct tpcc_db_ops tpcc_db_sqlite_ops = {
    .name = "sqlite",
    .connect = sq_connect,
    .disconnect = sq_disconnect,
    .exec = sq_exec,
    .query = sq_query,
    .step = sq_step,
    .col_int = sq_col_int,
    .col_real = sq_col_real,
    .col_text = sq_col_text,
    .col_null = sq_col_null,
    .begin = sq_begin,
    .commit = sq_commit,
    .rollback = sq_rollback,
    .copy_begin = sq_copy_begin,
    .copy_row = sq_copy_row,
    .copy_end = sq_copy_end,
    .size_bytes = sq_size,
    .xact_count = sq_xact_count,
    .paths = sq_paths,
    .version = sq_version,
    .reset = sq_reset,
};
