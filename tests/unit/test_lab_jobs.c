/*
 * test_lab_jobs.c - the lab's host-side job pieces without booting QEMU:
 * guest parameters checked against the .modinfo strings of .ko files in a
 * cpio (the strings' format is the kernel's: include/linux/moduleparam.h
 * writes "parmtype=NAME:TYPE", MODULE_PARM_DESC "parm=NAME:DESC"), the
 * guest's counters around a run (values chosen here, expected results worked
 * out by hand from Documentation/block/stat.rst's field order), sweep point
 * windows, study files with ${T:}/${S:} scaling, and the guest arguments of
 * each command.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/image.h"
#include "lab/lab.h"
#include "lab/labrun.h"

#include "checkf.h"

static void test_modparams(const char *dir)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/base.cpio", dir);
    struct iom_cpio c;
    CHECK(iom_cpio_open(&c, path) == 0, "open");
    /* a .modinfo as the kernel lays it out: NUL-separated key=value strings */
    static const char pv[] = "junk\0license=GPL\0parmtype=ring_pages:int\0"
                             "parm=ring_pages:Number of pages per req ring - (default=8)\0"
                             "parmtype=cmd_per_lun:int\0parm=cmd_per_lun:Maximum commands\0";
    /* nvme's io_queue_depth is a module_param_cb: parm= only, no parmtype= */
    static const char nv[] = "\0parm=io_queue_depth:set io queue depth\0parmtype=noacpi:bool\0";
    iom_cpio_add_dir(&c, "lib", 0755);
    iom_cpio_add_data(&c, "lib/modules/x/kernel/drivers/scsi/vmw_pvscsi.ko", 0644, pv, sizeof(pv));
    iom_cpio_add_data(&c, "lib/modules/x/kernel/drivers/nvme/host/nvme.ko", 0644, nv, sizeof(nv));
    iom_cpio_add_data(&c, "lib/modules/x/kernel/fs/mbcache.ko", 0644, "x", 1);
    iom_cpio_add_data(&c, "etc/notes.txt", 0644, "parmtype=fake:int", 17);
    CHECK(iom_cpio_close(&c) == 0, "close");
    char *text = NULL;
    CHECK(iom_lab_modparams_load(path, &text) == 0, "load");
    if (!text)
        return;
    CHECK(strstr(text, "vmw_pvscsi ring_pages int\n") != NULL, "%s", text);
    CHECK(strstr(text, "vmw_pvscsi cmd_per_lun int\n") != NULL, "%s", text);
    CHECK(strstr(text, "nvme io_queue_depth -\n") != NULL, "%s", text);
    CHECK(strstr(text, "nvme noacpi bool\n") != NULL, "%s", text);
    CHECK(strstr(text, "mbcache - -\n") != NULL, "%s", text);
    CHECK(strstr(text, "fake") == NULL, "a non-.ko file was scanned: %s", text);
    /* ring_pages once although both parm= and parmtype= name it */
    const char *first = strstr(text, "vmw_pvscsi ring_pages");
    CHECK(first && !strstr(first + 1, "vmw_pvscsi ring_pages"), "%s", text);
    char err[512];
    CHECK(iom_lab_param_check("vmw_pvscsi.ring_pages=32", text, err, sizeof(err)) == 0, "%s", err);
    CHECK(iom_lab_param_check("vmw-pvscsi.ring_pages=32", text, err, sizeof(err)) == 0, "dash");
    CHECK(iom_lab_param_check("nvme.io_queue_depth=64", text, err, sizeof(err)) == 0, "%s", err);
    CHECK(iom_lab_param_check("mitigations=off", text, err, sizeof(err)) == 0, "kernel param");
    CHECK(iom_lab_param_check("nvme.bogus_param=1", text, err, sizeof(err)) == -EINVAL, "bogus");
    CHECK(strcmp(err, "nvme has no parameter bogus_param; allowed: noacpi, io_queue_depth") == 0 ||
              strcmp(err, "nvme has no parameter bogus_param; allowed: io_queue_depth, noacpi") == 0,
          "%s", err);
    CHECK(iom_lab_param_check("mbcache.x=1", text, err, sizeof(err)) == -EINVAL, "none");
    CHECK(strstr(err, "has no parameters") != NULL, "%s", err);
    CHECK(iom_lab_param_check("floppy.x=1", text, err, sizeof(err)) == -EINVAL, "module");
    CHECK(strstr(err, "module floppy is not in the guest image; allowed: ") != NULL, "%s", err);
    /* a name one letter off: the nearest of the module's parameters, or of the modules */
    CHECK(iom_lab_param_check("nvme.io_queue_dept=1", text, err, sizeof(err)) == -EINVAL, "near");
    CHECK(strncmp(err, "nvme has no parameter io_queue_dept; did you mean io_queue_depth? "
                       "allowed: ", 75) == 0, "%s", err);
    CHECK(iom_lab_param_check("nvmee.io_queue_depth=1", text, err, sizeof(err)) == -EINVAL, "mod");
    CHECK(strncmp(err, "module nvmee is not in the guest image; did you mean nvme? allowed: ", 68) == 0,
          "%s", err);
    free(text);
    unlink(path);
}

static void test_io(void)
{
    /* t0/t1: uptime, cpu user nice system idle iowait irq softirq steal, disk
     * rd_ios rd_merges rd_sectors rd_ticks wr_ios wr_merges wr_sectors
     * wr_ticks in_flight io_ticks time_in_queue; t1 then "count sum max" */
    const char *t0 = "100.00 1000 0 500 9000 0 10 20 0 "
                     "5000 0 40000 3000 1000 0 8000 700 0 2000 3700\n";
    const char *t1 = "104.00 1300 0 600 9400 0 30 50 0 "
                     "9000 0 72000 9000 1500 0 12000 1500 0 5600 27700\n"
                     "40 400 32\n";
    struct iom_lab_io io;
    iom_lab_io_from(t0, t1, &io);
    CHECK(io.have, "have");
    CHECK(fabs(io.wall_s - 4.0) < 1e-9, "%g", io.wall_s);
    /* (9000-5000) + (1500-1000) */
    CHECK(io.ios == 4500, "%g", io.ios);
    /* (72000-40000) + (12000-8000) */
    CHECK(io.sectors == 36000, "%g", io.sectors);
    /* busy = user 300 + system 100 + irq 20 + softirq 30 = 450 jiffies = 4.5 s */
    CHECK(fabs(io.guest_cpu_s - 4.5) < 1e-9, "%g", io.guest_cpu_s);
    /* time_in_queue 24000 ms over 4 s = 6.0; io_ticks 3600 ms / 4000 ms = 90% */
    CHECK(fabs(io.aqu_sz - 6.0) < 1e-9, "%g", io.aqu_sz);
    CHECK(fabs(io.util_pct - 90.0) < 1e-9, "%g", io.util_pct);
    CHECK(fabs(io.inflight_mean - 10.0) < 1e-9 && io.inflight_max == 32, "%g %g",
          io.inflight_mean, io.inflight_max);
    iom_lab_io_from(t0, NULL, &io);
    CHECK(!io.have, "no t1");

    /* sweep windows: 3 points over 30 s from uptime 100; each window keeps
     * its middle 80% (101-109, 111-119, 121-129) */
    struct iom_lab_runrec r;
    memset(&r, 0, sizeof(r));
    r.io.have = true;
    r.io.t0_uptime = 100;
    r.io.wall_s = 30;
    const char *series = "100.5 50\n102.0 1\n105.0 1\n108.0 3\n"
                         "112.0 7\n115.0 9\n"
                         "122.0 20\n128.0 30\n129.5 99\n";
    iom_lab_points_from_series(series, &r, 3);
    CHECK(r.nr_points == 3, "%u", r.nr_points);
    CHECK(fabs(r.points[0].inflight_mean - 5.0 / 3) < 1e-9 && r.points[0].inflight_max == 3,
          "%g %g", r.points[0].inflight_mean, r.points[0].inflight_max);
    CHECK(r.points[1].inflight_mean == 8 && r.points[1].inflight_max == 9, "%g",
          r.points[1].inflight_mean);
    CHECK(r.points[2].inflight_mean == 25 && r.points[2].inflight_max == 30, "%g",
          r.points[2].inflight_mean);
}

static void test_study(const char *dir)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/t.study", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "# test\ntitle A test study\ndisk-size ${S:512M}\nvariant pvscsi\n"
               "variant pvscsi+vmw_pvscsi.ring_pages=32+vmw_pvscsi.cmd_per_lun=254\n"
               "workload diskspd -b8K -d${T:60} -W${T:5} -c${S:100M}\n"
               "workload tpcc --runtime=${T:7}\n");
    fclose(f);
    struct iom_lab_opts *o = calloc(1, sizeof(*o));
    char err[512] = "";
    CHECK(iom_lab_study_load(o, path, 0.25, err, sizeof(err)) == 0, "%s", err);
    CHECK(o->nr_units == 2 && o->nr_jobs == 2, "%zu %zu", o->nr_units, o->nr_jobs);
    CHECK(strcmp(o->study_title, "A test study") == 0, "%s", o->study_title);
    /* 512M x 0.25 = 128 MiB */
    CHECK(o->disk_bytes == 128ull << 20, "%llu", (unsigned long long)o->disk_bytes);
    CHECK(strcmp(o->units[1].name, "pvscsi+vmw_pvscsi.ring_pages=32+vmw_pvscsi.cmd_per_lun=254") == 0,
          "%s", o->units[1].name);
    CHECK(o->units[1].nr_params == 2 && strcmp(o->units[1].params[0], "vmw_pvscsi.ring_pages=32") == 0 &&
              strcmp(o->units[1].params[1], "vmw_pvscsi.cmd_per_lun=254") == 0,
          "params");
    /* 60 x 0.25 = 15; 5 x 0.25 = 1.25 -> at least 2; 100M x 0.25 = 25M; 7 x 0.25 = 1.75 -> 2 */
    CHECK(strcmp(o->jobs[0].command, "diskspd") == 0 && o->jobs[0].nr_args == 4, "%zu",
          o->jobs[0].nr_args);
    CHECK(strcmp(o->jobs[0].args[1], "-d15") == 0, "%s", o->jobs[0].args[1]);
    CHECK(strcmp(o->jobs[0].args[2], "-W2") == 0, "%s", o->jobs[0].args[2]);
    CHECK(strcmp(o->jobs[0].args[3], "-c25M") == 0, "%s", o->jobs[0].args[3]);
    CHECK(strcmp(o->jobs[1].args[0], "--runtime=2") == 0, "%s", o->jobs[1].args[0]);
    iom_lab_opts_free(o);
    memset(o, 0, sizeof(*o));
    f = fopen(path, "w");
    fprintf(f, "variant floppy\nworkload run\n");
    fclose(f);
    CHECK(iom_lab_study_load(o, path, 1, err, sizeof(err)) == -EINVAL, "floppy");
    CHECK(strstr(err, ":1: floppy: unknown controller") != NULL, "%s", err);
    iom_lab_opts_free(o);
    memset(o, 0, sizeof(*o));
    f = fopen(path, "w");
    fprintf(f, "variant nvme\nbogus line\n");
    fclose(f);
    CHECK(iom_lab_study_load(o, path, 1, err, sizeof(err)) == -EINVAL, "keyword");
    CHECK(strstr(err, ":2: bogus: unknown keyword") != NULL, "%s", err);
    iom_lab_opts_free(o);
    free(o);
    unlink(path);
}

static void test_guest_args(void)
{
    struct iom_lab_job j;
    memset(&j, 0, sizeof(j));
    const char *out[32];
    char sz[40];
    snprintf(j.command, sizeof(j.command), "diskspd");
    j.args[j.nr_args++] = "-b8K";
    size_t n = iom_lab_job_guest_args(&j, 1 << 20, sz, sizeof(sz), out, 32);
    const char *want_d[] = {"-b8K", "-Rxml", "--quiet", "--force", "@OUTPUT@", "@DISK@"};
    CHECK(n == 6, "%zu", n);
    for (size_t i = 0; i < n && i < 6; i++)
        CHECK(strcmp(out[i], want_d[i]) == 0, "%zu: %s", i, out[i]);
    snprintf(j.command, sizeof(j.command), "tpcc");
    j.args[0] = "--vu=2";
    n = iom_lab_job_guest_args(&j, 1 << 20, sz, sizeof(sz), out, 32);
    const char *want_t[] = {"--vu=2", "@DB@", "--output-format=json", "--quiet", "@OUTPUT@"};
    CHECK(n == 5, "%zu", n);
    for (size_t i = 0; i < n && i < 5; i++)
        CHECK(strcmp(out[i], want_t[i]) == 0, "%zu: %s", i, out[i]);
    snprintf(j.command, sizeof(j.command), "mark");
    j.nr_args = 0;
    n = iom_lab_job_guest_args(&j, 64ull << 20, sz, sizeof(sz), out, 32);
    CHECK(n == 6 && strcmp(out[0], "--size=67108864") == 0, "%zu %s", n, out[0]);
    /* the old form: the lab's default workload, an option given replaces its default */
    snprintf(j.command, sizeof(j.command), "run");
    j.lab_defaults = true;
    j.args[j.nr_args++] = "--iodepth=4";
    n = iom_lab_job_guest_args(&j, 1 << 20, sz, sizeof(sz), out, 32);
    int depth = 0;
    for (size_t i = 0; i < n; i++)
        depth += strncmp(out[i], "--iodepth", 9) == 0;
    CHECK(depth == 1 && n == 6 + 5, "%d %zu", depth, n);
    /* its label (lab.txt, lab.json, the report) is the workload the guest runs:
     * the defaults kept, in order, then what was typed (written out here by hand) */
    iom_lab_job_label(&j);
    CHECK(strcmp(j.label, "run --rw=randread --bs=4k --numjobs=2 --ramp_time=2s --runtime=10s "
                          "--iodepth=4") == 0, "%s", j.label);
    j.args[j.nr_args++] = "--profile=oltp";
    iom_lab_job_label(&j);
    CHECK(strcmp(j.label, "run --iodepth=4 --profile=oltp") == 0, "a profile brings its own: %s", j.label);
    j.nr_args--;
    char err[256];
    double est;
    j.lab_defaults = false;
    snprintf(j.command, sizeof(j.command), "sweep");
    j.nr_args = 0;
    j.args[j.nr_args++] = "--threads=1,8,16";
    j.args[j.nr_args++] = "--runtime=5s";
    j.args[j.nr_args++] = "--ramp_time=1s";
    CHECK(iom_lab_job_check(&j, 1 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - 18) < 1e-9, "3 points x 6 s: %g", est);
    snprintf(j.command, sizeof(j.command), "diskspd");
    j.nr_args = 0;
    j.args[j.nr_args++] = "-d7";
    j.args[j.nr_args++] = "-W3";
    CHECK(iom_lab_job_check(&j, 1 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - 10) < 1e-9, "%g", est);
    j.args[j.nr_args++] = "/dev/sda";
    CHECK(iom_lab_job_check(&j, 1 << 20, &est, err, sizeof(err)) == -EINVAL, "target");
    CHECK(iom_lab_job_watchdog_s(&j, 1 << 20) == 3 * 600 + 60, "refused: %u",
          iom_lab_job_watchdog_s(&j, 1 << 20));
}

/* The estimate of a run (progress line, --dry-run) against the bound (the
 * guest's watchdog): mark and tpcc. Expected values worked out by hand from
 * docs/mark.md's presets (peak: SEQ1M Q8T1 and RND4K Q32T1, each read then
 * written; default: 4 tests; defaults 5 runs of 5 s, a 5 s preparation run
 * per test and direction, 5 s between tests) and iomark tpcc's defaults
 * (ramp 2 min, run 5 min, 1 warehouse) with the lab's 30 s load per
 * warehouse (src/lab/jobs.c). */
static void test_estimates(void)
{
    struct iom_lab_job j;
    char err[256];
    double est;
    memset(&j, 0, sizeof(j));
    snprintf(j.command, sizeof(j.command), "mark");
    /* the trial's job: 2 tests x 2 directions x 1 run x 1 s, no preparation, no pauses */
    j.args[j.nr_args++] = "--profile=peak";
    j.args[j.nr_args++] = "--runs=1";
    j.args[j.nr_args++] = "--prepare=0";
    j.args[j.nr_args++] = "--pause=0";
    j.args[j.nr_args++] = "--runtime=1s";
    j.args[j.nr_args++] = "--size=32M";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - 4) < 1e-9, "peak 2 x 2 x 1 s: %g", est);
    /* bound: 3 x (4 + 600) + 60 */
    CHECK(iom_lab_job_watchdog_s(&j, 64 << 20) == 1872, "%u", iom_lab_job_watchdog_s(&j, 64 << 20));
    /* mark's defaults: 4 tests x 2 x (5 runs x 5 s + 5 s preparation) + 7 pauses x 5 s */
    j.nr_args = 0;
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - (8 * 30 + 35)) < 1e-9, "default: %g", est);
    /* peak, 2 runs of 3 s with a 1 s ramp each, "--pause 2" (its value in the
     * next word): 2 x 2 x (2 x 4 s + 1 s ramp + 5 s preparation) + 3 x 2 s */
    j.args[j.nr_args++] = "--profile";
    j.args[j.nr_args++] = "peak";
    j.args[j.nr_args++] = "--runs=2";
    j.args[j.nr_args++] = "--runtime=3s";
    j.args[j.nr_args++] = "--ramp_time=1s";
    j.args[j.nr_args++] = "--pause";
    j.args[j.nr_args++] = "2";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - (4 * 14 + 6)) < 1e-9, "peak 2 runs: %g", est);
    /* KDiskMark's convention: no preparation run unless --prepare */
    j.args[j.nr_args++] = "--statistic=kdiskmark";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - (4 * 8 + 6)) < 1e-9, "kdiskmark: %g", est);
    /* mark's own parser on the host: a pattern option and a target are refused */
    j.args[j.nr_args++] = "--bs=8k";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == -EINVAL &&
              strstr(err, "--bs") != NULL, "%s", err);
    j.args[j.nr_args - 1] = "/dev/sdb";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == -EINVAL &&
              strstr(err, "/dev/sdb") != NULL, "%s", err);
    j.args[j.nr_args - 1] = "--runs=0";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == -EINVAL &&
              strstr(err, "--runs=0") != NULL, "%s", err);

    /* tpcc: ramp + runtime + 30 s per warehouse; the bound keeps 600 s for the load */
    memset(&j, 0, sizeof(j));
    snprintf(j.command, sizeof(j.command), "tpcc");
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - (120 + 300 + 30)) < 1e-9, "tpcc defaults: %g", est);
    CHECK(iom_lab_job_watchdog_s(&j, 64 << 20) == 3 * (120 + 300 + 600) + 60, "%u",
          iom_lab_job_watchdog_s(&j, 64 << 20));
    j.args[j.nr_args++] = "--warehouses=2";
    j.args[j.nr_args++] = "--vu=2";
    j.args[j.nr_args++] = "--ramp_time=10s";
    j.args[j.nr_args++] = "--runtime=1m";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0, "%s", err);
    CHECK(fabs(est - (10 + 60 + 2 * 30)) < 1e-9, "tpcc 2 warehouses: %g", est);
    CHECK(iom_lab_job_watchdog_s(&j, 64 << 20) == 3 * (10 + 60 + 600) + 60, "%u",
          iom_lab_job_watchdog_s(&j, 64 << 20));
    /* run: the bound is the estimate's, 3 x (2 + 10) + 60 */
    memset(&j, 0, sizeof(j));
    snprintf(j.command, sizeof(j.command), "run");
    j.args[j.nr_args++] = "--ramp_time=2s";
    j.args[j.nr_args++] = "--runtime=10s";
    CHECK(iom_lab_job_check(&j, 64 << 20, &est, err, sizeof(err)) == 0 && fabs(est - 12) < 1e-9,
          "%s %g", err, est);
    CHECK(iom_lab_job_watchdog_s(&j, 64 << 20) == 96, "%u", iom_lab_job_watchdog_s(&j, 64 << 20));
}

int main(void)
{
    char dir[] = "/tmp/test_lab_jobs.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    test_modparams(dir);
    test_io();
    test_study(dir);
    test_guest_args();
    test_estimates();
    rmdir(dir);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
