/*
 * check.c - TPC-C consistency conditions 1-4 (clause 3.3.2.1 to 3.3.2.4),
 * each one SQL query per warehouse or district, in one read transaction so
 * the four see the same snapshot.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tpcc/tpcc.h"

const char *const tpcc_check_text[TPCC_NR_CHECKS] = {
    "1: W_YTD = sum(D_YTD) for each warehouse",
    "2: D_NEXT_O_ID - 1 = max(O_ID) = max(NO_O_ID) for each district",
    "3: count(NO_O_ID) = max(NO_O_ID) - min(NO_O_ID) + 1 for each district",
    "4: sum(O_OL_CNT) = count of ORDER_LINE rows for each district",
};

#define violation(r, k, ...)                                                                      \
    do {                                                                                           \
        if ((r)->violations[k]++ == 0)                                                             \
            snprintf((r)->first_violation[k], sizeof((r)->first_violation[k]), __VA_ARGS__);       \
    } while (0)

static int check_all(struct tpcc_conn *c, struct tpcc_check_result *out)
{
    int rc = c->ops->query(c, TPCC_MAX_STMTS - 7,
                           "SELECT w_id, w_ytd, (SELECT sum(d_ytd) FROM district "
                           "WHERE d_w_id = w_id) FROM warehouse ORDER BY w_id",
                           NULL, 0);
    if (rc)
        return rc;
    while ((rc = c->ops->step(c)) == 1) {
        out->rows_checked[0]++;
        double w = c->ops->col_real(c, 1), d = c->ops->col_real(c, 2);
        if (fabs(w - d) >= 0.005)
            violation(out, 0, "warehouse %lld: w_ytd %.2f, sum(d_ytd) %.2f",
                      (long long)c->ops->col_int(c, 0), w, d);
    }
    if (rc < 0)
        return rc;

    rc = c->ops->query(c, TPCC_MAX_STMTS - 8,
                       "SELECT d_w_id, d_id, d_next_o_id, "
                       "(SELECT max(o_id) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id), "
                       "(SELECT max(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id), "
                       "(SELECT min(no_o_id) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id), "
                       "(SELECT count(*) FROM new_order WHERE no_w_id = d_w_id AND no_d_id = d_id), "
                       "(SELECT sum(o_ol_cnt) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id), "
                       "(SELECT count(*) FROM order_line WHERE ol_w_id = d_w_id AND ol_d_id = d_id) "
                       "FROM district ORDER BY d_w_id, d_id",
                       NULL, 0);
    if (rc)
        return rc;
    while ((rc = c->ops->step(c)) == 1) {
        long long w = c->ops->col_int(c, 0), d = c->ops->col_int(c, 1);
        long long next = c->ops->col_int(c, 2), max_o = c->ops->col_int(c, 3);
        bool have_no = !c->ops->col_null(c, 4);
        long long max_no = c->ops->col_int(c, 4), min_no = c->ops->col_int(c, 5);
        long long cnt_no = c->ops->col_int(c, 6);
        long long sum_ol = c->ops->col_int(c, 7), cnt_ol = c->ops->col_int(c, 8);
        out->rows_checked[1]++;
        out->rows_checked[2]++;
        out->rows_checked[3]++;
        if (next - 1 != max_o || (have_no && max_no != max_o))
            violation(out, 1, "warehouse %lld district %lld: d_next_o_id - 1 = %lld, max(o_id) = %lld, "
                              "max(no_o_id) = %lld",
                      w, d, next - 1, max_o, have_no ? max_no : -1);
        if (have_no && cnt_no != max_no - min_no + 1)
            violation(out, 2, "warehouse %lld district %lld: count %lld, max - min + 1 = %lld", w, d,
                      cnt_no, max_no - min_no + 1);
        if (sum_ol != cnt_ol)
            violation(out, 3, "warehouse %lld district %lld: sum(o_ol_cnt) %lld, order_line rows %lld",
                      w, d, sum_ol, cnt_ol);
    }
    return rc < 0 ? rc : 0;
}

int tpcc_check(struct tpcc_conn *c, struct tpcc_check_result *out)
{
    memset(out, 0, sizeof(*out));
    int rc = c->ops->begin(c, false);
    if (rc)
        return rc;
    rc = check_all(c, out);
    char keep[sizeof(c->err)];
    memcpy(keep, c->err, sizeof(keep));
    c->ops->rollback(c);
    memcpy(c->err, keep, sizeof(keep));
    return rc;
}
