/* result.c - ownership helpers for struct iom_result. */
#include "stats/result.h"
#include "stats/steady.h"
#include "stats/slog.h"

#include <stdlib.h>
#include <string.h>

void iom_result_free(struct iom_result *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->nr_targets; i++) {
        free(r->targets[i].path);
        free(r->targets[i].probe);      /* flat structs: one free() each */
        free(r->targets[i].device_mon);
    }
    free(r->targets);
    for (uint32_t i = 0; r->threads && i < r->nr_threads; i++) {
        iom_slog_free(r->threads[i].slog);
        free(r->threads[i].block_infos);
    }
    free(r->threads);
    free(r->series);
    if (r->ss)
        iom_ss_free(r->ss);
    free(r->ss);
    iom_job_free(&r->job);
    free(r);
}

void iom_result_merge_dirs(const struct iom_io_stats dir[IOM_NDIR], struct iom_io_stats *out)
{
    iom_io_stats_init(out);
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_merge(out, &dir[d]);
}

void iom_thread_dir_runtime(const struct iom_job *job, const struct iom_thread_result *th,
                            uint64_t rt[IOM_NDIR])
{
    uint64_t all = th->runtime_ns, v = th->verify_ns < all ? th->verify_ns : all;
    bool reads1 = (job->rw == IOM_RW_RW || job->rw == IOM_RW_RANDRW) && job->rwmixread_pct > 0;
    rt[IOM_DIR_READ] = v && !reads1 ? v : all;
    rt[IOM_DIR_WRITE] = rt[IOM_DIR_TRIM] = all - v;
}

void iom_thread_result_rusage(struct iom_thread_result *th, const uint64_t ru0[3])
{
    uint64_t ru[3];
    if (!(th->rusage = iom_thread_rusage(ru)))
        return;
    th->ctx = ru[0] - ru0[0];
    th->majf = ru[1] - ru0[1];
    th->minf = ru[2] - ru0[2];
}

const char *iom_target_path(const struct iom_target_result *t, uint32_t k)
{
    if (!t->path)
        return NULL;
    uint32_t n = t->of_rank ? t->nr_paths : 1;
    if (k >= n)
        return NULL;
    const char *p = t->path;
    for (uint32_t i = 0; i < k; i++)
        p += strlen(p) + 1;
    return p;
}
