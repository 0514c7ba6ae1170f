/* test_import_props.c - a property over generated fio normal-output blocks
 * (issue 12): whatever the layout (fio 2.x or 3.x lines, indents of 0-4
 * spaces or a tab, k/M suffixes, read, write or both, one or several
 * blocks), an importer never reports 0 IOPS for a direction whose line
 * carries a non-zero IOPS figure; it reports exactly the printed figure.
 * The generator writes the figure; the check reads it back from the record. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "import/import.h"

static uint64_t lcg = 0x9e3779b97f4a7c15ULL;
static unsigned rnd(unsigned n)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((lcg >> 33) % n);
}

int main(void)
{
    static const char *indents[] = {"", " ", "  ", "   ", "    ", "\t"};
    int cases = 0;
    for (int iter = 0; iter < 3000; iter++) {
        char text[4096];
        size_t n = 0;
        int v2 = rnd(2), dirs = 1 + rnd(3); /* 1 read, 2 write, 3 both */
        unsigned blocks = 1 + rnd(3);
        double want[8][2];
        for (unsigned b = 0; b < blocks; b++) {
            n += (size_t)snprintf(text + n, sizeof(text) - n,
                                  "job%u: (groupid=0, jobs=1): err= 0: pid=%u: Mon Jan  1 00:00:00 2024\n", b,
                                  100 + b);
            for (int d = 0; d < 2; d++) {
                want[b][d] = 0;
                if (!(dirs & (1 << d)))
                    continue;
                const char *ind = indents[rnd(6)];
                unsigned ms = 1000 + rnd(300000);
                if (v2) {
                    unsigned iops = 1 + rnd(999999);
                    want[b][d] = iops;
                    n += (size_t)snprintf(text + n, sizeof(text) - n,
                                          "%s%s : io=%uKB, bw=%uKB/s, iops=%u, runt=%umsec\n", ind,
                                          d ? "write" : "read", 1 + rnd(1000000), 1 + rnd(100000), iops, ms);
                } else {
                    unsigned base = 1 + rnd(9999), sfx = rnd(3);
                    char fig[32];
                    if (sfx == 0) {
                        snprintf(fig, sizeof(fig), "%u", base);
                        want[b][d] = base;
                    } else {
                        snprintf(fig, sizeof(fig), "%u.%u%s", base / 10, base % 10, sfx == 1 ? "k" : "M");
                        want[b][d] = (base / 10 + (base % 10) / 10.0) * (sfx == 1 ? 1e3 : 1e6);
                    }
                    n += (size_t)snprintf(text + n, sizeof(text) - n,
                                          "%s%s: IOPS=%s, BW=1.0MiB/s (1.0MB/s)(%uMiB/%umsec)\n", ind,
                                          d ? "write" : "read", fig, 1 + rnd(5000), ms);
                }
                n += (size_t)snprintf(text + n, sizeof(text) - n,
                                      "%s  lat (usec): min=1, max=9, avg=5.5, stdev=1.0\n", ind);
            }
        }
        struct iom_imp_result *r = NULL;
        char err[300];
        int rc = iom_import_buffer("gen.txt", text, n, &r, err, sizeof(err));
        CHECK(rc == 0);
        if (rc) {
            fprintf(stderr, "%s\n---\n%s\n", err, text);
            break;
        }
        CHECK(r->nr_workloads == blocks);
        for (unsigned b = 0; b < blocks && b < r->nr_workloads; b++)
            for (int d = 0; d < 2; d++) {
                double got = r->w[b].runs[0].dir[d].iops;
                int good = fabs(got - want[b][d]) <= 1e-9 * want[b][d];
                CHECK(good);
                if (!good) {
                    fprintf(stderr, "block %u dir %d: got %g, want %g\n%s\n", b, d, got, want[b][d], text);
                    iter = 1 << 30;
                }
                cases++;
            }
        iom_imp_result_free(r);
    }
    printf("%d directions checked\n", cases);
    return check_status("import_props");
}
