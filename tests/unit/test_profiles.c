/* test_profiles.c - every SQL Server profile applies cleanly and gives the
 * pattern docs/profiles.md states (values written from the documented
 * pattern, not read back from the table), and later options override. */
#include <string.h>

#include "check.h"
#include "workload/options.h"
#include "workload/profiles.h"

#define KiB 1024ULL

int main(void)
{
    size_t n;
    const struct iom_profile *all = iom_profile_list(&n);
    CHECK_U64(n, 6);
    char err[300];
    for (size_t i = 0; i < n; i++) {
        struct iom_job j;
        iom_job_defaults(&j);
        CHECK(iom_profile_apply(&all[i], &j, err, sizeof(err)) == 0);
        CHECK(strcmp(j.name, all[i].name) == 0);
        CHECK(all[i].source && strstr(all[i].source, "https://") != NULL);
        CHECK(j.direct);
    }
    struct iom_job j;
    /* sql-oltp: 8 KiB random, 70 % reads, deep queue */
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-oltp"), &j, err, sizeof(err)) == 0);
    CHECK(j.rw == IOM_RW_RANDRW && j.bs_bytes == 8 * KiB && j.rwmixread_pct == 70);
    CHECK(j.iodepth >= 32);
    /* sql-log: sequential writes up to 60 KiB, write-through, QD1 */
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-log"), &j, err, sizeof(err)) == 0);
    CHECK(j.rw == IOM_RW_WRITE && j.sync == IOM_SYNC_DSYNC && j.iodepth == 1 && j.numjobs == 1);
    CHECK_U64(iom_job_max_bs(&j), 60 * KiB);
    uint32_t sum = 0;
    for (uint32_t k = 0; k < j.nr_bssplit; k++) {
        sum += j.bssplit[k].pct;
        CHECK(j.bssplit[k].bs_bytes % 512 == 0 && j.bssplit[k].bs_bytes <= 60 * KiB);
    }
    CHECK_U64(sum, 100);
    /* sql-readahead: 512 KiB sequential reads; sql-backup: 1 MiB sequential reads */
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-readahead"), &j, err, sizeof(err)) == 0);
    CHECK(j.rw == IOM_RW_READ && j.bs_bytes == 512 * KiB);
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-backup"), &j, err, sizeof(err)) == 0);
    CHECK(j.rw == IOM_RW_READ && j.bs_bytes == 1024 * KiB);
    /* sql-checkpoint: 256 KiB random writes; sql-tempdb: 64 KiB mixed */
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-checkpoint"), &j, err, sizeof(err)) == 0);
    CHECK(j.rw == IOM_RW_RANDWRITE && j.bs_bytes == 256 * KiB);
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-tempdb"), &j, err, sizeof(err)) == 0);
    CHECK(j.rw == IOM_RW_RANDRW && j.bs_bytes == 64 * KiB);
    /* options after the profile override it; the rest stays */
    iom_job_defaults(&j);
    CHECK(iom_profile_apply(iom_profile_find("sql-oltp"), &j, err, sizeof(err)) == 0);
    struct iom_run_opts ro = {0};
    char *argv[] = {"--bs=16k", "--iodepth=4", "t.dat"};
    CHECK(iom_options_parse(3, argv, 0, &j, &ro, err, sizeof(err)) == 0);
    CHECK(j.bs_bytes == 16 * KiB && j.iodepth == 4 && j.rwmixread_pct == 70 && j.rw == IOM_RW_RANDRW);
    iom_job_free(&j);
    CHECK(iom_profile_find("nope") == NULL);
    return check_status("test_profiles");
}
