/* test_slog.c - the per-I/O sample logs of fio's write_*_log (stats/slog.h):
 * windows and records by hand-made I/O sequences; rates by fio 3.33's formula
 * (stat.c __add_samples: delta * 1000 / spent_ms, / 1024 for KiB/s), worked
 * out by hand below. */
#include <stdlib.h>

#include "check.h"
#include "stats/slog.h"

#define MS UINT64_C(1000000)

int main(void)
{
    /* averaged, 250 ms windows: 3 reads in the first, 1 write in the second, 2 reads
     * in the fourth (the third window empty) */
    struct iom_slog *a = iom_slog_new(250 * MS);
    CHECK(a != NULL);
    if (!a)
        return check_status("test_slog");
    iom_slog_add(a, 10 * MS, 0, 4096, 1000, 0, 0);
    iom_slog_add(a, 100 * MS, 0, 4096, 2000, 4096, 0);
    iom_slog_add(a, 249 * MS, 0, 8192, 3000, 8192, 0);
    iom_slog_add(a, 250 * MS, 1, 4096, 500, 0, 0);     /* 250 ms starts window 1 */
    iom_slog_add(a, 760 * MS, 0, 4096, 100, 0, 0);
    iom_slog_add(a, 999 * MS, 0, 4096, 300, 0, 0);
    CHECK_U64(a->nr_win, 4);
    CHECK_U64(a->nr_rec, 0);
    CHECK_U64(a->win[0].ios[0], 3);
    CHECK_U64(a->win[0].bytes[0], 16384);
    CHECK_U64(a->win[0].lat_sum_ns[0], 6000);
    CHECK_U64(a->win[1].ios[1], 1);
    CHECK_U64(a->win[1].ios[0], 0);
    CHECK_U64(a->win[2].ios[0] + a->win[2].ios[1], 0);
    CHECK_U64(a->win[3].ios[0], 2);
    CHECK_U64(a->last_t_ns, 999 * MS);
    /* a trim (fio's direction 2) counts in its own column, not as a write */
    iom_slog_add(a, 800 * MS, 2, 65536, 700, 0, 0);
    CHECK_U64(a->win[3].ios[2], 1);
    CHECK_U64(a->win[3].bytes[2], 65536);
    CHECK_U64(a->win[3].lat_sum_ns[2], 700);
    CHECK_U64(a->win[3].ios[1], 0);
    CHECK_U64(a->win[3].ios[0], 2);
    /* a second thread of the same clone: windows add up */
    struct iom_slog *b = iom_slog_new(250 * MS);
    CHECK(b != NULL);
    if (b) {
        iom_slog_add(b, 5 * MS, 0, 4096, 4000, 0, 0);
        iom_slog_add(b, 1100 * MS, 1, 4096, 700, 0, 0);
        CHECK(iom_slog_merge_windows(a, b) == 0);
        CHECK_U64(a->nr_win, 5);
        CHECK_U64(a->win[0].ios[0], 4);
        CHECK_U64(a->win[0].lat_sum_ns[0], 10000);
        CHECK_U64(a->win[4].ios[1], 1);
        CHECK_U64(a->last_t_ns, 1100 * MS);
    }
    /* fio's rates: 16384 bytes in 250 ms = 65536 B/s = 64 KiB/s; 3 I/Os in 250 ms = 12/s;
     * 4096 bytes in 3 ms: 4096000 / 3 = 1365333 B/s, / 1024 = 1333 KiB/s (integer steps) */
    CHECK_U64(iom_slog_rate(16384, 250, 1), 64);
    CHECK_U64(iom_slog_rate(3, 250, 0), 12);
    CHECK_U64(iom_slog_rate(4096, 3, 1), 1333);
    CHECK_U64(iom_slog_rate(5, 0, 0), 0);

    /* one record per I/O; merging two threads' records sorts them by time */
    struct iom_slog *r = iom_slog_new(0), *s = iom_slog_new(0);
    CHECK(r && s);
    if (r && s) {
        iom_slog_add(r, 30 * MS, 1, 8192, 900, 65536, 0);
        iom_slog_add(r, 10 * MS, 0, 4096, 800, 4096, 0);
        iom_slog_add(s, 20 * MS, 0, 4096, 700, 0, 0);
        CHECK_U64(r->nr_rec, 2);
        CHECK_U64(r->nr_win, 0);
        CHECK(iom_slog_merge_records(r, s) == 0);
        CHECK_U64(r->nr_rec, 3);
        CHECK_U64(r->rec[0].t_ns, 10 * MS);
        CHECK_U64(r->rec[1].t_ns, 20 * MS);
        CHECK_U64(r->rec[1].lat_ns, 700);
        CHECK_U64(r->rec[2].offset, 65536);
        CHECK_U64(r->rec[2].len, 8192);
        CHECK_U64(r->rec[2].dir, 1);
        CHECK(!r->enomem);
    }
    iom_slog_add(NULL, 1, 0, 1, 1, 0, 0); /* no-op */
    iom_slog_free(a);
    iom_slog_free(b);
    iom_slog_free(r);
    iom_slog_free(s);
    iom_slog_free(NULL);
    return check_status("test_slog");
}
