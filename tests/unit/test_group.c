/* test_group.c - iom_run_group runs jobs side by side: two 600 ms jobs on
 * the null engine finish in about 600 ms of wall time, not 1200 ms, and
 * each result is its own job's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/group.h"
#include "core/target.h"

int main(void)
{
    char dir[] = "/var/tmp/iomark-group.XXXXXX";
    if (!mkdtemp(dir))
        return 77;
    struct iom_job jobs[2];
    struct iom_target t[2];
    char path[2][300], err[600];
    for (int i = 0; i < 2; i++) {
        snprintf(path[i], sizeof(path[i]), "%s/f%d", dir, i);
        iom_job_defaults(&jobs[i]);
        strcpy(jobs[i].ioengine, "null");
        jobs[i].direct = false;
        jobs[i].size_bytes = 1 << 20;
        jobs[i].runtime_ns = 1500000000ULL;
        jobs[i].bs_bytes = i ? 8192 : 4096;
        iom_job_add_target(&jobs[i], path[i]);
        memset(&t[i], 0, sizeof(t[i]));
        if (iom_target_check(&jobs[i], path[i], &t[i], err, sizeof(err)) ||
            iom_target_prepare(&jobs[i], &t[i], NULL, NULL, NULL, err, sizeof(err)) ||
            iom_target_open(&jobs[i], &t[i], err, sizeof(err))) {
            fprintf(stderr, "skip: %s\n", err);
            return 77;
        }
    }
    const struct iom_job *jp[2] = {&jobs[0], &jobs[1]};
    struct iom_target *tp[2] = {&t[0], &t[1]};
    unsigned nr[2] = {1, 1};
    struct iom_result *out[2] = {NULL, NULL};
    uint64_t t0 = iom_now_ns();
    int rc = iom_run_group(jp, tp, nr, 2, NULL, NULL, out);
    double wall = (double)(iom_now_ns() - t0) / 1e9;
    CHECK(rc == 0);
    CHECK(out[0] && out[1]);
    CHECK(wall >= 1.5);
    if (out[0] && out[1]) {
        /* side by side: shorter than the two runs back to back, each as long
         * as it timed itself (a group run one after the other takes that plus
         * each run's set-up). 1.5 s runs leave 1.5 s for set-up on a busy
         * machine (0.42 s seen), where a fixed bound (1.0 s) did not. */
        double d[2];
        for (int i = 0; i < 2; i++)
            d[i] = (double)(out[i]->warmup_ns + out[i]->measured_ns + out[i]->cooldown_ns) / 1e9;
        CHECK(wall < d[0] + d[1]);
        CHECK_NEAR((double)out[0]->measured_ns / 1e9, 1.5, 0.1);
        CHECK_NEAR((double)out[1]->measured_ns / 1e9, 1.5, 0.1);
        CHECK(out[0]->total[0].ios > 0 && out[1]->total[0].ios > 0);
        /* each result is its own job's: 4 KiB and 8 KiB reads */
        CHECK_U64(out[0]->total[0].bytes, out[0]->total[0].ios * 4096);
        CHECK_U64(out[1]->total[0].bytes, out[1]->total[0].ios * 8192);
    }
    for (int i = 0; i < 2; i++) {
        iom_result_free(out[i]);
        iom_target_close(&t[i], true);
        iom_job_free(&jobs[i]);
    }
    rmdir(dir);
    printf("group wall time %.3f s\n", wall);
    return check_status("test_group");
}
