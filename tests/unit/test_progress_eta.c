/* test_progress_eta.c - the progress line's overall time left (cli/progress.h)
 * while a preparation reports how far it is: the plan's seconds plus the rest
 * of the preparation at its rate so far. Expected values are computed here
 * from the sleeps' own clock readings: left = plan + elapsed * (1 - f) / f. */
#include <signal.h>
#include <time.h>

#include "check.h"
#include "cli/progress.h"

volatile sig_atomic_t iom_cli_stop; /* cli.h's, owned by main.c in the program */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

int main(void)
{
    /* one step planned: 2 s warm-up + 10 s measured + 0 s cool-down */
    iom_cli_progress_plan("run", NULL, 1, 12.0, false);
    CHECK_NEAR(iom_cli_progress_eta(), 12.0, 1e-9);

    /* a preparation whose part done is unknown: the plan only */
    double t0 = mono_s(); /* the phase's clock starts between t0 and t0b */
    iom_cli_progress_phase("preparing", "creating x.dat", -1);
    double t0b = mono_s();
    CHECK_NEAR(iom_cli_progress_eta(), 12.0, 1e-9);

    /* 25 % done after e seconds: 3 e more to go (e between e_lo and e_hi) */
    sleep_s(0.2);
    iom_cli_progress_phase("preparing", "creating x.dat: 25%", 0.25);
    double e_lo = mono_s() - t0b;
    double eta = iom_cli_progress_eta();
    double e_hi = mono_s() - t0;
    CHECK(eta >= 12.0 + e_lo * 3 - 1e-6);
    CHECK(eta <= 12.0 + e_hi * 3 + 1e-6);
    CHECK(eta >= 12.0 + 0.2 * 3 - 1e-6);

    /* 80 % done: e * 0.25 more */
    sleep_s(0.2);
    iom_cli_progress_phase("preparing", "creating x.dat: 80%", 0.8);
    e_lo = mono_s() - t0b;
    eta = iom_cli_progress_eta();
    e_hi = mono_s() - t0;
    CHECK(eta >= 12.0 + e_lo * 0.25 - 1e-6);
    CHECK(eta <= 12.0 + e_hi * 0.25 + 1e-6);

    /* done (100 %): the plan only; a part over 1 counts as done */
    iom_cli_progress_phase("preparing", "creating x.dat: 100%", 1.0);
    CHECK_NEAR(iom_cli_progress_eta(), 12.0, 1e-9);
    iom_cli_progress_phase("preparing", "creating x.dat: 100%", 1.5);
    CHECK_NEAR(iom_cli_progress_eta(), 12.0, 1e-9);

    /* a new phase starts its own clock: 50 % after about 0.1 s is about 0.1 s more,
     * not the 0.4 s of the phase before */
    double t1 = mono_s();
    iom_cli_progress_phase("loading", "warehouse 1/1: 0%", 0);
    sleep_s(0.1);
    iom_cli_progress_phase("loading", "warehouse 1/1: 50%", 0.5);
    eta = iom_cli_progress_eta();
    double l_hi = mono_s() - t1;
    CHECK(eta >= 12.0 + 0.1 - 1e-6);
    CHECK(eta <= 12.0 + l_hi + 1e-6);

    /* the step starts: its clock, not the preparation's, from here on */
    iom_cli_progress_step("run", 2.0, 10.0, 0.0);
    iom_cli_progress_phase(NULL, NULL, -1);
    eta = iom_cli_progress_eta();
    CHECK(eta <= 12.0 + 1e-9 && eta > 11.0);
    return check_status("test_progress_eta");
}
