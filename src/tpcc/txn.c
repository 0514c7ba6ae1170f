/*
 * txn.c - the five TPC-C transactions (clauses 2.4 to 2.8) on the ops table.
 *
 * Inputs are generated once per call (so a retried transaction repeats the
 * same work) with the clause's distributions: NURand(1023) customer ids,
 * NURand(255) last names, NURand(8191) item ids, 5-15 order lines, 1%
 * remote supply warehouses, 1% New-Orders that roll back through an unused
 * item id, Payments 60% by last name and 15% to a remote customer.
 *
 * New-Order touches its stock rows in (warehouse, item) order, so two
 * concurrent New-Orders cannot deadlock on stock. Delivery runs in the
 * terminal's transaction (HammerDB does the same; TPC-C allows it to be
 * queued) and deletes the oldest new order of each district with one
 * DELETE ... RETURNING, so two concurrent deliveries never deliver an order
 * twice.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "tpcc/tpcc.h"

enum {
    S_NO_CUST_WH,
    S_NO_DIST,
    S_NO_ORDER,
    S_NO_NEWORD,
    S_NO_ITEM,
    S_NO_STOCK,
    S_NO_OL,
    S_P_WH,
    S_P_DIST,
    S_CUST_BY_NAME,
    S_P_CUST,
    S_P_HIST,
    S_OS_CUST,
    S_OS_ORDER,
    S_OS_LINES,
    S_D_NEWORD,
    S_D_ORDER,
    S_D_LINES,
    S_D_CUST,
    S_SL_DIST,
    S_SL_COUNT,
};

#define NO_ROLLBACK 1 /* run_* result: New-Order hit the unused item, roll back */

struct ol_in {
    int64_t i_id, supply_w_id, qty;
};

struct txn_in {
    int64_t w_id, d_id, c_id, c_w_id, c_d_id, carrier_id, threshold;
    bool by_name;
    char c_last[16];
    double amount;
    unsigned ol_cnt;
    bool all_local;
    struct ol_in ol[15];
    char now[32];
};

static void now_text(char *buf, size_t len)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    time_t sec = tv.tv_sec; /* tv_sec is a 32-bit long on Windows */
    localtime_r(&sec, &tm);
    strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

static int64_t other_warehouse(struct tpcc_vu *vu)
{
    unsigned W = vu->sc->warehouses;
    if (W < 2)
        return vu->w_id;
    int64_t w = tpcc_rand_int(&vu->rng, 1, W - 1);
    return w >= vu->w_id ? w + 1 : w;
}

static int cmp_ol(const void *a, const void *b)
{
    const struct ol_in *x = a, *y = b;
    if (x->supply_w_id != y->supply_w_id)
        return x->supply_w_id < y->supply_w_id ? -1 : 1;
    return (x->i_id > y->i_id) - (x->i_id < y->i_id);
}

static int64_t nurand_c_id(struct tpcc_vu *vu)
{
    return tpcc_nurand(&vu->rng, 1023, 1, vu->sc->cust_per_dist, vu->C.c_id);
}

static void customer_choice(struct tpcc_vu *vu, struct txn_in *in)
{
    in->by_name = tpcc_rand_int(&vu->rng, 1, 100) <= 60;
    if (in->by_name)
        tpcc_last_name((unsigned)tpcc_nurand(&vu->rng, 255, 0, 999, vu->C.c_last), in->c_last);
    else
        in->c_id = nurand_c_id(vu);
}

static void gen_inputs(struct tpcc_vu *vu, enum tpcc_txn_type t, struct txn_in *in)
{
    memset(in, 0, sizeof(*in));
    in->w_id = vu->w_id;
    in->d_id = tpcc_rand_int(&vu->rng, 1, 10);
    switch (t) {
    case TPCC_NEW_ORDER: { /* 2.4.1 */
        in->c_id = nurand_c_id(vu);
        in->ol_cnt = (unsigned)tpcc_rand_int(&vu->rng, 5, 15);
        bool rbk = tpcc_rand_int(&vu->rng, 1, 100) == 1;
        in->all_local = true;
        for (unsigned i = 0; i < in->ol_cnt; i++) {
            struct ol_in *l = &in->ol[i];
            l->i_id = tpcc_nurand(&vu->rng, 8191, 1, vu->sc->items, vu->C.ol_i_id);
            if (rbk && i == in->ol_cnt - 1)
                l->i_id = (int64_t)vu->sc->items + 1; /* unused: forces the rollback */
            l->supply_w_id = in->w_id;
            if (vu->sc->warehouses > 1 && tpcc_rand_int(&vu->rng, 1, 100) == 1) {
                l->supply_w_id = other_warehouse(vu);
                in->all_local = false;
            }
            l->qty = tpcc_rand_int(&vu->rng, 1, 10);
        }
        qsort(in->ol, in->ol_cnt, sizeof(in->ol[0]), cmp_ol);
        break;
    }
    case TPCC_PAYMENT: /* 2.5.1 */
        if (vu->sc->warehouses > 1 && tpcc_rand_int(&vu->rng, 1, 100) > 85) {
            in->c_d_id = tpcc_rand_int(&vu->rng, 1, 10);
            in->c_w_id = other_warehouse(vu);
        } else {
            in->c_d_id = in->d_id;
            in->c_w_id = in->w_id;
        }
        customer_choice(vu, in);
        in->amount = (double)tpcc_rand_int(&vu->rng, 100, 500000) / 100.0;
        break;
    case TPCC_ORDER_STATUS: /* 2.6.1 */
        customer_choice(vu, in);
        in->c_w_id = in->w_id;
        in->c_d_id = in->d_id;
        break;
    case TPCC_DELIVERY: /* 2.7.1 */
        in->carrier_id = tpcc_rand_int(&vu->rng, 1, 10);
        break;
    case TPCC_STOCK_LEVEL: /* 2.8.1: the terminal's own district */
        in->d_id = vu->d_id;
        in->threshold = tpcc_rand_int(&vu->rng, 10, 20);
        break;
    default:
        break;
    }
    now_text(in->now, sizeof(in->now));
}

#define Q(id, sql, ...)                                                                            \
    do {                                                                                           \
        const struct tpcc_val p_[] = {__VA_ARGS__};                                                \
        int rc_ = c->ops->query(c, id, sql, p_, sizeof(p_) / sizeof(p_[0]));                      \
        if (rc_)                                                                                   \
            return rc_;                                                                            \
    } while (0)

/* Step to the one row a statement must return; a missing row is an error. */
static int need_row(struct tpcc_conn *c, const char *what)
{
    int rc = c->ops->step(c);
    if (rc == 1)
        return 0;
    if (rc == 0) {
        snprintf(c->err, sizeof(c->err), "%s: row not found (is the database loaded?)", what);
        return -ENODATA;
    }
    return rc;
}

/* drain the remaining rows of the current statement */
static int drain(struct tpcc_conn *c)
{
    int rc;
    while ((rc = c->ops->step(c)) == 1)
        ;
    return rc;
}

/* The customer in the middle of those with this last name, by first name
 * (clause 2.5.2.2: position ceil(n/2)). Falls back to by-id when none has it. */
static int customer_by_name(struct tpcc_vu *vu, struct tpcc_conn *c, struct txn_in *in)
{
    Q(S_CUST_BY_NAME,
      "SELECT c_id FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_last = $3 "
      "ORDER BY c_first",
      TV_I(in->c_w_id), TV_I(in->c_d_id), TV_S(in->c_last));
    int64_t ids[64];
    unsigned n = 0;
    int rc;
    while ((rc = c->ops->step(c)) == 1) {
        if (n < 64)
            ids[n] = c->ops->col_int(c, 0);
        n++;
    }
    if (rc < 0)
        return rc;
    if (n == 0) {
        in->c_id = nurand_c_id(vu);
        return 0;
    }
    unsigned pos = (n + 1) / 2; /* 1-based */
    in->c_id = ids[(pos <= 64 ? pos : 64) - 1];
    return 0;
}

static int run_new_order(struct tpcc_vu *vu, struct txn_in *in)
{
    struct tpcc_conn *c = vu->c;
    (void)vu;
    Q(S_NO_CUST_WH,
      "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse "
      "WHERE w_id = $1 AND c_w_id = w_id AND c_d_id = $2 AND c_id = $3",
      TV_I(in->w_id), TV_I(in->d_id), TV_I(in->c_id));
    int rc = need_row(c, "new_order customer");
    if (rc)
        return rc;
    double c_discount = c->ops->col_real(c, 0), w_tax = c->ops->col_real(c, 3);
    Q(S_NO_DIST,
      "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2 "
      "RETURNING d_next_o_id - 1, d_tax",
      TV_I(in->w_id), TV_I(in->d_id));
    if ((rc = need_row(c, "new_order district")))
        return rc;
    int64_t o_id = c->ops->col_int(c, 0);
    double d_tax = c->ops->col_real(c, 1);
    Q(S_NO_ORDER,
      "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
      "o_all_local) VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)",
      TV_I(o_id), TV_I(in->d_id), TV_I(in->w_id), TV_I(in->c_id), TV_S(in->now),
      TV_I(in->ol_cnt), TV_I(in->all_local ? 1 : 0));
    Q(S_NO_NEWORD, "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)",
      TV_I(o_id), TV_I(in->d_id), TV_I(in->w_id));
    double total = 0;
    for (unsigned i = 0; i < in->ol_cnt; i++) {
        const struct ol_in *l = &in->ol[i];
        Q(S_NO_ITEM, "SELECT i_price, i_name, i_data FROM item WHERE i_id = $1", TV_I(l->i_id));
        rc = c->ops->step(c);
        if (rc < 0)
            return rc;
        if (rc == 0)
            return NO_ROLLBACK; /* clause 2.4.2.3: "Item number is not valid" */
        double price = c->ops->col_real(c, 0);
        bool orig_i = strstr(c->ops->col_text(c, 2), "ORIGINAL") != NULL;
        if ((rc = drain(c)) < 0)
            return rc;
        Q(S_NO_STOCK,
          "UPDATE stock SET s_quantity = CASE WHEN s_quantity >= $3 + 10 THEN s_quantity - $3 "
          "ELSE s_quantity - $3 + 91 END, s_ytd = s_ytd + $3, s_order_cnt = s_order_cnt + 1, "
          "s_remote_cnt = s_remote_cnt + $4 WHERE s_i_id = $1 AND s_w_id = $2 "
          "RETURNING s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, "
          "s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10",
          TV_I(l->i_id), TV_I(l->supply_w_id), TV_I(l->qty),
          TV_I(l->supply_w_id != in->w_id ? 1 : 0));
        if ((rc = need_row(c, "new_order stock")))
            return rc;
        bool orig_s = strstr(c->ops->col_text(c, 0), "ORIGINAL") != NULL;
        char dist_info[25];
        snprintf(dist_info, sizeof(dist_info), "%s", c->ops->col_text(c, (unsigned)in->d_id));
        (void)(orig_i && orig_s); /* brand-generic 'B'/'G' is display-only (2.4.2.2) */
        if ((rc = drain(c)) < 0)
            return rc;
        double amount = round((double)l->qty * price * 100.0) / 100.0;
        total += amount;
        Q(S_NO_OL,
          "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, "
          "ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) "
          "VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8, $9)",
          TV_I(o_id), TV_I(in->d_id), TV_I(in->w_id), TV_I(i + 1), TV_I(l->i_id),
          TV_I(l->supply_w_id), TV_I(l->qty), TV_R(amount), TV_S(dist_info));
    }
    total *= (1 - c_discount) * (1 + w_tax + d_tax); /* displayed total, 2.4.2.2 */
    (void)total;
    return 0;
}

static int run_payment(struct tpcc_vu *vu, struct txn_in *in)
{
    struct tpcc_conn *c = vu->c;
    Q(S_P_WH,
      "UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1 "
      "RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip",
      TV_I(in->w_id), TV_R(in->amount));
    int rc = need_row(c, "payment warehouse");
    if (rc)
        return rc;
    char w_name[16];
    snprintf(w_name, sizeof(w_name), "%s", c->ops->col_text(c, 0));
    if ((rc = drain(c)) < 0)
        return rc;
    Q(S_P_DIST,
      "UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2 "
      "RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip",
      TV_I(in->w_id), TV_I(in->d_id), TV_R(in->amount));
    if ((rc = need_row(c, "payment district")))
        return rc;
    char d_name[16];
    snprintf(d_name, sizeof(d_name), "%s", c->ops->col_text(c, 0));
    if ((rc = drain(c)) < 0)
        return rc;
    if (in->by_name && (rc = customer_by_name(vu, c, in)))
        return rc;
    char info[64];
    snprintf(info, sizeof(info), "%lld %lld %lld %lld %lld %.2f|", (long long)in->c_id,
             (long long)in->c_d_id, (long long)in->c_w_id, (long long)in->d_id,
             (long long)in->w_id, in->amount);
    Q(S_P_CUST,
      "UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4, "
      "c_payment_cnt = c_payment_cnt + 1, c_data = CASE WHEN c_credit = 'BC' "
      "THEN substr(CAST($5 AS VARCHAR(500)) || c_data, 1, 500) ELSE c_data END "
      "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 "
      "RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, "
      "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance",
      TV_I(in->c_w_id), TV_I(in->c_d_id), TV_I(in->c_id), TV_R(in->amount), TV_S(info));
    if ((rc = need_row(c, "payment customer")))
        return rc;
    if ((rc = drain(c)) < 0)
        return rc;
    char h_data[32];
    snprintf(h_data, sizeof(h_data), "%.10s    %.10s", w_name, d_name);
    Q(S_P_HIST,
      "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, "
      "h_data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
      TV_I(in->c_id), TV_I(in->c_d_id), TV_I(in->c_w_id), TV_I(in->d_id), TV_I(in->w_id),
      TV_S(in->now), TV_R(in->amount), TV_S(h_data));
    return 0;
}

static int run_order_status(struct tpcc_vu *vu, struct txn_in *in)
{
    struct tpcc_conn *c = vu->c;
    int rc;
    if (in->by_name && (rc = customer_by_name(vu, c, in)))
        return rc;
    Q(S_OS_CUST,
      "SELECT c_balance, c_first, c_middle, c_last FROM customer "
      "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
      TV_I(in->c_w_id), TV_I(in->c_d_id), TV_I(in->c_id));
    if ((rc = need_row(c, "order_status customer")))
        return rc;
    if ((rc = drain(c)) < 0)
        return rc;
    Q(S_OS_ORDER,
      "SELECT o_id, o_carrier_id, o_entry_d FROM orders "
      "WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3 ORDER BY o_id DESC LIMIT 1",
      TV_I(in->c_w_id), TV_I(in->c_d_id), TV_I(in->c_id));
    rc = c->ops->step(c);
    if (rc <= 0)
        return rc; /* a customer without orders shows none */
    int64_t o_id = c->ops->col_int(c, 0);
    if ((rc = drain(c)) < 0)
        return rc;
    Q(S_OS_LINES,
      "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line "
      "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3",
      TV_I(in->c_w_id), TV_I(in->c_d_id), TV_I(o_id));
    rc = drain(c);
    return rc < 0 ? rc : 0;
}

static int run_delivery(struct tpcc_vu *vu, struct txn_in *in)
{
    struct tpcc_conn *c = vu->c;
    int rc;
    for (int64_t d = 1; d <= 10; d++) {
        Q(S_D_NEWORD,
          "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = "
          "(SELECT min(no_o_id) FROM new_order WHERE no_w_id = $1 AND no_d_id = $2) "
          "RETURNING no_o_id",
          TV_I(in->w_id), TV_I(d));
        rc = c->ops->step(c);
        if (rc < 0)
            return rc;
        if (rc == 0)
            continue; /* clause 2.7.4.2: no undelivered order in this district, skip it */
        int64_t o_id = c->ops->col_int(c, 0);
        if ((rc = drain(c)) < 0)
            return rc;
        Q(S_D_ORDER,
          "UPDATE orders SET o_carrier_id = $4 WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3 "
          "RETURNING o_c_id",
          TV_I(in->w_id), TV_I(d), TV_I(o_id), TV_I(in->carrier_id));
        if ((rc = need_row(c, "delivery order")))
            return rc;
        int64_t c_id = c->ops->col_int(c, 0);
        if ((rc = drain(c)) < 0)
            return rc;
        Q(S_D_LINES,
          "UPDATE order_line SET ol_delivery_d = $4 "
          "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3 RETURNING ol_amount",
          TV_I(in->w_id), TV_I(d), TV_I(o_id), TV_S(in->now));
        double sum = 0;
        while ((rc = c->ops->step(c)) == 1)
            sum += c->ops->col_real(c, 0);
        if (rc < 0)
            return rc;
        Q(S_D_CUST,
          "UPDATE customer SET c_balance = c_balance + $4, c_delivery_cnt = c_delivery_cnt + 1 "
          "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3",
          TV_I(in->w_id), TV_I(d), TV_I(c_id), TV_R(round(sum * 100.0) / 100.0));
    }
    return 0;
}

static int run_stock_level(struct tpcc_vu *vu, struct txn_in *in)
{
    struct tpcc_conn *c = vu->c;
    Q(S_SL_DIST, "SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2",
      TV_I(in->w_id), TV_I(in->d_id));
    int rc = need_row(c, "stock_level district");
    if (rc)
        return rc;
    int64_t next = c->ops->col_int(c, 0);
    if ((rc = drain(c)) < 0)
        return rc;
    Q(S_SL_COUNT,
      "SELECT count(DISTINCT s_i_id) FROM order_line, stock "
      "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id < $3 AND ol_o_id >= $3 - 20 "
      "AND s_w_id = $1 AND s_i_id = ol_i_id AND s_quantity < $4",
      TV_I(in->w_id), TV_I(in->d_id), TV_I(next), TV_I(in->threshold));
    rc = drain(c);
    return rc < 0 ? rc : 0;
}

static int run_once(struct tpcc_vu *vu, enum tpcc_txn_type t, struct txn_in *in)
{
    bool write = t != TPCC_ORDER_STATUS && t != TPCC_STOCK_LEVEL;
    struct tpcc_conn *c = vu->c;
    int rc = c->ops->begin(c, write);
    if (rc)
        return rc;
    switch (t) {
    case TPCC_NEW_ORDER:
        rc = run_new_order(vu, in);
        break;
    case TPCC_PAYMENT:
        rc = run_payment(vu, in);
        break;
    case TPCC_ORDER_STATUS:
        rc = run_order_status(vu, in);
        break;
    case TPCC_DELIVERY:
        rc = run_delivery(vu, in);
        break;
    case TPCC_STOCK_LEVEL:
        rc = run_stock_level(vu, in);
        break;
    default:
        rc = -EINVAL;
    }
    if (rc)
        return rc;
    return c->ops->commit(c);
}

int tpcc_txn_run(struct tpcc_vu *vu, enum tpcc_txn_type t, struct tpcc_txn_out *out)
{
    struct txn_in in;
    struct tpcc_conn *c = vu->c;
    memset(out, 0, sizeof(*out));
    gen_inputs(vu, t, &in);
    uint64_t busy0 = c->busy_retries;
    int rc;
    for (unsigned attempt = 0;; attempt++) {
        rc = run_once(vu, t, &in);
        if (rc == 0)
            break;
        char keep[sizeof(c->err)];
        memcpy(keep, c->err, sizeof(keep));
        c->ops->rollback(c);
        memcpy(c->err, keep, sizeof(keep));
        if (rc == NO_ROLLBACK) {
            out->rolled_back = true;
            rc = 0;
            break;
        }
        if (rc != TPCC_RETRY)
            break;
        if ((vu->stop && *vu->stop) || (vu->abort_run && *vu->abort_run) ||
            (c->cancel && *c->cancel)) {
            rc = -EINTR;
            break;
        }
        if (attempt >= 1000) {
            snprintf(c->err, sizeof(c->err), "%s: gave up after 1000 retries: %s",
                     tpcc_txn_name[t], keep);
            rc = -EBUSY;
            break;
        }
        out->retries++;
        unsigned cap = attempt < 6 ? 1000u << attempt : 50000u; /* us */
        usleep((useconds_t)tpcc_rand_int(&vu->rng, 0, cap));
    }
    out->busy_waits = (uint32_t)(c->busy_retries - busy0);
    return rc;
}
