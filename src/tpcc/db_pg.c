/*
 * db_pg.c - the PostgreSQL back end through libpq.
 *
 * Everything iomark creates lives in one schema of the connected database
 * (cfg->schema, default iomark_tpcc); every connection sets search_path to
 * it. reset() drops and recreates only that schema, and refuses when it
 * holds tables iomark did not create. Statements are prepared once per
 * connection (PQprepare) and run with text parameters (PQexecPrepared).
 * Bulk load uses COPY ... FROM STDIN in text format via PQputCopyData.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpcc/db.h"

#define PG_MAX_PARAMS 32
#define COPY_BUF (256 * 1024)

struct pg_conn {
    struct tpcc_conn base;
    PGconn *pg;
    bool prepared[TPCC_MAX_STMTS];
    PGresult *res;
    int row, nrows;
    char pbuf[PG_MAX_PARAMS][40];
    char *copybuf;
    size_t copylen;
};

static int classify(struct pg_conn *c, const PGresult *res)
{
    const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(c->pg);
    if (!msg || !*msg)
        msg = PQerrorMessage(c->pg);
    snprintf(c->base.err, sizeof(c->base.err), "postgresql: %s", msg);
    size_t n = strlen(c->base.err);
    while (n && (c->base.err[n - 1] == '\n' || c->base.err[n - 1] == ' '))
        c->base.err[--n] = '\0';
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (state && (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
                  strcmp(state, "55P03") == 0))
        return TPCC_RETRY;
    if (state && strcmp(state, "53100") == 0)
        return -ENOSPC;
    return -EIO;
}

static void clear_res(struct pg_conn *c)
{
    if (c->res) {
        PQclear(c->res);
        c->res = NULL;
    }
    c->row = -1;
    c->nrows = 0;
}

static int pg_exec(struct tpcc_conn *bc, const char *sql)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    clear_res(c);
    PGresult *r = PQexec(c->pg, sql);
    ExecStatusType st = PQresultStatus(r);
    int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : classify(c, r);
    PQclear(r);
    return rc;
}

static void pg_disconnect(struct tpcc_conn *bc)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    if (!c)
        return;
    clear_res(c);
    if (c->pg)
        PQfinish(c->pg);
    free(c->copybuf);
    free(c);
}

static void quiet_notice(void *arg, const char *msg)
{
    (void)arg, (void)msg;
}

static int pg_connect(const struct tpcc_db_cfg *cfg, struct tpcc_conn **out, char *err,
                      size_t errlen)
{
    *out = NULL;
    struct pg_conn *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->base.ops = &tpcc_db_pg_ops;
    c->base.cfg = cfg;
    c->row = -1;
    c->pg = PQconnectdb(cfg->conninfo);
    if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
        char d[512];
        tpcc_db_describe(cfg, d, sizeof(d));
        const char *m = c->pg ? PQerrorMessage(c->pg) : "out of memory";
        snprintf(err, errlen, "cannot connect to %s: %.*s", d, (int)strcspn(m, "\n"), m);
        pg_disconnect(&c->base);
        return -ECONNREFUSED;
    }
    PQsetNoticeProcessor(c->pg, quiet_notice, NULL);
    char sql[160];
    snprintf(sql, sizeof(sql), "SET search_path TO %s", cfg->schema);
    int rc = pg_exec(&c->base, sql);
    if (rc) {
        snprintf(err, errlen, "%s", c->base.err);
        pg_disconnect(&c->base);
        return rc;
    }
    *out = &c->base;
    return 0;
}

static const char *param_text(struct pg_conn *c, unsigned i, const struct tpcc_val *v)
{
    switch (v->t) {
    case TPCC_V_INT:
        snprintf(c->pbuf[i], sizeof(c->pbuf[i]), "%lld", (long long)v->i);
        return c->pbuf[i];
    case TPCC_V_REAL:
        snprintf(c->pbuf[i], sizeof(c->pbuf[i]), "%.17g", v->d);
        return c->pbuf[i];
    case TPCC_V_TEXT:
        return v->s;
    default:
        return NULL;
    }
}

static int pg_query(struct tpcc_conn *bc, unsigned id, const char *sql, const struct tpcc_val *p,
                    unsigned np)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    if (id >= TPCC_MAX_STMTS || np > PG_MAX_PARAMS)
        return -EINVAL;
    clear_res(c);
    char name[16];
    snprintf(name, sizeof(name), "s%u", id);
    if (!c->prepared[id]) {
        PGresult *r = PQprepare(c->pg, name, sql, 0, NULL);
        int rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : classify(c, r);
        PQclear(r);
        if (rc)
            return rc;
        c->prepared[id] = true;
    }
    const char *vals[PG_MAX_PARAMS];
    for (unsigned i = 0; i < np; i++)
        vals[i] = param_text(c, i, &p[i]);
    PGresult *r = PQexecPrepared(c->pg, name, (int)np, vals, NULL, NULL, 0);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        int rc = classify(c, r);
        PQclear(r);
        return rc;
    }
    c->res = r;
    c->nrows = PQntuples(r);
    c->row = -1;
    return 0;
}

static int pg_step(struct tpcc_conn *bc)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    if (!c->res)
        return 0;
    if (c->row + 1 < c->nrows) {
        c->row++;
        return 1;
    }
    clear_res(c);
    return 0;
}

static const char *cell(struct pg_conn *c, unsigned col)
{
    if (!c->res || c->row < 0 || (int)col >= PQnfields(c->res))
        return NULL;
    if (PQgetisnull(c->res, c->row, (int)col))
        return NULL;
    return PQgetvalue(c->res, c->row, (int)col);
}

static int64_t pg_col_int(struct tpcc_conn *bc, unsigned col)
{
    const char *v = cell((struct pg_conn *)bc, col);
    return v ? strtoll(v, NULL, 10) : 0;
}

static double pg_col_real(struct tpcc_conn *bc, unsigned col)
{
    const char *v = cell((struct pg_conn *)bc, col);
    return v ? strtod(v, NULL) : 0;
}

static const char *pg_col_text(struct tpcc_conn *bc, unsigned col)
{
    const char *v = cell((struct pg_conn *)bc, col);
    return v ? v : "";
}

static bool pg_col_null(struct tpcc_conn *bc, unsigned col)
{
    return cell((struct pg_conn *)bc, col) == NULL;
}

static int pg_begin(struct tpcc_conn *c, bool write)
{
    (void)write; /* READ COMMITTED, PostgreSQL's default, as HammerDB */
    return pg_exec(c, "BEGIN");
}

static int pg_commit(struct tpcc_conn *c)
{
    return pg_exec(c, "COMMIT");
}

static int pg_rollback(struct tpcc_conn *c)
{
    return pg_exec(c, "ROLLBACK");
}

static int pg_copy_begin(struct tpcc_conn *bc, const char *table, const char *const *cols,
                         unsigned ncols)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    clear_res(c);
    char sql[2048];
    size_t o = (size_t)snprintf(sql, sizeof(sql), "COPY %s (", table);
    for (unsigned i = 0; i < ncols && o < sizeof(sql); i++)
        o += (size_t)snprintf(sql + o, sizeof(sql) - o, "%s%s", i ? "," : "", cols[i]);
    if (o < sizeof(sql))
        o += (size_t)snprintf(sql + o, sizeof(sql) - o, ") FROM STDIN");
    if (o >= sizeof(sql))
        return -E2BIG;
    if (!c->copybuf && !(c->copybuf = malloc(COPY_BUF)))
        return -ENOMEM;
    c->copylen = 0;
    PGresult *r = PQexec(c->pg, sql);
    int rc = PQresultStatus(r) == PGRES_COPY_IN ? 0 : classify(c, r);
    PQclear(r);
    return rc;
}

static int copy_flush(struct pg_conn *c)
{
    if (c->copylen && PQputCopyData(c->pg, c->copybuf, (int)c->copylen) != 1)
        return classify(c, NULL);
    c->copylen = 0;
    return 0;
}

static int pg_copy_row(struct tpcc_conn *bc, const struct tpcc_val *v, unsigned n)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    for (unsigned i = 0; i < n; i++) {
        char num[40];
        const char *s;
        if (v[i].t == TPCC_V_NULL) {
            s = "\\N";
        } else if (v[i].t == TPCC_V_INT) {
            snprintf(num, sizeof(num), "%lld", (long long)v[i].i);
            s = num;
        } else if (v[i].t == TPCC_V_REAL) {
            snprintf(num, sizeof(num), "%.17g", v[i].d);
            s = num;
        } else {
            s = v[i].s;
        }
        size_t len = strlen(s);
        if (c->copylen + 2 * len + 2 > COPY_BUF) {
            int rc = copy_flush(c);
            if (rc)
                return rc;
            if (2 * len + 2 > COPY_BUF)
                return -E2BIG;
        }
        bool esc = v[i].t == TPCC_V_TEXT;
        for (size_t k = 0; k < len; k++) {
            char ch = s[k];
            if (esc && (ch == '\\' || ch == '\t' || ch == '\n' || ch == '\r')) {
                c->copybuf[c->copylen++] = '\\';
                ch = ch == '\t' ? 't' : ch == '\n' ? 'n' : ch == '\r' ? 'r' : '\\';
            }
            c->copybuf[c->copylen++] = ch;
        }
        c->copybuf[c->copylen++] = i + 1 < n ? '\t' : '\n';
    }
    return 0;
}

static int pg_copy_end(struct tpcc_conn *bc)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    int rc = copy_flush(c);
    if (PQputCopyEnd(c->pg, rc ? "iomark: load failed" : NULL) != 1 && !rc)
        rc = classify(c, NULL);
    PGresult *r;
    while ((r = PQgetResult(c->pg)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && !rc)
            rc = classify(c, r);
        PQclear(r);
    }
    return rc;
}

static int pg_size(struct tpcc_conn *bc, uint64_t *bytes)
{
    int64_t v = 0;
    struct tpcc_val p = TV_S(bc->cfg->schema);
    int rc = tpcc_db_scalar_int(bc, TPCC_MAX_STMTS - 1,
                                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint "
                                "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                "WHERE n.nspname = $1 AND c.relkind = 'r'",
                                &p, 1, &v);
    *bytes = (uint64_t)v;
    return rc;
}

static int pg_xact_count(struct tpcc_conn *bc, uint64_t *n)
{
    int64_t v = 0;
    int rc = tpcc_db_scalar_int(bc, TPCC_MAX_STMTS - 2,
                                "SELECT (xact_commit + xact_rollback)::bigint FROM pg_stat_database "
                                "WHERE datname = current_database()",
                                NULL, 0, &v);
    *n = (uint64_t)v;
    return rc;
}

static int pg_paths(struct tpcc_conn *bc, char *data, size_t dlen, char *log, size_t llen)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    const char *host = PQhost(c->pg);
    if (host && *host && host[0] != '/' && strcmp(host, "localhost") != 0 &&
        strcmp(host, "127.0.0.1") != 0 && strcmp(host, "::1") != 0)
        return -ENOENT; /* a remote server's files are not ours to stat */
    clear_res(c);
    PGresult *r = PQexec(c->pg, "SHOW data_directory");
    int rc = -ENOENT;
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) {
        snprintf(data, dlen, "%s", PQgetvalue(r, 0, 0));
        snprintf(log, llen, "%s/pg_wal", PQgetvalue(r, 0, 0));
        rc = 0;
    }
    PQclear(r);
    return rc;
}

static void pg_version(struct tpcc_conn *bc, char *buf, size_t len)
{
    struct pg_conn *c = (struct pg_conn *)bc;
    const char *v = PQparameterStatus(c->pg, "server_version");
    snprintf(buf, len, "PostgreSQL %s", v ? v : "?");
}

static int pg_reset(struct tpcc_conn *bc)
{
    static const char *const ours[] = {"warehouse", "district", "customer", "history",
                                       "new_order", "orders", "order_line", "item",
                                       "stock", "iomark_meta", NULL};
    struct pg_conn *c = (struct pg_conn *)bc;
    struct tpcc_val p = TV_S(bc->cfg->schema);
    int rc = pg_query(bc, TPCC_MAX_STMTS - 3,
                      "SELECT c.relname FROM pg_class c JOIN pg_namespace n "
                      "ON n.oid = c.relnamespace WHERE n.nspname = $1 "
                      "AND c.relkind IN ('r', 'v', 'm', 'f', 'p')",
                      &p, 1);
    if (rc)
        return rc;
    while (pg_step(bc) == 1) {
        const char *name = pg_col_text(bc, 0);
        bool mine = false;
        for (int i = 0; ours[i]; i++)
            mine |= strcmp(name, ours[i]) == 0;
        if (!mine) {
            snprintf(c->base.err, sizeof(c->base.err),
                     "schema %s holds '%s', which is not iomark's; choose another --pg_schema",
                     bc->cfg->schema, name);
            clear_res(c);
            return -EEXIST;
        }
    }
    char sql[200];
    snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", bc->cfg->schema);
    if ((rc = pg_exec(bc, sql)))
        return rc;
    snprintf(sql, sizeof(sql), "CREATE SCHEMA %s", bc->cfg->schema);
    return pg_exec(bc, sql);
}

const struct tpcc_db_ops tpcc_db_pg_ops = {
    .name = "postgresql",
    .connect = pg_connect,
    .disconnect = pg_disconnect,
    .exec = pg_exec,
    .query = pg_query,
    .step = pg_step,
    .col_int = pg_col_int,
    .col_real = pg_col_real,
    .col_text = pg_col_text,
    .col_null = pg_col_null,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .copy_begin = pg_copy_begin,
    .copy_row = pg_copy_row,
    .copy_end = pg_copy_end,
    .size_bytes = pg_size,
    .xact_count = pg_xact_count,
    .paths = pg_paths,
    .version = pg_version,
    .reset = pg_reset,
};
