/*
 * test_mpi_tpcc_share.c - how `iomark tpcc run` under MPI spreads --vu over
 * the ranks (iom_mpi_tpcc_share, docs/mpi.md "tpcc across ranks"), against
 * values worked out by hand and against the definition:
 *  - 8 VUs on 4 ranks: 2 each, VUs 0-1, 2-3, 4-5, 6-7 (0-based);
 *  - 5 VUs on 2 ranks: rank 0 VUs 0-2, rank 1 VUs 3-4;
 *  - 2 VUs on 3 ranks: rank 0 VU 0, rank 1 VU 1, rank 2 none;
 *  - for every vu 0..200 and 1..17 ranks: the ranks' ranges follow each
 *    other from 0 without gap or overlap and end at vu, and the counts
 *    differ by at most one, the larger ones first.
 * Skipped (77) when iomark is built without MPI. Pure arithmetic: MPI is
 * never initialised.
 */
#include <stdbool.h>
#include <stdio.h>

#ifdef IOMARK_HAVE_MPI
#include "check.h"
#include "mpi/mpi_tpcc.h"

static void hand(unsigned vu, int size, int rank, unsigned want_first, unsigned want_count)
{
    unsigned first = 99, count = 99;
    iom_mpi_tpcc_share(vu, rank, size, &first, &count);
    if (first != want_first || count != want_count)
        fprintf(stderr, "%u VUs on %d ranks, rank %d:\n", vu, size, rank);
    CHECK_U64(first, want_first);
    CHECK_U64(count, want_count);
}

int main(void)
{
    for (int r = 0; r < 4; r++)
        hand(8, 4, r, 2u * (unsigned)r, 2);
    hand(5, 2, 0, 0, 3);
    hand(5, 2, 1, 3, 2);
    hand(2, 3, 0, 0, 1);
    hand(2, 3, 1, 1, 1);
    hand(2, 3, 2, 2, 0);
    for (unsigned vu = 0; vu <= 200; vu++)
        for (int size = 1; size <= 17; size++) {
            unsigned next = 0, prev_count = 0;
            for (int r = 0; r < size; r++) {
                unsigned first, count;
                iom_mpi_tpcc_share(vu, r, size, &first, &count);
                bool ok = first == next &&
                          (r == 0 || (count <= prev_count && prev_count - count <= 1));
                if (!ok)
                    fprintf(stderr, "vu %u size %d rank %d: first %u count %u\n", vu, size, r,
                            first, count);
                CHECK(ok);
                next = first + count;
                prev_count = count;
            }
            CHECK_U64(next, vu);
        }
    return check_status("test_mpi_tpcc_share");
}
#else
int main(void)
{
    printf("SKIP: built without MPI\n");
    return 77;
}
#endif
