/* target.c - target inspection, safety checks, test-file creation. */
#include "core/target.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/offsets.h"
#include "core/target_int.h"
#include "workload/units.h"

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

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
static int open_failed(char *err, size_t errlen, int e, const char *path);
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
            return fail(err, errlen, -EOPNOTSUPP,
                        "--rw=%s: target %s does not discard (queue/discard_max_bytes of %s is "
                        "0 or missing): trims need a device with discard, or a file", rw,
                        t->path, t->devname[0] ? t->devname : "the device");
        return 0;
    }
    if (!t->exists)
        return 0; /* created for the run: its filesystem answers the first trim */
    int fd = open(t->path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return open_failed(err, errlen, errno, t->path);
    off_t past = (off_t)((t->size_bytes + 8191) / 4096 * 4096);
    int rc = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, past, 4096);
    int e = rc ? errno : 0;
    close(fd);
    if (e == EOPNOTSUPP || e == ENOSYS)
        return fail(err, errlen, -EOPNOTSUPP,
                    "--rw=%s: the filesystem of %s cannot punch holes (fallocate "
                    "FALLOC_FL_PUNCH_HOLE: %s): trims need one that can, or a block device "
                    "with discard", rw, t->path, strerror(e));
    return 0;
}

/* Is the maj:min pair `dev` (or one of its partitions) mounted or swap? */
static int in_use(dev_t dev, const char *devname, char *what, size_t whatlen)
{
    dev_t devs[128];
    unsigned nd = 0;
    devs[nd++] = dev;
    char dirp[128];
    snprintf(dirp, sizeof(dirp), "/sys/dev/block/%u:%u", major(dev), minor(dev));
    DIR *d = opendir(dirp);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) && nd < 128) {
            if (strncmp(de->d_name, devname, strlen(devname)) != 0 || !devname[0])
                continue;
            char p[512];
            unsigned ma, mi;
            snprintf(p, sizeof(p), "%s/%s/dev", dirp, de->d_name);
            FILE *f = fopen(p, "r");
            if (f) {
                if (fscanf(f, "%u:%u", &ma, &mi) == 2)
                    devs[nd++] = makedev(ma, mi);
                fclose(f);
            }
        }
        closedir(d);
        /* device-mapper, md or bcache stacked on it */
        snprintf(dirp + strlen(dirp), sizeof(dirp) - strlen(dirp), "/holders");
        d = opendir(dirp);
        if (d) {
            struct dirent *h;
            while ((h = readdir(d))) {
                if (h->d_name[0] == '.')
                    continue;
                snprintf(what, whatlen, "is held by %s (device-mapper, md or similar)",
                         h->d_name);
                closedir(d);
                return 1;
            }
            closedir(d);
        }
    }
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (f) {
        char line[4096];
        while (fgets(line, sizeof(line), f)) {
            unsigned id, pid, ma, mi;
            char mnt[2048];
            if (sscanf(line, "%u %u %u:%u %*s %2047s", &id, &pid, &ma, &mi, mnt) != 5)
                continue;
            for (unsigned i = 0; i < nd; i++) {
                if (devs[i] == makedev(ma, mi)) {
                    snprintf(what, whatlen, "is mounted (on %s)", mnt);
                    fclose(f);
                    return 1;
                }
            }
        }
        fclose(f);
    }
    f = fopen("/proc/swaps", "r");
    if (f) {
        char line[1024], name[900];
        while (fgets(line, sizeof(line), f)) {
            struct stat st;
            if (sscanf(line, "%899s", name) != 1 || stat(name, &st) != 0 || !S_ISBLK(st.st_mode))
                continue;
            for (unsigned i = 0; i < nd; i++) {
                if (devs[i] == st.st_rdev) {
                    snprintf(what, whatlen, "is in use as swap");
                    fclose(f);
                    return 1;
                }
            }
        }
        fclose(f);
    }
    return 0;
}

/* The article before a signature name as it is spoken: "an ext4", "an xfs",
 * "an LVM2_member" (letters spelled out: e, x, l, n, h, f, s... sound like
 * vowels), "a vfat", "a btrfs", "a swap", "a dos" (read as words). */
static const char *article(const char *name)
{
    static const char *const an_prefix[] = {"ext", "xfs", "iso", "ntfs", "lvm", "hfs", "f2fs",
                                            "udf", "exfat", "erofs", "nilfs", "apfs", "ocfs",
                                            "isw_raid", "ddf_raid", "adaptec", "atari", NULL};
    for (int i = 0; an_prefix[i]; i++)
        if (strncasecmp(name, an_prefix[i], strlen(an_prefix[i])) == 0)
            return "an";
    return name[0] && strchr("aeioAEIO", name[0]) ? "an" : "a";
}

/* A failed open(2) of a target, in one line; a permission error on a block
 * device says who may open it (root, or a member of the device's group,
 * "disk" on Debian: ls -l /dev/sda shows brw-rw---- root disk; when the group
 * cannot read it or is root, only root), or, when even root is refused, why
 * that may be (a nodev mount, a device cgroup, a security module). */
static int open_failed(char *err, size_t errlen, int e, const char *path)
{
    struct stat st;
    if ((e == EACCES || e == EPERM) && stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
        struct statvfs vfs;
        if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NODEV)) /* mount(8) nodev: no one */
            return fail(err, errlen, -e,
                        "target %s: cannot open: %s; the filesystem that holds this device node "
                        "is mounted nodev, which refuses device access to every user, root "
                        "included: use the device's node under /dev",
                        path, strerror(e));
        if (geteuid() == 0) /* root already: not the node's mode (device cgroups: kernel
                             * docs admin-guide/cgroup-v1/devices.rst; LSMs) */
            return fail(err, errlen, -e,
                        "target %s: cannot open: %s, though iomark runs as root: something "
                        "beyond the node's permissions refuses it (a container's device cgroup, "
                        "or a security module such as SELinux or AppArmor)",
                        path, strerror(e));
        struct group *g = getgrgid(st.st_gid);
        char gname[64];
        if (g)
            snprintf(gname, sizeof(gname), "%s", g->gr_name);
        else
            snprintf(gname, sizeof(gname), "%u", (unsigned)st.st_gid);
        if (st.st_gid != 0 && (st.st_mode & S_IRGRP)) /* the group may read it: joining helps */
            return fail(err, errlen, -e,
                        "target %s: cannot open: %s; a block device needs root or membership in its "
                        "group %s (e.g. sudo iomark ..., or usermod -aG %s USER and log in again)",
                        path, strerror(e), gname, gname);
        return fail(err, errlen, -e, /* mode 0600 root:root, say: only root opens it */
                    "target %s: cannot open: %s; only %s may open this block device (owner uid %u, "
                    "group %s, mode %03o): run iomark as root (e.g. sudo iomark ...)",
                    path, strerror(e), st.st_uid ? "root and its owner" : "root",
                    (unsigned)st.st_uid, gname, (unsigned)(st.st_mode & 0777));
    }
    return fail(err, errlen, -e, "target %s: cannot open: %s", path, strerror(e));
}

/* Ask libblkid for a filesystem, RAID or partition-table signature. */
static int has_signature(const char *path, char *what, size_t whatlen)
{
    blkid_probe pr = blkid_new_probe_from_filename(path);
    if (!pr)
        return 0;
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
    blkid_probe_enable_partitions(pr, 1);
    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
    int found = 0;
    if (blkid_do_safeprobe(pr) == 0) {
        const char *type = NULL;
        if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && type) {
            /* "an ext4 signature", "a vfat signature": the article of the name as spoken */
            snprintf(what, whatlen, "carries %s %s signature", article(type), type);
            found = 1;
        } else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0 && type) {
            snprintf(what, whatlen, "carries %s %s partition table", article(type), type);
            found = 1;
        } else {
            snprintf(what, whatlen, "carries a signature libblkid recognises");
            found = 1;
        }
    }
    blkid_free_probe(pr);
    return found;
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
            return fail(err, errlen, -ENOSPC, "target %s: fill_device: the filesystem has "
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
        return fail(err, errlen, -ENOSPC,
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
        return fail(err, errlen, -EINVAL,
                    "target %s is a folder; name a file in it (e.g. %s%siomark-test.dat, "
                    "created with --size) or a block device",
                    path, path, n && path[n - 1] == '/' ? "" : "/");
    return fail(err, errlen, -EINVAL,
                "target %s: not a regular file or block device; name a file or a block device",
                path);
}

int iom_target_check(const struct iom_job *job, const char *path, struct iom_target *t,
                     char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->path = path;
    t->fd = -1;
    bool writes = iom_job_writes(job);
    struct stat st;

    if (stat(path, &st) == 0) {
        t->exists = true;
        if (S_ISBLK(st.st_mode)) {
            t->is_blockdev = true;
            t->dev = st.st_rdev;
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                return open_failed(err, errlen, errno, path);
            uint64_t sz = 0;
            int lbs = 512;
            if (ioctl(fd, BLKGETSIZE64, &sz) != 0 || ioctl(fd, BLKSSZGET, &lbs) != 0) {
                int e = errno;
                close(fd);
                return fail(err, errlen, -e, "target %s: cannot read the device size: %s", path,
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
    } else if (errno != ENOENT) {
        return fail(err, errlen, -errno, "target %s: %s", path, strerror(errno));
    } else if (path[0] && path[strlen(path) - 1] == '/') {
        return fail(err, errlen, -ENOENT, "target %s: folder does not exist", path);
    } else if (in_dev_folder(path)) { /* not a file in RAM for a mistyped device */
        return fail(err, errlen, -ENOENT, "target %s: no such device (iomark does not create "
                    "files in /dev; lsblk lists the block devices)", path);
    }

    /* the region */
    uint64_t span = iom_job_span_bytes(job); /* size, and the clones' offset_increment */
    uint64_t need = span ? (span > UINT64_MAX - job->offset_bytes ? UINT64_MAX
                                                                   : job->offset_bytes + span) : 0;
    if (job->create_bytes > need)
        need = job->create_bytes;
    if (!t->exists) {
        if (job->no_create) /* fio 3.33: "file creation disallowed by allow_file_create=0" */
            return fail(err, errlen, -ENOENT, "target %s does not exist and allow_file_create=0 "
                        "disallows creating it", path);
        if (!need && !job->fill_device)
            return fail(err, errlen, -ENOENT,
                        "target %s does not exist; give --size to have iomark create it", path);
        char *dup = strdup(path);
        if (!dup)
            return -ENOMEM;
        char *dir = dirname(dup);
        struct stat dst;
        while (job->make_dirs && stat(dir, &dst) != 0 && errno == ENOENT && strcmp(dir, "/") &&
               strcmp(dir, ".")) { /* fio: the missing folders are made; check the first one */
            t->make_dirs = true; /* that exists (its space, its device) */
            dir = dirname(dir);
        }
        if (stat(dir, &dst) != 0 || !S_ISDIR(dst.st_mode)) {
            free(dup); /* dir points into dup */
            return iom_path_folder_error(path, "target", err, errlen);
        }
        int nrc = new_file_space(job, t, path, dir, &need, err, errlen);
        if (nrc) {
            free(dup); /* dir points into dup */
            return nrc;
        }
        t->dev = dst.st_dev;
        t->logical_block_bytes = sysfs_logical_block(dst.st_dev);
        devname_of(t->dev, t->devname, sizeof(t->devname));
        free(dup);
    } else if (t->is_blockdev) {
        if (need > t->size_bytes) {
            char a[64], b[64];
            return fail(err, errlen, -EINVAL, "--size: the region ends at %s but %s holds %s",
                        iom_format_bytes(need, a, sizeof(a)), path,
                        iom_format_bytes(t->size_bytes, b, sizeof(b)));
        }
    } else if (need > t->size_bytes) {
        struct statvfs vfs;
        char a[64], b[64];
        if (statvfs(path, &vfs) == 0 &&
            need - t->size_bytes > (uint64_t)vfs.f_bavail * vfs.f_frsize)
            return fail(err, errlen, -ENOSPC,
                        "target %s: extending it to %s needs more than the %s free", path,
                        iom_format_bytes(need, a, sizeof(a)),
                        iom_format_bytes((uint64_t)vfs.f_bavail * vfs.f_frsize, b, sizeof(b)));
    }
    int rc = iom_target_check_region(job, path, t, need, err, errlen);
    if (rc)
        return rc;
    if (iom_job_trims(job) && strcmp(job->ioengine, "null") != 0 &&
        (rc = trims_supported(job, t, err, errlen)))
        return rc;

    /* never destroy data on a device by accident */
    if (writes && t->is_blockdev && !job->force) {
        char what[512];
        if (in_use(t->dev, t->devname, what, sizeof(what)) || has_signature(path, what, sizeof(what)))
            return fail(err, errlen, -EEXIST,
                        "target %s %s; a write test would destroy its data. Add --force to "
                        "write to it anyway",
                        path, what);
    }
    return 0;
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
            return fail(err, errlen, -errno, "target %s: cannot make folder %s: %s", t->path,
                        dirs, strerror(errno));
    }
    int fd = open(t->path, flags, 0644);
    if (fd < 0)
        return fail(err, errlen, -errno, "target %s: cannot create: %s", t->path,
                    strerror(errno));
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
            return fail(err, errlen, rc, "target %s: %s: %s", t->path,
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
        rc = fail(err, errlen, rc, "target %s: fallocate: %s", t->path, strerror(-rc));
        goto out;
    }
    if (posix_memalign((void **)&buf, 4096, (chunk + 7) & ~(size_t)7)) {
        rc = fail(err, errlen, -ENOMEM, "out of memory");
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
            rc = fail(err, errlen, -e, "target %s: writing the test file at byte %llu: %s",
                      t->path, (unsigned long long)pos, strerror(e));
            goto out;
        }
        pos += (uint64_t)w;
        if (progress && ((pos - start) % (UINT64_C(64) << 20) == 0 || pos == end))
            progress(100.0 * (double)(pos - start) / (double)(end - start), arg);
    }
    if ((fio ? fsync(fd) : fdatasync(fd)) != 0) { /* fio's create_fsync=1 */
        rc = fail(err, errlen, -errno, "target %s: fdatasync: %s", t->path, strerror(errno));
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
    if (fd < 0)
        return open_failed(err, errlen, errno, t->path);
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
            return fail(err, errlen, -e,
                        "target %s: the filesystem refuses direct I/O (O_DIRECT), as tmpfs and "
                        "some FUSE filesystems do; use --direct=0 for buffered I/O",
                        t->path);
        return open_failed(err, errlen, e, t->path);
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
