/* cpu_topo.c - where each CPU sits (socket, NUMA node, core, capacity class)
 * from Linux sysfs, for DiskSpd 2.2's per-CPU rows (see cpu.h). */
#include "stats/cpu.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole number from cpu_dir/cpuN/rel, or -1. */
static long long read_num(const char *cpu_dir, uint32_t id, const char *rel)
{
    char path[1200];
    snprintf(path, sizeof(path), "%s/cpu%u/%s", cpu_dir, id, rel);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    long long v = -1;
    if (fscanf(f, "%lld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}

/* The K of the cpuN/nodeK entry, or 0. */
static uint32_t node_of(const char *cpu_dir, uint32_t id)
{
    char path[1200];
    snprintf(path, sizeof(path), "%s/cpu%u", cpu_dir, id);
    DIR *d = opendir(path);
    if (!d)
        return 0;
    uint32_t node = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char *end;
        if (strncmp(e->d_name, "node", 4) != 0 || !e->d_name[4])
            continue;
        unsigned long k = strtoul(e->d_name + 4, &end, 10);
        if (!*end) {
            node = (uint32_t)k;
            break;
        }
    }
    closedir(d);
    return node;
}

/* Index of v in seen[0..*n) (appended when new). */
static uint32_t index_of(long long *seen, uint32_t *n, long long v)
{
    for (uint32_t i = 0; i < *n; i++)
        if (seen[i] == v)
            return i;
    seen[*n] = v;
    return (*n)++;
}

void iom_cpu_topology(struct iom_cpu_usage *u, const char *cpu_dir)
{
    if (!cpu_dir)
        cpu_dir = "/sys/devices/system/cpu";
    static long long pk[IOM_CPU_MAX], cores[IOM_CPU_MAX], caps[IOM_CPU_MAX];
    long long cap_of[IOM_CPU_MAX];
    uint32_t npk = 0, ncore = 0, ncap = 0;
    for (uint32_t i = 0; i < u->nr_percpu && i < IOM_CPU_MAX; i++) {
        struct iom_cpu_one *o = &u->percpu[i];
        long long p = read_num(cpu_dir, o->id, "topology/physical_package_id");
        long long c = read_num(cpu_dir, o->id, "topology/core_id");
        o->socket = index_of(pk, &npk, p < 0 ? 0 : p);
        /* a core is a (package, core_id) pair: core_id repeats across packages */
        o->core = index_of(cores, &ncore, ((p < 0 ? 0 : p) << 32) | (c < 0 ? 0 : c));
        o->node = node_of(cpu_dir, o->id);
        cap_of[i] = read_num(cpu_dir, o->id, "cpu_capacity");
        bool known = false;
        for (uint32_t k = 0; k < ncap; k++)
            known |= caps[k] == cap_of[i];
        if (!known)
            caps[ncap++] = cap_of[i];
    }
    for (uint32_t i = 0; i < u->nr_percpu && i < IOM_CPU_MAX; i++) {
        uint32_t below = 0; /* distinct capacities under this CPU's: its class */
        for (uint32_t k = 0; k < ncap; k++)
            below += caps[k] >= 0 && cap_of[i] >= 0 && caps[k] < cap_of[i];
        u->percpu[i].eff_class = below;
    }
}
