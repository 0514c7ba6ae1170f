/* test_markstat.c - the mark statistics over synthetic run figures.
 * A slow-start disk (thin-provisioned, SLC cache, cold cloud volume): the
 * preparation run is the slowest and would drag a mean down; the expected
 * values below are worked out by hand from the table in the comments,
 * following CrystalDiskMark's DiskBench.cpp (max score, min latency over
 * counted runs with a score above zero) and KDiskMark's benchmark.cpp
 * (sum / number of runs). */
#include <errno.h>

#include "check.h"
#include "stats/markstat.h"

/*         MB/s    MiB/s     IOPS   lat us  p99 us  s  ios   counted
 * prep     50.0   47.6837    50.0  20000   90000   5  250   no
 * run 1   400.0  381.4697   400.0   2600    9000   5  2000  yes
 * run 2   500.0  476.8372   500.0   2100    8000   5  2500  yes   <- best MB/s
 * run 3   450.0  429.1534   450.0   1900    8500   5  2250  yes   <- lowest latency
 * run 4     0.0    0.0        0.0   1000    1000   5  0     yes   (no data: latency ignored by CDM)
 */
static const struct iom_markstat_run runs[] = {
    {50.0, 50.0e6 / 1048576.0, 50.0, 20000, 90000, 5, 250, false, true, false},
    {400.0, 400.0e6 / 1048576.0, 400.0, 2600, 9000, 5, 2000, true, false, false},
    {500.0, 500.0e6 / 1048576.0, 500.0, 2100, 8000, 5, 2500, true, false, false},
    {450.0, 450.0e6 / 1048576.0, 450.0, 1900, 8500, 5, 2250, true, false, false},
    {0.0, 0.0, 0.0, 1000, 1000, 5, 0, true, false, false},
};

int main(void)
{
    struct iom_markstat s;

    /* CrystalDiskMark's definition */
    CHECK(iom_markstat_compute(runs, 5, IOM_MARKSTAT_BEST, &s) == 0);
    CHECK_U64(s.nr_counted, 4);
    CHECK_NEAR(s.reported.mb_per_s, 500.0, 1e-15);
    CHECK_NEAR(s.reported.mib_per_s, 500.0e6 / 1048576.0, 1e-15);
    CHECK_NEAR(s.reported.iops, 500.0, 1e-15);
    CHECK(s.has_latency);
    CHECK_NEAR(s.reported.lat_mean_us, 1900.0, 1e-15); /* not 1000: run 4 moved no data */
    CHECK_NEAR(s.reported.lat_p99_us, 8000.0, 1e-15);
    CHECK_NEAR(s.reported.measured_s, 20.0, 1e-15);    /* prep's 5 s not counted */
    CHECK_U64(s.reported.ios, 2000 + 2500 + 2250);
    /* spread over the counted runs: (400 + 500 + 450 + 0) / 4 = 337.5 */
    CHECK(s.mb_per_s.min == 0.0);
    CHECK_NEAR(s.mb_per_s.max, 500.0, 1e-15);
    CHECK_NEAR(s.mb_per_s.mean, 337.5, 1e-15);
    CHECK_NEAR(s.lat_mean_us.min, 1000.0, 1e-15);
    CHECK_NEAR(s.lat_mean_us.max, 2600.0, 1e-15);
    CHECK_NEAR(s.lat_mean_us.mean, (2600.0 + 2100 + 1900 + 1000) / 4, 1e-15);

    /* the first three counted runs only: the preparation run is the
     * slowest, so it would lower a mean that counted it (316.7 vs 450) */
    CHECK(iom_markstat_compute(runs, 4, IOM_MARKSTAT_MEAN, &s) == 0);
    CHECK_U64(s.nr_counted, 3);
    CHECK_NEAR(s.reported.mb_per_s, 450.0, 1e-15);
    CHECK_NEAR(s.reported.iops, 450.0, 1e-15);
    CHECK_NEAR(s.reported.lat_mean_us, 6600.0 / 3, 1e-15);
    CHECK_NEAR(s.reported.lat_p99_us, 25500.0 / 3, 1e-15);
    CHECK_NEAR(s.reported.mib_per_s, 450.0e6 / 1048576.0, 1e-12);
    CHECK_NEAR(s.reported.measured_s, 15.0, 1e-15);

    /* KDiskMark peak: the same best figures; its minimum latency would take
     * run 4's 1000 us (updateWithBetterValues has no score check), which
     * iomark does not copy: docs/mark.md */
    CHECK(iom_markstat_compute(runs + 1, 2, IOM_MARKSTAT_BEST, &s) == 0);
    CHECK_NEAR(s.reported.mb_per_s, 500.0, 1e-15);
    CHECK_NEAR(s.reported.lat_mean_us, 2100.0, 1e-15);

    /* only the preparation run, or nothing: no data */
    CHECK(iom_markstat_compute(runs, 1, IOM_MARKSTAT_BEST, &s) == -ENODATA);
    CHECK_U64(s.nr_counted, 0);
    CHECK(s.reported.mb_per_s == 0.0);
    CHECK(iom_markstat_compute(runs, 0, IOM_MARKSTAT_MEAN, &s) == -ENODATA);
    /* only a counted run without data: a score of 0 and no latency (CDM shows none) */
    CHECK(iom_markstat_compute(runs + 4, 1, IOM_MARKSTAT_BEST, &s) == 0);
    CHECK(!s.has_latency);
    CHECK(s.reported.lat_mean_us == 0.0);
    CHECK(iom_markstat_compute(NULL, 2, IOM_MARKSTAT_BEST, &s) == -EINVAL);
    CHECK(iom_markstat_compute(runs, 2, (enum iom_markstat_kind)7, &s) == -EINVAL);
    CHECK(iom_markstat_compute(runs, 2, IOM_MARKSTAT_BEST, NULL) == -EINVAL);
    CHECK(!strcmp(iom_markstat_kind_name(IOM_MARKSTAT_BEST), "best"));
    CHECK(!strcmp(iom_markstat_kind_name(IOM_MARKSTAT_MEAN), "mean"));
    return check_status("markstat");
}
