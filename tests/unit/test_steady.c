/* test_steady.c - fio's steady-state criteria (stats/steady.h) over a series
 * fio 3.33 recorded (1 s IOPS and bandwidth of a real run; tests/data/SOURCES.md).
 * Expected: tests/data/steady_expected.py, an independent computation with
 * python's statistics.linear_regression, printed and pasted here:
 *   iops_slope:10%: attained at 8, criterion 9.956368754
 *   iops_slope:2%: attained at 0, criterion 3.921736997
 *   iops:20%: attained at 4, criterion 12.723059096
 *   iops:500: attained at 9, criterion 336.666666667
 *   bw_slope:1000000: attained at 0, criterion 1309081.600000000
 *   bw:12%: attained at 10, criterion 6.346999121
 * and fio 3.33's own JSON "steadystate" objects of two runs (criterion, slope,
 * max_deviation from their "data" arrays). */
#include <stdlib.h>

#include "check.h"
#include "stats/steady.h"

static const uint64_t iops[] = {2092, 4308, 3773, 4864, 6791, 5323, 8077, 8231, 7649, 7324, 9405};
static const uint64_t bw_kib[] = {8368,  17233, 15092, 19457, 27165, 21292,
                                  32309, 32926, 30598, 29297, 37621};
#define N (sizeof(iops) / sizeof(iops[0]))

/* Feed the series; the 1-based sample at which it is met (0: never), criterion in *crit. */
static unsigned feed(uint32_t state, double limit, uint32_t dur, double *crit, struct iom_ss *ss)
{
    CHECK(iom_ss_init(ss, state, limit, dur) == 0);
    for (unsigned i = 0; i < N; i++)
        if (iom_ss_add(ss, iops[i], bw_kib[i] * 1024)) {
            *crit = ss->criterion;
            return i + 1;
        }
    *crit = ss->criterion;
    return 0;
}

int main(void)
{
    struct iom_ss ss;
    double c = 0;
    CHECK_U64(feed(IOM_SS_IOPS | IOM_SS_SLOPE | IOM_SS_PCT, 10.0, 4, &c, &ss), 8);
    CHECK_NEAR(c, 9.956368754, 1e-8);
    iom_ss_free(&ss);
    CHECK_U64(feed(IOM_SS_IOPS | IOM_SS_SLOPE | IOM_SS_PCT, 2.0, 4, &c, &ss), 0);
    CHECK_NEAR(c, 3.921736997, 1e-8); /* the rolling sums agree with a fresh fit */
    {   /* not attained, wrapped: the data arrays list the last 4 samples in order */
        uint64_t i4[4], b4[4];
        iom_ss_data(&ss, i4, b4);
        CHECK_U64(i4[0], 8231);
        CHECK_U64(i4[3], 9405);
        CHECK_U64(b4[0], 32926 * 1024);
        CHECK_U64(iom_ss_iops_mean(&ss), (8231 + 7649 + 7324 + 9405) / 4);
    }
    iom_ss_free(&ss);
    CHECK_U64(feed(IOM_SS_IOPS | IOM_SS_PCT, 20.0, 3, &c, &ss), 4);
    CHECK_NEAR(c, 12.723059096, 1e-8);
    {   /* attained: samples 2..4 in order */
        uint64_t i3[3], b3[3];
        iom_ss_data(&ss, i3, b3);
        CHECK_U64(i3[0], 4308);
        CHECK_U64(i3[1], 3773);
        CHECK_U64(i3[2], 4864);
    }
    iom_ss_free(&ss);
    CHECK_U64(feed(IOM_SS_IOPS, 500.0, 3, &c, &ss), 9);
    CHECK_NEAR(c, 336.666666667, 1e-9);
    iom_ss_free(&ss);
    CHECK_U64(feed(IOM_SS_SLOPE, 1000000.0, 4, &c, &ss), 0);
    CHECK_NEAR(c, 1309081.6, 1e-9);
    iom_ss_free(&ss);
    CHECK_U64(feed(IOM_SS_PCT, 12.0, 4, &c, &ss), 10);
    CHECK_NEAR(c, 6.346999121, 1e-8);
    iom_ss_free(&ss);

    /* fio 3.33's own verdicts (null engine, rate_iops=2000): "iops:20%" over
     * [2001, 2000, 2001]: criterion 0.033322%, max_deviation 0.666667; "bw_slope:5%"
     * over bw [8196100, 8196096, 8196100, 8196096]: slope -0.8, criterion -0.000010% */
    CHECK(iom_ss_init(&ss, IOM_SS_IOPS | IOM_SS_PCT, 20.0, 3) == 0);
    CHECK(!iom_ss_add(&ss, 2001, 8196597));
    CHECK(!iom_ss_add(&ss, 2000, 8192000));
    CHECK(iom_ss_add(&ss, 2001, 8196100));
    CHECK_NEAR(ss.criterion, 0.033322, 1e-5);
    CHECK_NEAR(ss.deviation, 0.666667, 1e-6);
    CHECK_U64(iom_ss_bw_mean(&ss), 8194899);
    CHECK_U64(iom_ss_iops_mean(&ss), 2000);
    char name[64];
    iom_ss_name(ss.state, ss.limit, name, sizeof(name));
    CHECK(strcmp(name, "iops:20.000000%") == 0);
    iom_ss_free(&ss);
    CHECK(iom_ss_init(&ss, IOM_SS_SLOPE | IOM_SS_PCT, 5.0, 4) == 0);
    CHECK(!iom_ss_add(&ss, 2001, 8196100));
    CHECK(!iom_ss_add(&ss, 2001, 8196096));
    CHECK(!iom_ss_add(&ss, 2001, 8196100));
    CHECK(iom_ss_add(&ss, 2001, 8196096));
    CHECK_NEAR(ss.slope, -0.8, 1e-12);
    CHECK_NEAR(ss.criterion, -0.000010, 0.05);
    CHECK_U64(iom_ss_bw_mean(&ss), 8196098);
    iom_ss_name(ss.state, ss.limit, name, sizeof(name));
    CHECK(strcmp(name, "bw_slope:5.000000%") == 0);
    iom_ss_free(&ss);
    CHECK(iom_ss_init(&ss, IOM_SS_IOPS, 1.0, 0) < 0);
    return check_status("test_steady");
}
