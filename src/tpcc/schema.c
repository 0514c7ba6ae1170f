/*
 * schema.c - the nine TPC-C tables (clause 1.3), their primary keys, the
 * two secondary indexes HammerDB creates (customer by last name, orders by
 * customer), and iomark_meta, which records the scale of a finished load.
 *
 * SQLite tables with a primary key are WITHOUT ROWID (clustered on the key,
 * as the other engines' index-organised layouts). PostgreSQL gets its
 * primary keys after the load, which is how bulk loads are done there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpcc/tpcc.h"

const char *const tpcc_tables[9] = {"item",   "warehouse", "district", "customer", "history",
                                    "orders", "new_order", "order_line", "stock"};

struct table_def {
    const char *name;
    const char *cols;
    const char *pk; /* NULL: no primary key (history) */
};

static const struct table_def defs[] = {
    {"warehouse",
     "w_id INTEGER NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), w_street_2 VARCHAR(20), "
     "w_city VARCHAR(20), w_state CHAR(2), w_zip CHAR(9), w_tax NUMERIC(4,4), w_ytd NUMERIC(12,2)",
     "w_id"},
    {"district",
     "d_id INTEGER NOT NULL, d_w_id INTEGER NOT NULL, d_name VARCHAR(10), d_street_1 VARCHAR(20), "
     "d_street_2 VARCHAR(20), d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), "
     "d_tax NUMERIC(4,4), d_ytd NUMERIC(12,2), d_next_o_id INTEGER",
     "d_w_id, d_id"},
    {"customer",
     "c_id INTEGER NOT NULL, c_d_id INTEGER NOT NULL, c_w_id INTEGER NOT NULL, "
     "c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20), "
     "c_street_2 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2), c_zip CHAR(9), "
     "c_phone CHAR(16), c_since TIMESTAMP, c_credit CHAR(2), c_credit_lim NUMERIC(12,2), "
     "c_discount NUMERIC(4,4), c_balance NUMERIC(12,2), c_ytd_payment NUMERIC(12,2), "
     "c_payment_cnt INTEGER, c_delivery_cnt INTEGER, c_data VARCHAR(500)",
     "c_w_id, c_d_id, c_id"},
    {"history",
     "h_c_id INTEGER, h_c_d_id INTEGER, h_c_w_id INTEGER, h_d_id INTEGER, h_w_id INTEGER, "
     "h_date TIMESTAMP, h_amount NUMERIC(6,2), h_data VARCHAR(24)",
     NULL},
    {"new_order", "no_o_id INTEGER NOT NULL, no_d_id INTEGER NOT NULL, no_w_id INTEGER NOT NULL",
     "no_w_id, no_d_id, no_o_id"},
    {"orders",
     "o_id INTEGER NOT NULL, o_d_id INTEGER NOT NULL, o_w_id INTEGER NOT NULL, o_c_id INTEGER, "
     "o_entry_d TIMESTAMP, o_carrier_id INTEGER, o_ol_cnt INTEGER, o_all_local INTEGER",
     "o_w_id, o_d_id, o_id"},
    {"order_line",
     "ol_o_id INTEGER NOT NULL, ol_d_id INTEGER NOT NULL, ol_w_id INTEGER NOT NULL, "
     "ol_number INTEGER NOT NULL, ol_i_id INTEGER, ol_supply_w_id INTEGER, "
     "ol_delivery_d TIMESTAMP, ol_quantity INTEGER, ol_amount NUMERIC(6,2), ol_dist_info CHAR(24)",
     "ol_w_id, ol_d_id, ol_o_id, ol_number"},
    {"item",
     "i_id INTEGER NOT NULL, i_im_id INTEGER, i_name VARCHAR(24), i_price NUMERIC(5,2), "
     "i_data VARCHAR(50)",
     "i_id"},
    {"stock",
     "s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity INTEGER, "
     "s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), "
     "s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), "
     "s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd INTEGER, s_order_cnt INTEGER, "
     "s_remote_cnt INTEGER, s_data VARCHAR(50)",
     "s_w_id, s_i_id"},
};

void tpcc_scale_init(struct tpcc_scale *sc, unsigned w, bool scale_test)
{
    sc->warehouses = w;
    sc->scale_test = scale_test;
    sc->items = scale_test ? 10000 : 100000;
    sc->cust_per_dist = scale_test ? 1000 : 3000;
    sc->new_orders_per_dist = scale_test ? 300 : 900;
}

int tpcc_schema_create(struct tpcc_conn *c)
{
    int rc = c->ops->reset(c);
    if (rc)
        return rc;
    bool sqlite = strcmp(c->ops->name, "sqlite") == 0;
    char sql[2048];
    for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
        const struct table_def *t = &defs[i];
        if (sqlite && t->pk)
            snprintf(sql, sizeof(sql), "CREATE TABLE %s (%s, PRIMARY KEY (%s)) WITHOUT ROWID",
                     t->name, t->cols, t->pk);
        else
            snprintf(sql, sizeof(sql), "CREATE TABLE %s (%s)", t->name, t->cols);
        if ((rc = c->ops->exec(c, sql)))
            return rc;
    }
    return c->ops->exec(c, "CREATE TABLE iomark_meta (k VARCHAR(32) NOT NULL PRIMARY KEY, "
                           "v VARCHAR(64))");
}

/* One index-phase statement, unless a stop was asked for (-EINTR). */
static int ix_exec(struct tpcc_conn *c, const volatile sig_atomic_t *stop, const char *sql)
{
    if (stop && *stop) {
        snprintf(c->err, sizeof(c->err), "interrupted before: %s", sql);
        return -EINTR;
    }
    return c->ops->exec(c, sql);
}

int tpcc_schema_indexes(struct tpcc_conn *c, const volatile sig_atomic_t *stop)
{
    bool sqlite = strcmp(c->ops->name, "sqlite") == 0;
    char sql[512];
    int rc;
    if (!sqlite) {
        for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
            if (!defs[i].pk)
                continue;
            snprintf(sql, sizeof(sql), "ALTER TABLE %s ADD PRIMARY KEY (%s)", defs[i].name,
                     defs[i].pk);
            if ((rc = ix_exec(c, stop, sql)))
                return rc;
        }
    }
    if ((rc = ix_exec(c, stop, "CREATE INDEX customer_i2 ON customer "
                              "(c_w_id, c_d_id, c_last, c_first, c_id)")))
        return rc;
    if ((rc = ix_exec(c, stop, "CREATE INDEX orders_i2 ON orders (o_w_id, o_d_id, o_c_id, o_id)")))
        return rc;
    if (sqlite)
        return ix_exec(c, stop, "ANALYZE");
    for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
        snprintf(sql, sizeof(sql), "VACUUM ANALYZE %s", defs[i].name);
        if ((rc = ix_exec(c, stop, sql)))
            return rc;
    }
    return 0;
}

static int meta_put(struct tpcc_conn *c, const char *k, long long v)
{
    char num[32];
    snprintf(num, sizeof(num), "%lld", v);
    struct tpcc_val p[2] = {TV_S(k), TV_S(num)};
    return c->ops->query(c, TPCC_MAX_STMTS - 4, "INSERT INTO iomark_meta (k, v) VALUES ($1, $2)",
                         p, 2);
}

int tpcc_meta_write(struct tpcc_conn *c, const struct tpcc_scale *sc)
{
    int rc;
    if ((rc = meta_put(c, "warehouses", sc->warehouses)) || (rc = meta_put(c, "items", sc->items)) ||
        (rc = meta_put(c, "cust_per_dist", sc->cust_per_dist)) ||
        (rc = meta_put(c, "new_orders_per_dist", sc->new_orders_per_dist)) ||
        (rc = meta_put(c, "scale_test", sc->scale_test)) ||
        (rc = meta_put(c, "c_last_load", TPCC_C_LAST_LOAD)))
        return rc;
    return 0;
}

int tpcc_meta_read(struct tpcc_conn *c, struct tpcc_scale *sc)
{
    memset(sc, 0, sizeof(*sc));
    int rc = c->ops->query(c, TPCC_MAX_STMTS - 5, "SELECT k, v FROM iomark_meta", NULL, 0);
    if (rc) {
        snprintf(c->err, sizeof(c->err), "no iomark TPC-C database here (run 'iomark tpcc load')");
        return -ENOENT;
    }
    unsigned seen = 0;
    while ((rc = c->ops->step(c)) == 1) {
        const char *k = c->ops->col_text(c, 0);
        unsigned long v = strtoul(c->ops->col_text(c, 1), NULL, 10);
        if (strcmp(k, "warehouses") == 0)
            sc->warehouses = (unsigned)v, seen |= 1;
        else if (strcmp(k, "items") == 0)
            sc->items = (unsigned)v, seen |= 2;
        else if (strcmp(k, "cust_per_dist") == 0)
            sc->cust_per_dist = (unsigned)v, seen |= 4;
        else if (strcmp(k, "new_orders_per_dist") == 0)
            sc->new_orders_per_dist = (unsigned)v, seen |= 8;
        else if (strcmp(k, "scale_test") == 0)
            sc->scale_test = v != 0;
    }
    if (rc < 0)
        return rc;
    if (seen != 15 || !sc->warehouses || !sc->items || !sc->cust_per_dist) {
        snprintf(c->err, sizeof(c->err),
                 "the iomark TPC-C load is incomplete (run 'iomark tpcc load' again)");
        return -ENOENT;
    }
    return 0;
}
