/* test_options.c - the native option table: resulting spec field by field,
 * and refusals with the option named. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "workload/options.h"

static int parse(struct iom_job *j, struct iom_run_opts *ro, char *err, int argc, char **argv)
{
    iom_job_free(j);
    iom_job_defaults(j);
    memset(ro, 0, sizeof(*ro));
    err[0] = '\0';
    return iom_options_parse(argc, argv, 0, j, ro, err, 512);
}

int main(void)
{
    struct iom_job j;
    struct iom_run_opts ro;
    char err[512];
    iom_job_defaults(&j);

    /* defaults, documented in docs/options.md */
    CHECK(j.rw == IOM_RW_RANDREAD);
    CHECK_U64(j.bs_bytes, 4096);
    CHECK_U64(j.iodepth, 1);
    CHECK_U64(j.numjobs, 1);
    CHECK_U64(j.runtime_ns, 10000000000ULL);
    CHECK(j.direct);
#ifdef _WIN32 /* Windows has I/O completion ports, not io_uring or libaio */
#define DEFAULT_ENGINE "iocp"
#define OTHER_ENGINE "psync"
#else
#define DEFAULT_ENGINE "io_uring"
#define OTHER_ENGINE "libaio"
#endif
    CHECK(strcmp(j.ioengine, DEFAULT_ENGINE) == 0);

    char *a1[] = {"--rw=randrw", "--bs", "8k", "--iodepth=32", "--numjobs=4", "--rwmixread=70",
                  "--size=4GiB", "--offset=1M", "--runtime=1m", "--ramp_time=5s",
                  "--cooldown_time=2s", ("--ioengine=" OTHER_ENGINE), "--direct=0", "--sync=dsync",
                  "--rate_iops=500", "--sequential_shared", "--series_interval=250ms",
                  "--output-format=json", "--output=/tmp/x.json", "--quiet", "/dev/null", "f2"};
    CHECK(parse(&j, &ro, err, 22, a1) == 0);
    CHECK(j.rw == IOM_RW_RANDRW);
    CHECK_U64(j.bs_bytes, 8192);
    CHECK_U64(j.iodepth, 32);
    CHECK_U64(j.numjobs, 4);
    CHECK_U64(iom_job_read_pct(&j), 70);
    CHECK_U64(j.size_bytes, 4294967296ULL);
    CHECK_U64(j.offset_bytes, 1048576);
    CHECK_U64(j.runtime_ns, 60000000000ULL);
    CHECK_U64(j.ramp_ns, 5000000000ULL);
    CHECK_U64(j.cooldown_ns, 2000000000ULL);
    CHECK(strcmp(j.ioengine, OTHER_ENGINE) == 0);
    CHECK(!j.direct);
    CHECK(j.sync == IOM_SYNC_DSYNC);
    CHECK_U64(j.rate_iops, 500);
    CHECK(j.seq_shared);
    CHECK_U64(j.series_interval_ns, 250000000ULL);
    CHECK(ro.format == IOM_OUT_JSON);
    CHECK(ro.output_path && strcmp(ro.output_path, "/tmp/x.json") == 0);
    CHECK(ro.quiet);
    CHECK_U64(j.nr_targets, 2);
    CHECK(strcmp(j.targets[1], "f2") == 0);

    /* pure patterns ignore a mix given for them */
    char *a2[] = {"--rwmixread=30", "--rw=randread"};
    CHECK(parse(&j, &ro, err, 2, a2) == 0);
    CHECK_U64(iom_job_read_pct(&j), 100);
    char *a3[] = {"--rw=write", "--rwmixwrite=10", "--buffered"};
    CHECK(parse(&j, &ro, err, 3, a3) == 0);
    CHECK_U64(iom_job_read_pct(&j), 0);
    CHECK(!j.direct);

    /* bssplit with a share left empty: fio gives it the rest */
    char *a4[] = {"--bssplit=4k/50:8k/:64k/"};
    CHECK(parse(&j, &ro, err, 1, a4) == 0);
    CHECK_U64(j.nr_bssplit, 3);
    CHECK_U64(j.bssplit[0].pct + j.bssplit[1].pct + j.bssplit[2].pct, 100);
    CHECK_U64(j.bssplit[0].pct, 50);
    CHECK_U64(j.bssplit[2].bs_bytes, 65536);

    /* refusals: the option and the value are named */
    struct {
        const char *arg;
        const char *must_contain;
    } bad[] = {
        {"--bs=64D", "--bs=64D"},           {"--bs=0", "--bs=0"},
        {"--bs=1.5", "--bs=1.5"},           {"--iodepth=0", "--iodepth=0"},
        {"--iodepth=-1", "--iodepth=-1"},   {"--rwmixread=200", "--rwmixread=200"},
        {"--runtime=0", "must be a positive duration"}, {"--runtime=-5", "--runtime=-5"},
        {"--rw=randomread", "--rw=randomread"}, {"--ioengine=spdk", "--ioengine=spdk"},
        {"--iodeth=4", "did you mean --iodepth"}, {"--numjobs=5000", "--numjobs=5000"},
        {"--bssplit=4k/50:8k/60", "add up to 100"}, {"--random_distribution=zipf:1", "zipf"},
        {"--direct=2", "--direct=2"},       {"-o", "-o"},
        {"--output-format=xml", "normal, json"}, {"--size=-1G", "negative"},
        /* near misses beyond an edit distance of 3: a prefix, another tool's name */
        {"--blocksz=4k", "--blocksz: unknown option; did you mean --bs (iomark's name for --blocksize)?"},
        {"--queue-depth=4", "did you mean --iodepth (iomark's name for --queue_depth)?"},
        {"--ramp=1s", "--ramp: unknown option; did you mean --ramp_time?"},
        {"--rwmix=70", "did you mean --rwmixread?"},
        {"--threads=2", "did you mean --numjobs (iomark's name for --threads)?"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char *av[] = {(char *)bad[i].arg};
        int rc = parse(&j, &ro, err, 1, av);
        CHECK(rc == -EINVAL);
        CHECK(strstr(err, bad[i].must_contain) != NULL);
        CHECK(strchr(err, '\n') == NULL);
        if (!strstr(err, bad[i].must_contain))
            fprintf(stderr, "  %s -> '%s'\n", bad[i].arg, err);
    }

    /* fio's zoned pair without a range gets what the others leave: fio 3.33
     * --parse-only --debug=parse on examples/rand-zones.fio prints 50/5, 30/15, 20/80 */
    memset(&ro, 0, sizeof(ro));
    CHECK(iom_option_apply("random_distribution", "zoned:50/5:30/15:20/", &j, &ro, err,
                           sizeof(err)) == 0);
    CHECK_U64(j.nr_zones, 3);
    CHECK_U64(j.zones[0].access_pct, 50);
    CHECK_U64(j.zones[0].range_pct, 5);
    CHECK_U64(j.zones[1].range_pct, 15);
    CHECK_U64(j.zones[2].access_pct, 20);
    CHECK_U64(j.zones[2].range_pct, 80);
    /* startdelay: one time or a LOW-HIGH range (fio HOWTO: seconds without a unit) */
    CHECK(iom_option_apply("startdelay", "2-5", &j, &ro, err, sizeof(err)) == 0);
    CHECK_U64(j.startdelay_ns, 2000000000ULL);
    CHECK_U64(j.startdelay_hi_ns, 5000000000ULL);
    CHECK(iom_option_apply("startdelay", "5-2", &j, &ro, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "--startdelay=5-2") != NULL);
    /* CPU 0 exists everywhere: as a list and as fio's bit mask */
    memset(j.cpus, 0, sizeof(j.cpus));
    CHECK(iom_option_apply("cpus_allowed", "0", &j, &ro, err, sizeof(err)) == 0);
    CHECK_U64(j.cpus[0], 1);
    CHECK(iom_option_apply("cpumask", "0x1", &j, &ro, err, sizeof(err)) == 0);
    CHECK_U64(j.cpus[0], 1);
    CHECK(iom_option_apply("cpus_allowed", "0-", &j, &ro, err, sizeof(err)) == -EINVAL);
    /* numa_mem_policy: bind and interleave need nodes, prefer one node */
    CHECK(iom_option_apply("numa_mem_policy", "bind", &j, &ro, err, sizeof(err)) == -EINVAL);
    CHECK(iom_option_apply("numa_mem_policy", "prefer:0,1", &j, &ro, err, sizeof(err)) ==
          -EINVAL);
    CHECK(iom_option_apply("numa_mem_policy", "local", &j, &ro, err, sizeof(err)) == 0);
    CHECK_U64(j.mem_policy, 5); /* 1 + MPOL_LOCAL (4) */

    /* --direct and --buffered are one setting (fio: buffered=0 is direct=1): values
     * that disagree are refused naming both, in either order; agreeing ones apply */
    char *c1[] = {"--buffered=0", "--direct=0", "f"};
    CHECK(parse(&j, &ro, err, 3, c1) == -EINVAL);
    CHECK(strcmp(err, "--direct=0 and --buffered=0 conflict: --buffered=0 is direct I/O "
                      "(--direct=1), --buffered=1 is --direct=0; give one of them") == 0);
    char *c2[] = {"--direct", "--buffered", "f"};
    CHECK(parse(&j, &ro, err, 3, c2) == -EINVAL && strncmp(err, "--direct and --buffered conflict", 32) == 0);
    char *c3[] = {"--direct=1", "--buffered=0", "f"};
    CHECK(parse(&j, &ro, err, 3, c3) == 0 && j.direct);
    char *c4[] = {"--buffered", "--direct=0", "f"};
    CHECK(parse(&j, &ro, err, 3, c4) == 0 && !j.direct);
    /* fio's names iomark spells differently (fio 3.33 options.c aliases; loops) */
    const char *via;
    CHECK(strcmp(iom_option_suggest_via("loops", &via), "repeat") == 0 && strcmp(via, "loops") == 0);
    CHECK(strcmp(iom_option_suggest_via("ba", &via), "blockalign") == 0 && strcmp(via, "ba") == 0);
    CHECK(strcmp(iom_option_suggest_via("timeout", &via), "runtime") == 0 && via);
    CHECK(strcmp(iom_option_suggest_via("io_limit", &via), "io_size") == 0 && via);
    CHECK(strcmp(iom_option_suggest_via("steadystate", &via), "ss") == 0 && via);
    CHECK(strcmp(iom_option_suggest_via("iodepth", &via), "iodepth") == 0 && !via);
    CHECK(iom_option_apply("loops", "2", &j, &ro, err, sizeof(err)) == -ENOENT);
    CHECK(strcmp(err, "--loops: unknown option; did you mean --repeat (iomark's name for --loops)?") == 0);

    /* cross-field validation */
    const char *opt, *why;
    iom_job_free(&j);
    iom_job_defaults(&j);
    CHECK(iom_job_validate(&j, &opt, &why) == -EINVAL && strcmp(opt, "target") == 0);
    iom_job_add_target(&j, "x");
    CHECK(iom_job_validate(&j, &opt, &why) == 0);
    j.rate_iops = 10;
    j.rate_bytes_per_s = 10;
    CHECK(iom_job_validate(&j, &opt, &why) == -EINVAL && strcmp(opt, "rate") == 0);
    iom_job_free(&j);
    return check_status("test_options");
}
