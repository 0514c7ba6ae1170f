/* test_devmon.c - /proc/diskstats parsing, iostat -x figures computed by hand,
 * the monitor on a fake root, and the run report's one other-I/O decision
 * (JSON other_io and the text note). Exit 0 pass, 1 fail. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "probe/devmon.h"
#include "report/probe_report.h"

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)
#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

static char root[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* Row A and row B of vda, 1 s apart. By hand (iostat -x formulas):
 * reads 1600-1000 = 600, writes 300-200 = 100 -> 600 r/s, 100 w/s, 700 IOPS;
 * sectors (12800-8000)+(2400-1600) = 5600 x 512 B = 2867200 B = 2.734375 MiB/s;
 * r_await (800-500)/600 = 0.5 ms; w_await (500-300)/100 = 2 ms;
 * await (300+200)/700 = 0.714285... ms; aqu-sz (1900-800)/1000 = 1.1;
 * util (1200-700)/1000 = 50 %. */
static const char *row_a = "   8       0 sdb 5 0 40 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
                           " 254       0 vda 1000 10 8000 500 200 5 1600 300 0 700 800 0 0 0 0 0 0\n"
                           " 254       1 vda1 900 10 7200 450 200 5 1600 300 0 650 750 0 0 0 0 0 0\n";
static const char *row_b = "   8       0 sdb 5 0 40 1 0 0 0 0 0 1 1 0 0 0 0 0 0\n"
                           " 254       0 vda 1600 10 12800 800 300 5 2400 500 2 1200 1900 0 0 0 0 0 0\n"
                           " 254       1 vda1 1500 10 12000 750 300 5 2400 500 2 1150 1850 0 0 0 0 0 0\n";

static void check_figures(void)
{
    struct iom_diskstats a, b;
    put("proc/diskstats", row_a);
    CHECK(iom_diskstats_read(root, "vda", &a) == 0, "read A");
    CHECK(a.rd_ios == 1000 && a.wr_sectors == 1600 && a.time_in_queue_ms == 800, "fields A");
    CHECK(iom_diskstats_read(root, "vd", &a) != 0, "no prefix match");
    CHECK(iom_diskstats_read(root, "vda", &a) == 0, "read A again");
    put("proc/diskstats", row_b);
    CHECK(iom_diskstats_read(root, "vda", &b) == 0 && b.in_flight == 2, "read B");
    struct iom_dev_figures f;
    iom_diskstats_figures(&a, &b, 1.0, &f);
    CHECK(f.ios[0] == 600 && f.ios[1] == 100, "ios %llu %llu", (unsigned long long)f.ios[0],
          (unsigned long long)f.ios[1]);
    CHECK(NEAR(f.read_iops, 600) && NEAR(f.write_iops, 100) && NEAR(f.iops, 700), "iops");
    CHECK(f.bytes[0] + f.bytes[1] == 2867200 && NEAR(f.mib_per_s, 2.734375), "MiB/s %f", f.mib_per_s);
    CHECK(NEAR(f.r_await_ms, 0.5) && NEAR(f.w_await_ms, 2.0) && NEAR(f.await_ms, 500.0 / 700),
          "await %f %f %f", f.r_await_ms, f.w_await_ms, f.await_ms);
    CHECK(NEAR(f.aqu_sz, 1.1), "aqu-sz %f", f.aqu_sz);
    CHECK(NEAR(f.util_pct, 50), "util %f", f.util_pct);
    /* over 2 s the rates halve, awaits do not */
    iom_diskstats_figures(&a, &b, 2.0, &f);
    CHECK(NEAR(f.iops, 350) && NEAR(f.aqu_sz, 0.55) && NEAR(f.util_pct, 25) && NEAR(f.r_await_ms, 0.5),
          "2 s");
    /* counters going backwards (device re-created) count as no progress */
    iom_diskstats_figures(&b, &a, 1.0, &f);
    CHECK(f.ios[0] == 0 && f.iops == 0 && f.await_ms == 0, "backwards");
    /* old kernels: 11 stat fields only */
    put("proc/diskstats", "   8       0 sda 10 0 80 5 4 0 32 2 0 7 7\n");
    CHECK(iom_diskstats_read(root, "sda", &a) == 0 && a.rd_ios == 10 && a.wr_ios == 4 &&
              a.dc_ios == 0,
          "11 fields");
}

/* The monitor's clock in these tests: set by hand, so intervals are exact. */
static uint64_t fake_ns;
static uint64_t fake_clock(void *arg)
{
    (void)arg;
    return fake_ns;
}

static void check_monitor(void)
{
    put("proc/diskstats", row_a);
    put("sys/class/block/vda/inflight", "       3        1\n");
    const char *names[3] = {"vda", "", "nvme9n9"};
    const char *notes[3] = {NULL, "tmpfs: no block device", NULL};
    struct iom_devmon *m;
    CHECK(iom_devmon_new(&m, root, names, notes, 3, 5000000) == 0, "new");
    iom_devmon_set_clock(m, fake_clock, NULL);
    fake_ns = 5000000000u; /* the window starts at 5 s and the first reading is then */
    iom_devmon_begin(m, 5000000000u);
    usleep(60000);
    put("proc/diskstats", row_b);
    fake_ns = 6000000000u; /* the tick, 1 s later, is the window's end */
    iom_devmon_tick(m, 1.0);
    iom_devmon_end(m, 6000000000u);
    struct iom_devmon_result *r0 = iom_devmon_take(m, 0), *r1 = iom_devmon_take(m, 1),
                             *r2 = iom_devmon_take(m, 2);
    CHECK(iom_devmon_take(m, 0) == NULL && iom_devmon_take(m, 3) == NULL, "take twice / range");
    iom_devmon_free(m);
    CHECK(r0 && r0->ok && strcmp(r0->device, "vda") == 0, "vda monitored");
    CHECK(r0 && r0->nr_points == 1 && NEAR(r0->points[0].f.iops, 700) &&
              NEAR(r0->points[0].f.aqu_sz, 1.1),
          "vda point");
    /* in-flight: sysfs says 3+1 = 4 on every sample (thread and tick);
     * diskstats field 12 (2) is not mixed in. How many samples the thread
     * took in 60 ms depends on scheduling (none on a busy machine): only
     * the tick's own sample is certain; check_sampler() waits for the thread. */
    CHECK(r0 && r0->total.inflight_samples >= 1 && NEAR(r0->total.inflight_max, 4) &&
              NEAR(r0->total.inflight_mean, 4),
          "inflight n=%llu max=%f mean=%f", r0 ? (unsigned long long)r0->total.inflight_samples : 0,
          r0 ? r0->total.inflight_max : 0, r0 ? r0->total.inflight_mean : 0);
    CHECK(r0 && r0->total.ios[0] == 600 && NEAR(r0->total.util_pct, 50) && NEAR(r0->total.dur_s, 1.0),
          "vda total");
    CHECK(r0 && NEAR(r0->window_start_offset_ms, 0) && NEAR(r0->window_end_offset_ms, 0),
          "window offsets %f %f", r0 ? r0->window_start_offset_ms : -1,
          r0 ? r0->window_end_offset_ms : -1);
    CHECK(r1 && !r1->ok && strcmp(r1->note, "tmpfs: no block device") == 0, "no device: note");
    CHECK(r2 && !r2->ok && strstr(r2->note, "not in /proc/diskstats"), "missing device: note");
    free(r0);
    free(r1);
    free(r2);
    /* a monitor that never began: results not ok, free is safe */
    CHECK(iom_devmon_new(&m, root, names, notes, 3, 0) == 0, "new 2");
    iom_devmon_tick(m, 1);
    iom_devmon_end(m, 1);
    struct iom_devmon_result *x = iom_devmon_take(m, 0);
    CHECK(x && !x->ok, "never began");
    free(x);
    iom_devmon_free(m);
    iom_devmon_free(NULL);
}

/* The device's window is its own readings' (a run's control thread can wake
 * late for the window's start on a busy machine: the run counts from the
 * scheduled instant, the device from its first reading). Rows A and B by
 * hand over the device's interval, not the run's:
 * first reading 300 ms after the window began, the tick 100 ms after it
 * ended (a 1 s window): 0.8 s -> 600/0.8 = 750 r/s, 100/0.8 = 125 w/s,
 * 875 IOPS, aqu-sz 1100/800 = 1.375, util 500/800 = 62.5 %. Without a tick,
 * the end reads afresh: first reading 2 ms before the window, the last 5 ms
 * before its end: 0.997 s, 700/0.997 IOPS. */
static void check_late_window(void)
{
    const char *names[1] = {"vda"};
    const uint64_t w = 10000000000u; /* the run's window: [10 s, 11 s) */
    struct iom_devmon *m;
    put("proc/diskstats", row_a);
    put("sys/class/block/vda/inflight", "       0        1\n");
    CHECK(iom_devmon_new(&m, root, names, NULL, 1, 0) == 0, "new (late)");
    iom_devmon_set_clock(m, fake_clock, NULL);
    fake_ns = w + 300000000u;
    iom_devmon_begin(m, w);
    put("proc/diskstats", row_b);
    fake_ns = w + 1100000000u;
    iom_devmon_tick(m, 1.0);
    iom_devmon_end(m, w + 1000000000u);
    struct iom_devmon_result *r = iom_devmon_take(m, 0);
    iom_devmon_free(m);
    CHECK(r && r->ok && r->nr_points == 1, "late: one point");
    if (r) {
        CHECK(NEAR(r->window_start_offset_ms, 300) && NEAR(r->window_end_offset_ms, 100),
              "late: offsets %f %f", r->window_start_offset_ms, r->window_end_offset_ms);
        CHECK(NEAR(r->total.dur_s, 0.8) && NEAR(r->points[0].f.dur_s, 0.8), "late: dur %f %f",
              r->total.dur_s, r->points[0].f.dur_s);
        CHECK(NEAR(r->total.read_iops, 750) && NEAR(r->total.write_iops, 125) &&
                  NEAR(r->total.iops, 875) && NEAR(r->points[0].f.iops, 875),
              "late: iops %f %f %f", r->total.read_iops, r->total.write_iops, r->total.iops);
        CHECK(NEAR(r->total.aqu_sz, 1.375) && NEAR(r->total.util_pct, 62.5),
              "late: aqu-sz %f util %f", r->total.aqu_sz, r->total.util_pct);
        CHECK(r->total.ios[0] == 600 && r->total.ios[1] == 100, "late: counts");
    }
    free(r);
    put("proc/diskstats", row_a);
    CHECK(iom_devmon_new(&m, root, names, NULL, 1, 0) == 0, "new (early)");
    iom_devmon_set_clock(m, fake_clock, NULL);
    fake_ns = w - 2000000u;
    iom_devmon_begin(m, w);
    put("proc/diskstats", row_b);
    fake_ns = w + 995000000u;
    iom_devmon_end(m, w + 1000000000u);
    r = iom_devmon_take(m, 0);
    iom_devmon_free(m);
    CHECK(r && r->ok && r->nr_points == 0, "early: no point");
    if (r) {
        CHECK(NEAR(r->window_start_offset_ms, -2) && NEAR(r->window_end_offset_ms, -5),
              "early: offsets %f %f", r->window_start_offset_ms, r->window_end_offset_ms);
        CHECK(NEAR(r->total.dur_s, 0.997) && NEAR(r->total.iops, 700 / 0.997) &&
                  r->total.ios[0] == 600,
              "early: dur %f iops %f", r->total.dur_s, r->total.iops);
    }
    free(r);
}

/* The sampler thread adds in-flight samples between ticks; a tick adds
 * exactly one of its own, so a total above 1 after one tick means the
 * thread sampled. How soon a thread runs depends on scheduling: instead of
 * assuming a fixed time, try again with a longer wait (up to about 40 s in
 * all) until the thread has run; every sample must read 2+5 = 7. */
static void check_sampler(void)
{
    put("proc/diskstats", row_a);
    put("sys/class/block/vda/inflight", "       2        5\n");
    const char *names[1] = {"vda"};
    uint64_t n = 0;
    for (unsigned wait_us = 5000; n <= 1 && wait_us <= 40000000; wait_us *= 2) {
        struct iom_devmon *m;
        CHECK(iom_devmon_new(&m, root, names, NULL, 1, 1000000) == 0, "new (sampler)");
        iom_devmon_begin(m, 0);
        usleep(wait_us);
        iom_devmon_tick(m, 1.0);
        iom_devmon_end(m, 0);
        struct iom_devmon_result *r = iom_devmon_take(m, 0);
        iom_devmon_free(m);
        CHECK(r && r->ok && r->total.inflight_samples >= 1 && NEAR(r->total.inflight_max, 7) &&
                  NEAR(r->total.inflight_mean, 7),
              "sampler: n=%llu max %f mean %f", r ? (unsigned long long)r->total.inflight_samples : 0,
              r ? r->total.inflight_max : 0, r ? r->total.inflight_mean : 0);
        n = r ? r->total.inflight_samples : 0;
        free(r);
    }
    CHECK(n > 1, "the sampler thread never sampled (n=%llu)", (unsigned long long)n);
}

/* The sampler keeps the inflight file open and reads it again from the
 * start each time (sysfs regenerates it): after the file changes from 2+5
 * to 4+4 in place (same inode), later samples read 8. Every sample is a 7
 * or an 8, so the number of 8s is sum - 7 n = n (mean - 7); the tick adds
 * one 8 of its own (it opens the file), so two or more 8s mean the sampler
 * itself read the new value through its open descriptor. Waits grow until
 * the thread has run (scheduling on a loaded machine). */
static void check_sampler_rereads(void)
{
    put("proc/diskstats", row_a);
    const char *names[1] = {"vda"};
    double eights = 0;
    for (unsigned wait_us = 5000; eights < 1.5 && wait_us <= 20000000; wait_us *= 2) {
        struct iom_devmon *m;
        put("sys/class/block/vda/inflight", "       2        5\n");
        CHECK(iom_devmon_new(&m, root, names, NULL, 1, 1000000) == 0, "new (re-read)");
        iom_devmon_begin(m, 0);
        usleep(wait_us);
        put("sys/class/block/vda/inflight", "       4        4\n");
        usleep(wait_us);
        iom_devmon_tick(m, 1.0);
        iom_devmon_end(m, 0);
        struct iom_devmon_result *r = iom_devmon_take(m, 0);
        iom_devmon_free(m);
        CHECK(r && r->ok && NEAR(r->total.inflight_max, 8) && r->total.inflight_mean >= 7 - 1e-9,
              "re-read: max %f mean %f", r ? r->total.inflight_max : 0,
              r ? r->total.inflight_mean : 0);
        if (r)
            eights = (double)r->total.inflight_samples * (r->total.inflight_mean - 7);
        free(r);
    }
    CHECK(eights > 1.5, "the sampler never read the changed inflight file again (%.1f samples of 8)",
          eights);
}

/* The virtio_blk captured tree carries one diskstats snapshot and an inflight
 * file (tests/data/sysfs/README.md): the readers work on it. */
static void check_tree(void)
{
    char src[512], dir[600];
    snprintf(src, sizeof(src), "%s", __FILE__);
    char *slash = strrchr(src, '/');
    if (!slash)
        return;
    *slash = '\0';
    snprintf(dir, sizeof(dir), "%s/../data/sysfs/virtio_blk", src);
    if (access(dir, F_OK) != 0)
        return;
    struct iom_diskstats s;
    CHECK(iom_diskstats_read(dir, "vda1", &s) == 0 && s.rd_ios == 900 && s.rd_sectors == 7200 &&
              s.time_in_queue_ms == 750,
          "tree vda1 row");
    uint64_t r = 0, w = 0;
    CHECK(iom_inflight_read(dir, "vda", &r, &w) == 0 && r == 3 && w == 1, "tree inflight %llu %llu",
          (unsigned long long)r, (unsigned long long)w);
    CHECK(iom_inflight_read(dir, "vdz", &r, &w) != 0, "missing device");
}

/* The JSON's other_io and the text report's note (and its "the device also
 * served other I/O" line) are one decision: the device's I/O count or bytes
 * more than 5% from iomark's. By hand: iomark 10000 reads of 4096 B =
 * 40960000 B; the device
 *  (a) 10100 reads (+1%) of 80000000 B (x 1.953125: +95.3125%): the case the
 *      note missed (it looked at the count only) while other_io was true;
 *  (b) 10600 reads (+6%) of 41369600 B (+1%): other I/O by the count;
 *  (c) 10050 reads (+0.5%) of 41164800 B (+0.5%): iomark's I/O alone. */
static void check_other_io_one_rule(void)
{
    static const struct {
        uint64_t dev_n, dev_b;
        bool other;
        double n_pct, b_pct;
        const char *note;
    } cases[] = {
        {10100, 80000000, true, 1.0, 95.3125, "note: the device counted +1.0% I/Os and +95.3% bytes"},
        {10600, 41369600, true, 6.0, 1.0, "note: the device counted +6.0% I/Os and +1.0% bytes"},
        {10050, 41164800, false, 0.5, 0.5, NULL},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct iom_result *r = calloc(1, sizeof(*r));
        struct iom_target_result *t = calloc(1, sizeof(*t));
        struct iom_devmon_result *d = calloc(1, sizeof(*d));
        if (!r || !t || !d) {
            CHECK(0, "out of memory");
            return;
        }
        r->nr_targets = 1;
        r->targets = t;
        r->measured_ns = 1000000000u;
        t->dir[0].ios = 10000;
        t->dir[0].bytes = 40960000;
        t->dir[0].lat_sum_ns = 2000000000u; /* 2 outstanding over 1 s */
        t->device_mon = d;
        snprintf(d->device, sizeof(d->device), "vda");
        d->ok = true;
        d->inflight_period_ns = 10000000u;
        d->total.dur_s = 1;
        d->total.ios[0] = cases[k].dev_n;
        d->total.bytes[0] = cases[k].dev_b;
        d->total.aqu_sz = 1.5;

        cJSON *o = cJSON_CreateObject();
        iom_probe_json_run_target(o, r, 0);
        cJSON *m = cJSON_GetObjectItem(o, "device_monitor");
        cJSON *oi = cJSON_GetObjectItem(m, "other_io");
        cJSON *np = cJSON_GetObjectItem(m, "device_vs_iomark_ios_pct");
        cJSON *bp = cJSON_GetObjectItem(m, "device_vs_iomark_bytes_pct");
        cJSON *ib = cJSON_GetObjectItem(m, "iomark_bytes");
        CHECK(cJSON_IsBool(oi) && cJSON_IsTrue(oi) == cases[k].other, "case %zu: other_io", k);
        CHECK(cJSON_IsNumber(np) && fabs(np->valuedouble - cases[k].n_pct) < 1e-9,
              "case %zu: ios pct %g, want %g", k, np ? np->valuedouble : -1, cases[k].n_pct);
        CHECK(cJSON_IsNumber(bp) && fabs(bp->valuedouble - cases[k].b_pct) < 1e-9,
              "case %zu: bytes pct %g, want %g", k, bp ? bp->valuedouble : -1, cases[k].b_pct);
        CHECK(cJSON_IsNumber(ib) && ib->valuedouble == 40960000, "case %zu: iomark_bytes", k);
        /* other I/O: the waiting split is not given */
        CHECK(cJSON_IsNull(cJSON_GetObjectItem(m, "waiting_above_device_mean")) == cases[k].other,
              "case %zu: waiting_above_device_mean null iff other_io", k);
        cJSON_Delete(o);

        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f) {
            CHECK(0, "open_memstream");
            return;
        }
        iom_probe_text_run(f, r);
        fclose(f);
        bool note = strstr(text, "note: the device counted") != NULL;
        bool served = strstr(text, "the device also served other I/O") != NULL;
        CHECK(note == cases[k].other && served == cases[k].other,
              "case %zu: note %d, 'also served' %d, other_io %d:\n%s", k, note, served,
              cases[k].other, text);
        CHECK(!cases[k].note || strstr(text, cases[k].note), "case %zu: no '%s' in\n%s", k,
              cases[k].note, text);
        free(text);
        free(d);
        free(t);
        free(r);
    }
}

int main(void)
{
    snprintf(root, sizeof(root), "/tmp/iomark-devmon-XXXXXX");
    if (!mkdtemp(root))
        return 1;
    char p[256];
    snprintf(p, sizeof(p), "%s/proc", root);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/sys", root);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/sys/class", root);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/sys/class/block", root);
    mkdir(p, 0755);
    snprintf(p, sizeof(p), "%s/sys/class/block/vda", root);
    mkdir(p, 0755);
    check_figures();
    check_monitor();
    check_late_window();
    check_sampler();
    check_sampler_rereads();
    check_tree();
    check_other_io_one_rule();
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", root);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok: diskstats figures, monitor, one other-I/O rule for note and JSON\n");
    return 0;
}
