/* vlog.c - the blocks a verify job wrote, read back in fio's order (vlog.h). */
#include "core/vlog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void iom_vlog_init(struct iom_vlog *l, bool in_order)
{
    memset(l, 0, sizeof(*l));
    l->on = true;
    l->in_order = in_order;
}

int iom_vlog_add(struct iom_vlog *l, uint64_t offset, uint32_t len)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 1024;
        struct iom_vlog_piece *p = realloc(l->p, cap * sizeof(*p));
        if (!p)
            return -ENOMEM;
        l->p = p;
        l->cap = cap;
    }
    l->p[l->n] = (struct iom_vlog_piece){.offset = offset, .len = len, .seq = (uint32_t)l->n};
    l->n++;
    return 0;
}

/* by offset, then by write order */
static int by_offset(const void *a, const void *b)
{
    const struct iom_vlog_piece *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* whether piece j was written after piece i (seq wraps at 2^32 writes: by distance) */
static bool later(const struct iom_vlog_piece *i, const struct iom_vlog_piece *j)
{
    return (int32_t)(j->seq - i->seq) > 0;
}

void iom_vlog_seal(struct iom_vlog *l)
{
    l->next = 0;
    if (l->in_order || l->n < 2)
        return;
    qsort(l->p, l->n, sizeof(*l->p), by_offset);
    uint32_t maxlen = 0;
    for (size_t i = 0; i < l->n; i++)
        maxlen = l->p[i].len > maxlen ? l->p[i].len : maxlen;
    /* a piece survives when no later write overlaps it: the overlapping pieces
     * start within (offset - maxlen, offset + len), neighbours in this order */
    bool *gone = calloc(l->n, sizeof(*gone));
    if (!gone)
        return; /* no memory: every piece is read back (still each checked) */
    for (size_t i = 0; i < l->n; i++) {
        const struct iom_vlog_piece *a = &l->p[i];
        for (size_t j = i + 1; j < l->n && l->p[j].offset < a->offset + a->len && !gone[i]; j++)
            if (later(a, &l->p[j]))
                gone[i] = true;
        for (size_t j = i; j-- > 0 && l->p[j].offset + maxlen > a->offset && !gone[i];)
            if (l->p[j].offset + l->p[j].len > a->offset && later(a, &l->p[j]))
                gone[i] = true;
    }
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++)
        if (!gone[i])
            l->p[k++] = l->p[i];
    l->n = k;
    free(gone);
}

bool iom_vlog_next(struct iom_vlog *l, uint64_t *offset, uint32_t *len)
{
    if (l->next >= l->n)
        return false;
    *offset = l->p[l->next].offset;
    *len = l->p[l->next].len;
    l->next++;
    return true;
}

void iom_vlog_clear(struct iom_vlog *l)
{
    l->n = l->next = 0;
}

void iom_vlog_free(struct iom_vlog *l)
{
    free(l->p);
    l->p = NULL;
    l->n = l->cap = l->next = 0;
}
