/*
 * driver.c - the timed TPC-C run: virtual users, ramp-up, measured
 * interval, NOPM and TPM.
 *
 * Each virtual user is a thread with its own connection, random stream and
 * home warehouse ((i mod W) + 1, as HammerDB assigns them). It draws a
 * transaction type from the mix, optionally sleeps the keying time, runs
 * the transaction, optionally sleeps the think time (clause 5.2.5.7:
 * negative exponential, capped at 10 times the mean), and records the
 * call in its own per-type statistics when the call finished inside the
 * measured interval.
 *
 * NOPM is HammerDB's: the change of sum(d_next_o_id) between the start and
 * the end of the measured interval, per minute; it counts committed
 * New-Orders whatever their origin. TPM is the driver's count of calls
 * (committed and rolled back) per minute; on PostgreSQL the database's own
 * xact_commit + xact_rollback per minute is reported as well (it includes
 * iomark's sampling queries and anything else using the database).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tpcc/tpcc.h"

enum { PH_RAMP = 0, PH_MEASURE = 1, PH_STOP = 2 };

struct vu_thread {
    pthread_t tid;
    struct tpcc_vu vu;
    struct tpcc_deck deck;     /* this VU's transaction deck (clause 5.2.4.2) */
    struct tpcc_txn_stats st[TPCC_NR_TXN];
    uint64_t calls_all;        /* every call, any phase (live line) */
    uint64_t new_orders_all;   /* committed New-Orders, any phase */
    int rc;
    char err[600];
    const struct tpcc_db_cfg *dbc;
    const struct tpcc_run_cfg *cfg;
    volatile int *phase;
    volatile int *abort_run;
    volatile int *cancel;      /* set when the run ends: SQLite lock waits give up */
    bool started;
    unsigned idx;              /* 0-based virtual user number */
};

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void tpcc_run_cfg_defaults(struct tpcc_run_cfg *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->vu = 1;
    cfg->ramp_ns = UINT64_C(120) * 1000000000;
    cfg->runtime_ns = UINT64_C(300) * 1000000000;
    cfg->mix[TPCC_NEW_ORDER] = 10;
    cfg->mix[TPCC_PAYMENT] = 10;
    cfg->mix[TPCC_DELIVERY] = 1;
    cfg->mix[TPCC_ORDER_STATUS] = 1;
    cfg->mix[TPCC_STOCK_LEVEL] = 1;
    cfg->seed = (uint64_t)time(NULL);
}

static bool stopping(const struct vu_thread *t)
{
    return __atomic_load_n(t->phase, __ATOMIC_RELAXED) == PH_STOP ||
           __atomic_load_n(t->abort_run, __ATOMIC_RELAXED) || (t->vu.stop && *t->vu.stop);
}

/* Sleep secs seconds in slices, waking early when the run stops. */
static void nap(const struct vu_thread *t, double secs)
{
    uint64_t end = mono_ns() + (uint64_t)(secs * 1e9);
    while (!stopping(t)) {
        uint64_t now = mono_ns();
        if (now >= end)
            break;
        uint64_t left = end - now;
        usleep((useconds_t)((left > 100000000 ? 100000000 : left) / 1000));
    }
}

/* clause 5.2.5.7 keying times and 5.2.5.4 mean think times, in seconds */
static const double keying_s[TPCC_NR_TXN] = {18, 3, 2, 2, 2};
static const double think_mean_s[TPCC_NR_TXN] = {12, 12, 10, 5, 5};

static void *vu_main(void *arg)
{
    struct vu_thread *t = arg;
    char err[512];
    t->rc = tpcc_db_connect(t->dbc, &t->vu.c, err, sizeof(err));
    if (t->rc) {
        snprintf(t->err, sizeof(t->err), "virtual user %u: %s", t->idx + 1, err);
        __atomic_store_n(t->abort_run, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    t->vu.c->cancel = t->cancel;
    tpcc_deck_init(&t->deck, t->cfg->mix);
    while (!stopping(t)) {
        enum tpcc_txn_type type = tpcc_deck_draw(&t->deck, &t->vu.rng);
        if (t->cfg->keying_think) {
            nap(t, keying_s[type]);
            if (stopping(t))
                break;
        }
        struct tpcc_txn_out out;
        uint64_t t0 = mono_ns();
        int rc = tpcc_txn_run(&t->vu, type, &out);
        uint64_t lat = mono_ns() - t0;
        if (rc == -EINTR)
            break;
        if (rc) {
            t->rc = rc;
            snprintf(t->err, sizeof(t->err), "%s: %s", tpcc_txn_name[type], t->vu.c->err);
            __atomic_store_n(t->abort_run, 1, __ATOMIC_RELAXED);
            break;
        }
        __atomic_store_n(&t->calls_all, t->calls_all + 1, __ATOMIC_RELAXED);
        if (type == TPCC_NEW_ORDER && !out.rolled_back)
            __atomic_store_n(&t->new_orders_all, t->new_orders_all + 1, __ATOMIC_RELAXED);
        if (__atomic_load_n(t->phase, __ATOMIC_ACQUIRE) == PH_MEASURE) {
            struct tpcc_txn_stats *s = &t->st[type];
            iom_io_stats_add(&s->lat, 0, lat);
            s->rollbacks += out.rolled_back;
            s->retries += out.retries;
            s->busy_waits += out.busy_waits;
        }
        if (t->cfg->keying_think) {
            double u = tpcc_rand_unit(&t->vu.rng);
            double think = -log(1.0 - u) * think_mean_s[type];
            if (think > 10 * think_mean_s[type])
                think = 10 * think_mean_s[type];
            nap(t, think);
        }
    }
    return NULL;
}

/* sum(d_next_o_id) over all districts */
static int sample_d_next(struct tpcc_conn *c, uint64_t *v)
{
    int64_t s = 0;
    int rc = tpcc_db_scalar_int(c, TPCC_MAX_STMTS - 6, "SELECT sum(d_next_o_id) FROM district",
                                NULL, 0, &s);
    *v = (uint64_t)s;
    return rc;
}

int tpcc_run(const struct tpcc_db_cfg *dbc, struct tpcc_conn *main_conn,
             const struct tpcc_scale *sc, const struct tpcc_run_cfg *cfg,
             const struct tpcc_run_hooks *hooks, struct tpcc_run_result *out)
{
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < TPCC_NR_TXN; i++)
        iom_io_stats_init(&out->txn[i].lat);
    struct vu_thread *th = calloc(cfg->vu, sizeof(*th));
    if (!th)
        return -ENOMEM;
    volatile int phase = PH_RAMP, abort_run = 0, cancel = 0;
    struct tpcc_rng seeder;
    tpcc_rng_seed(&seeder, cfg->seed);
    struct tpcc_nurand_c C;
    tpcc_nurand_c_run(&seeder, &C); /* one set of run-time constants for every VU */
    int rc = 0;
    unsigned started = 0;
    for (unsigned i = 0; i < cfg->vu; i++) {
        struct vu_thread *t = &th[i];
        for (int k = 0; k < TPCC_NR_TXN; k++)
            iom_io_stats_init(&t->st[k].lat);
        t->idx = i;
        t->dbc = dbc;
        t->cfg = cfg;
        t->phase = &phase;
        t->abort_run = &abort_run;
        t->cancel = &cancel;
        t->vu.sc = sc;
        t->vu.C = C;
        t->vu.w_id = i % sc->warehouses + 1;
        t->vu.d_id = (i / sc->warehouses) % 10 + 1;
        t->vu.stop = hooks->stop;
        t->vu.abort_run = &abort_run;
        tpcc_rng_seed(&t->vu.rng, tpcc_rng_next(&seeder));
        if (pthread_create(&t->tid, NULL, vu_main, t) != 0) {
            rc = -EAGAIN;
            snprintf(out->error, sizeof(out->error), "cannot start virtual user thread %u", i);
            abort_run = 1;
            break;
        }
        t->started = true;
        started++;
    }

    uint64_t t_start = mono_ns(), t_meas = 0, t_end = 0;
    uint64_t xact0 = 0, xact1 = 0;
    struct iom_cpu_sample cpu0, cpu1;
    int cpu_rc = -1;
    bool have_xact = false;
    uint64_t last_calls = 0, last_no = 0, last_tick = t_start;
    int cur = PH_RAMP;
    while (!rc) {
        usleep(50000);
        uint64_t now = mono_ns();
        if (__atomic_load_n(&abort_run, __ATOMIC_RELAXED))
            break;
        if (hooks->stop && *hooks->stop) {
            out->interrupted_signal = *hooks->stop;
            break;
        }
        if (cur == PH_RAMP && now - t_start >= cfg->ramp_ns) {
            /* the measured interval starts: counters first, then the phase flag */
            if ((rc = sample_d_next(main_conn, &out->d_next_o_id_start))) {
                snprintf(out->error, sizeof(out->error), "sampling sum(d_next_o_id): %s",
                         main_conn->err);
                break;
            }
            __atomic_store_n(&phase, PH_MEASURE, __ATOMIC_RELEASE);
            cur = PH_MEASURE;
            t_meas = now = mono_ns();
            have_xact = main_conn->ops->xact_count(main_conn, &xact0) == 0;
            cpu_rc = iom_cpu_sample_take(&cpu0, NULL);
        }
        if (cur == PH_MEASURE && now - t_meas >= cfg->runtime_ns)
            break;
        if (hooks->progress && now - last_tick >= 1000000000) {
            uint64_t calls = 0, nos = 0;
            for (unsigned i = 0; i < started; i++) {
                calls += __atomic_load_n(&th[i].calls_all, __ATOMIC_RELAXED);
                nos += __atomic_load_n(&th[i].new_orders_all, __ATOMIC_RELAXED);
            }
            double secs = (double)(now - last_tick) / 1e9;
            struct tpcc_run_progress p = {
                .phase = cur,
                .elapsed_s = (double)(now - t_start) / 1e9,
                .remaining_s = cur == PH_RAMP
                                   ? (double)(cfg->ramp_ns + cfg->runtime_ns - (now - t_start)) / 1e9
                                   : (double)(cfg->runtime_ns - (now - t_meas)) / 1e9,
                .tpm = (double)(calls - last_calls) / secs * 60.0,
                .nopm = (double)(nos - last_no) / secs * 60.0,
            };
            hooks->progress(&p, hooks->arg);
            last_calls = calls;
            last_no = nos;
            last_tick = now;
        }
    }
    /* the measured interval ends: phase flag first, then the counters */
    int was = cur;
    __atomic_store_n(&phase, PH_STOP, __ATOMIC_RELEASE);
    t_end = mono_ns();
    __atomic_store_n(&cancel, 1, __ATOMIC_RELAXED);
    if (was == PH_MEASURE) {
        out->measured_ns = t_end - t_meas;
        if (cpu_rc == 0 && iom_cpu_sample_take(&cpu1, NULL) == 0) {
            iom_cpu_usage_between(&cpu0, &cpu1, &out->cpu);
            out->have_cpu = true;
        }
        int r2 = sample_d_next(main_conn, &out->d_next_o_id_end);
        if (r2 && !rc) {
            rc = r2;
            snprintf(out->error, sizeof(out->error), "sampling sum(d_next_o_id): %s",
                     main_conn->err);
        }
        if (have_xact && main_conn->ops->xact_count(main_conn, &xact1) == 0) {
            out->have_tpm_db = true;
            out->tpm_db = out->measured_ns
                              ? (double)(xact1 - xact0) / ((double)out->measured_ns / 6e10)
                              : 0;
        }
    }
    for (unsigned i = 0; i < cfg->vu; i++) {
        struct vu_thread *t = &th[i];
        if (!t->started)
            continue;
        pthread_join(t->tid, NULL);
        if (t->rc && !rc) {
            rc = t->rc;
            snprintf(out->error, sizeof(out->error), "%s", t->err);
        }
        for (int k = 0; k < TPCC_NR_TXN; k++) {
            iom_io_stats_merge(&out->txn[k].lat, &t->st[k].lat);
            out->txn[k].rollbacks += t->st[k].rollbacks;
            out->txn[k].retries += t->st[k].retries;
            out->txn[k].busy_waits += t->st[k].busy_waits;
        }
        if (t->vu.c)
            t->vu.c->ops->disconnect(t->vu.c);
    }
    free(th);
    if (out->measured_ns) {
        double min = (double)out->measured_ns / 6e10;
        uint64_t calls = 0;
        for (int k = 0; k < TPCC_NR_TXN; k++)
            calls += out->txn[k].lat.ios;
        out->tpm = (double)calls / min;
        out->nopm = (double)(out->d_next_o_id_end - out->d_next_o_id_start) / min;
    }
    return rc;
}
