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

#include "core/runner.h"
#include "tpcc/tpcc.h"

enum { PH_WAIT = -1, PH_RAMP = 0, PH_MEASURE = 1, PH_STOP = 2 };

struct vu_thread {
    pthread_t tid;
    struct tpcc_vu vu;
    struct tpcc_deck deck;     /* this VU's transaction deck (clause 5.2.4.2) */
    struct tpcc_txn_stats st[TPCC_NR_TXN];
    uint64_t calls_all;        /* every call, any phase (live line) */
    uint64_t new_orders_all;   /* committed New-Orders, any phase */
    int rc;
    int exited;                /* vu_main returned (joining will not wait) */
    char err[600];
    const struct tpcc_db_cfg *dbc;
    const struct tpcc_run_cfg *cfg;
    volatile int *phase;
    uint64_t *meas_at, *end_at; /* the measured interval: a call finishing inside counts */
    int ready;                 /* connected, or failed to */
    FILE *lat;                 /* check mode: this VU's latency log */
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

/* Whether the measured interval is over: its agreed end, or its start plus
 * --runtime (known as soon as the start is: a VU starts no transaction
 * after the end even when its control thread learns of it late). */
static bool past_end(const struct vu_thread *t)
{
    uint64_t m = __atomic_load_n(t->meas_at, __ATOMIC_ACQUIRE);
    uint64_t e = __atomic_load_n(t->end_at, __ATOMIC_ACQUIRE), now = mono_ns();
    return now >= e || (m != UINT64_MAX && now >= m && now - m >= t->cfg->runtime_ns);
}

static bool stopping(const struct vu_thread *t)
{
    return __atomic_load_n(t->phase, __ATOMIC_RELAXED) == PH_STOP ||
           __atomic_load_n(t->abort_run, __ATOMIC_RELAXED) || (t->vu.stop && *t->vu.stop) ||
           past_end(t);
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

static void *vu_body(struct vu_thread *t)
{
    char err[512];
    t->rc = tpcc_db_connect(t->dbc, &t->vu.c, err, sizeof(err));
    if (t->rc) {
        snprintf(t->err, sizeof(t->err), "virtual user %u: %s", t->cfg->vu_first + t->idx + 1, err);
        __atomic_store_n(t->abort_run, 1, __ATOMIC_RELAXED);
        __atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
        return NULL;
    }
    t->vu.c->cancel = t->cancel;
    tpcc_deck_init(&t->deck, t->cfg->mix);
    __atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(t->phase, __ATOMIC_ACQUIRE) == PH_WAIT && !stopping(t))
        usleep(1000); /* with sync: no transaction before the agreed start */
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
        uint64_t t1 = mono_ns(), lat = t1 - t0;
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
        if (t1 >= __atomic_load_n(t->meas_at, __ATOMIC_ACQUIRE) &&
            t1 < __atomic_load_n(t->end_at, __ATOMIC_ACQUIRE)) {
            struct tpcc_txn_stats *s = &t->st[type];
            if (t->lat)
                fprintf(t->lat, "%d %llu\n", (int)type, (unsigned long long)lat);
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

static void *vu_main(void *arg)
{
    struct vu_thread *t = arg;
    vu_body(t);
    __atomic_store_n(&t->exited, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* sum(d_next_o_id) over all districts; span[0], span[1]: when the query was
 * sent and when its answer came (the database read the sum in between) */
static int sample_d_next(struct tpcc_conn *c, uint64_t *v, uint64_t span[2])
{
    int64_t s = 0;
    span[0] = mono_ns();
    int rc = tpcc_db_scalar_int(c, TPCC_MAX_STMTS - 6, "SELECT sum(d_next_o_id) FROM district",
                                NULL, 0, &s);
    span[1] = mono_ns();
    *v = (uint64_t)s;
    return rc;
}

/* The instants between which a commit may count in NOPM and not in the
 * driver's calls, or the reverse: from the boundary to the far end of the
 * sample's [sent, answered] span (ns). */
static uint64_t sampling_gap(uint64_t boundary, const uint64_t span[2])
{
    uint64_t lo = span[0] < boundary ? span[0] : boundary;
    uint64_t hi = span[1] > boundary ? span[1] : boundary;
    return hi - lo;
}

static void sleep_until(uint64_t mono)
{
    struct timespec ts = {(time_t)(mono / 1000000000u), (long)(mono % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

/* The control thread's state of one run. */
struct ctl {
    const struct tpcc_run_cfg *cfg;
    const struct tpcc_run_hooks *hooks;
    struct tpcc_conn *mc;           /* samples the database's counters; NULL: none */
    struct tpcc_run_result *out;
    struct vu_thread *th;
    unsigned started;
    volatile int phase, abort_run, cancel;
    uint64_t meas_at, end_at;       /* the measured interval (UINT64_MAX: not yet known) */
    uint64_t t_start, last_calls, last_no, last_tick;
    bool sampled, have_xact;
    uint64_t xact0;
    uint64_t span0[2], span1[2];    /* the samples of sum(d_next_o_id): sent, answered */
    int cpu_rc;
    struct iom_cpu_sample cpu0;
};

/* The measured interval starts: the database's counters. */
static int start_measuring(struct ctl *c)
{
    c->sampled = true;
    c->cpu_rc = iom_cpu_sample_take(&c->cpu0, NULL);
    if (!c->mc)
        return 0;
    int rc = sample_d_next(c->mc, &c->out->d_next_o_id_start, c->span0);
    if (rc) {
        snprintf(c->out->error, sizeof(c->out->error), "sampling sum(d_next_o_id): %s",
                 c->mc->err);
        return rc;
    }
    c->have_xact = c->mc->ops->xact_count(c->mc, &c->xact0) == 0;
    return 0;
}

/* The measured interval ended (phase flag already set): the counters again. */
static int finish_measuring(struct ctl *c)
{
    struct tpcc_run_result *out = c->out;
    struct iom_cpu_sample cpu1;
    if (c->cpu_rc == 0 && iom_cpu_sample_take(&cpu1, NULL) == 0) {
        iom_cpu_usage_between(&c->cpu0, &cpu1, &out->cpu);
        out->have_cpu = true;
    }
    if (!c->mc || !c->sampled)
        return 0;
    int rc = sample_d_next(c->mc, &out->d_next_o_id_end, c->span1);
    if (rc)
        snprintf(out->error, sizeof(out->error), "sampling sum(d_next_o_id): %s", c->mc->err);
    uint64_t xact1;
    if (c->have_xact && c->mc->ops->xact_count(c->mc, &xact1) == 0) {
        out->have_tpm_db = true;
        out->tpm_db = out->measured_ns
                          ? (double)(xact1 - c->xact0) / ((double)out->measured_ns / 6e10)
                          : 0;
    }
    return rc;
}

/* An event the coordinator sent while the control thread waited for a
 * database sample (IOM_RSYNC_NONE: none), handled as if polled next. */
struct held_event {
    int ev, sig;
    uint64_t at;
};

/* With sync: poll the coordinator every 5 ms until *done is set (its
 * signs of life go on meanwhile); the highest event the polls return goes
 * to *held (NULL: dropped, as after the run). */
static void poll_until(const struct ctl *c, const int *done, struct held_event *held)
{
    const struct iom_run_sync *s = c->hooks->sync;
    while (s && !__atomic_load_n(done, __ATOMIC_ACQUIRE)) {
        uint64_t at = iom_now_ns();
        int sig = 0;
        int ev = s->poll(s->arg, IOM_RSYNC_NONE, &sig, &at);
        if (held && ev > held->ev)
            *held = (struct held_event){.ev = ev, .sig = sig, .at = at};
        usleep(5000);
    }
}

struct side_call {
    struct ctl *c;
    int (*fn)(struct ctl *);
    int rc, done;
};

static void *side_main(void *arg)
{
    struct side_call *k = arg;
    k->rc = k->fn(k->c);
    __atomic_store_n(&k->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* fn(c), a database sample, with sync on a thread of its own while this
 * (the control) thread keeps polling the coordinator: the polls carry this
 * process's signs of life, and a server kept busy can take longer to answer
 * than the coordinator waits for a silent process (IOMARK_MPI_TIMEOUT).
 * The highest event the polls return goes to *held (NULL: dropped, as
 * after the run). Returns fn's result. */
static int sample_polling(struct ctl *c, int (*fn)(struct ctl *), struct held_event *held)
{
    const struct iom_run_sync *s = c->hooks->sync;
    struct side_call k = {.c = c, .fn = fn};
    pthread_t tid;
    if (!s || pthread_create(&tid, NULL, side_main, &k) != 0)
        return fn(c);
    poll_until(c, &k.done, held);
    pthread_join(tid, NULL);
    return k.rc;
}

static void progress_tick(struct ctl *c, uint64_t now)
{
    if (!c->hooks->progress || now - c->last_tick < 1000000000)
        return;
    uint64_t calls = 0, nos = 0;
    for (unsigned i = 0; i < c->started; i++) {
        calls += __atomic_load_n(&c->th[i].calls_all, __ATOMIC_RELAXED);
        nos += __atomic_load_n(&c->th[i].new_orders_all, __ATOMIC_RELAXED);
    }
    const struct tpcc_run_cfg *cfg = c->cfg;
    bool meas = now >= c->meas_at;
    double secs = (double)(now - c->last_tick) / 1e9;
    double left = meas ? (double)(c->meas_at + cfg->runtime_ns) - (double)now
                       : (double)(c->t_start + cfg->ramp_ns + cfg->runtime_ns) - (double)now;
    struct tpcc_run_progress p = {
        .phase = meas ? PH_MEASURE : PH_RAMP,
        .elapsed_s = (double)(now - c->t_start) / 1e9,
        .remaining_s = left / 1e9,
        .tpm = (double)(calls - c->last_calls) / secs * 60.0,
        .nopm = (double)(nos - c->last_no) / secs * 60.0,
    };
    c->hooks->progress(&p, c->hooks->arg);
    c->last_calls = calls;
    c->last_no = nos;
    c->last_tick = now;
}

/* Without sync: this process's clock alone decides. */
static int local_loop(struct ctl *c)
{
    int rc = 0;
    c->t_start = c->last_tick = mono_ns();
    for (;;) {
        usleep(50000);
        uint64_t now = mono_ns();
        if (__atomic_load_n(&c->abort_run, __ATOMIC_RELAXED))
            break;
        if (c->hooks->stop && *c->hooks->stop) {
            c->out->interrupted_signal = *c->hooks->stop;
            break;
        }
        if (!c->sampled && now - c->t_start >= c->cfg->ramp_ns) {
            /* the measured interval starts: counters first, then the boundary */
            if ((rc = start_measuring(c)))
                break;
            now = mono_ns();
            __atomic_store_n(&c->meas_at, now, __ATOMIC_RELEASE);
            __atomic_store_n(&c->phase, PH_MEASURE, __ATOMIC_RELEASE);
        }
        if (c->sampled && now - c->meas_at >= c->cfg->runtime_ns)
            break;
        progress_tick(c, now);
    }
    return rc;
}

/* With sync: every VU connected, then the coordinator's instants. */
static int sync_loop(struct ctl *c)
{
    const struct iom_run_sync *s = c->hooks->sync;
    const struct tpcc_run_cfg *cfg = c->cfg;
    int local = 0;
    for (unsigned i = 0; i < c->started; i++) {
        while (!__atomic_load_n(&c->th[i].ready, __ATOMIC_ACQUIRE))
            usleep(5000);
        if (c->th[i].rc && !local) {
            local = c->th[i].rc;
            snprintf(c->out->error, sizeof(c->out->error), "%s", c->th[i].err);
        }
    }
    /* no ramp-up: the counters before any VU of any process may start */
    if (!local && cfg->ramp_ns == 0)
        local = start_measuring(c);
    char why[600];
    snprintf(why, sizeof(why), "%s", local ? c->out->error : ""); /* this process's reason */
    uint64_t start_at = 0;
    int rc = s->ready(s->arg, local, why, sizeof(why), &start_at);
    if (rc) {
        if (!local)
            snprintf(c->out->error, sizeof(c->out->error), "%s", why);
        return rc;
    }
    if (start_at > iom_now_ns())
        sleep_until(start_at);
    c->t_start = c->last_tick = start_at ? start_at : iom_now_ns();
    __atomic_store_n(&c->phase, PH_RAMP, __ATOMIC_RELEASE);
    int err = 0;
    struct held_event held = {IOM_RSYNC_NONE, 0, 0};
    for (;;) {
        uint64_t now = iom_now_ns(), at = now;
        int wish = IOM_RSYNC_NONE, sig = 0;
        if (c->hooks->stop && *c->hooks->stop) {
            wish = IOM_RSYNC_STOP;
            sig = *c->hooks->stop;
        } else if (__atomic_load_n(&c->abort_run, __ATOMIC_RELAXED)) {
            wish = IOM_RSYNC_STOP;
        } else if (c->meas_at == UINT64_MAX && now + s->lead_ns >= c->t_start + cfg->ramp_ns) {
            wish = IOM_RSYNC_MEASURE;
            at = c->t_start + cfg->ramp_ns;
        } else if (c->meas_at != UINT64_MAX && c->end_at == UINT64_MAX &&
                   now + s->lead_ns >= c->meas_at + cfg->runtime_ns) {
            wish = IOM_RSYNC_END;
            at = c->meas_at + cfg->runtime_ns;
        }
        int ev;
        if (held.ev != IOM_RSYNC_NONE) { /* came during a sample */
            ev = held.ev;
            sig = held.sig;
            at = held.at;
            held.ev = IOM_RSYNC_NONE;
        } else {
            ev = s->poll(s->arg, wish, &sig, &at);
        }
        if ((ev == IOM_RSYNC_MEASURE || ev == IOM_RSYNC_END) && c->meas_at == UINT64_MAX)
            __atomic_store_n(&c->meas_at, at, __ATOMIC_RELEASE);
        if (ev == IOM_RSYNC_END && c->end_at == UINT64_MAX)
            __atomic_store_n(&c->end_at, at, __ATOMIC_RELEASE);
        if (ev == IOM_RSYNC_STOP) {
            /* sig 0: rank 0 stopped the run for a lost process */
            if (!__atomic_load_n(&c->abort_run, __ATOMIC_RELAXED))
                c->out->interrupted_signal = sig;
            break;
        }
        now = iom_now_ns();
        if (!c->sampled && now >= c->meas_at && (err = sample_polling(c, start_measuring, &held)))
            __atomic_store_n(&c->abort_run, 1, __ATOMIC_RELAXED); /* stops every process */
        if (now >= c->end_at)
            break;
        progress_tick(c, now);
        uint64_t wake = now + (s->max_sleep_ns ? s->max_sleep_ns : 5000000u);
        if (!c->sampled && c->meas_at < wake)
            wake = c->meas_at;
        if (c->end_at < wake)
            wake = c->end_at;
        sleep_until(wake);
    }
    return err;
}

/* Wait for a VU to leave; with sync, keep the coordinator's control
 * messages flowing meanwhile (its signs of life). */
static void join_vu(struct ctl *c, struct vu_thread *t)
{
    poll_until(c, &t->exited, NULL);
    pthread_join(t->tid, NULL);
}

static int64_t realtime_of(uint64_t mono)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now = mono_ns();
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + ((int64_t)mono - (int64_t)now);
}

int tpcc_run(const struct tpcc_db_cfg *dbc, struct tpcc_conn *main_conn,
             const struct tpcc_scale *sc, const struct tpcc_run_cfg *cfg,
             const struct tpcc_run_hooks *hooks, struct tpcc_run_result *out)
{
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < TPCC_NR_TXN; i++)
        iom_io_stats_init(&out->txn[i].lat);
    struct ctl c = {.cfg = cfg, .hooks = hooks, .mc = main_conn, .out = out,
                    .meas_at = UINT64_MAX, .end_at = UINT64_MAX, .cpu_rc = -1,
                    .phase = hooks->sync ? PH_WAIT : PH_RAMP};
    c.th = calloc(cfg->vu ? cfg->vu : 1, sizeof(*c.th));
    if (!c.th)
        return -ENOMEM;
    struct tpcc_rng seeder;
    tpcc_rng_seed(&seeder, cfg->seed);
    struct tpcc_nurand_c C;
    tpcc_nurand_c_run(&seeder, &C); /* one set of run-time constants for every VU */
    for (unsigned g = 0; g < cfg->vu_first; g++)
        tpcc_rng_next(&seeder); /* VU g's stream is the same whichever process runs it */
    int rc = 0;
    for (unsigned i = 0; i < cfg->vu; i++) {
        struct vu_thread *t = &c.th[i];
        unsigned g = cfg->vu_first + i;
        for (int k = 0; k < TPCC_NR_TXN; k++)
            iom_io_stats_init(&t->st[k].lat);
        t->idx = i;
        t->dbc = dbc;
        t->cfg = cfg;
        t->phase = &c.phase;
        t->meas_at = &c.meas_at;
        t->end_at = &c.end_at;
        t->abort_run = &c.abort_run;
        t->cancel = &c.cancel;
        t->vu.sc = sc;
        t->vu.C = C;
        t->vu.w_id = g % sc->warehouses + 1;
        t->vu.d_id = (g / sc->warehouses) % 10 + 1;
        t->vu.stop = hooks->stop;
        t->vu.abort_run = &c.abort_run;
        tpcc_rng_seed(&t->vu.rng, tpcc_rng_next(&seeder));
        if (hooks->latency_log) {
            char p[4200];
            snprintf(p, sizeof(p), "%s.v%u", hooks->latency_log, g);
            if (!(t->lat = fopen(p, "w"))) {
                rc = -errno;
                snprintf(out->error, sizeof(out->error), "latency log %s: %s", p, strerror(errno));
            }
        }
        if (rc || pthread_create(&t->tid, NULL, vu_main, t) != 0) {
            if (!rc) {
                rc = -EAGAIN;
                snprintf(out->error, sizeof(out->error), "cannot start virtual user thread %u", i);
            }
            c.abort_run = 1;
            break;
        }
        t->started = true;
        c.started++;
    }

    if (!rc && hooks->sync)
        rc = sync_loop(&c);
    else if (!rc)
        rc = local_loop(&c);
    /* the measured interval ends: boundary and phase flag first, then the counters */
    uint64_t t_end = mono_ns();
    if (c.end_at > t_end)
        __atomic_store_n(&c.end_at, t_end, __ATOMIC_RELEASE);
    __atomic_store_n(&c.phase, PH_STOP, __ATOMIC_RELEASE);
    __atomic_store_n(&c.cancel, 1, __ATOMIC_RELAXED);
    if (c.sampled && c.meas_at != UINT64_MAX) {
        out->measured_ns = c.end_at > c.meas_at ? c.end_at - c.meas_at : 0;
        out->win_start_ns = realtime_of(c.meas_at);
        out->win_end_ns = realtime_of(c.end_at);
        int r2 = sample_polling(&c, finish_measuring, NULL);
        if (r2 && !rc)
            rc = r2;
        if (c.mc) {
            out->nopm_gap_ns[0] = sampling_gap(c.meas_at, c.span0);
            out->nopm_gap_ns[1] = sampling_gap(c.end_at, c.span1);
        }
    }
    for (unsigned i = 0; i < cfg->vu; i++) {
        struct vu_thread *t = &c.th[i];
        if (t->started)
            join_vu(&c, t);
        if (t->lat)
            fclose(t->lat);
        if (!t->started)
            continue;
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
    free(c.th);
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
