/*
 * load.c - populate the TPC-C tables (clause 4.3.3.1) for N warehouses.
 *
 * Rows are generated in primary-key order (cheap appends for SQLite's
 * clustered WITHOUT ROWID tables) and written through the back end's bulk
 * path: PostgreSQL COPY FROM STDIN, SQLite one prepared INSERT per row, in
 * one transaction per table and warehouse. The secondary indexes (and
 * PostgreSQL's primary keys) are built after the data, then planner
 * statistics, then iomark_meta marks the load complete.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "tpcc/tpcc.h"

struct loader {
    struct tpcc_conn *c;
    const struct tpcc_scale *sc;
    struct tpcc_rng rng;
    const volatile sig_atomic_t *stop;
    void (*progress)(const struct tpcc_load_progress *p, void *arg);
    void *arg;
    uint64_t rows, total, next_report;
    unsigned w;
    char now[32];
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int put(struct loader *ld, const struct tpcc_val *v, unsigned n)
{
    int rc = ld->c->ops->copy_row(ld->c, v, n);
    if (rc)
        return rc;
    if (++ld->rows >= ld->next_report) {
        ld->next_report = ld->rows + 50000;
        if (ld->stop && *ld->stop) {
            snprintf(ld->c->err, sizeof(ld->c->err), "interrupted");
            return -EINTR;
        }
        if (ld->progress) {
            struct tpcc_load_progress p = {ld->w, ld->sc->warehouses,
                                           100.0 * (double)ld->rows / (double)ld->total, ld->rows,
                                           false};
            ld->progress(&p, ld->arg);
        }
    }
    return 0;
}

/* begin + copy_begin for one table */
static int open_table(struct loader *ld, const char *table, const char *const *cols, unsigned n)
{
    int rc = ld->c->ops->begin(ld->c, true);
    if (rc)
        return rc;
    return ld->c->ops->copy_begin(ld->c, table, cols, n);
}

static int close_table(struct loader *ld, int rc)
{
    int r2 = ld->c->ops->copy_end(ld->c);
    if (!rc)
        rc = r2;
    if (rc) {
        char keep[sizeof(ld->c->err)];
        memcpy(keep, ld->c->err, sizeof(keep));
        ld->c->ops->rollback(ld->c);
        memcpy(ld->c->err, keep, sizeof(keep));
        return rc;
    }
    return ld->c->ops->commit(ld->c);
}

static double money(struct tpcc_rng *r, int64_t lo_cents, int64_t hi_cents)
{
    return (double)tpcc_rand_int(r, lo_cents, hi_cents) / 100.0;
}

static int load_items(struct loader *ld)
{
    static const char *const cols[] = {"i_id", "i_im_id", "i_name", "i_price", "i_data"};
    int rc = open_table(ld, "item", cols, 5);
    char name[25], data[51];
    for (unsigned i = 1; !rc && i <= ld->sc->items; i++) {
        tpcc_astring(&ld->rng, 14, 24, name);
        tpcc_data_string(&ld->rng, data);
        struct tpcc_val v[5] = {TV_I(i), TV_I(tpcc_rand_int(&ld->rng, 1, 10000)), TV_S(name),
                                TV_R(money(&ld->rng, 100, 10000)), TV_S(data)};
        rc = put(ld, v, 5);
    }
    return close_table(ld, rc);
}

struct address {
    char street_1[21], street_2[21], city[21], state[3], zip[10];
};

static void address(struct tpcc_rng *r, struct address *a)
{
    tpcc_astring(r, 10, 20, a->street_1);
    tpcc_astring(r, 10, 20, a->street_2);
    tpcc_astring(r, 10, 20, a->city);
    a->state[0] = (char)('A' + tpcc_rand_int(r, 0, 25));
    a->state[1] = (char)('A' + tpcc_rand_int(r, 0, 25));
    a->state[2] = '\0';
    tpcc_zip(r, a->zip);
}

static int load_warehouse_row(struct loader *ld, unsigned w)
{
    static const char *const cols[] = {"w_id",  "w_name",  "w_street_1", "w_street_2", "w_city",
                                       "w_state", "w_zip", "w_tax",      "w_ytd"};
    int rc = open_table(ld, "warehouse", cols, 9);
    char name[11];
    struct address a;
    tpcc_astring(&ld->rng, 6, 10, name);
    address(&ld->rng, &a);
    struct tpcc_val v[9] = {TV_I(w),         TV_S(name),   TV_S(a.street_1),
                            TV_S(a.street_2), TV_S(a.city), TV_S(a.state),
                            TV_S(a.zip),     TV_R((double)tpcc_rand_int(&ld->rng, 0, 2000) / 10000.0),
                            TV_R(300000.0)};
    if (!rc)
        rc = put(ld, v, 9);
    return close_table(ld, rc);
}

static int load_stock(struct loader *ld, unsigned w)
{
    static const char *const cols[] = {"s_i_id",    "s_w_id",    "s_quantity", "s_dist_01",
                                       "s_dist_02", "s_dist_03", "s_dist_04",  "s_dist_05",
                                       "s_dist_06", "s_dist_07", "s_dist_08",  "s_dist_09",
                                       "s_dist_10", "s_ytd",     "s_order_cnt", "s_remote_cnt",
                                       "s_data"};
    int rc = open_table(ld, "stock", cols, 17);
    char dist[10][25], data[51];
    for (unsigned i = 1; !rc && i <= ld->sc->items; i++) {
        struct tpcc_val v[17];
        v[0] = TV_I(i);
        v[1] = TV_I(w);
        v[2] = TV_I(tpcc_rand_int(&ld->rng, 10, 100));
        for (int d = 0; d < 10; d++) {
            tpcc_astring(&ld->rng, 24, 24, dist[d]);
            v[3 + d] = TV_S(dist[d]);
        }
        v[13] = TV_I(0);
        v[14] = TV_I(0);
        v[15] = TV_I(0);
        tpcc_data_string(&ld->rng, data);
        v[16] = TV_S(data);
        rc = put(ld, v, 17);
    }
    return close_table(ld, rc);
}

static int load_districts(struct loader *ld, unsigned w)
{
    static const char *const cols[] = {"d_id",   "d_w_id", "d_name", "d_street_1", "d_street_2",
                                       "d_city", "d_state", "d_zip", "d_tax",      "d_ytd",
                                       "d_next_o_id"};
    int rc = open_table(ld, "district", cols, 11);
    for (unsigned d = 1; !rc && d <= 10; d++) {
        char name[11];
        struct address a;
        tpcc_astring(&ld->rng, 6, 10, name);
        address(&ld->rng, &a);
        struct tpcc_val v[11] = {TV_I(d),
                                 TV_I(w),
                                 TV_S(name),
                                 TV_S(a.street_1),
                                 TV_S(a.street_2),
                                 TV_S(a.city),
                                 TV_S(a.state),
                                 TV_S(a.zip),
                                 TV_R((double)tpcc_rand_int(&ld->rng, 0, 2000) / 10000.0),
                                 TV_R(30000.0),
                                 TV_I(ld->sc->cust_per_dist + 1)};
        rc = put(ld, v, 11);
    }
    return close_table(ld, rc);
}

static int load_customers(struct loader *ld, unsigned w)
{
    static const char *const cols[] = {
        "c_id",    "c_d_id",  "c_w_id",        "c_first",       "c_middle",       "c_last",
        "c_street_1", "c_street_2", "c_city",  "c_state",       "c_zip",          "c_phone",
        "c_since", "c_credit", "c_credit_lim", "c_discount",    "c_balance",      "c_ytd_payment",
        "c_payment_cnt", "c_delivery_cnt", "c_data"};
    int rc = open_table(ld, "customer", cols, 21);
    char first[17], last[16], phone[17], data[501];
    for (unsigned d = 1; !rc && d <= 10; d++) {
        for (unsigned c = 1; !rc && c <= ld->sc->cust_per_dist; c++) {
            struct address a;
            tpcc_astring(&ld->rng, 8, 16, first);
            unsigned num = c <= 1000 ? c - 1
                                     : (unsigned)tpcc_nurand(&ld->rng, 255, 0, 999, TPCC_C_LAST_LOAD);
            tpcc_last_name(num, last);
            address(&ld->rng, &a);
            tpcc_nstring(&ld->rng, 16, 16, phone);
            tpcc_astring(&ld->rng, 300, 500, data);
            bool bc = tpcc_rand_int(&ld->rng, 1, 100) <= 10;
            struct tpcc_val v[21] = {TV_I(c),
                                     TV_I(d),
                                     TV_I(w),
                                     TV_S(first),
                                     TV_S("OE"),
                                     TV_S(last),
                                     TV_S(a.street_1),
                                     TV_S(a.street_2),
                                     TV_S(a.city),
                                     TV_S(a.state),
                                     TV_S(a.zip),
                                     TV_S(phone),
                                     TV_S(ld->now),
                                     TV_S(bc ? "BC" : "GC"),
                                     TV_R(50000.0),
                                     TV_R((double)tpcc_rand_int(&ld->rng, 0, 5000) / 10000.0),
                                     TV_R(-10.0),
                                     TV_R(10.0),
                                     TV_I(1),
                                     TV_I(0),
                                     TV_S(data)};
            rc = put(ld, v, 21);
        }
    }
    return close_table(ld, rc);
}

static int load_history(struct loader *ld, unsigned w)
{
    static const char *const cols[] = {"h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id",
                                       "h_w_id", "h_date",   "h_amount", "h_data"};
    int rc = open_table(ld, "history", cols, 8);
    char data[25];
    for (unsigned d = 1; !rc && d <= 10; d++) {
        for (unsigned c = 1; !rc && c <= ld->sc->cust_per_dist; c++) {
            tpcc_astring(&ld->rng, 12, 24, data);
            struct tpcc_val v[8] = {TV_I(c), TV_I(d), TV_I(w), TV_I(d), TV_I(w),
                                    TV_S(ld->now), TV_R(10.0), TV_S(data)};
            rc = put(ld, v, 8);
        }
    }
    return close_table(ld, rc);
}

/* orders, order_line and new_order of one warehouse; ol_cnt[] and perm[]
 * hold one district's order sizes and customer permutation */
static int load_orders(struct loader *ld, unsigned w, unsigned char (*ol_cnt)[10], unsigned *perm)
{
    static const char *const ocols[] = {"o_id",         "o_d_id",   "o_w_id",     "o_c_id",
                                        "o_entry_d",    "o_carrier_id", "o_ol_cnt", "o_all_local"};
    static const char *const lcols[] = {"ol_o_id",       "ol_d_id",     "ol_w_id",
                                        "ol_number",     "ol_i_id",     "ol_supply_w_id",
                                        "ol_delivery_d", "ol_quantity", "ol_amount",
                                        "ol_dist_info"};
    static const char *const ncols[] = {"no_o_id", "no_d_id", "no_w_id"};
    const unsigned n = ld->sc->cust_per_dist;
    const unsigned first_new = n - ld->sc->new_orders_per_dist + 1;
    int rc = open_table(ld, "orders", ocols, 8);
    for (unsigned d = 1; !rc && d <= 10; d++) {
        for (unsigned i = 0; i < n; i++)
            perm[i] = i + 1;
        for (unsigned i = n - 1; i > 0; i--) { /* Fisher-Yates */
            unsigned j = (unsigned)tpcc_rand_int(&ld->rng, 0, i);
            unsigned t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (unsigned o = 1; !rc && o <= n; o++) {
            ol_cnt[o - 1][d - 1] = (unsigned char)tpcc_rand_int(&ld->rng, 5, 15);
            struct tpcc_val v[8] = {TV_I(o),
                                    TV_I(d),
                                    TV_I(w),
                                    TV_I(perm[o - 1]),
                                    TV_S(ld->now),
                                    o < first_new ? TV_I(tpcc_rand_int(&ld->rng, 1, 10)) : TV_NULL,
                                    TV_I(ol_cnt[o - 1][d - 1]),
                                    TV_I(1)};
            rc = put(ld, v, 8);
        }
    }
    rc = close_table(ld, rc);
    if (rc)
        return rc;
    rc = open_table(ld, "order_line", lcols, 10);
    char info[25];
    for (unsigned d = 1; !rc && d <= 10; d++) {
        for (unsigned o = 1; !rc && o <= n; o++) {
            bool delivered = o < first_new;
            for (unsigned l = 1; !rc && l <= ol_cnt[o - 1][d - 1]; l++) {
                tpcc_astring(&ld->rng, 24, 24, info);
                struct tpcc_val v[10] = {
                    TV_I(o),
                    TV_I(d),
                    TV_I(w),
                    TV_I(l),
                    TV_I(tpcc_rand_int(&ld->rng, 1, ld->sc->items)),
                    TV_I(w),
                    delivered ? TV_S(ld->now) : TV_NULL,
                    TV_I(5),
                    TV_R(delivered ? 0.0 : money(&ld->rng, 1, 999999)),
                    TV_S(info)};
                rc = put(ld, v, 10);
            }
        }
    }
    rc = close_table(ld, rc);
    if (rc)
        return rc;
    rc = open_table(ld, "new_order", ncols, 3);
    for (unsigned d = 1; !rc && d <= 10; d++)
        for (unsigned o = first_new; !rc && o <= n; o++) {
            struct tpcc_val v[3] = {TV_I(o), TV_I(d), TV_I(w)};
            rc = put(ld, v, 3);
        }
    return close_table(ld, rc);
}

int tpcc_load(struct tpcc_conn *c, const struct tpcc_scale *sc, uint64_t seed,
              const volatile sig_atomic_t *stop,
              void (*progress)(const struct tpcc_load_progress *p, void *arg), void *arg,
              struct tpcc_load_result *out)
{
    memset(out, 0, sizeof(*out));
    uint64_t t0 = mono_ns();
    struct loader ld = {.c = c, .sc = sc, .stop = stop, .progress = progress, .arg = arg};
    tpcc_rng_seed(&ld.rng, seed);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(ld.now, sizeof(ld.now), "%Y-%m-%d %H:%M:%S", &tm);
    uint64_t n = sc->cust_per_dist;
    ld.total = sc->items + (uint64_t)sc->warehouses *
                               (1 + 10 + sc->items + 10 * n * 3 + 10 * n * 10 +
                                10 * (uint64_t)sc->new_orders_per_dist);
    ld.next_report = 1;

    unsigned char (*ol_cnt)[10] = calloc(n, sizeof(*ol_cnt));
    unsigned *perm = calloc(n, sizeof(*perm));
    if (!ol_cnt || !perm) {
        free(ol_cnt);
        free(perm);
        return -ENOMEM;
    }
    int rc = tpcc_schema_create(c);
    if (!rc)
        rc = load_items(&ld);
    for (unsigned w = 1; !rc && w <= sc->warehouses; w++) {
        ld.w = w;
        if (!(rc = load_warehouse_row(&ld, w)) && !(rc = load_districts(&ld, w)) &&
            !(rc = load_stock(&ld, w)) && !(rc = load_customers(&ld, w)) &&
            !(rc = load_history(&ld, w)))
            rc = load_orders(&ld, w, ol_cnt, perm);
    }
    free(ol_cnt);
    free(perm);
    if (rc)
        return rc;
    if (progress) {
        struct tpcc_load_progress p = {sc->warehouses, sc->warehouses, 100.0, ld.rows, true};
        progress(&p, arg);
    }
    if ((rc = tpcc_schema_indexes(c, stop)))
        return rc;
    if (stop && *stop)  /* stopped during the last statement: not marked complete */
        return -EINTR;
    if ((rc = c->ops->begin(c, true)))
        return rc;
    if ((rc = tpcc_meta_write(c, sc))) {
        c->ops->rollback(c);
        return rc;
    }
    if ((rc = c->ops->commit(c)))
        return rc;
    out->rows = ld.rows;
    out->load_s = (double)(mono_ns() - t0) / 1e9;
    c->ops->size_bytes(c, &out->size_bytes);
    return 0;
}
