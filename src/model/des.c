/* des.c - seeded discrete-event simulation of the guest / adapter-LUN queue /
 * device path (closed loop and burst), an open M/M/c/K variant for checks
 * against textbook results, the random numbers and the service-time
 * sampler. Contracts: model.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* ------------------------------------------------------------ RNG --- */

void iom_model_rng_seed(struct iom_model_rng *r, uint64_t seed)
{
    iom_rng_seed(&r->r, seed);
}

double iom_model_rng_uniform(struct iom_model_rng *r)
{
    return (double)(iom_rng_next(&r->r) >> 11) * 0x1.0p-53;
}

double iom_model_rng_exp(struct iom_model_rng *r, double mean)
{
    return -mean * log1p(-iom_model_rng_uniform(r));
}

/* -------------------------------------------------- service times --- */

int iom_svc_simple(struct iom_svc *s, enum iom_svc_kind kind, double mean_s)
{
    if (!s || (kind != IOM_SVC_EXP && kind != IOM_SVC_DET) || !(mean_s > 0) || !isfinite(mean_s))
        return -EINVAL;
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    s->mean_s = mean_s;
    return 0;
}

int iom_svc_from_hist(struct iom_svc *s, const struct iom_hist *h)
{
    if (!s || !h)
        return -EINVAL;
    uint64_t total = iom_hist_total(h);
    if (!total)
        return -EINVAL;
    unsigned n = 0;
    for (unsigned i = 0; i < IOM_HIST_BUCKETS; i++)
        n += h->count[i] != 0;
    memset(s, 0, sizeof(*s));
    s->cum = malloc(n * sizeof(double));
    s->lo_s = malloc(n * sizeof(double));
    s->width_s = malloc(n * sizeof(double));
    if (!s->cum || !s->lo_s || !s->width_s) {
        iom_svc_free(s);
        return -ENOMEM;
    }
    s->kind = IOM_SVC_HIST;
    s->n = n;
    uint64_t acc = 0;
    double mean = 0;
    unsigned k = 0;
    for (unsigned i = 0; i < IOM_HIST_BUCKETS; i++) {
        if (!h->count[i])
            continue;
        acc += h->count[i];
        double lo = (double)iom_hist_bucket_low(i);
        double w = (double)(iom_hist_bucket_high(i) - iom_hist_bucket_low(i) + 1);
        s->cum[k] = (double)acc / (double)total;
        s->lo_s[k] = lo * 1e-9;
        s->width_s[k] = w * 1e-9;
        mean += (double)h->count[i] * (lo + w / 2);
        k++;
    }
    s->cum[n - 1] = 1.0;
    s->mean_s = mean / (double)total * 1e-9;
    return 0;
}

double iom_svc_sample(const struct iom_svc *s, struct iom_model_rng *r)
{
    switch (s->kind) {
    case IOM_SVC_EXP:
        return iom_model_rng_exp(r, s->mean_s);
    case IOM_SVC_DET:
        return s->mean_s;
    case IOM_SVC_HIST: {
        double u = iom_model_rng_uniform(r);
        unsigned lo = 0, hi = s->n - 1; /* first k with cum[k] > u */
        while (lo < hi) {
            unsigned mid = lo + (hi - lo) / 2;
            if (s->cum[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        return s->lo_s[lo] + iom_model_rng_uniform(r) * s->width_s[lo];
    }
    }
    return s->mean_s;
}

void iom_svc_free(struct iom_svc *s)
{
    if (!s)
        return;
    free(s->cum);
    free(s->lo_s);
    free(s->width_s);
    s->cum = s->lo_s = s->width_s = NULL;
    s->n = 0;
}

/* ------------------------------------------------------ event heap --- */

enum ev_type { EV_DEV_DONE, EV_HOST_DONE, EV_ARRIVAL };

struct ev {
    double t;
    uint64_t seq; /* tie-break: equal times run in scheduling order */
    uint32_t type, id;
};

struct heap {
    struct ev *a;
    size_t n, cap;
    uint64_t seq;
};

static int ev_less(const struct ev *x, const struct ev *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static int heap_push(struct heap *h, double t, uint32_t type, uint32_t id)
{
    if (h->n == h->cap) {
        size_t nc = h->cap ? h->cap * 2 : 64;
        struct ev *na = realloc(h->a, nc * sizeof(*na));
        if (!na)
            return -ENOMEM;
        h->a = na;
        h->cap = nc;
    }
    size_t i = h->n++;
    struct ev e = {.t = t, .seq = h->seq++, .type = type, .id = id};
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_less(&e, &h->a[p]))
            break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i] = e;
    return 0;
}

static struct ev heap_pop(struct heap *h)
{
    struct ev top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        const struct ev *mv = &last;
        if (l < h->n && ev_less(&h->a[l], mv)) {
            m = l;
            mv = &h->a[l];
        }
        if (r < h->n && ev_less(&h->a[r], mv))
            m = r;
        if (m == i)
            break;
        h->a[i] = h->a[m];
        i = m;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

/* FIFO of I/O ids, growable ring. */
struct fifo {
    uint32_t *a;
    size_t head, n, cap;
};

static int fifo_push(struct fifo *f, uint32_t id)
{
    if (f->n == f->cap) {
        size_t nc = f->cap ? f->cap * 2 : 64;
        uint32_t *na = malloc(nc * sizeof(*na));
        if (!na)
            return -ENOMEM;
        for (size_t i = 0; i < f->n; i++)
            na[i] = f->a[(f->head + i) % f->cap];
        free(f->a);
        f->a = na;
        f->head = 0;
        f->cap = nc;
    }
    f->a[(f->head + f->n) % f->cap] = id;
    f->n++;
    return 0;
}

static uint32_t fifo_pop(struct fifo *f)
{
    uint32_t id = f->a[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return id;
}

/* -------------------------------------------------- closed / burst --- */

struct io {
    double t_issue, t_admit, t_start;
    uint64_t seq; /* issue order: the guest admits the oldest waiting I/O first */
    uint32_t thread, lun;
};

/* One LUN: its driver-side count, busy servers, its adapter/LUN queue (I/Os
 * admitted, waiting for a server) and the I/Os waiting above the driver. */
struct lun_state {
    unsigned in_driver, busy;
    struct fifo queue, guest;
};

struct sim {
    const struct iom_des_cfg *cfg;
    struct io *io;
    struct heap heap;
    struct lun_state *lun;
    unsigned nluns;
    double *host_free; /* per thread: when its host server is next free */
    struct iom_model_rng rng;
    unsigned in_adapter, in_latency;
    unsigned limit, adapter_limit, servers;
    uint64_t seq;
    /* measurement */
    int measuring;
    double t_last, area, t0;
    uint64_t done, measured;
    double sum_lat, sum_guest, sum_queue, sum_dev, sum_host;
    double t_end;
    struct iom_hist *hist;
};

static int start_service(struct sim *s, uint32_t id, double t)
{
    s->lun[s->io[id].lun].busy++;
    s->io[id].t_start = t;
    return heap_push(&s->heap, t + iom_svc_sample(s->cfg->svc, &s->rng), EV_DEV_DONE, id);
}

/* Room below the driver for one more I/O of LUN k (LUN limit and adapter limit). */
static int room(const struct sim *s, unsigned k)
{
    return (!s->limit || s->lun[k].in_driver < s->limit) &&
           (!s->adapter_limit || s->in_adapter < s->adapter_limit);
}

static int admit(struct sim *s, uint32_t id, double t)
{
    struct lun_state *l = &s->lun[s->io[id].lun];
    l->in_driver++;
    s->in_adapter++;
    s->io[id].t_admit = t;
    if (l->busy < s->servers)
        return start_service(s, id, t);
    return fifo_push(&l->queue, id);
}

static int issue(struct sim *s, uint32_t id, double t)
{
    s->io[id].t_issue = t;
    s->io[id].seq = s->seq++;
    s->in_latency++;
    unsigned k = s->io[id].lun;
    if (!s->lun[k].guest.n && room(s, k))
        return admit(s, id, t);
    return fifo_push(&s->lun[k].guest, id);
}

/* Admit waiting I/Os while there is room: the oldest head among the LUNs
 * that have room (FIFO over the whole guest, no LUN blocks another). */
static int admit_waiting(struct sim *s, double t)
{
    for (;;) {
        unsigned best = s->nluns;
        uint64_t best_seq = UINT64_MAX;
        for (unsigned k = 0; k < s->nluns; k++) {
            struct fifo *g = &s->lun[k].guest;
            if (g->n && room(s, k) && s->io[g->a[g->head]].seq < best_seq) {
                best = k;
                best_seq = s->io[g->a[g->head]].seq;
            }
        }
        if (best == s->nluns)
            return 0;
        int rc = admit(s, fifo_pop(&s->lun[best].guest), t);
        if (rc)
            return rc;
    }
}

static void account(struct sim *s, double t)
{
    if (s->measuring)
        s->area += (double)s->in_latency * (t - s->t_last);
    s->t_last = t;
}

int iom_des_run(const struct iom_des_cfg *cfg, struct iom_model_out *out,
                struct iom_des_extra *extra)
{
    if (!cfg || !out || !cfg->svc || cfg->servers < 1 || !(cfg->host_s >= 0) || cfg->luns > 4096 ||
        (!cfg->burst && (cfg->threads < 1 || cfg->iodepth < 1 || cfg->measure_ios < 1)))
        return -EINVAL;
    uint64_t nio = cfg->burst ? cfg->burst : (uint64_t)cfg->threads * cfg->iodepth;
    if (nio > 0x7fffffffu)
        return -EINVAL;
    struct sim s = {.cfg = cfg, .limit = cfg->limit, .adapter_limit = cfg->adapter_limit,
                    .servers = cfg->servers, .nluns = cfg->luns ? cfg->luns : 1};
    int rc = -ENOMEM;
    s.io = calloc(nio, sizeof(*s.io));
    s.host_free = calloc(cfg->threads ? cfg->threads : 1, sizeof(double));
    s.hist = calloc(1, sizeof(*s.hist));
    s.lun = calloc(s.nluns, sizeof(*s.lun));
    if (!s.io || !s.host_free || !s.hist || !s.lun)
        goto done;
    iom_model_rng_seed(&s.rng, cfg->seed);
    unsigned threads = cfg->threads ? cfg->threads : 1;
    for (uint32_t i = 0; i < nio; i++) {
        s.io[i].thread = i % threads;
        s.io[i].lun = i % s.nluns;
        if ((rc = issue(&s, i, 0.0)))
            goto done;
    }
    int burst = cfg->burst > 0;
    uint64_t warm = burst ? 0 : cfg->warmup_ios;
    uint64_t want = burst ? nio : cfg->measure_ios;
    s.measuring = warm == 0;
    s.t0 = 0;
    rc = 0;
    while (s.heap.n && s.measured < want) {
        struct ev e = heap_pop(&s.heap);
        account(&s, e.t);
        struct io *io = &s.io[e.id];
        if (e.type == EV_DEV_DONE) {
            struct lun_state *l = &s.lun[io->lun];
            l->busy--;
            l->in_driver--;
            s.in_adapter--;
            s.in_latency--;
            s.done++;
            if (s.measuring) {
                double lat = e.t - io->t_issue;
                s.measured++;
                s.sum_lat += lat;
                s.sum_guest += io->t_admit - io->t_issue;
                s.sum_queue += io->t_start - io->t_admit;
                s.sum_dev += e.t - io->t_start;
                double ns = lat * 1e9 + 0.5;
                iom_hist_add(s.hist, ns > 0 ? (uint64_t)ns : 0);
                if (cfg->pool)
                    iom_hist_add(cfg->pool, ns > 0 ? (uint64_t)ns : 0);
                s.t_end = e.t;
            } else if (s.done >= warm) {
                s.measuring = 1; /* the window opens at this completion */
                s.t0 = e.t;
            }
            if (l->queue.n && (rc = start_service(&s, fifo_pop(&l->queue), e.t)))
                break;
            if ((rc = admit_waiting(&s, e.t)))
                break;
            if (burst)
                continue;
            if (cfg->host_s > 0) {
                double *f = &s.host_free[io->thread];
                double begin = *f > e.t ? *f : e.t;
                *f = begin + cfg->host_s;
                if (s.measuring)
                    s.sum_host += *f - e.t;
                if ((rc = heap_push(&s.heap, *f, EV_HOST_DONE, e.id)))
                    break;
            } else if ((rc = issue(&s, e.id, e.t))) {
                break;
            }
        } else if (e.type == EV_HOST_DONE) {
            if ((rc = issue(&s, e.id, e.t)))
                break;
        }
    }
    if (rc)
        goto done;
    memset(out, 0, sizeof(*out));
    double window = s.t_end - s.t0;
    uint64_t m = s.measured ? s.measured : 1;
    out->ios = s.measured;
    out->iops = window > 0 ? (double)s.measured / window : 0;
    out->mean_s = s.sum_lat / (double)m;
    out->guest_s = s.sum_guest / (double)m;
    out->queue_s = s.sum_queue / (double)m;
    out->device_s = s.sum_dev / (double)m;
    out->host_s = s.sum_host / (double)m;
    out->p99_s = (double)iom_hist_percentile(s.hist, 99.0) * 1e-9;
    if (burst)
        out->makespan_s = s.t_end;
    out->n_guest = out->iops * out->guest_s;
    out->n_queue = out->iops * out->queue_s;
    out->n_device = out->iops * out->device_s;
    if (extra) {
        extra->window_s = window;
        extra->mean_in_system = window > 0 ? s.area / window : 0;
    }
done:
    if (s.lun)
        for (unsigned k = 0; k < s.nluns; k++) {
            free(s.lun[k].queue.a);
            free(s.lun[k].guest.a);
        }
    free(s.lun);
    free(s.io);
    free(s.host_free);
    free(s.hist);
    free(s.heap.a);
    return rc;
}

/* ----------------------------------------------------------- open --- */

int iom_des_open(const struct iom_svc *svc, unsigned servers, double lambda, unsigned capacity,
                 uint64_t warmup, uint64_t arrivals, uint64_t seed, struct iom_des_open_out *out)
{
    if (!svc || !out || servers < 1 || !(lambda > 0) || arrivals < 1 ||
        (capacity && capacity < servers))
        return -EINVAL;
    struct heap h = {0};
    struct fifo q = {0};
    struct iom_model_rng rng;
    iom_model_rng_seed(&rng, seed);
    /* I/O slots: id -> arrival time; recycled through a free list */
    size_t cap = 1024, nfree = 0;
    double *t_arr = malloc(cap * sizeof(double));
    uint32_t *freel = malloc(cap * sizeof(uint32_t));
    uint32_t next_id = 0;
    int rc = -ENOMEM;
    if (!t_arr || !freel)
        goto done;
    memset(out, 0, sizeof(*out));
    unsigned in_sys = 0, busy = 0;
    uint64_t arrived = 0;
    int measuring = warmup == 0;
    double t_last = 0, t0 = 0, area = 0, sum_resp = 0, t_end = 0;
    if ((rc = heap_push(&h, iom_model_rng_exp(&rng, 1.0 / lambda), EV_ARRIVAL, 0)))
        goto done;
    while (h.n) {
        struct ev e = heap_pop(&h);
        if (measuring)
            area += (double)in_sys * (e.t - t_last);
        t_last = e.t;
        if (e.type == EV_ARRIVAL) {
            arrived++;
            if (!measuring && arrived > warmup) {
                measuring = 1;
                t0 = e.t;
            }
            if (measuring && out->arrivals >= arrivals)
                break; /* the window closes at the first arrival beyond it */
            if (measuring)
                out->arrivals++;
            if (capacity && in_sys >= capacity) {
                if (measuring)
                    out->blocked++;
            } else {
                uint32_t id;
                if (nfree) {
                    id = freel[--nfree];
                } else {
                    if (next_id == cap) {
                        size_t nc = cap * 2;
                        double *nt = realloc(t_arr, nc * sizeof(double));
                        if (!nt)
                            goto nomem;
                        t_arr = nt;
                        uint32_t *nf = realloc(freel, nc * sizeof(uint32_t));
                        if (!nf)
                            goto nomem;
                        freel = nf;
                        cap = nc;
                    }
                    id = next_id++;
                }
                /* measured when it arrived inside the window: flag in the sign */
                t_arr[id] = measuring ? e.t : -e.t - 1.0;
                in_sys++;
                if (busy < servers) {
                    busy++;
                    rc = heap_push(&h, e.t + iom_svc_sample(svc, &rng), EV_DEV_DONE, id);
                } else {
                    rc = fifo_push(&q, id);
                }
                if (rc)
                    goto done;
            }
            if ((rc = heap_push(&h, e.t + iom_model_rng_exp(&rng, 1.0 / lambda), EV_ARRIVAL, 0)))
                goto done;
        } else {
            in_sys--;
            busy--;
            if (t_arr[e.id] >= 0 && measuring) {
                sum_resp += e.t - t_arr[e.id];
                out->completed++;
                t_end = e.t;
            }
            freel[nfree++] = e.id;
            if (q.n) {
                busy++;
                if ((rc = heap_push(&h, e.t + iom_svc_sample(svc, &rng), EV_DEV_DONE,
                                    fifo_pop(&q))))
                    goto done;
            }
        }
    }
    (void)t_end;
    double window = t_last - t0;
    out->mean_response_s = out->completed ? sum_resp / (double)out->completed : 0;
    out->blocking = out->arrivals ? (double)out->blocked / (double)out->arrivals : 0;
    out->mean_in_system = window > 0 ? area / window : 0;
    out->throughput = window > 0 ? (double)(out->arrivals - out->blocked) / window : 0;
    rc = 0;
    goto done;
nomem:
    rc = -ENOMEM;
done:
    free(t_arr);
    free(freel);
    free(h.a);
    free(q.a);
    return rc;
}
