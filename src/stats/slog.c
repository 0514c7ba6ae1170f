/* slog.c - per-I/O sample logs of one worker (see slog.h). */
#include "stats/slog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct iom_slog *iom_slog_new(uint64_t avg_ns)
{
    struct iom_slog *l = calloc(1, sizeof(*l));
    if (l)
        l->avg_ns = avg_ns;
    return l;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -ENOMEM;
    memset((char *)q + *cap * elem, 0, (n - *cap) * elem);
    *p = q;
    *cap = n;
    return 0;
}

void iom_slog_add(struct iom_slog *l, uint64_t t_ns, int dir, uint32_t len, uint64_t lat_ns,
                  uint64_t offset, uint16_t prio)
{
    if (!l)
        return;
    if (t_ns > l->last_t_ns)
        l->last_t_ns = t_ns;
    if (l->avg_ns == 0) {
        if (grow((void **)&l->rec, &l->cap_rec, l->nr_rec + 1, sizeof(*l->rec))) {
            l->enomem = 1;
            return;
        }
        l->rec[l->nr_rec++] = (struct iom_slog_rec){.t_ns = t_ns, .lat_ns = lat_ns,
                                                    .offset = offset, .len = len,
                                                    .dir = (uint16_t)(dir < 0 || dir > 2 ? 1 : dir),
                                                    .prio = prio};
        return;
    }
    size_t k = (size_t)(t_ns / l->avg_ns);
    if (grow((void **)&l->win, &l->cap_win, k + 1, sizeof(*l->win))) {
        l->enomem = 1;
        return;
    }
    if (k + 1 > l->nr_win)
        l->nr_win = k + 1;
    struct iom_slog_win *w = &l->win[k];
    dir = dir < 0 || dir > 2 ? 1 : dir;
    w->ios[dir]++;
    w->bytes[dir] += len;
    w->lat_sum_ns[dir] += lat_ns;
}

int iom_slog_merge_windows(struct iom_slog *dst, const struct iom_slog *src)
{
    if (grow((void **)&dst->win, &dst->cap_win, src->nr_win, sizeof(*dst->win)))
        return -ENOMEM;
    for (size_t k = 0; k < src->nr_win; k++)
        for (int d = 0; d < 3; d++) {
            dst->win[k].ios[d] += src->win[k].ios[d];
            dst->win[k].bytes[d] += src->win[k].bytes[d];
            dst->win[k].lat_sum_ns[d] += src->win[k].lat_sum_ns[d];
        }
    if (src->nr_win > dst->nr_win)
        dst->nr_win = src->nr_win;
    if (src->last_t_ns > dst->last_t_ns)
        dst->last_t_ns = src->last_t_ns;
    dst->enomem |= src->enomem;
    return 0;
}

static int by_time(const void *a, const void *b)
{
    const struct iom_slog_rec *x = a, *y = b;
    return (x->t_ns > y->t_ns) - (x->t_ns < y->t_ns);
}

int iom_slog_merge_records(struct iom_slog *dst, const struct iom_slog *src)
{
    if (grow((void **)&dst->rec, &dst->cap_rec, dst->nr_rec + src->nr_rec, sizeof(*dst->rec)))
        return -ENOMEM;
    if (src->nr_rec)
        memcpy(dst->rec + dst->nr_rec, src->rec, src->nr_rec * sizeof(*src->rec));
    dst->nr_rec += src->nr_rec;
    if (dst->nr_rec > 1)
        qsort(dst->rec, dst->nr_rec, sizeof(*dst->rec), by_time);
    if (src->last_t_ns > dst->last_t_ns)
        dst->last_t_ns = src->last_t_ns;
    dst->enomem |= src->enomem;
    return 0;
}

uint64_t iom_slog_rate(uint64_t units, uint64_t spent_ms, int kib)
{
    if (!spent_ms)
        return 0;
    uint64_t r = units * 1000 / spent_ms;
    return kib ? r / 1024 : r;
}

void iom_slog_free(struct iom_slog *l)
{
    if (!l)
        return;
    free(l->rec);
    free(l->win);
    free(l);
}
