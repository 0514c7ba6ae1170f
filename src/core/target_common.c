/* target_common.c - region and direct-I/O alignment checks shared by the
 * Linux (target.c) and Windows (target_win.c) target code. */
#include "core/target_int.h"

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "workload/units.h"



int iom_target_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

int iom_target_check_region(const struct iom_job *job, const char *path, struct iom_target *t,
                            uint64_t need, char *err, size_t errlen)
{
    uint64_t max_bs = iom_job_max_bs(job);
    t->need_bytes = need > t->size_bytes ? need : t->size_bytes;
    uint64_t total = t->need_bytes;
    if (total == 0)
        return iom_target_fail(err, errlen, -EINVAL, "target %s is empty (0 bytes); give --size to fill it",
                    path);
    if (job->offset_bytes >= total) {
        char o[64], e[64];
        return iom_target_fail(err, errlen, -EINVAL, "--offset: %s is past the end of %s, which "
                               "holds %s", iom_format_bytes(job->offset_bytes, o, sizeof(o)), path,
                               iom_format_bytes(total, e, sizeof(e)));
    }
    t->region_start = job->offset_bytes;
    t->region_len = job->size_bytes ? iom_job_span_bytes(job) : total - job->offset_bytes;
    if (t->region_len < max_bs)
        return iom_target_fail(err, errlen, -EINVAL,
                    "target %s: the region (%llu bytes) is smaller than one block (%llu bytes)",
                    path, (unsigned long long)t->region_len, (unsigned long long)max_bs);

    /* direct I/O alignment */
    if (job->direct && t->logical_block_bytes > 1) {
        uint32_t a = t->logical_block_bytes;
        if (job->nr_bssplit) {
            for (uint32_t i = 0; i < job->nr_bssplit; i++)
                if (job->bssplit[i].bs_bytes % a)
                    return iom_target_fail(err, errlen, -EINVAL,
                                "--bssplit: block size %llu is not a multiple of %s's logical "
                                "block size (%u bytes), which direct I/O requires",
                                (unsigned long long)job->bssplit[i].bs_bytes, path, a);
        } else if (job->bs_bytes % a && (iom_job_read_pct(job) || !iom_job_write_sizes(job))) {
            return iom_target_fail(err, errlen, -EINVAL,
                        "--bs: %llu bytes is not a multiple of %s's logical block size (%u "
                        "bytes), which direct I/O requires; use a multiple of %u or --direct=0",
                        (unsigned long long)job->bs_bytes, path, a, a);
        }
        for (uint32_t i = 0; i <= job->nr_wbssplit && iom_job_write_sizes(job); i++) {
            uint64_t b = job->nr_wbssplit ? (i < job->nr_wbssplit ? job->wbssplit[i].bs_bytes : 0)
                                          : (i ? 0 : job->wbs_bytes);
            if (b % a)
                return iom_target_fail(err, errlen, -EINVAL,
                            "--bs_write/--bssplit_write: block size %llu is not a multiple of "
                            "%s's logical block size (%u bytes), which direct I/O requires",
                            (unsigned long long)b, path, a);
        }
        if (job->offset_bytes % a) {
            char o[64];
            return iom_target_fail(err, errlen, -EINVAL,
                        "--offset: %s is not a multiple of %s's logical block size (%u bytes), "
                        "which direct I/O requires",
                        iom_format_bytes(job->offset_bytes, o, sizeof(o)), path, a);
        }
        if (job->blockalign_bytes % a)
            return iom_target_fail(err, errlen, -EINVAL,
                        "--blockalign=%llu: not a multiple of %s's logical block size (%u "
                        "bytes)",
                        (unsigned long long)job->blockalign_bytes, path, a);
        if (job->seq_stride_bytes % a || job->seq_back_bytes % a ||
            job->thread_stride_bytes % a ||
            job->offset_increment_bytes % a)
            return iom_target_fail(err, errlen, -EINVAL,
                        "stride or offset_increment: not a multiple of %s's logical block size "
                        "(%u bytes)", path, a);
    }

    return 0;
}

int iom_path_folder_error(const char *path, const char *what, char *err, size_t errlen)
{
    char low[4096], tmp[4096];
    const char *sep = what[0] == '-' ? "=" : " "; /* "--output=P", "target P" */
    snprintf(low, sizeof(low), "%s", path);
    for (;;) {
        snprintf(tmp, sizeof(tmp), "%s", low);
        const char *up = dirname(tmp);
        struct stat st;
        if (!strcmp(up, low)) /* "/" or ".": nothing above */
            break;
        if (stat(up, &st) == 0) {
            if (!S_ISDIR(st.st_mode))
                return iom_target_fail(err, errlen, -ENOTDIR, "%s%s%s: %s is %s, not a folder", what, sep,
                            path, up, S_ISREG(st.st_mode) ? "a file" : "no folder");
            if (!strcmp(low, path))
                break;
            return iom_target_fail(err, errlen, -ENOENT, "%s%s%s: folder %s does not exist", what, sep, path,
                        low);
        }
        if (errno != ENOENT && errno != ENOTDIR)
            return iom_target_fail(err, errlen, -errno, "%s%s%s: %s: %s", what, sep, path, up,
                        strerror(errno));
        snprintf(low, sizeof(low), "%s", up);
    }
    return iom_target_fail(err, errlen, -ENOENT, "%s%s%s: its folder does not exist", what, sep, path);
}
