/* test_stats_shared.c - the statistics every reporter shares (stats/summary.h,
 * stats/compare.h) and the DiskSpd workload key both DiskSpd importers share
 * (import/import.h), against values worked out by hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "import/import.h"
#include "stats/compare.h"
#include "stats/summary.h"

int main(void)
{
    /* {2,4,4,4,5,5,7,9}: mean 5, sum of squared deviations 32, so the
     * population stddev is sqrt(32/8) = 2 and the sample one sqrt(32/7) */
    const double x[] = {2, 4, 4, 4, 5, 5, 7, NAN, 9};
    double mean = 0;
    CHECK_NEAR(iom_stddev(x, 9, 1, &mean), 2.0, 1e-12);
    CHECK_NEAR(mean, 5.0, 1e-12);
    CHECK_NEAR(iom_stddev(x, 9, 0, NULL), sqrt(32.0 / 7.0), 1e-12);
    CHECK_NEAR(iom_stddev(x, 1, 0, &mean), 0.0, 0.0);
    CHECK_NEAR(mean, 2.0, 1e-12);
    CHECK(isnan(iom_stddev(x, 0, 0, &mean)) && isnan(mean));
    struct iom_sample_stats ss;
    iom_sample_stats(x, 9, &ss);
    CHECK_U64(ss.n, 8);
    CHECK_NEAR(ss.stddev, sqrt(32.0 / 7.0), 1e-12);
    CHECK_NEAR(ss.min, 2, 0.0);
    CHECK_NEAR(ss.max, 9, 0.0);

    /* latencies 100, 200, 300 ns: mean 200, squared deviations 2*100^2, so
     * population sqrt(20000/3) = 81.6497 ns, sample sqrt(20000/2) = 100 ns */
    struct iom_io_stats *s = malloc(sizeof(*s));
    iom_io_stats_init(s);
    CHECK_U64(iom_io_stats_pct_ns(s, 50), 0);
    CHECK_NEAR(iom_io_stats_lat_stddev_ns(s, 1), 0, 0.0);
    iom_io_stats_add(s, 4096, 100);
    CHECK_NEAR(iom_io_stats_lat_stddev_ns(s, 1), 0, 0.0);
    iom_io_stats_add(s, 4096, 200);
    iom_io_stats_add(s, 4096, 300);
    CHECK_NEAR(iom_io_stats_lat_stddev_ns(s, 0), sqrt(20000.0 / 3.0), 1e-12);
    CHECK_NEAR(iom_io_stats_lat_stddev_ns(s, 1), 100.0, 1e-12);
    /* the clamp: nothing below the exact min (100) or above the max (300) */
    CHECK_U64(iom_io_stats_clamp_ns(s, 7), 100);
    CHECK_U64(iom_io_stats_clamp_ns(s, 1000), 300);
    CHECK_U64(iom_io_stats_clamp_ns(s, 250), 250);
    for (double p = 0; p <= 100; p += 0.5) {
        uint64_t v = iom_io_stats_pct_ns(s, p);
        CHECK(v >= 100 && v <= 300);
    }
    CHECK_U64(iom_io_stats_pct_ns(s, 100), 300);
    /* one I/O of 12345 ns: every percentile is that I/O's latency */
    iom_io_stats_init(s);
    iom_io_stats_add(s, 512, 12345);
    CHECK_U64(iom_io_stats_pct_ns(s, 0.1), 12345);
    CHECK_U64(iom_io_stats_pct_ns(s, 99.9999), 12345);
    struct iom_summary m;
    iom_summarize(s, 0, &m);
    for (int i = 0; i < IOM_NR_PCT; i++)
        CHECK_NEAR(m.lat_pct_us[i], 12.345, 1e-12);
    free(s);

    /* DiskSpd keys: the same run read from text and XML must match */
    char k[96];
    iom_imp_diskspd_key(k, sizeof(k), 1048576, 0, 0, 8, 1, 0);
    CHECK(strcmp(k, "1MiB sequential w0% Q8 T1") == 0);
    iom_imp_diskspd_key(k, sizeof(k), 4096, 1, 30, 32, 4, 1);
    CHECK(strcmp(k, "4KiB random w30% Q32 T4 #2") == 0);
    iom_imp_diskspd_key(k, sizeof(k), 512 + 1, 1, 100, 1, 1, 0);
    CHECK(strcmp(k, "513B random w100% Q1 T1") == 0);
    iom_imp_diskspd_key(k, 8, 4096, 1, 30, 32, 4, 1);
    CHECK(strcmp(k, "4KiB ra") == 0);
    return check_status("test_stats_shared");
}
