/* trim.c - a synchronous trim, and a synchronous sync, for engines without an
 * asynchronous one (engine.h). */
#include <errno.h>
#include <stdint.h>

#include "engine/engine.h"

#include <unistd.h>

int64_t iom_engine_sync_now(struct iom_engine *e, unsigned ddir)
{
    int rc;
    do
#ifdef _WIN32
        rc = fdatasync(e->fd); /* FlushFileBuffers either way (platform/compat_win.c) */
#else
        rc = ddir == IOM_IO_DATASYNC ? fdatasync(e->fd) : fsync(e->fd);
#endif
    while (rc != 0 && errno == EINTR);
    (void)ddir;
    return rc == 0 ? 0 : -errno;
}

#ifdef __linux__
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

int64_t iom_engine_trim_sync(struct iom_engine *e, uint64_t offset, uint32_t len)
{
    if (!e->trim_kind) {
        struct stat st;
        if (fstat(e->fd, &st) != 0)
            return -errno;
        e->trim_kind = S_ISBLK(st.st_mode) ? 1 : 2;
    }
    int rc;
    if (e->trim_kind == 1) {
        uint64_t range[2] = {offset, len};
        rc = ioctl(e->fd, BLKDISCARD, range);
    } else {
        do
            rc = fallocate(e->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
                           (off_t)len);
        while (rc != 0 && errno == EINTR);
    }
    return rc == 0 ? (int64_t)len : -errno;
}
#else
int64_t iom_engine_trim_sync(struct iom_engine *e, uint64_t offset, uint32_t len)
{
    (void)e, (void)offset, (void)len;
    return -EOPNOTSUPP;
}
#endif
