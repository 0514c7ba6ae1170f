/* mpi.c - launcher detection, target names, agreement, the shared window, gathering. */
#include "mpi/mpi.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/report.h"

#define TAG_UP 7101   /* rank -> rank 0: DONE or STOP */
#define TAG_DOWN 7102 /* rank 0 -> ranks: MEASURE, END or STOP */

static int g_inited, g_rank, g_size = 1;
static char g_host[64] = "?";

bool iom_mpi_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

int iom_mpi_init(void)
{
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return -EIO;
    g_inited = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    char h[256] = "";
    if (gethostname(h, sizeof(h) - 1) == 0) {
        h[strcspn(h, ".")] = 0;
        snprintf(g_host, sizeof(g_host), "%s", h);
    }
    return 0;
}

void iom_mpi_finalize(void)
{
    if (g_inited)
        MPI_Finalize();
    g_inited = 0;
}

int iom_mpi_rank(void) { return g_rank; }
int iom_mpi_size(void) { return g_size; }
const char *iom_mpi_host(void) { return g_host; }

static int expand_one(const char *in, char **out, bool *patterned, char *why, size_t whylen)
{
    size_t cap = strlen(in) + 64, n = 0;
    char *o = malloc(cap);
    if (!o)
        return -ENOMEM;
    for (const char *p = in; *p; p++) {
        char add[80];
        if (*p != '%') {
            add[0] = *p;
            add[1] = 0;
        } else {
            switch (p[1]) {
            case 'r': snprintf(add, sizeof(add), "%d", g_rank); *patterned = true; break;
            case 'h': snprintf(add, sizeof(add), "%s", g_host); *patterned = true; break;
            case 'n': snprintf(add, sizeof(add), "%d", g_size); break;
            case '%': snprintf(add, sizeof(add), "%%"); break;
            default:
                snprintf(why, whylen, "target %s: %%%c is not a pattern; allowed: %%r (rank), "
                         "%%h (host), %%n (ranks), %%%% (a %%)", in, p[1] ? p[1] : ' ');
                free(o);
                return -EINVAL;
            }
            p++;
        }
        size_t k = strlen(add);
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            char *t = realloc(o, cap);
            if (!t) {
                free(o);
                return -ENOMEM;
            }
            o = t;
        }
        memcpy(o + n, add, k);
        n += k;
    }
    o[n] = 0;
    *out = o;
    return 0;
}

int iom_mpi_expand_targets(struct iom_job *job, bool *patterned, char *why, size_t whylen)
{
    *patterned = false;
    for (uint32_t i = 0; i < job->nr_targets; i++) {
        char *o = NULL;
        int rc = expand_one(job->targets[i], &o, patterned, why, whylen);
        if (rc)
            return rc;
        free(job->targets[i]);
        job->targets[i] = o;
    }
    return 0;
}

/* 64-bit FNV-1a (Fowler, Noll, Vo; the offset basis and prime of
 * http://www.isthe.com/chongo/tech/comp/fnv/). */
static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= UINT64_C(1099511628211);
    }
    return h;
}

int iom_mpi_check_same(const struct iom_job *job, const char *extra, char *why, size_t whylen)
{
    uint64_t hv = fnv1a(UINT64_C(14695981039346656037), IOMARK_VERSION);
    uint64_t hw = UINT64_C(14695981039346656037);
    cJSON *spec = iom_json_spec(job);
    char *txt = spec ? cJSON_PrintUnformatted(spec) : NULL;
    cJSON_Delete(spec);
    if (txt) {
        hw = fnv1a(hw, txt);
        free(txt);
    }
    if (extra)
        hw = fnv1a(hw, extra);
    uint64_t root[2] = {hv, hw};
    MPI_Bcast(root, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int mine = hv != root[0] ? 1 : hw != root[1] ? 2 : 0;
    int bad[2] = {mine ? g_rank : INT_MAX, 0}, first = INT_MAX;
    MPI_Allreduce(&bad[0], &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT_MAX)
        return 0;
    /* the differing rank tells what differs */
    char msg[300] = "";
    if (g_rank == first)
        snprintf(msg, sizeof(msg), "rank %d on %s %s rank 0's (iomark %s here)", g_rank, g_host,
                 mine == 1 ? "runs another iomark version than" : "was given another workload than",
                 IOMARK_VERSION);
    MPI_Bcast(msg, sizeof(msg), MPI_CHAR, first, MPI_COMM_WORLD);
    snprintf(why, whylen, "%s; every rank must run the same iomark with the same options", msg);
    return -EPROTO;
}

int iom_mpi_agree(int local_rc, const char *local_why, int *bad_rank, char *bad_host, char *why,
                  size_t whylen)
{
    int me = local_rc ? g_rank : INT_MAX, first = INT_MAX;
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT_MAX)
        return 0;
    struct {
        int rc;
        char host[64];
        char why[400];
    } m;
    memset(&m, 0, sizeof(m));
    if (g_rank == first) {
        m.rc = local_rc;
        snprintf(m.host, sizeof(m.host), "%s", g_host);
        snprintf(m.why, sizeof(m.why), "%s", local_why && *local_why ? local_why : "failed");
    }
    MPI_Bcast(&m, (int)sizeof(m), MPI_BYTE, first, MPI_COMM_WORLD);
    *bad_rank = first;
    if (bad_host)
        snprintf(bad_host, 64, "%s", m.host);
    snprintf(why, whylen, "%s", m.why);
    return m.rc ? m.rc : -EIO;
}

/* ---- the shared window ------------------------------------------------ */

static struct {
    int sent;          /* rank 0: highest event sent; others: highest received */
    int sig;           /* signal of a STOP */
    int done_sent, stop_sent, self_done, nr_done;
    int64_t offset;    /* rank 0's CLOCK_MONOTONIC minus this rank's, ns */
    int64_t win_start, win_end; /* CLOCK_REALTIME ns */
} S;

#define LEAD_NS 100000000u /* boundaries are announced 100 ms ahead */

static int64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Instant `at` of this rank's monotonic clock on CLOCK_REALTIME. */
static int64_t to_realtime(uint64_t at)
{
    uint64_t now = iom_now_ns();
    return realtime_ns() + ((int64_t)at - (int64_t)now);
}

/* Offset of rank 0's monotonic clock from each rank's: 8 ping-pongs, the one
 * with the shortest round trip, rank 0's time taken as read at its middle
 * (Cristian's algorithm, Distributed Computing 3(3), 1989). Collective. */
static void clock_offsets(void)
{
    enum { N = 8 };
    S.offset = 0;
    if (g_rank == 0) {
        for (int i = 1; i < g_size; i++)
            for (int k = 0; k < N; k++) {
                int64_t t;
                MPI_Recv(&t, 1, MPI_INT64_T, i, TAG_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t = (int64_t)iom_now_ns();
                MPI_Send(&t, 1, MPI_INT64_T, i, TAG_DOWN, MPI_COMM_WORLD);
            }
        return;
    }
    int64_t best_rtt = INT64_MAX;
    for (int k = 0; k < N; k++) {
        int64_t t1 = (int64_t)iom_now_ns(), t0;
        MPI_Send(&t1, 1, MPI_INT64_T, 0, TAG_UP, MPI_COMM_WORLD);
        MPI_Recv(&t0, 1, MPI_INT64_T, 0, TAG_DOWN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int64_t t2 = (int64_t)iom_now_ns();
        if (t2 - t1 < best_rtt) {
            best_rtt = t2 - t1;
            S.offset = t0 - (t1 + (t2 - t1) / 2);
        }
    }
}

static int sync_ready(void *arg, int local_rc, char *why, size_t whylen, uint64_t *start_at)
{
    (void)arg;
    int bad = 0;
    char host[64], reason[400];
    char mine[300];
    snprintf(mine, sizeof(mine), "setting up the I/O threads failed (%s)", strerror(-local_rc));
    int rc = iom_mpi_agree(local_rc, mine, &bad, host, reason, sizeof(reason));
    if (rc) {
        snprintf(why, whylen, "rank %d on %s: %s", bad, host, reason);
        return rc;
    }
    clock_offsets();
    /* rank 0 names the start, LEAD_NS ahead on its clock; each rank converts */
    int64_t start0 = (int64_t)iom_now_ns() + LEAD_NS;
    MPI_Bcast(&start0, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    *start_at = (uint64_t)(start0 - S.offset);
    S.win_start = to_realtime(*start_at); /* without warm-up the window starts here */
    return 0;
}

static void record(int ev, uint64_t at)
{
    if (ev == IOM_RSYNC_MEASURE)
        S.win_start = to_realtime(at);
    else if (ev == IOM_RSYNC_END)
        S.win_end = to_realtime(at);
    else if (ev == IOM_RSYNC_STOP && !S.win_end)
        S.win_end = realtime_ns();
}

static int sync_poll(void *arg, int wish, int *sig, uint64_t *at)
{
    (void)arg;
    int flag = 0;
    MPI_Status st;
    if (g_rank == 0) {
        while (MPI_Iprobe(MPI_ANY_SOURCE, TAG_UP, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS &&
               flag) {
            int64_t m[3];
            MPI_Recv(m, 3, MPI_INT64_T, st.MPI_SOURCE, TAG_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (m[0] == IOM_RSYNC_DONE)
                S.nr_done++;
            else if (m[0] == IOM_RSYNC_STOP && !S.sig)
                S.sig = m[1] ? (int)m[1] : 15;
        }
        if (wish == IOM_RSYNC_DONE && !S.self_done) {
            S.self_done = 1;
            S.nr_done++;
        }
        int ev = IOM_RSYNC_NONE;
        if (wish == IOM_RSYNC_STOP && !S.sig)
            S.sig = *sig ? *sig : 15;
        if (S.sig) {
            ev = IOM_RSYNC_STOP;
        } else if (S.nr_done >= g_size) {
            ev = IOM_RSYNC_END;
            *at = iom_now_ns();
        } else if (wish == IOM_RSYNC_MEASURE || wish == IOM_RSYNC_END) {
            ev = wish;
        }
        if (ev > S.sent) {
            int64_t m[3] = {ev, S.sig, (int64_t)*at};
            for (int i = 1; i < g_size; i++)
                MPI_Send(m, 3, MPI_INT64_T, i, TAG_DOWN, MPI_COMM_WORLD);
            S.sent = ev;
            record(ev, *at);
            *sig = S.sig;
            return ev;
        }
        return IOM_RSYNC_NONE;
    }
    if (wish == IOM_RSYNC_STOP && !S.stop_sent) {
        int64_t m[3] = {IOM_RSYNC_STOP, *sig, 0};
        MPI_Send(m, 3, MPI_INT64_T, 0, TAG_UP, MPI_COMM_WORLD);
        S.stop_sent = 1;
    } else if (wish == IOM_RSYNC_DONE && !S.done_sent) {
        int64_t m[3] = {IOM_RSYNC_DONE, 0, 0};
        MPI_Send(m, 3, MPI_INT64_T, 0, TAG_UP, MPI_COMM_WORLD);
        S.done_sent = 1;
    }
    int ev = IOM_RSYNC_NONE;
    while (MPI_Iprobe(0, TAG_DOWN, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag) {
        int64_t m[3];
        MPI_Recv(m, 3, MPI_INT64_T, 0, TAG_DOWN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (m[0] > S.sent) {
            S.sent = (int)m[0];
            S.sig = (int)m[1];
            ev = (int)m[0];
            *at = (uint64_t)(m[2] - S.offset);
            record(ev, *at);
        }
    }
    *sig = S.sig;
    return ev;
}

void iom_mpi_sync(struct iom_run_sync *s)
{
    memset(&S, 0, sizeof(S));
    memset(s, 0, sizeof(*s));
    s->ready = sync_ready;
    s->poll = sync_poll;
    s->max_sleep_ns = 5000000u;
    s->lead_ns = LEAD_NS;
}

/* Receive what is left of the control messages (sent but no longer
 * needed once the run is over), so none is pending at MPI_Finalize. */
static void drain(void)
{
    int flag = 0;
    MPI_Status st;
    while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS &&
           flag && (st.MPI_TAG == TAG_UP || st.MPI_TAG == TAG_DOWN)) {
        int64_t m[3];
        MPI_Recv(m, 3, MPI_INT64_T, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* ---- gathering ----------------------------------------------------------- */

int iom_mpi_gather(const struct iom_result *r, int run_rc, bool patterned,
                   struct iom_result **merged, struct iom_mpi_info **info, int *job_rc,
                   int *job_sig)
{
    *merged = NULL;
    *info = NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    drain();
    struct iom_mpi_rank *me = calloc(1, sizeof(*me));
    if (!me)
        return -ENOMEM; /* the others would wait: MPI_Abort below is the only way out */
    me->rank = g_rank;
    snprintf(me->host, sizeof(me->host), "%s", g_host);
    me->rc = run_rc;
    iom_io_stats_init(&me->total[0]);
    iom_io_stats_init(&me->total[1]);
    if (r) {
        size_t n = 0;
        for (uint32_t i = 0; i < r->nr_targets && n + 2 < sizeof(me->targets); i++)
            n += (size_t)snprintf(me->targets + n, sizeof(me->targets) - n, "%s%s", i ? "," : "",
                                  r->targets[i].path ? r->targets[i].path : "?");
        if (r->nr_targets) {
            me->size_bytes = r->targets[0].size_bytes;
            me->region_len = r->targets[0].region_len;
            me->logical_block_bytes = r->targets[0].logical_block_bytes;
            me->is_blockdev = r->targets[0].is_blockdev;
        }
        me->interrupted_signal = r->interrupted_signal;
        snprintf(me->error, sizeof(me->error), "%s", r->error);
        me->warmup_ns = r->warmup_ns;
        me->measured_ns = r->measured_ns;
        me->win_start_ns = S.win_start;
        me->win_end_ns = S.win_end ? S.win_end : S.win_start + (int64_t)r->measured_ns;
        me->total[0] = r->total[0];
        me->total[1] = r->total[1];
        me->cpu = r->cpu;
    } else if (run_rc) {
        snprintf(me->error, sizeof(me->error), "failed before measuring (%s)", strerror(-run_rc));
    }
    int rc = 0;
    MPI_Allreduce(&run_rc, job_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* -errno: MIN = any */
    int my_sig = r ? r->interrupted_signal : 0;
    MPI_Allreduce(&my_sig, job_sig, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    struct iom_mpi_rank *all = NULL;
    if (g_rank == 0) {
        all = calloc((size_t)g_size, sizeof(*all));
        if (!all)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(me, (int)sizeof(*me), MPI_BYTE, all, (int)sizeof(*me), MPI_BYTE, 0,
               MPI_COMM_WORLD);
    free(me);
    /* the per-interval series: every rank's points, concatenated at rank 0 */
    int my_pts = r ? (int)r->nr_series : 0, *nr_pts = NULL, *displ = NULL;
    struct iom_series_point *pts = NULL;
    if (g_rank == 0) {
        nr_pts = calloc((size_t)g_size, sizeof(int));
        displ = calloc((size_t)g_size, sizeof(int));
        if (!nr_pts || !displ)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gather(&my_pts, 1, MPI_INT, nr_pts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int sum_pts = 0, max_pts = 0;
    if (g_rank == 0) {
        for (int i = 0; i < g_size; i++) {
            displ[i] = sum_pts * (int)sizeof(*pts);
            sum_pts += nr_pts[i];
            max_pts = nr_pts[i] > max_pts ? nr_pts[i] : max_pts;
            nr_pts[i] *= (int)sizeof(*pts);
        }
        pts = calloc((size_t)(sum_pts ? sum_pts : 1), sizeof(*pts));
        if (!pts)
            MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Gatherv(r ? r->series : NULL, my_pts * (int)sizeof(*pts), MPI_BYTE, pts, nr_pts, displ,
                MPI_BYTE, 0, MPI_COMM_WORLD);
    if (g_rank != 0)
        return 0;

    struct iom_mpi_info *in = calloc(1, sizeof(*in));
    struct iom_result *m = calloc(1, sizeof(*m));
    if (!in || !m || !r || iom_job_copy(&m->job, &r->job)) {
        free(in);
        free(m);
        free(all);
        free(pts);
        free(nr_pts);
        free(displ);
        return -ENOMEM;
    }
    in->nr_ranks = g_size;
    in->patterned = patterned;
    in->ranks = all;
    snprintf(m->engine, sizeof(m->engine), "%s", r->engine);
    snprintf(m->engine_note, sizeof(m->engine_note), "%s", r->engine_note);
    snprintf(m->kernel, sizeof(m->kernel), "%s", r->kernel);
    snprintf(m->hostname, sizeof(m->hostname), "%s", r->hostname);
    m->start_time = r->start_time;
    m->warmup_ns = r->warmup_ns;
    m->cooldown_ns = r->cooldown_ns;
    m->nr_targets = (uint32_t)g_size;
    m->targets = calloc((size_t)g_size, sizeof(*m->targets));
    m->nr_threads = (uint32_t)g_size; /* one "thread" per rank: its totals */
    m->threads = calloc((size_t)g_size, sizeof(*m->threads));
    if (!m->targets || !m->threads) {
        free(pts);
        free(nr_pts);
        free(displ);
        iom_result_free(m);
        iom_mpi_info_free(in);
        return -ENOMEM;
    }
    iom_io_stats_init(&m->total[0]);
    iom_io_stats_init(&m->total[1]);
    int64_t s_min = INT64_MAX, s_max = INT64_MIN, e_min = INT64_MAX, e_max = INT64_MIN;
    in->fastest_ns = UINT64_MAX;
    int nr_hosts = 0;
    for (int i = 0; i < g_size; i++) {
        struct iom_mpi_rank *k = &all[i];
        struct iom_target_result *t = &m->targets[i];
        char path[400];
        snprintf(path, sizeof(path), "rank %d host %s: %s", k->rank, k->host, k->targets);
        t->path = strdup(path);
        t->size_bytes = k->size_bytes;
        t->region_len = k->region_len;
        t->logical_block_bytes = k->logical_block_bytes;
        t->is_blockdev = k->is_blockdev;
        m->threads[i].target_idx = (uint32_t)i;
        m->threads[i].thread_idx = 0;
        for (int d = 0; d < 2; d++) {
            t->dir[d] = k->total[d];
            m->threads[i].dir[d] = k->total[d];
            iom_io_stats_merge(&m->total[d], &k->total[d]);
        }
        if (k->measured_ns > in->slowest_ns)
            in->slowest_ns = k->measured_ns;
        if (k->measured_ns < in->fastest_ns)
            in->fastest_ns = k->measured_ns;
        if (k->win_start_ns) {
            s_min = k->win_start_ns < s_min ? k->win_start_ns : s_min;
            s_max = k->win_start_ns > s_max ? k->win_start_ns : s_max;
            e_min = k->win_end_ns < e_min ? k->win_end_ns : e_min;
            e_max = k->win_end_ns > e_max ? k->win_end_ns : e_max;
        }
        if (k->interrupted_signal && !m->interrupted_signal)
            m->interrupted_signal = k->interrupted_signal;
        if ((k->rc || k->error[0]) && !m->error[0])
            snprintf(m->error, sizeof(m->error), "rank %d on %s: %s", k->rank, k->host,
                     k->error[0] ? k->error : strerror(-k->rc));
        /* CPU: system-wide figures once per host (its first rank), process seconds of all */
        bool first_on_host = true;
        for (int j = 0; j < i; j++)
            if (strcmp(all[j].host, k->host) == 0)
                first_on_host = false;
        m->cpu.process_user_s += k->cpu.process_user_s;
        m->cpu.process_system_s += k->cpu.process_system_s;
        if (first_on_host) {
            nr_hosts++;
            m->cpu.nr_cpus += k->cpu.nr_cpus;
            m->cpu.user_pct += k->cpu.user_pct;
            m->cpu.system_pct += k->cpu.system_pct;
            m->cpu.iowait_pct += k->cpu.iowait_pct;
            m->cpu.steal_pct += k->cpu.steal_pct;
            m->cpu.idle_pct += k->cpu.idle_pct;
            m->cpu.busy_pct += k->cpu.busy_pct;
        }
    }
    if (nr_hosts) {
        m->cpu.user_pct /= nr_hosts;
        m->cpu.system_pct /= nr_hosts;
        m->cpu.iowait_pct /= nr_hosts;
        m->cpu.steal_pct /= nr_hosts;
        m->cpu.idle_pct /= nr_hosts;
        m->cpu.busy_pct /= nr_hosts;
    }
    if (in->fastest_ns == UINT64_MAX)
        in->fastest_ns = 0;
    m->measured_ns = in->slowest_ns;
    if (s_min != INT64_MAX) {
        in->start_spread_ms = (double)(s_max - s_min) / 1e6;
        in->end_spread_ms = (double)(e_max - e_min) / 1e6;
    }
    /* Point i of every rank covers the same interval (the ranks share the
     * window and the interval length): counts are summed, the mean latency
     * weighted by I/Os; the p99 is the highest rank's (an upper bound: the
     * series keeps no histograms to merge); the total's percentiles above
     * are the exact merged ones. */
    m->series = calloc((size_t)(max_pts ? max_pts : 1), sizeof(*m->series));
    if (m->series) {
        m->nr_series = m->series_cap = (uint32_t)max_pts;
        int off = 0;
        for (int i = 0; i < g_size; i++) {
            int n = nr_pts[i] / (int)sizeof(*pts);
            for (int j = 0; j < n; j++) {
                const struct iom_series_point *p = &pts[off + j];
                struct iom_series_point *q = &m->series[j];
                uint64_t qn = q->ios[0] + q->ios[1], pn = p->ios[0] + p->ios[1];
                if (qn + pn)
                    q->lat_mean_us = (q->lat_mean_us * (double)qn + p->lat_mean_us * (double)pn) /
                                     (double)(qn + pn);
                for (int d = 0; d < 2; d++) {
                    q->ios[d] += p->ios[d];
                    q->bytes[d] += p->bytes[d];
                }
                if (p->lat_p99_us > q->lat_p99_us)
                    q->lat_p99_us = p->lat_p99_us;
                if (i == 0 || p->t_end_s > q->t_end_s) {
                    q->t_end_s = p->t_end_s;
                    q->dur_s = p->dur_s;
                }
            }
            off += n;
        }
    }
    free(pts);
    free(nr_pts);
    free(displ);
    *merged = m;
    *info = in;
    return rc;
}

void iom_mpi_info_free(struct iom_mpi_info *info)
{
    if (!info)
        return;
    free(info->ranks);
    free(info);
}
