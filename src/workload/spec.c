/* spec.c - defaults, copying and cross-field validation of a workload spec. */
#include "workload/spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "workload/units.h"
#include "workload/vtypes.h"

static const char *const rw_names[] = {
    [IOM_RW_READ] = "read",          [IOM_RW_WRITE] = "write", [IOM_RW_RANDREAD] = "randread",
    [IOM_RW_RANDWRITE] = "randwrite", [IOM_RW_RW] = "rw",       [IOM_RW_RANDRW] = "randrw",
    [IOM_RW_TRIM] = "trim",           [IOM_RW_RANDTRIM] = "randtrim",
    [IOM_RW_TRIMWRITE] = "trimwrite", [IOM_RW_RANDTRIMWRITE] = "randtrimwrite",
};

void iom_job_defaults(struct iom_job *job)
{
    memset(job, 0, sizeof(*job));
    strcpy(job->name, "job");
    job->rw = IOM_RW_RANDREAD;
    job->rwmixread_pct = 50;
    job->bs_bytes = 4096;
    job->percentage_random = 100;
    job->numjobs = 1;
    job->iodepth = 1;
    job->runtime_ns = UINT64_C(10000000000);
    job->series_interval_ns = UINT64_C(1000000000);
    job->ratecycle_ns = UINT64_C(1000000000);
    job->latency_pct = 100.0; /* fio's latency_percentile default */
    job->ss_state = IOM_SS_IOPS | IOM_SS_SLOPE | IOM_SS_PCT; /* fio's default iops_slope:0.01% */
    job->ss_limit = 0.01;
    job->compress_chunk = 512; /* fio's buffer_compress_chunk default */
    snprintf(job->ioengine, sizeof(job->ioengine), "%s", iom_engines[0]->name); /* the default */
    job->direct = true;
    job->do_verify = true; /* fio's default do_verify=1 */
}

int iom_job_add_target(struct iom_job *job, const char *path)
{
    char **t = realloc(job->targets, (job->nr_targets + 1) * sizeof(*t));
    if (!t)
        return -ENOMEM;
    job->targets = t;
    t[job->nr_targets] = strdup(path);
    if (!t[job->nr_targets])
        return -ENOMEM;
    job->nr_targets++;
    return 0;
}

int iom_job_copy(struct iom_job *dst, const struct iom_job *src)
{
    *dst = *src;
    dst->targets = NULL;
    dst->nr_targets = 0;
    for (uint32_t i = 0; i < src->nr_targets; i++) {
        if (iom_job_add_target(dst, src->targets[i])) {
            iom_job_free(dst);
            return -ENOMEM;
        }
    }
    return 0;
}

void iom_job_free(struct iom_job *job)
{
    for (uint32_t i = 0; i < job->nr_targets; i++)
        free(job->targets[i]);
    free(job->targets);
    job->targets = NULL;
    job->nr_targets = 0;
}

uint32_t iom_job_read_pct(const struct iom_job *job)
{
    switch (job->rw) {
    case IOM_RW_READ:
    case IOM_RW_RANDREAD:
        return 100;
    case IOM_RW_RW:
    case IOM_RW_RANDRW:
        return job->rwmixread_pct;
    default: /* writes, trims */
        return 0;
    }
}

bool iom_job_trims(const struct iom_job *job)
{
    return job->rw >= IOM_RW_TRIM;
}

bool iom_job_trimwrite(const struct iom_job *job)
{
    return job->rw == IOM_RW_TRIMWRITE || job->rw == IOM_RW_RANDTRIMWRITE;
}

bool iom_job_writes(const struct iom_job *job)
{
    return iom_job_read_pct(job) < 100;
}

bool iom_job_random(const struct iom_job *job)
{
    return job->rw == IOM_RW_RANDREAD || job->rw == IOM_RW_RANDWRITE || job->rw == IOM_RW_RANDRW ||
           job->rw == IOM_RW_RANDTRIM || job->rw == IOM_RW_RANDTRIMWRITE;
}

uint64_t iom_job_span_bytes(const struct iom_job *job)
{
    if (!job->size_bytes)
        return 0;
    unsigned __int128 span = (unsigned __int128)job->offset_increment_bytes *
                             (job->numjobs ? job->numjobs - 1 : 0) + job->size_bytes;
    return span > UINT64_MAX ? UINT64_MAX : (uint64_t)span;
}

bool iom_job_write_sizes(const struct iom_job *job)
{
    return (job->wbs_bytes || job->nr_wbssplit) && !iom_job_trims(job);
}

/* smallest and largest of one direction's sizes: a bssplit list, else one size */
static void bs_span(const struct iom_bs_weight *v, uint32_t n, uint64_t one, uint64_t *lo,
                    uint64_t *hi)
{
    *lo = *hi = one;
    if (n) {
        *lo = UINT64_MAX;
        *hi = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (v[i].bs_bytes < *lo)
                *lo = v[i].bs_bytes;
            if (v[i].bs_bytes > *hi)
                *hi = v[i].bs_bytes;
        }
    }
}

/* over the directions the pattern issues: reads' sizes, writes' own ones */
static void job_bs_span(const struct iom_job *job, uint64_t *lo, uint64_t *hi)
{
    bs_span(job->bssplit, job->nr_bssplit, job->bs_bytes, lo, hi);
    if (!iom_job_write_sizes(job))
        return;
    uint64_t wlo, whi;
    bs_span(job->wbssplit, job->nr_wbssplit, job->wbs_bytes, &wlo, &whi);
    uint32_t rp = iom_job_read_pct(job);
    if (rp == 0) {
        *lo = wlo;
        *hi = whi;
    } else if (rp < 100) {
        *lo = wlo < *lo ? wlo : *lo;
        *hi = whi > *hi ? whi : *hi;
    }
}

uint64_t iom_job_min_bs(const struct iom_job *job)
{
    uint64_t lo, hi;
    job_bs_span(job, &lo, &hi);
    return lo;
}

uint64_t iom_job_max_bs(const struct iom_job *job)
{
    uint64_t lo, hi;
    job_bs_span(job, &lo, &hi);
    return hi;
}

uint64_t iom_job_max_write_bs(const struct iom_job *job)
{
    uint64_t lo, hi;
    if (job->wbs_bytes || job->nr_wbssplit)
        bs_span(job->wbssplit, job->nr_wbssplit, job->wbs_bytes, &lo, &hi);
    else
        bs_span(job->bssplit, job->nr_bssplit, job->bs_bytes, &lo, &hi);
    return hi;
}

const char *iom_rw_name(enum iom_rw rw)
{
    return (unsigned)rw < sizeof(rw_names) / sizeof(rw_names[0]) ? rw_names[rw] : "?";
}

int iom_rw_parse(const char *s, enum iom_rw *rw)
{
    for (unsigned i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++) {
        if (strcmp(s, rw_names[i]) == 0) {
            *rw = (enum iom_rw)i;
            return 0;
        }
    }
    if (strcmp(s, "readwrite") == 0) { /* fio's alias */
        *rw = IOM_RW_RW;
        return 0;
    }
    return -EINVAL;
}

int iom_job_validate(const struct iom_job *job, const char **option, const char **why)
{
    if (job->nr_targets == 0) {
        *option = "target";
        *why = "no target given; name a file or block device";
        return -EINVAL;
    }
    if (job->dedupe_pct && job->dedupe_ws &&
        (!job->dedupe_ws_pct || job->dedupe_ws_pct + job->dedupe_pct > 100 || !job->size_bytes)) {
        *option = "dedupe_working_set_percentage"; /* fio init.c fixup_options */
        *why = "dedupe_mode=working_set needs --size and a working set of 1-100 % that, added "
               "to --dedupe_percentage, is at most 100 (its writes are unique)";
        return -EINVAL;
    }
    if (iom_job_cmdprio_check(job, option, why))
        return -EINVAL;
    if (job->nr_bssplit) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < job->nr_bssplit; i++)
            sum += job->bssplit[i].pct;
        if (sum != 100) {
            *option = "bssplit";
            *why = "the percentages must add up to 100";
            return -EINVAL;
        }
    }
    if (job->nr_wbssplit) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < job->nr_wbssplit; i++)
            sum += job->wbssplit[i].pct;
        if (sum != 100) {
            *option = "bssplit_write";
            *why = "the percentages must add up to 100";
            return -EINVAL;
        }
    }
    if (job->dist == IOM_DIST_ZONED) {
        uint32_t a = 0, r = 0;
        for (uint32_t i = 0; i < job->nr_zones; i++) {
            a += job->zones[i].access_pct;
            r += job->zones[i].range_pct;
        }
        if (a != 100 || r != 100) {
            *option = "random_distribution";
            *why = "zoned access and range percentages must each add up to 100";
            return -EINVAL;
        }
    }
    if ((job->ratemin_bytes && job->rate_bytes_per_s && job->ratemin_bytes > job->rate_bytes_per_s) ||
        (job->rate_iops_min && job->rate_iops && job->rate_iops_min > job->rate_iops)) {
        *option = job->ratemin_bytes > job->rate_bytes_per_s ? "rate_min" : "rate_iops_min";
        *why = "the minimum rate exceeds the rate cap (fio: \"minimum rate exceeds rate\")";
        return -EINVAL;
    }
    if (job->startdelay_hi_ns && job->startdelay_hi_ns < job->startdelay_ns) {
        *option = "startdelay";
        *why = "a range needs LOW-HIGH with LOW <= HIGH";
        return -EINVAL;
    }
    if (job->size_bytes && job->size_bytes < iom_job_max_bs(job)) {
        static _Thread_local char text[160]; /* the values, for a one-line message */
        char a[48], b[48];
        snprintf(text, sizeof(text), "%s is smaller than one block of %s; give at least the "
                 "largest block size", iom_format_bytes(job->size_bytes, a, sizeof(a)),
                 iom_format_bytes(iom_job_max_bs(job), b, sizeof(b)));
        *option = "size";
        *why = text;
        return -EINVAL;
    }
    if (job->seq_back_bytes) {
        if (iom_job_random(job) || job->rw == IOM_RW_RW || job->nr_bssplit ||
            iom_job_write_sizes(job) || job->seq_shared || job->seq_stride_bytes ||
            job->thread_stride_bytes || job->offset_bytes) {
            *option = "seq_back";
            *why = "backward skips need a pure sequential read or write pattern with one "
                   "block size, offset 0 and no other stride";
            return -EINVAL;
        }
        if (job->seq_back_bytes < job->bs_bytes) {
            *option = "seq_back";
            *why = "the backward skip must be at least the block size";
            return -EINVAL;
        }
    }
    if (job->verify && job->verify_fio) { /* fio's blocks: each carries its offset and length */
        uint32_t hs = iom_fio_verify_hdr_size((enum iom_fio_vtype)job->verify_fio);
        uint64_t iv = job->verify_interval ? job->verify_interval : iom_job_min_bs(job);
        *option = "verify";
        if (!iom_fio_verify_available((enum iom_fio_vtype)job->verify_fio)) {
            *why = "this build has no hash library for it (allowed here: meta, pattern, sha512, "
                   "crc64, crc32, crc32c, crc32c-intel, crc16, crc7, xxhash)";
            return -EINVAL;
        }
        if (iom_job_trims(job)) {
            *why = "not with trims";
            return -EINVAL;
        }
        if (iv < hs || iom_job_min_bs(job) < hs) {
            *why = "fio's header needs blocks and a verify_interval of at least its size: 40 "
                   "bytes, plus the digest (crc7 1, crc16 2, crc32/crc32c/xxhash 4, crc64 8, md5 "
                   "16, sha1 20, sha3 28-64, sha256 64, sha512 128)";
            return -EINVAL;
        }
        *option = NULL;
    } else if (job->verify) {
        if (iom_job_trims(job) || job->nr_bssplit || job->rw == IOM_RW_RW || job->rw == IOM_RW_RANDRW ||
            (job->blockalign_bytes && job->blockalign_bytes % job->bs_bytes) ||
            job->seq_stride_bytes || job->seq_back_bytes || job->thread_stride_bytes ||
            job->bs_bytes < 40 || job->offset_bytes % job->bs_bytes) {
            *option = "verify";
            *why = "needs a fixed block size of at least 40 bytes, block-aligned offsets, and a "
                   "pure read or write pattern (write first, then read back)";
            return -EINVAL;
        }
    }
    if (job->runtime_ns == 0 && job->io_limit_bytes == 0) {
        *option = "runtime";
        *why = "a run needs a --runtime or an --io_size to end";
        return -EINVAL;
    }
    if ((job->rate_iops || job->rate_w_iops) && (job->rate_bytes_per_s || job->rate_w_bytes_per_s)) {
        *option = job->rate_bytes_per_s ? "rate" : "rate_write";
        *why = "give either IOPS caps (--rate_iops, --rate_iops_write) or byte caps (--rate, "
               "--rate_write), not both";
        return -EINVAL;
    }
    return 0;
}
