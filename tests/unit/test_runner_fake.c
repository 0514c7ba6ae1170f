/* test_runner_fake.c - the runner (core/runner.c, worker.c, layers.c) driven
 * by a scripted engine: completions in reverse order, partial transfers,
 * errors, engines that complete at once, the verify and inject layers over
 * an engine that keeps its data in memory, and the warm-up -> measured
 * switch. Expected counts follow from the script (every k-th completion of
 * N I/Os fails: floor(N / k) errors), not from the runner. */
#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "core/runner.h"
#include "engine/engine.h"

#define DISK (1u << 20)
static struct {
    int sync;              /* complete in queue() */
    int reverse;           /* getevents returns the newest first */
    unsigned partial_every, error_every;
    uint64_t stall_at, stall_ns; /* queue() of I/O number stall_at takes stall_ns */
    uint64_t queued, delivered;
    unsigned char disk[DISK]; /* the data, so verify can read back what was written */
} S;

struct fake {
    unsigned n, depth;
    struct iom_io *q[];
};

static int f_available(void)
{
    return 0;
}

static int f_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                  uint32_t buf_len)
{
    (void)fd, (void)bufs, (void)nr_bufs, (void)buf_len;
    struct fake *f = calloc(1, sizeof(*f) + depth * sizeof(f->q[0]));
    if (!f)
        return -ENOMEM;
    f->depth = depth;
    e->priv = f;
    return 0;
}

/* the scripted outcome of the next completion */
static void finish(struct iom_io *io)
{
    uint64_t k = ++S.delivered;
    if (io->offset + io->len <= DISK) {
        if (io->ddir == IOM_IO_WRITE)
            memcpy(S.disk + io->offset, io->buf, io->len);
        else
            memcpy(io->buf, S.disk + io->offset, io->len);
    }
    io->result = io->len;
    if (S.partial_every && k % S.partial_every == 0)
        io->result = io->len / 2;
    if (S.error_every && k % S.error_every == 0)
        io->result = -EIO;
}

static int f_queue(struct iom_engine *e, struct iom_io *io)
{
    struct fake *f = e->priv;
    S.queued++;
    if (S.stall_at && S.queued == S.stall_at) {
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)S.stall_ns};
        nanosleep(&ts, NULL);
    }
    if (S.sync) {
        finish(io);
        return IOM_Q_COMPLETED;
    }
    if (f->n == f->depth)
        return -EBUSY;
    f->q[f->n++] = io;
    return IOM_Q_QUEUED;
}

static int f_commit(struct iom_engine *e)
{
    (void)e;
    return 0;
}

static int f_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                       struct iom_io **out)
{
    (void)min, (void)timeout_ns;
    struct fake *f = e->priv;
    unsigned n = 0;
    while (f->n && n < max) {
        struct iom_io *io;
        if (S.reverse) {
            io = f->q[--f->n];
        } else {
            io = f->q[0];
            memmove(f->q, f->q + 1, (--f->n) * sizeof(f->q[0]));
        }
        finish(io);
        out[n++] = io;
    }
    return (int)n;
}

static void f_cleanup(struct iom_engine *e)
{
    free(e->priv);
    e->priv = NULL;
}

static const struct iom_engine_ops fake_ops = {
    .name = "scripted", .available = f_available, .init = f_init, .queue = f_queue,
    .commit = f_commit, .getevents = f_getevents, .cleanup = f_cleanup,
};

static void job_for(struct iom_job *j, enum iom_rw rw, uint64_t nr_ios)
{
    iom_job_defaults(j);
    j->rw = rw;
    j->bs_bytes = 4096;
    j->iodepth = 8;
    j->size_bytes = DISK;
    j->io_limit_bytes = nr_ios * 4096;
    j->runtime_ns = 0; /* ends after nr_ios I/Os */
    j->series_interval_ns = 1000000;
    iom_job_add_target(j, "scripted");
}

static int run(struct iom_job *j, struct iom_result **r)
{
    struct iom_target t = {.path = "scripted", .size_bytes = DISK, .region_len = DISK,
                           .logical_block_bytes = 512, .fd = -1};
    S.queued = S.delivered = 0;
    return iom_run_ops(j, &t, 1, NULL, &fake_ops, r);
}

static uint64_t series_ios(const struct iom_result *r)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < r->nr_series; i++)
        n += r->series[i].ios[0] + r->series[i].ios[1];
    return n;
}

static uint64_t total_ios(const struct iom_result *r)
{
    return r->total[0].ios + r->total[1].ios;
}

int main(void)
{
    struct iom_job j;
    struct iom_result *r;

    /* completions in reverse order: all 1000 counted once, in the series too */
    S.reverse = 1;
    job_for(&j, IOM_RW_RANDREAD, 1000);
    CHECK(run(&j, &r) == 0);
    CHECK_U64(S.queued, 1000);
    CHECK_U64(S.delivered, 1000);
    CHECK_U64(total_ios(r), 1000);
    CHECK_U64(r->total[0].bytes, 4096000);
    CHECK_U64(series_ios(r), 1000);
    CHECK(strcmp(r->engine, "scripted") == 0);
    iom_result_free(r);
    iom_job_free(&j);

    /* every 10th completion fails, --continue_on_error: 100 errors, 900 counted, rc -EIO */
    S.reverse = 0;
    S.error_every = 10;
    job_for(&j, IOM_RW_RANDREAD, 1000);
    j.continue_on_error = true;
    CHECK(run(&j, &r) == -EIO);
    CHECK_U64(r->total[0].errors, 100);
    CHECK_U64(total_ios(r), 900);
    CHECK_U64(series_ios(r), 900);
    CHECK(r->targets[0].first_error_errno == EIO);
    iom_result_free(r);
    iom_job_free(&j);

    /* the first error stops the thread without --continue_on_error */
    job_for(&j, IOM_RW_RANDREAD, 1000);
    CHECK(run(&j, &r) == -EIO);
    CHECK_U64(r->total[0].errors, 1);
    CHECK(total_ios(r) >= 9 && total_ios(r) <= 9 + 7); /* and the rest of that batch (iodepth 8) */
    CHECK(strstr(r->error, "read") != NULL);
    iom_result_free(r);
    iom_job_free(&j);
    S.error_every = 0;

    /* partial transfers (every 7th moves half its bytes) are errors: floor(1000/7) = 142 */
    S.partial_every = 7;
    job_for(&j, IOM_RW_RANDWRITE, 1000);
    j.continue_on_error = true;
    CHECK(run(&j, &r) == -EIO);
    CHECK_U64(r->total[1].errors, 142);
    CHECK_U64(total_ios(r), 858);
    iom_result_free(r);
    iom_job_free(&j);
    job_for(&j, IOM_RW_RANDWRITE, 1000);
    CHECK(run(&j, &r) == -EIO);
    CHECK(strstr(r->error, "short transfer") != NULL);
    iom_result_free(r);
    iom_job_free(&j);
    S.partial_every = 0;

    /* an engine that completes in queue(): one in flight, all counted */
    S.sync = 1;
    job_for(&j, IOM_RW_READ, 500);
    CHECK(run(&j, &r) == 0);
    CHECK_U64(total_ios(r), 500);
    CHECK_U64(series_ios(r), 500);
    iom_result_free(r);
    iom_job_free(&j);

    /* the inject layer over the scripted engine: every 5th of 1000 fails */
    job_for(&j, IOM_RW_RANDREAD, 1000);
    j.continue_on_error = true;
    j.inject_errno = ENOSPC;
    j.inject_every = 5;
    CHECK(run(&j, &r) == -EIO);
    CHECK_U64(r->total[0].errors, 200);
    CHECK_U64(total_ios(r), 800);
    CHECK(r->targets[0].first_error_errno == ENOSPC);
    iom_result_free(r);
    iom_job_free(&j);
    S.sync = 0;

    /* the verify layer over it: write the region once, read it back: every
     * read checked, none bad; then one corrupted block is found */
    job_for(&j, IOM_RW_WRITE, DISK / 4096);
    j.verify = true;
    j.seed = 99;
    CHECK(run(&j, &r) == 0);
    iom_result_free(r);
    iom_job_free(&j);
    job_for(&j, IOM_RW_READ, DISK / 4096);
    j.verify = true;
    j.seed = 99;
    CHECK(run(&j, &r) == 0);
    CHECK_U64(r->targets[0].verified_blocks, DISK / 4096);
    CHECK_U64(r->targets[0].verify_errors, 0);
    iom_result_free(r);
    S.disk[5 * 4096 + 100] ^= 0x40;
    j.continue_on_error = true;
    CHECK(run(&j, &r) == -EILSEQ);
    CHECK_U64(r->targets[0].verify_errors, 1);
    CHECK_U64(r->targets[0].first_mismatch.offset, 5 * 4096);
    /* the bad read still counts as a read (fio 3.33 io_u.c io_completed accounts
     * the bytes before the verify end_io runs) */
    CHECK_U64(total_ios(r), DISK / 4096);
    iom_result_free(r);
    iom_job_free(&j);

    /* warm-up then measured: completions before the switch are not counted,
     * each measured one is counted once (series = total) */
    job_for(&j, IOM_RW_RANDREAD, 0);
    j.io_limit_bytes = 0;
    j.ramp_ns = 100000000;
    j.runtime_ns = 200000000;
    j.series_interval_ns = 50000000;
    CHECK(run(&j, &r) == 0);
    CHECK(total_ios(r) > 0);
    CHECK(total_ios(r) < S.delivered);
    CHECK_U64(series_ios(r), total_ios(r));
    CHECK(r->warmup_ns >= 100000000 && r->measured_ns >= 200000000);
    /* the points tile the measured phase whatever the control thread's
     * scheduling: at most one point per 50 ms tick (a late tick merges two),
     * ends strictly increasing, lengths adding up to the phase, the last
     * point ending it */
    CHECK(r->nr_series >= 1 && r->nr_series <= 5);
    double sum_s = 0, prev_end_s = 0;
    for (uint32_t k = 0; k < r->nr_series; k++) {
        sum_s += r->series[k].dur_s;
        CHECK(r->series[k].t_end_s > prev_end_s);
        CHECK(fabs(r->series[k].t_end_s - prev_end_s - r->series[k].dur_s) < 1e-6);
        prev_end_s = r->series[k].t_end_s;
    }
    CHECK(fabs(sum_s - r->measured_ns / 1e9) < 1e-3);
    CHECK(fabs(prev_end_s - r->measured_ns / 1e9) < 1e-3);
    iom_result_free(r);
    iom_job_free(&j);

    /* a paced job stalled at the end of its warm-up: rate_iops=100 (one I/O due
     * every 10 ms), ramp 200 ms, runtime 300 ms, an engine completing in queue();
     * I/O 16 (due at 150 ms) takes 100 ms, so I/Os due at 160..190 ms are owed
     * when the measured phase begins. Pacing starts again there (fio's
     * reset_io_counters at ramp's end): I/Os due at 200, 210, .., 490 ms = 30,
     * plus the stalled one completing inside the window = 31 at most. Carrying
     * the warm-up's debt over would count 4 more. */
    S.sync = 1;
    S.stall_at = 16;
    S.stall_ns = 100000000;
    job_for(&j, IOM_RW_RANDREAD, 0);
    j.io_limit_bytes = 0;
    j.iodepth = 1;
    j.rate_iops = 100;
    j.ramp_ns = 200000000;
    j.runtime_ns = 300000000;
    j.series_interval_ns = 100000000;
    CHECK(run(&j, &r) == 0);
    CHECK(S.queued >= 16); /* the stall happened */
    CHECK(total_ios(r) <= 31);
    CHECK(total_ios(r) >= 20); /* most of the 30 due (a loaded machine may lose a few) */
    CHECK_U64(series_ios(r), total_ios(r));
    iom_result_free(r);
    iom_job_free(&j);
    S.sync = 0;
    S.stall_at = 0;
    return check_status("test_runner_fake");
}
