/*
 * options_int.h - internal to the native option table (options.c) and the files
 * holding some of its setters (options_mix.c: bssplit, random_distribution;
 * options_sched.c: start delay, CPU and NUMA placement; options_names.c: other
 * tools' names of the options and the line for an unknown one). Nothing outside
 * src/workload/options*.c includes it.
 */
#ifndef IOMARK_WORKLOAD_OPTIONS_INT_H
#define IOMARK_WORKLOAD_OPTIONS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/options.h"
#include "workload/spec.h"

enum opt_type { T_SIZE, T_DURATION, T_PCT, T_U32, T_U64, T_BOOL, T_CUSTOM };
enum opt_where { W_JOB, W_RO };

struct opt;
typedef int (*opt_fn)(const struct opt *o, const char *v, struct iom_job *job,
                      struct iom_run_opts *ro, char *err, size_t errlen);
/* The value of a T_CUSTOM option as text its opt_fn reads back: 1 (buf
 * filled), 0 (unset: the feature is off) or -1 (never serialised). */
typedef int (*opt_fmt)(const struct iom_job *job, char *buf, size_t len);

struct opt {
    const char *name;
    enum opt_type type;
    enum opt_where where;
    size_t off;
    uint64_t min, max;    /* inclusive bounds for numeric types */
    opt_fn fn;            /* T_CUSTOM */
    const char *arg;      /* value placeholder for help */
    const char *help;
    opt_fmt fmt;          /* T_CUSTOM: the value back as text (iom_options_each) */
};

/* options_names.c: one step of iom_option_suggest_via's search over what
 * other tools call the options ("blocksize", fio's "loops"): when one is
 * nearer to name than *best (workload/args.h iom_name_nearer), sets *best,
 * *via (that other name) and *opt (iomark's option, or "repeat", run's own)
 * and returns true; else changes nothing and returns false. */
bool iom_opt_other_nearer(const char *name, unsigned *best, const char **via, const char **opt);

/* options_names.c: the one line for an option name not in the table, into
 * err (errlen bytes): a fio option iomark does not take, with what to do
 * instead, or the nearest option ("did you mean --bs (iomark's name for
 * --blocksize)?"), or where to look. Returns -ENOENT. */
int iom_opt_unknown(const char *name, char *err, size_t errlen);

/* "--NAME=V: why" into err (errlen bytes), "--NAME: why" when v is NULL
 * (the option came without its value); returns -EINVAL. */
int iom_opt_bad(char *err, size_t errlen, const char *name, const char *v, const char *why);

/* A value that is none of the NULL-ended names known: "--NAME=V: did you
 * mean K? allowed: LIST" when one is near V (args.h iom_allowed_near),
 * else "--NAME=V: allowed: LIST"; list spells them for the message (with
 * aliases and meanings). Returns -EINVAL. */
int iom_opt_bad_near(char *err, size_t errlen, const char *name, const char *v,
                     const char *const *known, const char *list);

/* Setters (opt_fn): parse v into job; 0, or -EINVAL with "--NAME=V: what is allowed" in err.
 * Formatters (opt_fmt): the value back as text the setter reads; 1 set, 0 unset, -1 never. */
int iom_opt_set_bssplit(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_set_dist(const struct opt *o, const char *v, struct iom_job *job,
                     struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_bssplit(const struct iom_job *job, char *buf, size_t len);
/* bssplit_write: iom_opt_set_bssplit's list into job->wbssplit (writes' own
 * sizes, fio's bssplit=READS,WRITES), and back as text (1 set, 0 unset) */
int iom_opt_set_bssplit_write(const struct opt *o, const char *v, struct iom_job *job,
                              struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_bssplit_write(const struct iom_job *job, char *buf, size_t len);
int iom_opt_fmt_dist(const struct iom_job *job, char *buf, size_t len);
/* options_sched.c: startdelay (TIME or LOW-HIGH), cpus_allowed/cpumask (checked
 * against sysconf(_SC_NPROCESSORS_CONF)), cpus_allowed_policy, numa_cpu_nodes (the
 * nodes' CPUs from /sys/devices/system/node/node<n>/cpulist; a missing node is an
 * error), numa_mem_policy (MODE[:NODES], nodes checked the same way). */
int iom_opt_set_startdelay(const struct opt *o, const char *v, struct iom_job *job,
                           struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_startdelay(const struct iom_job *job, char *buf, size_t len);
/* options_prio.c: fio's per-I/O priorities. iom_opt_set_cmdprio serves
 * cmdprio_percentage (0..100), cmdprio_class (1..3) and cmdprio (level 0..7), by
 * o->name, each READ[,WRITE]; cmdprio_bssplit takes fio's two entry forms. */
int iom_opt_set_cmdprio(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_cmdprio_pct(const struct iom_job *job, char *buf, size_t len);
int iom_opt_fmt_cmdprio_class(const struct iom_job *job, char *buf, size_t len);
int iom_opt_fmt_cmdprio_level(const struct iom_job *job, char *buf, size_t len);
int iom_opt_set_cmdprio_bssplit(const struct opt *o, const char *v, struct iom_job *job,
                                struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_cmdprio_bssplit(const struct iom_job *job, char *buf, size_t len);
/* options_sched.c: rate_process=linear|poisson and back as text */
int iom_opt_set_rate_process(const struct opt *o, const char *v, struct iom_job *job,
                             struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_rate_process(const struct iom_job *job, char *buf, size_t len);
int iom_opt_set_cpus(const struct opt *o, const char *v, struct iom_job *job,
                     struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_cpus(const struct iom_job *job, char *buf, size_t len);
int iom_opt_set_cpus_policy(const struct opt *o, const char *v, struct iom_job *job,
                            struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_cpus_policy(const struct iom_job *job, char *buf, size_t len);
int iom_opt_set_numa_cpus(const struct opt *o, const char *v, struct iom_job *job,
                          struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_set_mem_policy(const struct opt *o, const char *v, struct iom_job *job,
                           struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_mem_policy(const struct iom_job *job, char *buf, size_t len);

/* options_lat.c: latency_percentile (a float 0..100, fio's FIO_OPT_FLOAT_LIST of one) */
int iom_opt_set_latency_pct(const struct opt *o, const char *v, struct iom_job *job,
                            struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_latency_pct(const struct iom_job *job, char *buf, size_t len);
/* steadystate (fio's ss=iops|iops_slope|bw|bw_slope:LIMIT[%]) */
int iom_opt_set_ss(const struct opt *o, const char *v, struct iom_job *job,
                   struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_ss(const struct iom_job *job, char *buf, size_t len);
/* buffer_pattern (workload/pattern.h syntax; back as one 0xHEX number) */
int iom_opt_set_pattern(const struct opt *o, const char *v, struct iom_job *job,
                        struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_pattern(const struct iom_job *job, char *buf, size_t len);
/* dedupe_mode: repeat (default) or working_set */
int iom_opt_set_dedupe_mode(const struct opt *o, const char *v, struct iom_job *job,
                            struct iom_run_opts *ro, char *err, size_t errlen);
int iom_opt_fmt_dedupe_mode(const struct iom_job *job, char *buf, size_t len);

#endif
