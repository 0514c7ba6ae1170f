/* json.c - the JSON result document (schema in docs/json-schema.md). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "report/probe_report.h"
#include "report/report.h"
#include "workload/options.h"

const char *iom_signal_name(int sig)
{
    switch (sig) {
    case SIGINT:
        return "SIGINT";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    case SIGPIPE:
        return "SIGPIPE";
    default:
        return "signal";
    }
}

static void iso_time(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

cJSON *iom_json_add_host(cJSON *doc, const char *hostname, const char *kernel, unsigned nr_cpus)
{
    cJSON *h = cJSON_AddObjectToObject(doc, "host");
    if (!h)
        return NULL;
    struct utsname u;
    char k[sizeof(u.sysname) + sizeof(u.release) + 2];
    if ((!hostname || !kernel) && uname(&u) == 0) {
        snprintf(k, sizeof(k), "%s %s", u.sysname, u.release);
        if (!hostname)
            hostname = u.nodename;
        if (!kernel)
            kernel = k;
    }
    cJSON_AddStringToObject(h, "hostname", hostname ? hostname : "");
    cJSON_AddStringToObject(h, "kernel", kernel ? kernel : "");
    cJSON_AddNumberToObject(h, "nr_cpus", nr_cpus ? (double)nr_cpus
                                                  : (double)sysconf(_SC_NPROCESSORS_ONLN));
    return h;
}

cJSON *iom_json_doc_new(const char *type)
{
    cJSON *d = cJSON_CreateObject();
    if (!d)
        return NULL;
    cJSON_AddStringToObject(d, "schema", IOM_JSON_SCHEMA);
    cJSON_AddNumberToObject(d, "schema_version", IOM_JSON_SCHEMA_VERSION);
    cJSON_AddStringToObject(d, "type", type);
    cJSON_AddStringToObject(d, "iomark_version", IOMARK_VERSION);
    return d;
}

cJSON *iom_json_error_doc(const char *type, const char *message)
{
    cJSON *d = iom_json_doc_new(type);
    if (!d)
        return NULL;
    char ts[32];
    iso_time(time(NULL), ts, sizeof(ts));
    cJSON_AddStringToObject(d, "start_time", ts);
    cJSON_AddStringToObject(d, "status", "error");
    cJSON_AddStringToObject(d, "error", message);
    return d;
}

cJSON *iom_json_io_stats(const struct iom_io_stats *s, uint64_t interval_ns)
{
    struct iom_summary m;
    iom_summarize(s, interval_ns, &m);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ios", (double)m.ios);
    cJSON_AddNumberToObject(o, "bytes", (double)m.bytes);
    cJSON_AddNumberToObject(o, "errors", (double)m.errors);
    cJSON_AddNumberToObject(o, "iops", m.iops);
    cJSON_AddNumberToObject(o, "mb_per_s", m.mb_per_s);
    cJSON_AddNumberToObject(o, "mib_per_s", m.mib_per_s);
    cJSON *lat = cJSON_AddObjectToObject(o, "lat_us");
    cJSON_AddNumberToObject(lat, "samples", (double)m.ios);
    cJSON_AddNumberToObject(lat, "min", m.lat_min_us);
    cJSON_AddNumberToObject(lat, "mean", m.lat_mean_us);
    cJSON_AddNumberToObject(lat, "stddev", m.lat_stddev_us);
    cJSON_AddNumberToObject(lat, "max", m.lat_max_us);
    cJSON *p = cJSON_AddObjectToObject(lat, "percentiles");
    for (int i = 0; i < IOM_NR_PCT; i++) {
        char k[16];
        snprintf(k, sizeof(k), "%g", iom_pct_list[i]);
        cJSON_AddNumberToObject(p, k, m.lat_pct_us[i]);
    }
    return o;
}

static const char *sync_name(enum iom_sync s)
{
    return s == IOM_SYNC_DSYNC ? "dsync" : s == IOM_SYNC_SYNC ? "sync" : "none";
}

static const char *dist_name(enum iom_dist d)
{
    switch (d) {
    case IOM_DIST_ZIPF:
        return "zipf";
    case IOM_DIST_PARETO:
        return "pareto";
    case IOM_DIST_ZONED:
        return "zoned";
    default:
        return "random";
    }
}

static int add_option(const char *name, const char *value, void *arg)
{
    cJSON *v = value ? cJSON_CreateString(value) : cJSON_CreateNull();
    return v && cJSON_AddItemToObject(arg, name, v) ? 0 : -1;
}

cJSON *iom_json_spec(const struct iom_job *job)
{
    cJSON *s = cJSON_CreateObject();
    cJSON_AddStringToObject(s, "name", job->name);
    cJSON_AddStringToObject(s, "rw", iom_rw_name(job->rw));
    cJSON_AddNumberToObject(s, "rwmixread_pct", iom_job_read_pct(job));
    cJSON_AddNumberToObject(s, "bs_bytes", (double)iom_job_max_bs(job));
    if (job->nr_bssplit) {
        cJSON *a = cJSON_AddArrayToObject(s, "bssplit");
        for (uint32_t i = 0; i < job->nr_bssplit; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "bs_bytes", (double)job->bssplit[i].bs_bytes);
            cJSON_AddNumberToObject(e, "pct", job->bssplit[i].pct);
            cJSON_AddItemToArray(a, e);
        }
    }
    cJSON_AddNumberToObject(s, "blockalign_bytes", (double)job->blockalign_bytes);
    cJSON_AddStringToObject(s, "random_distribution", dist_name(job->dist));
    if (job->dist == IOM_DIST_ZIPF || job->dist == IOM_DIST_PARETO)
        cJSON_AddNumberToObject(s, "random_distribution_param", job->dist_param);
    cJSON_AddNumberToObject(s, "percentage_random", job->percentage_random);
    cJSON_AddBoolToObject(s, "sequential_shared", job->seq_shared);
    cJSON_AddNumberToObject(s, "iodepth", job->iodepth);
    /* what a thread kept in flight: 1 with a synchronous engine (psync), as fio caps it */
    cJSON_AddNumberToObject(s, "iodepth_effective", iom_engine_depth(job->ioengine, job->iodepth));
    cJSON_AddNumberToObject(s, "numjobs", job->numjobs);
    cJSON_AddNumberToObject(s, "offset_bytes", (double)job->offset_bytes);
    cJSON_AddNumberToObject(s, "size_bytes", (double)job->size_bytes);
    cJSON_AddNumberToObject(s, "runtime_s", (double)job->runtime_ns / 1e9);
    cJSON_AddNumberToObject(s, "ramp_time_s", (double)job->ramp_ns / 1e9);
    cJSON_AddNumberToObject(s, "cooldown_time_s", (double)job->cooldown_ns / 1e9);
    cJSON_AddNumberToObject(s, "io_limit_bytes", (double)job->io_limit_bytes);
    cJSON_AddNumberToObject(s, "series_interval_s", (double)job->series_interval_ns / 1e9);
    cJSON_AddStringToObject(s, "ioengine", job->ioengine);
    cJSON_AddBoolToObject(s, "direct", job->direct);
    cJSON_AddStringToObject(s, "io_mode", job->direct ? "direct" : "buffered");
    cJSON_AddStringToObject(s, "sync", sync_name(job->sync));
    cJSON_AddNumberToObject(s, "rate_iops", (double)job->rate_iops);
    cJSON_AddNumberToObject(s, "rate_bytes_per_s", (double)job->rate_bytes_per_s);
    cJSON_AddNumberToObject(s, "randseed", (double)job->seed);
    cJSON_AddBoolToObject(s, "zero_buffers", job->zero_buffers);
    cJSON_AddStringToObject(s, "verify", job->verify ? "crc32c" : "none");
    cJSON_AddBoolToObject(s, "continue_on_error", job->continue_on_error);
    cJSON *t = cJSON_AddArrayToObject(s, "targets");
    for (uint32_t i = 0; i < job->nr_targets; i++)
        cJSON_AddItemToArray(t, cJSON_CreateString(job->targets[i]));
    /* every option from the option table itself; what --replay applies */
    cJSON *o = cJSON_AddObjectToObject(s, "options");
    if (o)
        iom_options_each(job, add_option, o);
    return s;
}

/* "read", "write", "trim" (fio's third direction, as fio's JSON) and their "total" */
static void add_dirs(cJSON *o, const struct iom_io_stats d[IOM_NDIR], uint64_t interval_ns)
{
    struct iom_io_stats *all = malloc(sizeof(*all));
    cJSON_AddItemToObject(o, "read", iom_json_io_stats(&d[IOM_DIR_READ], interval_ns));
    cJSON_AddItemToObject(o, "write", iom_json_io_stats(&d[IOM_DIR_WRITE], interval_ns));
    cJSON_AddItemToObject(o, "trim", iom_json_io_stats(&d[IOM_DIR_TRIM], interval_ns));
    if (all) {
        iom_result_merge_dirs(d, all);
        cJSON_AddItemToObject(o, "total", iom_json_io_stats(all, interval_ns));
        free(all);
    }
}

cJSON *iom_report_json(const struct iom_result *r)
{
    cJSON *d = iom_json_doc_new("run");
    if (!d)
        return NULL;
    char ts[32];
    iso_time(r->start_time, ts, sizeof(ts));
    cJSON_AddStringToObject(d, "start_time", ts);
    const char *status = r->error[0] ? "error" : r->interrupted_signal ? "interrupted" : "ok";
    cJSON_AddStringToObject(d, "status", status);
    if (r->interrupted_signal)
        cJSON_AddStringToObject(d, "interrupted_by", iom_signal_name(r->interrupted_signal));
    if (r->error[0])
        cJSON_AddStringToObject(d, "error", r->error);
    iom_json_add_host(d, r->hostname, r->kernel, r->cpu.nr_cpus);
    cJSON_AddStringToObject(d, "engine", r->engine);
    if (r->engine_note[0])
        cJSON_AddStringToObject(d, "engine_note", r->engine_note);
    cJSON_AddItemToObject(d, "spec", iom_json_spec(&r->job));

    cJSON *du = cJSON_AddObjectToObject(d, "duration");
    cJSON_AddNumberToObject(du, "warmup_s", (double)r->warmup_ns / 1e9);
    cJSON_AddNumberToObject(du, "measured_s", (double)r->measured_ns / 1e9);
    cJSON_AddNumberToObject(du, "cooldown_s", (double)r->cooldown_ns / 1e9);

    uint64_t ios = r->total[0].ios + r->total[1].ios + r->total[2].ios;
    double proc_s = r->cpu.process_user_s + r->cpu.process_system_s;
    double busy = r->cpu.user_pct + r->cpu.system_pct;
    double secs = (double)r->measured_ns / 1e9;
    cJSON *c = cJSON_AddObjectToObject(d, "cpu");
    cJSON_AddNumberToObject(c, "nr_cpus", r->cpu.nr_cpus);
    cJSON_AddNumberToObject(c, "user_pct", r->cpu.user_pct);
    cJSON_AddNumberToObject(c, "system_pct", r->cpu.system_pct);
    cJSON_AddNumberToObject(c, "iowait_pct", r->cpu.iowait_pct);
    cJSON_AddNumberToObject(c, "steal_pct", r->cpu.steal_pct);
    cJSON_AddNumberToObject(c, "idle_pct", r->cpu.idle_pct);
    cJSON_AddNumberToObject(c, "process_user_s", r->cpu.process_user_s);
    cJSON_AddNumberToObject(c, "process_system_s", r->cpu.process_system_s);
    cJSON_AddNumberToObject(c, "process_cpu_us_per_io", ios ? proc_s * 1e6 / (double)ios : 0);
    cJSON_AddNumberToObject(c, "iops_per_cpu_pct",
                            busy > 0 && secs > 0 ? (double)ios / secs / busy : 0);

    cJSON *to = cJSON_AddObjectToObject(d, "total");
    add_dirs(to, r->total, r->measured_ns);
    if (r->sync_total.ios) /* fsync=N / fdatasync=N: their count and latency, no bytes */
        cJSON_AddItemToObject(to, "sync", iom_json_io_stats(&r->sync_total, r->measured_ns));

    cJSON *ta = cJSON_AddArrayToObject(d, "targets");
    for (uint32_t i = 0; i < r->nr_targets; i++) {
        const struct iom_target_result *t = &r->targets[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "path", t->path);
        if (t->of_rank) { /* path and the file's facts are its first target's */
            cJSON *pa = cJSON_AddArrayToObject(o, "paths");
            for (uint32_t k = 0; iom_target_path(t, k); k++)
                cJSON_AddItemToArray(pa, cJSON_CreateString(iom_target_path(t, k)));
            cJSON_AddNumberToObject(o, "rank", t->rank);
            cJSON_AddStringToObject(o, "host", t->host);
        }
        cJSON_AddStringToObject(o, "device", t->devname);
        cJSON_AddStringToObject(o, "kind", t->is_blockdev ? "block_device" : "file");
        cJSON_AddBoolToObject(o, "created", t->created);
        if (t->extended)
            cJSON_AddNumberToObject(o, "extended_from_bytes", (double)t->extended_from);
        cJSON_AddBoolToObject(o, "sparse", t->sparse);
        cJSON_AddNumberToObject(o, "size_bytes", (double)t->size_bytes);
        cJSON_AddNumberToObject(o, "region_start_bytes", (double)t->region_start);
        cJSON_AddNumberToObject(o, "region_bytes", (double)t->region_len);
        cJSON_AddNumberToObject(o, "unused_tail_bytes", (double)t->unused_tail_bytes);
        cJSON_AddNumberToObject(o, "logical_block_bytes", t->logical_block_bytes);
        if (t->first_error_errno) {
            cJSON *e = cJSON_AddObjectToObject(o, "first_error");
            cJSON_AddNumberToObject(e, "offset_bytes", (double)t->first_error_offset);
            cJSON_AddNumberToObject(e, "errno", t->first_error_errno);
            cJSON_AddStringToObject(e, "message", strerror(t->first_error_errno));
        }
        if (r->job.verify) {
            cJSON *v = cJSON_AddObjectToObject(o, "verify");
            cJSON_AddNumberToObject(v, "blocks_checked", (double)t->verified_blocks);
            cJSON_AddNumberToObject(v, "mismatches", (double)t->verify_errors);
            if (t->verify_errors) {
                const struct iom_verify_mismatch *m = &t->first_mismatch;
                cJSON *f = cJSON_AddObjectToObject(v, "first_mismatch");
                cJSON_AddNumberToObject(f, "offset_bytes", (double)m->offset);
                cJSON_AddStringToObject(f, "reason", m->reason ? m->reason : "");
                cJSON_AddNumberToObject(f, "expected_seed", (double)m->expected_seed);
                cJSON_AddNumberToObject(f, "found_offset_bytes", (double)m->found_offset);
                cJSON_AddNumberToObject(f, "found_seed", (double)m->found_seed);
                cJSON_AddNumberToObject(f, "found_generation", m->found_generation);
                cJSON_AddNumberToObject(f, "found_len_bytes", m->found_len);
                cJSON_AddNumberToObject(f, "crc_stored", m->crc_stored);
                cJSON_AddNumberToObject(f, "crc_computed", m->crc_computed);
            }
        }
        add_dirs(o, t->dir, r->measured_ns);
        iom_probe_json_run_target(o, r, i); /* "probe" and "device_monitor" objects */
        cJSON_AddItemToArray(ta, o);
    }
    cJSON *th = cJSON_AddArrayToObject(d, "threads");
    for (uint32_t i = 0; i < r->nr_threads; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "target", r->threads[i].target_idx);
        cJSON_AddNumberToObject(o, "thread", r->threads[i].thread_idx);
        add_dirs(o, r->threads[i].dir, r->measured_ns);
        cJSON_AddItemToArray(th, o);
    }
    cJSON *se = cJSON_AddObjectToObject(d, "series");
    cJSON_AddNumberToObject(se, "interval_s", (double)r->job.series_interval_ns / 1e9);
    cJSON *pts = cJSON_AddArrayToObject(se, "points");
    for (uint32_t i = 0; i < r->nr_series; i++) {
        const struct iom_series_point *p = &r->series[i];
        cJSON *o = cJSON_CreateObject();
        double dur = p->dur_s > 0 ? p->dur_s : 1;
        cJSON_AddNumberToObject(o, "t_s", p->t_end_s);
        cJSON_AddNumberToObject(o, "dur_s", p->dur_s);
        cJSON_AddNumberToObject(o, "read_iops", (double)p->ios[0] / dur);
        cJSON_AddNumberToObject(o, "write_iops", (double)p->ios[1] / dur);
        cJSON_AddNumberToObject(o, "trim_iops", (double)p->ios[2] / dur);
        uint64_t n = p->ios[0] + p->ios[1] + p->ios[2];
        cJSON_AddNumberToObject(o, "iops", (double)n / dur);
        cJSON_AddNumberToObject(o, "ios", (double)n);
        cJSON_AddNumberToObject(o, "mib_per_s",
                                (double)(p->bytes[0] + p->bytes[1] + p->bytes[2]) / dur / 1048576.0);
        cJSON_AddNumberToObject(o, "lat_mean_us", p->lat_mean_us);
        cJSON_AddNumberToObject(o, "lat_p99_us", p->lat_p99_us);
        cJSON_AddItemToArray(pts, o);
    }
    return d;
}

bool iom_output_in_place(const char *path)
{
    struct stat st;
#ifdef _WIN32 /* no symbolic links to keep: a device name (NUL) is not a regular file */
    return path && stat(path, &st) == 0 && !S_ISREG(st.st_mode);
#else
    return path && lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
#endif
}

int iom_json_write(const cJSON *doc, const char *path)
{
    return iom_json_write_after(NULL, doc, path);
}

int iom_json_write_after(const char *prefix, const cJSON *doc, const char *path)
{
    char *text = cJSON_Print(doc);
    if (!text)
        return -ENOMEM;
    int rc = 0;
    if (!prefix)
        prefix = "";
    errno = 0;
    if (!path) {
        if (fputs(prefix, stdout) < 0 || fputs(text, stdout) < 0 || fputc('\n', stdout) < 0 ||
            fflush(stdout) != 0)
            rc = errno ? -errno : -EIO; /* ENOSPC, EPIPE: as write(2) said */
        free(text);
        return rc;
    }
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) {
        free(text);
        return -ENOMEM;
    }
    bool direct = iom_output_in_place(path);
    snprintf(tmp, n, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(direct ? path : tmp, "w");
    if (!f) {
        rc = -errno;
    } else {
        if (fputs(prefix, f) < 0 || fputs(text, f) < 0 || fputc('\n', f) < 0)
            rc = errno ? -errno : -EIO;
        if (fclose(f) != 0 && !rc)
            rc = -errno;
        if (!direct && !rc && rename(tmp, path) != 0)
            rc = -errno;
        if (!direct && rc)
            unlink(tmp);
    }
    free(tmp);
    free(text);
    return rc;
}
