/* mpi_tpcc.c - tpcc across MPI ranks: the VU share, the gather and the report parts (mpi/mpi_tpcc.h). */
#include "mpi/mpi_tpcc.h"

#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpi.h"
#include "report/report.h"
#include "tpcc/report.h"

void iom_mpi_tpcc_share(unsigned vu, int rank, int size, unsigned *first, unsigned *count)
{
    unsigned n = (unsigned)size, r = (unsigned)rank, base = vu / n, extra = vu % n;
    *count = base + (r < extra);
    *first = r * base + (r < extra ? r : extra);
}

static void fill_mine(struct iom_mpi_tpcc_rank *me, const struct tpcc_run_result *x, int run_rc,
                      const struct tpcc_run_cfg *cfg)
{
    memset(me, 0, sizeof(*me));
    me->rank = iom_mpi_rank();
    snprintf(me->host, sizeof(me->host), "%s", iom_mpi_host());
    me->rc = run_rc;
    me->interrupted_signal = x->interrupted_signal;
    me->vu_first = cfg->vu_first;
    me->vu = cfg->vu;
    me->measured_ns = x->measured_ns;
    me->win_start_ns = x->win_start_ns;
    me->win_end_ns = x->win_end_ns;
    memcpy(me->txn, x->txn, sizeof(me->txn));
    me->have_cpu = x->have_cpu;
    me->cpu = x->cpu;
    snprintf(me->error, sizeof(me->error), "%s", run_rc ? x->error : "");
}

/* Rank 0: the merged result of all ranks (see iom_mpi_tpcc_gather). */
static void merge(struct iom_mpi_tpcc_info *in, struct tpcc_run_result *m)
{
    for (int k = 0; k < TPCC_NR_TXN; k++) {
        iom_io_stats_init(&m->txn[k].lat);
        m->txn[k].rollbacks = m->txn[k].retries = m->txn[k].busy_waits = 0;
    }
    int64_t s_min = INT64_MAX, s_max = INT64_MIN, e_min = INT64_MAX, e_max = INT64_MIN;
    uint64_t calls = 0;
    for (int i = 0; i < in->nr_ranks; i++) {
        const struct iom_mpi_tpcc_rank *k = &in->ranks[i];
        for (int t = 0; t < TPCC_NR_TXN; t++) {
            iom_io_stats_merge(&m->txn[t].lat, &k->txn[t].lat);
            m->txn[t].rollbacks += k->txn[t].rollbacks;
            m->txn[t].retries += k->txn[t].retries;
            m->txn[t].busy_waits += k->txn[t].busy_waits;
            calls += k->txn[t].lat.ios;
        }
        if (k->rc && !m->error[0] && k->rc != -EINTR)
            snprintf(m->error, sizeof(m->error), "rank %d on %s: %s", k->rank, k->host,
                     k->error[0] ? k->error : strerror(-k->rc));
        if (k->measured_ns) {
            s_min = k->win_start_ns < s_min ? k->win_start_ns : s_min;
            s_max = k->win_start_ns > s_max ? k->win_start_ns : s_max;
            e_min = k->win_end_ns < e_min ? k->win_end_ns : e_min;
            e_max = k->win_end_ns > e_max ? k->win_end_ns : e_max;
        }
    }
    in->start_spread_ms = s_min <= s_max ? (double)(s_max - s_min) / 1e6 : 0;
    in->end_spread_ms = e_min <= e_max ? (double)(e_max - e_min) / 1e6 : 0;
    m->tpm = m->measured_ns ? (double)calls / ((double)m->measured_ns / 6e10) : 0;
}

int iom_mpi_tpcc_gather(const struct tpcc_run_result *mine, int run_rc,
                        const struct tpcc_run_cfg *cfg, unsigned warehouses,
                        struct tpcc_run_result *merged, struct iom_mpi_tpcc_info **info,
                        int *job_rc, int *job_sig)
{
    int rank = iom_mpi_rank(), size = iom_mpi_size();
    *info = NULL;
    struct iom_mpi_tpcc_rank *me = malloc(sizeof(*me));
    struct iom_mpi_tpcc_rank *all = rank ? NULL : calloc((size_t)size, sizeof(*all));
    char *got = rank ? NULL : calloc((size_t)size, 1);
    struct iom_mpi_tpcc_info *in = rank ? NULL : calloc(1, sizeof(*in));
    if (!me || (rank == 0 && (!all || !got || !in)))
        MPI_Abort(MPI_COMM_WORLD, 1); /* the others would wait for ever */
    fill_mine(me, mine, run_rc, cfg);
    int lost = iom_mpi_collect(me, sizeof(*me), all, got);
    free(me);
    if (lost >= 0) {
        *job_rc = -EPIPE;
        *job_sig = iom_mpi_stop_signal();
        for (int i = 1; rank == 0 && i < size; i++) {
            if (got[i] == 1)
                continue;
            memset(&all[i], 0, sizeof(all[i]));
            for (int t = 0; t < TPCC_NR_TXN; t++)
                iom_io_stats_init(&all[i].txn[t].lat);
            all[i].rank = i;
            all[i].rc = -EPIPE;
            iom_mpi_lost_why(i, lost, all[i].host, all[i].error, sizeof(all[i].error));
        }
    } else {
        MPI_Allreduce(&run_rc, job_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* -errno */
        int sig = mine->interrupted_signal;
        MPI_Allreduce(&sig, job_sig, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    free(got);
    if (rank)
        return 0;
    in->nr_ranks = size;
    in->warehouses = warehouses;
    in->ranks = all;
    in->lost_rank = lost;
    *merged = *mine;
    merged->error[0] = 0;
    merged->interrupted_signal = *job_sig;
    merge(in, merged);
    if (lost >= 0 && !merged->error[0])
        snprintf(merged->error, sizeof(merged->error), "rank %d on %s: %s", lost,
                 all[lost].host, all[lost].error);
    *info = in;
    return 0;
}

void iom_mpi_tpcc_info_free(struct iom_mpi_tpcc_info *info)
{
    if (info)
        free(info->ranks);
    free(info);
}

static const char *rank_status(const struct iom_mpi_tpcc_rank *k)
{
    return k->rc == -EPIPE ? "lost" : k->rc && k->rc != -EINTR ? "error"
                                    : k->interrupted_signal ? "interrupted" : "ok";
}

/* "1-4", "3", "" (global VU numbers, 1-based, as HammerDB numbers them) */
static void vu_range(const struct iom_mpi_tpcc_rank *k, char *buf, size_t len)
{
    if (!k->vu)
        snprintf(buf, len, "-");
    else if (k->vu == 1)
        snprintf(buf, len, "%u", k->vu_first + 1);
    else
        snprintf(buf, len, "%u-%u", k->vu_first + 1, k->vu_first + k->vu);
}

/* The home warehouses of a rank's VUs, ascending, without repeats: "1,2". */
static void home_warehouses(const struct iom_mpi_tpcc_rank *k, unsigned w, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (unsigned h = 1; w && h <= w && n + 12 < len; h++)
        for (unsigned g = k->vu_first; g < k->vu_first + k->vu; g++)
            if (g % w + 1 == h) {
                n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? "," : "", h);
                break;
            }
}

static uint64_t rank_calls(const struct iom_mpi_tpcc_rank *k)
{
    uint64_t c = 0;
    for (int t = 0; t < TPCC_NR_TXN; t++)
        c += k->txn[t].lat.ios;
    return c;
}

void iom_mpi_tpcc_json(cJSON *doc, const struct iom_mpi_tpcc_info *in)
{
    cJSON *o = cJSON_AddObjectToObject(doc, "mpi");
    cJSON_AddNumberToObject(o, "ranks", in->nr_ranks);
    cJSON_AddStringToObject(o, "nopm_from", "rank 0: sum(d_next_o_id) at the shared window's ends");
    cJSON_AddStringToObject(o, "percentiles_from", "the ranks' merged histograms");
    cJSON *w = cJSON_AddObjectToObject(o, "window");
    cJSON_AddNumberToObject(w, "start_spread_ms", in->start_spread_ms);
    cJSON_AddNumberToObject(w, "end_spread_ms", in->end_spread_ms);
    if (in->lost_rank >= 0) {
        cJSON_AddBoolToObject(o, "partial", true);
        cJSON_AddNumberToObject(o, "lost_rank", in->lost_rank);
        cJSON_AddStringToObject(o, "lost_host", in->ranks[in->lost_rank].host);
    }
    cJSON *arr = cJSON_AddArrayToObject(o, "per_rank");
    for (int i = 0; i < in->nr_ranks; i++) {
        const struct iom_mpi_tpcc_rank *k = &in->ranks[i];
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "rank", k->rank);
        cJSON_AddStringToObject(r, "host", k->host);
        cJSON_AddStringToObject(r, "status", rank_status(k));
        if (k->error[0])
            cJSON_AddStringToObject(r, "error", k->error);
        cJSON_AddNumberToObject(r, "vu", k->vu);
        cJSON_AddNumberToObject(r, "vu_first", k->vu_first + 1);
        cJSON *hw = cJSON_AddArrayToObject(r, "home_warehouses");
        for (unsigned g = k->vu_first; in->warehouses && g < k->vu_first + k->vu; g++)
            cJSON_AddItemToArray(hw, cJSON_CreateNumber(g % in->warehouses + 1));
        cJSON_AddNumberToObject(r, "measured_s", (double)k->measured_ns / 1e9);
        cJSON_AddNumberToObject(r, "window_start_unix_s", (double)k->win_start_ns / 1e9);
        cJSON_AddNumberToObject(r, "window_end_unix_s", (double)k->win_end_ns / 1e9);
        uint64_t calls = rank_calls(k);
        cJSON_AddNumberToObject(r, "calls", (double)calls);
        cJSON_AddNumberToObject(r, "tpm", k->measured_ns ? (double)calls / ((double)k->measured_ns / 6e10) : 0);
        if (k->have_cpu)
            cJSON_AddNumberToObject(r, "cpu_busy_pct", k->cpu.busy_pct);
        cJSON *t = cJSON_AddObjectToObject(r, "transactions");
        for (int x = 0; x < TPCC_NR_TXN; x++)
            cJSON_AddItemToObject(t, tpcc_txn_name[x], iom_tpcc_txn_json(&k->txn[x]));
        cJSON_AddItemToArray(arr, r);
    }
}

void iom_mpi_tpcc_text(FILE *f, const struct iom_mpi_tpcc_info *in,
                       const struct tpcc_run_result *m)
{
    fprintf(f, "\nMPI: %d ranks; one window decided by rank 0 (starts within %.2f ms, ends within "
               "%.2f ms); NOPM counted once from the database by rank 0; TPM and percentiles "
               "from the merged histograms\n",
            in->nr_ranks, in->start_spread_ms, in->end_spread_ms);
    fprintf(f, "  %-4s %-16s %-9s %-16s %10s %10s %13s  %s\n", "rank", "host", "VUs",
            "home warehouses", "calls", "TPM", "NEWORD p99 ms", "status");
    for (int i = 0; i < in->nr_ranks; i++) {
        const struct iom_mpi_tpcc_rank *k = &in->ranks[i];
        char vus[32], wh[64];
        struct tpcc_txn_figures no;
        vu_range(k, vus, sizeof(vus));
        home_warehouses(k, in->warehouses, wh, sizeof(wh));
        iom_tpcc_txn_figures(&k->txn[TPCC_NEW_ORDER], &no);
        uint64_t calls = rank_calls(k);
        fprintf(f, "  %-4d %-16s %-9s %-16s %10llu %10.0f %13.3f  %s\n", k->rank, k->host, vus,
                wh[0] ? wh : "-", (unsigned long long)calls,
                k->measured_ns ? (double)calls / ((double)k->measured_ns / 6e10) : 0, no.p99_ms,
                rank_status(k));
    }
    struct tpcc_txn_figures no;
    iom_tpcc_txn_figures(&m->txn[TPCC_NEW_ORDER], &no);
    uint64_t calls = 0;
    for (int t = 0; t < TPCC_NR_TXN; t++)
        calls += m->txn[t].lat.ios;
    fprintf(f, "  %-21s %-9s %-16s %10llu %10.0f %13.3f  NOPM %.0f\n", "all ranks", "", "",
            (unsigned long long)calls, m->tpm, no.p99_ms, m->nopm);
}
