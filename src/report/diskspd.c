/* diskspd.c - DiskSpd-style text and XML reports (see diskspd.h). */
#include "report/diskspd.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/tree.h>
#include <libxml/xmlsave.h>

#include "report/report.h"
#include "stats/compare.h"

enum sect { S_READ = 0, S_WRITE = 1, S_TOTAL = 2 };

/* DiskSpd has reads and writes only: its Total is their sum (a DiskSpd run
 * never trims; trims, of fio jobs, have no place in these reports). */
static void rw_merge(const struct iom_io_stats dir[IOM_NDIR], struct iom_io_stats *out)
{
    iom_io_stats_init(out);
    iom_io_stats_merge(out, &dir[IOM_DIR_READ]);
    iom_io_stats_merge(out, &dir[IOM_DIR_WRITE]);
}

/* The stats of one section (read, write or both) of a result's directions. */
static void sect_stats(const struct iom_io_stats dir[IOM_NDIR], enum sect s,
                       struct iom_io_stats *out)
{
    if (s == S_TOTAL)
        rw_merge(dir, out);
    else
        *out = dir[s];
}

/* DiskSpd's _DisplayFileSize: GiB above 10 GiB, MiB above 10 MiB, KiB above 10 KiB. */
static void file_size(FILE *f, uint64_t b)
{
    if (b > (UINT64_C(10) << 30))
        fprintf(f, "%lluGiB", (unsigned long long)(b >> 30));
    else if (b > (UINT64_C(10) << 20))
        fprintf(f, "%lluMiB", (unsigned long long)(b >> 20));
    else if (b > (UINT64_C(10) << 10))
        fprintf(f, "%lluKiB", (unsigned long long)(b >> 10));
    else
        fprintf(f, "%lluB", (unsigned long long)b);
}

static const struct iom_target_result *target_of(const struct iom_result *r, uint32_t i)
{
    return i < r->nr_targets ? &r->targets[i] : NULL;
}

/*
 * Population standard deviation of the per-interval IOPS of one section,
 * over the complete intervals of the series (DiskSpd's IoBucketizer uses
 * whole buckets; a last, shorter interval is left out). NAN when fewer
 * than one complete interval exists.
 */
static double series_iops_stddev(const struct iom_result *r, enum sect s)
{
    double step = (double)r->job.series_interval_ns / 1e9;
    double *v = malloc((r->nr_series ? r->nr_series : 1) * sizeof(*v));
    if (!v)
        return NAN;
    size_t n = 0;
    for (uint32_t i = 0; i < r->nr_series; i++) {
        const struct iom_series_point *p = &r->series[i];
        if (p->dur_s < step * 0.99)
            continue;
        uint64_t ios = s == S_TOTAL ? p->ios[0] + p->ios[1] : p->ios[s];
        v[n++] = (double)ios / p->dur_s;
    }
    double sd = iom_stddev(v, n, 1, NULL);
    free(v);
    return sd;
}

static void print_target_params(FILE *f, const struct iom_diskspd *ds, const char *path)
{
    const struct iom_job *j = &ds->job;
    fprintf(f, "\tpath: '%s'\n", path);
    fprintf(f, "\t\tthink time: 0ms\n");
    fprintf(f, "\t\tburst size: 0\n");
    fprintf(f, ds->sw_cache_disabled ? "\t\tsoftware cache disabled\n" : "\t\tusing software cache\n");
    if (ds->write_through)
        fprintf(f, ds->sw_cache_disabled ? "\t\thardware write cache disabled, writethrough on\n"
                                         : "\t\thardware and software write caches disabled, "
                                           "writethrough on\n");
    else
        fprintf(f, "\t\tusing hardware write cache, writethrough off\n");
    if (ds->zero_buffers)
        fprintf(f, "\t\tzeroing write buffers\n");
    if (ds->random_buffer_bytes)
        fprintf(f, "\t\twrite buffer size: %llu\n", (unsigned long long)ds->random_buffer_bytes);
    if (ds->write_pct == 0)
        fprintf(f, "\t\tperforming read test\n");
    else if (ds->write_pct == 100)
        fprintf(f, "\t\tperforming write test\n");
    else
        fprintf(f, "\t\tperforming mix test (read/write ratio: %u/%u)\n", 100 - ds->write_pct,
                ds->write_pct);
    fprintf(f, "\t\tblock size: %llu\n", (unsigned long long)j->bs_bytes);
    unsigned long long align = ds->align_bytes ? ds->align_bytes : j->bs_bytes;
    if (ds->random && ds->random_pct < 100)
        fprintf(f, "\t\tusing mixed random/sequential I/O (%u%% random) (alignment/stride: %llu)\n",
                ds->random_pct, align);
    else if (ds->random)
        fprintf(f, "\t\tusing random I/O (alignment: %llu)\n", align);
    else if (ds->interlocked)
        fprintf(f, "\t\tusing interlocked sequential I/O (stride: %llu)\n", align);
    else
        fprintf(f, "\t\tusing sequential I/O (stride: %llu)\n", align);
    if (!ds->total_threads || !ds->requests_per_thread)
        fprintf(f, "\t\tnumber of outstanding I/O operations: %u\n", j->iodepth);
    if (ds->base_offset_bytes)
        fprintf(f, "\t\tbase file offset: %llu\n", (unsigned long long)ds->base_offset_bytes);
    if (ds->max_file_bytes)
        fprintf(f, "\t\tmax file size: %llu\n", (unsigned long long)ds->max_file_bytes);
    fprintf(f, "\t\tthread stride size: %llu\n", (unsigned long long)ds->thread_stride_bytes);
    if (j->rate_iops)
        fprintf(f, "\t\tthroughput rate-limited to %llu IOPS\n", (unsigned long long)j->rate_iops);
    else if (ds->throughput_bpms)
        fprintf(f, "\t\tthroughput rate-limited to %llu B/ms\n",
                (unsigned long long)ds->throughput_bpms);
    if (!ds->total_threads) {
        fprintf(f, "\t\tthreads per file: %u\n", j->numjobs);
        if (j->iodepth > 1)
            fprintf(f, "\t\tusing %s\n", j->ioengine);
    }
    fprintf(f, "\t\tIO priority: normal\n");
}

void iom_report_diskspd_profile_text(FILE *f, const struct iom_diskspd *ds)
{
    fprintf(f, "\nCommand Line: %s\n\n", ds->cmdline);
    fprintf(f, "Input parameters:\n\n");
    fprintf(f, "\ttimespan:   1\n\t-------------\n");
    fprintf(f, "\tduration: %us\n", ds->duration_s);
    fprintf(f, "\twarm up time: %us\n", ds->warmup_s);
    fprintf(f, "\tcool down time: %us\n", ds->cooldown_s);
    if (ds->measure_latency)
        fprintf(f, "\tmeasuring latency\n");
    if (ds->iops_stddev)
        fprintf(f, "\tgathering IOPS at intervals of %ums\n", ds->bucket_ms);
    fprintf(f, "\trandom seed: %u\n", ds->seed);
    for (uint32_t i = 0; i < ds->job.nr_targets; i++)
        print_target_params(f, ds, ds->job.targets[i]);
    fprintf(f, "\n");
}

static void cpu_table(FILE *f, const struct iom_result *r)
{
    const struct iom_cpu_usage *c = &r->cpu;
    double idle = c->idle_pct + c->iowait_pct, usage = 100.0 - idle, user = c->user_pct;
    double kernel = usage - user;
    if (kernel < 0)
        kernel = 0;
    fprintf(f, "\nCPU |  Usage |  User  |  Kernel |  Idle\n");
    fprintf(f, "-------------------------------------------\n");
    for (uint32_t i = 0; i < c->nr_percpu; i++) {
        const struct iom_cpu_one *o = &c->percpu[i];
        double oi = o->idle_pct + o->iowait_pct, ou = 100.0 - oi, ok = ou - o->user_pct;
        fprintf(f, "%4u| %6.2f%%| %6.2f%%|  %6.2f%%| %6.2f%%\n", o->id, ou, o->user_pct,
                ok < 0 ? 0.0 : ok, oi);
    }
    fprintf(f, "-------------------------------------------\n");
    fprintf(f, "avg.| %6.2f%%| %6.2f%%|  %6.2f%%| %6.2f%%\n", usage, user, kernel, idle);
}

/* " | %8.3f" of a latency in ns as ms, or N/A-style blanks DiskSpd uses */
static void section(FILE *f, const struct iom_diskspd *ds, const struct iom_result *r, enum sect s)
{
    const bool lat = ds->measure_latency, sd = ds->iops_stddev;
    fprintf(f, "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s %s%s%s|  file\n",
            lat ? "|  AvgLat  " : "", sd ? "| IopsStdDev " : "", lat ? "| LatStdDev " : "");
    char border[160];
    snprintf(border, sizeof(border), "------------------------------------------------------------------"
             "%s%s%s------------\n", lat ? "-----------" : "", sd ? "-------------" : "",
             lat ? "------------" : "");
    fputs(border, f);
    struct iom_io_stats *total = malloc(sizeof(*total)), *st = malloc(sizeof(*st));
    if (!total || !st) {
        free(total);
        free(st);
        return;
    }
    iom_io_stats_init(total);
    struct iom_summary sm;
    for (uint32_t i = 0; i < r->nr_threads; i++) {
        const struct iom_thread_result *th = &r->threads[i];
        const struct iom_target_result *tr = target_of(r, th->target_idx);
        sect_stats(th->dir, s, st);
        iom_io_stats_merge(total, st);
        iom_summarize(st, r->measured_ns, &sm);
        fprintf(f, "%6u | %15llu | %12llu | %10.2f | %10.2f", i, (unsigned long long)sm.bytes,
                (unsigned long long)sm.ios, sm.mib_per_s, sm.iops);
        if (lat)
            fprintf(f, " | %8.3f", sm.lat_mean_us / 1e3);
        if (sd)
            fprintf(f, " | %10s", "N/A");
        if (lat) {
            if (sm.ios)
                fprintf(f, " |  %8.3f", sm.lat_stddev_us / 1e3);
            else
                fprintf(f, " |       N/A");
        }
        char name[400];
        fprintf(f, " | %s (", tr ? iom_report_target_name(tr, name, sizeof(name)) : "?");
        file_size(f, tr ? tr->size_bytes : 0);
        fprintf(f, ")\n");
    }
    fputs(border, f);
    iom_summarize(total, r->measured_ns, &sm);
    fprintf(f, "total:   %15llu | %12llu | %10.2f | %10.2f", (unsigned long long)sm.bytes,
            (unsigned long long)sm.ios, sm.mib_per_s, sm.iops);
    if (lat)
        fprintf(f, " | %8.3f", sm.lat_mean_us / 1e3);
    if (sd) {
        double v = series_iops_stddev(r, s);
        if (isnan(v))
            fprintf(f, " | %10s", "N/A");
        else
            fprintf(f, " | %10.2f", v);
    }
    if (lat) {
        if (sm.ios)
            fprintf(f, " |  %8.3f", sm.lat_stddev_us / 1e3);
        else
            fprintf(f, " |       N/A");
    }
    fprintf(f, "\n");
    free(total);
    free(st);
}

/* DiskSpd's percentile rows: 25th ... 99th, 3-nines ... 9-nines */
static const struct {
    double pct;
    const char *name;
} pct_rows[] = {
    {25, "25th"}, {50, "50th"}, {75, "75th"}, {90, "90th"}, {95, "95th"}, {99, "99th"},
    {99.9, "3-nines"}, {99.99, "4-nines"}, {99.999, "5-nines"}, {99.9999, "6-nines"},
    {99.99999, "7-nines"}, {99.999999, "8-nines"}, {99.9999999, "9-nines"},
};

/* Percentile p of s in ms (clamped into the exact [min, max] by stats/summary.h). */
static double pct_ms(const struct iom_io_stats *s, double p)
{
    return (double)iom_io_stats_pct_ns(s, p) / 1e6;
}

static void cell(FILE *f, const struct iom_io_stats *s, double ms, const char *sep)
{
    if (s->ios)
        fprintf(f, "%s%10.3f", sep, ms);
    else
        fprintf(f, "%s%10s", sep, "N/A");
}

/* One chart from a read/write pair. */
static void latency_chart(FILE *f, const struct iom_io_stats dir[IOM_NDIR])
{
    struct iom_io_stats *t = malloc(sizeof(*t));
    if (!t)
        return;
    rw_merge(dir, t);
    fprintf(f, "  %%-ile |  Read (ms) | Write (ms) | Total (ms)\n");
    fprintf(f, "----------------------------------------------\n");
    fprintf(f, "    min");
    cell(f, &dir[0], (double)dir[0].lat_min_ns / 1e6, " | ");
    cell(f, &dir[1], (double)dir[1].lat_min_ns / 1e6, " | ");
    fprintf(f, " | %10.3f\n", t->ios ? (double)t->lat_min_ns / 1e6 : 0.0);
    for (size_t k = 0; k < sizeof(pct_rows) / sizeof(pct_rows[0]); k++) {
        fprintf(f, "%7s", pct_rows[k].name);
        cell(f, &dir[0], pct_ms(&dir[0], pct_rows[k].pct), " | ");
        cell(f, &dir[1], pct_ms(&dir[1], pct_rows[k].pct), " | ");
        fprintf(f, " | %10.3f\n", t->ios ? pct_ms(t, pct_rows[k].pct) : 0.0);
    }
    fprintf(f, "    max");
    cell(f, &dir[0], (double)dir[0].lat_max_ns / 1e6, " | ");
    cell(f, &dir[1], (double)dir[1].lat_max_ns / 1e6, " | ");
    fprintf(f, " | %10.3f\n", (double)t->lat_max_ns / 1e6);
    free(t);
}

void iom_report_diskspd_text(FILE *f, const struct iom_diskspd *ds, const struct iom_result *r)
{
    iom_report_diskspd_profile_text(f, ds);
    char when[64] = "";
    struct tm tm;
    if (gmtime_r(&r->start_time, &tm))
        strftime(when, sizeof(when), "%Y/%m/%d %H:%M:%S", &tm);
    fprintf(f, "System information:\n\n");
    fprintf(f, "\tcomputer name: %s\n", r->hostname);
    fprintf(f, "\tstart time: %s UTC\n\n", when);
    fprintf(f, "\tcpu count:\t\t%u\n", r->cpu.nr_cpus);
    fprintf(f, "\tkernel:\t\t\t%s\n", r->kernel);
    fprintf(f, "\tiomark:\t\t\t%s, engine %s\n", IOMARK_VERSION, r->engine);
    fprintf(f, "\n\nResults for timespan 1:\n");
    fprintf(f, "*******************************************************************************\n");
    if (r->measured_ns == 0) {
        fprintf(f, "The test was interrupted before the measurements began. No results are "
                   "displayed.\n");
        return;
    }
    fprintf(f, "\nactual test time:\t%.2fs\n", (double)r->measured_ns / 1e9);
    fprintf(f, "thread count:\t\t%u\n", r->nr_threads);
    if (ds->total_threads && ds->requests_per_thread)
        fprintf(f, "request count:\t\t%u\n", ds->requests_per_thread);
    fprintf(f, "proc count:\t\t%u\n", r->cpu.nr_cpus);
    cpu_table(f, r);
    fprintf(f, "\nTotal IO\n");
    section(f, ds, r, S_TOTAL);
    fprintf(f, "\nRead IO\n");
    section(f, ds, r, S_READ);
    fprintf(f, "\nWrite IO\n");
    section(f, ds, r, S_WRITE);
    if (ds->measure_latency) {
        fprintf(f, "\n\n");
        if (r->nr_targets > 1)
            for (uint32_t i = 0; i < r->nr_targets; i++) {
                char name[400];
                fprintf(f, "\n%s\n", iom_report_target_name(&r->targets[i], name, sizeof(name)));
                latency_chart(f, r->targets[i].dir);
            }
        fprintf(f, "\ntotal:\n");
        latency_chart(f, r->total);
    }
    if (r->interrupted_signal)
        fprintf(f, "\n(interrupted by %s; results cover the measured time until then)\n",
                iom_signal_name(r->interrupted_signal));
}

/* ---- XML ---- */

static xmlNodePtr add(xmlNodePtr parent, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static xmlNodePtr add(xmlNodePtr parent, const char *name, const char *fmt, ...)
{
    char buf[1024];
    if (!fmt)
        return xmlNewChild(parent, NULL, BAD_CAST name, NULL);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return xmlNewTextChild(parent, NULL, BAD_CAST name, BAD_CAST buf);
}

static void attr(xmlNodePtr n, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void attr(xmlNodePtr n, const char *name, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    xmlNewProp(n, BAD_CAST name, BAD_CAST buf);
}

static const char *tf(bool b)
{
    return b ? "true" : "false";
}

static void xml_profile(xmlNodePtr root, const struct iom_diskspd *ds)
{
    const struct iom_job *j = &ds->job;
    xmlNodePtr p = add(root, "Profile", NULL);
    add(p, "Progress", "0");
    add(p, "ResultFormat", "%s", ds->xml ? "xml" : "text");
    add(p, "Verbose", "false");
    xmlNodePtr ts = add(add(p, "TimeSpans", NULL), "TimeSpan", NULL);
    add(ts, "CompletionRoutines", "false");
    add(ts, "MeasureLatency", "%s", tf(ds->measure_latency));
    add(ts, "CalculateIopsStdDev", "%s", tf(ds->iops_stddev));
    add(ts, "DisableAffinity", "false");
    add(ts, "Duration", "%u", ds->duration_s);
    add(ts, "Warmup", "%u", ds->warmup_s);
    add(ts, "Cooldown", "%u", ds->cooldown_s);
    add(ts, "ThreadCount", "%u", ds->total_threads);
    add(ts, "RequestCount", "%u", ds->requests_per_thread);
    add(ts, "IoBucketDuration", "%u", ds->bucket_ms);
    add(ts, "RandSeed", "%u", ds->seed);
    xmlNodePtr tgts = add(ts, "Targets", NULL);
    unsigned long long align = ds->align_bytes ? ds->align_bytes : j->bs_bytes;
    for (uint32_t i = 0; i < j->nr_targets; i++) {
        xmlNodePtr t = add(tgts, "Target", NULL);
        add(t, "Path", "%s", j->targets[i]);
        add(t, "BlockSize", "%llu", (unsigned long long)j->bs_bytes);
        add(t, "BaseFileOffset", "%llu", (unsigned long long)ds->base_offset_bytes);
        add(t, "SequentialScan", "false");
        add(t, "RandomAccess", "false");
        add(t, "TemporaryFile", "false");
        add(t, "UseLargePages", "false");
        add(t, "DisableOSCache", "%s", tf(ds->sw_cache_disabled));
        add(t, "WriteThrough", "%s", tf(ds->write_through));
        xmlNodePtr wb = add(t, "WriteBufferContent", NULL);
        if (ds->zero_buffers) {
            add(wb, "Pattern", "zero");
        } else {
            add(wb, "Pattern", "random");
            if (ds->random_buffer_bytes)
                add(add(wb, "RandomDataSource", NULL), "SizeInBytes", "%llu",
                    (unsigned long long)ds->random_buffer_bytes);
        }
        add(t, "ParallelAsyncIO", "false");
        if (ds->create)
            add(t, "FileSize", "%llu", (unsigned long long)ds->create_bytes);
        if (ds->random) {
            add(t, "Random", "%llu", align);
            if (ds->random_pct < 100)
                add(t, "RandomRatio", "%u", ds->random_pct);
        } else {
            add(t, "StrideSize", "%llu", align);
            add(t, "InterlockedSequential", "%s", tf(ds->interlocked));
        }
        if (ds->dist != IOM_DSPD_DIST_UNIFORM) {
            xmlNodePtr d = add(add(t, "Distribution", NULL),
                               ds->dist == IOM_DSPD_DIST_PCT ? "Percent" : "Absolute", NULL);
            uint32_t n = ds->dist == IOM_DSPD_DIST_PCT ? j->nr_zones : ds->nr_ranges;
            for (uint32_t k = 0; k < n; k++) {
                xmlNodePtr rg;
                if (ds->dist == IOM_DSPD_DIST_PCT) {
                    rg = add(d, "Range", "%u", j->zones[k].range_pct);
                    attr(rg, "IO", "%u", j->zones[k].access_pct);
                } else {
                    rg = add(d, "Range", "%llu", (unsigned long long)ds->ranges[k].span_bytes);
                    attr(rg, "IO", "%u", ds->ranges[k].io_pct);
                }
            }
        }
        add(t, "ThreadStride", "%llu", (unsigned long long)ds->thread_stride_bytes);
        add(t, "MaxFileSize", "%llu", (unsigned long long)ds->max_file_bytes);
        add(t, "RequestCount", "%u", ds->outstanding);
        add(t, "WriteRatio", "%u", ds->write_pct);
        if (ds->throughput_iops) {
            xmlNodePtr th = add(t, "Throughput", "%llu", (unsigned long long)ds->throughput_iops);
            attr(th, "unit", "IOPS");
        } else {
            add(t, "Throughput", "%llu", (unsigned long long)ds->throughput_bpms);
        }
        add(t, "ThreadsPerFile", "%u", ds->total_threads ? 1 : j->numjobs);
        add(t, "IOPriority", "%u", ds->io_priority);
        add(t, "Weight", "1");
    }
}

static void xml_target_latency(xmlNodePtr t, const struct iom_io_stats dir[IOM_NDIR])
{
    struct iom_summary sm;
    static const char *const avg[3] = {"AverageReadLatencyMilliseconds",
                                       "AverageWriteLatencyMilliseconds",
                                       "AverageLatencyMilliseconds"};
    static const char *const sdev[3] = {"ReadLatencyStdev", "WriteLatencyStdev", "LatencyStdev"};
    struct iom_io_stats *st = malloc(sizeof(*st));
    if (!st)
        return;
    for (int s = 0; s < 3; s++) {
        sect_stats(dir, (enum sect)s, st);
        if (!st->ios)
            continue;
        iom_summarize(st, 0, &sm);
        add(t, avg[s], "%.3f", sm.lat_mean_us / 1e3);
        add(t, sdev[s], "%.3f", sm.lat_stddev_us / 1e3);
    }
    free(st);
}

static void xml_latency(xmlNodePtr ts, const struct iom_result *r)
{
    xmlNodePtr l = add(ts, "Latency", NULL);
    static const char *const avg[3] = {"AverageReadMilliseconds", "AverageWriteMilliseconds",
                                       "AverageTotalMilliseconds"};
    static const char *const sdev[3] = {"ReadLatencyStdev", "WriteLatencyStdev", "LatencyStdev"};
    static const char *const col[3] = {"ReadMilliseconds", "WriteMilliseconds",
                                       "TotalMilliseconds"};
    struct iom_io_stats *st = malloc(3 * sizeof(*st));
    if (!st)
        return;
    for (int s = 0; s < 3; s++)
        sect_stats(r->total, (enum sect)s, &st[s]);
    for (int s = 0; s < 3; s++) {
        if (!st[s].ios)
            continue;
        struct iom_summary sm;
        iom_summarize(&st[s], 0, &sm);
        add(l, avg[s], "%.3f", sm.lat_mean_us / 1e3);
        add(l, sdev[s], "%.3f", sm.lat_stddev_us / 1e3);
    }
    /* 0 (min), 1..99, 99.9 ... 99.9999999, 100 (max) */
    static const char *const nines[] = {"99.9", "99.99", "99.999", "99.9999", "99.99999",
                                        "99.999999", "99.9999999"};
    for (int k = 0; k <= 107; k++) {
        char name[16];
        double p;
        if (k <= 99) {
            p = k;
            snprintf(name, sizeof(name), "%d", k);
        } else if (k < 107) {
            p = strtod(nines[k - 100], NULL);
            snprintf(name, sizeof(name), "%s", nines[k - 100]);
        } else {
            p = 100;
            snprintf(name, sizeof(name), "100");
        }
        xmlNodePtr b = add(l, "Bucket", NULL);
        add(b, "Percentile", "%s", name);
        for (int s = 0; s < 3; s++) {
            if (!st[s].ios)
                continue;
            double ms = k == 0     ? (double)st[s].lat_min_ns / 1e6
                        : k == 107 ? (double)st[s].lat_max_ns / 1e6
                                   : pct_ms(&st[s], p);
            add(b, col[s], "%.3f", ms);
        }
    }
    free(st);
}

static void xml_iops(xmlNodePtr ts, const struct iom_diskspd *ds, const struct iom_result *r)
{
    xmlNodePtr io = add(ts, "Iops", NULL);
    static const char *const names[3] = {"ReadIopsStdDev", "WriteIopsStdDev", "IopsStdDev"};
    for (int s = 0; s < 3; s++) {
        double v = series_iops_stddev(r, (enum sect)s);
        if (!isnan(v))
            add(io, names[s], "%.3f", v);
    }
    double step = (double)ds->bucket_ms / 1e3;
    for (uint32_t i = 0; i < r->nr_series; i++) {
        const struct iom_series_point *p = &r->series[i];
        if (p->dur_s < step * 0.99)
            continue;
        xmlNodePtr b = add(io, "Bucket", NULL);
        double rd = (double)p->ios[0] / p->dur_s, wr = (double)p->ios[1] / p->dur_s;
        attr(b, "SampleMillisecond", "%u", (unsigned)((i + 1) * ds->bucket_ms));
        attr(b, "Read", "%.0f", rd);
        attr(b, "Write", "%.0f", wr);
        attr(b, "Total", "%.0f", rd + wr);
    }
}

static void xml_results(xmlNodePtr root, const struct iom_diskspd *ds, const struct iom_result *r)
{
    xmlNodePtr sys = add(root, "System", NULL);
    add(sys, "ComputerName", "%s", r->hostname);
    xmlNodePtr tool = add(sys, "Tool", NULL);
    add(tool, "Version", "iomark %s", IOMARK_VERSION);
    add(tool, "VersionDate", "%s", "");
    char when[64] = "";
    struct tm tm;
    if (gmtime_r(&r->start_time, &tm))
        strftime(when, sizeof(when), "%Y/%m/%d %H:%M:%S UTC", &tm);
    add(sys, "RunTime", "%s", when);
    xmlNodePtr topo = add(sys, "ProcessorTopology", NULL);
    xmlNodePtr g = add(topo, "Group", NULL);
    unsigned n = r->cpu.nr_cpus;
    attr(g, "Group", "0");
    attr(g, "MaximumProcessors", "%u", n);
    attr(g, "ActiveProcessors", "%u", n);
    attr(g, "ActiveProcessorMask", "0x%llx",
         n >= 64 ? ~0ULL : (unsigned long long)((UINT64_C(1) << n) - 1));
    xml_profile(root, ds);

    xmlNodePtr ts = add(root, "TimeSpan", NULL);
    add(ts, "TestTimeSeconds", "%.2f", (double)r->measured_ns / 1e9);
    add(ts, "ThreadCount", "%u", r->nr_threads);
    add(ts, "RequestCount", "%u", ds->requests_per_thread);
    add(ts, "ProcCount", "%u", n);
    const struct iom_cpu_usage *c = &r->cpu;
    double idle = c->idle_pct + c->iowait_pct, usage = 100.0 - idle;
    double kernel = usage - c->user_pct;
    xmlNodePtr cu = add(ts, "CpuUtilization", NULL);
    for (uint32_t i = 0; i < c->nr_percpu; i++) {
        const struct iom_cpu_one *o = &c->percpu[i];
        double oi = o->idle_pct + o->iowait_pct, ou = 100.0 - oi, ok = ou - o->user_pct;
        xmlNodePtr cpu = add(cu, "CPU", NULL); /* DiskSpd 2.2's elements, in its order */
        add(cpu, "Socket", "%u", o->socket);
        add(cpu, "Node", "%u", o->node);
        add(cpu, "Group", "0");
        add(cpu, "Core", "%u", o->core);
        add(cpu, "EfficiencyClass", "%u", o->eff_class);
        add(cpu, "Id", "%u", o->id);
        add(cpu, "UsagePercent", "%.2f", ou);
        add(cpu, "UserPercent", "%.2f", o->user_pct);
        add(cpu, "KernelPercent", "%.2f", ok < 0 ? 0.0 : ok);
        add(cpu, "IdlePercent", "%.2f", oi);
    }
    xmlNodePtr avg = add(cu, "Average", NULL);
    add(avg, "UsagePercent", "%.2f", usage);
    add(avg, "UserPercent", "%.2f", c->user_pct);
    add(avg, "KernelPercent", "%.2f", kernel < 0 ? 0.0 : kernel);
    add(avg, "IdlePercent", "%.2f", idle);
    if (ds->measure_latency)
        xml_latency(ts, r);
    if (ds->iops_stddev)
        xml_iops(ts, ds, r);
    for (uint32_t i = 0; i < r->nr_threads; i++) {
        const struct iom_thread_result *th = &r->threads[i];
        const struct iom_target_result *tr = target_of(r, th->target_idx);
        xmlNodePtr t = add(ts, "Thread", NULL);
        add(t, "Id", "%u", i);
        xmlNodePtr tg = add(t, "Target", NULL);
        const struct iom_io_stats *d = th->dir;
        add(tg, "Path", "%s", tr ? tr->path : "");
        add(tg, "BytesCount", "%llu", (unsigned long long)(d[0].bytes + d[1].bytes));
        add(tg, "FileSize", "%llu", (unsigned long long)(tr ? tr->size_bytes : 0));
        add(tg, "IOCount", "%llu", (unsigned long long)(d[0].ios + d[1].ios));
        add(tg, "ReadBytes", "%llu", (unsigned long long)d[0].bytes);
        add(tg, "ReadCount", "%llu", (unsigned long long)d[0].ios);
        add(tg, "WriteBytes", "%llu", (unsigned long long)d[1].bytes);
        add(tg, "WriteCount", "%llu", (unsigned long long)d[1].ios);
        if (ds->measure_latency)
            xml_target_latency(tg, d);
    }
}

int iom_report_diskspd_xml(FILE *f, const struct iom_diskspd *ds, const struct iom_result *r)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    if (!doc)
        return -ENOMEM;
    xmlNodePtr root;
    if (r) {
        root = xmlNewNode(NULL, BAD_CAST "Results");
        xmlDocSetRootElement(doc, root);
        xml_results(root, ds, r);
    } else {
        /* -Rpxml: the profile alone, as DiskSpd prints it */
        xmlNodePtr tmp = xmlNewNode(NULL, BAD_CAST "Tmp");
        xml_profile(tmp, ds);
        root = tmp->children;
        xmlUnlinkNode(root);
        xmlFreeNode(tmp);
        xmlDocSetRootElement(doc, root);
    }
    xmlBufferPtr buf = xmlBufferCreate();
    int rc = -ENOMEM;
    if (buf) {
        xmlSaveCtxtPtr sc = xmlSaveToBuffer(buf, "UTF-8", XML_SAVE_FORMAT | XML_SAVE_NO_DECL);
        if (sc) {
            xmlSaveDoc(sc, doc);
            xmlSaveClose(sc);
            size_t len = (size_t)xmlBufferLength(buf);
            rc = fwrite(xmlBufferContent(buf), 1, len, f) == len ? 0 : -EIO;
        }
        xmlBufferFree(buf);
    }
    xmlFreeDoc(doc);
    return rc;
}
