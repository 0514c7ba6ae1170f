/* fiojob_err.c - fio's error-handling options in job files: continue_on_error
 * per class, ignore_error lists, error_dump (fio 3.33 options.c
 * "continue_on_error", str_ignore_error_cb, ignore_error_type, str2error;
 * td_error.c td_non_fatal_error). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/fiojob_int.h"

/* fio's str2error: the names fio knows, errno 1 to 34 in this order */
static const char *const fio_err_names[] = {
    "EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "ENXIO", "E2BIG", "ENOEXEC", "EBADF",
    "ECHILD", "EAGAIN", "ENOMEM", "EACCES", "EFAULT", "ENOTBLK", "EBUSY", "EEXIST",
    "EXDEV", "ENODEV", "ENOTDIR", "EISDIR", "EINVAL", "ENFILE", "EMFILE", "ENOTTY",
    "ETXTBSY", "EFBIG", "ENOSPC", "ESPIPE", "EROFS", "EMLINK", "EPIPE", "EDOM", "ERANGE"};

/* One class's list "EIO:28:ENOSPC" into job->ignore_errno[cls]. */
static int ignore_list(const char *where, const char *v, const char *list, int cls,
                       struct iom_job *job, char *err, size_t errlen)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    uint8_t n = 0;
    /* fio stops at the first empty name (strsep, "if (!strlen(fname)) break") */
    for (char *p = buf; *p;) {
        char *colon = strchr(p, ':');
        if (colon)
            *colon = '\0';
        if (!*p)
            break;
        long e = 0;
        if (p[0] == 'E') {
            for (size_t i = 0; i < sizeof(fio_err_names) / sizeof(fio_err_names[0]); i++)
                if (strcmp(p, fio_err_names[i]) == 0)
                    e = (long)i + 1;
        } else {
            char *end;
            e = labs(strtol(p, &end, 10));
            if (*end || e > 4095)
                e = 0;
        }
        if (!e || n == IOM_MAX_IGNORE_ERRNO) {
            snprintf(err, errlen, "%s: ignore_error=%s: %s: up to %d errno names (EPERM ... "
                     "ERANGE, as fio's str2error) or numbers per class, joined by ':'; classes "
                     "READ,WRITE,VERIFY joined by ','", where, v, e ? "too many" : p,
                     IOM_MAX_IGNORE_ERRNO);
            return -EINVAL;
        }
        job->ignore_errno[cls][n++] = (uint16_t)e;
        if (!colon)
            break;
        p = colon + 1;
    }
    if (n) { /* fio: a list sets its class's continue_on_error bit */
        job->nr_ignore_errno[cls] = n;
        job->coe_classes |= (uint8_t)(1u << cls);
    } else {
        job->nr_ignore_errno[cls] = 0;
    }
    return 0;
}

int iom_fioj_error_opt(const char *n, const char *v, struct iom_job *job, const char *where,
                       char *err, size_t errlen)
{
    if (strcmp(n, "continue_on_error") == 0) {
        static const struct { const char *name; uint8_t bits; } vals[] = {
            {"none", 0}, {"0", 0}, {"read", 1}, {"write", 2}, {"io", 3},
            {"verify", 4}, {"all", 7}, {"1", 7}};
        for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
            if (strcmp(v, vals[i].name) == 0) {
                job->coe_classes = vals[i].bits;
                job->continue_on_error = false; /* fio's classes, not iomark's native "all" */
                return 0;
            }
        snprintf(err, errlen, "%s: continue_on_error=%s: allowed none, read, write, io, verify, "
                 "all, 0, 1 (fio)", where, v);
        return -EINVAL;
    }
    if (strcmp(n, "ignore_error") == 0) {
        char buf[800];
        snprintf(buf, sizeof(buf), "%s", v);
        char *p = buf;
        for (int cls = 0; p; cls++) {
            char *comma = strchr(p, ',');
            if (comma)
                *comma = '\0';
            if (cls == 3) {
                snprintf(err, errlen, "%s: ignore_error=%s: at most three lists (READ,WRITE,"
                         "VERIFY)", where, v);
                return -EINVAL;
            }
            int rc = ignore_list(where, v, p, cls, job, err, errlen);
            if (rc)
                return rc;
            p = comma ? comma + 1 : NULL;
        }
        return 0;
    }
    if (strcmp(n, "fill_device") == 0 || strcmp(n, "fill_fs") == 0) {
        if (!*v || strcmp(v, "1") == 0)
            job->fill_device = true;
        else if (strcmp(v, "0") == 0)
            job->fill_device = false;
        else {
            snprintf(err, errlen, "%s: %s=%s: allowed 0 or 1", where, n, v);
            return -EINVAL;
        }
        return 0;
    }
    if (strcmp(n, "fallocate") == 0) {
        /* fio 3.33 options.c "fallocate": none, native, posix, keep, truncate, 0
         * (= none), 1 (= posix) */
        static const struct { const char *name; uint8_t mode; } vals[] = {
            {"none", 1}, {"0", 1}, {"posix", 2}, {"native", 5}, {"1", 2},
            {"keep", 3}, {"truncate", 4}};
        for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
            if (strcmp(v, vals[i].name) == 0) {
                job->fallocate = vals[i].mode;
                return 0;
            }
        snprintf(err, errlen, "%s: fallocate=%s: allowed none, native, posix, keep, truncate, 0, "
                 "1 (fio)", where, v);
        return -EINVAL;
    }
    if (strcmp(n, "error_dump") == 0) {
        if (!*v || strcmp(v, "1") == 0)
            job->error_dump = true;
        else if (strcmp(v, "0") == 0)
            job->error_dump = false;
        else {
            snprintf(err, errlen, "%s: error_dump=%s: allowed 0 or 1", where, v);
            return -EINVAL;
        }
        return 0;
    }
    return 1;
}
