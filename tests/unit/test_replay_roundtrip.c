/* test_replay_roundtrip.c - every option of the option table survives
 * job -> spec.options (JSON) -> job: the serialised spec comes from the
 * table (iom_options_each) and `iomark run --replay` reads it back
 * (iom_replay_load). The option list below is written by hand; that it
 * covers the whole table is checked against `iomark run --help`'s text. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "import/replay.h"
#include "report/report.h"
#include "workload/options.h"

/* every workload option with a value that is not its default */
static const char *const every[][2] = {
    {"name", "rt-job"}, {"rw", "randrw"}, {"bs", "8k"}, {"bssplit", "4k/60:64k/40"},
    {"blockalign", "8k"}, {"rwmixread", "70"}, {"percentage_random", "90"},
    {"random_distribution", "zoned:60/10:30/20:10/70"}, {"sequential_shared", "1"},
    {"seq_stride", "16k"}, {"seq_back", "8k"}, {"thread_stride", "1M"}, {"random_map", "1"}, {"seq_same_start", "1"},
    {"iodepth", "32"},
    {"numjobs", "3"}, {"size", "64M"}, {"create_size", "128M"}, {"offset", "4k"},
    {"runtime", "7s"}, {"io_size", "32M"}, {"ramp_time", "2s"}, {"cooldown_time", "1500ms"},
    {"series_interval", "250ms"}, {"ioengine", "libaio"}, {"direct", "0"}, {"sync", "dsync"},
    {"thinktime", "3ms"}, {"thinktime_blocks", "24"}, {"rate_iops", "5000"}, {"rate", "50M"},
    {"rate_write", "30M"}, {"rate_iops_write", "3000"},
    {"randseed", "12345"}, {"zero_buffers", "1"}, {"verify", "crc32c"}, {"do_verify", "0"},
    {"continue_on_error", "1"}, {"inject_error", "ENOSPC:777"}, {"keep", "1"},
    {"startdelay", "2s-5s"}, {"rate_min", "1M"}, {"rate_iops_min", "10"}, {"rate_cycle", "500ms"},
    {"flow", "3"}, {"flow_id", "2"}, {"flow_sleep", "1ms"}, {"iodepth_batch_submit", "4"},
    {"iodepth_batch_complete_min", "2"}, {"iodepth_batch_complete_max", "8"},
    {"iodepth_low", "16"}, {"cpus_allowed", "0"}, {"cpus_allowed_policy", "split"},
    {"numa_mem_policy", "local"}, {"refill_buffers", "1"}, {"scramble_buffers", "1"},
    {"offset_increment", "1M"}, {"rate_process", "poisson"}, {"bs_write", "16k"},
    {"bssplit_write", "8k/50:64k/50"}, {"exitall", "1"}, {"exitall_on_error", "1"},
    {"exit_what", "all"}, {"latency_target", "500us"}, {"latency_window", "2s"},
    {"latency_percentile", "99.9"}, {"latency_run", "1"}, {"ss", "bw:10485760"},
    {"ss_dur", "30s"}, {"ss_ramp", "5s"}, {"buffer_pattern", "0xdeadbeef\"ab\""},
    {"buffer_compress_percentage", "40"}, {"buffer_compress_chunk", "4k"},
    {"dedupe_percentage", "20"}, {"dedupe_mode", "working_set"},
    {"dedupe_working_set_percentage", "30"}, {"cmdprio_percentage", "20,30"},
    {"cmdprio_class", "3,2"}, {"cmdprio", "5"}, {"cmdprio_bssplit", "64k/25/1/1:64k/75/3/2,4k/10"},
    {"log_prio", "1"},
};
#define NR_EVERY (sizeof(every) / sizeof(every[0]))
/* options that are not part of a workload's spec: aliases of the rows
 * above, the session's options and the --force safety override */
static const char *const not_spec[] = {"readwrite", "rwmixwrite", "buffered", "output-format",
                                       "output", "replay", "quiet", "status-interval", "help",
                                       "force", "ratemin", "iodepth_batch",
                                       "iodepth_batch_complete", "cpumask", "numa_cpu_nodes"};

struct kv {
    char name[128][64];
    char value[128][2048];
    int set[128];
    int n;
};

static int collect(const char *name, const char *value, void *arg)
{
    struct kv *kv = arg;
    if (kv->n == 128)
        return -1;
    snprintf(kv->name[kv->n], sizeof(kv->name[0]), "%s", name);
    snprintf(kv->value[kv->n], sizeof(kv->value[0]), "%s", value ? value : "");
    kv->set[kv->n++] = value != NULL;
    return 0;
}

/* a and b equal in every workload field (the parser's bookkeeping aside) */
static int same_job(struct iom_job a, struct iom_job b)
{
    a.runtime_set = b.runtime_set = false;
    a.rwmix_given = b.rwmix_given = false;
    a.targets = b.targets = NULL;
    a.nr_targets = b.nr_targets = 0;
    return memcmp(&a, &b, sizeof(a)) == 0;
}

static void apply_kv(const struct kv *kv, struct iom_job *job)
{
    struct iom_run_opts ro = {0};
    char err[512];
    for (int i = 0; i < kv->n; i++)
        if (kv->set[i] && iom_option_apply(kv->name[i], kv->value[i], job, &ro, err, sizeof(err))) {
            fprintf(stderr, "%s=%s: %s\n", kv->name[i], kv->value[i], err);
            CHECK(0);
        }
}

/* job -> JSON spec in a file -> iom_replay_load -> job */
static void via_json(const struct iom_job *a, struct iom_job *out)
{
    char path[] = "/tmp/iomark-replay-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "spec", iom_json_spec(a));
    char *text = cJSON_Print(doc);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "a log line before the document\n%s\n", text);
    fclose(f);
    free(text);
    cJSON_Delete(doc);
    iom_job_defaults(out);
    char err[512] = "";
    int rc = iom_replay_load(path, out, err, sizeof(err));
    if (rc)
        fprintf(stderr, "replay: %s\n", err);
    CHECK(rc == 0);
    unlink(path);
}

static void round_trip(const struct iom_job *a)
{
    struct kv *k1 = calloc(1, sizeof(*k1)), *k2 = calloc(1, sizeof(*k2));
    iom_options_each(a, collect, k1);
    struct iom_job b;
    iom_job_defaults(&b);
    apply_kv(k1, &b);
    CHECK(same_job(*a, b));
    iom_options_each(&b, collect, k2);
    CHECK(k1->n == k2->n);
    for (int i = 0; i < k1->n && i < k2->n; i++)
        CHECK(!strcmp(k1->name[i], k2->name[i]) && !strcmp(k1->value[i], k2->value[i]) &&
              k1->set[i] == k2->set[i]);
    struct iom_job c;
    via_json(a, &c);
    CHECK(same_job(*a, c));
    CHECK(c.nr_targets == a->nr_targets);
    for (uint32_t i = 0; i < c.nr_targets && i < a->nr_targets; i++)
        CHECK(!strcmp(c.targets[i], a->targets[i]));
    iom_job_free(&c);
    free(k1);
    free(k2);
}

int main(void)
{
    struct iom_job a;
    struct iom_run_opts ro = {0};
    char err[512];
    /* 1. the defaults */
    iom_job_defaults(&a);
    iom_job_add_target(&a, "/tmp/x.dat");
    round_trip(&a);
    iom_job_free(&a);

    /* 2. every option set to something else */
    iom_job_defaults(&a);
    for (size_t i = 0; i < NR_EVERY; i++)
        if (iom_option_apply(every[i][0], every[i][1], &a, &ro, err, sizeof(err))) {
            fprintf(stderr, "%s\n", err);
            CHECK(0);
        }
    iom_job_add_target(&a, "/tmp/x.dat");
    iom_job_add_target(&a, "/dev/loop7");
    CHECK(a.inject_errno != 0 && a.nr_zones == 3 && a.nr_bssplit == 2 && a.create_bytes == 128 << 20);
    round_trip(&a);
    /* the serialised spec names every option of the list, each set */
    struct kv *kv = calloc(1, sizeof(*kv));
    iom_options_each(&a, collect, kv);
    CHECK_U64(kv->n, NR_EVERY);
    for (size_t i = 0; i < NR_EVERY; i++) {
        int found = 0;
        for (int k = 0; k < kv->n; k++)
            found |= !strcmp(kv->name[k], every[i][0]) && kv->set[k];
        if (!found)
            fprintf(stderr, "spec lacks %s\n", every[i][0]);
        CHECK(found);
    }
    free(kv);
    iom_job_free(&a);

    /* 3. doubles and the other distributions round-trip exactly */
    static const char *const dists[] = {"zipf:1.2", "pareto:0.9", "zipf:0.1000000000000001",
                                        "zoned:100/100"};
    for (size_t i = 0; i < 4; i++) {
        iom_job_defaults(&a);
        CHECK(iom_option_apply("random_distribution", dists[i], &a, &ro, err, sizeof(err)) == 0);
        round_trip(&a);
        iom_job_free(&a);
    }

    /* 4. the table has no option the list above forgets: every --name in
     * the help text is in `every` or in `not_spec` */
    FILE *h = tmpfile();
    iom_options_help(h);
    rewind(h);
    char line[512];
    int listed = 0;
    while (fgets(line, sizeof(line), h)) {
        char name[64];
        if (sscanf(line, " --%63[a-z_-]", name) != 1)
            continue;
        listed++;
        int known = 0;
        for (size_t i = 0; i < NR_EVERY; i++)
            known |= !strcmp(name, every[i][0]);
        for (size_t i = 0; i < sizeof(not_spec) / sizeof(not_spec[0]); i++)
            known |= !strcmp(name, not_spec[i]);
        if (!known)
            fprintf(stderr, "option --%s is in the table but not in this test\n", name);
        CHECK(known);
    }
    fclose(h);
    CHECK_U64(listed, NR_EVERY + sizeof(not_spec) / sizeof(not_spec[0]));

    /* 5. refusals name the file and the reason */
    iom_job_defaults(&a);
    CHECK(iom_replay_load("/nonexistent/r.json", &a, err, sizeof(err)) < 0);
    CHECK(strstr(err, "/nonexistent/r.json") != NULL);
    char path[] = "/tmp/iomark-replay-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("{\"spec\": {\"options\": {\"bs\": \"0\"}}}\n", f);
    fclose(f);
    CHECK(iom_replay_load(path, &a, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "--bs=0") != NULL);
    f = fopen(path, "w");
    fputs("{\"spec\": {\"rw\": \"read\"}}\n", f);
    fclose(f);
    CHECK(iom_replay_load(path, &a, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "no spec.options") != NULL);
    unlink(path);
    iom_job_free(&a);
    return check_status("test_replay_roundtrip");
}
