/* devmon.c - device counters from /proc/diskstats and sysfs inflight during a run. */
#include "probe/devmon.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef O_CLOEXEC /* mingw-w64 */
#define O_CLOEXEC 0
#endif

#define DEFAULT_PERIOD_NS UINT64_C(10000000)

int iom_diskstats_read(const char *root, const char *name, struct iom_diskstats *out)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/proc/diskstats", root);
    FILE *f = fopen(p, "r");
    if (!f)
        return -errno;
    char line[512];
    int rc = -ENOENT;
    while (fgets(line, sizeof(line), f)) {
        unsigned ma, mi;
        char nm[64];
        unsigned long long v[17] = {0};
        int n = sscanf(line,
                       " %u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu "
                       "%llu %llu %llu %llu %llu",
                       &ma, &mi, nm, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
                       &v[9], &v[10], &v[11], &v[12], &v[13], &v[14], &v[15], &v[16]);
        if (n < 14 || strcmp(nm, name) != 0)
            continue;
        struct iom_diskstats s = {
            .rd_ios = v[0], .rd_merges = v[1], .rd_sectors = v[2], .rd_ticks_ms = v[3],
            .wr_ios = v[4], .wr_merges = v[5], .wr_sectors = v[6], .wr_ticks_ms = v[7],
            .in_flight = v[8], .io_ticks_ms = v[9], .time_in_queue_ms = v[10],
            .dc_ios = v[11], .dc_merges = v[12], .dc_sectors = v[13], .dc_ticks_ms = v[14],
            .fl_ios = v[15], .fl_ticks_ms = v[16],
        };
        *out = s;
        rc = 0;
        break;
    }
    fclose(f);
    return rc;
}

int iom_inflight_read(const char *root, const char *name, uint64_t *reads, uint64_t *writes)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s/sys/class/block/%s/inflight", root, name);
    FILE *f = fopen(p, "r");
    if (!f)
        return -errno;
    unsigned long long r, w;
    int n = fscanf(f, "%llu %llu", &r, &w);
    fclose(f);
    if (n != 2)
        return -EINVAL;
    *reads = r;
    *writes = w;
    return 0;
}

static uint64_t delta(uint64_t a, uint64_t b)
{
    return b >= a ? b - a : 0;
}

void iom_diskstats_figures(const struct iom_diskstats *a, const struct iom_diskstats *b,
                           double dur_s, struct iom_dev_figures *o)
{
    memset(o, 0, sizeof(*o));
    o->dur_s = dur_s;
    o->ios[0] = delta(a->rd_ios, b->rd_ios);
    o->ios[1] = delta(a->wr_ios, b->wr_ios);
    o->merges[0] = delta(a->rd_merges, b->rd_merges);
    o->merges[1] = delta(a->wr_merges, b->wr_merges);
    o->bytes[0] = delta(a->rd_sectors, b->rd_sectors) * 512;
    o->bytes[1] = delta(a->wr_sectors, b->wr_sectors) * 512;
    o->ios[2] = delta(a->dc_ios, b->dc_ios); /* discards: trims (0 before Linux 4.18) */
    o->merges[2] = delta(a->dc_merges, b->dc_merges);
    o->bytes[2] = delta(a->dc_sectors, b->dc_sectors) * 512;
    uint64_t rt = delta(a->rd_ticks_ms, b->rd_ticks_ms), wt = delta(a->wr_ticks_ms, b->wr_ticks_ms);
    uint64_t dt = delta(a->dc_ticks_ms, b->dc_ticks_ms);
    if (o->ios[0])
        o->r_await_ms = (double)rt / (double)o->ios[0];
    if (o->ios[1])
        o->w_await_ms = (double)wt / (double)o->ios[1];
    if (o->ios[2])
        o->d_await_ms = (double)dt / (double)o->ios[2];
    uint64_t n = o->ios[0] + o->ios[1] + o->ios[2];
    if (n)
        o->await_ms = (double)(rt + wt + dt) / (double)n;
    if (dur_s > 0) {
        o->read_iops = (double)o->ios[0] / dur_s;
        o->write_iops = (double)o->ios[1] / dur_s;
        o->discard_iops = (double)o->ios[2] / dur_s;
        o->iops = o->read_iops + o->write_iops + o->discard_iops;
        o->mib_per_s = (double)(o->bytes[0] + o->bytes[1] + o->bytes[2]) / dur_s / 1048576.0;
        double ms = dur_s * 1000.0;
        o->aqu_sz = (double)delta(a->time_in_queue_ms, b->time_in_queue_ms) / ms;
        o->util_pct = (double)delta(a->io_ticks_ms, b->io_ticks_ms) / ms * 100.0;
        if (o->util_pct > 100.0)
            o->util_pct = 100.0;
    }
}

/* ---------- the monitor ---------- */

struct acc {
    double sum, max;
    uint64_t n;
};

struct dev {
    struct iom_devmon_result *res; /* main thread only (realloc'ed by append) */
    char name[32];               /* copy of res->device for the sampler thread */
    bool active;                 /* in diskstats at begin; read by the sampler under lock */
    struct iom_diskstats first, last;
    uint64_t first_ns, last_ns;  /* when first and last were read (monitor's clock) */
    struct acc iv, all;          /* in-flight samples: this interval, whole phase */
};

struct iom_devmon {
    char root[256];
    unsigned nr;
    struct dev *d;
    uint64_t period_ns;
    pthread_t tid;
    bool thread_up;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool stop;
    uint64_t (*now_ns)(void *arg); /* stamps diskstats readings */
    void *now_arg;
};

static uint64_t monotonic_ns(void *arg)
{
    (void)arg;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Read device `name`'s diskstats row and stamp it with the monitor's clock; 0 or -errno. */
static int read_stamped(struct iom_devmon *m, const char *name, struct iom_diskstats *out,
                        uint64_t *t_ns)
{
    int rc = iom_diskstats_read(m->root, name, out);
    *t_ns = m->now_ns(m->now_arg);
    return rc;
}

static double secs_since(uint64_t t0, uint64_t t1) /* t1 - t0 in s, 0 if the clock went back */
{
    return t1 > t0 ? (double)(t1 - t0) / 1e9 : 0;
}

static double signed_ms(uint64_t a, uint64_t b) /* a - b in ms */
{
    return a >= b ? (double)(a - b) / 1e6 : -(double)(b - a) / 1e6;
}

static void acc_add(struct acc *a, double v)
{
    a->sum += v;
    a->n++;
    if (v > a->max)
        a->max = v;
}

/*
 * Parse sysfs "inflight" ("READS WRITES\n", Documentation/ABI/stable/
 * sysfs-block) read again from offset 0 of an open descriptor: sysfs
 * regenerates the text on each read at offset 0, so the sampler keeps one
 * descriptor per device instead of a path walk, open and close per sample.
 * Returns 0 or -errno.
 */
static int inflight_pread(int fd, uint64_t *reads, uint64_t *writes)
{
    char buf[64];
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
    if (n <= 0)
        return n < 0 ? -errno : -EINVAL;
    buf[n] = 0;
    unsigned long long r, w;
    if (sscanf(buf, "%llu %llu", &r, &w) != 2)
        return -EINVAL;
    *reads = r;
    *writes = w;
    return 0;
}

/* One in-flight sample of every active device; fds[] (-1 = not open yet) are the sampler's. */
static void sample_inflight(struct iom_devmon *m, int *fds)
{
    for (unsigned i = 0; i < m->nr; i++) {
        struct dev *d = &m->d[i];
        uint64_t r = 0, w = 0;
        pthread_mutex_lock(&m->lock);
        bool active = d->active;
        pthread_mutex_unlock(&m->lock);
        if (!active)
            continue;
        if (fds[i] < 0) {
            char p[4096];
            snprintf(p, sizeof(p), "%s/sys/class/block/%s/inflight", m->root, d->name);
            fds[i] = open(p, O_RDONLY | O_CLOEXEC);
        }
        if (fds[i] < 0 || inflight_pread(fds[i], &r, &w))
            continue;
        pthread_mutex_lock(&m->lock);
        acc_add(&d->iv, (double)(r + w));
        acc_add(&d->all, (double)(r + w));
        pthread_mutex_unlock(&m->lock);
    }
}

static void *sampler(void *arg)
{
    struct iom_devmon *m = arg;
    int *fds = malloc((m->nr ? m->nr : 1) * sizeof(*fds));
    if (!fds)
        return NULL;
    for (unsigned i = 0; i < m->nr; i++)
        fds[i] = -1;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&m->lock);
    while (!m->stop) {
        pthread_mutex_unlock(&m->lock);
        sample_inflight(m, fds);
        pthread_mutex_lock(&m->lock);
        uint64_t ns = (uint64_t)next.tv_nsec + m->period_ns;
        next.tv_sec += (time_t)(ns / 1000000000u);
        next.tv_nsec = (long)(ns % 1000000000u);
        while (!m->stop && pthread_cond_timedwait(&m->cond, &m->lock, &next) == 0)
            ;
    }
    pthread_mutex_unlock(&m->lock);
    for (unsigned i = 0; i < m->nr; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    free(fds);
    return NULL;
}

static struct iom_devmon_result *new_result(void)
{
    uint32_t cap = 16;
    struct iom_devmon_result *r = calloc(1, sizeof(*r) + cap * sizeof(r->points[0]));
    if (r)
        r->cap_points = cap;
    return r;
}

int iom_devmon_new(struct iom_devmon **out, const char *root, const char *const *names,
                   const char *const *notes, unsigned nr, uint64_t period_ns)
{
    *out = NULL;
    struct iom_devmon *m = calloc(1, sizeof(*m));
    if (!m)
        return -ENOMEM;
    snprintf(m->root, sizeof(m->root), "%s", root ? root : "");
    m->period_ns = period_ns ? period_ns : DEFAULT_PERIOD_NS;
    m->now_ns = monotonic_ns;
    m->nr = nr;
    m->d = calloc(nr ? nr : 1, sizeof(*m->d));
    pthread_mutex_init(&m->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&m->cond, &ca);
    pthread_condattr_destroy(&ca);
    if (!m->d) {
        iom_devmon_free(m);
        return -ENOMEM;
    }
    for (unsigned i = 0; i < nr; i++) {
        struct iom_devmon_result *r = new_result();
        if (!r) {
            iom_devmon_free(m);
            return -ENOMEM;
        }
        m->d[i].res = r;
        r->inflight_period_ns = m->period_ns;
        const char *nm = names && names[i] ? names[i] : "";
        snprintf(r->device, sizeof(r->device), "%s", nm);
        if (!nm[0])
            snprintf(r->note, sizeof(r->note), "%s",
                     notes && notes[i] && notes[i][0] ? notes[i] : "no block device under the target");
    }
    *out = m;
    return 0;
}

void iom_devmon_set_clock(struct iom_devmon *m, uint64_t (*now_ns)(void *arg), void *arg)
{
    if (!m)
        return;
    m->now_ns = now_ns ? now_ns : monotonic_ns;
    m->now_arg = now_ns ? arg : NULL;
}

void iom_devmon_begin(struct iom_devmon *m, uint64_t window_start_ns)
{
    if (!m)
        return;
    bool any = false;
    for (unsigned i = 0; i < m->nr; i++) {
        struct dev *d = &m->d[i];
        if (!d->res->device[0])
            continue;
        if (read_stamped(m, d->res->device, &d->first, &d->first_ns) != 0) {
            snprintf(d->res->note, sizeof(d->res->note), "%s is not in /proc/diskstats",
                     d->res->device);
            continue;
        }
        d->last = d->first;
        d->last_ns = d->first_ns;
        d->res->window_start_offset_ms = signed_ms(d->first_ns, window_start_ns);
        snprintf(d->name, sizeof(d->name), "%s", d->res->device);
        pthread_mutex_lock(&m->lock);
        d->active = true;
        pthread_mutex_unlock(&m->lock);
        any = true;
    }
    if (any && !m->thread_up) {
        m->stop = false;
        m->thread_up = pthread_create(&m->tid, NULL, sampler, m) == 0;
    }
}

static int append(struct dev *d, double t_end_s, const struct iom_dev_figures *f)
{
    struct iom_devmon_result *r = d->res;
    if (r->nr_points == r->cap_points) {
        uint32_t cap = r->cap_points * 2;
        struct iom_devmon_result *n = realloc(r, sizeof(*r) + cap * sizeof(r->points[0]));
        if (!n)
            return -ENOMEM;
        n->cap_points = cap;
        d->res = r = n;
    }
    r->points[r->nr_points].t_end_s = t_end_s;
    r->points[r->nr_points].f = *f;
    r->nr_points++;
    return 0;
}

void iom_devmon_tick(struct iom_devmon *m, double t_end_s)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nr; i++) {
        struct dev *d = &m->d[i];
        if (!d->active)
            continue;
        struct iom_diskstats now;
        uint64_t now_ns;
        if (read_stamped(m, d->res->device, &now, &now_ns) != 0)
            continue;
        /* over the device's own interval: the first one starts at the first
         * reading, which may come after the run's window began */
        struct iom_dev_figures f;
        iom_diskstats_figures(&d->last, &now, secs_since(d->last_ns, now_ns), &f);
        /* one more in-flight sample at the tick, from the same sysfs file
         * (field 12 may count differently: since Linux 6.17 it counts from
         * the request's start, sysfs inflight only requests at the driver) */
        uint64_t ir, iw;
        bool have = iom_inflight_read(m->root, d->name, &ir, &iw) == 0;
        pthread_mutex_lock(&m->lock);
        if (have) {
            acc_add(&d->iv, (double)(ir + iw));
            acc_add(&d->all, (double)(ir + iw));
        }
        f.inflight_samples = d->iv.n;
        f.inflight_mean = d->iv.n ? d->iv.sum / (double)d->iv.n : 0;
        f.inflight_max = d->iv.max;
        memset(&d->iv, 0, sizeof(d->iv));
        pthread_mutex_unlock(&m->lock);
        d->last = now;
        d->last_ns = now_ns;
        append(d, t_end_s, &f);
    }
}

static void stop_thread(struct iom_devmon *m)
{
    if (!m->thread_up)
        return;
    pthread_mutex_lock(&m->lock);
    m->stop = true;
    pthread_cond_broadcast(&m->cond);
    pthread_mutex_unlock(&m->lock);
    pthread_join(m->tid, NULL);
    m->thread_up = false;
}

void iom_devmon_end(struct iom_devmon *m, uint64_t window_end_ns)
{
    if (!m)
        return;
    stop_thread(m);
    for (unsigned i = 0; i < m->nr; i++) {
        struct dev *d = &m->d[i];
        if (!d->active)
            continue;
        /* the runner ticks right before it ends the phase: end the totals at
         * that tick so the series adds up to them; read afresh otherwise */
        struct iom_diskstats now = d->last;
        uint64_t now_ns = d->last_ns;
        if (!d->res->nr_points && read_stamped(m, d->res->device, &now, &now_ns) != 0) {
            now = d->last;
            now_ns = d->last_ns;
        }
        struct iom_devmon_result *r = d->res;
        iom_diskstats_figures(&d->first, &now, secs_since(d->first_ns, now_ns), &r->total);
        r->window_end_offset_ms = signed_ms(now_ns, window_end_ns);
        r->total.inflight_samples = d->all.n;
        r->total.inflight_mean = d->all.n ? d->all.sum / (double)d->all.n : 0;
        r->total.inflight_max = d->all.max;
        r->ok = true;
        d->active = false;
    }
}

struct iom_devmon_result *iom_devmon_take(struct iom_devmon *m, unsigned i)
{
    if (!m || i >= m->nr)
        return NULL;
    pthread_mutex_lock(&m->lock);
    m->d[i].active = false;
    pthread_mutex_unlock(&m->lock);
    struct iom_devmon_result *r = m->d[i].res;
    m->d[i].res = NULL;
    return r;
}

void iom_devmon_free(struct iom_devmon *m)
{
    if (!m)
        return;
    stop_thread(m);
    if (m->d)
        for (unsigned i = 0; i < m->nr; i++)
            free(m->d[i].res);
    free(m->d);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->cond);
    free(m);
}
