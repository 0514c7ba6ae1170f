/* mpi_clock.c - the ranks' clocks: rank 0's CLOCK_MONOTONIC on each rank, and
 * monotonic instants on CLOCK_REALTIME (mpi.h). */
#include "mpi/mpi.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define TAG_CLOCK_UP 7105   /* rank -> rank 0: a ping */
#define TAG_CLOCK_DOWN 7106 /* rank 0 -> rank: its clock's reading */

int64_t iom_mpi_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t iom_mpi_to_realtime(uint64_t at)
{
    int64_t best = 0;
    uint64_t best_gap = UINT64_MAX;
    for (int i = 0; i < 3 && best_gap > 1000; i++) {
        uint64_t m1 = iom_now_ns();
        int64_t rt = iom_mpi_realtime_ns();
        uint64_t m2 = iom_now_ns();
        if (m2 - m1 < best_gap) {
            best_gap = m2 - m1;
            best = rt + ((int64_t)at - (int64_t)(m1 + (m2 - m1) / 2));
        }
    }
    return best;
}

/* Which CLOCK_MONOTONIC this process reads, into key (size n): the kernel's
 * boot (/proc/sys/kernel/random/boot_id) and the time namespace's offsets
 * (/proc/self/timens_offsets, Linux 5.6+: time_namespaces(7)); "" when
 * unknown. Processes with the same non-empty key read one clock. */
static void clock_key(char *key, size_t n)
{
    static const char *const files[] = {"/proc/sys/kernel/random/boot_id",
                                        "/proc/self/timens_offsets"};
    size_t used = 0;
    key[0] = 0;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        FILE *f = fopen(files[i], "r");
        if (!f) {
            if (i == 0)
                return; /* no boot id: the clock cannot be told apart */
            continue;   /* no time namespaces: no offsets */
        }
        used += fread(key + used, 1, n - 1 - used, f);
        key[used] = 0;
        fclose(f);
    }
}

/* Why a shared clock is not estimated: on a busy host even the shortest of
 * the 8 round trips has taken about 95 ms, and the estimate was then 48 ms
 * off; the ranks' windows were as far apart. */
void iom_mpi_clock_offset(int rank, int size, int64_t *offset_ns, int64_t *error_ns)
{
    enum { N = 8 };
    char key0[256], key[256];
    clock_key(key, sizeof(key));
    memcpy(key0, key, sizeof(key0));
    MPI_Bcast(key0, (int)sizeof(key0), MPI_CHAR, 0, MPI_COMM_WORLD);
    bool shared = key[0] && strcmp(key, key0) == 0;
    int64_t offset = 0;
    *offset_ns = *error_ns = 0;
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            for (int k = 0; k < N; k++) {
                int64_t t;
                MPI_Recv(&t, 1, MPI_INT64_T, i, TAG_CLOCK_UP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t = (int64_t)iom_now_ns();
                MPI_Send(&t, 1, MPI_INT64_T, i, TAG_CLOCK_DOWN, MPI_COMM_WORLD);
            }
        return;
    }
    int64_t best_rtt = INT64_MAX;
    for (int k = 0; k < N; k++) {
        int64_t t1 = (int64_t)iom_now_ns(), t0;
        MPI_Send(&t1, 1, MPI_INT64_T, 0, TAG_CLOCK_UP, MPI_COMM_WORLD);
        MPI_Recv(&t0, 1, MPI_INT64_T, 0, TAG_CLOCK_DOWN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int64_t t2 = (int64_t)iom_now_ns();
        if (t2 - t1 < best_rtt) {
            best_rtt = t2 - t1;
            offset = t0 - (t1 + (t2 - t1) / 2);
        }
    }
    if (!shared) {
        *offset_ns = offset;
        *error_ns = best_rtt / 2;
    }
}
