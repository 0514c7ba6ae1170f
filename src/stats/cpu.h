/*
 * cpu.h - CPU use over an interval: all online CPUs from /proc/stat (as
 * DiskSpd's CPU table and iostat's %user/%system) and iomark's own process
 * time from getrusage(2) (the base of CPU per I/O, as fio's usr/sys).
 */
#ifndef IOMARK_STATS_CPU_H
#define IOMARK_STATS_CPU_H

#include <stdint.h>

struct iom_cpu_sample {
    /* /proc/stat "cpu" line, in USER_HZ ticks */
    uint64_t user, nice, system, idle, iowait, irq, softirq, steal;
    uint64_t proc_user_ns, proc_system_ns; /* this process, getrusage(RUSAGE_SELF) */
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
};

/* Read the counters now. Returns 0, or -errno when /proc/stat cannot be read
 * (the process times are still filled). proc_stat_path NULL = "/proc/stat". */
int iom_cpu_sample_take(struct iom_cpu_sample *s, const char *proc_stat_path);

/* Usage between two samples a (earlier) and b. */
void iom_cpu_usage_between(const struct iom_cpu_sample *a, const struct iom_cpu_sample *b,
                           struct iom_cpu_usage *u);

#endif
