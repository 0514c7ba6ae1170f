/* test_cpu_percpu.c - per-CPU use from two /proc/stat samples (DiskSpd's
 * per-CPU table): figures computed by hand from the fake files below. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "stats/cpu.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    char a[] = "/tmp/iomark-cpu-a.XXXXXX", b[] = "/tmp/iomark-cpu-b.XXXXXX";
    int fa = mkstemp(a), fb = mkstemp(b);
    if (fa < 0 || fb < 0)
        return 77;
    close(fa);
    close(fb);
    /* columns: user nice system idle iowait irq softirq steal guest guest_nice */
    write_file(a, "cpu  1000 0 500 8000 100 0 0 0 0 0\n"
                  "cpu0 500 0 250 4000 50 0 0 0 0 0\n"
                  "cpu1 500 0 250 4000 50 0 0 0 0 0\n"
                  "intr 12345\n");
    /* over the interval cpu0: +60 user, +20 system, +10 idle, +10 iowait (100 ticks);
     * cpu1: +10 user, +5 nice, +5 softirq, +80 idle (100 ticks) */
    write_file(b, "cpu  1070 5 520 8090 110 0 5 0 0 0\n"
                  "cpu0 560 0 270 4010 60 0 0 0 0 0\n"
                  "cpu1 510 5 250 4080 50 0 5 0 0 0\n"
                  "intr 12399\n");
    struct iom_cpu_sample *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
    struct iom_cpu_usage *u = malloc(sizeof(*u));
    if (!sa || !sb || !u)
        return 1;
    CHECK(iom_cpu_sample_take(sa, a) == 0);
    CHECK(iom_cpu_sample_take(sb, b) == 0);
    CHECK_U64(sa->nr_percpu, 2);
    CHECK_U64(sb->percpu[1].nice, 5);
    iom_cpu_usage_between(sa, sb, u);
    CHECK_U64(u->nr_percpu, 2);
    CHECK_U64(u->percpu[0].id, 0);
    CHECK_NEAR(u->percpu[0].user_pct, 60.0, 1e-12);
    CHECK_NEAR(u->percpu[0].system_pct, 20.0, 1e-12);
    CHECK_NEAR(u->percpu[0].idle_pct, 10.0, 1e-12);
    CHECK_NEAR(u->percpu[0].iowait_pct, 10.0, 1e-12);
    CHECK_NEAR(u->percpu[1].user_pct, 15.0, 1e-12);   /* user + nice */
    CHECK_NEAR(u->percpu[1].system_pct, 5.0, 1e-12);  /* system + irq + softirq */
    CHECK_NEAR(u->percpu[1].idle_pct, 80.0, 1e-12);
    /* the sums: 200 ticks, 75 user+nice, 25 system+softirq, 90 idle, 10 iowait */
    CHECK_NEAR(u->user_pct, 37.5, 1e-12);
    CHECK_NEAR(u->system_pct, 12.5, 1e-12);
    CHECK_NEAR(u->idle_pct, 45.0, 1e-12);
    /* a CPU missing from the earlier sample (went online) is left out */
    write_file(b, "cpu  1 0 0 1 0 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0 0 0\ncpu7 1 0 0 1 0 0 0 0 0 0\n");
    CHECK(iom_cpu_sample_take(sb, b) == 0);
    iom_cpu_usage_between(sa, sb, u);
    CHECK_U64(u->nr_percpu, 1);
    unlink(a);
    unlink(b);
    free(sa);
    free(sb);
    free(u);
    return check_status("test_cpu_percpu");
}
