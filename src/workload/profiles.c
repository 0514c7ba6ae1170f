/* profiles.c - the SQL Server I/O profiles (see profiles.h, docs/profiles.md). */
#include "workload/profiles.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload/args.h"
#include "workload/options.h"

#define MS_LEARN "https://learn.microsoft.com/en-us/sql/relational-databases/"

static const struct iom_profile profiles[] = {
    {"sql-oltp", "data-file I/O of an OLTP load: 8 KiB page reads and writes at random, 70% reads, "
                 "deep queue",
     "rw=randrw bs=8k rwmixread=70 iodepth=32 numjobs=4 direct=1",
     MS_LEARN "pages-and-extents-architecture-guide (8 KiB pages); DiskSpd SQL guidance "
              "-b8K -r -w30 -t8 -o32 (github.com/iczerjones/oltptest diskspd_test.ps1)"},
    {"sql-log", "transaction-log flushes: sequential writes of log blocks up to 60 KiB, "
                "write-through, one outstanding write",
     "rw=write bssplit=4k/40:8k/20:16k/15:32k/10:60k/15 iodepth=1 numjobs=1 direct=1 sync=dsync",
     MS_LEARN "sql-server-transaction-log-architecture-and-management-guide (log blocks up to "
              "60 KB, written with FUA/write-through)"},
    {"sql-readahead", "read-ahead of table and index scans: sequential 512 KiB reads",
     "rw=read bs=512k iodepth=8 numjobs=1 direct=1",
     MS_LEARN "reading-pages (read-ahead reads up to 64 contiguous pages, 512 KB, per I/O)"},
    {"sql-checkpoint", "checkpoint and lazy writer: bursts of 256 KiB writes to random places "
                       "of the data files",
     "rw=randwrite bs=256k iodepth=32 numjobs=1 direct=1 thinktime=1s thinktime_blocks=2048",
     MS_LEARN "writing-pages (checkpoint gathers up to 32 contiguous dirty pages, 256 KB, per "
              "write)"},
    {"sql-backup", "full backup: sequential 1 MiB reads of the data files",
     "rw=read bs=1m iodepth=8 numjobs=1 direct=1",
     "https://learn.microsoft.com/en-us/sql/t-sql/statements/backup-transact-sql "
     "(MAXTRANSFERSIZE, 1 MB default on disk)"},
    {"sql-tempdb", "tempdb spills and version store: 64 KiB (one extent) reads and writes, "
                   "mixed 50/50 at random",
     "rw=randrw bs=64k rwmixread=50 iodepth=8 numjobs=2 direct=1",
     MS_LEARN "pages-and-extents-architecture-guide (extent = 8 pages = 64 KB); "
              MS_LEARN "databases/tempdb-database"},
};

const struct iom_profile *iom_profile_list(size_t *n)
{
    *n = sizeof(profiles) / sizeof(profiles[0]);
    return profiles;
}

const struct iom_profile *iom_profile_find(const char *name)
{
    for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
        if (strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

int iom_profile_apply(const struct iom_profile *p, struct iom_job *job, char *err, size_t errlen)
{
    struct iom_run_opts ro = {0};
    char buf[512];
    snprintf(buf, sizeof(buf), "%s", p->options);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = '\0';
        int rc = iom_option_apply(tok, eq ? eq + 1 : NULL, job, &ro, err, errlen);
        if (rc)
            return rc;
    }
    snprintf(job->name, sizeof(job->name), "%s", p->name);
    snprintf(job->profile, sizeof(job->profile), "%s", p->name);
    return 0;
}

void iom_profile_unknown(const char *name, char *err, size_t errlen)
{
    size_t n;
    const struct iom_profile *all = iom_profile_list(&n);
    const char *known[16];
    char list[256] = "", why[400];
    for (size_t i = 0; i < n && i < 16; i++) {
        snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "",
                 all[i].name);
        known[i] = all[i].name;
    }
    iom_allowed_near(why, sizeof(why), name, known, n < 16 ? n : 16, list);
    snprintf(err, errlen, "--profile=%s: unknown profile; %s", name, why);
}
