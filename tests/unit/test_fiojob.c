/* test_fiojob.c - the fio job-file front end: the real job files of
 * tests/data/jobs/ and small cases for each option, the resulting
 * specs compared field by field with values written by hand from fio's
 * documented meaning (fio HOWTO: size is the job's total over its files,
 * numjobs clones, stonewall/new_group, ${VAR}), refusals naming option and
 * line. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "workload/fiojob.h"

#define SEC 1000000000ULL
#define KiB 1024ULL
#define MiB (1024ULL * 1024)
#define GiB (1024ULL * 1024 * 1024)

/* tests/data/jobs/REL of this source tree, found from this file's path */
static const char *data_file(const char *rel)
{
    static char buf[1024];
    snprintf(buf, sizeof(buf), "%s", __FILE__);
    char *p = strstr(buf, "/tests/unit/");
    if (!p)
        return rel;
    snprintf(p, sizeof(buf) - (size_t)(p - buf), "/tests/data/%s", rel);
    return buf;
}

/* fio's documented defaults: rw=read, bs=4k, iodepth=1, numjobs=1,
 * ioengine=psync (sync), buffered, no runtime limit */
static void base(struct iom_job *w)
{
    memset(w, 0, sizeof(*w));
    w->rw = IOM_RW_READ;
    w->rwmixread_pct = 50;
    w->bs_bytes = 4 * KiB;
    w->percentage_random = 100;
    w->numjobs = 1;
    w->iodepth = 1;
    w->series_interval_ns = SEC;
    strcpy(w->ioengine, "psync");
}

static void cmp_job(const char *name, const struct iom_job *g, const struct iom_job *w,
                    const char *const *targets)
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
    for (uint32_t i = 0; i < w->nr_bssplit && i < g->nr_bssplit; i++) {
        F(bssplit[i].bs_bytes);
        F(bssplit[i].pct);
    }
    F(blockalign_bytes);
    F(percentage_random);
    F(dist);
    F(nr_zones);
    F(numjobs);
    F(iodepth);
    F(offset_bytes);
    F(size_bytes);
    F(runtime_ns);
    F(ramp_ns);
    F(io_limit_bytes);
    F(direct);
    F(sync);
    F(rate_iops);
    F(rate_bytes_per_s);
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
        if (strcmp(g->targets[i], targets[i]) != 0) {
            check_failures++;
            fprintf(stderr, "%s: target %u = %s, expected %s\n", name, i, g->targets[i],
                    targets[i]);
        }
    }
}

static int parse(const char *text, const struct iom_fio_parse_opts *po, struct iom_fio_file *f,
                 char *err)
{
    err[0] = '\0';
    return iom_fio_parse_text(text, po, f, err, 600);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    if (buf)
        fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    return buf;
}

static void expect_refused(const char *text, const struct iom_fio_parse_opts *po,
                           const char *needle1, const char *needle2)
{
    struct iom_fio_file f;
    char err[600];
    int rc = parse(text, po, &f, err);
    check_count++;
    if (rc != -EINVAL || !strstr(err, needle1) || (needle2 && !strstr(err, needle2))) {
        check_failures++;
        fprintf(stderr, "refusal: rc %d, '%s' lacks '%s' / '%s'\n", rc, err, needle1,
                needle2 ? needle2 : "");
    }
    CHECK(f.nr_jobs == 0 && f.jobs == NULL);
}

static void test_cdm(void)
{
    char *text = slurp(data_file("jobs/fio_job_3_crystaldiskmark_default.fio"));
    CHECK(text != NULL); /* tests/data/jobs is part of the repository */
    if (!text)
        return;
    setenv("FDM_ENGINE", "libaio", 1);
    setenv("FDM_DIR", "/var/tmp/cdm", 1);
    setenv("FDM_SIZE", "1", 1);
    setenv("FDM_ZERO", "0", 1);
    setenv("FDM_LOOPS", "5", 1);
    setenv("FDM_DURATION", "5", 1);
    setenv("FDM_Q8SIZE", "2", 1);
    struct iom_fio_file f;
    char err[600];
    struct iom_fio_parse_opts po;
    memset(&po, 0, sizeof(po));
    /* every option runs: end_fsync=1 (line 13) is fio's one fsync at each job's end */
    CHECK(parse(text, &po, &f, err) == 0);
    CHECK_U64(f.nr_jobs, 12);
    CHECK_U64(f.nr_ignored, 0);
    if (f.nr_jobs)
        CHECK(f.jobs[0].job.refill_buffers && f.jobs[0].job.end_fsync);
    iom_fio_file_free(&f);
    po.ignore_unknown = true;
    CHECK(parse(text, &po, &f, err) == 0);
    CHECK_U64(f.nr_jobs, 12);
    /* every section has stonewall or wait_for_previous: one step and group each */
    CHECK_U64(f.nr_steps, 12);
    CHECK_U64(f.nr_groups, 12);
    const char *file[] = {"/var/tmp/cdm/fiomark.tmp"};
    if (f.nr_jobs == 12) {
        for (uint32_t i = 0; i < 12; i++) {
            CHECK_U64(f.jobs[i].step, i);
            CHECK_U64(f.jobs[i].groupid, i);
            CHECK(f.jobs[i].group_reporting);
        }
        struct iom_job w;
        /* [SEQ1M-Q8T1-RD]: 1 MiB reads, QD8, size=${FDM_Q8SIZE}g, 5 loops, 5 s cap */
        base(&w);
        w.bs_bytes = MiB;
        w.iodepth = 8;
        w.rwmixread_pct = 70;
        w.direct = true;
        strcpy(w.ioengine, "libaio");
        w.size_bytes = 2 * GiB;
        w.io_limit_bytes = 5 * 2 * GiB;
        w.runtime_ns = 5 * SEC;
        w.nr_targets = 1;
        cmp_job("SEQ1M-Q8T1-RD", &f.jobs[0].job, &w, file);
        CHECK(strcmp(f.jobs[0].jobname, "SEQ1M-Q8T1-RD") == 0);
        CHECK_U64(f.jobs[0].line, 19);
        /* [SEQ1M-Q8T1-MIX]: rw=rw with the global rwmixread=70 */
        w.rw = IOM_RW_RW;
        cmp_job("SEQ1M-Q8T1-MIX", &f.jobs[2].job, &w, file);
        /* [RND4K-Q32T16-WR]: 16 clones on one file, 1g (global size) each */
        base(&w);
        w.rw = IOM_RW_RANDWRITE;
        w.rwmixread_pct = 70;
        w.iodepth = 32;
        w.numjobs = 16;
        w.direct = true;
        strcpy(w.ioengine, "libaio");
        w.size_bytes = GiB;
        w.io_limit_bytes = 5 * GiB;
        w.runtime_ns = 5 * SEC;
        w.nr_targets = 1;
        cmp_job("RND4K-Q32T16-WR", &f.jobs[7].job, &w, file);
        CHECK_U64(f.jobs[7].fio_numjobs, 16);
        /* job options of the section for fio's JSON; numjobs=16: as fio 3.33 lists a
         * clone's, under fio's own names (its JSON of [b] wait_for_previous=1
         * numjobs=2 has "stonewall": "1") */
        CHECK_U64(f.jobs[7].nr_opts, 5);
        CHECK(strcmp(f.jobs[7].opts[0].name, "stonewall") == 0);
        /* the [global] section has 13 options (lines 4-16 of the file) */
        CHECK_U64(f.nr_global, 13);
        iom_fio_file_free(&f);
    }
    /* a variable that is not set reads as empty (fio 3.33); the empty engine is
     * skipped here (--ignore-unknown), the skip naming the variable and its line */
    unsetenv("FDM_ENGINE");
    CHECK(parse(text, &po, &f, err) == 0);
    bool named = false;
    for (uint32_t i = 0; i < f.nr_ignored; i++)
        named |= strstr(f.ignored[i], "line 4: ioengine=") && strstr(f.ignored[i], "${FDM_ENGINE}");
    CHECK(named);
    iom_fio_file_free(&f);
    po.ignore_unknown = false;
    expect_refused(text, &po, "line 4: ioengine=", "${FDM_ENGINE} not set");
    free(text);
}

static void test_iometer(void)
{
    char *text = slurp(data_file("jobs/fio_job_4_iometer_fileserver.fio"));
    CHECK(text != NULL);
    if (!text)
        return;
    struct iom_fio_file f;
    char err[600];
    CHECK(parse(text, NULL, &f, err) == 0);
    CHECK_U64(f.nr_jobs, 1);
    if (f.nr_jobs == 1) {
        struct iom_job w;
        base(&w);
        w.rw = IOM_RW_RANDRW;
        w.rwmixread_pct = 80;
        w.nr_bssplit = 8;
        static const struct iom_bs_weight bss[8] = {{512, 10},     {1024, 5},      {2048, 5},
                                                    {4096, 60},    {8192, 2},      {16384, 4},
                                                    {32768, 4},    {65536, 10}};
        memcpy(w.bssplit, bss, sizeof(bss));
        w.direct = true;
        w.size_bytes = 4 * GiB;
        w.io_limit_bytes = 4 * GiB;   /* size-based: one pass of 4 GiB */
        strcpy(w.ioengine, "libaio");
        w.iodepth = 64;
        w.nr_targets = 1;
        const char *file[] = {"iometer.0.0"}; /* fio's default name: job.clone.file */
        cmp_job("iometer", &f.jobs[0].job, &w, file);
        CHECK(f.jobs[0].generated_files);
        iom_fio_file_free(&f);
    }
    free(text);
}

static void test_oltp(void)
{
    char *text = slurp(data_file("jobs/fio_job_1_oltp_sqlserver_like_expanded.fio"));
    CHECK(text != NULL);
    if (!text)
        return;
    struct iom_fio_parse_opts po;
    memset(&po, 0, sizeof(po));
    /* [initrandomio] inherits time_based=1 from [global] but has no runtime:
     * fio 3.33 prints "time_based requires a runtime/timeout setting" and
     * runs it size-based (checked with fio 3.33: size=64k bs=4k, 16 reads);
     * iomark warns and does the same */
    {
        struct iom_fio_file g;
        char e[600];
        CHECK(parse(text, &po, &g, e) == 0);
        bool seen = false;
        for (uint32_t k = 0; k < g.nr_jobs; k++)
            if (strcmp(g.jobs[k].jobname, "initrandomio") == 0) {
                seen = true;
                CHECK(!g.jobs[k].time_based);
            }
        CHECK(seen);
        iom_fio_file_free(&g);
    }
    /* with a runtime for every job and the devices renamed, it runs */
    const char *devs[] = {"/dev/sdd", "/dev/sde", "/dev/sdf", "/dev/sdg", "/dev/sdh", "/dev/sdi"};
    const char *imgs[] = {"d.img", "e.img", "f.img", "g.img", "h.img", "i.img"};
    for (int i = 0; i < 6; i++) {
        po.map_from[i] = devs[i];
        po.map_to[i] = imgs[i];
    }
    po.nr_maps = 6;
    po.nr_overrides = 1;
    strcpy(po.overrides[0].name, "runtime");
    strcpy(po.overrides[0].value, "2");
    struct iom_fio_file f;
    char err[600];
    CHECK(parse(text, &po, &f, err) == 0);
    CHECK_U64(f.nr_jobs, 6);
    CHECK_U64(f.nr_steps, 1);   /* no stonewall: all six run together, as in fio */
    CHECK_U64(f.nr_groups, 6);  /* new_group in each section */
    if (f.nr_jobs == 6) {
        struct iom_job w;
        base(&w);
        /* [randomreader]: fio 3.33 adds the section's filename= to the
         * [global]'s (checked with fio --parse-only --debug=file: ten file
         * entries, sdd..sdh twice), so 10 file threads: iodepth ceil(512/10)
         * = 52 and ceil(270/10) = 27 IOPS each; size 124G over 10 entries,
         * rounded down to whole 8K blocks */
        w.rw = IOM_RW_RANDREAD;
        w.bs_bytes = 8 * KiB;
        w.iodepth = 52;
        w.rate_iops = 27;
        w.direct = true;
        strcpy(w.ioengine, "libaio");
        w.size_bytes = 124 * GiB / 10 - (124 * GiB / 10) % 8192;
        w.runtime_ns = 2 * SEC;
        w.nr_targets = 10;
        const char *imgs2[] = {"d.img", "e.img", "f.img", "g.img", "h.img",
                               "d.img", "e.img", "f.img", "g.img", "h.img"};
        cmp_job("randomreader", &f.jobs[0].job, &w, imgs2);
        CHECK(f.jobs[0].time_based);
        CHECK(f.jobs[0].note[0] != '\0');
        /* [sequentialreader]: the [global]'s five devices and its own sdi (fio:
         * six file entries), rate_iops=0 means no limit, size=20G over six,
         * iodepth ceil(64/6) = 11 per file thread */
        base(&w);
        w.bs_bytes = 56 * KiB;
        w.iodepth = 11;
        w.direct = true;
        strcpy(w.ioengine, "libaio");
        w.size_bytes = 20 * GiB / 6 - (20 * GiB / 6) % (56 * KiB);
        w.runtime_ns = 2 * SEC;
        w.nr_targets = 6;
        const char *i_img[] = {"d.img", "e.img", "f.img", "g.img", "h.img", "i.img"};
        cmp_job("sequentialreader", &f.jobs[2].job, &w, i_img);
        for (uint32_t i = 0; i < 6; i++)
            CHECK_U64(f.jobs[i].groupid, i);
        iom_fio_file_free(&f);
    }
    free(text);
}

static void test_small(void)
{
    struct iom_fio_file f;
    char err[600];
    struct iom_job w;
    /* comments, bare flags, wait_for_previous, new_group, loops, directory,
     * numjobs without filename, escaped ':' in a name, zoned distribution */
    const char *t1 = "; comment\n"
                     "# another\n"
                     "[global]\n"
                     "  direct = 1  \n"
                     "ioengine=null\n"
                     "directory=/d\n"
                     "time_based\n"
                     "runtime=3s\n"
                     "[a]\n"
                     "rw=randread\n"
                     "bs=8k\n"
                     "numjobs=3\n"
                     "size=1m\n"
                     "random_distribution=zoned:60/10:30/20:10/70\n"
                     "percentage_random=90\n"
                     "[b]\n"
                     "wait_for_previous\n"
                     "rw=write\n"
                     "filename=x\\:y:z\n"
                     "size=8m\n"
                     "time_based=0\n"
                     "loops=3\n"
                     "rate=1m\n"
                     "[c]\n"
                     "new_group\n"
                     "name=renamed\n"
                     "filesize=4m\n"
                     "filename=/abs/f\n"
                     "rate_iops=0\n"
                     "ramp_time=2\n"
                     "rwmixwrite=25\n"
                     "rw=randrw\n"
                     "buffered=1\n";
    CHECK(parse(t1, NULL, &f, err) == 0);
    CHECK_U64(f.nr_jobs, 3);
    if (f.nr_jobs == 3) {
        base(&w);
        w.rw = IOM_RW_RANDREAD;
        w.bs_bytes = 8 * KiB;
        w.direct = true;
        strcpy(w.ioengine, "null");
        w.dist = IOM_DIST_ZONED;
        w.nr_zones = 3;
        w.percentage_random = 90;
        w.numjobs = 1;          /* one generated file per clone */
        w.size_bytes = MiB;
        w.runtime_ns = 3 * SEC; /* time_based: no size limit */
        w.nr_targets = 3;
        const char *fa[] = {"/d/a.0.0", "/d/a.1.0", "/d/a.2.0"};
        cmp_job("a", &f.jobs[0].job, &w, fa);
        CHECK_U64(f.jobs[0].fio_numjobs, 3);
        CHECK(f.jobs[0].generated_files);
        base(&w);
        w.rw = IOM_RW_WRITE;
        w.direct = true;
        strcpy(w.ioengine, "null");
        w.nr_targets = 2;
        w.size_bytes = 4 * MiB;          /* 8m over two files */
        w.io_limit_bytes = 3 * 4 * MiB;  /* loops=3 */
        w.runtime_ns = 3 * SEC;          /* runtime still caps a size-based job */
        w.rate_bytes_per_s = MiB / 2;    /* 1m/s for the job, over two files */
        const char *fb[] = {"/d/x:y", "/d/z"};
        cmp_job("b", &f.jobs[1].job, &w, fb);
        base(&w);
        w.rw = IOM_RW_RANDRW;
        w.rwmixread_pct = 75;
        w.direct = false;
        strcpy(w.ioengine, "null");
        w.nr_targets = 1;
        w.size_bytes = 4 * MiB;          /* filesize */
        w.io_limit_bytes = 0;            /* time_based from [global] */
        w.runtime_ns = 3 * SEC;
        w.ramp_ns = 2 * SEC;
        /* fio 3.33 filesetup.c add_file: "DIR/" + the name, an absolute one too (fio's run
         * of directory=D filename=/sub/x.dat made D/sub/x.dat: test_fio_directory.sh) */
        const char *fc[] = {"/d//abs/f"};
        cmp_job("c", &f.jobs[2].job, &w, fc);
        CHECK(strcmp(f.jobs[2].jobname, "renamed") == 0);
        /* steps: b waits for a; c runs with b. groups: b (stonewall), c (new_group) */
        CHECK_U64(f.jobs[0].step, 0);
        CHECK_U64(f.jobs[1].step, 1);
        CHECK_U64(f.jobs[2].step, 1);
        CHECK_U64(f.jobs[0].groupid, 0);
        CHECK_U64(f.jobs[1].groupid, 1);
        CHECK_U64(f.jobs[2].groupid, 2);
        iom_fio_file_free(&f);
    }
    /* size-based without size: the limit comes from the target size */
    CHECK(parse("[j]\nfilename=/dev/loop7\nrw=randwrite\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK(f.jobs[0].limit_is_region);
        CHECK_U64(f.jobs[0].job.io_limit_bytes, UINT64_MAX);
        CHECK_U64(f.jobs[0].job.runtime_ns, 0);
        iom_fio_file_free(&f);
    }

    /* io_size: the amount of I/O, over the job's files */
    CHECK(parse("[j]\nfilename=a:b\nsize=64m\nio_size=16m\nloops=2\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK_U64(f.jobs[0].job.size_bytes, 32 * MiB);
        CHECK_U64(f.jobs[0].job.io_limit_bytes, 2 * 8 * MiB);
        iom_fio_file_free(&f);
    }

    /* refusals: option and line named */
    expect_refused("[a]\nrw=randread\nbogus_opt=3\n", NULL, "line 3", "bogus_opt");
    expect_refused("[a]\nrw=randread:8\n", NULL, "line 2", "rw=randread:8");
    { /* fio's HOWTO: "bs=8k,32k means 8k for reads, 32k for writes and trims";
       * "bs=,8k means default for reads, 8k for writes"; bssplit likewise */
        struct iom_fio_file g;
        char e[600];
        CHECK(parse("[a]\nbs=8k,32k\n[b]\nbs=,8k\n[c]\nbs=8k,\n[d]\nbssplit=4k/50:16k/50,8k/100\n"
                    "[e]\nbs=4k,8k\nbs=16k\n[f]\nrw=read\nrate=1m,2m\n[g]\nrw=write\nrate=1m,2m\n"
                    "[h]\nrw=rw\nrwmixread=75\nrate_iops=300,100,7\n", NULL, &g, e) == 0);
        CHECK_U64(g.nr_jobs, 8);
        if (g.nr_jobs == 8) {
            CHECK(g.jobs[0].job.bs_bytes == 8 * KiB && g.jobs[0].job.wbs_bytes == 32 * KiB);
            CHECK(g.jobs[1].job.bs_bytes == 4 * KiB && g.jobs[1].job.wbs_bytes == 8 * KiB);
            CHECK(g.jobs[2].job.bs_bytes == 8 * KiB && g.jobs[2].job.wbs_bytes == 4 * KiB);
            CHECK(g.jobs[3].job.nr_bssplit == 2 && g.jobs[3].job.nr_wbssplit == 1 &&
                  g.jobs[3].job.wbssplit[0].bs_bytes == 8 * KiB &&
                  g.jobs[3].job.wbssplit[0].pct == 100);
            CHECK(g.jobs[4].job.bs_bytes == 16 * KiB && g.jobs[4].job.wbs_bytes == 0);
            CHECK_U64(g.jobs[5].job.rate_bytes_per_s, MiB);     /* reads only: read cap */
            CHECK_U64(g.jobs[6].job.rate_bytes_per_s, 2 * MiB); /* writes only: write cap */
            CHECK_U64(g.jobs[5].job.rate_w_bytes_per_s, 0);
            CHECK_U64(g.jobs[6].job.rate_w_bytes_per_s, 0);
            /* a mix: each direction its own cap (fio io_u.c rate_ddir) */
            CHECK_U64(g.jobs[7].job.rate_iops, 300);
            CHECK_U64(g.jobs[7].job.rate_w_iops, 100);
        }
        iom_fio_file_free(&g);
    }
    { /* one rate value caps each direction (fio 3.33: rate_iops=1000 on randrw ran
       * 1000 reads/s and 1000 writes/s; on rw=read only reads exist) */
        struct iom_fio_file g;
        char e[600];
        CHECK(parse("[a]\nrw=randrw\nrate_iops=1000\n[b]\nrw=randrw\nrate=1m\n"
                    "[c]\nrw=read\nrate_iops=1000\n[d]\nrw=randrw\nrate_iops=0\n"
                    "[e]\nrw=randrw\nrwmixread=70\nrate_iops=1000\n[f]\nrw=rw\nrate=1m,0\n"
                    "[g]\nrw=rw\nrate=,1m\n",
                    NULL, &g, e) == 0);
        CHECK_U64(g.nr_jobs, 7);
        if (g.nr_jobs == 7) {
            CHECK_U64(g.jobs[0].job.rate_iops, 1000);
            CHECK_U64(g.jobs[0].job.rate_w_iops, 1000);
            CHECK_U64(g.jobs[1].job.rate_bytes_per_s, MiB);
            CHECK_U64(g.jobs[1].job.rate_w_bytes_per_s, MiB);
            CHECK_U64(g.jobs[2].job.rate_iops, 1000);
            CHECK_U64(g.jobs[2].job.rate_w_iops, 0);
            CHECK_U64(g.jobs[3].job.rate_iops, 0);
            CHECK_U64(g.jobs[3].job.rate_w_iops, 0);
            /* fio 3.33 with rwmixread=70 rate_iops=1000: 1000 reads/s and 1000
             * writes/s, not 70:30: each direction paced on its own */
            CHECK_U64(g.jobs[4].job.rate_iops, 1000);
            CHECK_U64(g.jobs[4].job.rate_w_iops, 1000);
            /* fio HOWTO "rate": 0 for a direction is no cap there */
            CHECK_U64(g.jobs[5].job.rate_bytes_per_s, MiB);
            CHECK_U64(g.jobs[5].job.rate_w_bytes_per_s, UINT64_MAX);
            CHECK_U64(g.jobs[6].job.rate_bytes_per_s, 0);
            CHECK_U64(g.jobs[6].job.rate_w_bytes_per_s, MiB);
        }
        iom_fio_file_free(&g);
    }
    expect_refused("[a]\nba=4k,8k\n", NULL, "line 2", "ba=4k,8k (separate read and write");
    expect_refused("[a]\nsize=0%\n", NULL, "line 2", "size=0%");
    expect_refused("[a]\nrw=randread:8\n", NULL, "line 2", "rw=randread:8");
    expect_refused("[a]\nioengine=posixaio\n", NULL, "line 2", "ioengine=posixaio");
    expect_refused("[a]\nbs=4q\n", NULL, "line 2", "bs=4q");
    expect_refused("[a]\nrandom_distribution=normal:50\n", NULL, "line 2", "random_distribution");
    expect_refused("rw=read\n[a]\n", NULL, "line 1", "before any [section]");
    expect_refused("[global]\nrw=read\n", NULL, "no job section", NULL);
    expect_refused("[a\nrw=read\n", NULL, "line 1", "[name]");
    { /* time_based without runtime: fio 3.33 warns and runs size-based */
        struct iom_fio_file g;
        char e[600];
        CHECK(parse("[a]\ntime_based\nsize=64k\n", NULL, &g, e) == 0);
        CHECK(g.nr_jobs == 1 && !g.jobs[0].time_based && g.jobs[0].job.io_limit_bytes == 65536);
        iom_fio_file_free(&g);
    }
    expect_refused("[a]\nfilename=${IOMARK_TEST_SURELY_UNSET}\n", NULL, "line 2",
                   "IOMARK_TEST_SURELY_UNSET");
    expect_refused("[a]\nloops=0\n", NULL, "line 2", "loops=0");
    { /* fio 3.33: a name given twice is two file entries (--debug=file: "added at 0",
       * "added at 1"); a [global]'s files come first, then the section's */
        struct iom_fio_file g;
        char e[600];
        CHECK(parse("[global]\nfilename=a:b\nsize=96k\n[j1]\nfilename=c\n[j2]\nfilename=a\n"
                    "filename=a\n", NULL, &g, e) == 0);
        CHECK_U64(g.nr_jobs, 2);
        if (g.nr_jobs == 2 && g.jobs[0].job.nr_targets == 3 && g.jobs[1].job.nr_targets == 4) {
            CHECK(strcmp(g.jobs[0].job.targets[2], "c") == 0);
            CHECK(strcmp(g.jobs[1].job.targets[2], "a") == 0);
            CHECK(strcmp(g.jobs[1].job.targets[3], "a") == 0);
            CHECK_U64(g.jobs[0].job.size_bytes, 32 * KiB); /* 96k over 3 entries */
            CHECK_U64(g.jobs[1].job.size_bytes, 24 * KiB); /* 96k over 4 entries */
        } else {
            CHECK(0);
        }
        iom_fio_file_free(&g);
    }
    expect_refused("[a]\nstonewall=2\n", NULL, "line 2", "stonewall=2");
    expect_refused("[a]\nfile_service_type=zipf:1.2\n", NULL, "line 2",
                   "file_service_type=zipf:1.2");
    expect_refused("[a]\nnrfiles=0\n", NULL, "line 2", "nrfiles=0");
    /* --ignore-unknown lists what it skipped, once per line */
    struct iom_fio_parse_opts po;
    memset(&po, 0, sizeof(po));
    po.ignore_unknown = true;
    CHECK(parse("[global]\ncgroup=a\n[a]\nsize=1m\nexec_prerun=true\n[b]\nsize=1m\n", &po, &f,
                err) == 0);
    CHECK_U64(f.nr_ignored, 2);
    if (f.nr_ignored == 2) {
        CHECK(strcmp(f.ignored[0], "line 2: cgroup=a") == 0);
        CHECK(strcmp(f.ignored[1], "line 5: exec_prerun=true") == 0);
    }
    iom_fio_file_free(&f);
    /* fio's exitall is global: one job's sets it for all (fio options.c str_exitall_cb) */
    CHECK(parse("[a]\nsize=1m\n[b]\nexitall\nexit_what=all\nsize=1m\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 2) {
        CHECK(f.jobs[0].job.exitall && f.jobs[1].job.exitall);
        CHECK_U64(f.jobs[0].job.exit_what, 0);
        CHECK_U64(f.jobs[1].job.exit_what, 2);
    }
    iom_fio_file_free(&f);
    /* ${VAR} inside a value, and command-line overrides after the section's own */
    setenv("IOMARK_T_BS", "16", 1);
    memset(&po, 0, sizeof(po));
    po.nr_overrides = 1;
    strcpy(po.overrides[0].name, "iodepth");
    strcpy(po.overrides[0].value, "7");
    CHECK(parse("[a]\nbs=${IOMARK_T_BS}k\niodepth=2\nsize=1m\n", &po, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK_U64(f.jobs[0].job.bs_bytes, 16 * KiB);
        CHECK_U64(f.jobs[0].job.iodepth, 7);
        CHECK(strcmp(f.jobs[0].opts[0].value, "16k") == 0);
    }
    iom_fio_file_free(&f);
}

/* MemTotal of /proc/meminfo in MiB: fio 3.33's $mb_memory on this kind of
 * machine (checked with fio --parse-only --debug=parse: size=5*1024*1024*
 * $mb_memory/8 parsed to 15797452800 with MemTotal 24684084 kB) */
static unsigned long long meminfo_mib(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    unsigned long long kb = 0;
    char line[256];
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb / 1024;
}

/* issue 19: fio's syntax (values read by hand, checked with fio 3.33 --parse-only --debug=parse) */
static void test_syntax(void)
{
    struct iom_fio_file f;
    char err[4096];
    /* trailing comments are cut at '#' or ';' (fio: "runtime=3600  # max" -> 3600 s,
     * "size=102404k ; 100Mb+4k" -> 104861696, "filename=/tmp/x#y" -> /tmp/x) */
    CHECK(parse("[a]\nruntime=3600  # max\nnumjobs=4 ; four\nsize=102404k ; 100Mb+4k\n"
                "time_based\nfilename=/tmp/x#y\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK_U64(f.jobs[0].job.runtime_ns, 3600 * SEC);
        CHECK_U64(f.jobs[0].fio_numjobs, 4);
        CHECK_U64(f.jobs[0].job.size_bytes, 104861696);
        CHECK(strcmp(f.jobs[0].job.targets[0], "/tmp/x") == 0);
    }
    iom_fio_file_free(&f);
    /* built-in variables and arithmetic */
    unsigned long long mb = meminfo_mib();
    CHECK(parse("[a]\nsize=5*1024*1024*$mb_memory/8\nbs=$pagesize\niodepth=(2*8)\n"
                "filename=/tmp/x\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1 && mb) {
        unsigned long long want = 5ULL * 1024 * 1024 * mb / 8;
        want -= want % 4096; /* iomark: a whole number of blocks */
        CHECK_U64(f.jobs[0].job.size_bytes, want);
        CHECK_U64(f.jobs[0].job.bs_bytes, 4096); /* x86-64 page */
        CHECK_U64(f.jobs[0].job.iodepth, 16);
    }
    iom_fio_file_free(&f);
    /* fio 3.33 refuses units inside an expression: "offset=(4k*2)" */
    expect_refused("[a]\noffset=(4k*2)\n", NULL, "line 2", "offset=(4k*2)");
    /* percentages are kept for the file's size */
    CHECK(parse("[a]\nsize=30%\noffset=10%\nfilename=/tmp/x\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK_U64(f.jobs[0].size_pct, 30);
        CHECK_U64(f.jobs[0].offset_pct, 10);
    }
    iom_fio_file_free(&f);
    /* every unsupported option of the file in one refusal, engines and zoned options by name */
    CHECK(parse("[global]\nioengine=rbd\nzonemode=zbd\n[a]\ncgroup=x\n[b]\nexec_prerun=ls\n", NULL,
                &f, err) == -EINVAL);
    CHECK(strstr(err, "4 options") != NULL);
    CHECK(strstr(err, "line 2: ioengine=rbd") != NULL);
    CHECK(strstr(err, "line 3: zonemode=zbd (zoned") != NULL);
    CHECK(strstr(err, "line 5: cgroup=x") != NULL);
    CHECK(strstr(err, "line 7: exec_prerun=ls") != NULL);
    /* defaults and options fio's corpus uses */
    CHECK(parse("[a]\nfilename=/tmp/x\nrw=randread\n[b]\nfilename=/tmp/y\nnorandommap\n"
                "invalidate=0\nrandom_generator=lfsr\nverify=crc32c\ncontinue_on_error=none\n"
                "bsrange=4k-16k\n[c]\nfilename=/tmp/z\nrw=read:8k\nbs=4k\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 3) {
        CHECK(f.jobs[0].job.random_map);
        CHECK(f.jobs[0].job.invalidate);
        CHECK(!f.jobs[1].job.random_map);
        CHECK(!f.jobs[1].job.invalidate);
        CHECK(f.jobs[1].job.verify);
        CHECK(!f.jobs[1].job.continue_on_error);
        CHECK(strcmp(f.jobs[1].random_generator, "lfsr") == 0);
        /* fio: uniform in [4k,16k] rounded down to 4k: 4k, 8k, 12k equally, 16k ~never */
        CHECK_U64(f.jobs[1].job.nr_bssplit, 3);
        CHECK_U64(f.jobs[1].job.bssplit[0].bs_bytes, 4096);
        CHECK_U64(f.jobs[1].job.bssplit[2].bs_bytes, 12288);
        CHECK_U64(f.jobs[2].job.seq_stride_bytes, 12288); /* 4k I/O, then skip 8k */
    }
    iom_fio_file_free(&f);
    /* number_ios=10 of 4k: 10 I/Os (fio 3.33 ran 10 reads of this job) */
    CHECK(parse("[a]\nfilename=/tmp/x\nrw=randread\nsize=1m\nnumber_ios=10\ndisable_lat=1\n"
                "kb_base=1024\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1)
        CHECK_U64(f.jobs[0].job.io_limit_bytes, 10 * 4096);
    iom_fio_file_free(&f);
    /* kb_base=1000 (fio parse.c __get_mult_bytes): 4k = 4 x 1000 bytes, 1MiB = 2^20,
     * wherever kb_base stands in the section */
    CHECK(parse("[a]\nfilename=/tmp/x\nbs=4k\nsize=1MiB\nkb_base=1000\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK_U64(f.jobs[0].job.bs_bytes, 4000);
        CHECK_U64(f.jobs[0].kb_base, 1000);
    }
    iom_fio_file_free(&f);
    expect_refused("[a]\nkb_base=1001\n", NULL, "line 2", "kb_base=1001");
}

/* fio's example corpus: an option of an engine iomark lacks is named as that
 * engine's (fio 3.33 engines/e4defrag.c defines donorname and inplace), and a
 * ${NAME} not set in the environment reads as empty, as fio 3.33's
 * fio_option_dup_subs (fio --parse-only --debug=parse on nbd.fio shows
 * "uri=nbd+unix:///?socket=") */
static void test_corpus(void)
{
    struct iom_fio_file f;
    char err[600];
    expect_refused("[a]\nioengine=e4defrag\ndonorname=file.def\ninplace=0\nnorandommap\n", NULL,
                   "line 3: donorname=file.def (an option of fio's e4defrag engine)",
                   "line 4: inplace=0 (an option of fio's e4defrag engine)");
    /* without its engine named, donorname is no engine's (and not run) */
    CHECK(parse("[a]\ndonorname=file.def\n", NULL, &f, err) == -EINVAL);
    CHECK(strstr(err, "line 2: donorname=file.def") && !strstr(err, "e4defrag"));
    /* an option of another engine than the one named is not marked */
    CHECK(parse("[a]\nioengine=e4defrag\nskip_bad=1\n", NULL, &f, err) == -EINVAL);
    CHECK(strstr(err, "line 3: skip_bad=1") && !strstr(err, "mtd"));
    unsetenv("IOMARK_T_UNSET");
    expect_refused("[a]\nioengine=nbd\nuri=nbd+unix:///?socket=${IOMARK_T_UNSET}\n", NULL,
                   "line 3: uri=nbd+unix:///?socket= (${IOMARK_T_UNSET} not set: empty) "
                   "(an option of fio's nbd engine)", "ioengine=nbd (an engine");
    /* an empty rw= is refused (fio 3.33: "failed parsing rw=${FIO_RW}"), naming the variable */
    expect_refused("[a]\nrw=${IOMARK_T_UNSET}\n", NULL, "line 2: rw=",
                   "${IOMARK_T_UNSET} is not set in the environment");
    /* a file name made with it runs, with a note */
    CHECK(parse("[a]\nfilename=/tmp/x${IOMARK_T_UNSET}y\nsize=1m\n", NULL, &f, err) == 0);
    if (f.nr_jobs == 1) {
        CHECK(strcmp(f.jobs[0].job.targets[0], "/tmp/xy") == 0);
        CHECK(strstr(f.jobs[0].note, "line 2: filename=/tmp/xy: ${IOMARK_T_UNSET} is not set") !=
              NULL);
    }
    iom_fio_file_free(&f);
}

int main(void)
{
    test_corpus();
    test_syntax();
    test_cdm();
    test_iometer();
    test_oltp();
    test_small();
    return check_status("test_fiojob");
}
