/* cpu.c - CPU accounting from /proc/stat and getrusage(2). */
#include "stats/cpu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int iom_cpu_sample_take(struct iom_cpu_sample *s, const char *proc_stat_path)
{
    memset(s, 0, sizeof(*s));
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        s->proc_user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
        s->proc_system_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
    }
#ifdef _WIN32 /* no /proc/stat: the kernel's per-processor times */
    if (!proc_stat_path)
        return iom_win_cpu_sample(s);
#endif
    FILE *f = fopen(proc_stat_path ? proc_stat_path : "/proc/stat", "r");
    if (!f)
        return -errno;
    unsigned long long v[8] = {0};
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7]);
    /* the per-CPU lines that follow: "cpuN user nice system idle ..." */
    char line[512];
    if (n >= 4 && fgets(line, sizeof(line), f)) { /* rest of the "cpu" line */
        while (fgets(line, sizeof(line), f) && strncmp(line, "cpu", 3) == 0 &&
               s->nr_percpu < IOM_CPU_MAX) {
            unsigned id;
            unsigned long long c[8] = {0};
            if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &id, &c[0], &c[1],
                       &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]) < 5)
                break;
            struct iom_cpu_ticks *t = &s->percpu[s->nr_percpu++];
            *t = (struct iom_cpu_ticks){id, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]};
        }
    }
    fclose(f);
    if (n < 4)
        return -EINVAL;
    s->user = v[0];
    s->nice = v[1];
    s->system = v[2];
    s->idle = v[3];
    s->iowait = v[4];
    s->irq = v[5];
    s->softirq = v[6];
    s->steal = v[7];
    return 0;
}

void iom_cpu_usage_between(const struct iom_cpu_sample *a, const struct iom_cpu_sample *b,
                           struct iom_cpu_usage *u)
{
    memset(u, 0, sizeof(*u));
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    u->nr_cpus = n > 0 ? (unsigned)n : 1;
    double user = (double)((b->user + b->nice) - (a->user + a->nice));
    double sys = (double)((b->system + b->irq + b->softirq) - (a->system + a->irq + a->softirq));
    double iowait = (double)(b->iowait - a->iowait);
    double steal = (double)(b->steal - a->steal);
    double idle = (double)(b->idle - a->idle);
    double total = user + sys + iowait + steal + idle;
    if (total > 0) {
        u->user_pct = 100.0 * user / total;
        u->system_pct = 100.0 * sys / total;
        u->iowait_pct = 100.0 * iowait / total;
        u->steal_pct = 100.0 * steal / total;
        u->idle_pct = 100.0 * idle / total;
        u->busy_pct = 100.0 - u->idle_pct - u->iowait_pct;
    }
    for (uint32_t i = 0; i < b->nr_percpu && u->nr_percpu < IOM_CPU_MAX; i++) {
        const struct iom_cpu_ticks *y = &b->percpu[i], *x = NULL;
        for (uint32_t k = 0; k < a->nr_percpu && !x; k++)
            if (a->percpu[k].id == y->id)
                x = &a->percpu[k]; /* CPUs can go offline between samples */
        if (!x)
            continue;
        double cu = (double)((y->user + y->nice) - (x->user + x->nice));
        double cs = (double)((y->system + y->irq + y->softirq) - (x->system + x->irq + x->softirq));
        double cw = (double)(y->iowait - x->iowait), ci = (double)(y->idle - x->idle);
        double ct = cu + cs + cw + (double)(y->steal - x->steal) + ci;
        struct iom_cpu_one *o = &u->percpu[u->nr_percpu++];
        o->id = y->id;
        if (ct > 0) {
            o->user_pct = 100.0 * cu / ct;
            o->system_pct = 100.0 * cs / ct;
            o->iowait_pct = 100.0 * cw / ct;
            o->idle_pct = 100.0 * ci / ct;
        }
    }
    u->process_user_s = (double)(b->proc_user_ns - a->proc_user_ns) / 1e9;
    u->process_system_s = (double)(b->proc_system_ns - a->proc_system_ns) / 1e9;
}

bool iom_thread_rusage(uint64_t out[3])
{
#ifdef RUSAGE_THREAD
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) != 0)
        return false;
    out[0] = (uint64_t)ru.ru_nvcsw + (uint64_t)ru.ru_nivcsw;
    out[1] = (uint64_t)ru.ru_majflt;
    out[2] = (uint64_t)ru.ru_minflt;
    return true;
#else
    (void)out;
    return false;
#endif
}
