/* fio_log.c - fio's write_bw_log / write_lat_log / write_iops_log files of a
 * job-file run (see fio.h, iom_fio_write_logs). */
#include "report/fio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/slog.h"

enum kind { K_BW, K_IOPS, K_LAT, K_SLAT };

/* One line's tail: ", dir, bs[, offset], prio" (fio 3.33 iolog.c flush_samples).
 * prio is the I/O's priority value: its own (cmdprio), else the job's
 * (prio/prioclass: fio's td->ioprio, class 0 read as best-effort), else 0; an
 * averaged sample has 0 (fio stat.c __add_stat_to_log). With log_prio fio prints
 * it as 0x%04x, else 1 when its class is real-time (ioprio_value_is_class_rt). */
static void tail(FILE *f, const struct iom_job *job, uint32_t dir, uint64_t bs, bool with_off,
                 uint64_t off, unsigned prio)
{
    char p[16];
    if (job->log_prio)
        snprintf(p, sizeof(p), "0x%04x", prio);
    else
        snprintf(p, sizeof(p), "%u", (prio >> 13) == 1 ? 1u : 0u);
    if (with_off)
        fprintf(f, ", %u, %llu, %llu, %s\n", dir, (unsigned long long)bs,
                (unsigned long long)off, p);
    else
        fprintf(f, ", %u, %llu, %s\n", dir, (unsigned long long)bs, p);
}

/* fio's td->ioprio: the job's prio/prioclass value (backend.c thread_main), else 0 */
static unsigned job_prio(const struct iom_job *job)
{
    if (!job->ioprio_given)
        return 0;
    return ((job->ioprio_class ? job->ioprio_class : 2u) << 13) | job->ioprio_level;
}

static void write_records(FILE *f, const struct iom_job *job, const struct iom_slog *l,
                          enum kind k, bool with_off)
{
    unsigned dflt = job_prio(job);
    for (size_t i = 0; i < l->nr_rec; i++) {
        const struct iom_slog_rec *r = &l->rec[i];
        uint64_t v = k == K_IOPS ? 1
                     : k == K_BW ? (r->lat_ns ? (uint64_t)r->len * 1000000u / r->lat_ns : 0)
                                 : r->lat_ns;
        fprintf(f, "%llu, %llu", (unsigned long long)(r->t_ns / 1000000u), (unsigned long long)v);
        tail(f, job, r->dir, r->len, with_off, r->offset, r->prio ? r->prio : dflt);
    }
}

/* Averaged: one line per window and direction with I/O; end_ns = the clone's end. */
static void write_windows(FILE *f, const struct iom_job *job, const struct iom_slog *l,
                          enum kind k, bool with_off, uint64_t end_ns)
{
    for (size_t w = 0; w < l->nr_win; w++) {
        uint64_t a = w * l->avg_ns, b = a + l->avg_ns;
        if (b > end_ns && end_ns > a)
            b = end_ns; /* the last window: to the clone's end */
        uint64_t spent_ms = b / 1000000u - a / 1000000u;
        for (uint32_t d = 0; d < 3; d++) { /* read, write, trim: fio's ddir column */
            const struct iom_slog_win *x = &l->win[w];
            if (!x->ios[d] || (k != K_LAT && !spent_ms))
                continue;
            uint64_t v = k == K_BW     ? iom_slog_rate(x->bytes[d], spent_ms, 1)
                         : k == K_IOPS ? iom_slog_rate(x->ios[d], spent_ms, 0)
                                       : (x->lat_sum_ns[d] + x->ios[d] / 2) / x->ios[d];
            fprintf(f, "%llu, %llu", (unsigned long long)(b / 1000000u), (unsigned long long)v);
            tail(f, job, d, 0, with_off, 0, 0);
        }
    }
}

static int write_one(const char *prefix, const char *kind_name, uint32_t num,
                     const struct iom_job *job, const struct iom_slog *l, enum kind k,
                     bool with_off, uint64_t end_ns, char *err, size_t errlen)
{
    char path[IOM_FIO_LOG_NAME + 32];
    snprintf(path, sizeof(path), "%s_%s.%u.log", prefix, kind_name, num);
    FILE *f = fopen(path, "w");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    if (k != K_SLAT) {
        if (l->avg_ns)
            write_windows(f, job, l, k, with_off, end_ns);
        else
            write_records(f, job, l, k, with_off);
    }
    if (fclose(f) != 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    return 0;
}

/* The samples of clone c of job fj (its threads over the job's files) in *out. */
static int clone_log(const struct iom_fio_job *fj, const struct iom_result *r, uint32_t c,
                     struct iom_slog *out, uint64_t *end_ns)
{
    *end_ns = 0;
    for (uint32_t t = 0; t < r->nr_threads; t++) {
        const struct iom_thread_result *th = &r->threads[t];
        if (iom_fio_clone_of(fj, th->target_idx, th->thread_idx) != c || !th->slog)
            continue;
        int rc = out->avg_ns ? iom_slog_merge_windows(out, th->slog)
                             : iom_slog_merge_records(out, th->slog);
        if (rc)
            return rc;
        if (th->runtime_ns > *end_ns)
            *end_ns = th->runtime_ns;
    }
    if (out->last_t_ns > *end_ns)
        *end_ns = out->last_t_ns;
    return 0;
}

static int clone_files(const struct iom_fio_job *fj, const struct iom_slog *l, uint32_t num,
                       uint64_t end_ns, char *err, size_t errlen)
{
    static const struct {
        int log;
        const char *name;
        enum kind k;
    } files[] = {{IOM_FIO_LOG_BW, "bw", K_BW},      {IOM_FIO_LOG_IOPS, "iops", K_IOPS},
                 {IOM_FIO_LOG_LAT, "lat", K_LAT},   {IOM_FIO_LOG_LAT, "clat", K_LAT},
                 {IOM_FIO_LOG_LAT, "slat", K_SLAT}};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        const char *prefix = fj->log_name[files[i].log];
        if (!prefix[0])
            continue;
        int rc = write_one(prefix, files[i].name, num, &fj->job, l, files[i].k, fj->log_offset,
                           end_ns, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

int iom_fio_write_logs(const struct iom_fio_file *ff, struct iom_result *const *res, char *err,
                       size_t errlen)
{
    uint32_t num = 0;
    for (uint32_t i = 0; i < ff->nr_jobs; i++) {
        const struct iom_fio_job *fj = &ff->jobs[i];
        bool any = fj->log_name[0][0] || fj->log_name[1][0] || fj->log_name[2][0];
        for (uint32_t c = 0; c < fj->fio_numjobs; c++) {
            num++; /* fio numbers every clone of every job, with a log or not */
            if (!any || !res[i])
                continue;
            struct iom_slog *l = iom_slog_new(fj->job.sample_log_avg_ns);
            uint64_t end_ns;
            int rc = l ? clone_log(fj, res[i], c, l, &end_ns) : -ENOMEM;
            if (!rc && l->enomem) {
                snprintf(err, errlen, "[%s] clone %u: out of memory while logging; its log "
                         "files would miss samples and are not written", fj->jobname, c + 1);
                rc = -ENOMEM;
            } else if (rc) {
                snprintf(err, errlen, "[%s]: out of memory merging the log samples",
                         fj->jobname);
            } else {
                rc = clone_files(fj, l, num, end_ns, err, errlen);
            }
            iom_slog_free(l);
            if (rc)
                return rc;
        }
    }
    return 0;
}
