/* devmon_report.c - probe summary, advice and device view in run reports. */
#include <math.h>
#include <string.h>

#include "probe/devmon.h"
#include "report/probe_report.h"

/* A device window this far (ms) from the run's own gets a note in the text
 * report: its counts then differ from iomark's by up to rate x offset. */
#define WINDOW_NOTE_MS 10.0

/* Mean outstanding I/O of target t over the measured phase (Little's law:
 * total time I/Os spent in flight / elapsed time). */
static double target_outstanding(const struct iom_target_result *t, uint64_t measured_ns)
{
    if (!measured_ns)
        return 0;
    return (double)(t->dir[0].lat_sum_ns + t->dir[1].lat_sum_ns + t->dir[2].lat_sum_ns) / (double)measured_ns;
}

/* The run series point ending at t_end_s (the runner ticks both together). */
static const struct iom_series_point *series_at(const struct iom_result *r, double t_end_s)
{
    for (uint32_t k = 0; k < r->nr_series; k++)
        if (fabs(r->series[k].t_end_s - t_end_s) < 1e-9)
            return &r->series[k];
    return NULL;
}

static double point_outstanding(const struct iom_series_point *p)
{
    double d = p->dur_s > 0 ? p->dur_s : 1;
    return (double)(p->ios[0] + p->ios[1] + p->ios[2]) * p->lat_mean_us / 1e6 / d;
}

static void run_advice(const struct iom_result *r, const struct iom_probe_target *p,
                       struct iom_probe_advice_list *adv)
{
    struct iom_probe_host h = {0};
    snprintf(h.hypervisor, sizeof(h.hypervisor), "%s", p->hypervisor);
    iom_probe_advise(p, p->hypervisor[0] ? &h : NULL, adv);
    uint64_t want = (uint64_t)r->job.iodepth * r->job.numjobs;
    for (int k = 0; k < p->nr_disks && adv->nr < IOM_PROBE_MAX_ADVICE; k++)
        adv->nr += iom_probe_advise_depth(&p->disks[k], want, &adv->a[adv->nr]);
}

static void figures_json(cJSON *o, const struct iom_dev_figures *f)
{
    cJSON_AddNumberToObject(o, "read_ios", (double)f->ios[0]);
    cJSON_AddNumberToObject(o, "write_ios", (double)f->ios[1]);
    cJSON_AddNumberToObject(o, "read_bytes", (double)f->bytes[0]);
    cJSON_AddNumberToObject(o, "write_bytes", (double)f->bytes[1]);
    cJSON_AddNumberToObject(o, "read_merges", (double)f->merges[0]);
    cJSON_AddNumberToObject(o, "write_merges", (double)f->merges[1]);
    cJSON_AddNumberToObject(o, "discard_ios", (double)f->ios[2]); /* trims as the device saw them */
    cJSON_AddNumberToObject(o, "discard_bytes", (double)f->bytes[2]);
    cJSON_AddNumberToObject(o, "discard_merges", (double)f->merges[2]);
    cJSON_AddNumberToObject(o, "discard_iops", f->discard_iops);
    cJSON_AddNumberToObject(o, "d_await_ms", f->d_await_ms);
    cJSON_AddNumberToObject(o, "iops", f->iops);
    cJSON_AddNumberToObject(o, "read_iops", f->read_iops);
    cJSON_AddNumberToObject(o, "write_iops", f->write_iops);
    cJSON_AddNumberToObject(o, "mib_per_s", f->mib_per_s);
    cJSON_AddNumberToObject(o, "r_await_ms", f->r_await_ms);
    cJSON_AddNumberToObject(o, "w_await_ms", f->w_await_ms);
    cJSON_AddNumberToObject(o, "await_ms", f->await_ms);
    cJSON_AddNumberToObject(o, "aqu_sz", f->aqu_sz);
    cJSON_AddNumberToObject(o, "util_pct", f->util_pct);
    if (f->inflight_samples) {
        cJSON_AddNumberToObject(o, "inflight_mean", f->inflight_mean);
        cJSON_AddNumberToObject(o, "inflight_max", f->inflight_max);
    } else {
        cJSON_AddNullToObject(o, "inflight_mean");
        cJSON_AddNullToObject(o, "inflight_max");
    }
    cJSON_AddNumberToObject(o, "inflight_samples", (double)f->inflight_samples);
}

/* Percent by which the device's figure b differs from iomark's a (0 when a is 0). */
static double pct_apart(uint64_t a, uint64_t b)
{
    return a ? 100.0 * ((double)b - (double)a) / (double)a : 0;
}

/* How far apart the device's totals are from iomark's on target t, and the one
 * decision both the JSON's other_io and the text report's note follow. */
struct other_io {
    uint64_t own_n, own_b, dev_n, dev_b; /* I/Os and bytes: iomark's, the device's */
    double n_pct, b_pct;                 /* device vs iomark, % of iomark's */
    bool other;                          /* either more than OTHER_IO_PCT apart */
};

/* The device served other I/O than iomark's over the run when its I/O count
 * or its bytes are more than this many percent from iomark's (other
 * programs, buffered I/O, split or merged requests): its queues are then not
 * iomark's alone. */
#define OTHER_IO_PCT 5.0

static struct other_io other_io(const struct iom_target_result *t,
                                 const struct iom_devmon_result *d)
{
    struct other_io o = {
        .own_n = t->dir[0].ios + t->dir[1].ios + t->dir[2].ios,
        .own_b = t->dir[0].bytes + t->dir[1].bytes + t->dir[2].bytes,
        .dev_n = d->total.ios[0] + d->total.ios[1] + d->total.ios[2],
        .dev_b = d->total.bytes[0] + d->total.bytes[1] + d->total.bytes[2],
    };
    o.n_pct = pct_apart(o.own_n, o.dev_n);
    o.b_pct = pct_apart(o.own_b, o.dev_b);
    o.other = fabs(o.n_pct) > OTHER_IO_PCT || fabs(o.b_pct) > OTHER_IO_PCT;
    return o;
}

void iom_probe_json_run_target(cJSON *o, const struct iom_result *r, uint32_t i)
{
    const struct iom_target_result *t = &r->targets[i];
    if (t->probe) {
        cJSON *p = iom_probe_json_target(t->probe);
        if (p) {
            char line[512];
            iom_probe_summary_line(t->probe, line, sizeof(line));
            cJSON_AddStringToObject(p, "summary", line);
            struct iom_probe_advice_list adv = {0};
            run_advice(r, t->probe, &adv);
            cJSON *aa = cJSON_AddArrayToObject(p, "advice");
            for (int k = 0; k < adv.nr; k++) {
                cJSON *a = cJSON_CreateObject();
                cJSON_AddStringToObject(a, "disk", adv.a[k].disk);
                cJSON_AddStringToObject(a, "text", adv.a[k].text);
                cJSON_AddStringToObject(a, "source", adv.a[k].source);
                cJSON_AddItemToArray(aa, a);
            }
            cJSON_AddItemToObject(o, "probe", p);
        }
    }
    const struct iom_devmon_result *d = t->device_mon;
    if (!d)
        return;
    cJSON *m = cJSON_AddObjectToObject(o, "device_monitor");
    if (d->device[0])
        cJSON_AddStringToObject(m, "device", d->device);
    else
        cJSON_AddNullToObject(m, "device");
    cJSON_AddBoolToObject(m, "monitored", d->ok);
    if (d->note[0])
        cJSON_AddStringToObject(m, "note", d->note);
    if (!d->ok)
        return;
    cJSON_AddStringToObject(m, "source", "/proc/diskstats; /sys/class/block/DEV/inflight");
    cJSON_AddNumberToObject(m, "inflight_period_ms", (double)d->inflight_period_ns / 1e6);
    cJSON_AddNumberToObject(m, "measured_s", d->total.dur_s);
    cJSON_AddNumberToObject(m, "window_start_offset_ms", d->window_start_offset_ms);
    cJSON_AddNumberToObject(m, "window_end_offset_ms", d->window_end_offset_ms);
    figures_json(m, &d->total);
    double out = target_outstanding(t, r->measured_ns);
    cJSON_AddNumberToObject(m, "iomark_outstanding_mean", out);
    struct other_io oi = other_io(t, d);
    cJSON_AddNumberToObject(m, "iomark_ios", (double)oi.own_n);
    cJSON_AddNumberToObject(m, "iomark_bytes", (double)oi.own_b);
    /* other I/O on the device, split or merged requests: the figures are the device's */
    cJSON_AddNumberToObject(m, "device_vs_iomark_ios_pct", oi.n_pct);
    cJSON_AddNumberToObject(m, "device_vs_iomark_bytes_pct", oi.b_pct);
    /* the split of iomark's outstanding I/O only when the queues are its alone */
    bool other = oi.other;
    cJSON_AddBoolToObject(m, "other_io", other);
    double above = d->total.inflight_samples ? out - d->total.inflight_mean : out - d->total.aqu_sz;
    double layer = d->total.inflight_samples ? d->total.aqu_sz - d->total.inflight_mean : 0;
    if (other) {
        cJSON_AddNullToObject(m, "waiting_above_device_mean");
        cJSON_AddNullToObject(m, "waiting_in_block_layer_mean");
    } else {
        cJSON_AddNumberToObject(m, "waiting_above_device_mean", above > 0 ? above : 0);
        cJSON_AddNumberToObject(m, "waiting_in_block_layer_mean", layer > 0 ? layer : 0);
    }
    cJSON *se = cJSON_AddArrayToObject(m, "series");
    for (uint32_t k = 0; k < d->nr_points; k++) {
        const struct iom_dev_point *pt = &d->points[k];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "t_s", pt->t_end_s);
        cJSON_AddNumberToObject(e, "dur_s", pt->f.dur_s);
        figures_json(e, &pt->f);
        const struct iom_series_point *sp = series_at(r, pt->t_end_s);
        if (sp && r->nr_targets == 1)
            cJSON_AddNumberToObject(e, "iomark_outstanding_mean", point_outstanding(sp));
        cJSON_AddItemToArray(se, e);
    }
}

/* The line splitting iomark's mean outstanding I/O `out` into where it
 * waited, from the device's aqu-sz (I/Os in the block layer and driver) and
 * the sampled in-flight count (in the driver; sampled: it was): the driver's
 * part, the block layer's above it, and the rest outside both (the engine's
 * submission and completion path, the filesystem). The parts sum to `out`.
 * A device queue longer than iomark's means other I/O shares the device. */
static void queue_parts_text(FILE *f, double out, double aqu, double inflight, bool sampled,
                             const struct other_io *oi)
{
    if (oi->other) { /* the device's queues are not iomark's alone */
        fprintf(f, "  the device also served other I/O (%.1f MiB and %llu I/Os against iomark's "
                   "%.1f MiB and %llu): how iomark's %.2f outstanding I/Os split between the "
                   "driver and the block layer is not known\n",
                (double)oi->dev_b / 1048576.0, (unsigned long long)oi->dev_n,
                (double)oi->own_b / 1048576.0, (unsigned long long)oi->own_n, out);
        return;
    }
    double dev_q = sampled && inflight > aqu ? inflight : aqu;
    if (dev_q > out * 1.05 + 0.05) {
        if (sampled)
            fprintf(f, "  the device's queue is longer than iomark's (aqu-sz %.2f, in flight %.2f, "
                       "iomark %.2f outstanding): other I/O shares the device\n", aqu, inflight, out);
        else
            fprintf(f, "  the device's queue is longer than iomark's (aqu-sz %.2f, iomark %.2f "
                       "outstanding): other I/O shares the device\n", aqu, out);
        return;
    }
    const char *outside = "outside both (iomark's submission and completion path, the filesystem)";
    double in_drv = sampled ? (inflight < out ? inflight : out) : 0;
    double below = aqu < out ? aqu : out; /* block layer and driver together */
    if (!sampled)
        fprintf(f, "  of the %.2f I/Os iomark kept outstanding: %.2f in the block layer and driver "
                   "(aqu-sz; in-flight not sampled), %.2f %s\n", out, below, out - below, outside);
    else if (aqu + 0.005 < inflight)
        fprintf(f, "  of the %.2f I/Os iomark kept outstanding: %.2f in the driver, %.2f outside it "
                   "(the block layer's part is not known: aqu-sz %.2f is below the sampled "
                   "in-flight)\n", out, in_drv, out - in_drv, aqu);
    else
        fprintf(f, "  of the %.2f I/Os iomark kept outstanding: %.2f in the driver, %.2f in the "
                   "block layer above it (scheduler or tag wait), %.2f %s\n",
                out, in_drv, below - in_drv, out - below, outside);
}

static void fmt_opt(double v, bool have, char *buf, size_t len)
{
    if (!have)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.1f", v);
}

void iom_probe_text_run(FILE *f, const struct iom_result *r)
{
    for (uint32_t i = 0; i < r->nr_targets; i++) {
        const struct iom_target_result *t = &r->targets[i];
        if (t->probe) {
            char line[512];
            iom_probe_summary_line(t->probe, line, sizeof(line));
            fprintf(f, "\n  target %u stack: %s\n", i, line);
            struct iom_probe_advice_list adv = {0};
            run_advice(r, t->probe, &adv);
            for (int k = 0; k < adv.nr; k++)
                fprintf(f, "  advice: %s [%s]\n", adv.a[k].text, adv.a[k].source);
        }
        const struct iom_devmon_result *d = t->device_mon;
        if (!d)
            continue;
        if (!d->ok) {
            fprintf(f, "  device view, target %u: not monitored: %s\n", i,
                    d->note[0] ? d->note : "the measured phase did not run");
            continue;
        }
        fprintf(f,
                "  device view, target %u on %s (/proc/diskstats; in-flight sampled every %.0f "
                "ms)%s:\n",
                i, d->device, (double)d->inflight_period_ns / 1e6,
                r->nr_targets > 1 ? "; iomark columns are all targets" : "");
        fprintf(f, "  %8s %12s %12s %12s %10s %10s %8s %10s %8s %7s\n", "t(s)", "iomark IOPS",
                "iomark outst", "device IOPS", "dev MiB/s", "await(ms)", "aqu-sz", "inflight",
                "max", "util%");
        for (uint32_t k = 0; k < d->nr_points; k++) {
            const struct iom_dev_point *pt = &d->points[k];
            const struct iom_series_point *sp = series_at(r, pt->t_end_s);
            char io[32], oo[32], mean[32], mx[32];
            double dur = sp && sp->dur_s > 0 ? sp->dur_s : 1;
            fmt_opt(sp ? (double)(sp->ios[0] + sp->ios[1] + sp->ios[2]) / dur : 0, sp != NULL, io, sizeof(io));
            fmt_opt(sp ? point_outstanding(sp) : 0, sp != NULL, oo, sizeof(oo));
            fmt_opt(pt->f.inflight_mean, pt->f.inflight_samples > 0, mean, sizeof(mean));
            fmt_opt(pt->f.inflight_max, pt->f.inflight_samples > 0, mx, sizeof(mx));
            fprintf(f, "  %8.2f %12s %12s %12.1f %10.2f %10.3f %8.2f %10s %8s %7.1f\n",
                    pt->t_end_s, io, oo, pt->f.iops, pt->f.mib_per_s, pt->f.await_ms,
                    pt->f.aqu_sz, mean, mx, pt->f.util_pct);
        }
        double secs = (double)r->measured_ns / 1e9;
        uint64_t ios = t->dir[0].ios + t->dir[1].ios + t->dir[2].ios;
        double out = target_outstanding(t, r->measured_ns);
        char mean[32], mx[32], io[32];
        fmt_opt(d->total.inflight_mean, d->total.inflight_samples > 0, mean, sizeof(mean));
        fmt_opt(d->total.inflight_max, d->total.inflight_samples > 0, mx, sizeof(mx));
        fmt_opt(secs > 0 ? (double)ios / secs : 0, true, io, sizeof(io));
        char oo[32];
        fmt_opt(out, true, oo, sizeof(oo));
        fprintf(f, "  %8s %12s %12s %12.1f %10.2f %10.3f %8.2f %10s %8s %7.1f\n", "run", io, oo,
                d->total.iops, d->total.mib_per_s, d->total.await_ms, d->total.aqu_sz, mean, mx,
                d->total.util_pct);
        char disc[48] = ""; /* discards (trims) only when the device saw any */
        if (d->total.ios[2])
            snprintf(disc, sizeof(disc), ", discard %llu", (unsigned long long)d->total.ios[2]);
        fprintf(f, "  device I/Os %llu (read %llu, write %llu%s), iomark I/Os %llu\n",
                (unsigned long long)(d->total.ios[0] + d->total.ios[1] + d->total.ios[2]),
                (unsigned long long)d->total.ios[0], (unsigned long long)d->total.ios[1], disc,
                (unsigned long long)ios);
        struct other_io oi = other_io(t, d);
        queue_parts_text(f, out, d->total.aqu_sz, d->total.inflight_mean,
                         d->total.inflight_samples > 0, &oi);
        if (fabs(d->window_start_offset_ms) >= WINDOW_NOTE_MS ||
            fabs(d->window_end_offset_ms) >= WINDOW_NOTE_MS)
            fprintf(f,
                    "  note: the device's counts cover %.3f s, from %.0f ms %s iomark's window "
                    "began to %.0f ms %s it ended (the monitor reads when the run's control thread "
                    "wakes, later on a busy machine); its rates are over that time\n",
                    d->total.dur_s, fabs(d->window_start_offset_ms),
                    d->window_start_offset_ms < 0 ? "before" : "after",
                    fabs(d->window_end_offset_ms), d->window_end_offset_ms < 0 ? "before" : "after");
        if (oi.other) /* the JSON's other_io, the same decision */
            fprintf(f,
                    "  note: the device counted %+.1f%% I/Os and %+.1f%% bytes against iomark's "
                    "(more than %.0f%% apart: other_io): other I/O on %s, buffered I/O, or "
                    "requests split (max_sectors_kb) or merged; its figures are the whole "
                    "device's\n",
                    oi.n_pct, oi.b_pct, OTHER_IO_PCT, d->device);
    }
}
