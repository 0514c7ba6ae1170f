/*
 * test_import.c - every real result file in tests/data/results imports
 * with the values it holds. Expected numbers were read by hand from the
 * files (line or element named in each comment); derived ones (MiB/s from
 * bytes and runtime, sums over threads) were worked out by hand from those.
 * (Sources of the files: tests/data/SOURCES.md.)
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import/import.h"

static int fails;
static char dir[1024];

#define NEAR(got, want, rel)                                                                   \
    do {                                                                                       \
        double g_ = (got), w_ = (want);                                                        \
        if (!(fabs(g_ - w_) <= fabs(w_) * (rel) + 1e-9)) {                                     \
            fprintf(stderr, "%s:%d: %s = %.9g, want %.9g\n", __FILE__, __LINE__, #got, g_, w_); \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

#define CHECK(c)                                                                               \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #c);                    \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

static struct iom_imp_result *load(const char *name)
{
    char path[1200], err[700];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct iom_imp_result *r = NULL;
    int rc = iom_import_file(path, &r, err, sizeof(err));
    if (rc) {
        fprintf(stderr, "%s: import failed: %s\n", name, err);
        fails++;
        return NULL;
    }
    return r;
}

static const struct iom_imp_workload *wl(const struct iom_imp_result *r, const char *name)
{
    for (uint32_t i = 0; r && i < r->nr_workloads; i++)
        if (strcmp(r->w[i].name, name) == 0)
            return &r->w[i];
    fprintf(stderr, "workload '%s' not found\n", name);
    fails++;
    return NULL;
}

static void refused(const char *name, const char *why)
{
    char path[1200], err[700] = "";
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct iom_imp_result *r = NULL;
    int rc = iom_import_file(path, &r, err, sizeof(err));
    CHECK(rc == -EINVAL && r == NULL);
    if (!strstr(err, name) || !strstr(err, why)) {
        fprintf(stderr, "%s: message '%s' lacks the name or '%s'\n", name, err, why);
        fails++;
    }
}

static void fio_json(void)
{
    /* fio 2.1.4: usec, io_bytes in KiB, 5 jobs */
    struct iom_imp_result *r = load("fio_json_1.json");
    if (!r)
        return;
    CHECK(strcmp(r->format, "fio-json") == 0 && strcmp(r->tool, "fio-2.1.4") == 0);
    CHECK(r->nr_workloads == 5);
    const struct iom_imp_workload *w = wl(r, "random_write_test");
    if (w) {
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[1].iops, 1610, 0);              /* "iops" : 1610 */
        NEAR(u->dir[1].lat_mean_us, 617.69, 1e-9);  /* lat.mean 617.69 (usec) */
        NEAR(u->dir[1].lat_p99_us, 1688, 1e-9);     /* clat "99.000000" : 1688, line 492 */
        /* io_bytes 36244 KiB in runtime 5625 ms: 36244*1024/5.625/2^20 = 6.29236 MiB/s */
        NEAR(u->dir[1].mib_per_s, 6.29236, 1e-5);
        NEAR(u->dir[2].iops, 1610, 0);
        NEAR(u->cpu_proc_pct, 1.42 + 4.84, 1e-9);   /* usr_cpu + sys_cpu */
    }
    w = wl(r, "sequential_read");
    if (w)
        NEAR(w->runs[0].dir[0].lat_p99_us, 473088, 1e-9); /* line 241 */
    iom_imp_result_free(r);

    /* fio 2.18: io_bytes=2932 is KiB; usec */
    r = load("fio_json_3.json");
    if ((w = wl(r, "random-io"))) {
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[0].iops, 73.182907, 1e-9);
        NEAR(u->dir[0].ios, 733, 0);                  /* total_ios */
        NEAR(u->dir[0].lat_mean_us, 13657.451569, 1e-9);
        NEAR(u->dir[0].lat_p99_us, 23168, 1e-9);
        NEAR(u->dir[0].mib_per_s, 2932.0 / 1024 / 10.016, 1e-9); /* runtime 10016 ms */
        NEAR(u->dir[1].iops, 0, 0);
    }
    iom_imp_result_free(r);

    /* fio 3.6: ns */
    r = load("fio_json_5.json");
    if ((w = wl(r, "random-read"))) {
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[0].iops, 1060.238956, 1e-9);
        NEAR(u->dir[0].lat_mean_us, 931.57922046, 1e-9); /* lat_ns mean 931579.22046 */
        NEAR(u->dir[0].lat_p99_us, 13959.168, 1e-9);     /* clat_ns 99.000000: 13959168 */
        NEAR(u->dir[0].ios, 63626, 0);
        NEAR(u->dir[0].mb_per_s, 260612096 / 60.011 / 1e6, 1e-9);
    }
    iom_imp_result_free(r);

    /* fio 3.16: mixed read+write in one job */
    r = load("fio_json_7.json");
    if ((w = wl(r, "iotest"))) {
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[0].iops, 25.246234, 1e-9);
        NEAR(u->dir[1].iops, 26.442108, 1e-9);
        NEAR(u->dir[2].iops, 25.246234 + 26.442108, 1e-9);
        NEAR(u->dir[1].lat_mean_us, 23014.528931533, 1e-9);
        NEAR(u->dir[0].lat_p99_us, 67633.152, 1e-9);
        /* total mean weighted by I/Os: (1520*15487.037515 + 1592*23014.528932) / 3112 */
        NEAR(u->dir[2].lat_mean_us, (1520 * 15487.037515132 + 1592 * 23014.528931533) / 3112, 1e-9);
    }
    iom_imp_result_free(r);

    /* fio 3.39 json+ */
    r = load("fio_jsonplus_1.json");
    if (r && r->nr_workloads == 1) {
        const struct iom_imp_run *u = &r->w[0].runs[0];
        NEAR(u->dir[1].iops, 19621.556886, 1e-9);
        NEAR(u->dir[1].ios, 16384, 0);
        NEAR(u->dir[1].lat_mean_us, 406.984619141, 1e-9);
        NEAR(u->dir[1].lat_p99_us, 3489.792, 1e-9);
        CHECK(r->w[0].iodepth == 8);
    } else {
        CHECK(0);
    }
    iom_imp_result_free(r);

    refused("fio_json_9_einval.json", "error=22");
    refused("fio_json_13_empty.json", "empty");
}

static void fio_text(void)
{
    struct iom_imp_result *r = load("fio_text_1.txt");
    const struct iom_imp_workload *w = wl(r, "randread");
    if (w) {
        CHECK(w->nr_runs == 5); /* five "(groupid=0, jobs=8)" blocks */
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[0].iops, 999, 0);
        NEAR(u->dir[0].ios, 240130, 0);               /* issued: total=r=240130 */
        NEAR(u->dir[0].lat_mean_us, 127985.12, 1e-9); /* lat (usec): avg=127985.12 */
        NEAR(u->dir[0].lat_p99_us, 131000, 1e-9);     /* 99.00th=[  131] msec */
        NEAR(u->dir[0].mib_per_s, 960520.0 / 1024 / 240.131, 1e-9); /* io=960520KB runt=240131msec */
        NEAR(u->cpu_proc_pct, 0.44, 1e-9);            /* usr=0.13%, sys=0.31% */
        NEAR(w->runs[1].dir[0].lat_mean_us, 128007.33, 1e-9);
        CHECK(w->threads == 8 && w->iodepth == 16);
    }
    iom_imp_result_free(r);
}

/* fio 3.33's own trims (rw=randtrimwrite on a loop device, fio_*_trim: SOURCES.md):
 * fio's third direction read into IOM_IMP_TRIM, and the total over all three */
static void fio_trims(void)
{
    struct iom_imp_result *r = load("fio_json_trim.json");
    const struct iom_imp_workload *w = wl(r, "tw");
    if (w) {
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[IOM_IMP_TRIM].ios, 512, 0);            /* trim: "total_ios" : 512 (line 133) */
        NEAR(u->dir[IOM_IMP_TRIM].iops, 56888.888889, 1e-12); /* "iops" : 56888.888889 */
        NEAR(u->dir[IOM_IMP_TRIM].mb_per_s, 2097152 / 0.009 / 1e6, 1e-12); /* io_bytes, runtime 9 */
        NEAR(u->dir[IOM_IMP_TRIM].lat_mean_us, 12.945287109, 1e-12); /* lat_ns mean (line 172) */
        NEAR(u->dir[IOM_IMP_TRIM].lat_max_us, 341.423, 1e-12);       /* lat_ns max 341423 */
        NEAR(u->dir[IOM_IMP_TRIM].lat_p99_us, 179.2, 1e-12); /* clat "99.000000" : 179200 */
        NEAR(u->dir[IOM_IMP_WRITE].ios, 512, 0);           /* write: "total_ios" : 512 */
        NEAR(u->dir[IOM_IMP_READ].ios, 0, 0);
        NEAR(u->dir[IOM_IMP_TOTAL].ios, 1024, 0);          /* 0 + 512 + 512 */
        NEAR(u->dir[IOM_IMP_TOTAL].iops, 2 * 56888.888889, 1e-12);
        NEAR(u->dir[IOM_IMP_TOTAL].lat_mean_us, (3.127673828 + 12.945287109) / 2, 1e-12);
        NEAR(u->dir[IOM_IMP_TOTAL].lat_max_us, 341.423, 1e-12); /* the larger of 100185, 341423 ns */
        CHECK(isnan(u->dir[IOM_IMP_TOTAL].lat_p99_us));    /* two directions: not derivable */
        CHECK(strcmp(w->rw, "randtrimwrite") == 0);
    }
    iom_imp_result_free(r);
    r = load("fio_text_trim.txt");
    w = wl(r, "tw");
    if (w) {
        const struct iom_imp_run *u = &w->runs[0];
        NEAR(u->dir[IOM_IMP_TRIM].ios, 512, 0);            /* issued rwts: total=0,512,512,0 */
        NEAR(u->dir[IOM_IMP_WRITE].ios, 512, 0);
        NEAR(u->dir[IOM_IMP_TRIM].iops, 13100, 0);         /* trim: IOPS=13.1k */
        NEAR(u->dir[IOM_IMP_TRIM].mib_per_s, 2048.0 / 1024 / 0.039, 1e-9); /* (2048KiB/39msec) */
        NEAR(u->dir[IOM_IMP_TRIM].lat_mean_us, 61.42, 1e-9); /* lat (usec): ... avg=61.42 */
        NEAR(u->dir[IOM_IMP_TRIM].lat_p99_us, 1004, 1e-9);   /* 99.00th=[ 1004] usec */
        NEAR(u->dir[IOM_IMP_WRITE].lat_mean_us, 10.14236, 1e-9); /* lat (nsec): avg=10142.36 */
        NEAR(u->dir[IOM_IMP_TOTAL].iops, 26200, 0);         /* 13.1k + 13.1k */
    }
    iom_imp_result_free(r);
}

static void diskspd(void)
{
    struct iom_imp_result *r = load("diskspd_xml_1.xml");
    if (r && r->nr_workloads == 1) {
        const struct iom_imp_run *u = &r->w[0].runs[0];
        CHECK(strcmp(r->tool, "DiskSpd 2.0.21a") == 0);
        /* IOCount 22645 + 22623 + 22548 + 23154 over TestTimeSeconds 30.02 */
        NEAR(u->dir[2].ios, 90970, 0);
        NEAR(u->dir[2].iops, 90970 / 30.02, 1e-12);
        NEAR(u->dir[2].mib_per_s,
             (1484062720.0 + 1482620928.0 + 1477705728.0 + 1517420544.0) / 30.02 / 1048576, 1e-12);
        NEAR(u->cpu_pct, 3.20, 1e-12);                /* Average/UsagePercent */
        CHECK(isnan(u->dir[2].lat_p99_us));           /* no -L */
        CHECK(r->w[0].threads == 4 && r->w[0].iodepth == 2);
    } else {
        CHECK(0);
    }
    iom_imp_result_free(r);

    r = load("diskspd_xml_3.xml");
    if (r && r->nr_workloads == 1) {
        const struct iom_imp_run *u = &r->w[0].runs[0];
        NEAR(u->dir[2].lat_p99_us, 1202421, 1e-9);    /* Percentile 99 TotalMilliseconds 1202.421 */
        NEAR(u->dir[1].lat_p99_us, 1517500, 1e-9);
        NEAR(u->dir[0].lat_mean_us, 132077, 1e-9);    /* AverageReadMilliseconds */
        NEAR(u->dir[2].lat_max_us, 2128971, 1e-9);    /* Percentile 100 */
        NEAR(u->dir[0].ios, 1157 + 1139 + 1250 + 1289, 0);
        NEAR(u->dir[1].ios, 503 + 522 + 573 + 538, 0);
        NEAR(u->cpu_pct, 0.44, 1e-12);
        CHECK(u->nr_series == 30);                    /* 30 one-second Iops buckets */
        if (u->nr_series)                             /* first bucket: Total=106 in 1 s */
            NEAR(u->series[0].iops, 106, 1e-12);
        CHECK(r->w[0].target[0] == '\0');             /* two targets, D: and E: */
    } else {
        CHECK(0);
    }
    iom_imp_result_free(r);

    r = load("diskspd_text_1.txt"); /* cp1251 preamble, wrapped at 80 columns */
    if (r && r->nr_workloads == 1) {
        const struct iom_imp_run *u = &r->w[0].runs[0];
        NEAR(u->dir[2].ios, 131426, 0);               /* total: ... | 131426 | */
        NEAR(u->dir[2].iops, 219.04, 1e-4);           /* I/O per s 219.04 */
        NEAR(u->dir[2].lat_mean_us, 292328, 1e-9);    /* AvgLat 292.328 ms */
        NEAR(u->dir[0].lat_mean_us, 363914, 1e-9);
        NEAR(u->dir[2].lat_p99_us, 1088947, 1e-9);    /* 99th total 1088.947 */
        NEAR(u->dir[0].lat_p99_us, 1150540, 1e-9);
        NEAR(u->cpu_pct, 3.39, 1e-12);                /* avg.|   3.39% */
        NEAR(u->dir[2].mib_per_s, 538320896.0 / 600 / 1048576, 1e-12);
        CHECK(r->w[0].iodepth == 32 && r->w[0].threads == 2);
    } else {
        CHECK(0);
    }
    iom_imp_result_free(r);

    r = load("diskspd_text_2.txt");
    if (r && r->nr_workloads == 1) {
        const struct iom_imp_run *u = &r->w[0].runs[0];
        NEAR(u->dir[2].ios, 242199, 0);
        NEAR(u->dir[2].iops, 403.66, 1e-4);
        NEAR(u->dir[1].lat_mean_us, 187968, 1e-9);    /* Write IO total AvgLat 187.968 */
        NEAR(u->dir[2].lat_p99_us, 824992, 1e-9);
        NEAR(u->dir[2].lat_max_us, 7322167, 1e-9);
        NEAR(u->cpu_pct, 3.71, 1e-12);
    } else {
        CHECK(0);
    }
    iom_imp_result_free(r);
}

static void cdm(void)
{
    struct iom_imp_result *r = load("crystaldiskmark_text_1.txt");
    CHECK(r && r->nr_workloads == 8);
    const struct iom_imp_workload *w = wl(r, "SEQ1M Q8T1 read");
    if (w) {
        NEAR(w->runs[0].dir[0].mb_per_s, 534.383, 1e-12);
        NEAR(w->runs[0].dir[0].iops, 509.6, 1e-12);
        NEAR(w->runs[0].dir[2].lat_mean_us, 15662.75, 1e-12);
        NEAR(w->runs[0].dir[0].mib_per_s, 534.383e6 / 1048576, 1e-12);
    }
    if ((w = wl(r, "RND4K Q1T1 write"))) {
        NEAR(w->runs[0].dir[1].iops, 24836.2, 1e-12);
        NEAR(w->runs[0].dir[2].lat_mean_us, 40.01, 1e-12);
    }
    wl(r, "RND4K Q32T1 read"); /* CDM 8: Q32T1 */
    iom_imp_result_free(r);

    r = load("kdiskmark_text_1.txt");
    CHECK(r && r->nr_workloads == 8 && strcmp(r->format, "kdiskmark-text") == 0);
    if ((w = wl(r, "RND4K Q32T16 read"))) {
        NEAR(w->runs[0].dir[0].mb_per_s, 271.553, 1e-12);
        NEAR(w->runs[0].dir[0].iops, 67889.0, 1e-12);
        NEAR(w->runs[0].dir[2].lat_mean_us, 1955.57, 1e-12);
        CHECK(w->threads == 16 && w->iodepth == 32);
    }
    if ((w = wl(r, "SEQ1M Q1T1 write")))
        NEAR(w->runs[0].dir[1].mb_per_s, 428.900, 1e-12);
    iom_imp_result_free(r);
}

/* One fio 3.33 run, written as JSON and as normal text (tests/data/compare):
 * both importers must agree within the rounding of the text. */
static void fio3_text_vs_json(const char *data)
{
    char path[1200], err[600];
    struct iom_imp_result *t = NULL, *j = NULL, *both = NULL;
    snprintf(path, sizeof(path), "%s/fio-3.33-randrw.txt", data);
    CHECK(iom_import_file(path, &t, err, sizeof(err)) == 0);
    snprintf(path, sizeof(path), "%s/fio-3.33-randrw.json", data);
    CHECK(iom_import_file(path, &j, err, sizeof(err)) == 0);
    snprintf(path, sizeof(path), "%s/fio-3.33-randrw-normal+json.out", data);
    CHECK(iom_import_file(path, &both, err, sizeof(err)) == 0);
    if (!t || !j || !both)
        goto out;
    CHECK(strcmp(t->format, "fio-text") == 0 && strcmp(j->format, "fio-json") == 0);
    CHECK(strcmp(t->tool, "fio-3.33") == 0);
    const struct iom_imp_run *a = &t->w[0].runs[0], *b = &j->w[0].runs[0];
    for (int d = 0; d < 2; d++) {
        NEAR(a->dir[d].iops, b->dir[d].iops, 1e-3);          /* text: IOPS=3737 */
        NEAR(a->dir[d].ios, b->dir[d].ios, 0);               /* issued rwts: total=7502,7554 */
        NEAR(a->dir[d].lat_mean_us, b->dir[d].lat_mean_us, 1e-4); /* avg=368.72 (usec) */
        NEAR(a->dir[d].lat_p99_us, b->dir[d].lat_p99_us, 1e-3);   /* 99.00th=[ 3589] */
        NEAR(a->dir[d].mib_per_s, b->dir[d].mib_per_s, 4e-3);     /* (29.3MiB/2007msec) */
    }
    /* values read by hand from the JSON */
    NEAR(b->dir[0].iops, 3737.917289, 1e-12);
    NEAR(b->dir[0].lat_mean_us, 368.720513463, 1e-12);
    NEAR(b->dir[0].lat_p99_us, 3588.096, 1e-12);
    NEAR(b->dir[1].ios, 7554, 0);
    NEAR(a->cpu_proc_pct, 1.79 + 19.69, 1e-12);              /* usr=1.79%, sys=19.69% */
    NEAR(b->cpu_proc_pct, a->cpu_proc_pct, 1e-3);
    /* the file with both: the JSON document after fio's header lines is read */
    CHECK(strcmp(both->format, "fio-json") == 0);
    NEAR(both->w[0].runs[0].dir[2].iops, b->dir[2].iops, 0);
out:
    iom_imp_result_free(t);
    iom_imp_result_free(j);
    iom_imp_result_free(both);
}

static void not_results(void)
{
    struct iom_imp_result *r;
    char err[300];
    const char *txt = "hello, this is not a benchmark result\n";
    CHECK(iom_import_buffer("notes.txt", txt, strlen(txt), &r, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "notes.txt") && strstr(err, "not a result file"));
    CHECK(iom_import_buffer("blank.json", "  \n\n", 4, &r, err, sizeof(err)) == -EINVAL);
    const char *cut = "{\n  \"fio version\" : \"fio-3.1\",\n  \"jobs\" : [ {";
    CHECK(iom_import_buffer("cut.json", cut, strlen(cut), &r, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "does not parse") != NULL);
    const char *ierr = "{\"schema\":\"iomark-result\",\"type\":\"run\",\"status\":\"error\","
                       "\"error\":\"cannot open /dev/x\"}";
    CHECK(iom_import_buffer("e.json", ierr, strlen(ierr), &r, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "cannot open /dev/x") != NULL);
    /* a tpcc document (type "tpcc" of the same schema family) */
    const char *tp = "{\"schema\":\"iomark-result\",\"type\":\"tpcc\",\"nopm\":12000,\"tpm\":27600,"
                     "\"transactions\":{\"new_order\":{\"calls\":5000,\"mean_ms\":4.5,"
                     "\"p95_ms\":9.0,\"p99_ms\":15.0}}}";
    CHECK(iom_import_buffer("t.json", tp, strlen(tp), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(r->w[0].is_tpcc && r->w[0].runs[0].nopm == 12000 && r->w[0].runs[0].tpm == 27600);
        CHECK(r->w[0].runs[0].nr_txn == 1 && r->w[0].runs[0].txn[0].p95_ms == 9.0);
        iom_imp_result_free(r);
    }
}

/* an iomark mark document: the preparation run ("counted": false) is not a
 * run of the workload; a direction with only a preparation run is left out */
static void mark_doc(void)
{
    struct iom_imp_result *r;
    char err[300];
    const char *m =
        "{\"schema\":\"iomark-result\",\"type\":\"mark\",\"status\":\"interrupted\","
        "\"tests\":[{\"name\":\"SEQ1M Q8T1\",\"threads\":1,\"iodepth\":8,"
        "\"read\":{\"mb_per_s\":300,\"each_run\":["
        "{\"mb_per_s\":10,\"iops\":9.5,\"measured_s\":5,\"counted\":false,\"phase\":\"prepare\"},"
        "{\"mb_per_s\":200,\"iops\":190.7,\"measured_s\":5,\"counted\":true,\"phase\":\"run\"},"
        "{\"mb_per_s\":300,\"iops\":286.1,\"measured_s\":5,\"counted\":true,\"phase\":\"run\"}]},"
        "\"write\":{\"mb_per_s\":0,\"each_run\":["
        "{\"mb_per_s\":10,\"measured_s\":5,\"counted\":false,\"phase\":\"prepare\"}]}}]}";
    CHECK(iom_import_buffer("m.json", m, strlen(m), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(r->nr_workloads == 1 && strcmp(r->w[0].name, "SEQ1M Q8T1 read") == 0);
        CHECK(r->w[0].nr_runs == 2);
        CHECK(r->w[0].runs[0].dir[0].mb_per_s == 200 && r->w[0].runs[1].dir[0].mb_per_s == 300);
        iom_imp_result_free(r);
    }
}

/* fio normal output: any indent of the read/write lines (fio 3.1 prints three
 * spaces, 3.33 two, 2.x "  read : "), fio 2.x and 3.x layouts, time units;
 * a field that cannot be read stays unknown (NAN), never 0, and a block
 * without figures is refused with its line number. Expected values are
 * read by hand from each input (MB/s = bytes / seconds / 10^6). */
static void fio_text_layouts(void)
{
    struct iom_imp_result *r;
    char err[300];
    /* issue example, fio 3.1 indent: 3598 MiB in 300.002 s = 12.576 MB/s (fio: 12.6MB/s) */
    const char *a = "myjob: (groupid=0, jobs=1): err= 0: pid=1234: Mon Jan  1 00:00:00 2024\n"
                    "   read: IOPS=3070, BW=11.0MiB/s (12.6MB/s)(3598MiB/300002msec)\n"
                    "    clat (usec): min=80, max=9000, avg=320.5, stdev=50.1\n";
    CHECK(iom_import_buffer("a.txt", a, strlen(a), &r, err, sizeof(err)) == 0);
    if (r) {
        struct iom_imp_dir *d = &r->w[0].runs[0].dir[IOM_IMP_READ];
        CHECK(strcmp(r->format, "fio-text") == 0);
        CHECK(d->iops == 3070);
        CHECK(fabs(d->mb_per_s - 3598.0 * 1048576 / 300.002 / 1e6) < 1e-9);
        CHECK(fabs(d->mb_per_s - 12.6) < 0.05);
        CHECK(isnan(d->lat_mean_us)); /* only clat printed: unknown, not 0 */
        CHECK(r->w[0].runs[0].dir[IOM_IMP_WRITE].iops == 0); /* no write line: no writes */
        iom_imp_result_free(r);
    }
    /* fio 3.33 indent, k suffix, lat in nsec, two directions */
    const char *b = "rw: (groupid=0, jobs=4): err= 0: pid=7: Tue Feb  6 10:00:00 2024\n"
                    "  read: IOPS=25.2k, BW=98.5MiB/s (103MB/s)(5912MiB/60001msec)\n"
                    "    lat (nsec): min=815, max=252639, avg=127985.12, stdev=3490.32\n"
                    "  write: IOPS=1500, BW=5.86MiB/s (6144kB/s)(352MiB/60001msec)\n"
                    "    lat (msec): min=1, max=30, avg=2.5, stdev=0.5\n"
                    "  cpu          : usr=1.00%, sys=2.50%, ctx=10, majf=0, minf=1\n";
    CHECK(iom_import_buffer("b.txt", b, strlen(b), &r, err, sizeof(err)) == 0);
    if (r) {
        struct iom_imp_run *run = &r->w[0].runs[0];
        CHECK(run->dir[0].iops == 25200 && run->dir[1].iops == 1500);
        CHECK(fabs(run->dir[0].mb_per_s - 5912.0 * 1048576 / 60.001 / 1e6) < 1e-9); /* 103.3 */
        CHECK(fabs(run->dir[0].lat_mean_us - 127.98512) < 1e-9);
        CHECK(fabs(run->dir[1].lat_mean_us - 2500.0) < 1e-9);
        CHECK(fabs(run->cpu_proc_pct - 3.5) < 1e-12);
        CHECK(r->w[0].threads == 4);
        iom_imp_result_free(r);
    }
    /* fio 2.x: KB = KiB, runt in msec; tab indent */
    const char *c = "old: (groupid=0, jobs=1): err= 0: pid=99: Wed Mar  1 00:00:00 2017\n"
                    "\tread : io=960520KB, bw=3999.2KB/s, iops=999, runt=240131msec\n"
                    "    lat (usec): min=815, max=252639, avg=127985.12, stdev=3490.32\n";
    CHECK(iom_import_buffer("c.txt", c, strlen(c), &r, err, sizeof(err)) == 0);
    if (r) {
        struct iom_imp_dir *d = &r->w[0].runs[0].dir[0];
        CHECK(d->iops == 999);
        CHECK(fabs(d->mb_per_s - 960520.0 * 1024 / 240.131 / 1e6) < 1e-9); /* 4.0959, fio 3999.2 KiB/s */
        CHECK(fabs(d->lat_mean_us - 127985.12) < 1e-6);
        CHECK(fabs(r->w[0].runs[0].runtime_s - 240.131) < 1e-9);
        iom_imp_result_free(r);
    }
    /* an unreadable IOPS figure stays unknown */
    const char *d2 = "x: (groupid=0, jobs=1): err= 0: pid=1: Mon Jan  1 00:00:00 2024\n"
                     "  read: IOPS=n/a, BW=11.0MiB/s (12.6MB/s)(3598MiB/300002msec)\n";
    CHECK(iom_import_buffer("d.txt", d2, strlen(d2), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(isnan(r->w[0].runs[0].dir[0].iops));
        CHECK(r->w[0].runs[0].dir[0].mb_per_s > 12.5);
        iom_imp_result_free(r);
    }
    /* a block with no read or write line: refused, with its line number */
    const char *e = "fio-3.33\nStarting 1 process\n"
                    "empty: (groupid=0, jobs=1): err= 0: pid=1: Mon Jan  1 00:00:00 2024\n"
                    "  cpu          : usr=0.00%, sys=0.00%, iops=5\n";
    CHECK(iom_import_buffer("e.txt", e, strlen(e), &r, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "e.txt") && strstr(err, "line 3") && strstr(err, "no read or write"));
}

/* Several fio outputs in one text file (a markdown page with code fences, a
 * log with runs appended): blocks with one job name are pooled as repeated
 * runs only when rw, bs, iodepth, jobs and the device match (issue 12 item 2). */
static void fio_text_pooling(void)
{
    struct iom_imp_result *r;
    char err[300];
    const char *md =
        "# my disk tests\n\n```\n"
        "test: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=32\n"
        "fio-3.33\nStarting 1 process\n"
        "test: (groupid=0, jobs=1): err= 0: pid=10: Mon Jan  1 00:00:00 2024\n"
        "  read: IOPS=50.0k, BW=195MiB/s (205MB/s)(11.4GiB/60001msec)\n"
        "Run status group 0 (all jobs):\n   READ: bw=195MiB/s (205MB/s)\n"
        "Disk stats (read/write):\n  sda: ios=3000000/0, util=99.00%\n```\n\n"
        "Then the same job name writing on the other disk:\n\n```\n"
        "test: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, ioengine=libaio, iodepth=1\n"
        "fio-3.33\nStarting 1 process\n"
        "test: (groupid=0, jobs=1): err= 0: pid=11: Mon Jan  1 00:10:00 2024\n"
        "  write: IOPS=500, BW=500MiB/s (524MB/s)(29.3GiB/60001msec)\n"
        "Disk stats (read/write):\n  sdb: ios=0/30000, util=99.00%\n```\n\n"
        "And the first one again:\n\n```\n"
        "test: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=32\n"
        "test: (groupid=0, jobs=1): err= 0: pid=12: Mon Jan  1 00:20:00 2024\n"
        "  read: IOPS=52.0k, BW=203MiB/s (213MB/s)(11.9GiB/60001msec)\n"
        "Disk stats (read/write):\n  sda: ios=3100000/0, util=99.00%\n```\n";
    CHECK(iom_import_buffer("page.md", md, strlen(md), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(r->nr_workloads == 2);
        if (r->nr_workloads == 2) {
            const struct iom_imp_workload *a = &r->w[0], *b = &r->w[1];
            CHECK(strcmp(a->name, "test") == 0 && a->nr_runs == 2 && a->iodepth == 32);
            CHECK(a->runs[0].dir[0].iops == 50000 && a->runs[1].dir[0].iops == 52000);
            /* the write run on sdb is its own workload, and its name says why */
            CHECK(b->nr_runs == 1 && b->iodepth == 1 && b->runs[0].dir[1].iops == 500);
            CHECK(strncmp(b->name, "test [", 6) == 0 && strstr(b->name, "rw=write") &&
                  strstr(b->name, "sdb"));
        }
        iom_imp_result_free(r);
    }
}

/* A source run that was interrupted or failed imports with a note in the
 * source's own words (issue 12 item 5); errno numbers are not translated. */
static void source_notes(void)
{
    struct iom_imp_result *r;
    char err[300];
    const char *j =
        "fio: terminating on signal 2\n"
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"rr\",\"error\":0,"
        "\"job options\":{\"runtime\":\"10\"},"
        "\"read\":{\"io_bytes\":11468800,\"io_kbytes\":11200,\"runtime\":2800,\"iops\":1000,"
        "\"total_ios\":2800,\"lat_ns\":{\"mean\":950000}},"
        "\"write\":{\"io_bytes\":0,\"io_kbytes\":0,\"runtime\":0,\"iops\":0,\"total_ios\":0}}]}";
    CHECK(iom_import_buffer("int.json", j, strlen(j), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(strstr(r->note, "interrupted") && strstr(r->note, "fio: terminating on signal 2") &&
              strstr(r->note, "after 2.8 s of 10 s"));
        CHECK(r->w[0].runs[0].dir[0].iops == 1000);
        iom_imp_result_free(r);
    }
    /* a job that failed after doing I/O: imported, fio's own line quoted */
    const char *f =
        "fio: io_u error on file /dev/sdx: Input/output error: read offset=4096, buflen=4096\n"
        "fio: pid=77, err=5/file:io_u.c:1845, func=io_u error, error=Input/output error\n"
        "{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"bad\",\"error\":5,"
        "\"read\":{\"io_bytes\":409600,\"io_kbytes\":400,\"runtime\":1000,\"iops\":100,\"total_ios\":100},"
        "\"write\":{\"io_bytes\":0,\"io_kbytes\":0,\"runtime\":0,\"iops\":0,\"total_ios\":0}}]}";
    CHECK(iom_import_buffer("fail.json", f, strlen(f), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(strstr(r->note, "source job 'bad' failed (error=5") &&
              strstr(r->note, "fio: pid=77, err=5/file:io_u.c:1845, func=io_u error, error=Input/output error"));
        CHECK(r->w[0].runs[0].dir[0].iops == 100);
        iom_imp_result_free(r);
    }
    /* the same in fio's normal output; a complete run has no note */
    const char *t =
        "fio: pid=78, err=5/file:io_u.c:1845, func=io_u error, error=Input/output error\n"
        "bad: (groupid=0, jobs=1): err= 5: pid=78: Mon Jan  1 00:00:00 2024\n"
        "  read: IOPS=100, BW=400KiB/s (410kB/s)(400KiB/1000msec)\n";
    CHECK(iom_import_buffer("fail.txt", t, strlen(t), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(strstr(r->note, "source job 'bad' failed (err=5") && strstr(r->note, "err=5/file:io_u.c:1845"));
        CHECK(r->w[0].runs[0].dir[0].iops == 100);
        iom_imp_result_free(r);
    }
    const char *ok = "good: (groupid=0, jobs=1): err= 0: pid=79: Mon Jan  1 00:00:00 2024\n"
                     "  read: IOPS=100, BW=400KiB/s (410kB/s)(400KiB/1000msec)\n";
    CHECK(iom_import_buffer("ok.txt", ok, strlen(ok), &r, err, sizeof(err)) == 0);
    if (r) {
        CHECK(r->note[0] == '\0');
        iom_imp_result_free(r);
    }
}

int main(void)
{
    char src[1024];
    snprintf(src, sizeof(src), "%s", __FILE__); /* SRC/tests/unit/test_import.c */
    snprintf(dir, sizeof(dir), "%s/../data/results", dirname(src));
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "%s not found (tests/data/results is part of the repository)\n", dir);
        return 1;
    }
    fio_json();
    fio_text();
    fio_trims();
    diskspd();
    cdm();
    not_results();
    mark_doc();
    fio_text_layouts();
    fio_text_pooling();
    source_notes();
    {
        char src2[1024], data[1200];
        snprintf(src2, sizeof(src2), "%s", __FILE__);
        snprintf(data, sizeof(data), "%s/../data/compare", dirname(src2));
        fio3_text_vs_json(data);
    }
    if (fails)
        fprintf(stderr, "%d check(s) failed\n", fails);
    return fails ? 1 : 0;
}
