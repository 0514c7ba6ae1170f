/*
 * cpu.h - CPU use over an interval: all online CPUs from /proc/stat (as
 * DiskSpd's CPU table and iostat's %user/%system) and iomark's own process
 * time from getrusage(2) (the base of CPU per I/O, as fio's usr/sys).
 */
#ifndef IOMARK_STATS_CPU_H
#define IOMARK_STATS_CPU_H

#include <stdbool.h>
#include <stdint.h>

#define IOM_CPU_MAX 256   /* CPUs with their own figures (the "cpuN" lines); the rest only in the sums */

/* One CPU's /proc/stat "cpuN" counters, in USER_HZ ticks. */
struct iom_cpu_ticks {
    uint32_t id;             /* N of "cpuN" */
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
};

struct iom_cpu_sample {
    /* /proc/stat "cpu" line, in USER_HZ ticks */
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
    uint64_t proc_user_ns, proc_system_ns; /* this process, getrusage(RUSAGE_SELF) */
    uint32_t nr_percpu;      /* "cpuN" lines read, at most IOM_CPU_MAX */
    struct iom_cpu_ticks percpu[IOM_CPU_MAX];
};

/* One CPU's use over the interval, percentages of its own time (as the sums). */
struct iom_cpu_one {
    uint32_t id;
    double user_pct, system_pct, iowait_pct, idle_pct;
    /* where the CPU sits (iom_cpu_topology; all 0 when unknown), numbered as DiskSpd 2.2
     * numbers them: socket and core are indices in order of first appearance over the
     * CPUs, node the NUMA node, eff_class the rank of the CPU's capacity (0 = the least
     * capable; 0 on every CPU of a homogeneous machine, as Windows' EfficiencyClass) */
    uint32_t socket, node, core, eff_class;
};

struct iom_cpu_usage {
    unsigned nr_cpus;        /* online CPUs */
    double user_pct;         /* (user + nice) / total ticks, % of all CPUs */
    double system_pct;       /* (system + irq + softirq) / total */
    double iowait_pct;
    double steal_pct;
    double idle_pct;         /* idle / total (iowait not included) */
    double busy_pct;         /* 100 - idle - iowait */
    double process_user_s;   /* iomark's own CPU seconds in the interval */
    double process_system_s;
    uint32_t nr_percpu;      /* CPUs present in both samples (DiskSpd's per-CPU table) */
    struct iom_cpu_one percpu[IOM_CPU_MAX];
};

/* Read the counters now. Returns 0, or -errno when /proc/stat cannot be read
 * (the process times are still filled). proc_stat_path NULL = "/proc/stat". */
int iom_cpu_sample_take(struct iom_cpu_sample *s, const char *proc_stat_path);

/* Usage between two samples a (earlier) and b; per CPU for the CPUs whose
 * "cpuN" line is in both samples (same definitions as the sums). */
void iom_cpu_usage_between(const struct iom_cpu_sample *a, const struct iom_cpu_sample *b,
                           struct iom_cpu_usage *u);

/*
 * Fill socket, node, core and eff_class of u->percpu[] from Linux sysfs under
 * cpu_dir (NULL = "/sys/devices/system/cpu"): cpuN/topology/physical_package_id
 * and core_id (kernel Documentation/admin-guide/cputopology.rst), the cpuN/nodeK
 * link (NUMA node K), cpuN/cpu_capacity (Documentation/ABI/testing/
 * sysfs-devices-system-cpu). Sockets and cores are renumbered 0, 1, ... in
 * order of first appearance (DiskSpd prints Windows' package and core indices,
 * which run from 0 the same way). Files that are missing leave 0. No errors.
 */
void iom_cpu_topology(struct iom_cpu_usage *u, const char *cpu_dir);

/* The calling thread's context switches (voluntary + involuntary), major and minor
 * page faults since it was created (getrusage(2) RUSAGE_THREAD, Linux 2.6.26+; fio
 * 3.33 stat.c update_rusage_stat: ctx, majf, minf). out[0..2] = ctx, majf, minf.
 * Returns false (out untouched) where the kernel cannot tell one thread's. */
bool iom_thread_rusage(uint64_t out[3]);

#endif
