/* test_summary.c - derived figures against direct computation. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "stats/summary.h"

int main(void)
{
    struct iom_io_stats *s = malloc(sizeof(*s)), *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
    iom_io_stats_init(s);
    iom_io_stats_init(a);
    iom_io_stats_init(b);
    /* latencies 100, 200, ..., 1000 us: mean 550 us, population stddev
     * sqrt(mean of squares - square of mean) = sqrt(385000 - 302500) = 287.228 us */
    for (int i = 1; i <= 10; i++) {
        iom_io_stats_add(s, 8192, (uint64_t)i * 100000);
        iom_io_stats_add(i % 2 ? a : b, 8192, (uint64_t)i * 100000);
    }
    struct iom_summary m;
    iom_summarize(s, UINT64_C(2000000000), &m); /* over 2 s */
    CHECK_U64(m.ios, 10);
    CHECK_U64(m.bytes, 81920);
    CHECK_NEAR(m.iops, 5.0, 1e-12);
    CHECK_NEAR(m.mb_per_s, 81920 / 2.0 / 1e6, 1e-12);
    CHECK_NEAR(m.mib_per_s, 81920 / 2.0 / 1048576.0, 1e-12);
    CHECK_NEAR(m.lat_mean_us, 550.0, 1e-12);
    CHECK_NEAR(m.lat_stddev_us, sqrt(82500.0), 1e-9);
    CHECK_NEAR(m.lat_min_us, 100.0, 1e-12);
    CHECK_NEAR(m.lat_max_us, 1000.0, 1e-12);
    /* p50 of 10 values by nearest rank is the 5th: 500 us (histogram within 1%) */
    CHECK_NEAR(m.lat_pct_us[1], 500.0, 0.01);
    /* p99 of 10 values is the 10th: 1000 us, clamped to max */
    CHECK_NEAR(m.lat_pct_us[5], 1000.0, 0.01);
    CHECK(m.lat_pct_us[5] <= m.lat_max_us);

    /* merging per-thread stats gives the same figures */
    iom_io_stats_merge(a, b);
    struct iom_summary mm;
    iom_summarize(a, UINT64_C(2000000000), &mm);
    CHECK_U64(mm.ios, m.ios);
    CHECK_NEAR(mm.lat_mean_us, m.lat_mean_us, 1e-12);
    CHECK_NEAR(mm.lat_stddev_us, m.lat_stddev_us, 1e-12);
    CHECK_NEAR(mm.lat_min_us, 100.0, 1e-12);
    CHECK_NEAR(mm.lat_max_us, 1000.0, 1e-12);

    /* a direction without I/O (no trims) merged in leaves the extremes and the
     * percentiles alone, also when its struct was zeroed rather than initialised */
    struct iom_io_stats *z = calloc(1, sizeof(*z));
    if (z) {
        iom_io_stats_merge(a, z);
        iom_summarize(a, UINT64_C(2000000000), &mm);
        CHECK_U64(mm.ios, 10);
        CHECK_NEAR(mm.lat_min_us, 100.0, 1e-12); /* not 0 from the zeroed min */
        CHECK_NEAR(mm.lat_max_us, 1000.0, 1e-12);
        CHECK_NEAR(mm.lat_pct_us[1], 500.0, 0.01);
        free(z);
    }

    /* a percentile whose nearest rank is the largest sample (10 samples do
     * not resolve p99.9, the '*' of the text report) is that sample exactly,
     * not its bucket's midpoint: the largest, 1,064,576 ns, lies in the bucket
     * [1,048,576, 1,064,959] (2^20 + 64 buckets of 2^14 ns), whose midpoint
     * 1,056,768 ns is 7.8 us below it */
    iom_io_stats_init(s);
    for (int i = 1; i <= 9; i++)
        iom_io_stats_add(s, 4096, (uint64_t)i * 1000);
    iom_io_stats_add(s, 4096, 1064576);
    iom_summarize(s, UINT64_C(1000000000), &m);
    CHECK(!iom_pct_resolved(99.9, 10) && iom_pct_resolved(90, 10));
    CHECK(m.lat_pct_us[6] == 1064.576); /* p99.9 */
    CHECK(m.lat_pct_us[9] == 1064.576); /* p99.9999 */
    CHECK(m.lat_pct_us[6] == m.lat_max_us);
    CHECK_U64(iom_io_stats_pct_ns(s, 99.99), 1064576);
    CHECK_U64(iom_io_stats_pct_ns(s, 100), 1064576);
    /* p99 of 10 is also rank 10 (10 < 1 / (1 - 0.99)): the largest */
    CHECK_U64(iom_io_stats_pct_ns(s, 99), 1064576);
    /* p90 is resolved (rank 9 of 10): 9,000 ns within the bucket's 0.79% */
    CHECK_NEAR(m.lat_pct_us[3], 9.0, 9.0 / 128);
    CHECK(m.lat_pct_us[3] < 10.0);
    /* the same sample with 1000 I/Os resolves p99.9 (rank 999 of 1000):
     * then it is the 999th value's bucket, not the maximum */
    iom_io_stats_init(s);
    for (int i = 0; i < 999; i++)
        iom_io_stats_add(s, 4096, 100);
    iom_io_stats_add(s, 4096, 1064576);
    CHECK(iom_pct_resolved(99.9, 1000));
    CHECK_U64(iom_io_stats_pct_ns(s, 99.9), 100); /* below 128 ns: exact */
    CHECK_U64(iom_io_stats_pct_ns(s, 99.99), 1064576);

    /* constant latency: stddev exactly 0, no negative variance from rounding */
    iom_io_stats_init(s);
    for (int i = 0; i < 100000; i++)
        iom_io_stats_add(s, 4096, 123457);
    iom_summarize(s, UINT64_C(1000000000), &m);
    CHECK(m.lat_stddev_us == 0.0);
    CHECK_NEAR(m.lat_mean_us, 123.457, 1e-12);

    /* empty: zeros, no division by zero */
    iom_io_stats_init(s);
    iom_summarize(s, 0, &m);
    CHECK(m.iops == 0 && m.lat_mean_us == 0 && m.lat_max_us == 0);
    free(s);
    free(a);
    free(b);
    return check_status("test_summary");
}
