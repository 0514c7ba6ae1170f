/*
 * test_tpcc_rand.c - the TPC-C input generators against independent
 * expectations:
 *  - NURand(A, x, y): every draw in [x, y], and the histogram of 2*10^6 draws
 *    against the exact distribution of the clause 2.1.6 formula, computed
 *    here by enumerating every (random(0, A), random(x, y)) pair; Pearson's
 *    chi-square must stay below df + 6*sqrt(2*df) (the statistic has mean df
 *    and standard deviation sqrt(2*df); 6 sigma).
 *  - the run-time C constants obey clause 2.1.6.1 for 10,000 seeds.
 *  - last names of clause 4.3.2.3 (its own example: 371 = PRICALLYOUGHT).
 *  - the transaction mix 10:10:1:1:1 over 230,000 picks: each count within
 *    5 binomial standard deviations of n*w/23; zero weights never picked.
 *  - uniform integers: chi-square over [1, 10]; ORIGINAL in ~10% of data
 *    strings (binomial bound), lengths within 26..50.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpcc/rand.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

/* chi-square of observed counts against exact probabilities (bins with expected >= 5 pooled) */
static void nurand_case(unsigned A, int64_t x, int64_t y, unsigned C, uint64_t draws)
{
    int64_t range = y - x + 1;
    double *p = calloc((size_t)range, sizeof(*p));
    uint64_t *obs = calloc((size_t)range, sizeof(*obs));
    /* exact distribution by enumeration of the formula's two uniform inputs */
    for (int64_t a = 0; a <= (int64_t)A; a++)
        for (int64_t b = x; b <= y; b++)
            p[(((a | b) + C) % range)] += 1.0;
    double pairs = (double)(A + 1) * (double)range;
    struct tpcc_rng r;
    tpcc_rng_seed(&r, 12345 + A);
    bool in_range = true;
    for (uint64_t i = 0; i < draws; i++) {
        int64_t v = tpcc_nurand(&r, A, x, y, C);
        if (v < x || v > y) {
            in_range = false;
            continue;
        }
        obs[v - x]++;
    }
    CHECK(in_range, "NURand(%u, %lld, %lld) drew outside its range", A, (long long)x, (long long)y);
    double chi = 0, pool_e = 0, pool_o = 0;
    unsigned df = 0;
    for (int64_t k = 0; k < range; k++) {
        double e = p[k] / pairs * (double)draws;
        if (e < 5) { /* pool sparse bins */
            pool_e += e;
            pool_o += (double)obs[k];
            if (pool_e >= 5) {
                chi += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
                df++;
                pool_e = pool_o = 0;
            }
            continue;
        }
        chi += ((double)obs[k] - e) * ((double)obs[k] - e) / e;
        df++;
    }
    df = df > 0 ? df - 1 : 0;
    double bound = df + 6 * sqrt(2.0 * df);
    CHECK(chi < bound, "NURand(%u, %lld, %lld, C=%u): chi-square %.1f over %u df, bound %.1f", A,
          (long long)x, (long long)y, C, chi, df, bound);
    printf("NURand(%u, %lld, %lld, C=%u): chi-square %.1f, df %u, bound %.1f\n", A, (long long)x,
           (long long)y, C, chi, df, bound);
    free(p);
    free(obs);
}

static void test_nurand(void)
{
    nurand_case(1023, 1, 3000, 259, 2000000);  /* customer id */
    nurand_case(255, 0, 999, 223, 2000000);    /* last-name number */
    nurand_case(8191, 1, 10000, 7911, 2000000); /* item id, scale-test item count */
    /* full item range: only the bounds (the enumeration is 8*10^8 pairs) */
    struct tpcc_rng r;
    tpcc_rng_seed(&r, 7);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < 2000000; i++) {
        int64_t v = tpcc_nurand(&r, 8191, 1, 100000, 4321);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    CHECK(lo >= 1 && hi <= 100000, "NURand(8191, 1, 100000) range [%lld, %lld]", (long long)lo,
          (long long)hi);
    CHECK(lo <= 5 && hi >= 99995, "NURand(8191, 1, 100000) does not reach its ends: [%lld, %lld]",
          (long long)lo, (long long)hi);
}

static void test_c_constants(void)
{
    struct tpcc_rng r;
    tpcc_rng_seed(&r, 99);
    for (int i = 0; i < 10000; i++) {
        struct tpcc_nurand_c c;
        tpcc_nurand_c_run(&r, &c);
        int delta = abs((int)c.c_last - (int)TPCC_C_LAST_LOAD);
        CHECK(c.c_last <= 255 && delta >= 65 && delta <= 119 && delta != 96 && delta != 112,
              "C_LAST run %u vs load %u: delta %d breaks clause 2.1.6.1", c.c_last,
              TPCC_C_LAST_LOAD, delta);
        CHECK(c.c_id <= 1023 && c.ol_i_id <= 8191, "C out of range: c_id %u ol_i_id %u", c.c_id,
              c.ol_i_id);
        if (failures)
            break;
    }
}

static void test_last_names(void)
{
    char b[16];
    CHECK(strcmp(tpcc_last_name(371, b), "PRICALLYOUGHT") == 0, "371 -> %s", b);
    CHECK(strcmp(tpcc_last_name(0, b), "BARBARBAR") == 0, "0 -> %s", b);
    CHECK(strcmp(tpcc_last_name(999, b), "EINGEINGEING") == 0, "999 -> %s", b);
    CHECK(strcmp(tpcc_last_name(508, b), "ESEBARATION") == 0, "508 -> %s", b);
}

static void test_mix(void)
{
    const unsigned w[TPCC_NR_TXN] = {10, 10, 1, 1, 1};
    const unsigned n = 230000;
    uint64_t cnt[TPCC_NR_TXN] = {0};
    struct tpcc_rng r;
    tpcc_rng_seed(&r, 2024);
    for (unsigned i = 0; i < n; i++)
        cnt[tpcc_pick_txn(&r, w)]++;
    for (int k = 0; k < TPCC_NR_TXN; k++) {
        double p = w[k] / 23.0, e = n * p, sd = sqrt(n * p * (1 - p));
        CHECK(fabs((double)cnt[k] - e) < 5 * sd, "%s: %llu picks, expected %.0f +- %.0f",
              tpcc_txn_name[k], (unsigned long long)cnt[k], e, 5 * sd);
        printf("mix %-12s %6llu of %u (%.2f%%, expected %.2f%%)\n", tpcc_txn_name[k],
               (unsigned long long)cnt[k], n, 100.0 * (double)cnt[k] / n, 100 * p);
    }
    const unsigned w2[TPCC_NR_TXN] = {0, 3, 0, 0, 1};
    memset(cnt, 0, sizeof(cnt));
    for (unsigned i = 0; i < 40000; i++)
        cnt[tpcc_pick_txn(&r, w2)]++;
    CHECK(cnt[0] == 0 && cnt[2] == 0 && cnt[3] == 0, "zero weights were picked");
    double sd = sqrt(40000 * 0.25 * 0.75);
    CHECK(fabs((double)cnt[4] - 10000) < 5 * sd, "weight 1 of 4: %llu of 40000",
          (unsigned long long)cnt[4]);
}

static void test_uniform_and_strings(void)
{
    struct tpcc_rng r;
    tpcc_rng_seed(&r, 5);
    uint64_t c[10] = {0};
    const unsigned n = 1000000;
    for (unsigned i = 0; i < n; i++) {
        int64_t v = tpcc_rand_int(&r, 1, 10);
        CHECK(v >= 1 && v <= 10, "rand_int(1, 10) = %lld", (long long)v);
        if (v >= 1 && v <= 10)
            c[v - 1]++;
    }
    double chi = 0;
    for (int k = 0; k < 10; k++)
        chi += ((double)c[k] - n / 10.0) * ((double)c[k] - n / 10.0) / (n / 10.0);
    CHECK(chi < 9 + 6 * sqrt(18.0), "uniform [1,10] chi-square %.1f", chi);

    unsigned orig = 0;
    const unsigned m = 100000;
    for (unsigned i = 0; i < m; i++) {
        char buf[51];
        tpcc_data_string(&r, buf);
        size_t len = strlen(buf);
        CHECK(len >= 26 && len <= 50, "data string length %zu", len);
        orig += strstr(buf, "ORIGINAL") != NULL;
    }
    double sd = sqrt(m * 0.1 * 0.9);
    CHECK(fabs(orig - m * 0.1) < 5 * sd, "ORIGINAL in %u of %u data strings", orig, m);
    char z[10];
    tpcc_zip(&r, z);
    CHECK(strlen(z) == 9 && strcmp(z + 4, "11111") == 0, "zip %s", z);
}

int main(void)
{
    test_nurand();
    test_c_constants();
    test_last_names();
    test_mix();
    test_uniform_and_strings();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
