/* target.c - target inspection, safety checks, test-file creation. */
#include "core/target.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/offsets.h"
#include "core/target_int.h"
#include "workload/units.h"


static int read_sysfs_u64(const char *path, uint64_t *v)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    unsigned long long x;
    int n = fscanf(f, "%llu", &x);
    fclose(f);
    if (n != 1)
        return -EINVAL;
    *v = x;
    return 0;
}

/* Kernel name of block device dev via /sys/dev/block/M:m; "" if none. */
static void devname_of(dev_t dev, char *out, size_t len)
{
    char link[64], target[512];
    out[0] = '\0';
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n <= 0)
        return;
    target[n] = '\0';
    const char *base = strrchr(target, '/');
    snprintf(out, len, "%s", base ? base + 1 : target);
}

/* Logical block size of block device dev from sysfs (whole disk for a partition). */
static uint32_t sysfs_logical_block(dev_t dev)
{
    char p[128];
    uint64_t v = 0;
    snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/logical_block_size", major(dev), minor(dev));
    if (read_sysfs_u64(p, &v) == 0 && v)
        return (uint32_t)v;
    snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../queue/logical_block_size", major(dev),
             minor(dev));
    if (read_sysfs_u64(p, &v) == 0 && v)
        return (uint32_t)v;
    return 512;
}

/*
 * Can the target take the trims of a trim pattern? A block device must
 * discard: /sys/dev/block/M:m/queue/discard_max_bytes above 0 (its disk's for
 * a partition; kernel Documentation/ABI/stable/sysfs-block: 0 = no discard,
 * as a loop device with discard off). An existing file must take a punched
 * hole: a one-page hole past its end with FALLOC_FL_KEEP_SIZE changes nothing
 * and fails with EOPNOTSUPP where the filesystem has none. 0 or -EOPNOTSUPP
 * with err set.
 */
static int trims_supported(const struct iom_job *job, const struct iom_target *t,
                           char *err, size_t errlen)
{
    const char *rw = iom_rw_name(job->rw);
    if (t->is_blockdev) {
        char p[160];
        uint64_t v = 0;
        snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/discard_max_bytes", major(t->dev),
                 minor(t->dev));
        if (read_sysfs_u64(p, &v) != 0)
            snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../queue/discard_max_bytes",
                     major(t->dev), minor(t->dev));
        if (read_sysfs_u64(p, &v) != 0 || v == 0)
            return iom_target_fail(err, errlen, -EOPNOTSUPP,
                        "--rw=%s: target %s does not discard (queue/discard_max_bytes of %s is "
                        "0 or missing): trims need a device with discard, or a file", rw,
                        t->path, t->devname[0] ? t->devname : "the device");
        return 0;
    }
    if (!t->exists)
        return 0; /* created for the run: its filesystem answers the first trim */
    int fd = open(t->path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        char wneed[64];
        snprintf(wneed, sizeof(wneed), "for %srw=%s", job->fio_layout ? "" : "--", rw);
        return iom_target_open_failed(err, errlen, errno, t->path, O_WRONLY, wneed);
    }
    off_t past = (off_t)((t->size_bytes + 8191) / 4096 * 4096);
    int rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, past, 4096);
    int e = rc ? errno : 0;
    close(fd);
    if (e == EOPNOTSUPP || e == ENOSYS)
        return iom_target_fail(err, errlen, -EOPNOTSUPP,
                    "--rw=%s: the filesystem of %s cannot punch holes (fallocate "
                    "FALLOC_FL_PUNCH_HOLE: %s): trims need one that can, or a block device "
                    "with discard", rw, t->path, strerror(e));
    return 0;
}

static uint32_t file_dio_align(const char *path, dev_t dev)
{
#ifdef STATX_DIOALIGN
    struct statx sx;
    if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
        sx.stx_dio_offset_align)
        return sx.stx_dio_offset_align;
#else
    (void)path;
#endif
    return sysfs_logical_block(dev);
}

/* A new file's room on its filesystem (dir: its folder): with fill_device the
 * free space becomes *need (t->fill_need); otherwise *need must fit with 1% or
 * 64 MiB of the filesystem kept free. Returns 0 or -ENOSPC (err set). */
static int new_file_space(const struct iom_job *job, struct iom_target *t, const char *path,
                          const char *dir, uint64_t *need, char *err, size_t errlen)
{
    struct statvfs vfs;
    if (statvfs(dir, &vfs) != 0)
        return 0;
    uint64_t free_b = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    if (job->fill_device) {
        /* fio's fill_device: the region is the free space, written until ENOSPC */
        if (free_b < iom_job_max_bs(job))
            return iom_target_fail(err, errlen, -ENOSPC, "target %s: fill_device: the filesystem has "
                        "less than one block free", path);
        *need = t->fill_need = free_b;
        return 0;
    }
    /* keep 1% or 64 MiB of the filesystem free, whichever is smaller */
    uint64_t reserve = (uint64_t)vfs.f_blocks * vfs.f_frsize / 100;
    if (reserve > (UINT64_C(64) << 20))
        reserve = UINT64_C(64) << 20;
    if (*need + reserve > free_b) {
        char a[64], b[64];
        return iom_target_fail(err, errlen, -ENOSPC,
                    "target %s: creating it needs %s but the filesystem has %s free; "
                    "choose a smaller --size",
                    path, iom_format_bytes(*need, a, sizeof(a)),
                    iom_format_bytes(free_b, b, sizeof(b)));
    }
    return 0;
}

/* true when the missing target PATH would be created in /dev itself (devtmpfs,
 * in memory, where only device nodes belong): almost always a mistyped device
 * name. The folder counts only when it is on /dev's own filesystem, so a
 * tmpfs mounted below it (/dev/shm) stays a place for test files. */
static bool in_dev_folder(const char *path)
{
    char *dup = strdup(path);
    if (!dup)
        return false;
    char *real = realpath(dirname(dup), NULL);
    struct stat dir_st, dev_st;
    bool in = real && (!strcmp(real, "/dev") || !strncmp(real, "/dev/", 5)) &&
              stat(real, &dir_st) == 0 && stat("/dev", &dev_st) == 0 &&
              dir_st.st_dev == dev_st.st_dev;
    free(real);
    free(dup);
    return in;
}

/* A target that exists but is neither a regular file nor a block device:
 * -EINVAL with the reason (a folder: the file to name in it; mark takes a
 * folder, run wants the file). */
static int refuse_kind(const char *path, const struct stat *st, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (S_ISDIR(st->st_mode))
        return iom_target_fail(err, errlen, -EINVAL,
                    "target %s is a folder; name a file in it (e.g. %s%siomark-test.dat, "
                    "created with --size) or a block device",
                    path, path, n && path[n - 1] == '/' ? "" : "/");
    return iom_target_fail(err, errlen, -EINVAL,
                "target %s: not a regular file or block device; name a file or a block device",
                path);
}

/* What writes to target t need, for a permission message: "for --rw=randwrite"
 * ("rw=" in a job file) for a job that writes, "to extend it to 1 GiB ..." for
 * a file too small for the region; NULL (nothing written) otherwise. */
static const char *write_need(const struct iom_job *job, const struct iom_target *t, char *buf,
                              size_t len)
{
    char a[64];
    if (iom_job_writes(job))
        snprintf(buf, len, "for %srw=%s", job->fio_layout ? "" : "--", iom_rw_name(job->rw));
    else if (!t->is_blockdev && t->need_bytes > t->size_bytes)
        snprintf(buf, len, "to extend it to %s for the region of --offset and --size",
                 iom_format_bytes(t->need_bytes, a, sizeof(a)));
    else
        return NULL;
    return buf;
}

/* A target that does not exist yet: its folder (with make_dirs the first
 * one that exists) must exist and take a new file, the job must say how
 * large (--size), and the filesystem must hold it; in that order, so the
 * first message is the one to act on. Sets t->dev, devname and the block size. */
static int new_file_check(const struct iom_job *job, struct iom_target *t, const char *path,
                          uint64_t *need, char *err, size_t errlen)
{
    if (job->no_create) /* fio 3.33: "file creation disallowed by allow_file_create=0" */
        return iom_target_fail(err, errlen, -ENOENT, "target %s does not exist and allow_file_create=0 "
                    "disallows creating it", path);
    char *dup = strdup(path);
    if (!dup)
        return -ENOMEM;
    char *dir = dirname(dup); /* points into dup */
    struct stat dst;
    while (job->make_dirs && stat(dir, &dst) != 0 && errno == ENOENT && strcmp(dir, "/") &&
           strcmp(dir, ".")) { /* fio: the missing folders are made; check the first one */
        t->make_dirs = true; /* that exists (its space, its device) */
        dir = dirname(dir);
    }
    bool sized = *need || job->fill_device;
    int rc;
    if (stat(dir, &dst) != 0 || !S_ISDIR(dst.st_mode))
        rc = iom_path_folder_error(path, "target", err, errlen);
    else if ((rc = iom_target_folder_refused(path, dir, sized, err, errlen)) == 0 && !sized)
        rc = iom_target_fail(err, errlen, -ENOENT,
                  "target %s does not exist; give --size to have iomark create it", path);
    else if (rc == 0)
        rc = new_file_space(job, t, path, dir, need, err, errlen);
    if (rc == 0) {
        t->dev = dst.st_dev;
        t->logical_block_bytes = sysfs_logical_block(dst.st_dev);
        devname_of(t->dev, t->devname, sizeof(t->devname));
    }
    free(dup);
    return rc;
}

/* An existing regular file: may this process (its effective ids, faccessat(2)
 * AT_EACCESS) read it, and write it for a job that writes or a file to extend?
 * A refusal (permission bits, a read-only filesystem, an immutable file) comes
 * now, naming what is needed, before anything is created or written; the
 * file is not opened (what else refuses an open is named when it happens). */
static int file_access(const struct iom_job *job, const struct iom_target *t, char *err,
                       size_t errlen)
{
    char wneed[160];
    const char *why = write_need(job, t, wneed, sizeof(wneed));
    if (faccessat(AT_FDCWD, t->path, why ? R_OK | W_OK : R_OK, AT_EACCESS) == 0)
        return 0;
    int e = errno;
    if (e != EACCES && e != EPERM && e != EROFS)
        return 0; /* left to the open, which says what it is */
    return iom_target_open_failed(err, errlen, e, t->path, why ? O_RDWR : O_RDONLY, why);
}

/* Never destroy data by accident: without --force, a job that writes a block
 * device that is in use, or writes (or extends) a block device or file that
 * carries a filesystem or partition-table signature, is refused (-EEXIST).
 * A test file iomark made holds random data or zeros, which carry none. */
static int refuse_data(const struct iom_job *job, const struct iom_target *t, char *err,
                       size_t errlen)
{
    bool writes = iom_job_writes(job);
    bool extends = !t->is_blockdev && t->need_bytes > t->size_bytes;
    if (job->force || !t->exists || !(writes || extends))
        return 0;
    char what[512];
    if (!(t->is_blockdev && iom_target_in_use(t->dev, t->devname, what, sizeof(what))) &&
        !iom_target_has_signature(t->path, what, sizeof(what)))
        return 0;
    if (writes)
        return iom_target_fail(err, errlen, -EEXIST,
                    "target %s %s; a write test would destroy its data. Add --force to "
                    "write to it anyway",
                    t->path, what);
    char a[64];
    return iom_target_fail(err, errlen, -EEXIST,
                "target %s %s; extending it to %s for the region of --offset and --size would "
                "change it. Add --force to extend it anyway",
                t->path, what, iom_format_bytes(t->need_bytes, a, sizeof(a)));
}

int iom_target_check(const struct iom_job *job, const char *path, struct iom_target *t,
                     char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->path = path;
    t->fd = -1;
    struct stat st;

    if (stat(path, &st) == 0) {
        t->exists = true;
        if (S_ISBLK(st.st_mode)) {
            t->is_blockdev = true;
            t->dev = st.st_rdev;
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                return iom_target_open_failed(err, errlen, errno, path, O_RDONLY, NULL);
            uint64_t sz = 0;
            int lbs = 512;
            if (ioctl(fd, BLKGETSIZE64, &sz) != 0 || ioctl(fd, BLKSSZGET, &lbs) != 0) {
                int e = errno;
                close(fd);
                return iom_target_fail(err, errlen, -e, "target %s: cannot read the device size: %s", path,
                            strerror(e));
            }
            close(fd);
            t->size_bytes = sz;
            t->logical_block_bytes = (uint32_t)lbs;
        } else if (S_ISREG(st.st_mode)) {
            t->dev = st.st_dev;
            t->size_bytes = (uint64_t)st.st_size;
            t->logical_block_bytes = file_dio_align(path, st.st_dev);
            t->sparse = (uint64_t)st.st_blocks * 512 < (uint64_t)st.st_size;
        } else {
            return refuse_kind(path, &st, err, errlen);
        }
        devname_of(t->dev, t->devname, sizeof(t->devname));
    } else if (errno == ENOTDIR) {
        return iom_path_folder_error(path, "target", err, errlen);
    } else if (errno == EACCES) { /* a folder on the way that cannot be entered: named */
        return iom_target_search_refused(path, err, errlen);
    } else if (errno != ENOENT) {
        return iom_target_fail(err, errlen, -errno, "target %s: %s", path, strerror(errno));
    } else if (path[0] && path[strlen(path) - 1] == '/') {
        return iom_target_fail(err, errlen, -ENOENT, "target %s: folder does not exist", path);
    } else if (in_dev_folder(path)) { /* not a file in RAM for a mistyped device */
        return iom_target_fail(err, errlen, -ENOENT, "target %s: no such device (iomark does not create "
                    "files in /dev; lsblk lists the block devices)", path);
    }

    /* the region */
    uint64_t span = iom_job_span_bytes(job); /* size, and the clones' offset_increment */
    uint64_t need = span ? (span > UINT64_MAX - job->offset_bytes ? UINT64_MAX
                                                                   : job->offset_bytes + span) : 0;
    if (job->create_bytes > need)
        need = job->create_bytes;
    int rc;
    if (!t->exists) {
        if ((rc = new_file_check(job, t, path, &need, err, errlen)))
            return rc;
    } else if (t->is_blockdev) {
        if (need > t->size_bytes) {
            char a[64], b[64];
            return iom_target_fail(err, errlen, -EINVAL, "--size: the region ends at %s but %s holds %s",
                        iom_format_bytes(need, a, sizeof(a)), path,
                        iom_format_bytes(t->size_bytes, b, sizeof(b)));
        }
    } else if (need > t->size_bytes) {
        struct statvfs vfs;
        char a[64], b[64];
        if (statvfs(path, &vfs) == 0 &&
            need - t->size_bytes > (uint64_t)vfs.f_bavail * vfs.f_frsize)
            return iom_target_fail(err, errlen, -ENOSPC,
                        "target %s: extending it to %s needs more than the %s free", path,
                        iom_format_bytes(need, a, sizeof(a)),
                        iom_format_bytes((uint64_t)vfs.f_bavail * vfs.f_frsize, b, sizeof(b)));
    }
    if ((rc = iom_target_check_region(job, path, t, need, err, errlen)))
        return rc;
    if (t->exists && !t->is_blockdev && (rc = file_access(job, t, err, errlen)))
        return rc;
    if (iom_job_trims(job) && strcmp(job->ioengine, "null") != 0 &&
        (rc = trims_supported(job, t, err, errlen)))
        return rc;
    return refuse_data(job, t, err, errlen);
}

/* fio 3.33 filesetup.c fallocate_file's modes (spec.h fallocate) over [0, len) of fd:
 * 2 posix_fallocate, 3 KEEP_SIZE, 4 ftruncate, 5 fallocate(2) mode 0 whose failure fio
 * ignores (native_fallocate), 0 and 1 nothing. Returns 0 or -errno. */
static int alloc_mode(int fd, int m, uint64_t len)
{
    int rc = 0;
    if (m == 2)
        rc = posix_fallocate(fd, 0, (off_t)len);
    else if (m == 3 && fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)len))
        rc = errno;
    else if (m == 4 && ftruncate(fd, (off_t)len))
        rc = errno;
    else if (m == 5)
        (void)!fallocate(fd, 0, 0, (off_t)len);
    return -rc;
}

/* prepare's open(2) of t (creating it, or to extend it) failed with e: the
 * folder or the file's permission named as iom_target_check does (changed
 * since, or refused for a reason faccessat(2) does not see). */
static int create_failed(const struct iom_job *job, const struct iom_target *t, int e, char *err,
                         size_t errlen)
{
    char wneed[160];
    if (t->exists)
        return iom_target_open_failed(err, errlen, e, t->path, O_WRONLY,
                                      write_need(job, t, wneed, sizeof(wneed)));
    char *dup = strdup(t->path);
    int rc = dup && (e == EACCES || e == EPERM || e == EROFS)
                 ? iom_target_folder_refused(t->path, dirname(dup), true, err, errlen) : 0;
    free(dup);
    return rc ? rc : iom_target_fail(err, errlen, -e, "target %s: cannot create: %s", t->path, strerror(e));
}

int iom_target_prepare(const struct iom_job *job, struct iom_target *t,
                       const volatile sig_atomic_t *stop, void (*progress)(double pct, void *arg),
                       void *arg, char *err, size_t errlen)
{
    if (t->is_blockdev || t->need_bytes <= t->size_bytes)
        return 0;
    int flags = O_WRONLY | O_CLOEXEC | (t->exists ? 0 : O_CREAT | O_EXCL);
    char dirs[4096];
    snprintf(dirs, sizeof(dirs), "%s", t->path);
    for (char *s = dirs + 1; t->make_dirs && (s = strchr(s, '/')) != NULL; *s++ = '/') {
        *s = '\0'; /* mkdir -p of the file's folder */
        if (mkdir(dirs, 0755) != 0 && errno != EEXIST)
            return iom_target_fail(err, errlen, -errno, "target %s: cannot make folder %s: %s", t->path,
                        dirs, strerror(errno));
    }
    int fd = open(t->path, flags, 0644);
    if (fd < 0)
        return create_failed(job, t, errno, err, errlen);
    t->created = !t->exists;
    /* fio 3.33 filesetup.c extend_file lays out (writes) a file a job reads, or writes
     * with overwrite=1 (not file_append); job files follow it, native runs also fill
     * files of jobs that trim or verify */
    bool reads = iom_job_read_pct(job) > 0 ||
                 (!job->fio_layout && (iom_job_trims(job) || job->verify));
    bool lay = reads || (job->overwrite && !job->file_append) || !job->fallocate;
    if (t->fill_need || ((!t->exists || job->file_append) && !lay)) {
        /* fill_device: an empty (sparse) file the job's writes fill; fio's fallocate
         * modes for a new file of a write job */
        int rc = alloc_mode(fd, t->fill_need ? 4 : job->fallocate, t->need_bytes);
        close(fd);
        if (rc) {
            unlink(t->path);
            t->created = false;
            return iom_target_fail(err, errlen, rc, "target %s: %s: %s", t->path,
                        t->fill_need ? "fill_device" : "fallocate", strerror(-rc));
        }
        t->size_bytes = t->need_bytes;
        t->sparse = true;
        return 0;
    }
    /* job files, a new file: fio's fallocate mode, ftruncate, write(2)s of the largest
     * write size (fio extend_file); else 1 MiB pwrite(2)s from the old end */
    const bool fio = job->fio_layout && !t->exists;
    size_t chunk = (size_t)1 << 20;
    if (fio)
        chunk = (size_t)(iom_job_max_write_bs(job) ? iom_job_max_write_bs(job) : 4096);
    uint64_t *buf = NULL;
    int rc = 0;
    if (fio && ((rc = alloc_mode(fd, job->fallocate, t->need_bytes)) ||
                ftruncate(fd, (off_t)t->need_bytes))) {
        rc = rc ? rc : -errno;
        rc = iom_target_fail(err, errlen, rc, "target %s: fallocate: %s", t->path, strerror(-rc));
        goto out;
    }
    if (posix_memalign((void **)&buf, 4096, (chunk + 7) & ~(size_t)7)) {
        rc = iom_target_fail(err, errlen, -ENOMEM, "out of memory");
        goto out;
    }
    struct iom_rng rng;
    iom_rng_seed(&rng, job->seed ^ (uint64_t)t->need_bytes ^ 0x10ba1c0ffeeULL);
    uint64_t pos = t->size_bytes, start = pos, end = t->need_bytes;
    while (pos < end) {
        if (stop && *stop) {
            rc = -EINTR;
            snprintf(err, errlen, "target %s: creation interrupted", t->path);
            goto out;
        }
        size_t n = end - pos < chunk ? (size_t)(end - pos) : chunk;
        for (size_t i = 0; i < (n + 7) / 8; i++)
            buf[i] = job->zero_buffers ? 0 : iom_rng_next(&rng);
        ssize_t w = fio ? write(fd, buf, n) : pwrite(fd, buf, n, (off_t)pos);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;
            rc = iom_target_fail(err, errlen, -e, "target %s: writing the test file at byte %llu: %s",
                      t->path, (unsigned long long)pos, strerror(e));
            goto out;
        }
        pos += (uint64_t)w;
        if (progress && ((pos - start) % (UINT64_C(64) << 20) == 0 || pos == end))
            progress(100.0 * (double)(pos - start) / (double)(end - start), arg);
    }
    if ((fio ? fsync(fd) : fdatasync(fd)) != 0) { /* fio's create_fsync=1 */
        rc = iom_target_fail(err, errlen, -errno, "target %s: fdatasync: %s", t->path, strerror(errno));
        goto out;
    }
    /* drop the pages just written so buffered runs do not start warm */
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (t->exists) {
        t->extended = true;
        t->extended_from = start;
    }
    t->size_bytes = end;
    t->sparse = false;
out:
    free(buf);
    close(fd);
    if (rc && t->created) {
        unlink(t->path);
        t->created = false;
    }
    return rc;
}

/* The job's open(2) flags (fio's generic_open_file: read-write when the job writes). */
static int open_flags(const struct iom_job *job)
{
    int flags = O_CLOEXEC | (iom_job_writes(job) ? O_RDWR : O_RDONLY);
    if (job->direct)
        flags |= O_DIRECT;
    if (job->sync == IOM_SYNC_DSYNC)
        flags |= O_DSYNC;
    else if (job->sync == IOM_SYNC_SYNC)
        flags |= O_SYNC;
    return flags;
}

/* fio's fadvise_hint at open (ioengines.c td_io_open_file); a refused advice is ignored */
static void fadvise_hint(const struct iom_job *job, const struct iom_target *t, int fd)
{
    if (!job->fadvise)
        return;
    int adv = job->fadvise == 3 || (job->fadvise == 1 && iom_job_random(job))
                  ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
    (void)posix_fadvise(fd, (off_t)t->region_start, (off_t)t->region_len, adv);
}

/* Drop fd's cached pages: a block device's buffers (BLKFLSBUF), else the file's pages
 * over [off, off + len) (len 0: to the end). Returns 0 or -errno. */
static int drop_cache(const struct iom_target *t, int fd, uint64_t off, uint64_t len)
{
    if (t->is_blockdev)
        return ioctl(fd, BLKFLSBUF, 0) != 0 ? -errno : 0;
    return -posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_DONTNEED);
}

int iom_target_reopen(const struct iom_job *job, const struct iom_target *t, char *err,
                      size_t errlen)
{
    int fd = open(t->path, open_flags(job));
    if (fd < 0) {
        char wneed[160];
        return iom_target_open_failed(err, errlen, errno, t->path, open_flags(job),
                                      write_need(job, t, wneed, sizeof(wneed)));
    }
    if (job->invalidate) /* fio filesetup.c __file_invalidate_cache: failures only noted */
        (void)drop_cache(t, fd, t->region_start, t->region_len);
    fadvise_hint(job, t, fd);
    return fd;
}

int iom_target_open(const struct iom_job *job, struct iom_target *t, char *err, size_t errlen)
{
    int flags = open_flags(job);
    t->fd = open(t->path, flags);
    if (t->fd < 0) {
        int e = errno;
        if (e == EINVAL && job->direct)
            return iom_target_fail(err, errlen, -e,
                        "target %s: the filesystem refuses direct I/O (O_DIRECT), as tmpfs and "
                        "some FUSE filesystems do; use --direct=0 for buffered I/O",
                        t->path);
        char wneed[160];
        return iom_target_open_failed(err, errlen, e, t->path, flags,
                                      write_need(job, t, wneed, sizeof(wneed)));
    }
    fadvise_hint(job, t, t->fd);
    return 0;
}

void iom_target_close(struct iom_target *t, bool remove_created)
{
    if (t->fd >= 0)
        close(t->fd);
    t->fd = -1;
    if (remove_created && t->created) {
        unlink(t->path);
        t->created = false;
    }
}

int iom_target_pre_read(const struct iom_target *t, uint64_t bs, char *err, size_t errlen)
{
    int fd = open(t->path, O_RDONLY | O_CLOEXEC), rc = 0;
    char *buf = fd >= 0 && bs ? malloc(bs) : NULL;
    if (!buf) {
        rc = fd < 0 ? -errno : -ENOMEM;
        snprintf(err, errlen, "%s: pre_read: %s", t->path, strerror(-rc));
        if (fd >= 0)
            close(fd);
        return rc;
    }
    for (uint64_t pos = t->region_start, end = pos + t->region_len; pos < end && !rc;) {
        size_t n = (size_t)(end - pos < bs ? end - pos : bs);
        ssize_t r = pread(fd, buf, n, (off_t)pos);
        if (r < 0 && errno == EINTR)
            continue;
        rc = r == (ssize_t)n ? 0 : r < 0 ? -errno : -EIO;
        pos += n;
    }
    if (rc)
        snprintf(err, errlen, "%s: pre_read: %s", t->path, strerror(-rc));
    free(buf);
    close(fd);
    return rc;
}

int iom_target_invalidate(const struct iom_target *t, char *err, size_t errlen)
{
    int fd = t->fd >= 0 ? t->fd : open(t->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", t->path, strerror(e));
        return -e;
    }
    int rc = drop_cache(t, fd, 0, 0);
    if (rc)
        snprintf(err, errlen, "%s: %s: %s", t->path, t->is_blockdev ? "BLKFLSBUF" :
                 "posix_fadvise(POSIX_FADV_DONTNEED)", strerror(-rc));
    if (fd != t->fd)
        close(fd);
    return rc;
}
