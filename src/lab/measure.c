/*
 * measure.c - what the lab reads while and after a guest runs: QEMU's CPU
 * time when the guest's t0/t1 sections arrive (the host watches the result
 * channel), the guest's counters around each run, the figures of each
 * command's document, and requested vs effective guest parameters.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lab/labrun.h"

/* ---- QEMU's CPU time while a run is on: the host watches the channel ---- */



double iom_lab_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* utime + stime of a process (all threads), seconds; NAN when unreadable.
 * Fields 14 and 15 of /proc/PID/stat (proc(5)), in clock ticks. */
static double proc_cpu_s(int pid)
{
    char p[64], b[1024];
    snprintf(p, sizeof(p), "/proc/%d/stat", pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return NAN;
    size_t n = fread(b, 1, sizeof(b) - 1, f);
    fclose(f);
    b[n] = 0;
    char *rp = strrchr(b, ')');
    if (!rp)
        return NAN;
    unsigned long long ut = 0, st = 0;
    /* after ')': state (3), ppid ... utime is the 12th word, stime the 13th */
    char *save = NULL, *w = strtok_r(rp + 1, " ", &save);
    for (int k = 3; w && k <= 15; k++, w = strtok_r(NULL, " ", &save)) {
        if (k == 14)
            ut = strtoull(w, NULL, 10);
        else if (k == 15)
            st = strtoull(w, NULL, 10);
    }
    long hz = sysconf(_SC_CLK_TCK);
    return (double)(ut + st) / (double)(hz > 0 ? hz : 100);
}

/* ---- the progress hook: what the boot is doing and the time left ---- */

/* A guest's boot to its first run and its shutdown after the last, and the
 * time per run beyond its planned length, for the progress line only (the
 * bounds are separate: session.c). Under TCG with the lean boot (vmlinux
 * through PVH, qboot) on a 2-CPU host at load average 18-23: 6.6-15.2 s to
 * the first run (docs/lab-results.md: 17 s at load 22; bench/RESULTS.md up
 * to 36 s), under 1.5 s from the last run's end to QEMU's exit, a run 0.3-0.6
 * s longer than planned and under 1 s to the next. With KVM (not measured
 * here): a fraction of these. After a boot its measured time replaces the
 * boot estimate (iom_lab_plan_update). */
#define BOOT_EST_S(kvm) ((kvm) ? 5.0 : 15.0)
#define SHUTDOWN_EST_S(kvm) ((kvm) ? 0.5 : 1.0)
#define RUN_EXTRA_S(kvm) ((kvm) ? 0.5 : 1.0)

void iom_lab_plan_init(struct iom_lab_plan *pl, const struct iom_lab_opts *o, const double *est,
                       size_t nr_boots)
{
    memset(pl, 0, sizeof(*pl));
    for (size_t j = 0; j < o->nr_jobs && j < IOM_LAB_MAX_JOBS; j++) {
        pl->est[j] = est[j];
        pl->phased[j] = iom_lab_job_phases(&o->jobs[j], &pl->ramp[j], &pl->run[j],
                                           &pl->cool[j]) == 0;
        if (pl->phased[j])
            pl->est[j] = pl->ramp[j] + pl->run[j] + pl->cool[j];
        else if (strcmp(o->jobs[j].command, "run") == 0)
            pl->est[j] = -1;   /* no --runtime: as long as its I/O takes */
    }
    pl->nr_boots = nr_boots;
    iom_lab_plan_update(pl, o, NAN);
}

void iom_lab_plan_update(struct iom_lab_plan *pl, const struct iom_lab_opts *o, double boot_s)
{
    bool kvm = strcmp(o->accel, "kvm") == 0;
    if (boot_s > 0) {
        pl->boot_sum_s += boot_s;
        pl->nr_boot_seen++;
    }
    pl->boot_s = pl->nr_boot_seen ? pl->boot_sum_s / pl->nr_boot_seen : BOOT_EST_S(kvm);
    pl->shutdown_s = SHUTDOWN_EST_S(kvm);
    pl->run_extra_s = RUN_EXTRA_S(kvm);
}

double iom_lab_plan_boots_s(const struct iom_lab_plan *pl, const struct iom_lab_opts *o,
                            const size_t *nr_units, size_t from, size_t to)
{
    double runs = 0, s = 0;
    for (size_t j = 0; j < o->nr_jobs; j++) {
        if (!(pl->est[j] > 0))
            return from < to ? -1 : 0;
        runs += o->repeat * (pl->est[j] + pl->run_extra_s);
    }
    for (size_t g = from; g < to; g++)
        s += pl->boot_s + (double)nr_units[g] * runs + pl->shutdown_s;
    return s;
}

/* Seconds of the boot's runs from index `from` on (the guest's order: unit,
 * job, run), each with its extra; < 0 when one has no estimate. */
static double runs_from(const struct iom_lab_watch *w, size_t from)
{
    size_t nj = w->o->nr_jobs, nr = w->o->repeat, n = w->nr_uo * nj * nr;
    double s = 0;
    for (size_t i = from; i < n; i++) {
        double e = w->plan->est[i / nr % nj];
        if (!(e > 0))
            return -1;
        s += e + w->plan->run_extra_s;
    }
    return s;
}

/* a + b, unknown (< 0) when either is */
static double plus(double a, double b)
{
    return a < 0 || b < 0 ? -1 : a + b;
}

static void report(const struct iom_lab_watch *w, struct iom_lab_progress *p)
{
    const struct iom_lab_hooks *h = w->o->hooks;
    p->boot = w->boot_no;
    p->nr_boots = w->plan->nr_boots;
    p->label = w->label;
    p->nr_jobs = w->o->nr_jobs;
    p->nr_runs = w->o->repeat;
    if (!p->phased)   /* one block */
        p->run_s = p->est_s;
    h->progress(h->arg, p);
}

void iom_lab_watch_begin(struct iom_lab_watch *w)
{
    w->last_seq = -1;
    if (!w->plan || !w->o->hooks || !w->o->hooks->progress)
        return;
    const struct iom_lab_plan *pl = w->plan;
    struct iom_lab_progress p = {.stage = IOM_LAB_STAGE_BOOTING, .est_s = pl->boot_s};
    p.left_s = plus(plus(runs_from(w, 0), pl->shutdown_s), w->later_s);
    report(w, &p);
}

/* Run rr of job jj (1-based) on the boot's unit k (0-based) started (t0,
 * which 0) or ended (t1, which 1), seen at elapsed_s since QEMU's start:
 * report it, once and in order. */
static void watch_event(struct iom_lab_watch *w, size_t k, unsigned jj, unsigned rr, int which,
                        double elapsed_s)
{
    if (!w->plan || !w->o->hooks || !w->o->hooks->progress)
        return;
    const struct iom_lab_plan *pl = w->plan;
    size_t nj = w->o->nr_jobs, nr = w->o->repeat;
    size_t idx = (k * nj + (jj - 1)) * nr + (rr - 1), last = w->nr_uo * nj * nr - 1;
    long seq = (long)(idx * 2) + which;
    if (seq <= w->last_seq)
        return;   /* a header seen again (the carried tail) or out of order */
    if (w->last_seq < 0 && w->later_s >= 0) {
        /* the boot's first run: this host's boot time is known now, and
         * with it the later boots' (iom_lab_plan_update's mean) */
        double b = (pl->boot_sum_s + elapsed_s) / (pl->nr_boot_seen + 1);
        w->later_s += (b - pl->boot_s) * (double)(pl->nr_boots - w->boot_no);
    }
    w->last_seq = seq;
    size_t j = jj - 1;
    struct iom_lab_progress p = {.unit = w->uo[k]->u->name, .job = jj, .run = rr};
    double after = plus(runs_from(w, idx + 1), plus(pl->shutdown_s, w->later_s));
    if (which == 0) {
        p.stage = IOM_LAB_STAGE_RUN;
        p.phased = pl->phased[j];
        if (p.phased) {
            p.ramp_s = pl->ramp[j];
            p.run_s = pl->run[j];
            p.cool_s = pl->cool[j];
        }
        p.est_s = pl->est[j];
        p.left_s = plus(pl->run_extra_s, after);
    } else if (idx < last) {
        p.stage = IOM_LAB_STAGE_BETWEEN;
        p.est_s = pl->run_extra_s;
        p.left_s = after;
    } else {
        p.stage = IOM_LAB_STAGE_SHUTDOWN;
        p.unit = NULL;
        p.job = p.run = 0;
        p.est_s = pl->run_extra_s + pl->shutdown_s;
        p.left_s = w->later_s;
    }
    report(w, &p);
}

int iom_lab_watch_tick(int pid, void *arg)
{
    struct iom_lab_watch *w = arg;
    if (w->offset == 0 && w->boot_bound_s > 0 && iom_lab_now_s() - w->t_start > w->boot_bound_s) {
        struct stat st;
        if (stat(w->chan, &st) != 0 || st.st_size == 0) {
            w->no_boot = true;
            return 1;
        }
    }
    FILE *f = fopen(w->chan, "rb");
    if (!f)
        return 0;
    char buf[65536 + 100];
    size_t cl = strlen(w->carry);
    memcpy(buf, w->carry, cl);
    if (fseek(f, w->offset, SEEK_SET) == 0) {
        size_t n = fread(buf + cl, 1, 65536, f);
        w->offset += (long)n;
        n += cl;
        buf[n] = 0;
        for (size_t i = 0; i < n; i++) {
            if (buf[i] != '@' || strncmp(buf + i, "@@iomark-lab ", 13) != 0 ||
                !memchr(buf + i, '\n', n - i))
                continue;
            const char *h = buf + i + 13;
            size_t k = 0;
            if (w->prefixed) {
                char *end;
                unsigned long kk = strtoul(h, &end, 10);
                if (end == h || *end != '/' || kk < 1 || kk > w->nr_uo)
                    continue;
                k = kk - 1;
                h = end + 1;
            }
            unsigned jj, rr;
            char which;
            if (h[0] != 't' || sscanf(h + 1, "%c.%u.%u ", &which, &jj, &rr) != 3 ||
                (which != '0' && which != '1') || jj < 1 || jj > w->o->nr_jobs || rr < 1 ||
                rr > w->o->repeat)
                continue;
            struct iom_lab_unitout *uo = w->uo[k];
            struct iom_lab_runrec *r = &uo->jobs[jj - 1].runs[rr - 1];
            double c = proc_cpu_s(pid);
            /* one clock reading for the boot time kept (boot_s) and the one
             * the later boots are estimated with: two readings were up to
             * 19 ms apart (ASan build, load 35) */
            double elapsed_s = iom_lab_now_s() - w->t_start;
            if (which == '0') {
                r->qemu_t0 = c;
                if (jj == 1 && rr == 1)
                    uo->boot_s = elapsed_s;
            } else {
                r->qemu_t1 = c;
            }
            watch_event(w, k, jj, rr, which == '1', elapsed_s);
        }
        /* keep the tail: a header may be split across reads */
        size_t keep = n < sizeof(w->carry) - 1 ? n : sizeof(w->carry) - 1;
        memcpy(w->carry, buf + n - keep, keep);
        w->carry[keep] = 0;
        /* a header fully inside the carry was counted already: drop up to its end */
        char *at = strrchr(w->carry, '@');
        if (!at || strchr(at, '\n'))
            w->carry[0] = 0;
    }
    fclose(f);
    return 0;
}

/* ---- reading one boot's channel ---- */

static bool parse_snap(const char *s, double v[23])
{
    int n = 0;
    for (const char *p = s; p && *p && n < 23;) {
        char *end;
        double x = strtod(p, &end);
        if (end == p)
            break;
        v[n++] = x;
        p = end;
    }
    return n >= 20;
}

void iom_lab_io_from(const char *t0, const char *t1, struct iom_lab_io *io)
{
    double a[23] = {0}, b[23] = {0};
    memset(io, 0, sizeof(*io));
    io->qemu_cpu_s = NAN;
    if (!t0 || !t1 || !parse_snap(t0, a) || !parse_snap(t1, b))
        return;
    /* 0 uptime; 1-8 cpu user nice system idle iowait irq softirq steal;
     * 9-19 disk: rd_ios rd_merges rd_sectors rd_ticks wr_ios wr_merges
     * wr_sectors wr_ticks in_flight io_ticks time_in_queue; 20-22 inflight samples */
    io->have = true;
    io->t0_uptime = a[0];
    io->wall_s = b[0] - a[0];
    double busy = 0;
    for (int k = 1; k <= 8; k++)
        if (k != 4 && k != 5)
            busy += b[k] - a[k];
    io->guest_cpu_s = busy / 100.0;
    io->ios = (b[9] - a[9]) + (b[13] - a[13]);
    io->sectors = (b[11] - a[11]) + (b[15] - a[15]);
    if (io->wall_s > 0) {
        io->aqu_sz = (b[19] - a[19]) / (io->wall_s * 1000.0);
        io->util_pct = 100.0 * (b[18] - a[18]) / (io->wall_s * 1000.0);
    }
    /* the sampler's line "count sum max" follows the snapshot in t1 */
    const char *nl = strchr(t1, '\n');
    double n = 0, sum = 0, mx = 0;
    if (nl && sscanf(nl + 1, "%lf %lf %lf", &n, &sum, &mx) == 3 && n > 0) {
        io->inflight_samples = n;
        io->inflight_mean = sum / n;
        io->inflight_max = mx;
    } else {
        io->inflight_mean = io->inflight_max = NAN;
    }
}

/* iom_lab_figures_of's figures of one command's document (r's were NAN). */
static void figures_of(const char *command, const cJSON *doc, struct iom_lab_runrec *r)
{
    struct iom_lab_figures f;
    if (strcmp(command, "run") == 0 && doc && iom_lab_figures_from_doc(doc, &f) == 0) {
        r->iops = f.iops;
        r->mib_per_s = f.mib_per_s;
        r->lat_mean_us = f.lat_mean_us;
        r->lat_p99_us = f.lat_p99_us;
        r->ios = f.ios >= 0 ? f.ios : NAN;
        r->cpu_pct = f.cpu_pct >= 0 ? f.cpu_pct : NAN;
        return;
    }
    if (!r->imp || !r->imp->nr_workloads)
        return;
    /* diskspd: the one workload; sweep: the point with the most IOPS; tpcc: NOPM */
    const struct iom_imp_run *best = NULL;
    for (uint32_t i = 0; i < r->imp->nr_workloads; i++) {
        const struct iom_imp_workload *w = &r->imp->w[i];
        if (!w->nr_runs)
            continue;
        const struct iom_imp_run *x = &w->runs[0];
        if (w->is_tpcc) {
            r->nopm = x->nopm;
            r->tpm = x->tpm;
            continue;
        }
        if (!best || (!isnan(x->dir[IOM_IMP_TOTAL].iops) &&
                      x->dir[IOM_IMP_TOTAL].iops > best->dir[IOM_IMP_TOTAL].iops))
            best = x;
    }
    if (best && strcmp(command, "mark") != 0) {
        r->iops = best->dir[IOM_IMP_TOTAL].iops;
        r->mib_per_s = best->dir[IOM_IMP_TOTAL].mib_per_s;
        r->lat_mean_us = best->dir[IOM_IMP_TOTAL].lat_mean_us;
        r->lat_p99_us = best->dir[IOM_IMP_TOTAL].lat_p99_us;
        r->ios = best->dir[IOM_IMP_TOTAL].ios > 0 ? best->dir[IOM_IMP_TOTAL].ios : NAN;
        r->cpu_pct = best->cpu_pct;
    }
}

void iom_lab_figures_of(const char *command, const cJSON *doc, struct iom_lab_runrec *r)
{
    r->iops = r->mib_per_s = r->lat_mean_us = r->lat_p99_us = r->cpu_pct = NAN;
    r->nopm = r->tpm = r->ios = r->qd = NAN;
    figures_of(command, doc, r);
    /* Little's law holds per run: the outstanding I/O of this run */
    if (!isnan(r->iops) && !isnan(r->lat_mean_us))
        r->qd = r->iops * r->lat_mean_us / 1e6;
}

void iom_lab_mean_of(struct iom_lab_jobout *jo, unsigned n)
{
    struct iom_lab_runrec *m = &jo->mean;
    double *dst[] = {&m->iops, &m->mib_per_s, &m->lat_mean_us, &m->lat_p99_us, &m->cpu_pct,
                     &m->nopm, &m->tpm, &m->ios, &m->qd, &m->io.wall_s, &m->io.ios,
                     &m->io.sectors, &m->io.guest_cpu_s, &m->io.aqu_sz, &m->io.util_pct,
                     &m->io.inflight_mean, &m->io.inflight_max, &m->io.qemu_cpu_s};
    for (size_t k = 0; k < sizeof(dst) / sizeof(dst[0]); k++) {
        size_t off = (size_t)((char *)dst[k] - (char *)m);
        double s = 0;
        unsigned c = 0;
        for (unsigned r = 0; r < n; r++) {
            const struct iom_lab_runrec *x = &jo->runs[r];
            double v = *(const double *)((const char *)x + off);
            if (x->ok && !isnan(v)) {
                s += v;
                c++;
            }
        }
        *dst[k] = c ? s / c : NAN;
    }
    /* the mean latency of all the runs' I/Os: total latency / total I/Os */
    double lat_sum = 0, ios = 0;
    bool weighted = true;
    for (unsigned r = 0; r < n; r++) {
        const struct iom_lab_runrec *x = &jo->runs[r];
        if (!x->ok || isnan(x->lat_mean_us))
            continue;
        weighted &= x->ios > 0;
        lat_sum += x->lat_mean_us * x->ios;
        ios += x->ios;
    }
    if (weighted && ios > 0)
        m->lat_mean_us = lat_sum / ios;
    m->io.have = m->io.ios > 0 || m->io.wall_s > 0;
}

/* Requested vs effective guest parameters: the value in /sys/module and,
 * where the driver clamps it without writing back, the value in effect
 * (vmw_pvscsi: can_queue = ring_pages x 32 requests per 4 KiB ring page;
 * nvme: the I/O queue size = sqsize + 1). */
cJSON *iom_lab_params_json(const struct iom_lab_unit *u, const struct iom_lab_guest_view *v)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < u->nr_params; i++) {
        const char *p = u->params[i], *eq = strchr(p, '=');
        if (!eq || !strchr(p, '.') || strchr(p, '.') > eq)
            continue;
        char key[160], sys[64] = "";
        snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
        for (char *q = key; *q && *q != '.'; q++)
            if (*q == '-')
                *q = '_';
        /* only the parameters of this controller's own modules */
        bool mine = false;
        for (size_t m = 0; u->c->modules[m]; m++) {
            size_t ml = strlen(u->c->modules[m]);
            mine |= strncmp(key, u->c->modules[m], ml) == 0 && key[ml] == '.';
        }
        if (!mine)
            continue;
        /* module_params: "mod.param=value ..." */
        size_t kl = strlen(key);
        for (const char *s = v->module_params; (s = strstr(s, key)) != NULL; s += kl)
            if ((s == v->module_params || s[-1] == ' ') && s[kl] == '=') {
                snprintf(sys, sizeof(sys), "%.*s", (int)strcspn(s + kl + 1, " "), s + kl + 1);
                break;
            }
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "parameter", key);
        cJSON_AddStringToObject(x, "requested", eq + 1);
        if (sys[0])
            cJSON_AddStringToObject(x, "sysfs", sys);
        char eff[64] = "";
        if (strcmp(key, "vmw_pvscsi.ring_pages") == 0 && v->can_queue > 0)
            snprintf(eff, sizeof(eff), "%ld", v->can_queue / 32);
        else if (strcmp(key, "nvme.io_queue_depth") == 0 && v->nvme_sqsize >= 0)
            snprintf(eff, sizeof(eff), "%ld", v->nvme_sqsize + 1);
        else if (sys[0])
            snprintf(eff, sizeof(eff), "%s", sys);
        if (eff[0])
            cJSON_AddStringToObject(x, "in_effect", eff);
        if (strcmp(key, "vmw_pvscsi.ring_pages") == 0)
            cJSON_AddStringToObject(x, "in_effect_from", "scsi_host can_queue / 32");
        else if (strcmp(key, "nvme.io_queue_depth") == 0)
            cJSON_AddStringToObject(x, "in_effect_from", "nvme sqsize + 1");
        else
            cJSON_AddStringToObject(x, "in_effect_from", "/sys/module parameter");
        cJSON_AddItemToArray(a, x);
    }
    return a;
}

void iom_lab_points_from_series(const char *series, struct iom_lab_runrec *r, unsigned nr)
{
    r->nr_points = 0;
    if (!series || !r->io.have || r->io.wall_s <= 0 || nr == 0)
        return;
    if (nr > IOM_LAB_MAX_POINTS)
        nr = IOM_LAB_MAX_POINTS;
    double w = r->io.wall_s / nr, sum[IOM_LAB_MAX_POINTS] = {0}, mx[IOM_LAB_MAX_POINTS];
    unsigned cnt[IOM_LAB_MAX_POINTS] = {0};
    for (unsigned k = 0; k < nr; k++)
        mx[k] = 0;
    for (const char *p = series; p && *p;) {
        double t, x;
        if (sscanf(p, "%lf %lf", &t, &x) == 2) {
            double rel = t - r->io.t0_uptime;
            if (rel >= 0 && rel < r->io.wall_s) {
                unsigned k = (unsigned)(rel / w);
                double pos = rel / w - k;
                if (k < nr && pos >= 0.1 && pos <= 0.9) {
                    sum[k] += x;
                    cnt[k]++;
                    if (x > mx[k])
                        mx[k] = x;
                }
            }
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    for (unsigned k = 0; k < nr; k++) {
        r->points[k].inflight_mean = cnt[k] ? sum[k] / cnt[k] : NAN;
        r->points[k].inflight_max = cnt[k] ? mx[k] : NAN;
    }
    r->nr_points = nr;
}

double iom_lab_unit_jobs_s(const struct iom_lab_unitout *uo, const struct iom_lab_opts *o)
{
    double first = NAN, last = NAN;
    for (size_t j = 0; uo->jobs && j < o->nr_jobs; j++)
        for (unsigned r = 0; r < o->repeat; r++) {
            const struct iom_lab_io *io = &uo->jobs[j].runs[r].io;
            if (!io->have)
                continue;
            if (isnan(first) || io->t0_uptime < first)
                first = io->t0_uptime;
            if (isnan(last) || io->t0_uptime + io->wall_s > last)
                last = io->t0_uptime + io->wall_s;
        }
    return last - first;
}
