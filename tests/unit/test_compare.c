/*
 * test_compare.c - Welch's t-test, the t distribution and the change texts.
 *
 * Reference values (not computed by the code under test):
 * - Critical values of Student's t, two-sided: any printed t table (e.g.
 *   NIST/SEMATECH e-Handbook 1.4.2.3, "Critical values of Student's t"):
 *   t(0.975; 1) = 12.706, t(0.975; 10) = 2.228, t(0.995; 20) = 2.845,
 *   t(0.995; 5) = 4.032, t(0.95; 30) = 1.697.
 * - Closed forms: df = 1 (Cauchy) p = 1 - 2/pi atan|t|; df = 2
 *   p = 1 - |t| / sqrt(t^2 + 2) (A&S 26.7.3).
 * - Welch's example 1 of the Wikipedia article "Welch's t-test": t = 2.46,
 *   df = 25.0, p = 0.021 (sign: second sample larger). Cross-checked by a
 *   separate Simpson integration of the t density: t = 2.45536,
 *   df = 24.9885, p = 0.021378.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/cmp.h"
#include "report/compare.h"
#include "stats/compare.h"

static int fails;

#define NEAR(got, want, tol)                                                                   \
    do {                                                                                       \
        double g_ = (got), w_ = (want);                                                        \
        if (!(fabs(g_ - w_) <= (tol))) {                                                       \
            fprintf(stderr, "%s:%d: %s = %.9g, want %.9g (tol %g)\n", __FILE__, __LINE__, #got, \
                    g_, w_, (double)(tol));                                                    \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

#define CHECK(c)                                                                               \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #c);                    \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

static void test_betai(void)
{
    NEAR(iom_betai(1, 1, 0.3), 0.3, 1e-12);              /* uniform */
    NEAR(iom_betai(2.5, 2.5, 0.5), 0.5, 1e-12);          /* symmetry */
    NEAR(iom_betai(1, 4, 0.2), 1 - pow(0.8, 4), 1e-12);  /* I_x(1,b) = 1-(1-x)^b */
    NEAR(iom_betai(3, 1, 0.7), pow(0.7, 3), 1e-12);      /* I_x(a,1) = x^a */
    CHECK(isnan(iom_betai(-1, 1, 0.5)));
    CHECK(isnan(iom_betai(1, 1, 1.5)));
}

static void test_t_table(void)
{
    /* table values are rounded to 3 decimals: p within 1% of the level */
    NEAR(iom_t_p_two_sided(12.706, 1), 0.05, 0.0005);
    NEAR(iom_t_p_two_sided(2.228, 10), 0.05, 0.0005);
    NEAR(iom_t_p_two_sided(-2.228, 10), 0.05, 0.0005);
    NEAR(iom_t_p_two_sided(2.845, 20), 0.01, 0.0001);
    NEAR(iom_t_p_two_sided(4.032, 5), 0.01, 0.0001);
    NEAR(iom_t_p_two_sided(1.697, 30), 0.10, 0.001);
    /* closed forms */
    NEAR(iom_t_p_two_sided(1.0, 1), 0.5, 1e-10);
    NEAR(iom_t_p_two_sided(3.0, 1), 1 - 2 / M_PI * atan(3.0), 1e-10);
    NEAR(iom_t_p_two_sided(1.0, 2), 1 - 1 / sqrt(3.0), 1e-10);
    NEAR(iom_t_p_two_sided(0.0, 7), 1.0, 1e-12);
    /* large df: normal, two-sided 5% at 1.959964 */
    NEAR(iom_t_p_two_sided(1.959964, 1e7), 0.05, 1e-5);
    CHECK(iom_t_p_two_sided(INFINITY, 3) == 0);
    CHECK(isnan(iom_t_p_two_sided(1, 0)));
}

static void test_welch(void)
{
    const double a[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                        21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
    const double b[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                        24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
    struct iom_welch w;
    CHECK(iom_welch_test(a, 15, b, 15, &w) == 0);
    NEAR(w.t, 2.45536, 1e-4);
    NEAR(w.df, 24.9885, 1e-3);
    NEAR(w.p, 0.021378, 2e-5);
    /* swapping the samples flips t only */
    struct iom_welch w2;
    CHECK(iom_welch_test(b, 15, a, 15, &w2) == 0);
    NEAR(w2.t, -2.45536, 1e-4);
    NEAR(w2.p, w.p, 1e-12);
    /* too few runs */
    CHECK(iom_welch_test(a, 1, b, 15, &w) < 0);
    /* no spread on either side */
    const double c3[] = {5, 5, 5}, d3[] = {6, 6, 6};
    CHECK(iom_welch_test(c3, 3, d3, 3, &w) == 0 && w.p == 0 && isinf(w.t));
    CHECK(iom_welch_test(c3, 3, c3, 3, &w) == 0 && w.p == 1);
    /* sample statistics: 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd sqrt(32/7) */
    const double s8[] = {2, 4, 4, 4, 5, 5, 7, 9, NAN};
    struct iom_sample_stats st;
    iom_sample_stats(s8, 9, &st);
    CHECK(st.n == 8);
    NEAR(st.mean, 5, 1e-12);
    NEAR(st.stddev, sqrt(32.0 / 7.0), 1e-12);
    NEAR(st.min, 2, 0);
    NEAR(st.max, 9, 0);
}

static void test_improvement(void)
{
    NEAR(iom_improvement_pct(100, 138.3, +1), 38.3, 1e-9);   /* more IOPS: better */
    NEAR(iom_improvement_pct(100, 80, +1), -20, 1e-9);
    NEAR(iom_improvement_pct(1000, 720, -1), 28, 1e-9);      /* less latency: better */
    NEAR(iom_improvement_pct(1000, 1150, -1), -15, 1e-9);
    CHECK(isnan(iom_improvement_pct(0, 5, 1)));
    CHECK(isnan(iom_improvement_pct(NAN, 5, 1)));
}

/* Two CrystalDiskMark-style reports through the whole table. */
static void test_table(void)
{
    static const char *const a =
        "CrystalDiskMark 8.0.1 x64 (C) 2007-2021 hiyohiyo\n"
        "[Read]\n"
        "  RND    4KiB (Q= 32, T= 1):   100.000 MB/s [  25000.0 IOPS] <  1000.00 us>\n";
    static const char *const b =
        "CrystalDiskMark 8.0.1 x64 (C) 2007-2021 hiyohiyo\n"
        "[Read]\n"
        "  RND    4KiB (Q= 32, T= 1):   138.300 MB/s [  34575.0 IOPS] <   720.00 us>\n";
    struct iom_cmp_input *in = calloc(2, sizeof(*in));
    struct iom_imp_result *ra, *rb;
    char err[300];
    CHECK(iom_import_buffer("a.txt", a, strlen(a), &ra, err, sizeof(err)) == 0);
    CHECK(iom_import_buffer("b.txt", b, strlen(b), &rb, err, sizeof(err)) == 0);
    in[0].files = malloc(sizeof(*in[0].files));
    in[1].files = malloc(sizeof(*in[1].files));
    in[0].files[0] = ra, in[0].nr_files = 1;
    in[1].files[0] = rb, in[1].nr_files = 1;
    strcpy(in[0].label, "A");
    strcpy(in[1].label, "B");
    struct iom_cmp *c;
    CHECK(iom_cmp_build(in, 2, 0.05, &c) == 0);
    CHECK(c->nr_workloads == 1);
    CHECK(strcmp(c->w[0].name, "RND4K Q32T1 read") == 0);
    int seen_iops = 0, seen_lat = 0;
    for (uint32_t r = 0; r < c->w[0].nr_rows; r++) {
        const struct iom_cmp_row *row = &c->w[0].rows[r];
        char t[96];
        iom_cmp_delta_text(row, &row->delta[1], t, sizeof(t));
        if (!strcmp(row->key, "iops")) {
            seen_iops = 1;
            CHECK(strcmp(t, "+38.3% IOPS") == 0);
            CHECK(row->base == 0 && row->better > 0);
            CHECK(!row->delta[1].has_test); /* one run each: no test */
        }
        if (!strcmp(row->key, "lat_mean_us")) {
            seen_lat = 1;
            CHECK(strcmp(t, "28.0% lower latency") == 0);
        }
        if (!strcmp(row->key, "lat_p99_us"))
            CHECK(0); /* nobody knows p99: no row */
    }
    CHECK(seen_iops && seen_lat);
    iom_cmp_free(c);
}

/* The spread of a cell is printed as a plain percentage: 110 % is "110",
 * not printf's "%.2g" form "1.1e+02" (a bug a user met in a mark report). */
static void test_cell_text(void)
{
    struct iom_cmp_cell c = {0};
    char buf[64];
    iom_cmp_fmt_cell(&c, " ±", buf, sizeof(buf));
    CHECK(strcmp(buf, "-") == 0);
    c.s.n = 1, c.s.mean = 1490;
    iom_cmp_fmt_cell(&c, " ±", buf, sizeof(buf));
    CHECK(strcmp(buf, "1490") == 0);
    /* runs 1490 and 208.6: mean 849.3, sample stddev |1490 - 208.6| / sqrt(2)
     * = 906.09, 906.09 / 849.3 = 106.7 % */
    c.s.n = 2, c.s.mean = 849.3, c.s.stddev = 906.09;
    iom_cmp_fmt_cell(&c, " ±", buf, sizeof(buf));
    CHECK(strcmp(buf, "849.3 ±107% (n=2)") == 0);
    c.s.stddev = 849.3 * 0.996; /* 99.6 %: "%.2g" gives "1e+02" */
    iom_cmp_fmt_cell(&c, " ± ", buf, sizeof(buf));
    CHECK(strcmp(buf, "849.3 ± 100% (n=2)") == 0);
    c.s.stddev = 849.3 * 0.0153;
    iom_cmp_fmt_cell(&c, " ±", buf, sizeof(buf));
    CHECK(strcmp(buf, "849.3 ±1.5% (n=2)") == 0);
    c.s.stddev = 849.3 * 0.00001;
    iom_cmp_fmt_cell(&c, " ±", buf, sizeof(buf));
    CHECK(strcmp(buf, "849.3 ±<0.01% (n=2)") == 0);
    c.s.mean = 0, c.s.stddev = 0;
    iom_cmp_fmt_cell(&c, " ±", buf, sizeof(buf));
    CHECK(strcmp(buf, "0.000 ±0% (n=2)") == 0);
}

static void test_knee(void)
{
    /* +90%, +84%, then +2.9% (3500 -> 3600, latency 114 -> 222 us) and nothing
     * later beats 3500 by 5%: the knee is point 3, after the best point 2 */
    const double iops[] = {1000, 1900, 3500, 3600, 3610};
    const double lat[] = {100, 105, 114, 222, 443};
    int base = -9;
    CHECK(iom_knee_find(iops, lat, 5, 5.0, &base) == 3 && base == 2);
    CHECK(iom_knee_find(iops, lat, 5, 2.0, &base) == 4 && base == 3); /* 3610 is +0.28% */
    CHECK(iom_knee_find(iops, lat, 3, 5.0, NULL) == -1);             /* still scaling */
    /* a noisy dip is not the knee when a later point still scales */
    const double i3[] = {1000, 2000, 1950, 4000, 4050}, l3[] = {100, 100, 210, 200, 400};
    CHECK(iom_knee_find(i3, l3, 5, 5.0, &base) == 4 && base == 3);
    /* flat IOPS but latency not growing: not a knee */
    const double i2[] = {1000, 1010}, l2[] = {100, 99};
    CHECK(iom_knee_find(i2, l2, 2, 5.0, NULL) == -1);
    CHECK(iom_knee_find(i2, l2, 1, 5.0, NULL) == -1);
}

int main(void)
{
    test_knee();
    test_betai();
    test_t_table();
    test_welch();
    test_improvement();
    test_table();
    test_cell_text();
    if (fails)
        fprintf(stderr, "%d check(s) failed\n", fails);
    return fails ? 1 : 0;
}
