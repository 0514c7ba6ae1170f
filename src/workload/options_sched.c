/* options_sched.c - native options on when and where a job's threads run:
 * startdelay (one time or a LOW-HIGH range), cpus_allowed, cpumask,
 * cpus_allowed_policy, numa_cpu_nodes and numa_mem_policy (fio HOWTO, "Job
 * description" and "Threads, processes and job synchronization";
 * options_int.h). CPU and node numbers are checked against this machine
 * (sysconf, /sys/devices/system/node) when the option is read. */
#include "workload/options_int.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _WIN32
#include <windows.h>
#endif

#include "workload/units.h"

#define MAX_CPUS 1024
#define MAX_NODES 64

/* "0,2-3" (or "all" with all_n > 0: 0..all_n-1) into bits[] (max bits); false when malformed
 * or a number is >= max. */
static bool parse_list(const char *v, uint64_t *bits, unsigned max, unsigned all_n)
{
    memset(bits, 0, (max / 64) * sizeof(*bits));
    if (all_n && strcmp(v, "all") == 0) {
        for (unsigned i = 0; i < all_n && i < max; i++)
            bits[i / 64] |= UINT64_C(1) << (i % 64);
        return true;
    }
    const char *p = v;
    if (!*p)
        return false;
    while (*p) {
        char *end;
        unsigned long a = strtoul(p, &end, 10), b;
        if (end == p || a >= max)
            return false;
        b = a;
        p = end;
        if (*p == '-') {
            b = strtoul(p + 1, &end, 10);
            if (end == p + 1 || b >= max || b < a)
                return false;
            p = end;
        }
        for (unsigned long i = a; i <= b; i++)
            bits[i / 64] |= UINT64_C(1) << (i % 64);
        if (*p == ',')
            p++;
        else if (*p)
            return false;
    }
    return true;
}

static void list_text(const uint64_t *bits, unsigned max, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < max && n < len; i++) {
        if (!(bits[i / 64] >> (i % 64) & 1))
            continue;
        unsigned j = i;
        while (j + 1 < max && (bits[(j + 1) / 64] >> ((j + 1) % 64) & 1))
            j++;
        int k = j > i ? snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "", i, j)
                      : snprintf(buf + n, len - n, "%s%u", n ? "," : "", i);
        if (k > 0)
            n += (size_t)k;
        i = j;
    }
}

static unsigned nr_cpus(void)
{
#ifdef _WIN32
    SYSTEM_INFO si; /* Win32 has no _SC_NPROCESSORS_CONF; the processors of this group */
    GetSystemInfo(&si);
    long n = (long)si.dwNumberOfProcessors;
#else
    long n = sysconf(_SC_NPROCESSORS_CONF);
#endif
    return n > 0 && n <= MAX_CPUS ? (unsigned)n : MAX_CPUS;
}

/* Whether NUMA node n exists here (/sys/devices/system/node/node<n>). */
static bool node_exists(unsigned n)
{
    char p[64];
    snprintf(p, sizeof(p), "/sys/devices/system/node/node%u", n);
    return access(p, F_OK) == 0;
}

static unsigned nr_nodes(void)
{
    unsigned n = 0;
    while (n < MAX_NODES && node_exists(n))
        n++;
    return n;
}

/* Every node in nodes exists; else *bad_node is the first that does not. */
static bool nodes_exist(uint64_t nodes, unsigned *bad_node)
{
    for (unsigned i = 0; i < MAX_NODES; i++)
        if ((nodes >> i & 1) && !node_exists(i)) {
            *bad_node = i;
            return false;
        }
    return true;
}

static int node_error(const struct opt *o, const char *v, unsigned bad, char *err, size_t errlen)
{
    char why[160];
    unsigned have = nr_nodes();
    if (have == 1)
        snprintf(why, sizeof(why), "NUMA node %u does not exist; this machine has node 0 only "
                 "(/sys/devices/system/node)", bad);
    else if (have)
        snprintf(why, sizeof(why), "NUMA node %u does not exist; this machine has nodes 0-%u "
                 "(/sys/devices/system/node)", bad, have - 1);
    else
        snprintf(why, sizeof(why), "no NUMA node information (/sys/devices/system/node)");
    return iom_opt_bad(err, errlen, o->name, v, why);
}

int iom_opt_set_startdelay(const struct opt *o, const char *v, struct iom_job *job,
                           struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const char *why = "needs a time or a LOW-HIGH range, e.g. 2 or 2-5 (seconds without a unit)";
    char lo[64];
    const char *dash = v ? strchr(v, '-') : NULL;
    uint64_t a, b = 0;
    if (!v || (dash && (size_t)(dash - v) >= sizeof(lo)))
        return iom_opt_bad(err, errlen, o->name, v, why);
    snprintf(lo, sizeof(lo), "%.*s", dash ? (int)(dash - v) : (int)strlen(v), v);
    const char *w;
    if (iom_parse_duration(lo, &a, &w) || (dash && iom_parse_duration(dash + 1, &b, &w)))
        return iom_opt_bad(err, errlen, o->name, v, why);
    if (dash && b < a)
        return iom_opt_bad(err, errlen, o->name, v, "a range needs LOW <= HIGH");
    job->startdelay_ns = a;
    job->startdelay_hi_ns = dash && b > a ? b : 0;
    return 0;
}

int iom_opt_fmt_startdelay(const struct iom_job *job, char *buf, size_t len)
{
    if (job->startdelay_hi_ns)
        snprintf(buf, len, "%lluns-%lluns", (unsigned long long)job->startdelay_ns,
                 (unsigned long long)job->startdelay_hi_ns);
    else
        snprintf(buf, len, "%lluns", (unsigned long long)job->startdelay_ns);
    return job->startdelay_ns || job->startdelay_hi_ns ? 1 : 0;
}

int iom_opt_set_cpus(const struct opt *o, const char *v, struct iom_job *job,
                     struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    uint64_t bits[MAX_CPUS / 64];
    unsigned n = nr_cpus();
    char why[160];
    if (v && strcmp(o->name, "cpumask") == 0) { /* fio: a bit mask, bit c = CPU c */
        char *end;
        unsigned long long m = strtoull(v, &end, 0);
        if (*v && !*end && m) {
            memset(bits, 0, sizeof(bits));
            bits[0] = m;
            for (unsigned c = n; c < 64; c++)
                if (m >> c & 1) {
                    snprintf(why, sizeof(why), "CPU %u is not on this machine (CPUs 0-%u)", c,
                             n - 1);
                    return iom_opt_bad(err, errlen, o->name, "mask", why);
                }
            memcpy(job->cpus, bits, sizeof(bits));
            return 0;
        }
        return iom_opt_bad(err, errlen, o->name, v, "needs a CPU bit mask above 0, e.g. 0x3");
    }
    snprintf(why, sizeof(why), "needs CPU numbers 0-%u as a list with ranges, e.g. 0,2-3", n - 1);
    if (!v || !parse_list(v, bits, MAX_CPUS, n))
        return iom_opt_bad(err, errlen, o->name, v, why);
    for (unsigned c = n; c < MAX_CPUS; c++)
        if (bits[c / 64] >> (c % 64) & 1)
            return iom_opt_bad(err, errlen, o->name, v, why);
    memcpy(job->cpus, bits, sizeof(bits));
    return 0;
}

int iom_opt_fmt_cpus(const struct iom_job *job, char *buf, size_t len)
{
    list_text(job->cpus, MAX_CPUS, buf, len);
    return buf[0] ? 1 : 0;
}

int iom_opt_set_cpus_policy(const struct opt *o, const char *v, struct iom_job *job,
                            struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (v && strcmp(v, "shared") == 0)
        job->cpus_split = false;
    else if (v && strcmp(v, "split") == 0)
        job->cpus_split = true;
    else
        return iom_opt_bad_near(err, errlen, o->name, v,
                                (const char *const[]){"shared", "split", NULL}, "shared, split");
    return 0;
}

int iom_opt_fmt_cpus_policy(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", job->cpus_split ? "split" : "shared");
    return job->cpus_split ? 1 : 0;
}

/* The CPUs of each node in nodes, from /sys/devices/system/node/node<n>/cpulist. */
static int node_cpus(uint64_t nodes, uint64_t *cpus)
{
    memset(cpus, 0, MAX_CPUS / 8);
    for (unsigned i = 0; i < MAX_NODES; i++) {
        if (!(nodes >> i & 1))
            continue;
        char p[80], line[4096];
        uint64_t bits[MAX_CPUS / 64];
        snprintf(p, sizeof(p), "/sys/devices/system/node/node%u/cpulist", i);
        FILE *f = fopen(p, "r");
        if (!f)
            return -ENOENT;
        bool ok = fgets(line, sizeof(line), f) != NULL;
        fclose(f);
        line[strcspn(line, "\n")] = '\0';
        if (!ok || (line[0] && !parse_list(line, bits, MAX_CPUS, 0)))
            return -EINVAL;
        for (unsigned k = 0; line[0] && k < MAX_CPUS / 64; k++)
            cpus[k] |= bits[k];
    }
    return 0;
}

int iom_opt_set_numa_cpus(const struct opt *o, const char *v, struct iom_job *job,
                          struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    uint64_t nodes;
    unsigned bad;
    if (!v || !parse_list(v, &nodes, MAX_NODES, nr_nodes()))
        return iom_opt_bad(err, errlen, o->name, v,
                           "needs NUMA node numbers as a list with ranges, or all, e.g. 0 or 0-1");
    if (!nodes_exist(nodes, &bad))
        return node_error(o, v, bad, err, errlen);
    uint64_t cpus[MAX_CPUS / 64];
    if (node_cpus(nodes, cpus))
        return iom_opt_bad(err, errlen, o->name, v, "cannot read the nodes' cpulist in sysfs");
    memcpy(job->cpus, cpus, sizeof(cpus));
    return 0;
}

static const char *const mpol_names[] = {"default", "prefer", "bind", "interleave", "local"};

int iom_opt_set_mem_policy(const struct opt *o, const char *v, struct iom_job *job,
                           struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    const char *allowed = "allowed: default, local, prefer:NODE, bind:NODES, interleave:NODES "
                          "(NODES: a list with ranges, or all)";
    const char *colon = v ? strchr(v, ':') : NULL;
    size_t ml = v ? (colon ? (size_t)(colon - v) : strlen(v)) : 0;
    unsigned mode = 0, bad;
    for (; mode < 5; mode++)
        if (v && strlen(mpol_names[mode]) == ml && strncmp(v, mpol_names[mode], ml) == 0)
            break;
    if (mode == 5)
        return iom_opt_bad(err, errlen, o->name, v, allowed);
    uint64_t nodes = 0;
    bool need = mode == 1 || mode == 2 || mode == 3;
    if (need != (colon != NULL) || (colon && !parse_list(colon + 1, &nodes, MAX_NODES, nr_nodes())))
        return iom_opt_bad(err, errlen, o->name, v, allowed);
    if (mode == 1 && (nodes & (nodes - 1)))
        return iom_opt_bad(err, errlen, o->name, v, "prefer takes one node");
    if (!nodes_exist(nodes, &bad))
        return node_error(o, v, bad, err, errlen);
    job->mem_policy = (uint8_t)(mode + 1);
    job->mem_nodes = nodes;
    return 0;
}

int iom_opt_fmt_mem_policy(const struct iom_job *job, char *buf, size_t len)
{
    if (!job->mem_policy || job->mem_policy > 5)
        return 0;
    char nodes[256];
    list_text(&job->mem_nodes, MAX_NODES, nodes, sizeof(nodes));
    snprintf(buf, len, "%s%s%s", mpol_names[job->mem_policy - 1], nodes[0] ? ":" : "", nodes);
    return 1;
}

/* rate_process: linear (default) or poisson (fio io_u.c usec_for_io) */
int iom_opt_set_rate_process(const struct opt *o, const char *v, struct iom_job *job,
                             struct iom_run_opts *ro, char *err, size_t errlen)
{
    (void)ro;
    if (v && (strcmp(v, "linear") == 0 || strcmp(v, "poisson") == 0))
        job->rate_poisson = v[0] == 'p';
    else
        return iom_opt_bad_near(err, errlen, o->name, v,
                                (const char *const[]){"linear", "poisson", NULL}, "linear, poisson");
    return 0;
}

int iom_opt_fmt_rate_process(const struct iom_job *job, char *buf, size_t len)
{
    snprintf(buf, len, "%s", job->rate_poisson ? "poisson" : "linear");
    return job->rate_poisson ? 1 : 0;
}
