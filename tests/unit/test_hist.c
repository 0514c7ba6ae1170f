/* test_hist.c - the log-linear histogram against exact order statistics. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "stats/hist.h"
#include "stats/summary.h"

/* Independent generator (a 64-bit LCG, Knuth MMIX constants) so the samples
 * do not come from the code under test. */
static uint64_t lcg_state = 42;
static double unit(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return ((double)(lcg_state >> 11) + 0.5) * 0x1.0p-53;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* nearest rank: the ceil(p/100 * n)-th smallest */
static uint64_t exact_pct(const uint64_t *sorted, size_t n, double p)
{
    double r = ceil(p / 100.0 * (double)n - 1e-9);
    size_t k = r < 1 ? 1 : (size_t)r;
    if (k > n)
        k = n;
    return sorted[k - 1];
}

static void check_distribution(const char *name, uint64_t *v, size_t n)
{
    struct iom_hist *h = calloc(1, sizeof(*h));
    for (size_t i = 0; i < n; i++)
        iom_hist_add(h, v[i]);
    qsort(v, n, sizeof(*v), cmp_u64);
    static const double ps[] = {1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999};
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
        uint64_t got = iom_hist_percentile(h, ps[i]);
        uint64_t want = exact_pct(v, n, ps[i]);
        double rel = want ? fabs((double)got - (double)want) / (double)want : (double)got;
        check_count++;
        if (rel > 0.01) {
            check_failures++;
            fprintf(stderr, "%s p%g: hist %llu exact %llu (%.3f%%)\n", name, ps[i],
                    (unsigned long long)got, (unsigned long long)want, rel * 100);
        }
    }
    CHECK_U64(iom_hist_total(h), n);
    free(h);
}

int main(void)
{
    const size_t n = 200000;
    uint64_t *v = malloc(n * sizeof(*v));

    /* bucket geometry: contiguous, each bucket at most 1/64 wide */
    for (unsigned i = 0; i + 1 < IOM_HIST_BUCKETS; i++) {
        uint64_t lo = iom_hist_bucket_low(i), hi = iom_hist_bucket_high(i);
        if (iom_hist_index(lo) != i || iom_hist_index(hi) != i || hi + 1 != iom_hist_bucket_low(i + 1) ||
            (lo >= 128 && (double)(hi - lo + 1) / (double)lo > 1.0 / 64 + 1e-12)) {
            CHECK(!"bucket geometry");
            fprintf(stderr, "bucket %u: [%llu, %llu]\n", i, (unsigned long long)lo,
                    (unsigned long long)hi);
            break;
        }
    }
    /* range: one hour (3.6e12 ns) is resolved, not clamped */
    CHECK(iom_hist_index(UINT64_C(3600000000000)) < IOM_HIST_BUCKETS - 1);
    CHECK(iom_hist_index(UINT64_MAX) == IOM_HIST_BUCKETS - 1);
    CHECK(iom_hist_index(0) == 0 && iom_hist_index(1) == 1 && iom_hist_index(127) == 127);
    /* the midpoint of any bucket is within 1% of every value in it */
    for (uint64_t x = 1; x < UINT64_C(4000000000000); x = x * 3 / 2 + 1) {
        uint64_t mid = iom_hist_bucket_mid(iom_hist_index(x));
        CHECK(fabs((double)mid - (double)x) <= 0.01 * (double)x);
    }

    /* uniform 10 us .. 1 ms */
    for (size_t i = 0; i < n; i++)
        v[i] = 10000 + (uint64_t)(unit() * 990000);
    check_distribution("uniform", v, n);
    /* exponential, mean 200 us */
    for (size_t i = 0; i < n; i++)
        v[i] = (uint64_t)(-log(unit()) * 200000.0) + 1;
    check_distribution("exponential", v, n);
    /* log-normal, median 100 us, sigma 1.5 (heavy tail up to seconds) */
    for (size_t i = 0; i < n; i++) {
        double z = sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
        v[i] = (uint64_t)(100000.0 * exp(1.5 * z)) + 1;
    }
    check_distribution("lognormal", v, n);
    /* bimodal: 90% cache hits ~2 us, 10% misses ~8 ms */
    for (size_t i = 0; i < n; i++)
        v[i] = unit() < 0.9 ? 1500 + (uint64_t)(unit() * 1000) : 6000000 + (uint64_t)(unit() * 4000000);
    check_distribution("bimodal", v, n);
    /* small values, exact region */
    for (size_t i = 0; i < n; i++)
        v[i] = (uint64_t)(unit() * 120);
    check_distribution("small", v, n);
    /* long latencies: 1 s .. 1 hour */
    for (size_t i = 0; i < n; i++)
        v[i] = UINT64_C(1000000000) + (uint64_t)(unit() * 3.599e12);
    check_distribution("hour", v, n);

    /* merge of per-thread histograms equals one histogram of all samples */
    struct iom_hist *parts = calloc(4, sizeof(*parts)), *all = calloc(1, sizeof(*all)),
                    *merged = calloc(1, sizeof(*merged));
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (uint64_t)(-log(unit()) * 50000.0);
        iom_hist_add(&parts[i % 4], x);
        iom_hist_add(all, x);
    }
    for (int k = 0; k < 4; k++)
        iom_hist_merge(merged, &parts[k]);
    CHECK(memcmp(merged->count, all->count, sizeof(all->count)) == 0);
    /* diff of a later snapshot and an earlier one gives the samples in between */
    struct iom_hist *snap = calloc(1, sizeof(*snap)), *d = calloc(1, sizeof(*d));
    iom_hist_snapshot(snap, all);
    for (int k = 0; k < 1000; k++)
        iom_hist_add(all, 777);
    iom_hist_diff(d, all, snap);
    CHECK_U64(iom_hist_total(d), 1000);
    CHECK_U64(d->count[iom_hist_index(777)], 1000);

    /* percentiles of 1, 2 and 10 samples stay inside [min, max] after clamping */
    static const uint64_t few[] = {5000, 123456, 7, 99999999, 42, 1000, 250000, 3, 64000, 800};
    for (size_t cnt = 1; cnt <= 10; cnt = cnt == 1 ? 2 : cnt == 2 ? 10 : 11) {
        struct iom_io_stats *s = malloc(sizeof(*s));
        iom_io_stats_init(s);
        uint64_t mn = UINT64_MAX, mx = 0;
        for (size_t i = 0; i < cnt; i++) {
            iom_io_stats_add(s, 4096, few[i]);
            mn = few[i] < mn ? few[i] : mn;
            mx = few[i] > mx ? few[i] : mx;
        }
        struct iom_summary m;
        iom_summarize(s, 1000000000, &m);
        for (int i = 0; i < IOM_NR_PCT; i++)
            CHECK(m.lat_pct_us[i] * 1e3 >= (double)mn - 1e-6 && m.lat_pct_us[i] * 1e3 <= (double)mx + 1e-6);
        if (cnt == 1)
            CHECK_NEAR(m.lat_pct_us[IOM_NR_PCT - 1], 5.0, 1e-12);
        free(s);
    }
    free(parts);
    free(all);
    free(merged);
    free(snap);
    free(d);
    free(v);
    return check_status("test_hist");
}
