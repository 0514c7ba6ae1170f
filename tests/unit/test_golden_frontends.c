/* test_golden_frontends.c - DiskSpd-style text and XML and fio-style JSON
 * produced from a FIXED SYNTHETIC result (built here, no I/O), compared
 * byte for byte with the committed files in tests/golden/; the XML is also
 * parsed with libxml2 and the JSON with cJSON, and key figures are checked
 * against values computed by hand from the synthetic latencies.
 *
 * Regenerate the golden files after an intended layout change with
 * IOMARK_GOLDEN_UPDATE=1 ./test_golden_frontends, then review the diff. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>

#include "check.h"
#include "report/diskspd.h"
#include "report/fio.h"
#include "workload/diskspd.h"
#include "workload/fiojob.h"

#define SEC 1000000000ULL

static const char *golden_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof(buf), "%s", __FILE__);
    char *p = strstr(buf, "/tests/unit/");
    if (!p)
        return name;
    snprintf(p, sizeof(buf) - (size_t)(p - buf), "/tests/golden/%s", name);
    return buf;
}

/* Replace every occurrence of the version string, so a version bump does
 * not change the golden files. */
static char *unversion(const char *s)
{
    const char *v = IOMARK_VERSION;
    size_t vl = strlen(v), n = strlen(s);
    char *out = malloc(n * 2 + 1), *o = out;
    if (!out)
        return NULL;
    while (*s) {
        if (strncmp(s, v, vl) == 0) {
            o += sprintf(o, "@VERSION@");
            s += vl;
        } else {
            *o++ = *s++;
        }
    }
    *o = '\0';
    return out;
}

static void golden(const char *name, const char *text)
{
    char *got = unversion(text);
    const char *path = golden_path(name);
    if (getenv("IOMARK_GOLDEN_UPDATE")) {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(got, f);
            fclose(f);
        }
        free(got);
        return;
    }
    FILE *f = fopen(path, "r");
    char *want = calloc(1, 1 << 20);
    if (f && want)
        fread(want, 1, (1 << 20) - 1, f);
    if (f)
        fclose(f);
    check_count++;
    if (!want || strcmp(want, got) != 0) {
        check_failures++;
        char actual[512];
        snprintf(actual, sizeof(actual), "%s.actual", name);
        FILE *a = fopen(actual, "w");
        if (a) {
            fputs(got, a);
            fclose(a);
        }
        fprintf(stderr, "%s differs from the golden file; see diff %s %s\n", name, path, actual);
    }
    free(want);
    free(got);
}

/*
 * The synthetic run: 2 threads on one 1 GiB file, 10 s measured.
 * Thread t (0, 1) completed 1000 reads of 8 KiB with latencies
 * 100 + k + 1000 t microseconds (k = 0..999) and 400 writes of 8 KiB with
 * latencies 500 + 2k + 1000 t microseconds (k = 0..399).
 * Series: 10 intervals of 1 s; interval i has 190 + 2i reads and 76 + i
 * writes in total.
 */
static struct iom_result *synthetic(const struct iom_job *job)
{
    struct iom_result *r = calloc(1, sizeof(*r));
    if (!r || iom_job_copy(&r->job, job))
        return NULL;
    snprintf(r->engine, sizeof(r->engine), "io_uring");
    snprintf(r->kernel, sizeof(r->kernel), "Linux 6.1.0-golden");
    snprintf(r->hostname, sizeof(r->hostname), "golden-host");
    r->start_time = 1700000000; /* 2023-11-14 22:13:20 UTC */
    r->measured_ns = 10 * SEC;
    r->nr_targets = 1;
    r->targets = calloc(1, sizeof(*r->targets));
    r->nr_threads = 2;
    r->threads = calloc(2, sizeof(*r->threads));
    r->series = calloc(10, sizeof(*r->series));
    if (!r->targets || !r->threads || !r->series)
        return NULL;
    r->targets[0].path = strdup("test.dat");
    r->targets[0].size_bytes = 1ULL << 30;
    r->targets[0].region_len = 1ULL << 30;
    iom_io_stats_init(&r->targets[0].dir[0]);
    iom_io_stats_init(&r->targets[0].dir[1]);
    iom_io_stats_init(&r->targets[0].dir[2]);
    iom_io_stats_init(&r->total[0]);
    iom_io_stats_init(&r->total[1]);
    iom_io_stats_init(&r->total[2]);
    for (uint32_t t = 0; t < 2; t++) {
        struct iom_thread_result *th = &r->threads[t];
        th->thread_idx = t;
        iom_io_stats_init(&th->dir[0]);
        iom_io_stats_init(&th->dir[1]);
        iom_io_stats_init(&th->dir[2]);
        for (uint64_t k = 0; k < 1000; k++)
            iom_io_stats_add(&th->dir[0], 8192, (100 + k + 1000 * t) * 1000);
        for (uint64_t k = 0; k < 400; k++)
            iom_io_stats_add(&th->dir[1], 8192, (500 + 2 * k + 1000 * t) * 1000);
        for (int d = 0; d < 2; d++) {
            iom_io_stats_merge(&r->targets[0].dir[d], &th->dir[d]);
            iom_io_stats_merge(&r->total[d], &th->dir[d]);
        }
    }
    r->nr_series = r->series_cap = 10;
    for (uint32_t i = 0; i < 10; i++) {
        struct iom_series_point *p = &r->series[i];
        p->t_end_s = i + 1;
        p->dur_s = 1.0;
        p->ios[0] = 190 + 2 * i;
        p->ios[1] = 76 + i;
        p->bytes[0] = p->ios[0] * 8192;
        p->bytes[1] = p->ios[1] * 8192;
    }
    r->cpu.nr_cpus = 2;
    r->cpu.user_pct = 10.0;
    r->cpu.system_pct = 5.0;
    r->cpu.iowait_pct = 2.0;
    r->cpu.idle_pct = 83.0;
    r->cpu.busy_pct = 15.0;
    r->cpu.nr_percpu = 2;
    r->cpu.percpu[0] = (struct iom_cpu_one){0, 12.0, 4.0, 2.0, 82.0, 0, 0, 0, 0};
    r->cpu.percpu[1] = (struct iom_cpu_one){1, 8.0, 6.0, 2.0, 84.0, 1, 1, 3, 1};
    r->cpu.process_user_s = 0.5;
    r->cpu.process_system_s = 1.25;
    return r;
}

static char *render_text(const struct iom_diskspd *ds, const struct iom_result *r, int xml)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    if (xml)
        CHECK(iom_report_diskspd_xml(f, ds, r) == 0);
    else
        iom_report_diskspd_text(f, ds, r);
    fclose(f);
    return buf;
}

static double xml_num(xmlDocPtr doc, const char *path)
{
    /* path: element names separated by '/', first match at each level */
    xmlNodePtr n = xmlDocGetRootElement(doc);
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", path);
    char *save = NULL;
    for (char *tok = strtok_r(buf, "/", &save); tok && n; tok = strtok_r(NULL, "/", &save)) {
        xmlNodePtr c = n->children;
        while (c && !(c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, tok) == 0))
            c = c->next;
        n = c;
    }
    if (!n)
        return NAN;
    xmlChar *s = xmlNodeGetContent(n);
    double v = s ? strtod((const char *)s, NULL) : NAN;
    xmlFree(s);
    return v;
}

int main(void)
{
    setenv("TZ", "UTC", 1);
    tzset();
    struct iom_diskspd *ds = malloc(sizeof(*ds));
    struct iom_run_opts ro = {0};
    char err[600];
    char *argv[] = {"-b8K", "-r", "-w30", "-t2", "-o4", "-d10", "-W0", "-Sh", "-L", "-D",
                    "-c1G", "-Rxml", "test.dat"};
    if (!ds || iom_diskspd_parse(13, argv, 0, ds, &ro, err, sizeof(err))) {
        fprintf(stderr, "parse: %s\n", err);
        return 1;
    }
    struct iom_result *r = synthetic(&ds->job);
    if (!r)
        return 1;

    /* ---- DiskSpd text ---- */
    char *text = render_text(ds, r, 0);
    CHECK(text != NULL);
    if (text) {
        golden("diskspd_text.txt", text);
        /* by hand: reads 2000 x 8 KiB in 10 s = 200.00 I/O per s, 1.56 MiB/s;
         * thread 0 read latency mean (100+1099)/2 us = 0.600 ms (%.3f of 0.5995),
         * population stddev sqrt((1000^2-1)/12) us = 0.289 ms */
        CHECK(strstr(text, "total:          16384000 |         2000 |       1.56 |     200.00") != NULL);
        CHECK(strstr(text, "     0 |         8192000 |         1000 |       0.78 |     100.00 |    0.600 |        N/A |     0.289 | test.dat (1024MiB)") != NULL);
        /* percentile rows: total min is the smallest read, 0.100 ms; max the largest write,
         * 500 + 798 + 1000 us = 2.298 ms */
        CHECK(strstr(text, "    min |      0.100 |      0.500 |      0.100") != NULL);
        CHECK(strstr(text, "    max |      2.099 |      2.298 |      2.298") != NULL);
        /* IOPS stddev of the series: reads 190..208 step 2 -> population sd
         * 2 * sqrt((10^2-1)/12) = 5.745 */
        CHECK(strstr(text, "|       5.74 |") != NULL);
        /* per CPU: Usage = 100 - idle - iowait, Kernel = Usage - User */
        CHECK(strstr(text, "   0|  16.00%|  12.00%|    4.00%|  84.00%\n"
                           "   1|  14.00%|   8.00%|    6.00%|  86.00%\n") != NULL);
        free(text);
    }

    /* ---- DiskSpd XML ---- */
    char *xml = render_text(ds, r, 1);
    CHECK(xml != NULL);
    if (xml) {
        golden("diskspd.xml", xml);
        xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "diskspd.xml", NULL, XML_PARSE_NONET);
        CHECK(doc != NULL);
        if (doc) {
            xmlNodePtr root = xmlDocGetRootElement(doc);
            CHECK(root && strcmp((const char *)root->name, "Results") == 0);
            CHECK_NEAR(xml_num(doc, "TimeSpan/TestTimeSeconds"), 10.0, 1e-9);
            CHECK_NEAR(xml_num(doc, "TimeSpan/ThreadCount"), 2, 1e-9);
            CHECK_NEAR(xml_num(doc, "TimeSpan/Thread/Target/ReadCount"), 1000, 1e-9);
            CHECK_NEAR(xml_num(doc, "TimeSpan/Thread/Target/WriteBytes"), 400 * 8192, 1e-9);
            CHECK_NEAR(xml_num(doc, "TimeSpan/Thread/Target/AverageReadLatencyMilliseconds"),
                       0.600, 1e-9); /* printed with %.3f: 0.5995 -> 0.600 */
            /* all reads of both threads: 100..1099 and 1100..2099 us, mean 1099.5 us
             * (printed with %.3f, so within 0.0005 ms) */
            CHECK_NEAR(xml_num(doc, "TimeSpan/Latency/AverageReadMilliseconds"), 1.0995, 5e-4);
            CHECK_NEAR(xml_num(doc, "Profile/TimeSpans/TimeSpan/Targets/Target/WriteRatio"), 30,
                       1e-9);
            CHECK_NEAR(xml_num(doc, "Profile/TimeSpans/TimeSpan/Targets/Target/BlockSize"), 8192,
                       1e-9);
            CHECK_NEAR(xml_num(doc, "TimeSpan/CpuUtilization/Average/IdlePercent"), 85.0, 1e-9);
            /* DiskSpd 2.2's CPU rows: Socket, Node, Group, Core, EfficiencyClass, Id, in
             * that order (diskspd v2.2 XmlResultParser.cpp _PrintCpuUtilization) */
            xmlXPathContextPtr xc = xmlXPathNewContext(doc);
            xmlXPathObjectPtr cpus = xc ? xmlXPathEvalExpression(
                (const xmlChar *)"/Results/TimeSpan/CpuUtilization/CPU", xc) : NULL;
            CHECK(cpus && cpus->nodesetval && cpus->nodesetval->nodeNr == 2);
            if (cpus && cpus->nodesetval && cpus->nodesetval->nodeNr == 2) {
                static const char *const order[] = {"Socket", "Node", "Group", "Core",
                    "EfficiencyClass", "Id", "UsagePercent", "UserPercent", "KernelPercent",
                    "IdlePercent"};
                static const char *const want1[] = {"1", "1", "0", "3", "1", "1"};
                xmlNodePtr e = xmlFirstElementChild(cpus->nodesetval->nodeTab[1]);
                for (size_t k = 0; k < 10; k++, e = e ? xmlNextElementSibling(e) : NULL) {
                    CHECK(e && strcmp((const char *)e->name, order[k]) == 0);
                    if (e && k < 6) {
                        xmlChar *t = xmlNodeGetContent(e);
                        CHECK(t && strcmp((const char *)t, want1[k]) == 0);
                        xmlFree(t);
                    }
                }
                CHECK(e == NULL);
            }
            xmlXPathFreeObject(cpus);
            xmlXPathFreeContext(xc);
            xmlFreeDoc(doc);
        }
        free(xml);
    }

    /* ---- fio JSON ---- */
    struct iom_fio_file ff;
    const char *jobtext = "[global]\nioengine=io_uring\ndirect=1\n"
                          "[golden]\nrw=randrw\nrwmixread=70\nbs=8k\nnumjobs=2\n"
                          "filename=test.dat\nsize=1g\nruntime=10\ntime_based\n";
    CHECK(iom_fio_parse_text(jobtext, NULL, &ff, err, sizeof(err)) == 0);
    if (ff.nr_jobs == 1) {
        struct iom_result *res[1] = {r};
        cJSON *doc = iom_report_fio_json(&ff, res, false, NULL);
        CHECK(doc != NULL);
        char *js = doc ? cJSON_Print(doc) : NULL;
        cJSON_Delete(doc);
        if (js) {
            size_t l = strlen(js);
            char *withnl = malloc(l + 2);
            memcpy(withnl, js, l);
            strcpy(withnl + l, "\n");
            golden("fio.json", withnl);
            free(withnl);
            cJSON *p = cJSON_Parse(js);
            CHECK(p != NULL);
            cJSON *jobs = cJSON_GetObjectItem(p, "jobs");
            /* numjobs=2 without group_reporting: one entry per clone, as fio */
            CHECK(cJSON_GetArraySize(jobs) == 2);
            cJSON *j0 = cJSON_GetArrayItem(jobs, 0);
            cJSON *rd = cJSON_GetObjectItem(j0, "read");
            CHECK(strcmp(cJSON_GetObjectItem(j0, "jobname")->valuestring, "golden") == 0);
            CHECK_NEAR(cJSON_GetObjectItem(rd, "total_ios")->valuedouble, 1000, 1e-12);
            CHECK_NEAR(cJSON_GetObjectItem(rd, "io_bytes")->valuedouble, 8192000, 1e-12);
            CHECK_NEAR(cJSON_GetObjectItem(rd, "iops")->valuedouble, 100.0, 1e-12);
            CHECK_NEAR(cJSON_GetObjectItem(rd, "runtime")->valuedouble, 10000, 1e-12);
            cJSON *clat = cJSON_GetObjectItem(rd, "clat_ns");
            /* mean 599.5 us; sample stddev sqrt(1000*1001/12) us = 288.819 us */
            CHECK_NEAR(cJSON_GetObjectItem(clat, "mean")->valuedouble, 599500.0, 1e-12);
            CHECK_NEAR(cJSON_GetObjectItem(clat, "stddev")->valuedouble,
                       sqrt(1000.0 * 1001.0 / 12.0) * 1000.0, 1e-9);
            CHECK_NEAR(cJSON_GetObjectItem(clat, "min")->valuedouble, 100000, 1e-12);
            CHECK_NEAR(cJSON_GetObjectItem(clat, "max")->valuedouble, 1099000, 1e-12);
            /* the 50th percentile by nearest rank is the 500th value, 599 us; the
             * histogram reports its bucket's midpoint, within 1/128 */
            cJSON *pc = cJSON_GetObjectItem(clat, "percentile");
            CHECK_NEAR(cJSON_GetObjectItem(pc, "50.000000")->valuedouble, 599000, 1.0 / 128);
            CHECK_NEAR(cJSON_GetObjectItem(cJSON_GetObjectItem(rd, "slat_ns"), "N")->valuedouble,
                       0, 1e-12);
            cJSON *j1 = cJSON_GetArrayItem(jobs, 1);
            cJSON *wr = cJSON_GetObjectItem(j1, "write");
            CHECK_NEAR(cJSON_GetObjectItem(wr, "total_ios")->valuedouble, 400, 1e-12);
            CHECK_NEAR(cJSON_GetObjectItem(cJSON_GetObjectItem(wr, "lat_ns"), "mean")->valuedouble,
                       (1500.0 + 1500.0 + 798.0) / 2 * 1000.0, 1e-12); /* 1899 us */
            cJSON_Delete(p);
            free(js);
        }
        iom_fio_file_free(&ff);
    }

    /* ---- fio normal text (the pid replaced: it changes from run to run) ---- */
    CHECK(iom_fio_parse_text(jobtext, NULL, &ff, err, sizeof(err)) == 0);
    if (ff.nr_jobs == 1) {
        struct iom_result *res[1] = {r};
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        if (f) {
            iom_report_fio_text(f, &ff, res);
            fclose(f);
        }
        if (buf) {
            /* copy with every " pid=<digits>" written as " pid=PID" */
            char *clean = malloc(2 * strlen(buf) + 1), *o = clean; /* growth < 2 per pid */
            for (const char *p = buf; clean && *p;) {
                if (strncmp(p, " pid=", 5) == 0) {
                    o += sprintf(o, " pid=PID");
                    p += 5;
                    while (*p >= '0' && *p <= '9')
                        p++;
                } else {
                    *o++ = *p++;
                }
            }
            if (clean)
                *o = '\0';
            free(buf);
            buf = clean;
        }
        if (buf) {
            golden("fio_normal.txt", buf);
            /* by hand, clone 0 reads: 100..1099 us, mean 599.5, sample sd 288.82;
             * fio shows usec because min > 2000 ns, max > 99999 ns, sd > 1000 ns */
            CHECK(strstr(buf, "    clat (usec): min=100, max=1099, avg=599.50, stdev=288.82\n") != NULL);
            CHECK(strstr(buf, "  read: IOPS=100, BW=800KiB/s (819kB/s)(8000KiB/10000msec)\n") != NULL);
            CHECK(strstr(buf, "    clat percentiles (usec):\n") != NULL);
            /* group: 2 x 8192000 bytes of reads in 10 s = 1638400 B/s = 1600KiB/s */
            CHECK(strstr(buf, "   READ: bw=1600KiB/s (1638kB/s), 800KiB/s-800KiB/s (819kB/s-819kB/s), "
                              "io=15.6MiB (16.4MB), run=10000-10000msec\n") != NULL);
            free(buf);
        }
        iom_fio_file_free(&ff);
    }

    /* fio's num2str, values read from fio-3.33 output ("IOPS=2040k",
     * "BW=7969MiB/s", "62.5GiB/s", "31.9MiB", "(8356MB/s)") */
    char b[32];
    iom_fio_num2str(2040000, 4, 0, "", b, sizeof(b));
    CHECK(strcmp(b, "2040k") == 0);
    iom_fio_num2str(8355840000ULL, 4, 1, "B/s", b, sizeof(b));
    CHECK(strcmp(b, "7969MiB/s") == 0);
    iom_fio_num2str(8355840000ULL, 4, 0, "B/s", b, sizeof(b));
    CHECK(strcmp(b, "8356MB/s") == 0);
    iom_fio_num2str(67108864000ULL, 4, 1, "B/s", b, sizeof(b));
    CHECK(strcmp(b, "62.5GiB/s") == 0);
    iom_fio_num2str(33423360, 4, 1, "B", b, sizeof(b));
    CHECK(strcmp(b, "31.9MiB") == 0);
    iom_fio_num2str(999, 4, 0, "", b, sizeof(b));
    CHECK(strcmp(b, "999") == 0);
    /* a fraction that rounds up carries: fio 3.33 prints "IOPS=37.0k" for
     * 73983 I/Os in 2 s (36991 IOPS), read from fio's own output */
    iom_fio_num2str(36991, 4, 0, "", b, sizeof(b));
    CHECK(strcmp(b, "37.0k") == 0);

    iom_result_free(r);
    iom_diskspd_free(ds);
    free(ds);
    return check_status("test_golden_frontends");
}
