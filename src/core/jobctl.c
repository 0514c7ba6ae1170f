/* jobctl.c - start delay, minimum rate, flow and thread placement (jobctl.h). */
#include "core/jobctl.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/offsets.h"
#include "core/runner.h"
#include "core/worker.h"

#ifdef __linux__
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

uint64_t iom_startdelay_clone(const struct iom_job *job, uint32_t clone)
{
    if (job->startdelay_hi_ns <= job->startdelay_ns)
        return job->startdelay_ns;
    uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a of the name, mixed into the seed */
    for (const char *p = job->name; *p; p++)
        h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
    struct iom_rng r;
    iom_rng_seed(&r, ((job->seed ? job->seed : UINT64_C(0x5eed10a1)) ^ h) +
                         clone * UINT64_C(0x9e3779b97f4a7c15));
    return job->startdelay_ns +
           iom_rng_below(&r, job->startdelay_hi_ns - job->startdelay_ns + 1);
}

uint32_t iom_clone_of(const struct iom_job *job, uint32_t target_idx, uint32_t thread_idx)
{
    return job->clone_files ? target_idx / job->clone_files : thread_idx;
}

uint64_t iom_startdelay_pick(const struct iom_job *job)
{
    uint32_t n = job->clone_files ? job->nr_targets / job->clone_files : job->numjobs;
    uint64_t lo = iom_startdelay_clone(job, 0);
    for (uint32_t k = 1; k < n && job->startdelay_hi_ns > job->startdelay_ns; k++) {
        uint64_t d = iom_startdelay_clone(job, k);
        lo = d < lo ? d : lo;
    }
    return lo;
}

int iom_startdelay_wait(uint64_t ns, const volatile sig_atomic_t *stop, const volatile int *end)
{
    uint64_t until = iom_now_ns() + ns;
    for (;;) {
        if (stop && *stop)
            return *stop;
        if (end && *end)
            return -1;
        uint64_t now = iom_now_ns();
        if (now >= until)
            return 0;
        iom_sleep_until_ns(until - now > 50000000u ? now + 50000000u : until);
    }
}

void iom_ratemin_init(struct iom_ratemin *m, const struct iom_job *job, uint64_t t0)
{
    memset(m, 0, sizeof(*m));
    m->on = job->ratemin_bytes || job->rate_iops_min;
    m->t0 = t0;
    m->min_bytes = job->ratemin_bytes;
    m->min_iops = job->rate_iops_min;
    m->cycle_ns = job->ratecycle_ns ? job->ratecycle_ns : UINT64_C(1000000000);
}

bool iom_ratemin_failed(struct iom_ratemin *m, const char *name, uint64_t now,
                        const uint64_t bytes[3], const uint64_t ios[3], char *msg, size_t len)
{
    if (!m->on || now - m->t0 < UINT64_C(2000000000)) /* fio: a 2 s settle period */
        return false;
    for (int d = 0; d < 3; d++) {
        if (!bytes[d])
            continue;
        if (m->have[d]) {
            uint64_t spent_ms = (now - m->last_t[d]) / 1000000u;
            if (spent_ms == 0 || spent_ms * 1000000u < m->cycle_ns)
                continue;
            if (m->min_bytes) { /* fio: bytes over the cycle * 1000 / ms, in B/s */
                uint64_t got = (bytes[d] - m->last_bytes[d]) * 1000 / spent_ms;
                if (got < m->min_bytes) {
                    snprintf(msg, len, "%s: rate_min=%lluB/s not met, got %lluB/s", name,
                             (unsigned long long)m->min_bytes, (unsigned long long)got);
                    return true;
                }
            } else {
                uint64_t got = (ios[d] - m->last_ios[d]) * 1000 / spent_ms;
                if (got < m->min_iops) {
                    snprintf(msg, len, "%s: rate_iops_min=%llu not met, got %llu IOPS", name,
                             (unsigned long long)m->min_iops, (unsigned long long)got);
                    return true;
                }
            }
        }
        m->have[d] = true;
        m->last_t[d] = now;
        m->last_bytes[d] = bytes[d];
        m->last_ios[d] = ios[d];
    }
    return false;
}

struct iom_flow {
    uint32_t id;
    unsigned refs;
    uint64_t counter;      /* the flow's I/Os + 1, atomic (fio starts it at 1) */
    uint64_t total_weight; /* atomic */
    struct iom_flow *next;
};

static pthread_mutex_t flow_lock = PTHREAD_MUTEX_INITIALIZER;
static struct iom_flow *flows;

struct iom_flow *iom_flow_join(uint32_t id, uint32_t weight)
{
    pthread_mutex_lock(&flow_lock);
    struct iom_flow *f = flows;
    while (f && f->id != id)
        f = f->next;
    if (!f && (f = calloc(1, sizeof(*f)))) {
        f->id = id;
        f->counter = 1;
        f->next = flows;
        flows = f;
    }
    if (f) {
        f->refs++;
        __atomic_add_fetch(&f->total_weight, weight, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&flow_lock);
    return f;
}

bool iom_flow_held(struct iom_flow *f, uint64_t *mine, uint32_t weight)
{
    double share = (double)*mine / (double)__atomic_load_n(&f->counter, __ATOMIC_RELAXED);
    double due = (double)weight / (double)__atomic_load_n(&f->total_weight, __ATOMIC_RELAXED);
    if (share > due)
        return true;
    __atomic_add_fetch(&f->counter, 1, __ATOMIC_RELAXED);
    ++*mine;
    return false;
}

void iom_flow_leave(struct iom_flow *f, uint64_t mine, uint32_t weight)
{
    pthread_mutex_lock(&flow_lock);
    __atomic_sub_fetch(&f->counter, mine, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&f->total_weight, weight, __ATOMIC_RELAXED);
    if (--f->refs == 0) {
        struct iom_flow **p = &flows;
        while (*p != f)
            p = &(*p)->next;
        *p = f->next;
        free(f);
    }
    pthread_mutex_unlock(&flow_lock);
}

int iom_place_thread(const struct iom_job *job, unsigned idx, char *err, size_t errlen)
{
    unsigned n = 0;
    for (unsigned k = 0; k < 16; k++)
        n += (unsigned)__builtin_popcountll(job->cpus[k]);
    if (!n && !job->mem_policy && !job->ioprio_given)
        return 0;
#ifdef __linux__
    if (job->ioprio_given) { /* fio backend.c thread_main: before the job's I/O */
        int cls = job->ioprio_class ? job->ioprio_class : 2;
        if (syscall(SYS_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */, 0,
                    (cls << 13) | job->ioprio_level)) {
            int e = errno;
            snprintf(err, errlen, "prio/prioclass: ioprio_set: %s", strerror(e));
            return -e;
        }
    }
    if (n) {
        cpu_set_t *set = CPU_ALLOC(1024);
        size_t sz = CPU_ALLOC_SIZE(1024);
        if (!set)
            return -ENOMEM;
        CPU_ZERO_S(sz, set);
        unsigned pick = idx % n, seen = 0;
        for (unsigned c = 0; c < 1024; c++) {
            if (!(job->cpus[c / 64] >> (c % 64) & 1))
                continue;
            if (!job->cpus_split || seen == pick)
                CPU_SET_S(c, sz, set);
            seen++;
        }
        int rc = sched_setaffinity(0, sz, set) ? -errno : 0;
        CPU_FREE(set);
        if (rc) {
            snprintf(err, errlen, "cpus_allowed: sched_setaffinity: %s", strerror(-rc));
            return rc;
        }
    }
    if (job->mem_policy) { /* MPOL_DEFAULT 0, PREFERRED 1, BIND 2, INTERLEAVE 3, LOCAL 4 */
        unsigned long mask = (unsigned long)job->mem_nodes;
        int mode = job->mem_policy - 1;
        if (syscall(SYS_set_mempolicy, mode, mask ? &mask : NULL,
                    mask ? (unsigned long)(sizeof(mask) * 8) : 0UL)) {
            int e = errno;
            snprintf(err, errlen, "numa_mem_policy: set_mempolicy: %s", strerror(e));
            return -e;
        }
    }
    return 0;
#else
    (void)idx;
    snprintf(err, errlen, "cpus_allowed/numa_*: thread placement is implemented on Linux only");
    return -ENOTSUP;
#endif
}
