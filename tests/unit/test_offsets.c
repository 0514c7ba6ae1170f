/* test_offsets.c - offset generators: alignment, bounds, disjoint regions,
 * distributions. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/offsets.h"
#include "workload/options.h"

static void base_job(struct iom_job *j, enum iom_rw rw, uint64_t bs)
{
    iom_job_defaults(j);
    j->rw = rw;
    j->bs_bytes = bs;
}

/* random offsets: aligned to blockalign, inside [start, start+len-bs] */
static void check_random_range(uint64_t start, uint64_t len, uint64_t bs, uint64_t align)
{
    struct iom_job j;
    base_job(&j, IOM_RW_RANDREAD, bs);
    j.blockalign_bytes = align;
    struct iom_offgen g;
    const char *why;
    CHECK(iom_offgen_init(&g, &j, start, len, 0, 1, NULL, 7, &why) == 0);
    uint64_t lo = UINT64_MAX, hi = 0;
    int bad_align = 0, out = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t off = iom_offgen_next(&g, (uint32_t)bs);
        if ((off - start) % align)
            bad_align++;
        if (off < start || off + bs > start + len)
            out++;
        lo = off < lo ? off : lo;
        hi = off > hi ? off : hi;
    }
    CHECK(bad_align == 0);
    CHECK(out == 0);
    /* the top of the range is reached: the highest offset is in the last 1% */
    CHECK((double)(hi - start) > 0.99 * (double)(len - bs));
    CHECK((double)(lo - start) < 0.01 * (double)len);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* fio's random map (issue 19): N random I/Os over N blocks touch each block
 * exactly once, pass after pass; counted here, independently of the generator */
static void test_random_map(void)
{
    struct iom_job j;
    base_job(&j, IOM_RW_RANDREAD, 4096);
    j.random_map = true;
    const uint64_t n = 1000, start = 8192;
    struct iom_offgen g;
    const char *why;
    CHECK(iom_offgen_init(&g, &j, start, n * 4096 + 100, 0, 1, NULL, 5, &why) == 0);
    CHECK(g.map != NULL);
    unsigned *hits = calloc(n, sizeof(*hits));
    for (int pass = 1; pass <= 3; pass++) {
        int bad = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint32_t bs = 4096;
            uint64_t off = iom_offgen_take(&g, &bs);
            if (bs != 4096 || off < start || (off - start) % 4096 || (off - start) / 4096 >= n)
                bad++;
            else
                hits[(off - start) / 4096]++;
        }
        CHECK_U64(bad, 0);
        uint64_t wrong = 0;
        for (uint64_t b = 0; b < n; b++)
            wrong += hits[b] != (unsigned)pass;
        CHECK_U64(wrong, 0);
    }
    iom_offgen_free(&g);
    /* without the map (fio's norandommap): draws with replacement; with 1000
     * draws over 1000 blocks about 1000/e blocks are missed (368 expected) */
    j.random_map = false;
    memset(hits, 0, n * sizeof(*hits));
    CHECK(iom_offgen_init(&g, &j, 0, n * 4096, 0, 1, NULL, 5, &why) == 0);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t bs = 4096;
        hits[iom_offgen_take(&g, &bs) / 4096]++;
    }
    uint64_t missed = 0;
    for (uint64_t b = 0; b < n; b++)
        missed += hits[b] == 0;
    CHECK(missed > 300 && missed < 440);
    iom_offgen_free(&g);
    /* mixed sizes: a block over used units is cut to the free run (fio's
     * mark_random_map); one pass moves exactly the region's bytes */
    base_job(&j, IOM_RW_RANDREAD, 4096);
    j.random_map = true;
    j.nr_bssplit = 2;
    j.bssplit[0].bs_bytes = 4096;
    j.bssplit[0].pct = 50;
    j.bssplit[1].bs_bytes = 65536;
    j.bssplit[1].pct = 50;
    const uint64_t len = 16 << 20;
    CHECK(iom_offgen_init(&g, &j, 0, len, 0, 1, NULL, 9, &why) == 0);
    unsigned char *seen = calloc(len / 4096, 1);
    uint64_t bytes = 0, ios = 0, overlap = 0;
    while (bytes < len && ios < len / 4096 + 1) {
        uint32_t bs = iom_offgen_bs(&g);
        uint64_t off = iom_offgen_take(&g, &bs);
        for (uint64_t u = off / 4096; u < (off + bs) / 4096; u++)
            overlap += seen[u]++ != 0;
        bytes += bs;
        ios++;
    }
    CHECK_U64(bytes, len);
    CHECK_U64(overlap, 0);
    free(seen);
    iom_offgen_free(&g);
    /* a region too large for the bitmap: the permutation, distinct offsets */
    base_job(&j, IOM_RW_RANDREAD, 512);
    j.random_map = true;
    CHECK(iom_offgen_init(&g, &j, 0, (IOM_OFFGEN_MAP_MAX_UNITS + 5) * 512, 0, 1, NULL, 3, &why) == 0);
    CHECK(g.perm && !g.map);
    const int m = 200000;
    uint64_t *offs = malloc(m * sizeof(*offs));
    for (int i = 0; i < m; i++) {
        uint32_t bs = 512;
        offs[i] = iom_offgen_take(&g, &bs);
    }
    qsort(offs, m, sizeof(*offs), cmp_u64);
    uint64_t dup = 0;
    for (int i = 1; i < m; i++)
        dup += offs[i] == offs[i - 1];
    CHECK_U64(dup, 0);
    CHECK(offs[m - 1] < (IOM_OFFGEN_MAP_MAX_UNITS + 5) * 512);
    free(offs);
    free(hits);
}

int main(void)
{
    test_random_map();
    check_random_range(0, 1 << 20, 4096, 4096);
    check_random_range(0, 1 << 20, 4096, 512);   /* 512-byte random alignment */
    check_random_range(8192, (1 << 20) + 1000, 4096, 4096); /* length not a block multiple */
    check_random_range(0, UINT64_C(6) << 30, 4096, 4096);   /* past 4 GiB */
    check_random_range(UINT64_C(1) << 40, UINT64_C(3) << 40, 65536, 65536); /* several TiB */
    check_random_range(0, UINT64_C(5) << 40, 8192, 8192);

    /* sequential, 4 threads: disjoint slices, each a whole number of blocks,
     * each thread walks its slice in order and wraps */
    struct iom_job j;
    base_job(&j, IOM_RW_READ, 65536);
    uint64_t len = (UINT64_C(5) << 30) + 12345; /* 5 GiB and a tail */
    uint64_t starts[4], ends[4];
    for (unsigned t = 0; t < 4; t++) {
        struct iom_offgen g;
        const char *why;
        CHECK(iom_offgen_init(&g, &j, 0, len, t, 4, NULL, t, &why) == 0);
        uint64_t first = iom_offgen_next(&g, 65536), prev = first, n = 1;
        starts[t] = first;
        ends[t] = first;
        for (;;) {
            uint64_t off = iom_offgen_next(&g, 65536);
            if (off == first)
                break; /* wrapped */
            CHECK_U64(off, prev + 65536);
            if (off != prev + 65536)
                break;
            prev = off;
            ends[t] = off + 65536;
            n++;
        }
        CHECK_U64(starts[t] % 65536, 0);
        CHECK(ends[t] <= len);
        CHECK_U64(n, (len / 4 / 65536)); /* slice = floor(len/4) rounded down to blocks */
    }
    for (unsigned t = 0; t + 1 < 4; t++)
        CHECK(ends[t] <= starts[t + 1]);

    /* shared sequential offset (DiskSpd -si): two generators interleave one sequence */
    j.seq_shared = true;
    uint64_t counter = 0;
    struct iom_offgen g1, g2;
    const char *why;
    iom_offgen_init(&g1, &j, 0, UINT64_C(1) << 20, 0, 2, &counter, 1, &why);
    iom_offgen_init(&g2, &j, 0, UINT64_C(1) << 20, 1, 2, &counter, 2, &why);
    CHECK_U64(iom_offgen_next(&g1, 65536), 0);
    CHECK_U64(iom_offgen_next(&g2, 65536), 65536);
    CHECK_U64(iom_offgen_next(&g1, 65536), 131072);
    j.seq_shared = false;

    /* slices too small for the threads: refused with a reason */
    CHECK(iom_offgen_init(&g1, &j, 0, 65536 * 3, 0, 4, NULL, 1, &why) == -22);

    /* read/write mix: 70% reads within 1% over 100000 draws (binomial sd 0.14%) */
    base_job(&j, IOM_RW_RANDRW, 4096);
    j.rwmixread_pct = 70;
    iom_offgen_init(&g1, &j, 0, 1 << 30, 0, 1, NULL, 3, &why);
    int reads = 0;
    for (int i = 0; i < 100000; i++)
        reads += iom_offgen_is_read(&g1);
    CHECK(fabs(reads / 100000.0 - 0.70) < 0.01);

    /* bssplit 4k/60:64k/40: shares within 1%, offsets aligned to 4k and in range */
    char err[256];
    struct iom_run_opts ro = {0};
    base_job(&j, IOM_RW_RANDREAD, 4096);
    CHECK(iom_option_apply("bssplit", "4k/60:64k/40", &j, &ro, err, sizeof(err)) == 0);
    iom_offgen_init(&g1, &j, 0, 1 << 20, 0, 1, NULL, 9, &why);
    int small = 0, out = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t bs = iom_offgen_bs(&g1);
        uint64_t off = iom_offgen_next(&g1, bs);
        small += bs == 4096;
        out += off % 4096 != 0 || off + bs > (1 << 20);
    }
    CHECK(fabs(small / 100000.0 - 0.60) < 0.01);
    CHECK(out == 0);

    /* zoned:80/20:20/80 -> 80% of accesses in the first 20% of the range */
    base_job(&j, IOM_RW_RANDREAD, 4096);
    CHECK(iom_option_apply("random_distribution", "zoned:80/20:20/80", &j, &ro, err, sizeof(err)) == 0);
    iom_offgen_init(&g1, &j, 0, UINT64_C(1) << 30, 0, 1, NULL, 11, &why);
    int hot = 0;
    out = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t off = iom_offgen_next(&g1, 4096);
        hot += off < (UINT64_C(1) << 30) / 5;
        out += off % 4096 != 0 || off + 4096 > (UINT64_C(1) << 30);
    }
    CHECK(fabs(hot / 100000.0 - 0.80) < 0.01);
    CHECK(out == 0);

    /* zipf:1.2 over 1024 blocks: rank frequencies follow k^-1.2. The most
     * frequent block's share must be 1/H(1024,1.2) within 5% (H computed here). */
    base_job(&j, IOM_RW_RANDREAD, 4096);
    CHECK(iom_option_apply("random_distribution", "zipf:1.2", &j, &ro, err, sizeof(err)) == 0);
    iom_offgen_init(&g1, &j, 0, 1024 * 4096, 0, 1, NULL, 13, &why);
    static unsigned counts[1024];
    for (int i = 0; i < 400000; i++) {
        uint64_t off = iom_offgen_next(&g1, 4096);
        if (off % 4096 == 0 && off < 1024 * 4096)
            counts[off / 4096]++;
        else
            CHECK(!"zipf offset out of range");
    }
    double hsum = 0;
    for (int k = 1; k <= 1024; k++)
        hsum += pow(k, -1.2);
    unsigned top = 0;
    for (int k = 0; k < 1024; k++)
        top = counts[k] > top ? counts[k] : top;
    CHECK_NEAR(top / 400000.0, 1.0 / hsum, 0.05);

    /* pareto:0.9 stays in range */
    CHECK(iom_option_apply("random_distribution", "pareto:0.9", &j, &ro, err, sizeof(err)) == 0);
    iom_offgen_init(&g1, &j, 0, UINT64_C(1) << 32, 0, 1, NULL, 17, &why);
    out = 0;
    for (int i = 0; i < 100000; i++) {
        uint64_t off = iom_offgen_next(&g1, 4096);
        out += off % 4096 != 0 || off + 4096 > (UINT64_C(1) << 32);
    }
    CHECK(out == 0);
    /* unused tail: 1 MiB + 1000 bytes with 4 KiB random blocks leaves 1000
     * bytes (the last block starts at 255 x 4096); sequential with 4 threads
     * over 5 GiB + 12345 bytes in 64 KiB blocks leaves the 12345 */
    base_job(&j, IOM_RW_RANDREAD, 4096);
    CHECK_U64(iom_offgen_unused_tail(&j, (1 << 20) + 1000, 1), 1000);
    CHECK_U64(iom_offgen_unused_tail(&j, 1 << 20, 1), 0);
    base_job(&j, IOM_RW_READ, 65536);
    CHECK_U64(iom_offgen_unused_tail(&j, (UINT64_C(5) << 30) + 12345, 4), 12345);
    CHECK_U64(iom_offgen_unused_tail(&j, 65536 * 3 + 100, 1), 100);
    iom_job_free(&j);
    return check_status("test_offsets");
}
