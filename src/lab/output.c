/*
 * output.c - lab.json and the lab's tables: one comparison per job, shaped
 * by its command (run and diskspd: IOPS, latency; sweep: the scaling table
 * with its knee; mark: the CrystalDiskMark grid; tpcc: NOPM, TPM and p95 per
 * transaction), the guest's queue limits, and the I/O path table (the
 * guest's device counters beside iomark's outstanding I/O, CPU per I/O).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lab/labrun.h"
#include "report/report.h"

void iom_lab_iso_utc(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char note_models[] =
    "QEMU's emulated device models are measured, not VMware's: absolute IOPS, latency and CPU "
    "cost do not carry over; the guest driver's queue limits and maximum I/O size do";
static const char note_cpu[] =
    "CPU per I/O: QEMU's user+system CPU time (/proc/PID/stat) and the guest's busy CPU time "
    "(/proc/stat) while the run was on, each divided by the I/Os the guest's disk completed "
    "(/sys/block/DISK/stat); under TCG the QEMU figure includes the emulation of the guest's "
    "CPU, so it is far above what a hypervisor with hardware virtualisation spends";

cJSON *iom_lab_env_json(const struct iom_lab_env *e, const struct iom_lab_opts *o,
                        const struct iom_lab_unit *u)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddStringToObject(l, "accelerator", o->accel);
    cJSON_AddStringToObject(l, "accelerator_reason", o->accel_reason ? o->accel_reason : "");
    cJSON_AddStringToObject(l, "qemu_version", e->qemu_version);
    cJSON_AddStringToObject(l, "guest_kernel", e->setup.kernel_version);
    cJSON_AddStringToObject(l, "guest_kernel_package", e->setup.kernel_package);
    cJSON_AddStringToObject(l, "kernel_image", e->kernel);
    cJSON_AddStringToObject(l, "firmware", e->bios ? e->bios : "QEMU default (SeaBIOS)");
    cJSON_AddNumberToObject(l, "vcpus", o->vcpus);
    cJSON_AddNumberToObject(l, "memory_mib", o->memory_mib);
    cJSON_AddStringToObject(l, "cache", o->cache);
    cJSON_AddStringToObject(l, "scheduler", o->scheduler);
    cJSON_AddNumberToObject(l, "disk_size_bytes", (double)o->disk_bytes);
    cJSON_AddStringToObject(l, "disk_format", "raw");
    if (o->nr_jobs)
        cJSON_AddStringToObject(l, "workload", o->jobs[0].label);
    if (o->study) {
        cJSON_AddStringToObject(l, "study", o->study);
        cJSON_AddStringToObject(l, "study_title", o->study_title ? o->study_title : "");
        cJSON_AddNumberToObject(l, "scale", o->scale);
    }
    cJSON *h = cJSON_AddObjectToObject(l, "host");
    cJSON_AddStringToObject(h, "cpu_model", e->host_cpu);
    cJSON_AddNumberToObject(h, "nr_cpus", (double)e->host_cpus);
    cJSON_AddNumberToObject(h, "loadavg_1m_start", e->load_start);
    if (e->load_end >= 0)
        cJSON_AddNumberToObject(h, "loadavg_1m_end", e->load_end);
    /* the guest parameters: of this unit when given, else the first unit's */
    if (!u && o->nr_units)
        u = &o->units[0];
    cJSON *gp = cJSON_AddArrayToObject(l, "guest_params");
    char cmdline[4096];
    size_t cl = (size_t)snprintf(cmdline, sizeof(cmdline), "%s", IOM_LAB_GUEST_CMDLINE);
    for (size_t i = 0; u && i < u->nr_params; i++) {
        cJSON_AddItemToArray(gp, cJSON_CreateString(u->params[i]));
        if (cl < sizeof(cmdline))
            cl += (size_t)snprintf(cmdline + cl, sizeof(cmdline) - cl, " %s", u->params[i]);
    }
    cJSON_AddStringToObject(l, "kernel_cmdline", cmdline);
    cJSON_AddStringToObject(l, "note", note_models);
    return l;
}

/* A number, or null when unknown. */
static void add_num(cJSON *o, const char *k, double v)
{
    if (isnan(v) || isinf(v))
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, v);
}

static double per_io_us(double cpu_s, double ios)
{
    return ios > 0 && !isnan(cpu_s) ? cpu_s / ios * 1e6 : NAN;
}

static cJSON *run_json(const struct iom_lab_runrec *r)
{
    cJSON *x = cJSON_CreateObject();
    add_num(x, "iops", r->iops);
    add_num(x, "mib_per_s", r->mib_per_s);
    add_num(x, "lat_mean_us", r->lat_mean_us);
    add_num(x, "lat_p99_us", r->lat_p99_us);
    add_num(x, "cpu_pct", r->cpu_pct);
    if (!isnan(r->nopm) || !isnan(r->tpm)) {
        add_num(x, "nopm", r->nopm);
        add_num(x, "tpm", r->tpm);
    }
    /* sweep: the scaling table as the guest's document has it */
    for (uint32_t w = 0; r->imp && strcmp(r->imp->kind, "sweep") == 0 && w < r->imp->nr_workloads;
         w++) {
        const struct iom_imp_workload *wk = &r->imp->w[w];
        if (!wk->threads || !wk->nr_runs)
            continue;
        cJSON *pa = cJSON_GetObjectItemCaseSensitive(x, "points");
        if (!pa)
            pa = cJSON_AddArrayToObject(x, "points");
        cJSON *pt = cJSON_CreateObject();
        cJSON_AddNumberToObject(pt, "threads", wk->threads);
        cJSON_AddNumberToObject(pt, "iodepth", wk->iodepth);
        add_num(pt, "iops", wk->runs[0].dir[IOM_IMP_TOTAL].iops);
        add_num(pt, "lat_mean_us", wk->runs[0].dir[IOM_IMP_TOTAL].lat_mean_us);
        cJSON_AddBoolToObject(pt, "knee", wk->is_knee);
        cJSON_AddItemToArray(pa, pt);
    }
    if (r->io.have) {
        cJSON *io = cJSON_AddObjectToObject(x, "io_path");
        add_num(io, "wall_s", r->io.wall_s);
        add_num(io, "guest_ios", r->io.ios);
        add_num(io, "guest_mib", r->io.sectors * 512 / 1048576.0);
        add_num(io, "aqu_sz", r->io.aqu_sz);
        add_num(io, "util_pct", r->io.util_pct);
        add_num(io, "inflight_mean", r->io.inflight_mean);
        add_num(io, "inflight_max", r->io.inflight_max);
        add_num(io, "iomark_outstanding", r->qd);   /* a run's, or the mean of the runs' */
        add_num(io, "qemu_cpu_s", r->io.qemu_cpu_s);
        add_num(io, "guest_cpu_s", r->io.guest_cpu_s);
        add_num(io, "qemu_cpu_us_per_io", per_io_us(r->io.qemu_cpu_s, r->io.ios));
        add_num(io, "guest_cpu_us_per_io", per_io_us(r->io.guest_cpu_s, r->io.ios));
        if (r->nr_points) {
            cJSON *pa = cJSON_AddArrayToObject(io, "points_inflight");
            for (unsigned k = 0; k < r->nr_points; k++) {
                cJSON *pt = cJSON_CreateObject();
                add_num(pt, "mean", r->points[k].inflight_mean);
                add_num(pt, "max", r->points[k].inflight_max);
                cJSON_AddItemToArray(pa, pt);
            }
        }
    }
    return x;
}

cJSON *iom_lab_doc(const struct iom_lab_opts *o, const struct iom_lab_env *e,
                   const struct iom_lab_unitout *uo)
{
    cJSON *doc = iom_json_doc_new("lab");
    if (!doc)
        return NULL;
    char ts[32];
    time_t t_end = time(NULL);
    iom_lab_iso_utc(e->t_start, ts, sizeof(ts));
    cJSON_AddStringToObject(doc, "start_time", ts);
    iom_lab_iso_utc(t_end, ts, sizeof(ts));
    cJSON_AddStringToObject(doc, "end_time", ts);
    cJSON_AddNumberToObject(doc, "wall_s", difftime(t_end, e->t_start));
    cJSON_AddBoolToObject(doc, "interrupted", e->interrupted);
    cJSON_AddItemToObject(doc, "lab", iom_lab_env_json(e, o, NULL));
    cJSON_AddStringToObject(doc, "command", o->nr_jobs ? o->jobs[0].command : "");
    cJSON_AddNumberToObject(doc, "repeat", o->repeat);
    cJSON_AddStringToObject(doc, "cpu_per_io_note", note_cpu);
    cJSON *jobs = cJSON_AddArrayToObject(doc, "jobs");
    for (size_t j = 0; j < o->nr_jobs; j++) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "command", o->jobs[j].command);
        cJSON_AddStringToObject(x, "label", o->jobs[j].label);
        cJSON *a = cJSON_AddArrayToObject(x, "args");
        for (size_t i = 0; i < o->jobs[j].nr_args; i++)
            cJSON_AddItemToArray(a, cJSON_CreateString(o->jobs[j].args[i]));
        cJSON_AddItemToArray(jobs, x);
    }
    cJSON *arr = cJSON_AddArrayToObject(doc, "controllers");
    for (size_t i = 0; uo && i < o->nr_units; i++) {
        const struct iom_lab_unitout *u = &uo[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", u->u->name);
        cJSON_AddStringToObject(x, "controller", u->u->c->name);
        cJSON_AddStringToObject(x, "title", u->u->c->title);
        cJSON_AddStringToObject(x, "qemu_device", u->u->c->qemu_device);
        cJSON_AddStringToObject(x, "machine", u->u->c->machine);
        bool ran = u->wall_s > 0 || (u->reason[0] && strncmp(u->reason, "not run", 7) != 0);
        cJSON_AddStringToObject(x, "status", u->ok ? "ok" : ran ? "failed" : "not run");
        if (!u->ok)
            cJSON_AddStringToObject(x, "reason", u->reason[0] ? u->reason : "not run yet");
        cJSON_AddNumberToObject(x, "wall_s", u->wall_s);
        add_num(x, "boot_s", u->boot_s);
        add_num(x, "jobs_s", u->jobs ? iom_lab_unit_jobs_s(u, o) : NAN);
        add_num(x, "image_s", u->wall_s > 0 ? u->image_s : NAN);
        cJSON_AddStringToObject(x, "boot", u->boot_name);
        cJSON_AddNumberToObject(x, "controllers_in_boot", (double)u->nr_shared);
        add_num(x, "qemu_cpu_s", u->qemu_user_s + u->qemu_sys_s);
        cJSON *gp = cJSON_AddArrayToObject(x, "guest_params");
        for (size_t k = 0; k < u->u->nr_params; k++)
            cJSON_AddItemToArray(gp, cJSON_CreateString(u->u->params[k]));
        if (u->params)
            cJSON_AddItemToObject(x, "guest_params_effective", cJSON_Duplicate(u->params, 1));
        if (u->have_view)
            cJSON_AddItemToObject(x, "guest", iom_lab_guest_view_json(&u->view));
        if (u->jobs && o->nr_jobs && u->jobs[0].nr_ok) {
            /* the first job's figures at the top, as before jobs existed */
            cJSON_AddItemToObject(x, "mean", run_json(&u->jobs[0].mean));
            cJSON *runs = cJSON_AddArrayToObject(x, "runs");
            for (unsigned r = 0; r < o->repeat; r++)
                if (u->jobs[0].runs[r].ok)
                    cJSON_AddItemToArray(runs, run_json(&u->jobs[0].runs[r]));
        }
        cJSON *ja = cJSON_AddArrayToObject(x, "jobs");
        for (size_t j = 0; u->jobs && j < o->nr_jobs; j++) {
            const struct iom_lab_jobout *jo = &u->jobs[j];
            cJSON *y = cJSON_CreateObject();
            cJSON_AddStringToObject(y, "command", o->jobs[j].command);
            cJSON_AddNumberToObject(y, "runs_ok", jo->nr_ok);
            if (jo->fail[0])
                cJSON_AddStringToObject(y, "reason", jo->fail);
            if (jo->nr_ok)
                cJSON_AddItemToObject(y, "mean", run_json(&jo->mean));
            cJSON *runs = cJSON_AddArrayToObject(y, "runs");
            for (unsigned r = 0; r < o->repeat; r++)
                cJSON_AddItemToArray(runs, run_json(&jo->runs[r]));
            if (jo->check_status >= 0) {
                cJSON *c = cJSON_AddObjectToObject(y, "consistency_check");
                cJSON_AddNumberToObject(c, "exit_status", jo->check_status);
                cJSON_AddBoolToObject(c, "passed", jo->check_status == 0);
                if (jo->check)
                    cJSON_AddItemToObject(c, "document", cJSON_Duplicate(jo->check, 1));
            }
            cJSON_AddItemToArray(ja, y);
        }
        if (u->probe)
            cJSON_AddItemToObject(x, "probe", cJSON_Duplicate(u->probe, 1));
        cJSON_AddItemToArray(arr, x);
    }
    return doc;
}

static void fmt_long(long v, char *buf, size_t len)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%ld", v);
}

static void fmt_d(double v, const char *fmt, char *buf, size_t len)
{
    if (isnan(v) || isinf(v))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, fmt, v);
}

static const char *driver_of(const struct iom_lab_unitout *u)
{
    return u->have_view && u->view.driver[0] ? u->view.driver : "-";
}

/* run, diskspd: one row per unit. */
static void table_io(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_unitout *uo,
                     size_t j)
{
    fprintf(f, "%-12s %-13s %10s %9s %9s %9s %6s %8s %6s %7s %4s %8s\n", "controller", "driver",
            "IOPS", "MiB/s", "mean us", "p99 us", "CPU %", "adapterQ", "LUN Q", "nr_req",
            "hwq", "max KiB");
    for (size_t i = 0; i < o->nr_units; i++) {
        const struct iom_lab_unitout *u = &uo[i];
        char aq[16], lq[16], nr[16], hw[16], mk[16];
        long adapter = -1, lun = -1;
        if (u->have_view)
            iom_lab_guest_queues(&u->view, &adapter, &lun);
        fmt_long(adapter, aq, sizeof(aq));
        fmt_long(lun, lq, sizeof(lq));
        fmt_long(u->have_view ? u->view.nr_requests : -1, nr, sizeof(nr));
        fmt_long(u->have_view ? u->view.nr_hw_queues : -1, hw, sizeof(hw));
        fmt_long(u->have_view ? u->view.max_sectors_kb : -1, mk, sizeof(mk));
        const struct iom_lab_jobout *jo = u->jobs ? &u->jobs[j] : NULL;
        if (jo && jo->nr_ok) {
            const struct iom_lab_runrec *m = &jo->mean;
            char c[5][24];
            fmt_d(m->iops, "%.0f", c[0], 24);
            fmt_d(m->mib_per_s, "%.1f", c[1], 24);
            fmt_d(m->lat_mean_us, "%.0f", c[2], 24);
            fmt_d(m->lat_p99_us, "%.0f", c[3], 24);
            fmt_d(m->cpu_pct, "%.1f", c[4], 24);
            fprintf(f, "%-12s %-13s %10s %9s %9s %9s %6s %8s %6s %7s %4s %8s\n", u->u->name,
                    driver_of(u), c[0], c[1], c[2], c[3], c[4], aq, lq, nr, hw, mk);
            if (o->repeat > 1) {
                double lo = INFINITY, hi = -INFINITY;
                for (unsigned r = 0; r < o->repeat; r++)
                    if (jo->runs[r].ok && !isnan(jo->runs[r].iops)) {
                        lo = fmin(lo, jo->runs[r].iops);
                        hi = fmax(hi, jo->runs[r].iops);
                    }
                if (lo <= hi)
                    fprintf(f, "%-12s %-13s %5.0f-%.0f\n", "", "", lo, hi);
            }
        } else {
            fprintf(f, "%-12s %-13s %10s %9s %9s %9s %6s %8s %6s %7s %4s %8s\n", u->u->name,
                    driver_of(u), "-", "-", "-", "-", "-", aq, lq, nr, hw, mk);
        }
    }
}

/* diskspd: DiskSpd's total / read / write figures (its "Total IO", "Read IO",
 * "Write IO" tables summed over threads), the first run of each controller. */
static void table_diskspd(FILE *f, const struct iom_lab_opts *o,
                          const struct iom_lab_unitout *uo, size_t j)
{
    fprintf(f, "%-12s %10s %9s %10s %10s %10s %10s %10s %6s\n", "controller", "I/O per s",
            "MiB/s", "AvgLat ms", "read IOPS", "write IOPS", "read p99ms", "write p99ms",
            "CPU %");
    for (size_t i = 0; i < o->nr_units; i++) {
        const struct iom_lab_jobout *jo = uo[i].jobs ? &uo[i].jobs[j] : NULL;
        const struct iom_imp_result *imp = jo && jo->nr_ok ? jo->runs[0].imp : NULL;
        if (!imp || !imp->nr_workloads || !imp->w[0].nr_runs) {
            fprintf(f, "%-12s %10s\n", uo[i].u->name, "-");
            continue;
        }
        const struct iom_imp_run *r = &imp->w[0].runs[0];
        char c[8][24];
        fmt_d(r->dir[IOM_IMP_TOTAL].iops, "%.0f", c[0], 24);
        fmt_d(r->dir[IOM_IMP_TOTAL].mib_per_s, "%.2f", c[1], 24);
        fmt_d(r->dir[IOM_IMP_TOTAL].lat_mean_us / 1000, "%.3f", c[2], 24);
        fmt_d(r->dir[IOM_IMP_READ].iops, "%.0f", c[3], 24);
        fmt_d(r->dir[IOM_IMP_WRITE].iops, "%.0f", c[4], 24);
        fmt_d(r->dir[IOM_IMP_READ].lat_p99_us / 1000, "%.3f", c[5], 24);
        fmt_d(r->dir[IOM_IMP_WRITE].lat_p99_us / 1000, "%.3f", c[6], 24);
        fmt_d(r->cpu_pct, "%.1f", c[7], 24);
        fprintf(f, "%-12s %10s %9s %10s %10s %10s %10s %10s %6s\n", uo[i].u->name, c[0], c[1],
                c[2], c[3], c[4], c[5], c[6], c[7]);
    }
    if (o->repeat > 1)
        fprintf(f, "(the first of %u runs; lab.json has every run and the mean)\n", o->repeat);
}

static void table_tpcc(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_unitout *uo,
                       size_t j)
{
    static const char *const tx[] = {"new_order", "payment", "delivery", "order_status",
                                     "stock_level"};
    fprintf(f, "%-12s %9s %9s  %s %8s %8s %8s %8s %8s  %s\n", "controller", "NOPM", "TPM",
            "p95 ms:", "NewOrd", "Payment", "Deliv", "OrdStat", "StockLv", "check (in guest)");
    for (size_t i = 0; i < o->nr_units; i++) {
        const struct iom_lab_unitout *u = &uo[i];
        const struct iom_lab_jobout *jo = u->jobs ? &u->jobs[j] : NULL;
        char n[24], t[24], p[5][24];
        fmt_d(jo && jo->nr_ok ? jo->mean.nopm : NAN, "%.0f", n, 24);
        fmt_d(jo && jo->nr_ok ? jo->mean.tpm : NAN, "%.0f", t, 24);
        const struct iom_imp_result *imp = jo && jo->nr_ok ? jo->runs[0].imp : NULL;
        for (int k = 0; k < 5; k++) {
            double v = NAN;
            for (uint32_t w = 0; imp && w < imp->nr_workloads; w++)
                for (uint32_t x = 0; imp->w[w].nr_runs && x < imp->w[w].runs[0].nr_txn; x++)
                    if (strstr(imp->w[w].runs[0].txn[x].name, tx[k]) ||
                        (k == 0 && strstr(imp->w[w].runs[0].txn[x].name, "neworder")))
                        v = imp->w[w].runs[0].txn[x].p95_ms;
            fmt_d(v, "%.1f", p[k], 24);
        }
        const char *ck = !jo || jo->check_status < 0 ? "not run"
                         : jo->check_status == 0     ? "passed"
                                                     : "FAILED";
        fprintf(f, "%-12s %9s %9s  %7s %8s %8s %8s %8s %8s  %s\n", u->u->name, n, t, "", p[0],
                p[1], p[2], p[3], p[4], ck);
    }
    if (o->repeat > 1)
        fprintf(f, "NOPM/TPM: mean of %u runs on one load; p95: the first run\n", o->repeat);
}

static void table_sweep(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_unitout *uo,
                        size_t j)
{
    fprintf(f, "%-12s %7s %7s %11s %10s %9s %9s %9s %8s  %s\n", "controller", "threads",
            "iodepth", "outstanding", "IOPS", "mean us", "p99 us", "dev infl", "infl max", "");
    for (size_t i = 0; i < o->nr_units; i++) {
        const struct iom_lab_unitout *u = &uo[i];
        const struct iom_lab_jobout *jo = u->jobs ? &u->jobs[j] : NULL;
        const struct iom_imp_result *imp = jo && jo->nr_ok ? jo->runs[0].imp : NULL;
        if (!imp) {
            fprintf(f, "%-12s %7s\n", u->u->name, "-");
            continue;
        }
        for (uint32_t w = 0; w < imp->nr_workloads; w++) {
            const struct iom_imp_workload *x = &imp->w[w];
            if (!x->nr_runs)
                continue;
            const struct iom_imp_dir *d = &x->runs[0].dir[IOM_IMP_TOTAL];
            char a[24], b[24], c[24], im[24], ix[24];
            fmt_d(d->iops, "%.0f", a, 24);
            fmt_d(d->lat_mean_us, "%.0f", b, 24);
            fmt_d(d->lat_p99_us, "%.0f", c, 24);
            const struct iom_lab_runrec *r0 = &jo->runs[0];
            fmt_d(w < r0->nr_points ? r0->points[w].inflight_mean : NAN, "%.1f", im, 24);
            fmt_d(w < r0->nr_points ? r0->points[w].inflight_max : NAN, "%.0f", ix, 24);
            fprintf(f, "%-12s %7d %7d %11d %10s %9s %9s %9s %8s  %s\n", w ? "" : u->u->name,
                    x->threads, x->iodepth, x->threads * x->iodepth, a, b, c, im, ix,
                    x->is_knee ? "<- knee" : "");
        }
    }
    fprintf(f, "(the first run of each controller; the knee: from here more outstanding I/O "
               "adds less than iomark sweep's --knee percent;\n dev infl, infl max: the guest "
               "disk's /sys/block/DISK/inflight sampled 10 times a second in the middle 80%% "
               "of each point's share of the run)\n");
}

static void table_mark(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_unitout *uo,
                       size_t j)
{
    for (size_t i = 0; i < o->nr_units; i++) {
        const cJSON *t, *tests = uo[i].jobs ? uo[i].jobs[j].mark_tests : NULL;
        if (!tests) {
            fprintf(f, "%s: no result\n", uo[i].u->name);
            continue;
        }
        fprintf(f, "%s (MB/s = 10^6 bytes/s, first run):\n%-14s %10s %10s %10s %10s\n",
                uo[i].u->name, "test", "read MB/s", "write MB/s", "read IOPS", "write IOPS");
        cJSON_ArrayForEach(t, tests)
        {
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(t, "name");
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(t, "read");
            const cJSON *w = cJSON_GetObjectItemCaseSensitive(t, "write");
            const cJSON *rm = cJSON_GetObjectItemCaseSensitive(r, "mb_per_s");
            const cJSON *wm = cJSON_GetObjectItemCaseSensitive(w, "mb_per_s");
            const cJSON *ri = cJSON_GetObjectItemCaseSensitive(r, "iops");
            const cJSON *wi = cJSON_GetObjectItemCaseSensitive(w, "iops");
            fprintf(f, "%-14s %10.1f %10.1f %10.0f %10.0f\n",
                    cJSON_IsString(nm) ? nm->valuestring : "?",
                    cJSON_IsNumber(rm) ? rm->valuedouble : 0,
                    cJSON_IsNumber(wm) ? wm->valuedouble : 0,
                    cJSON_IsNumber(ri) ? ri->valuedouble : 0,
                    cJSON_IsNumber(wi) ? wi->valuedouble : 0);
        }
    }
}

/* The guest's device counters beside iomark's outstanding I/O, and CPU per I/O. */
static void table_path(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_unitout *uo)
{
    fprintf(f, "\nI/O path (guest counters while each job ran; mean of the runs):\n"
               "%-12s %-8s %10s %9s %7s %9s %9s %6s %10s %10s\n",
            "controller", "job", "guest I/Os", "iomark QD", "aqu-sz", "inflight", "infl max",
            "util%", "QEMU us/IO", "guest us/IO");
    for (size_t i = 0; i < o->nr_units; i++)
        for (size_t j = 0; uo[i].jobs && j < o->nr_jobs; j++) {
            const struct iom_lab_jobout *jo = &uo[i].jobs[j];
            const struct iom_lab_runrec *m = &jo->mean;
            char jn[16], c[8][24];
            snprintf(jn, sizeof(jn), "%zu:%s", j + 1, o->jobs[j].command);
            if (!jo->nr_ok || !m->io.have) {
                fprintf(f, "%-12s %-8s %10s\n", uo[i].u->name, jn, "-");
                continue;
            }
            fmt_d(m->io.ios, "%.0f", c[0], 24);
            fmt_d(m->qd, "%.1f", c[1], 24);
            fmt_d(m->io.aqu_sz, "%.1f", c[2], 24);
            fmt_d(m->io.inflight_mean, "%.1f", c[3], 24);
            fmt_d(m->io.inflight_max, "%.0f", c[4], 24);
            fmt_d(m->io.util_pct, "%.0f", c[5], 24);
            fmt_d(per_io_us(m->io.qemu_cpu_s, m->io.ios), "%.1f", c[6], 24);
            fmt_d(per_io_us(m->io.guest_cpu_s, m->io.ios), "%.1f", c[7], 24);
            fprintf(f, "%-12s %-8s %10s %9s %7s %9s %9s %6s %10s %10s\n", uo[i].u->name, jn,
                    c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
        }
    fprintf(f, "iomark QD = iomark's IOPS x mean latency (Little's law) of each run; aqu-sz = the disk's "
               "time_in_queue / wall time\n(iostat); inflight = /sys/block/DISK/inflight "
               "sampled 10 times a second (mean, max).\n"
               "CPU per I/O: QEMU's user+system CPU and the guest's busy CPU while the job "
               "ran, divided by the guest disk's\ncompleted I/Os. Under TCG the QEMU figure "
               "includes emulating the guest's CPU.\n");
}

void iom_lab_print(FILE *f, const struct iom_lab_opts *o, const struct iom_lab_env *e,
                   const struct iom_lab_unitout *uo)
{
    fprintf(f, "\niomark lab: %s on %s (%s), QEMU %s\n", e->setup.kernel_version,
            strcmp(o->accel, "kvm") == 0 ? "KVM" : "TCG", o->accel_reason ? o->accel_reason : "",
            e->qemu_version);
    char ts[32];
    iom_lab_iso_utc(e->t_start, ts, sizeof(ts));
    fprintf(f, "started %s, %.0f s in all%s\n", ts, difftime(time(NULL), e->t_start),
            e->interrupted ? " (INTERRUPTED: partial)" : "");
    if (o->study)
        fprintf(f, "study: %s (%s), scale %g\n", o->study, o->study_title ? o->study_title : "",
                o->scale);
    fprintf(f, "host: %s, %ld CPUs, load average %.1f at start, %.1f at end\n", e->host_cpu,
            e->host_cpus, e->load_start, e->load_end);
    fprintf(f, "guest: %u vCPUs, %u MiB; disk: %llu MiB raw, cache=%s, scheduler %s\n", o->vcpus,
            o->memory_mib, (unsigned long long)(o->disk_bytes >> 20), o->cache, o->scheduler);
    if (o->nr_units && o->units[0].nr_params && o->nr_units == 1) {
        fprintf(f, "guest parameters:");
        for (size_t i = 0; i < o->units[0].nr_params; i++)
            fprintf(f, " %s", o->units[0].params[i]);
        fprintf(f, "\n");
    }
    fprintf(f, "These are QEMU's emulated device models, not VMware's: absolute IOPS, latency\n"
               "and CPU cost do not carry over; the guest driver's queue limits do.\n");
    if (o->repeat > 1)
        fprintf(f, "figures: mean of %u runs (mean us: of all their I/Os, each run's mean "
                   "weighted by its I/Os; p99 us: the mean\nof the runs' p99); IOPS range "
                   "shows min-max\n", o->repeat);
    for (size_t j = 0; j < o->nr_jobs; j++) {
        const char *cmd = o->jobs[j].command;
        fprintf(f, "\n%sworkload: iomark %s\n", o->nr_jobs > 1 ? "" : "", o->jobs[j].label);
        if (strcmp(cmd, "tpcc") == 0)
            table_tpcc(f, o, uo, j);
        else if (strcmp(cmd, "sweep") == 0)
            table_sweep(f, o, uo, j);
        else if (strcmp(cmd, "mark") == 0)
            table_mark(f, o, uo, j);
        else if (strcmp(cmd, "diskspd") == 0)
            table_diskspd(f, o, uo, j);
        else
            table_io(f, o, uo, j);
    }
    /* the columns' footnote, for the columns shown: the queue limits only in
     * run's table, CPU % in run's and diskspd's */
    bool queues = false, cpu = false;
    for (size_t j = 0; j < o->nr_jobs; j++) {
        const char *cmd = o->jobs[j].command;
        queues |= strcmp(cmd, "run") == 0;
        cpu |= strcmp(cmd, "run") == 0 || strcmp(cmd, "diskspd") == 0;
    }
    if (queues)
        fprintf(f, "\nadapterQ = scsi_host can_queue; LUN Q = device queue_depth (NVMe, "
                   "virtio-blk: nr_requests per hardware queue);\nhwq = blk-mq hardware "
                   "queues; max KiB = max_sectors_kb; CPU %% = guest user+system of all "
                   "vCPUs.\n");
    else if (cpu)
        fprintf(f, "\nCPU %% = guest user+system of all vCPUs.\n");
    bool any_jobs = false;
    for (size_t i = 0; i < o->nr_units; i++)
        any_jobs |= uo[i].jobs != NULL;
    if (any_jobs)
        table_path(f, o, uo);
    fprintf(f, "\ntime per controller:\n%-12s %-12s %8s %8s %8s %8s %10s\n", "controller",
            "boot", "image s", "boot s", "jobs s", "QEMU s", "QEMU CPU s");
    for (size_t i = 0; i < o->nr_units; i++) {
        char im[24], b[24], jb[24], t[24], q[24];
        fmt_d(uo[i].wall_s > 0 ? uo[i].image_s : NAN, "%.1f", im, 24);
        fmt_d(uo[i].boot_s, "%.1f", b, 24);
        fmt_d(uo[i].jobs ? iom_lab_unit_jobs_s(&uo[i], o) : NAN, "%.1f", jb, 24);
        fmt_d(uo[i].wall_s > 0 ? uo[i].wall_s : NAN, "%.1f", t, 24);
        fmt_d(uo[i].wall_s > 0 ? uo[i].qemu_user_s + uo[i].qemu_sys_s : NAN, "%.1f", q, 24);
        fprintf(f, "%-12s %-12.12s %8s %8s %8s %8s %10s\n", uo[i].u->name,
                uo[i].boot_name[0] ? uo[i].boot_name : "-", im, b, jb, t, q);
    }
    fprintf(f, "image s = writing the boot's initramfs; boot s = QEMU's start to the "
               "controller's first job (in a shared\nboot this includes the controllers before "
               "it); jobs s = its jobs in the guest; QEMU s and QEMU CPU s are\nthe whole "
               "boot's.\n");
    bool any_fail = false;
    for (size_t i = 0; i < o->nr_units; i++)
        if (!uo[i].ok && (uo[i].reason[0] || uo[i].wall_s > 0)) {
            if (!any_fail)
                fprintf(f, "\nfailed:\n");
            any_fail = true;
            fprintf(f, "  %-12s %s\n", uo[i].u->name, uo[i].reason);
        }
    for (size_t i = 0; i < o->nr_units; i++) {
        const cJSON *p;
        cJSON_ArrayForEach(p, uo[i].params)
        {
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(p, "parameter");
            const cJSON *rq = cJSON_GetObjectItemCaseSensitive(p, "requested");
            const cJSON *sy = cJSON_GetObjectItemCaseSensitive(p, "sysfs");
            const cJSON *ef = cJSON_GetObjectItemCaseSensitive(p, "in_effect");
            fprintf(f, "%s: %s requested %s, /sys/module %s, in effect %s\n", uo[i].u->name,
                    cJSON_GetStringValue(k), cJSON_GetStringValue(rq),
                    sy ? cJSON_GetStringValue(sy) : "-", ef ? cJSON_GetStringValue(ef) : "-");
        }
    }
    for (size_t i = 0; i < o->nr_units; i++)
        if (uo[i].have_view && uo[i].view.module_params[0])
            fprintf(f, "%s module parameters: %s\n", uo[i].u->name, uo[i].view.module_params);
    fprintf(f, "\nresults: %s (lab.json, lab.txt, one document per controller and job)\n",
            e->outdir);
}
