/* test_lattarget.c - fio's latency_target depth search (core/lattarget.h).
 * Expected depths come from the search's definition (the highest depth, up to
 * iodepth, whose windows meet the target) applied to synthetic devices, and
 * from a device model: one that serves I/Os one at a time in S us has, at queue
 * depth q, a latency of q x S (Little's law), so with a target T the highest
 * passing depth is floor(T / S). The one exception is read from fio 3.33's
 * io_u.c lat_target_success: while latency_qd_high is still the iodepth the
 * depth doubles, so when only the iodepth itself fails (K = iodepth - 1) fio
 * swings between K and iodepth and never settles (latency_qd_high is set back
 * to iodepth by the failure); iomark does the same. */
#include <stdlib.h>

#include "check.h"
#include "core/lattarget.h"

#define US UINT64_C(1000)

/* Windows judged by the rule "depth <= k passes"; returns the depth at DONE,
 * or 0 when the search did not end within 200 windows. */
static uint32_t search_threshold(uint32_t iodepth, uint32_t k, bool run, unsigned *windows)
{
    struct iom_job job = {.iodepth = iodepth, .latency_target_ns = 100 * US,
                          .latency_window_ns = 0, .latency_pct = 100.0, .latency_run = run};
    struct iom_lat_target lt;
    iom_lt_init(&lt, &job, 0);
    for (unsigned i = 0; i < 200; i++) {
        CHECK(lt.qd >= 1 && lt.qd <= iodepth);
        enum iom_lt_action a = iom_lt_step(&lt, lt.qd <= k);
        if (a == IOM_LT_DONE) {
            *windows = i + 1;
            return lt.qd;
        }
    }
    *windows = 200;
    return 0;
}

/* The one-at-a-time device: completions every S us at latency qd x S, through
 * iom_lt_complete and iom_lt_window with a window of W us. Returns the depth at
 * DONE (0: not within the simulated time). */
static uint32_t search_device(uint32_t iodepth, uint64_t s_us, uint64_t target_us,
                              double pct, uint64_t *t_end)
{
    struct iom_job job = {.iodepth = iodepth, .latency_target_ns = target_us * US,
                          .latency_window_ns = 10000 * US, .latency_pct = pct};
    struct iom_lat_target lt;
    uint64_t now = 0;
    iom_lt_init(&lt, &job, now);
    for (unsigned i = 0; i < 1000000; i++) {
        now += s_us * US;
        bool fatal = false;
        enum iom_lt_action a = iom_lt_complete(&lt, lt.qd * s_us * US, &fatal);
        CHECK(!fatal);
        if (a == IOM_LT_QUIESCE) { /* the worker drains, then starts a window */
            iom_lt_cycle(&lt, now);
            continue;
        }
        a = iom_lt_window(&lt, now);
        if (a == IOM_LT_DONE) {
            *t_end = now;
            return lt.qd;
        }
        if (a == IOM_LT_QUIESCE)
            iom_lt_cycle(&lt, now);
    }
    return 0;
}

int main(void)
{
    unsigned w;
    /* every threshold for depths 1..64: the search ends at k (but fio's k = iodepth-1 case) */
    for (uint32_t d = 1; d <= 64; d++)
        for (uint32_t k = 1; k <= d; k++) {
            uint32_t got = search_threshold(d, k, false, &w);
            if (k + 1 == d)
                CHECK_U64(got, 0); /* fio swings between k and d (see the top) */
            else
                CHECK_U64(got, k);
        }
    /* a worked example by hand (iodepth 16, depths above 5 fail): 1 2 4 8(fail) 6(fail)
     * 5 -> stays 5 -> final window at 5 -> done: 7 windows */
    CHECK_U64(search_threshold(16, 5, false, &w), 5);
    CHECK_U64(w, 7);
    /* everything passes: 1 2 4 8 16 16(final): 6 windows */
    CHECK_U64(search_threshold(16, 16, false, &w), 16);
    CHECK_U64(w, 6);
    /* latency_run: never done */
    CHECK_U64(search_threshold(16, 5, true, &w), 0);
    /* the fio quirk: only the iodepth fails, the depth swings 7 <-> 8 */
    {
        struct iom_job job = {.iodepth = 8, .latency_target_ns = 1, .latency_pct = 100.0};
        struct iom_lat_target lt;
        iom_lt_init(&lt, &job, 0);
        uint32_t seen[40];
        for (unsigned i = 0; i < 40; i++) {
            seen[i] = lt.qd;
            (void)iom_lt_step(&lt, lt.qd <= 7);
        }
        CHECK_U64(seen[0], 1);
        CHECK_U64(seen[3], 8);
        CHECK_U64(seen[38], 7);
        CHECK_U64(seen[39], 8);
    }
    /* the device model: S = 100 us; target 450 us -> depth 4; target 1000 us -> 10 */
    uint64_t t = 0;
    CHECK_U64(search_device(16, 100, 450, 100.0, &t), 4);
    CHECK(t > 0);
    CHECK_U64(search_device(32, 100, 1000, 100.0, &t), 10);
    CHECK_U64(search_device(32, 100, 1000, 99.0, &t), 10);
    CHECK_U64(search_device(8, 100, 50, 50.0, &t), 0); /* depth 1 fails: fio stays at 1 */
    /* percentile: a window whose share within the target is below it fails; with
     * 100 a single miss ramps down at once, at depth 1 it is fatal (fio lat_fatal) */
    {
        struct iom_job job = {.iodepth = 4, .latency_target_ns = 100 * US,
                              .latency_window_ns = 1000 * US, .latency_pct = 90.0};
        struct iom_lat_target lt;
        iom_lt_init(&lt, &job, 0);
        bool fatal = false;
        for (int i = 0; i < 9; i++)
            CHECK(iom_lt_complete(&lt, 50 * US, &fatal) == IOM_LT_GO);
        CHECK(iom_lt_complete(&lt, 150 * US, &fatal) == IOM_LT_GO); /* 9 of 10 = 90 %: ok */
        CHECK(iom_lt_window(&lt, 999 * US) == IOM_LT_GO);
        CHECK_U64(lt.qd, 1);                                          /* window not over */
        CHECK(iom_lt_window(&lt, 1000 * US) == IOM_LT_GO);
        CHECK_U64(lt.qd, 2);
        for (int i = 0; i < 8; i++)
            (void)iom_lt_complete(&lt, 50 * US, &fatal);
        (void)iom_lt_complete(&lt, 101 * US, &fatal);
        (void)iom_lt_complete(&lt, 101 * US, &fatal); /* 8 of 10 = 80 %: fails */
        CHECK(iom_lt_window(&lt, 2000 * US) == IOM_LT_QUIESCE);
        CHECK_U64(lt.qd, 1);
        CHECK(!fatal);
        job.latency_pct = 100.0;
        iom_lt_init(&lt, &job, 0);
        CHECK(iom_lt_complete(&lt, 101 * US, &fatal) == IOM_LT_GO);
        CHECK(fatal);
        job.latency_pct = 100.0; /* at depth 2 a miss ramps down to 1 at once */
        iom_lt_init(&lt, &job, 0);
        (void)iom_lt_complete(&lt, 10 * US, &fatal);
        CHECK(iom_lt_window(&lt, 1000 * US) == IOM_LT_GO);
        CHECK_U64(lt.qd, 2);
        fatal = false;
        CHECK(iom_lt_complete(&lt, 101 * US, &fatal) == IOM_LT_QUIESCE);
        CHECK_U64(lt.qd, 1);
        CHECK(!fatal);
    }
    return check_status("test_lattarget");
}
