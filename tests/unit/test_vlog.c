/* test_vlog.c - the verify phase's write log (core/vlog.h) against fio 3.33's
 * rules, worked out by hand from iolog.c log_io_piece and verify.c
 * get_next_verify: with a random map the blocks come back in write order (a
 * list); otherwise by offset, and inserting a piece removes every older piece
 * it overlaps (the rb-tree insert's "overlap" branch). */
#include <stdio.h>

#include "check.h"
#include "core/vlog.h"

struct pc {
    uint64_t off;
    uint32_t len;
};

/* log the writes w[0..n), seal, and compare what comes back with want[0..m) */
static void expect(bool in_order, const struct pc *w, int n, const struct pc *want, int m)
{
    struct iom_vlog l = {0};
    iom_vlog_init(&l, in_order);
    for (int i = 0; i < n; i++)
        CHECK(iom_vlog_add(&l, w[i].off, w[i].len) == 0);
    iom_vlog_seal(&l);
    uint64_t off;
    uint32_t len;
    int k = 0;
    while (iom_vlog_next(&l, &off, &len)) {
        if (k < m) {
            CHECK_U64(off, want[k].off);
            CHECK_U64(len, want[k].len);
        }
        k++;
    }
    CHECK_U64(k, m);
    iom_vlog_free(&l);
}

int main(void)
{
    /* random map: write order, duplicates kept */
    const struct pc w1[] = {{8192, 4096}, {0, 4096}, {4096, 4096}};
    expect(true, w1, 3, w1, 3);
    /* by offset; a rewrite of 0 drops the older piece at 0 */
    const struct pc w2[] = {{8192, 4096}, {0, 4096}, {4096, 4096}, {0, 4096}};
    const struct pc r2[] = {{0, 4096}, {4096, 4096}, {8192, 4096}};
    expect(false, w2, 4, r2, 3);
    /* a later smaller write inside an older larger one: only the later is read */
    const struct pc w3[] = {{0, 8192}, {4096, 4096}};
    const struct pc r3[] = {{4096, 4096}};
    expect(false, w3, 2, r3, 1);
    /* a later larger write over an older smaller one (older starts after it) */
    const struct pc w4[] = {{4096, 4096}, {0, 8192}};
    const struct pc r4[] = {{0, 8192}};
    expect(false, w4, 2, r4, 1);
    /* adjacent pieces do not overlap: both stay, by offset */
    const struct pc w5[] = {{4096, 4096}, {0, 4096}};
    const struct pc r5[] = {{0, 4096}, {4096, 4096}};
    expect(false, w5, 2, r5, 2);
    /* the last write overlaps both earlier ones (8 KiB at 0 and 4 KiB at 8 KiB) */
    const struct pc w6[] = {{0, 8192}, {8192, 4096}, {4096, 8192}};
    const struct pc r6[] = {{4096, 8192}};
    expect(false, w6, 3, r6, 1);
    /* a later long write overlaps older pieces several places after it in offset
     * order (the backward scan), and leaves one within its length untouched */
    const struct pc w7[] = {{4096, 4096}, {8192, 4096}, {61440, 4096}, {0, 65536}};
    const struct pc r7[] = {{0, 65536}};
    expect(false, w7, 4, r7, 1);
    const struct pc w8[] = {{0, 4096}, {8192, 65536}};
    expect(false, w8, 2, w8, 2);
    /* nothing logged */
    expect(false, w1, 0, w1, 0);
    return check_status("test_vlog");
}
