/* mpi.c - launcher detection, target names, agreement, the shared window, gathering. */
#include "mpi/mpi.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/report.h"

#define TAG_UP 7101      /* rank -> rank 0: DONE, STOP or BEAT */
#define TAG_DOWN 7102    /* rank 0 -> ranks: MEASURE, END or STOP */
#define TAG_FINAL 7103   /* rank -> rank 0: its struct iom_mpi_rank after the run */
#define TAG_VERDICT 7104 /* rank 0 -> ranks: the lost rank, or -1 */
#define EV_BEAT 100      /* "still here": a rank's progress message */
#define BEAT_NS 100000000u /* a rank tells rank 0 it is alive every 100 ms */

static int g_inited, g_rank, g_size = 1;
static char g_host[64] = "?";
static char (*g_hosts)[64]; /* every rank's host name, by rank */
static int g_lost = -1;     /* a rank found lost: MPI_Finalize is not called */

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
    g_hosts = calloc((size_t)g_size, sizeof(*g_hosts));
    if (g_hosts)
        MPI_Allgather(g_host, sizeof(g_host), MPI_CHAR, g_hosts, sizeof(g_host), MPI_CHAR,
                      MPI_COMM_WORLD);
    return 0;
}

void iom_mpi_finalize(void)
{
    /* with a rank lost, MPI_Finalize would wait for it for ever; the
     * launcher ends the job (docs/mpi.md) */
    if (g_inited && g_lost < 0)
        MPI_Finalize();
    g_inited = 0;
    free(g_hosts);
    g_hosts = NULL;
}

bool iom_mpi_lost(void) { return g_lost >= 0; }
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
            snprintf(add, sizeof(add), "%c", *p);
        } else {
            switch (p[1]) {
            case 'r': snprintf(add, sizeof(add), "%d", g_rank); *patterned = true; break;
            case 'h': snprintf(add, sizeof(add), "%s", g_host); *patterned = true; break;
            case 'n': snprintf(add, sizeof(add), "%d", g_size); break;
            case '%': snprintf(add, sizeof(add), "%%"); break;
            default:
                if (!p[1])
                    snprintf(why, whylen, "target %s: a %% at the end is not a pattern; allowed: "
                             "%%r (rank), %%h (host), %%n (ranks), %%%% (a %%)", in);
                else
                    snprintf(why, whylen, "target %s: %%%c is not a pattern; allowed: %%r "
                             "(rank), %%h (host), %%n (ranks), %%%% (a %%)", in, p[1]);
                free(o);
                return -EINVAL;
            }
            p++;
        }
        size_t k = strlen(add);
        if (n + k + 1 > cap) {
            cap = (n + k + 1) * 2;
            char *t = realloc(o, cap);
            if (!t)
                free(o);
            if (!(o = t))
                return -ENOMEM;
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
    int64_t offset_err; /* the offset's bound, ns: half the best round trip; 0 on a
                         * clock shared with rank 0 */
    int64_t win_start, win_end; /* CLOCK_REALTIME ns */
    uint64_t *heard;   /* rank 0: when each rank's last message came (iom_now_ns) */
    uint64_t silence_ns; /* a rank silent this long is lost */
    int lost;          /* rank 0: the first rank found lost, -1 none */
    uint64_t lost_silent_ns; /* how long it had been silent */
    uint64_t last_listen; /* rank 0: when it last looked for messages */
    uint64_t last_beat; /* other ranks: when the last BEAT went */
    MPI_Request beat_req;
    int64_t beat_msg[3];
} S = {.lost = -1, .beat_req = MPI_REQUEST_NULL};

/* How long a rank may be silent before rank 0 takes it as lost:
 * IOMARK_MPI_TIMEOUT seconds (default 1.5; from 0.2 to 3600). */
static uint64_t silence_ns(void)
{
    const char *e = getenv("IOMARK_MPI_TIMEOUT");
    double v = e && *e ? strtod(e, NULL) : 1.5;
    if (!(v >= 0.2 && v <= 3600))
        v = 1.5;
    return (uint64_t)(v * 1e9);
}

/* Rank 0: a message from rank `from` came now. */
static void heard_from(int from)
{
    if (S.heard && from > 0 && from < g_size)
        S.heard[from] = iom_now_ns();
}

/* Rank 0, before it looks for messages: a rank's silence is judged over the
 * time rank 0 was listening. A gap in its own listening longer than a beat
 * (its process stopped, or a busy host kept it waiting) is not the other
 * ranks' silence, so their clocks move on by it: a rank that beat all along
 * was once named lost after rank 0 had been stopped (SIGSTOP) for 1.2 s, and
 * being lost, was sent no end and ran on until mpirun was killed. */
static void listen_now(void)
{
    uint64_t now = iom_now_ns();
    if (S.heard && S.last_listen && now - S.last_listen > BEAT_NS) {
        uint64_t gap = now - S.last_listen;
        for (int i = 1; i < g_size; i++)
            S.heard[i] = S.heard[i] + gap < now ? S.heard[i] + gap : now;
    }
    S.last_listen = now;
}

/* Rank 0: the first rank silent for longer than the limit (-1 none);
 * done[i] set means rank i needs no more word (NULL: none has). */
static int find_silent(const char *done)
{
    uint64_t now = iom_now_ns();
    for (int i = 1; S.heard && i < g_size; i++)
        if (!(done && done[i]) && now - S.heard[i] > S.silence_ns) {
            S.lost_silent_ns = now - S.heard[i];
            return i;
        }
    return -1;
}

/* Other ranks: tell rank 0 "still here" every BEAT_NS, without blocking
 * (a beat whose send has not completed yet is skipped). */
static void beat(void)
{
    uint64_t now = iom_now_ns();
    if (now - S.last_beat < BEAT_NS)
        return;
    int flag = 1;
    if (S.beat_req != MPI_REQUEST_NULL)
        MPI_Test(&S.beat_req, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        return;
    S.beat_msg[0] = EV_BEAT;
    S.beat_msg[1] = S.beat_msg[2] = 0;
    MPI_Isend(S.beat_msg, 3, MPI_INT64_T, 0, TAG_UP, MPI_COMM_WORLD, &S.beat_req);
    S.last_beat = now;
}

#define LEAD_NS 100000000u /* boundaries are announced 100 ms ahead */

static int sync_ready(void *arg, int local_rc, char *why, size_t whylen, uint64_t *start_at)
{
    (void)arg;
    int bad = 0;
    char host[64], reason[400], mine[300]; /* why on entry: the caller's own reason, or "" */
    snprintf(mine, sizeof(mine), why[0] ? "%s" : "setting up the I/O threads failed (%s)",
             why[0] ? why : strerror(-local_rc));
    int rc = iom_mpi_agree(local_rc, mine, &bad, host, reason, sizeof(reason));
    if (rc) {
        snprintf(why, whylen, "rank %d on %s: %s", bad, host, reason);
        return rc;
    }
    iom_mpi_clock_offset(g_rank, g_size, &S.offset, &S.offset_err);
    /* rank 0 names the start, LEAD_NS ahead on its clock; each rank converts */
    int64_t start0 = (int64_t)iom_now_ns() + LEAD_NS;
    MPI_Bcast(&start0, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    *start_at = (uint64_t)(start0 - S.offset);
    S.win_start = iom_mpi_to_realtime(*start_at); /* without warm-up the window starts here */
    if (g_rank == 0 && !S.heard)
        S.heard = calloc((size_t)g_size, sizeof(*S.heard));
    for (int i = 0; S.heard && i < g_size; i++)
        S.heard[i] = iom_now_ns();
    S.last_beat = S.last_listen = iom_now_ns();
    return 0;
}

static void record(int ev, uint64_t at)
{
    if (ev == IOM_RSYNC_MEASURE)
        S.win_start = iom_mpi_to_realtime(at);
    else if (ev == IOM_RSYNC_END)
        S.win_end = iom_mpi_to_realtime(at);
    else if (ev == IOM_RSYNC_STOP && !S.win_end)
        S.win_end = iom_mpi_realtime_ns();
}

static int sync_poll(void *arg, int wish, int *sig, uint64_t *at)
{
    (void)arg;
    int flag = 0;
    MPI_Status st;
    if (g_rank == 0) {
        listen_now();
        while (MPI_Iprobe(MPI_ANY_SOURCE, TAG_UP, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS &&
               flag) {
            int64_t m[3];
            MPI_Recv(m, 3, MPI_INT64_T, st.MPI_SOURCE, TAG_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            heard_from(st.MPI_SOURCE);
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
        if (S.lost < 0)
            S.lost = find_silent(NULL); /* a lost rank stops the run everywhere */
        if (S.sig || S.lost >= 0) {
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
                if (i != S.lost) /* nothing goes to a lost rank */
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
    beat();
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
    uint64_t *heard = S.heard;
    memset(&S, 0, sizeof(S));
    S.heard = heard;
    S.lost = -1;
    S.beat_req = MPI_REQUEST_NULL;
    S.silence_ns = silence_ns();
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

static int merge(struct iom_mpi_rank *all, struct iom_series_point *pts, int *nr_pts, int max_pts,
                 const struct iom_result *r, bool patterned, int lost, struct iom_result **merged,
                 struct iom_mpi_info **info);

/* This rank's figures for rank 0 (NULL when out of memory). */
static struct iom_mpi_rank *my_figures(const struct iom_result *r, int run_rc)
{
    struct iom_mpi_rank *me = calloc(1, sizeof(*me));
    if (!me)
        return NULL;
    me->rank = g_rank;
    snprintf(me->host, sizeof(me->host), "%s", g_host);
    me->rc = run_rc;
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_init(&me->total[d]);
    if (r) {
        size_t n = 0; /* whole paths, each with its NUL, while they fit */
        me->nr_targets = r->nr_targets;
        for (uint32_t i = 0; i < r->nr_targets; i++) {
            const char *p = r->targets[i].path ? r->targets[i].path : "?";
            size_t l = strlen(p) + 1;
            if (n + l > sizeof(me->targets))
                break;
            memcpy(me->targets + n, p, l);
            n += l;
            me->nr_paths++;
        }
        if (r->nr_targets) {
            me->size_bytes = r->targets[0].size_bytes;
            me->region_len = r->targets[0].region_len;
            me->logical_block_bytes = r->targets[0].logical_block_bytes;
            me->is_blockdev = r->targets[0].is_blockdev;
            me->created = r->targets[0].created;
            snprintf(me->devname, sizeof(me->devname), "%s", r->targets[0].devname);
        }
        me->interrupted_signal = r->interrupted_signal;
        snprintf(me->error, sizeof(me->error), "%s", r->error);
        me->warmup_ns = r->warmup_ns;
        me->measured_ns = r->measured_ns;
        me->win_start_ns = S.win_start;
        me->clock_offset_ns = S.offset;
        me->clock_error_ns = S.offset_err;
        me->win_end_ns = S.win_end ? S.win_end : S.win_start + (int64_t)r->measured_ns;
        memcpy(me->total, r->total, sizeof(me->total));
        me->cpu = r->cpu;
    } else if (run_rc) {
        snprintf(me->error, sizeof(me->error), "failed before measuring (%s)", strerror(-run_rc));
    }
    return me;
}

/* Rank 0: every other rank's figures (TAG_FINAL, len bytes each) into all,
 * point to point, while the ranks' other messages are taken as signs of
 * life. A rank silent for longer than the limit is lost (got[i] = 2) and not
 * waited for. Returns the first lost rank or -1; never blocks on a rank
 * that does not answer. */
static int collect_finals(char *all, size_t len, char *got)
{
    int remaining = g_size - 1, first = -1;
    uint64_t first_silent = 0;
    got[0] = 1;
    while (remaining > 0) {
        int flag = 0, n = 0;
        MPI_Status st;
        listen_now();
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            int src = st.MPI_SOURCE;
            if (st.MPI_TAG == TAG_FINAL && !got[src]) {
                MPI_Recv(all + (size_t)src * len, (int)len, MPI_BYTE, src, TAG_FINAL,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                got[src] = 1;
                remaining--;
            } else { /* a beat or a late DONE/STOP: received and dropped */
                char buf[64];
                MPI_Get_count(&st, MPI_BYTE, &n);
                char *b = n > (int)sizeof(buf) ? malloc((size_t)n) : buf;
                MPI_Recv(b ? b : buf, b ? n : 0, MPI_BYTE, src, st.MPI_TAG, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                if (b != buf)
                    free(b);
            }
            heard_from(src);
            continue;
        }
        int i = find_silent(got);
        if (i >= 0) {
            got[i] = 2;
            remaining--;
            if (first < 0) {
                first = i;
                first_silent = S.lost_silent_ns;
            }
            continue;
        }
        struct timespec ts = {0, 1000000}; /* 1 ms */
        nanosleep(&ts, NULL);
    }
    S.lost_silent_ns = first_silent;
    return first;
}

void iom_mpi_lost_why(int rank, int first, char host[64], char *why, size_t whylen)
{
    snprintf(host, 64, "%s", g_hosts && rank >= 0 && rank < g_size ? g_hosts[rank] : "?");
    if (rank == first)
        snprintf(why, whylen, "lost: no word from it for %.1f s (its process died or its host is "
                 "unreachable); its figures are missing, the others are kept",
                 (double)S.lost_silent_ns / 1e9);
    else
        snprintf(why, whylen, "lost: sent no result (silent for %.1f s)",
                 (double)S.silence_ns / 1e9);
}

/* Rank 0, a rank lost: the entries of the ranks that sent nothing. */
static void mark_lost(struct iom_mpi_rank *all, const char *got, int first)
{
    for (int i = 1; i < g_size; i++) {
        if (got[i] == 1)
            continue;
        struct iom_mpi_rank *k = &all[i];
        memset(k, 0, sizeof(*k));
        k->rank = i;
        for (int d = 0; d < IOM_NDIR; d++)
            iom_io_stats_init(&k->total[d]);
        k->rc = -EPIPE;
        iom_mpi_lost_why(i, first, k->host, k->error, sizeof(k->error));
    }
}

int iom_mpi_collect(const void *mine, size_t len, void *all, char *got)
{
    /* point to point first, so that rank 0 never waits in a collective for a
     * rank that died: each rank sends its figures, rank 0 answers with the
     * lost rank (-1: none, every rank goes on together) */
    int lost = -1;
    if (g_rank != 0) {
        if (S.beat_req != MPI_REQUEST_NULL)
            MPI_Wait(&S.beat_req, MPI_STATUS_IGNORE);
        MPI_Send(mine, (int)len, MPI_BYTE, 0, TAG_FINAL, MPI_COMM_WORLD);
        MPI_Recv(&lost, 1, MPI_INT, 0, TAG_VERDICT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        memcpy(all, mine, len);
        lost = collect_finals(all, len, got);
        if (lost < 0 && S.lost >= 0) /* lost during the run, answered since: still ended */
            lost = S.lost;
        for (int i = 1; i < g_size; i++)
            if (got[i] == 1)
                MPI_Send(&lost, 1, MPI_INT, i, TAG_VERDICT, MPI_COMM_WORLD);
        if (lost >= 0 && got[lost] == 1) { /* stopped as lost during the run, then answered */
            got[lost] = 2;
            S.lost_silent_ns = S.silence_ns;
        }
    }
    if (lost >= 0) /* rank 0 writes what it has; the others end */
        return g_lost = lost;
    MPI_Barrier(MPI_COMM_WORLD);
    drain();
    return -1;
}

int iom_mpi_stop_signal(void) { return S.sig; }

int iom_mpi_gather(const struct iom_result *r, int run_rc, bool patterned,
                   struct iom_result **merged, struct iom_mpi_info **info, int *job_rc,
                   int *job_sig)
{
    *merged = NULL;
    *info = NULL;
    struct iom_mpi_rank *me = my_figures(r, run_rc);
    struct iom_mpi_rank *all = g_rank ? NULL : calloc((size_t)g_size, sizeof(*all));
    char *got = g_rank ? NULL : calloc((size_t)g_size, 1);
    if (!me || (g_rank == 0 && (!all || !got)))
        MPI_Abort(MPI_COMM_WORLD, 1); /* the others would wait for ever */
    int lost = iom_mpi_collect(me, sizeof(*me), all, got);
    free(me);
    if (lost >= 0) {
        *job_rc = -EPIPE;
        *job_sig = S.sig;
        if (g_rank)
            return 0;
        mark_lost(all, got, lost);
        free(got);
        return merge(all, NULL, NULL, 0, r, patterned, lost, merged, info);
    }
    free(got);
    MPI_Allreduce(&run_rc, job_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* -errno: MIN = any */
    int my_sig = r ? r->interrupted_signal : 0;
    MPI_Allreduce(&my_sig, job_sig, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
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
    free(displ);
    return merge(all, pts, nr_pts, max_pts, r, patterned, -1, merged, info);
}

/* A copy of rank k's target paths, back to back (at least "", one NUL);
 * *nr their count. NULL when out of memory. */
static char *rank_paths(const struct iom_mpi_rank *k, uint32_t *nr)
{
    size_t n = 0;
    *nr = 0;
    for (uint32_t i = 0; i < k->nr_paths && n < sizeof(k->targets); i++) {
        size_t l = strnlen(k->targets + n, sizeof(k->targets) - n);
        if (n + l >= sizeof(k->targets))
            break; /* no NUL: not a path */
        n += l + 1;
        (*nr)++;
    }
    char *p = malloc(n ? n : 1);
    if (p) {
        if (n)
            memcpy(p, k->targets, n);
        else
            p[0] = 0;
    }
    return p;
}

/* Rank 0: the merged result of all[] (and of the series points, when
 * pts); takes all, pts and nr_pts. */
static int merge(struct iom_mpi_rank *all, struct iom_series_point *pts, int *nr_pts, int max_pts,
                 const struct iom_result *r, bool patterned, int lost, struct iom_result **merged,
                 struct iom_mpi_info **info)
{
    int rc = 0;
    struct iom_mpi_info *in = calloc(1, sizeof(*in));
    struct iom_result *m = calloc(1, sizeof(*m));
    if (!in || !m || !r || iom_job_copy(&m->job, &r->job)) {
        free(in);
        free(m);
        free(all);
        free(pts);
        free(nr_pts);
        return -ENOMEM;
    }
    in->nr_ranks = g_size;
    in->lost_rank = lost;
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
        iom_result_free(m);
        iom_mpi_info_free(in);
        return -ENOMEM;
    }
    for (int d = 0; d < IOM_NDIR; d++)
        iom_io_stats_init(&m->total[d]);
    int64_t s_min = INT64_MAX, s_max = INT64_MIN, e_min = INT64_MAX, e_max = INT64_MIN;
    in->fastest_ns = UINT64_MAX;
    int nr_hosts = 0;
    for (int i = 0; i < g_size; i++) {
        struct iom_mpi_rank *k = &all[i];
        struct iom_target_result *t = &m->targets[i];
        t->path = rank_paths(k, &t->nr_paths);
        t->of_rank = true;
        t->rank = k->rank;
        snprintf(t->host, sizeof(t->host), "%s", k->host);
        t->size_bytes = k->size_bytes;
        t->region_len = k->region_len;
        t->logical_block_bytes = k->logical_block_bytes;
        t->is_blockdev = k->is_blockdev;
        t->created = k->created;
        snprintf(t->devname, sizeof(t->devname), "%s", k->devname);
        m->threads[i].target_idx = (uint32_t)i;
        m->threads[i].thread_idx = 0;
        for (int d = 0; d < IOM_NDIR; d++) {
            t->dir[d] = k->total[d];
            m->threads[i].dir[d] = k->total[d];
            iom_io_stats_merge(&m->total[d], &k->total[d]);
        }
        if (k->measured_ns > in->slowest_ns)
            in->slowest_ns = k->measured_ns;
        if (k->measured_ns < in->fastest_ns && k->rc != -EPIPE) /* a lost rank has no time */
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
    /* The merged series is the window cut at every interval (k x
     * --series_interval from the window's start, the last one short): each
     * rank's point joins the cell that holds its middle. The ranks share the
     * window and the interval length, but each closes its points when its
     * control thread wakes, up to 100 ms late on a busy host, so the ranks'
     * points are not one-to-one (merged by index, a late rank's points once
     * added up to 1.29 s in a 1 s window, the last ones after its end). Every
     * rank's I/Os land in exactly one cell, so the series adds up to the
     * total and its points tile the window. In a cell counts are summed, the
     * mean latency weighted by I/Os, the p99 the highest rank's (an upper
     * bound: the series keeps no histograms); the total's percentiles above
     * are the exact merged ones. */
    double iv = r && r->job.series_interval_ns ? (double)r->job.series_interval_ns / 1e9 : 0;
    double win_s = (double)m->measured_ns / 1e9;
    int ng = iv > 0 && win_s > 0 ? (int)ceil(win_s / iv - 1e-9) : 0;
    bool by_interval = ng >= 1 && ng <= 4 * (max_pts + 1);
    if (!by_interval) /* no interval known, or far more cells than points: even cells */
        ng = max_pts;
    m->series = calloc((size_t)(ng > 0 ? ng : 1), sizeof(*m->series));
    if (m->series && pts && nr_pts && ng > 0) {
        m->nr_series = m->series_cap = (uint32_t)ng;
        double cell = by_interval ? iv : win_s / ng;
        for (int j = 0; j < ng; j++) {
            struct iom_series_point *q = &m->series[j];
            q->t_end_s = j == ng - 1 ? win_s : (j + 1) * cell;
            q->dur_s = q->t_end_s - j * cell;
        }
        int off = 0;
        for (int i = 0; i < g_size; i++) {
            int n = nr_pts[i] / (int)sizeof(*pts);
            for (int k = 0; k < n; k++) {
                const struct iom_series_point *p = &pts[off + k];
                double mid = p->t_end_s - p->dur_s / 2;
                int j = cell > 0 && mid > 0 ? (int)floor(mid / cell) : 0;
                if (j >= ng)
                    j = ng - 1;
                struct iom_series_point *q = &m->series[j];
                uint64_t qn = q->ios[0] + q->ios[1] + q->ios[2];
                uint64_t pn = p->ios[0] + p->ios[1] + p->ios[2];
                if (qn + pn)
                    q->lat_mean_us = (q->lat_mean_us * (double)qn + p->lat_mean_us * (double)pn) /
                                     (double)(qn + pn);
                for (int d = 0; d < IOM_NDIR; d++) {
                    q->ios[d] += p->ios[d];
                    q->bytes[d] += p->bytes[d];
                }
                if (p->lat_p99_us > q->lat_p99_us)
                    q->lat_p99_us = p->lat_p99_us;
            }
            off += n;
        }
    }
    free(pts);
    free(nr_pts);
    *merged = m;
    *info = in;
    return rc;
}

void iom_mpi_info_free(struct iom_mpi_info *info)
{
    if (info)
        free(info->ranks);
    free(info);
}
