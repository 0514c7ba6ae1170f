/* test_blockinfo.c - fio's block error histogram (stats/blockinfo.h), values
 * worked out by hand from fio 3.33 stat.c calc_block_percentiles: blocks sorted
 * by category (unwritten < trimmed/written < failed), then trim count; the
 * percentile p takes the block at (int)(p x (n - u) / 100) + u, u unwritten. */
#include <stdint.h>

#include "check.h"
#include "stats/blockinfo.h"

int main(void)
{
    uint32_t b[8] = {0};
    iom_block_trimmed(&b[1]);               /* trimmed once */
    iom_block_trimmed(&b[3]);
    for (int i = 0; i < 3; i++)
        iom_block_trimmed(&b[6]);           /* trimmed three times */
    iom_block_trimmed(&b[7]);
    iom_block_failed(&b[7], 0);             /* a write failure keeps its 1 trim */
    iom_block_trimmed(&b[7]);               /* and a failed block counts no more trims */
    CHECK_U64(b[7] & ((1u << IOM_BLOCK_STATE_SHIFT) - 1), 1);
    CHECK_U64(b[7] >> IOM_BLOCK_STATE_SHIFT, IOM_BLOCK_WRITE_FAILURE);
    iom_block_failed(&b[7], 1);             /* the first failure stays */
    CHECK_U64(b[7] >> IOM_BLOCK_STATE_SHIFT, IOM_BLOCK_WRITE_FAILURE);
    /* sorted: 4 unwritten, T1, T1, T3, WF1; u = 4 */
    const double pl[] = {1, 50, 75, 99};
    uint32_t out[4], st[IOM_BLOCK_STATES];
    CHECK_U64(iom_block_percentiles(b, 8, pl, 4, out, st), 4);
    CHECK_U64(out[0], 1); /* (int)(0.04) + 4 = 4: T1 */
    CHECK_U64(out[1], 3); /* 2 + 4 = 6: T3 */
    CHECK_U64(out[2], 1); /* 3 + 4 = 7: WF1, the failed block last */
    CHECK_U64(out[3], 1); /* (int)3.96 + 4 = 7 */
    CHECK_U64(st[IOM_BLOCK_UNINIT], 4);
    CHECK_U64(st[IOM_BLOCK_TRIMMED], 3);
    CHECK_U64(st[IOM_BLOCK_WRITE_FAILURE], 1);
    CHECK_U64(st[IOM_BLOCK_WRITTEN] + st[IOM_BLOCK_TRIM_FAILURE], 0);
    /* all unwritten: nothing (fio prints no percentiles) */
    uint32_t z[3] = {0};
    CHECK_U64(iom_block_percentiles(z, 3, pl, 4, out, st), 0);
    return check_status("test_blockinfo");
}
