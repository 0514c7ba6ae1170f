/* blockinfo.c - fio's block error histogram (blockinfo.h). */
#include "stats/blockinfo.h"

#include <stdlib.h>
#include <string.h>

const char *const iom_block_state_names[IOM_BLOCK_STATES] = {
    "unwritten", "trimmed", "written", "trim failure", "write failure"};

static uint32_t state_of(uint32_t info)
{
    return info >> IOM_BLOCK_STATE_SHIFT;
}

static uint32_t trims_of(uint32_t info)
{
    return info & ((1u << IOM_BLOCK_STATE_SHIFT) - 1);
}

void iom_block_trimmed(uint32_t *info)
{
    if (state_of(*info) >= IOM_BLOCK_TRIM_FAILURE)
        return;
    *info = ((uint32_t)IOM_BLOCK_TRIMMED << IOM_BLOCK_STATE_SHIFT) | (trims_of(*info) + 1);
}

void iom_block_failed(uint32_t *info, int trim)
{
    if (state_of(*info) >= IOM_BLOCK_TRIM_FAILURE)
        return;
    uint32_t s = trim ? IOM_BLOCK_TRIM_FAILURE : IOM_BLOCK_WRITE_FAILURE;
    *info = (s << IOM_BLOCK_STATE_SHIFT) | trims_of(*info);
}

/* fio block_state_category: 0 unwritten, 1 trimmed or written, 2 failed */
static int category(uint32_t state)
{
    return state == IOM_BLOCK_UNINIT ? 0 : state <= IOM_BLOCK_WRITTEN ? 1 : 2;
}

static int cmp_info(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    int ca = category(state_of(a)), cb = category(state_of(b));
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (trims_of(a) != trims_of(b))
        return trims_of(a) < trims_of(b) ? -1 : 1;
    return state_of(a) < state_of(b) ? -1 : state_of(a) > state_of(b);
}

uint32_t iom_block_percentiles(const uint32_t *infos, uint32_t n, const double *plist, uint32_t np,
                               uint32_t *out, uint32_t states[IOM_BLOCK_STATES])
{
    if (!n || !np)
        return 0;
    uint32_t *s = malloc((size_t)n * sizeof(*s));
    if (!s)
        return 0;
    memcpy(s, infos, (size_t)n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_info);
    uint32_t u = 0;
    while (u < n && state_of(s[u]) == IOM_BLOCK_UNINIT)
        u++;
    if (u == n) {
        free(s);
        return 0;
    }
    for (uint32_t i = 0; i < np; i++) {
        uint64_t idx = (uint64_t)(plist[i] * (double)(n - u) / 100) + u; /* fio: int conversion */
        out[i] = trims_of(s[idx < n ? idx : n - 1]);
    }
    memset(states, 0, IOM_BLOCK_STATES * sizeof(*states));
    for (uint32_t i = 0; i < n; i++)
        if (state_of(s[i]) < IOM_BLOCK_STATES)
            states[state_of(s[i])]++;
    free(s);
    return np;
}
