/*
 * test_lab_watch.c - the lab's progress events without booting QEMU: a
 * result channel file written here piece by piece in the guest's order
 * (docs/lab.md "How it works": per unit, job and run the sections t0.J.R,
 * ..., t1.J.R, "K/" before the names in a shared boot) is fed to
 * iom_lab_watch_tick, and each call of the progress hook is checked: the
 * stage (booting, run J/N R/M, sending results, shutting down), the run's
 * phases and the seconds left, worked out here from the plan's figures
 * (boot, per-run extra, shutdown) and the jobs' lengths given on their
 * command lines. Also: a header split across two reads is reported once,
 * a header seen again is not reported again, and the phases of a run as
 * iom_lab_job_phases reads them from run and DiskSpd arguments.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab.h"
#include "lab/labrun.h"

#include "checkf.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)
/* seconds worked out here from the boot time the watcher kept (uo.boot_s),
 * which it also estimated the later boots with (one clock reading: two
 * readings were 19 ms apart under ASan at load 35, loop54 run 2), summed in
 * another order: equal but for rounding */
#define CLOSE(a, b) (fabs((a) - (b)) < 1e-9)

/* the hook's calls, copied */
static struct iom_lab_progress ev[64];
static char ev_unit[64][64];
static size_t nev;

static void record(void *arg, const struct iom_lab_progress *p)
{
    (void)arg;
    if (nev < 64) {
        ev[nev] = *p;
        snprintf(ev_unit[nev], sizeof(ev_unit[nev]), "%s", p->unit ? p->unit : "");
        nev++;
    }
}

static const char *chan_path;

/* Append text to the channel file, then let the watcher read it. */
static void feed(struct iom_lab_watch *w, const char *text)
{
    FILE *f = fopen(chan_path, "ab");
    fputs(text, f);
    fclose(f);
    iom_lab_watch_tick((int)getpid(), w);
}

/* One section as the guest frames it: "@@iomark-lab NAME BYTES\n<data>\n". */
static void section(struct iom_lab_watch *w, const char *name, const char *data)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "@@iomark-lab %s %zu\n%s\n", name, strlen(data), data);
    feed(w, buf);
}

/* A t0/t1 body as the guest's snap writes it (uptime, cpu, disk stat). */
static const char snap[] = "12.34 100 0 50 900 3 0 1 0 10 0 80 5 20 0 160 9 0 30 40\n";

static void test_phases(void)
{
    double r, m, c;
    struct iom_lab_job j = {
        .command = "run", .args = {"--ramp_time=1s", "--runtime=3s"}, .nr_args = 2};
    CHECK(iom_lab_job_phases(&j, &r, &m, &c) == 0 && NEAR(r, 1) && NEAR(m, 3) && NEAR(c, 0),
          "run: %g %g %g", r, m, c);
    struct iom_lab_job jc = {
        .command = "run", .args = {"--runtime=5s", "--cooldown_time=2s"}, .nr_args = 2};
    CHECK(iom_lab_job_phases(&jc, &r, &m, &c) == 0 && NEAR(r, 0) && NEAR(m, 5) && NEAR(c, 2),
          "run cooldown: %g %g %g", r, m, c);
    /* DiskSpd: -W warm-up, -d duration, -C cool-down, seconds (DiskSpd's usage) */
    struct iom_lab_job d = {
        .command = "diskspd", .args = {"-b8K", "-W2", "-d5", "-C1"}, .nr_args = 4};
    CHECK(iom_lab_job_phases(&d, &r, &m, &c) == 0 && NEAR(r, 2) && NEAR(m, 5) && NEAR(c, 1),
          "diskspd: %g %g %g", r, m, c);
    struct iom_lab_job s = {
        .command = "sweep", .args = {"--threads=1,2", "--runtime=2s"}, .nr_args = 2};
    CHECK(iom_lab_job_phases(&s, &r, &m, &c) == -ENOENT, "sweep has points, not one run");
    struct iom_lab_job n = {.command = "run", .args = {"--io_size=1m"}, .nr_args = 1};
    CHECK(iom_lab_job_phases(&n, &r, &m, &c) == -ENOENT, "no --runtime: no planned length");
    struct iom_lab_job bad = {
        .command = "run", .args = {"--iodepth=0", "--runtime=1s"}, .nr_args = 2};
    CHECK(iom_lab_job_phases(&bad, &r, &m, &c) == -ENOENT, "refused arguments");
}

/* A shared boot of two controllers, two jobs (a run of 1 + 3 s, a sweep of
 * two 2-second points), two runs each, and one more boot after it of one
 * controller. */
static void test_shared_boot(const char *dir)
{
    static struct iom_lab_opts o;
    struct iom_lab_hooks hooks = {.progress = record};
    memset(&o, 0, sizeof(o));
    o.nr_jobs = 2;
    o.repeat = 2;
    o.accel = "tcg";
    o.hooks = &hooks;
    snprintf(o.jobs[0].command, sizeof(o.jobs[0].command), "run");
    o.jobs[0].args[0] = "--ramp_time=1s";
    o.jobs[0].args[1] = "--runtime=3s";
    o.jobs[0].nr_args = 2;
    snprintf(o.jobs[1].command, sizeof(o.jobs[1].command), "sweep");
    o.jobs[1].args[0] = "--threads=1,2";
    o.jobs[1].args[1] = "--runtime=2s";
    o.jobs[1].nr_args = 2;
    o.nr_units = 3;
    snprintf(o.units[0].name, sizeof(o.units[0].name), "virtio-blk");
    snprintf(o.units[1].name, sizeof(o.units[1].name), "nvme");
    snprintf(o.units[2].name, sizeof(o.units[2].name), "pvscsi+vmw_pvscsi.ring_pages=32");
    double est[2];
    char err[512];
    for (int j = 0; j < 2; j++)
        CHECK(iom_lab_job_check(&o.jobs[j], 1 << 26, &est[j], err, sizeof(err)) == 0, "%s", err);
    CHECK(NEAR(est[0], 4) && NEAR(est[1], 4), "estimates %g %g", est[0], est[1]);

    struct iom_lab_unitout uo[2];
    struct iom_lab_runrec runs[2][2][2];
    struct iom_lab_jobout jobs[2][2];
    memset(uo, 0, sizeof(uo));
    memset(runs, 0, sizeof(runs));
    memset(jobs, 0, sizeof(jobs));
    for (int k = 0; k < 2; k++) {
        uo[k].u = &o.units[k];
        uo[k].boot_s = NAN;
        uo[k].jobs = jobs[k];
        for (int j = 0; j < 2; j++) {
            jobs[k][j].runs = runs[k][j];
            for (int r = 0; r < 2; r++)
                runs[k][j][r].qemu_t0 = runs[k][j][r].qemu_t1 = NAN;
        }
    }
    struct iom_lab_plan pl;
    iom_lab_plan_init(&pl, &o, est, 2);
    const double B = pl.boot_s, X = pl.run_extra_s, S = pl.shutdown_s;
    CHECK(B > 0 && X > 0 && S > 0, "TCG estimates %g %g %g", B, X, S);
    CHECK(pl.phased[0] && !pl.phased[1], "run has phases, a sweep not");
    /* boots of 2 and 1 controllers: each 2 jobs x 2 runs of 4 s + X */
    size_t gsize[2] = {2, 1};
    double run_s = 4 + X, boot1 = B + 8 * run_s + S, boot2 = B + 4 * run_s + S;
    CHECK(NEAR(iom_lab_plan_boots_s(&pl, &o, gsize, 0, 2), boot1 + boot2), "plan total");
    CHECK(NEAR(iom_lab_plan_boots_s(&pl, &o, gsize, 1, 2), boot2), "later boots");
    CHECK(iom_lab_plan_boots_s(&pl, &o, gsize, 2, 2) == 0, "no boots");

    char chan[600];
    snprintf(chan, sizeof(chan), "%s/boot-1.channel", dir);
    chan_path = chan;
    unlink(chan);
    struct iom_lab_watch w = {.chan = chan,
                              .o = &o,
                              .t_start = iom_lab_now_s(),
                              .nr_uo = 2,
                              .prefixed = true,
                              .plan = &pl,
                              .boot_no = 1,
                              .label = "virtio-blk, nvme",
                              .later_s = boot2};
    w.uo[0] = &uo[0];
    w.uo[1] = &uo[1];
    nev = 0;
    iom_lab_watch_begin(&w);
    CHECK(nev == 1 && ev[0].stage == IOM_LAB_STAGE_BOOTING, "booting first");
    CHECK(ev[0].boot == 1 && ev[0].nr_boots == 2 && strcmp(ev[0].label, "virtio-blk, nvme") == 0,
          "boot 1 of 2");
    CHECK(NEAR(ev[0].est_s, B) && NEAR(ev[0].run_s, B) && !ev[0].phased, "boot est %g",
          ev[0].est_s);
    CHECK(NEAR(ev[0].left_s, 8 * run_s + S + boot2), "left %g", ev[0].left_s);
    /* what comes before the first run reports nothing */
    section(&w, "meta", "kernel 6.1\n");
    section(&w, "1/meta", "disk vda\n");
    CHECK(nev == 1, "meta is no stage: %zu", nev);

    /* the guest's order: unit, job, run; i counts the runs */
    size_t i = 0;
    double later = boot2;
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
            for (int r = 0; r < 2; r++, i++) {
                char name[64];
                size_t before = nev;
                double later_runs = (double)(7 - i) * run_s; /* the boot's runs after this one */
                snprintf(name, sizeof(name), "%d/t0.%d.%d", k + 1, j + 1, r + 1);
                if (i == 3) { /* a header split across two reads: reported once, when whole */
                    feed(&w, "@@iomark-lab 1/t0.");
                    CHECK(nev == before, "half a header is not reported");
                    char rest[256];
                    snprintf(rest, sizeof(rest), "%d.%d %zu\n%s\n", j + 1, r + 1, strlen(snap),
                             snap);
                    feed(&w, rest);
                } else {
                    section(&w, name, snap);
                }
                CHECK(nev == before + 1, "t0 of run %zu: %zu events", i, nev - before);
                if (i == 0) {
                    /* the boot reached its first run: the next boot is estimated
                     * with this one's time to it, not the fixed estimate */
                    CHECK(uo[0].boot_s > 0 && uo[0].boot_s < B, "boot time %g", uo[0].boot_s);
                    later = uo[0].boot_s + 4 * run_s + S;
                }
                const struct iom_lab_progress *p = &ev[nev - 1];
                CHECK(p->stage == IOM_LAB_STAGE_RUN &&
                          strcmp(ev_unit[nev - 1], o.units[k].name) == 0 &&
                          p->job == (size_t)j + 1 && p->nr_jobs == 2 && p->run == (unsigned)r + 1 &&
                          p->nr_runs == 2 && p->boot == 1,
                      "run %zu: stage %d unit %s job %zu run %u", i, p->stage, ev_unit[nev - 1],
                      p->job, p->run);
                CHECK(NEAR(p->est_s, 4), "run %zu est %g", i, p->est_s);
                if (j == 0)
                    CHECK(
                        p->phased && NEAR(p->ramp_s, 1) && NEAR(p->run_s, 3) && NEAR(p->cool_s, 0),
                        "run %zu phases %d %g %g %g", i, p->phased, p->ramp_s, p->run_s, p->cool_s);
                else
                    CHECK(!p->phased && NEAR(p->ramp_s, 0) && NEAR(p->run_s, 4) &&
                              NEAR(p->cool_s, 0),
                          "sweep %zu as one block", i);
                CHECK(CLOSE(p->left_s, X + later_runs + S + later), "run %zu left %g want %g", i,
                      p->left_s, X + later_runs + S + later);
                CHECK(!isnan(runs[k][j][r].qemu_t0), "QEMU's CPU time at t0 of run %zu", i);
                /* the run's other sections report nothing */
                snprintf(name, sizeof(name), "%d/series.%d.%d", k + 1, j + 1, r + 1);
                section(&w, name, "12.4 3\n");
                CHECK(nev == before + 1, "series is no stage");
                snprintf(name, sizeof(name), "%d/t1.%d.%d", k + 1, j + 1, r + 1);
                section(&w, name, snap);
                CHECK(nev == before + 2, "t1 of run %zu", i);
                p = &ev[nev - 1];
                if (i < 7) {
                    CHECK(p->stage == IOM_LAB_STAGE_BETWEEN &&
                              strcmp(ev_unit[nev - 1], o.units[k].name) == 0 &&
                              p->job == (size_t)j + 1 && p->run == (unsigned)r + 1,
                          "after run %zu: stage %d", i, p->stage);
                    CHECK(NEAR(p->est_s, X) && NEAR(p->run_s, X), "between est %g", p->est_s);
                    CHECK(CLOSE(p->left_s, later_runs + S + later), "between %zu left %g", i,
                          p->left_s);
                } else {
                    CHECK(p->stage == IOM_LAB_STAGE_SHUTDOWN && ev_unit[nev - 1][0] == 0 &&
                              strcmp(p->label, "virtio-blk, nvme") == 0,
                          "after the last run: stage %d", p->stage);
                    CHECK(NEAR(p->est_s, X + S) && CLOSE(p->left_s, later), "shutdown %g + %g",
                          p->est_s, p->left_s);
                }
                CHECK(!isnan(runs[k][j][r].qemu_t1), "QEMU's CPU time at t1 of run %zu", i);
                snprintf(name, sizeof(name), "%d/result.%d.%d", k + 1, j + 1, r + 1);
                section(&w, name, "{\"schema\": \"iomark-result\"}");
                snprintf(name, sizeof(name), "%d/status.%d.%d", k + 1, j + 1, r + 1);
                section(&w, name, "0");
                CHECK(nev == before + 2, "results are no stage");
            }
    CHECK(nev == 17, "1 boot + 8 runs x 2 events: %zu", nev);
    /* the time left at each stage's start (its estimate + what follows) never grows */
    for (size_t e = 1; e < nev; e++)
        CHECK(ev[e].est_s + ev[e].left_s <= ev[e - 1].est_s + ev[e - 1].left_s + 1e-9,
              "event %zu: %g after %g", e, ev[e].est_s + ev[e].left_s,
              ev[e - 1].est_s + ev[e - 1].left_s);
    /* a header seen again (a re-read) is not a new stage */
    section(&w, "1/t0.1.1", snap);
    section(&w, "2/t1.2.2", snap);
    CHECK(nev == 17, "repeated headers: %zu", nev);
    section(&w, "dmesg", "[ 0.0] Linux\n");
    section(&w, "end", "ok");
    CHECK(nev == 17, "end is no stage");

    /* this host's boots are the better estimate for the next ones */
    iom_lab_plan_update(&pl, &o, 12);
    CHECK(NEAR(pl.boot_s, 12), "one boot measured: %g", pl.boot_s);
    iom_lab_plan_update(&pl, &o, NAN);
    CHECK(NEAR(pl.boot_s, 12), "a boot that did not reach a run changes nothing: %g", pl.boot_s);
    iom_lab_plan_update(&pl, &o, 14);
    CHECK(NEAR(pl.boot_s, 13), "mean of two: %g", pl.boot_s);
    CHECK(NEAR(iom_lab_plan_boots_s(&pl, &o, gsize, 1, 2), 13 + 4 * run_s + S), "later boot");
    unlink(chan);
}

/* One controller (no "K/" prefix), one run without --runtime: its length
 * and so the time left are unknown; no hook: nothing reported, no crash. */
static void test_single_unknown(const char *dir)
{
    static struct iom_lab_opts o;
    struct iom_lab_hooks hooks = {.progress = record};
    memset(&o, 0, sizeof(o));
    o.nr_jobs = 1;
    o.repeat = 1;
    o.accel = "kvm";
    o.hooks = &hooks;
    snprintf(o.jobs[0].command, sizeof(o.jobs[0].command), "run");
    o.jobs[0].args[0] = "--io_size=1m";
    o.jobs[0].nr_args = 1;
    o.nr_units = 1;
    snprintf(o.units[0].name, sizeof(o.units[0].name), "ide");
    double est[1] = {0};
    char err[512];
    CHECK(iom_lab_job_check(&o.jobs[0], 1 << 26, &est[0], err, sizeof(err)) == 0, "%s", err);
    struct iom_lab_runrec run[1];
    struct iom_lab_jobout job[1];
    struct iom_lab_unitout uo;
    memset(run, 0, sizeof(run));
    memset(job, 0, sizeof(job));
    memset(&uo, 0, sizeof(uo));
    job[0].runs = run;
    uo.u = &o.units[0];
    uo.jobs = job;
    uo.boot_s = NAN;
    struct iom_lab_plan pl;
    iom_lab_plan_init(&pl, &o, est, 1);
    size_t gsize[1] = {1};
    CHECK(iom_lab_plan_boots_s(&pl, &o, gsize, 0, 1) < 0, "unknown total");
    char chan[600];
    snprintf(chan, sizeof(chan), "%s/ide.channel", dir);
    chan_path = chan;
    unlink(chan);
    struct iom_lab_watch w = {.chan = chan,
                              .o = &o,
                              .t_start = iom_lab_now_s(),
                              .nr_uo = 1,
                              .plan = &pl,
                              .boot_no = 1,
                              .label = "ide",
                              .later_s = 0};
    w.uo[0] = &uo;
    nev = 0;
    iom_lab_watch_begin(&w);
    CHECK(nev == 1 && ev[0].stage == IOM_LAB_STAGE_BOOTING && ev[0].left_s < 0, "unknown left");
    section(&w, "t0.1.1", snap);
    CHECK(nev == 2 && ev[1].stage == IOM_LAB_STAGE_RUN && !ev[1].phased && ev[1].run_s <= 0 &&
              ev[1].left_s > 0,
          "a run of unknown length: %d %g %g", ev[1].phased, ev[1].run_s, ev[1].left_s);
    CHECK(uo.boot_s >= 0, "boot time measured at the first t0: %g", uo.boot_s);
    section(&w, "t1.1.1", snap);
    CHECK(nev == 3 && ev[2].stage == IOM_LAB_STAGE_SHUTDOWN && NEAR(ev[2].left_s, 0),
          "the only run ended: shutting down");
    /* without a progress hook the watcher still records and reports nothing */
    o.hooks = NULL;
    run[0].qemu_t0 = NAN;
    unlink(chan);
    w.offset = 0;
    w.carry[0] = 0;
    iom_lab_watch_begin(&w);
    section(&w, "t0.1.1", snap);
    CHECK(nev == 3 && !isnan(run[0].qemu_t0), "no hook");
    unlink(chan);
}

int main(void)
{
    char dir[] = "/tmp/iomark-test-lab-watch-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_phases();
    test_shared_boot(dir);
    test_single_unknown(dir);
    rmdir(dir);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("PASS\n");
    return 0;
}
