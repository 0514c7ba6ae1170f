/* mpi_report.c - the "mpi" part of a merged run document and of its text report. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi.h"
#include "report/report.h"
#include "stats/summary.h"

/* One host: the merged stats of its ranks. */
struct host_sum {
    const char *name;
    int nr_ranks;
    struct iom_io_stats st; /* read + write */
    const struct iom_cpu_usage *cpu; /* of its first rank */
    double proc_s;          /* CPU seconds of its ranks */
};

/* Hosts in order of first appearance; *nr set. Caller frees. */
static struct host_sum *by_host(const struct iom_mpi_info *in, int *nr)
{
    struct host_sum *h = calloc((size_t)in->nr_ranks, sizeof(*h));
    *nr = 0;
    if (!h)
        return NULL;
    for (int i = 0; i < in->nr_ranks; i++) {
        const struct iom_mpi_rank *k = &in->ranks[i];
        int j = 0;
        while (j < *nr && strcmp(h[j].name, k->host) != 0)
            j++;
        if (j == *nr) {
            h[j].name = k->host;
            h[j].cpu = &k->cpu;
            iom_io_stats_init(&h[j].st);
            (*nr)++;
        }
        h[j].nr_ranks++;
        h[j].proc_s += k->cpu.process_user_s + k->cpu.process_system_s;
        for (int d = 0; d < IOM_NDIR; d++)
            iom_io_stats_merge(&h[j].st, &k->total[d]);
    }
    return h;
}

void iom_mpi_report_json(cJSON *doc, const struct iom_mpi_info *in)
{
    cJSON *o = cJSON_AddObjectToObject(doc, "mpi");
    if (!o)
        return;
    cJSON_AddNumberToObject(o, "ranks", in->nr_ranks);
    cJSON_AddBoolToObject(o, "own_targets", in->patterned);
    if (in->lost_rank >= 0) { /* the figures are the other ranks' only */
        cJSON_AddBoolToObject(o, "partial", true);
        cJSON_AddNumberToObject(o, "lost_rank", in->lost_rank);
        cJSON_AddStringToObject(o, "lost_host", in->ranks[in->lost_rank].host);
        cJSON_AddStringToObject(o, "reason", in->ranks[in->lost_rank].error);
    }
    cJSON_AddStringToObject(o, "rates_over", "slowest rank's measured time");
    cJSON *w = cJSON_AddObjectToObject(o, "window");
    cJSON_AddNumberToObject(w, "slowest_rank_s", (double)in->slowest_ns / 1e9);
    cJSON_AddNumberToObject(w, "fastest_rank_s", (double)in->fastest_ns / 1e9);
    cJSON_AddNumberToObject(w, "start_spread_ms", in->start_spread_ms);
    cJSON_AddNumberToObject(w, "end_spread_ms", in->end_spread_ms);
    int nh = 0;
    struct host_sum *h = by_host(in, &nh);
    cJSON *ha = cJSON_AddArrayToObject(o, "hosts");
    for (int i = 0; h && i < nh; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "host", h[i].name);
        cJSON_AddNumberToObject(e, "ranks", h[i].nr_ranks);
        cJSON_AddItemToObject(e, "total", iom_json_io_stats(&h[i].st, in->slowest_ns));
        cJSON *c = cJSON_AddObjectToObject(e, "cpu");
        cJSON_AddNumberToObject(c, "nr_cpus", h[i].cpu->nr_cpus);
        cJSON_AddNumberToObject(c, "busy_pct", h[i].cpu->busy_pct);
        cJSON_AddNumberToObject(c, "user_pct", h[i].cpu->user_pct);
        cJSON_AddNumberToObject(c, "system_pct", h[i].cpu->system_pct);
        cJSON_AddNumberToObject(c, "iowait_pct", h[i].cpu->iowait_pct);
        cJSON_AddNumberToObject(c, "process_s", h[i].proc_s);
        cJSON_AddItemToArray(ha, e);
    }
    free(h);
    cJSON *ra = cJSON_AddArrayToObject(o, "per_rank");
    for (int i = 0; i < in->nr_ranks; i++) {
        const struct iom_mpi_rank *k = &in->ranks[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "rank", k->rank);
        cJSON_AddStringToObject(e, "host", k->host);
        cJSON *ta = cJSON_AddArrayToObject(e, "targets"); /* its paths, in order */
        for (size_t n = 0, j = 0; j < k->nr_paths && n < sizeof(k->targets); j++) {
            size_t l = strnlen(k->targets + n, sizeof(k->targets) - n);
            if (n + l >= sizeof(k->targets))
                break;
            cJSON_AddItemToArray(ta, cJSON_CreateString(k->targets + n));
            n += l + 1;
        }
        cJSON_AddStringToObject(e, "status", k->rc == -EPIPE ? "lost"
                                             : k->rc || k->error[0] ? "error" : "ok");
        if (k->error[0])
            cJSON_AddStringToObject(e, "error", k->error);
        cJSON_AddNumberToObject(e, "measured_s", (double)k->measured_ns / 1e9);
        cJSON_AddNumberToObject(e, "window_start_unix_s", (double)k->win_start_ns / 1e9);
        cJSON_AddNumberToObject(e, "window_end_unix_s", (double)k->win_end_ns / 1e9);
        cJSON_AddNumberToObject(e, "clock_offset_ms", (double)k->clock_offset_ns / 1e6);
        cJSON_AddNumberToObject(e, "clock_error_ms", (double)k->clock_error_ns / 1e6);
        struct iom_io_stats st;
        iom_io_stats_init(&st);
        for (int d = 0; d < IOM_NDIR; d++)
            iom_io_stats_merge(&st, &k->total[d]);
        /* its own rate over its own measured time */
        cJSON_AddItemToObject(e, "total", iom_json_io_stats(&st, k->measured_ns));
        cJSON_AddNumberToObject(e, "cpu_process_s",
                                k->cpu.process_user_s + k->cpu.process_system_s);
        cJSON_AddItemToArray(ra, e);
    }
}

static void line(FILE *f, const char *name, int ranks, const struct iom_io_stats *st,
                 uint64_t ns, double busy, double proc_s)
{
    struct iom_summary s;
    iom_summarize(st, ns, &s);
    fprintf(f, "  %-16s %5d %12llu %11.0f %9.1f %9.1f %9.1f %9.1f %6.1f %8.2f\n", name, ranks,
            (unsigned long long)s.ios, s.iops, s.mb_per_s, s.lat_mean_us, s.lat_pct_us[5],
            s.lat_pct_us[6], busy, proc_s);
}

void iom_mpi_report_text(FILE *f, const struct iom_mpi_info *in, const struct iom_result *m)
{
    fprintf(f, "\nMPI: %d ranks; one window decided by rank 0; rates over the slowest rank's "
               "time (%.3f s; fastest %.3f s); window starts within %.2f ms, ends within %.2f ms\n",
            in->nr_ranks, (double)in->slowest_ns / 1e9, (double)in->fastest_ns / 1e9,
            in->start_spread_ms, in->end_spread_ms);
    if (in->lost_rank >= 0)
        fprintf(f, "PARTIAL: rank %d on %s was lost during the run; the figures are the other "
                   "ranks'\n", in->lost_rank, in->ranks[in->lost_rank].host);
    if (!in->patterned && in->nr_ranks > 1)
        fprintf(f, "note: every rank used the same target path (no %%r or %%h in the name); "
                   "ranks on one host shared one file or device\n");
    int nh = 0;
    struct host_sum *h = by_host(in, &nh);
    fprintf(f, "  %-16s %5s %12s %11s %9s %9s %9s %9s %6s %8s\n", "host", "ranks", "I/Os", "IOPS",
            "MB/s", "mean us", "p99 us", "p99.9 us", "busy%", "cpu s");
    for (int i = 0; h && i < nh; i++)
        line(f, h[i].name, h[i].nr_ranks, &h[i].st, in->slowest_ns, h[i].cpu->busy_pct,
             h[i].proc_s);
    struct iom_io_stats all;
    iom_io_stats_init(&all);
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_merge(&all, &m->total[d]);
    line(f, "all hosts", in->nr_ranks, &all, in->slowest_ns, m->cpu.busy_pct,
         m->cpu.process_user_s + m->cpu.process_system_s);
    free(h);
    for (int i = 0; i < in->nr_ranks; i++)
        if (in->ranks[i].error[0])
            fprintf(f, "rank %d on %s: %s\n", in->ranks[i].rank, in->ranks[i].host,
                    in->ranks[i].error);
}
