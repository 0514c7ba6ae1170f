/* cmdprio.c - a worker's per-I/O priority state (see cmdprio.h). */
#include "core/cmdprio.h"

#include <string.h>

void iom_cmdprio_init(struct iom_cmdprio *c, const struct iom_job *job, uint64_t seed)
{
    memset(c, 0, sizeof(*c));
    iom_rng_seed(&c->rng, seed ^ 0x10b410ULL);
    for (int d = 0; d < 2; d++) {
        unsigned cls = job->cmdprio_class[d] ? job->cmdprio_class[d] : 1; /* fio: RT */
        c->prio[d] = (uint16_t)((cls << 13) | job->cmdprio_level[d]);
        c->pct[d] = job->cmdprio_pct[d];
        c->bs[d] = job->cmdprio_bs[d];
        c->nr_bs[d] = job->nr_cmdprio_bs[d];
    }
}
