/* test_diskspd.c - the DiskSpd front end: every command line of
 * tests/data/jobs/ (the SQL Server .ps1 script and the DiskSpd wiki
 * sample table) plus the flag rules, each compared field by field with a
 * spec written by hand from DiskSpd's documented meaning (usage text of
 * DiskSpd 2.1 and the wiki's description of each sample), or refused with
 * the flag named. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "workload/diskspd.h"

#define SEC 1000000000ULL
#define KiB 1024ULL
#define MiB (1024ULL * 1024)
#define GiB (1024ULL * 1024 * 1024)

/* DiskSpd's documented defaults, written out here rather than taken from
 * the parser: 64K blocks, 10 s, 5 s warm-up, -o2, -t1, reads, sequential,
 * OS cache on, no write-through, seed 0, 1 s IOPS buckets. */
static void base(struct iom_job *w)
{
    memset(w, 0, sizeof(*w));
    w->rw = IOM_RW_READ;
    w->rwmixread_pct = 100;
    w->bs_bytes = 64 * KiB;
    w->percentage_random = 100;
    w->numjobs = 1;
    w->iodepth = 2;
    w->runtime_ns = 10 * SEC;
    w->ramp_ns = 5 * SEC;
    w->series_interval_ns = SEC;
#ifdef _WIN32 /* the default engine: I/O completion ports on Windows (README.md, "Windows") */
    strcpy(w->ioengine, "iocp");
#else
    strcpy(w->ioengine, "io_uring");
#endif
    w->direct = false;
    w->sync = IOM_SYNC_NONE;
    w->seq_same_start = true;
}

static void cmp_job(const char *name, const struct iom_job *g, const struct iom_job *w)
{
#define F(field)                                                                                \
    do {                                                                                        \
        check_count++;                                                                          \
        if ((uint64_t)g->field != (uint64_t)w->field) {                                         \
            check_failures++;                                                                   \
            fprintf(stderr, "%s: " #field " = %llu, expected %llu\n", name,                    \
                    (unsigned long long)g->field, (unsigned long long)w->field);                \
        }                                                                                       \
    } while (0)
    F(rw);
    F(rwmixread_pct);
    F(bs_bytes);
    F(nr_bssplit);
    F(blockalign_bytes);
    F(percentage_random);
    F(dist);
    F(nr_zones);
    for (uint32_t i = 0; i < w->nr_zones && i < g->nr_zones; i++) {
        F(zones[i].access_pct);
        F(zones[i].range_pct);
    }
    F(seq_shared);
    F(seq_stride_bytes);
    F(thread_stride_bytes);
    F(seq_same_start);
    F(numjobs);
    F(iodepth);
    F(offset_bytes);
    F(size_bytes);
    F(create_bytes);
    F(runtime_ns);
    F(ramp_ns);
    F(cooldown_ns);
    F(io_limit_bytes);
    F(series_interval_ns);
    F(direct);
    F(sync);
    F(rate_iops);
    F(rate_bytes_per_s);
    F(seed);
    F(zero_buffers);
    F(nr_targets);
#undef F
    check_count++;
    if (strcmp(g->ioengine, w->ioengine) != 0) {
        check_failures++;
        fprintf(stderr, "%s: ioengine %s, expected %s\n", name, g->ioengine, w->ioengine);
    }
    for (uint32_t i = 0; i < w->nr_targets && i < g->nr_targets; i++) {
        check_count++;
        if (strcmp(g->targets[i], w->targets[i]) != 0) {
            check_failures++;
            fprintf(stderr, "%s: target %u %s, expected %s\n", name, i, g->targets[i],
                    w->targets[i]);
        }
    }
}

/* Split a command line on spaces (the samples have no quoted spaces). */
static int split(const char *line, char *buf, size_t len, char **argv, int max)
{
    snprintf(buf, len, "%s", line);
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t && n < max; t = strtok_r(NULL, " ", &save))
        argv[n++] = t;
    return n;
}

static char *targets1[] = {"testfile.dat"};

struct ok_case {
    const char *cmd;                       /* the DiskSpd flags and targets */
    void (*want)(struct iom_job *w);       /* changes from base() */
    uint32_t nr_warnings;
};

/* ---- tests/data/jobs/diskspd_cmds_1 (SQL Server, iczerjones/oltptest) ---- */
static void w_oltp(struct iom_job *w, uint32_t write_pct)
{
    w->rw = IOM_RW_RANDRW;
    w->rwmixread_pct = 100 - write_pct;
    w->bs_bytes = 8 * KiB;
    w->numjobs = 8;
    w->iodepth = 32;
    w->runtime_ns = 600 * SEC;
    w->ramp_ns = 300 * SEC;
    w->direct = true;               /* -Sh: no OS cache ... */
    w->sync = IOM_SYNC_DSYNC;       /* ... and write-through */
    w->create_bytes = 64 * GiB;
}
static void w_oltp30(struct iom_job *w) { w_oltp(w, 30); }
static void w_oltp70(struct iom_job *w) { w_oltp(w, 70); }
static void w_log(struct iom_job *w)
{
    w->rw = IOM_RW_WRITE;
    w->rwmixread_pct = 0;
    w->bs_bytes = 60 * KiB;
    w->iodepth = 32;
    w->runtime_ns = 600 * SEC;
    w->ramp_ns = 300 * SEC;
    w->direct = true;
    w->sync = IOM_SYNC_DSYNC;
    w->create_bytes = GiB;
}
static void w_readahead(struct iom_job *w)
{
    w_log(w);
    w->rw = IOM_RW_READ;
    w->rwmixread_pct = 100;
    w->bs_bytes = 512 * KiB;
}

/* ---- tests/data/jobs/diskspd_cmds_3 (DiskSpd wiki sample table) ---- */
static void w_wiki_common(struct iom_job *w)
{
    w->bs_bytes = 4 * KiB;
    w->runtime_ns = 60 * SEC;
    w->ramp_ns = 60 * SEC;
    w->direct = true;
    w->sync = IOM_SYNC_DSYNC;
    w->create_bytes = 2 * GiB;
}
static void w_rand_conc_read(struct iom_job *w)
{
    w_wiki_common(w);
    w->rw = IOM_RW_RANDREAD;
    w->numjobs = 8;
    w->iodepth = 32;
}
static void w_rand_conc_write(struct iom_job *w)
{
    w_rand_conc_read(w);
    w->rw = IOM_RW_RANDWRITE;
    w->rwmixread_pct = 0;
}
static void w_rand_serial_read(struct iom_job *w)
{
    w_wiki_common(w);
    w->rw = IOM_RW_RANDREAD;
    w->iodepth = 1;
}
static void w_rand_serial_write(struct iom_job *w)
{
    w_rand_serial_read(w);
    w->rw = IOM_RW_RANDWRITE;
    w->rwmixread_pct = 0;
}
static void w_seq_conc_read(struct iom_job *w)
{
    w_wiki_common(w);
    w->numjobs = 8;
    w->iodepth = 32;
    w->thread_stride_bytes = 4 * KiB;  /* -T1b: one 4K block apart */
    w->seq_stride_bytes = 32 * KiB;    /* -s8b: 8 blocks per step */
    w->seq_same_start = false;
}
static void w_seq_conc_write(struct iom_job *w)
{
    w_seq_conc_read(w);
    w->rw = IOM_RW_WRITE;
    w->rwmixread_pct = 0;
}
static void w_seq_serial_read(struct iom_job *w)
{
    w_wiki_common(w);
    w->iodepth = 1;
}
static void w_seq_serial_write(struct iom_job *w)
{
    w_seq_serial_read(w);
    w->rw = IOM_RW_WRITE;
    w->rwmixread_pct = 0;
}
static void w_small_read(struct iom_job *w)
{
    w_seq_conc_read(w);
    w->create_bytes = 100 * 4 * KiB;   /* -c100b with -b4K */
}
static void w_small_write(struct iom_job *w)
{
    w_small_read(w);
    w->rw = IOM_RW_WRITE;
    w->rwmixread_pct = 0;
}
static void w_rdpct(struct iom_job *w)
{
    w_wiki_common(w);
    w->create_bytes = GiB;
    w->rw = IOM_RW_RANDREAD;
    w->iodepth = 32;
    w->ramp_ns = 5 * SEC; /* no -W in these samples */
    w->dist = IOM_DIST_ZONED;
    w->nr_zones = 4; /* 90/10, 0/10, 5/20 and the implied remainder 5/60 */
    w->zones[0] = (struct iom_zone){90, 10};
    w->zones[1] = (struct iom_zone){0, 10};
    w->zones[2] = (struct iom_zone){5, 20};
    w->zones[3] = (struct iom_zone){5, 60};
}
static void w_rdabs(struct iom_job *w)
{
    w_rdpct(w);
    /* the 1 GiB file lies inside the first 10G range: DiskSpd cuts the
     * distribution there, and that range gets all of the I/O */
    w->nr_zones = 1;
    w->zones[0] = (struct iom_zone){100, 100};
}
static void w_throttle(struct iom_job *w)
{
    w_wiki_common(w);
    w->create_bytes = GiB;
    w->rw = IOM_RW_RW;
    w->rwmixread_pct = 50;
    w->iodepth = 32;
    w->rate_iops = 1000;
    w->runtime_ns = 60 * SEC;
    w->ramp_ns = 5 * SEC; /* no -W in this sample */
}

/* ---- flag rules ---- */
static void w_bare_W_z(struct iom_job *w)
{
    w->ramp_ns = 0;          /* -W alone: atoi("") = 0 s in DiskSpd */
    w->seed = 42;
}
static void w_bpms(struct iom_job *w)
{
    w->rate_bytes_per_s = 500 * 1000; /* -g500: 500 bytes per millisecond */
}
static void w_base_max(struct iom_job *w)
{
    w->offset_bytes = 4 * KiB;
    w->size_bytes = MiB - 4 * KiB;   /* -f is an end offset, -B a start */
}
static void w_si(struct iom_job *w)
{
    w->bs_bytes = 128 * KiB;
    w->numjobs = 4;
    w->seq_shared = true;
    w->seq_same_start = false;
}
static void w_rs(struct iom_job *w)
{
    /* -rs20: 20% random; -r4K gives the alignment of both parts */
    w->rw = IOM_RW_RANDREAD;
    w->bs_bytes = 8 * KiB;
    w->percentage_random = 20;
    w->blockalign_bytes = 4 * KiB;
    w->seq_stride_bytes = 4 * KiB;
}
static void w_S_only(struct iom_job *w)
{
    w->direct = true;
}
static void w_Sw_only(struct iom_job *w)
{
    w->sync = IOM_SYNC_DSYNC;
}
static void w_D_Z(struct iom_job *w)
{
    w->series_interval_ns = 500 * 1000000ULL;
    w->zero_buffers = true;
}
static void w_F_O(struct iom_job *w)
{
    w->numjobs = 4;
    w->iodepth = 16;
}
static void w_two(struct iom_job *w)
{
    w->numjobs = 2;
    w->nr_targets = 2;
}

static const struct ok_case oks[] = {
    {"-D -L -d600 -W300 -Sh -b8K -r -w30 -t8 -o32 -Z1M -c64G testfile.dat", w_oltp30, 1},
    {"-D -L -d600 -W300 -Sh -b8K -r -w70 -t8 -o32 -Z1M -c64G testfile.dat", w_oltp70, 1},
    {"-D -L -d600 -W300 -Sh -b60K -s -w100 -t1 -o32 -Z1M -c1G testfile.dat", w_log, 1},
    {"-D -L -d600 -W300 -Sh -b512K -s -w0 -t1 -o32 -Z1M -c1G testfile.dat", w_readahead, 1},
    {"-c2G -b4K -F8 -r -o32 -W60 -d60 -Sh testfile.dat", w_rand_conc_read, 0},
    {"-c2G -w100 -b4K -F8 -r -o32 -W60 -d60 -Sh testfile.dat", w_rand_conc_write, 0},
    {"-c2G -b4K -r -o1 -W60 -d60 -Sh testfile.dat", w_rand_serial_read, 0},
    {"-c2G -w100 -b4K -r -o1 -W60 -d60 -Sh testfile.dat", w_rand_serial_write, 0},
    {"-c2G -b4K -F8 -T1b -s8b -o32 -W60 -d60 -Sh testfile.dat", w_seq_conc_read, 0},
    {"-c2G -w100 -b4K -F8 -T1b -s8b -o32 -W60 -d60 -Sh testfile.dat", w_seq_conc_write, 0},
    {"-c2G -b4K -o1 -W60 -d60 -Sh testfile.dat", w_seq_serial_read, 0},
    {"-c2G -w100 -b4K -o1 -W60 -d60 -Sh testfile.dat", w_seq_serial_write, 0},
    {"-c100b -b4K -o32 -F8 -T1b -s8b -W60 -d60 -Sh testfile.dat", w_small_read, 0},
    {"-c100b -w100 -b4K -o32 -F8 -T1b -s8b -W60 -d60 -Sh testfile.dat", w_small_write, 0},
    {"-c1G -b4K -r -o32 -w0 -d60 -Sh -rdpct90/10:0/10:5/20 testfile.dat", w_rdpct, 0},
    {"-c1G -b4K -r -o32 -t1 -w0 -d60 -Sh -rdabs90/10G:0/10G:5/20G testfile.dat", w_rdabs, 0},
    {"-c1G -b4K -o32 -t1 -w50 -g1000i -d60 -Sh testfile.dat", w_throttle, 0},
    {"-W -z42 testfile.dat", w_bare_W_z, 0},
    {"-g500 testfile.dat", w_bpms, 0},
    {"-B4K -f1M testfile.dat", w_base_max, 0},
    {"-b128K -t4 -si testfile.dat", w_si, 0},
    {"-b8K -rs20 -r4K testfile.dat", w_rs, 0},
    {"-S testfile.dat", w_S_only, 0},
    {"-Su testfile.dat", w_S_only, 0},
    {"-Sw testfile.dat", w_Sw_only, 0},
    {"-D500 -Z testfile.dat", w_D_Z, 0},
    {"-F4 -O16 testfile.dat", w_F_O, 0},
    {"-frst -P1000 -v -l -n testfile.dat", NULL, 4},
    {"-t2 testfile.dat second.dat", w_two, 0},
};

struct bad_case {
    const char *cmd;
    const char *needle; /* must appear in the one-line message */
};

static const struct bad_case bads[] = {
    /* issue 3: refused before any file is created */
    {"-c64D testfile.dat", "-c64D"},
    {"-w200 -c1M testfile.dat", "-w200"},
    /* the .ps1 names Windows drive paths */
    {"-D -L -d600 -W300 -Sh -b8K -r -w30 -t8 -o32 -Z1M -c64G D:\\oltpio.dat", "D:\\oltpio.dat"},
    /* wiki rows iomark cannot give DiskSpd's meaning */
    {"-eDISK_IO -eMEMORY_PAGE_FAULTS testfile.dat", "-eDISK_IO"},
    {"-c1G -b4K -o32 -t1 -s8b -w50 -rs20 -d60 -Sh testfile.dat", "-rs20"}, /* DiskSpd refuses too */
    {"-t1 -o4 -b4k -r4k -w0 -Sh -D -d60 -L -c1G -Rptext", "no target"},
    {"-t1 -o4 -b4k -r4k -w0 -Sh -D -d60 -L -c1G -Rpxml *1 *2", "*1"},
    {"-Xprofile.xml file1.dat, file2.dat", "-Xprofile.xml"},
    /* flag rules */
    {"-b0 testfile.dat", "-b0"},
    {"-o0 testfile.dat", "-o0"},
    {"-t2 -F2 testfile.dat", "-F2"},
    {"-F2 a.dat b.dat", "-F2"},
    {"-O4 testfile.dat", "-O4"},
    {"-Sm testfile.dat", "-Sm"},
    {"-Sr testfile.dat", "-Sr"},
    {"-h -Sh testfile.dat", "-Sh"},
    {"-a0,1 testfile.dat", "-a0,1"},
    {"-rs0 testfile.dat", "-rs0"},
    {"-r -s testfile.dat", "-s"},
    {"-si -T4K -t2 testfile.dat", "-T"},
    {"-d0 testfile.dat", "-d0"},
    {"-w testfile.dat", "-w"},
    {"-Zr testfile.dat", "-Zr"},
    {"-Z1M,data.bin testfile.dat", "-Z1M,data.bin"},
    {"-I1 testfile.dat", "-I1"},
    {"-i4 -j10 testfile.dat", "-i4"},
    {"-ysstart testfile.dat", "-ysstart"},
    {"-Rcsv testfile.dat", "-Rcsv"},
    {"-rdpct90/10:10/90 testfile.dat", "-rd"},              /* -rd without -r */
    {"-r -rdpct50/100 testfile.dat", "-rdpct50/100"},       /* 50% of IO has no room left */
    {"-r -rdpct90/10:20/10 testfile.dat", "-rdpct90/10:20/10"}, /* IO% above 100 */
    {"testfile.dat -b4K", "-b4K"},                          /* flags after targets */
    {"#1", "#1"},
    {"-q testfile.dat", "-q"},
    {"--bs=4k testfile.dat", "--bs=4k"},
    {"--output-format=json testfile.dat", "-Rxml"},
};

int main(void)
{
    struct iom_run_opts ro;
    char buf[1024], err[600];
    char *argv[64];
    struct iom_diskspd *ds = malloc(sizeof(*ds));
    if (!ds)
        return 1;
    for (size_t i = 0; i < sizeof(oks) / sizeof(oks[0]); i++) {
        int argc = split(oks[i].cmd, buf, sizeof(buf), argv, 64);
        memset(&ro, 0, sizeof(ro));
        err[0] = '\0';
        int rc = iom_diskspd_parse(argc, argv, 0, ds, &ro, err, sizeof(err));
        if (rc) {
            check_count++;
            check_failures++;
            fprintf(stderr, "'%s' refused: %s\n", oks[i].cmd, err);
            continue;
        }
        struct iom_job w;
        base(&w);
        w.nr_targets = 1;
        w.targets = targets1;
        char *two[] = {"testfile.dat", "second.dat"};
        if (oks[i].want)
            oks[i].want(&w);
        if (w.nr_targets == 2)
            w.targets = two;
        cmp_job(oks[i].cmd, &ds->job, &w);
        check_count++;
        if (ds->nr_warnings != oks[i].nr_warnings) {
            check_failures++;
            fprintf(stderr, "'%s': %u warnings, expected %u\n", oks[i].cmd, ds->nr_warnings,
                    oks[i].nr_warnings);
        }
        iom_diskspd_free(ds);
    }

    /* DiskSpd-only facts the reports show */
    {
        int argc = split("-D -L -d600 -W300 -Sh -b8K -r -w30 -t8 -o32 -Z1M -c64G testfile.dat",
                         buf, sizeof(buf), argv, 64);
        memset(&ro, 0, sizeof(ro));
        CHECK(iom_diskspd_parse(argc, argv, 0, ds, &ro, err, sizeof(err)) == 0);
        CHECK(ds->measure_latency && ds->iops_stddev && ds->bucket_ms == 1000);
        CHECK(ds->write_pct == 30 && ds->random && ds->random_pct == 100);
        CHECK(ds->sw_cache_disabled && ds->write_through && !ds->xml && !ds->profile_only);
        CHECK_U64(ds->random_buffer_bytes, MiB);
        CHECK(strcmp(ds->cmdline, "diskspd -D -L -d600 -W300 -Sh -b8K -r -w30 -t8 -o32 -Z1M "
                                  "-c64G testfile.dat") == 0);
        iom_diskspd_free(ds);
        argc = split("-Rpxml -b4K testfile.dat", buf, sizeof(buf), argv, 64);
        CHECK(iom_diskspd_parse(argc, argv, 0, ds, &ro, err, sizeof(err)) == 0);
        CHECK(ds->xml && ds->profile_only);
        iom_diskspd_free(ds);
        argc = split("-?", buf, sizeof(buf), argv, 64);
        memset(&ro, 0, sizeof(ro));
        CHECK(iom_diskspd_parse(argc, argv, 0, ds, &ro, err, sizeof(err)) == 0 && ro.help);
        iom_diskspd_free(ds);
    }

    /* -rdabs resolved once the size is known: 90% of I/O in the first 10%,
     * none in the next 10%, 5% in the next 20%, the rest (5%) in the last 60% */
    {
        int argc = split("-r -rdabs90/100M:0/100M:5/200M testfile.dat", buf, sizeof(buf), argv, 64);
        CHECK(iom_diskspd_parse(argc, argv, 0, ds, &ro, err, sizeof(err)) == 0);
        CHECK(ds->dist == IOM_DSPD_DIST_ABS && ds->job.nr_zones == 0);
        CHECK(iom_diskspd_resolve(ds, 1000 * MiB, err, sizeof(err)) == 0);
        CHECK_U64(ds->job.nr_zones, 4);
        static const struct iom_zone want[4] = {{90, 10}, {0, 10}, {5, 20}, {5, 60}};
        for (int k = 0; k < 4; k++) {
            CHECK_U64(ds->job.zones[k].access_pct, want[k].access_pct);
            CHECK_U64(ds->job.zones[k].range_pct, want[k].range_pct);
        }
        /* a target of 150M cuts the second range: 90% and 0% of I/O over 100M and 50M */
        CHECK(iom_diskspd_resolve(ds, 150 * MiB, err, sizeof(err)) == 0);
        CHECK_U64(ds->job.nr_zones, 2);
        CHECK_U64(ds->job.zones[0].access_pct, 100);
        CHECK_U64(ds->job.zones[0].range_pct, 67); /* 100/150 = 66.7% */
        CHECK_U64(ds->job.zones[1].access_pct, 0);
        CHECK_U64(ds->job.zones[1].range_pct, 33);
        iom_diskspd_free(ds);
    }

    for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
        int argc = split(bads[i].cmd, buf, sizeof(buf), argv, 64);
        memset(&ro, 0, sizeof(ro));
        err[0] = '\0';
        int rc = iom_diskspd_parse(argc, argv, 0, ds, &ro, err, sizeof(err));
        check_count++;
        if (rc != -EINVAL || !strstr(err, bads[i].needle) || strchr(err, '\n')) {
            check_failures++;
            fprintf(stderr, "'%s': rc %d, message '%s' (wanted -EINVAL naming '%s')\n",
                    bads[i].cmd, rc, err, bads[i].needle);
        }
        iom_diskspd_free(ds);
    }
    free(ds);
    return check_status("test_diskspd");
}
