/* text.c - the human report: aligned tables, units in every header. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "report/probe_report.h"
#include "report/report.h"
#include "workload/vtypes.h"

void iom_fmt_bytes(uint64_t b, char *buf, size_t len)
{
    static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    uint64_t v = b;
    while (i < 5 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        i++;
    }
    if (i > 0 || b < 1024) {
        snprintf(buf, len, "%llu %s", (unsigned long long)v, u[i]);
        return;
    }
    double d = (double)b;
    i = 0;
    while (i < 5 && d >= 1024) {
        d /= 1024;
        i++;
    }
    snprintf(buf, len, "%.2f %s", d, u[i]);
}

/* rows: the directions (stats/summary.h IOM_DIR_*), then their total (index NT) */
#define NT IOM_NDIR
static const char *const dir_names[NT + 1] = {"read", "write", "trim", "total"};

/* Latency in us with a width-independent precision. */
static void fmt_us(double us, char *buf, size_t len)
{
    if (us < 10)
        snprintf(buf, len, "%.2f", us);
    else if (us < 1000)
        snprintf(buf, len, "%.1f", us);
    else
        snprintf(buf, len, "%.0f", us);
}

static void print_rates(FILE *f, const char *label, const struct iom_summary *m)
{
    char mean[32], sd[32], p50[32], p99[32], mx[32];
    fmt_us(m->lat_mean_us, mean, sizeof(mean));
    fmt_us(m->lat_stddev_us, sd, sizeof(sd));
    fmt_us(m->lat_pct_us[1], p50, sizeof(p50));
    fmt_us(m->lat_pct_us[5], p99, sizeof(p99));
    fmt_us(m->lat_max_us, mx, sizeof(mx));
    fprintf(f, "  %-7s %12.1f %10.2f %10.2f %14llu %10s %10s %10s %10s %10s\n", label, m->iops,
            m->mb_per_s, m->mib_per_s, (unsigned long long)m->ios, mean, sd, p50, p99, mx);
}

static void print_rate_header(FILE *f, const char *first)
{
    fprintf(f, "  %-7s %12s %10s %10s %14s %10s %10s %10s %10s %10s\n", first, "IOPS", "MB/s",
            "MiB/s", "I/Os", "mean(us)", "stdev(us)", "p50(us)", "p99(us)", "max(us)");
}

static void dirs_summaries(const struct iom_io_stats d[IOM_NDIR], uint64_t ns,
                           struct iom_summary m[NT + 1])
{
    struct iom_io_stats *all = malloc(sizeof(*all));
    for (int k = 0; k < IOM_NDIR; k++)
        iom_summarize(&d[k], ns, &m[k]);
    if (all) {
        iom_result_merge_dirs(d, all);
        iom_summarize(all, ns, &m[NT]);
        free(all);
    } else {
        memset(&m[NT], 0, sizeof(m[NT]));
    }
}

void iom_report_text(FILE *f, const struct iom_result *r)
{
    const struct iom_job *j = &r->job;
    char bs[32], sz[32], qd[80];
    iom_fmt_bytes(iom_job_max_bs(j), bs, sizeof(bs));
    unsigned eff = iom_engine_depth(j->ioengine, j->iodepth);
    if (eff != j->iodepth) /* a synchronous engine: one I/O in flight per thread */
        snprintf(qd, sizeof(qd), "%u asked, 1 in flight (%s is synchronous)", j->iodepth,
                 j->ioengine);
    else
        snprintf(qd, sizeof(qd), "%u", j->iodepth);
    fprintf(f,
            "iomark %s: %s, block size %s%llu B (%s), iodepth %s, %u thread%s per target, engine "
            "%s, %s I/O%s\n",
            IOMARK_VERSION, iom_rw_name(j->rw), j->nr_bssplit ? "up to " : "",
            (unsigned long long)iom_job_max_bs(j), bs, qd,
            j->numjobs, j->numjobs == 1 ? "" : "s", r->engine[0] ? r->engine : j->ioengine,
            j->direct ? "direct" : "BUFFERED (page cache)",
            j->sync == IOM_SYNC_DSYNC ? ", write-through (O_DSYNC)"
            : j->sync == IOM_SYNC_SYNC ? ", O_SYNC"
                                       : "");
    if (j->profile[0])
        fprintf(f, "  profile: %s\n", j->profile);
    if (j->rw == IOM_RW_RW || j->rw == IOM_RW_RANDRW)
        fprintf(f, "  mix: %u%% read / %u%% write\n", iom_job_read_pct(j), 100 - iom_job_read_pct(j));
    bool wcap = j->rate_w_iops || j->rate_w_bytes_per_s;
    const char *from = j->lat_from_submit ? "submission (fio)" : "intended start";
    if ((j->rate_iops || j->rate_bytes_per_s) && !wcap)
        fprintf(f, "  paced: %llu %s per thread; latency counts from each I/O's %s\n",
                (unsigned long long)(j->rate_iops ? j->rate_iops : j->rate_bytes_per_s),
                j->rate_iops ? "IOPS" : "bytes/s", from);
    if (wcap) { /* fio's rate=READ,WRITE: 0 and UINT64_MAX are unpaced */
        bool io = j->rate_iops || j->rate_w_iops;
        uint64_t r0 = io ? j->rate_iops : j->rate_bytes_per_s;
        uint64_t w0 = io ? j->rate_w_iops : j->rate_w_bytes_per_s;
        char rs[32] = "unpaced", ws[32] = "unpaced";
        if (r0)
            snprintf(rs, sizeof(rs), "%llu", (unsigned long long)r0);
        if (w0 != UINT64_MAX)
            snprintf(ws, sizeof(ws), "%llu", (unsigned long long)w0);
        fprintf(f, "  paced: reads %s, writes %s %s per thread, each direction on its own; latency "
                "counts from each I/O's %s\n", rs, ws, io ? "IOPS" : "bytes/s", from);
    }
    if (r->engine_note[0])
        fprintf(f, "  note: %s\n", r->engine_note);
    for (uint32_t i = 0; i < r->nr_targets; i++) {
        const struct iom_target_result *t = &r->targets[i];
        iom_fmt_bytes(t->size_bytes, sz, sizeof(sz));
        char name[400]; /* an MPI rank: its first target here, the others below */
        if (t->of_rank)
            snprintf(name, sizeof(name), "rank %d on %s: %s", t->rank, t->host, t->path);
        fprintf(f, "  target %u: %s (%s, %llu bytes = %s%s%s%s, logical block %u B)%s%s\n", i,
                t->of_rank ? name : t->path,
                t->is_blockdev ? "block device" : "file",
                (unsigned long long)t->size_bytes, sz, t->devname[0] ? ", on " : "",
                t->devname, t->created ? ", created by iomark" : "", t->logical_block_bytes,
                t->sparse ? " SPARSE: unwritten regions read as zeros" : "",
                "");
        for (uint32_t k = 1; iom_target_path(t, k); k++) /* an MPI rank's other targets */
            fprintf(f, "            and %s%s\n", iom_target_path(t, k),
                    iom_target_path(t, k + 1) ? "" : " (the rank's figures are over all its targets; "
                                                     "the facts above are its first's)");
    }
    if (j->nr_targets)
        fprintf(f, "  region %llu B from byte %llu per target%s%s\n",
                (unsigned long long)r->targets[0].region_len,
                (unsigned long long)r->targets[0].region_start,
                j->io_limit_bytes ? ", io_size per thread " : "",
                j->io_limit_bytes ? (iom_fmt_bytes(j->io_limit_bytes, sz, sizeof(sz)), sz) : "");
    for (uint32_t i = 0; i < r->nr_targets; i++)
        if (r->targets[i].extended) {
            char was[32];
            iom_fmt_bytes(r->targets[i].extended_from, was, sizeof(was));
            fprintf(f, "  target %u: the existing file was %llu bytes = %s, smaller than the region: "
                       "iomark extended it (new part filled with random data)\n",
                    i, (unsigned long long)r->targets[i].extended_from, was);
        }
    for (uint32_t i = 0; i < r->nr_targets; i++)
        if (r->targets[i].unused_tail_bytes)
            fprintf(f, "  target %u: the last %llu bytes of the region are not used (less than a "
                       "whole block)\n",
                    i, (unsigned long long)r->targets[i].unused_tail_bytes);
    fprintf(f, "  measured %.2f s (warm-up %.2f s, cool-down %.2f s)", (double)r->measured_ns / 1e9,
            (double)r->warmup_ns / 1e9, (double)r->cooldown_ns / 1e9);
    if (r->interrupted_signal) /* the words of mark's and sweep's reports */
        fprintf(f, "  INTERRUPTED by %s: partial results", iom_signal_name(r->interrupted_signal));
    fputc('\n', f);
    if (r->error[0])
        fprintf(f, "  ERROR: %s\n", r->error);

    struct iom_summary m[NT + 1];
    dirs_summaries(r->total, r->measured_ns, m);
    fprintf(f, "\n");
    print_rate_header(f, "");
    for (int k = 0; k <= NT; k++)
        if (k == NT || m[k].ios)
            print_rates(f, dir_names[k], &m[k]);

    fprintf(f, "\n  latency percentiles in us, submission to completion "
               "(* = fewer samples than the percentile resolves: the largest sample, as max):\n");
    fprintf(f, "  %-7s %10s", "", "min");
    for (int i = 0; i < IOM_NR_PCT; i++) {
        char h[16];
        snprintf(h, sizeof(h), "p%g", iom_pct_list[i]);
        fprintf(f, " %9s ", h);
    }
    fprintf(f, " %10s %12s\n", "max", "samples");
    for (int k = 0; k <= NT; k++) {
        if (k != NT && !m[k].ios)
            continue;
        char v[32];
        fmt_us(m[k].lat_min_us, v, sizeof(v));
        fprintf(f, "  %-7s %10s", dir_names[k], v);
        for (int i = 0; i < IOM_NR_PCT; i++) {
            fmt_us(m[k].lat_pct_us[i], v, sizeof(v));
            fprintf(f, " %9s%c", v, iom_pct_resolved(iom_pct_list[i], (double)m[k].ios) ? ' ' : '*');
        }
        fmt_us(m[k].lat_max_us, v, sizeof(v));
        fprintf(f, " %10s %12llu\n", v, (unsigned long long)m[k].ios);
    }

    uint64_t ios = m[NT].ios;
    double busy = r->cpu.user_pct + r->cpu.system_pct;
    double proc = r->cpu.process_user_s + r->cpu.process_system_s;
    fprintf(f,
            "\n  CPU (%u CPUs): user %.1f%%, system %.1f%%, iowait %.1f%%, idle %.1f%%; "
            "%.0f IOPS per CPU-%%; iomark used %.2f CPU-s = %.2f us per I/O\n",
            r->cpu.nr_cpus, r->cpu.user_pct, r->cpu.system_pct, r->cpu.iowait_pct,
            r->cpu.idle_pct, busy > 0 ? m[NT].iops / busy : 0.0, proc,
            ios ? proc * 1e6 / (double)ios : 0.0);

    if (r->nr_targets > 1) {
        fprintf(f, "\n  per target:\n");
        print_rate_header(f, "target");
        for (uint32_t i = 0; i < r->nr_targets; i++) {
            struct iom_summary tm[NT + 1];
            char lab[16];
            dirs_summaries(r->targets[i].dir, r->measured_ns, tm);
            snprintf(lab, sizeof(lab), "%u", i);
            print_rates(f, lab, &tm[NT]);
        }
    }
    for (uint32_t i = 0; i < r->nr_targets; i++) {
        const struct iom_target_result *t = &r->targets[i];
        if (t->first_error_errno)
            fprintf(f, "  target %u: %llu errors; first at byte %llu: %s\n", i,
                    (unsigned long long)(t->dir[0].errors + t->dir[1].errors + t->dir[2].errors),
                    (unsigned long long)t->first_error_offset, strerror(t->first_error_errno));
        if (r->job.verify)
            fprintf(f, "  target %u: verify %s: %llu blocks checked, %llu mismatches\n", i,
                    r->job.verify_fio ? iom_fio_verify_name((enum iom_fio_vtype)r->job.verify_fio)
                                      : "crc32c",
                    (unsigned long long)t->verified_blocks, (unsigned long long)t->verify_errors);
        if (t->verify_errors) {
            const struct iom_verify_mismatch *vm = &t->first_mismatch;
            fprintf(f,
                    "    first mismatch at byte %llu: %s; header found: offset %llu, seed %llu, "
                    "generation %u, length %u, crc stored %08x computed %08x; expected offset "
                    "%llu, seed %llu\n",
                    (unsigned long long)vm->offset, vm->reason ? vm->reason : "",
                    (unsigned long long)vm->found_offset, (unsigned long long)vm->found_seed,
                    vm->found_generation, vm->found_len, vm->crc_stored, vm->crc_computed,
                    (unsigned long long)vm->offset, (unsigned long long)vm->expected_seed);
        }
    }
    if (r->nr_threads > 1) {
        fprintf(f, "\n  per thread:\n");
        print_rate_header(f, "thread");
        for (uint32_t i = 0; i < r->nr_threads; i++) {
            struct iom_summary tm[NT + 1];
            char lab[24];
            dirs_summaries(r->threads[i].dir, r->measured_ns, tm);
            snprintf(lab, sizeof(lab), "%u.%u", r->threads[i].target_idx,
                     r->threads[i].thread_idx);
            print_rates(f, lab, &tm[NT]);
        }
    }
    bool trims = iom_job_trims(j); /* a trim IOPS column for jobs that trim */
    if (r->nr_series) {
        fprintf(f, "\n  series (every %.3g s):\n  %8s %12s %12s", (double)j->series_interval_ns / 1e9,
                "t(s)", "read IOPS", "write IOPS");
        if (trims)
            fprintf(f, " %12s", "trim IOPS");
        fprintf(f, " %10s %12s %12s\n", "MiB/s", "mean(us)", "p99(us)");
        for (uint32_t i = 0; i < r->nr_series; i++) {
            const struct iom_series_point *p = &r->series[i];
            double d = p->dur_s > 0 ? p->dur_s : 1;
            char mean[32], p99[32];
            fmt_us(p->lat_mean_us, mean, sizeof(mean));
            fmt_us(p->lat_p99_us, p99, sizeof(p99));
            fprintf(f, "  %8.2f %12.1f %12.1f", p->t_end_s, (double)p->ios[0] / d,
                    (double)p->ios[1] / d);
            if (trims)
                fprintf(f, " %12.1f", (double)p->ios[2] / d);
            fprintf(f, " %10.2f %12s %12s\n",
                    (double)(p->bytes[0] + p->bytes[1] + p->bytes[2]) / d / 1048576.0, mean, p99);
        }
    }
    iom_probe_text_run(f, r); /* probe line, advice, device view per target */
}

const char *iom_report_target_name(const struct iom_target_result *t, char *buf, size_t len)
{
    if (t->of_rank) { /* an MPI rank: its targets, "a + b" when it has several */
        size_t o = (size_t)snprintf(buf, len, "rank %d on %s: %s", t->rank, t->host, t->path);
        for (uint32_t k = 1; o < len && iom_target_path(t, k); k++)
            o += (size_t)snprintf(buf + o, len - o, " + %s", iom_target_path(t, k));
    } else {
        snprintf(buf, len, "%s", t->path);
    }
    return buf;
}
