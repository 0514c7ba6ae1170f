/* fiojob_engopts.c - the option names of fio 3.33's I/O engines, to name an
 * option of an engine iomark does not have as that engine's (fiojob_int.h
 * iom_fioj_engine_option). Source: every `struct fio_option` table in
 * the engines/ C files of github.com/axboe/fio tag fio-3.33 (commit
 * 72bcaffd7d56d4c2ebad6d0a1e465e0e9db8be40), listed under the `.name` of each
 * `struct ioengine_ops` whose `.options` is that table; the same list as
 * tests/data/fio-3.33-engine-options.txt (made by tests/data/fio_engine_options.py). */
#include "workload/fiojob_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/args.h"

static const struct {
    const char *engine, *option;
} engopts[] = {
    {"cpuio", "cpuchunks"},
    {"cpuio", "cpuload"},
    {"cpuio", "cpumode"},
    {"cpuio", "exit_on_io_done"},
    {"dfs", "chunk_size"},
    {"dfs", "cont"},
    {"dfs", "object_class"},
    {"dfs", "pool"},
    {"dfs", "svcl"},
    {"e4defrag", "donorname"},
    {"e4defrag", "inplace"},
    {"exec", "arguments"},
    {"exec", "grace_time"},
    {"exec", "program"},
    {"exec", "std_redirect"},
    {"filestat", "stat_type"},
    {"gfapi", "brick"},
    {"gfapi", "single-instance"},
    {"gfapi", "volume"},
    {"gfapi_async", "brick"},
    {"gfapi_async", "single-instance"},
    {"gfapi_async", "volume"},
    {"http", "http_host"},
    {"http", "http_mode"},
    {"http", "http_pass"},
    {"http", "http_s3_key"},
    {"http", "http_s3_keyid"},
    {"http", "http_s3_region"},
    {"http", "http_s3_sse_customer_algorithm"},
    {"http", "http_s3_sse_customer_key"},
    {"http", "http_s3_storage_class"},
    {"http", "http_swift_auth_token"},
    {"http", "http_user"},
    {"http", "http_verbose"},
    {"http", "https"},
    {"io_uring", "cmd_type"},
    {"io_uring", "cmdprio"},
    {"io_uring", "cmdprio_bssplit"},
    {"io_uring", "cmdprio_class"},
    {"io_uring", "cmdprio_percentage"},
    {"io_uring", "fixedbufs"},
    {"io_uring", "force_async"},
    {"io_uring", "hipri"},
    {"io_uring", "nonvectored"},
    {"io_uring", "nowait"},
    {"io_uring", "registerfiles"},
    {"io_uring", "sqthread_poll"},
    {"io_uring", "sqthread_poll_cpu"},
    {"io_uring", "uncached"},
    {"io_uring_cmd", "cmd_type"},
    {"io_uring_cmd", "cmdprio"},
    {"io_uring_cmd", "cmdprio_bssplit"},
    {"io_uring_cmd", "cmdprio_class"},
    {"io_uring_cmd", "cmdprio_percentage"},
    {"io_uring_cmd", "fixedbufs"},
    {"io_uring_cmd", "force_async"},
    {"io_uring_cmd", "hipri"},
    {"io_uring_cmd", "nonvectored"},
    {"io_uring_cmd", "nowait"},
    {"io_uring_cmd", "registerfiles"},
    {"io_uring_cmd", "sqthread_poll"},
    {"io_uring_cmd", "sqthread_poll_cpu"},
    {"io_uring_cmd", "uncached"},
    {"libaio", "cmdprio"},
    {"libaio", "cmdprio_bssplit"},
    {"libaio", "cmdprio_class"},
    {"libaio", "cmdprio_percentage"},
    {"libaio", "nowait"},
    {"libaio", "userspace_reap"},
    {"libcufile", "cuda_io"},
    {"libcufile", "gpu_dev_ids"},
    {"libhdfs", "chunck_size"},
    {"libhdfs", "chunk_size"},
    {"libhdfs", "hdfs_use_direct"},
    {"libhdfs", "hdfsdirectory"},
    {"libhdfs", "hostname"},
    {"libhdfs", "namenode"},
    {"libhdfs", "port"},
    {"libhdfs", "single_instance"},
    {"libiscsi", "initiator"},
    {"librpma_apm_client", "busy_wait_polling"},
    {"librpma_apm_client", "direct_write_to_pmem"},
    {"librpma_apm_client", "port"},
    {"librpma_apm_client", "serverip"},
    {"librpma_apm_server", "busy_wait_polling"},
    {"librpma_apm_server", "direct_write_to_pmem"},
    {"librpma_apm_server", "port"},
    {"librpma_apm_server", "serverip"},
    {"librpma_gpspm_client", "busy_wait_polling"},
    {"librpma_gpspm_client", "direct_write_to_pmem"},
    {"librpma_gpspm_client", "port"},
    {"librpma_gpspm_client", "serverip"},
    {"librpma_gpspm_server", "busy_wait_polling"},
    {"librpma_gpspm_server", "direct_write_to_pmem"},
    {"librpma_gpspm_server", "port"},
    {"librpma_gpspm_server", "serverip"},
    {"mmap", "thp"},
    {"mtd", "skip_bad"},
    {"nbd", "uri"},
    {"net", "hostname"},
    {"net", "interface"},
    {"net", "listen"},
    {"net", "mss"},
    {"net", "nodelay"},
    {"net", "pingpong"},
    {"net", "port"},
    {"net", "proto"},
    {"net", "protocol"},
    {"net", "ttl"},
    {"net", "window_size"},
    {"netsplice", "hostname"},
    {"netsplice", "interface"},
    {"netsplice", "listen"},
    {"netsplice", "mss"},
    {"netsplice", "nodelay"},
    {"netsplice", "pingpong"},
    {"netsplice", "port"},
    {"netsplice", "proto"},
    {"netsplice", "protocol"},
    {"netsplice", "ttl"},
    {"netsplice", "window_size"},
    {"nfs", "nfs_url"},
    {"pvsync2", "hipri"},
    {"pvsync2", "hipri_percentage"},
    {"pvsync2", "nowait"},
    {"pvsync2", "uncached"},
    {"rados", "busy_poll"},
    {"rados", "clientname"},
    {"rados", "clustername"},
    {"rados", "conf"},
    {"rados", "pool"},
    {"rados", "touch_objects"},
    {"rbd", "busy_poll"},
    {"rbd", "clientname"},
    {"rbd", "clustername"},
    {"rbd", "pool"},
    {"rbd", "rbdname"},
    {"rdma", "bindname"},
    {"rdma", "hostname"},
    {"rdma", "port"},
    {"rdma", "proto"},
    {"rdma", "verb"},
    {"sg", "hipri"},
    {"sg", "readfua"},
    {"sg", "sg_write_mode"},
    {"sg", "stream_id"},
    {"sg", "writefua"},
    {"windowsaio", "no_completion_thread"},
    {"xnvme", "hipri"},
    {"xnvme", "sqthread_poll"},
    {"xnvme", "xnvme_admin"},
    {"xnvme", "xnvme_async"},
    {"xnvme", "xnvme_be"},
    {"xnvme", "xnvme_dev_nsid"},
    {"xnvme", "xnvme_iovec"},
    {"xnvme", "xnvme_sync"},
};

bool iom_fioj_engine_option(const char *engine, const char *option)
{
    for (size_t i = 0; i < sizeof(engopts) / sizeof(engopts[0]); i++)
        if (strcmp(engopts[i].engine, engine) == 0 && strcmp(engopts[i].option, option) == 0)
            return true;
    return false;
}

static int by_name(const void *key, const void *elem)
{
    return strcmp(key, ((const struct iom_fioj_name *)elem)->name);
}

static const struct iom_fioj_name *find_name(const char *name)
{
    return bsearch(name, iom_fioj_names, iom_fioj_nr_names, sizeof(iom_fioj_names[0]), by_name);
}

const char *iom_fioj_fio_name(const char *name)
{
    const struct iom_fioj_name *e = find_name(name);
    if (e && strcmp(e->own, "-") != 0)
        return e->own;
    for (size_t i = 0; i < sizeof(engopts) / sizeof(engopts[0]); i++)
        if (strcmp(engopts[i].option, name) == 0)
            return engopts[i].option;
    return NULL;
}

bool iom_fioj_fio_cmdline(const char *name)
{
    const struct iom_fioj_name *e = find_name(name);
    return e && strcmp(e->own, "-") == 0;
}

const char *iom_fioj_fio_nearest(const char *typed, bool cmdline)
{
    const char *near = NULL;
    unsigned best = 5;
    for (unsigned i = 0; i < iom_fioj_nr_names; i++) {
        if (!cmdline && strcmp(iom_fioj_names[i].own, "-") == 0)
            continue;
        iom_name_nearer(typed, iom_fioj_names[i].name, &best, &near);
    }
    for (size_t i = 0; i < sizeof(engopts) / sizeof(engopts[0]); i++)
        iom_name_nearer(typed, engopts[i].option, &best, &near);
    return near;
}

const char *iom_fioj_engine_nearest(const char *value)
{
    for (unsigned i = 0; i < iom_fioj_nr_engines; i++)
        if (strcmp(value, iom_fioj_engines[i]) == 0)
            return NULL; /* an engine of fio's: no typo */
    const char *near = NULL;
    unsigned best = 3;
    for (size_t i = 0; iom_engines[i]; i++)
        iom_name_nearer(value, iom_engines[i]->name, &best, &near);
    return near;
}

/* fio 3.33's JSON lists "job options" and "global options" under fio's own names
 * ("ba" for "blockalign", fiojob_names.c), leaves out options given without a
 * value, and puts filename last (checked against fio 3.33's JSON of the same jobs:
 * tests/integration/test_fio_report_trial.sh) */
void iom_fioj_fio_opts(struct iom_fio_kv *opts, uint32_t *nr)
{
    static struct iom_fio_kv file;
    bool has_file = false;
    uint32_t n = 0;
    for (uint32_t k = 0; k < *nr; k++) {
        struct iom_fio_kv *kv = &opts[k];
        if (!kv->value[0])
            continue;
        if (strcmp(kv->name, "filename") == 0) {
            file = *kv;
            has_file = true;
            continue;
        }
        const char *own = iom_fioj_fio_name(kv->name);
        if (own && strcmp(own, kv->name) != 0)
            snprintf(kv->name, sizeof(kv->name), "%s", own);
        if (n != k)
            opts[n] = *kv;
        n++;
    }
    if (has_file)
        opts[n++] = file;
    *nr = n;
}

void iom_fioj_unknown(char *err, size_t errlen, const char *where, const char *n, const char *v,
                      bool cmd)
{
    /* fio 3.33's own names (fiojob_names.c, generated from fio --cmdhelp; engine
     * options fiojob_engopts.c): a fio option outside iomark's subset is listed as it
     * is written; a name fio does not know is said to be none of fio's, with the
     * nearest fio name within iom_fioj_fio_nearest's reach (fio's "Did you mean") */
    const char *dash = cmd ? "--" : "";
    if (iom_fioj_fio_name(n)) {
        snprintf(err, errlen, "%s: %s%s%s", where, n, *v ? "=" : "", v);
    } else if (cmd && iom_fioj_fio_cmdline(n)) {
        snprintf(err, errlen, "%s: --%s%s%s (a command-line option of fio, which iomark does "
                 "not have)", where, n, *v ? "=" : "", v);
    } else {
        const char *near = iom_fioj_fio_nearest(n, cmd);
        if (near && cmd)
            snprintf(err, errlen, "%s: --%s%s%s (did you mean --%s?)", where, n, *v ? "=" : "",
                     v, near);
        else
            snprintf(err, errlen, "%s: %s%s%s%s (not a fio 3.33 option%s%s%s)", where, dash, n,
                     *v ? "=" : "", v, near ? "; did you mean " : "", near ? near : "",
                     near ? "?" : "");
    }
}
