/* target_refuse.c - the Linux target checks' refusals that look past a
 * target's size (target_int.h): a block device in use, a filesystem or
 * partition-table signature (libblkid), and the one-line messages of an
 * open(2) that was refused or of a folder iomark cannot create its file in,
 * each saying what is needed. */
#include "core/target_int.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>



int iom_target_in_use(dev_t dev, const char *devname, char *what, size_t whatlen)
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

/* The last probe's answer and the file it was for (device, inode, size,
 * change time): mark checks its target once per test, and on a slow volume
 * (50 ms a request) one probe took 2.4 s. Used from the command's thread. */
static struct {
    bool valid;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec ctime;
    int found;
    char what[256];
} last_probe;

static int probe(const char *path, char *what, size_t whatlen);

int iom_target_has_signature(const char *path, char *what, size_t whatlen)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) /* a device's node says nothing of its data */
        return probe(path, what, whatlen);
    if (last_probe.valid && last_probe.dev == st.st_dev && last_probe.ino == st.st_ino &&
        last_probe.size == st.st_size && last_probe.ctime.tv_sec == st.st_ctim.tv_sec &&
        last_probe.ctime.tv_nsec == st.st_ctim.tv_nsec) {
        if (last_probe.found)
            snprintf(what, whatlen, "%s", last_probe.what);
        return last_probe.found;
    }
    int found = probe(path, last_probe.what, sizeof(last_probe.what));
    last_probe.valid = true;
    last_probe.dev = st.st_dev;
    last_probe.ino = st.st_ino;
    last_probe.size = st.st_size;
    last_probe.ctime = st.st_ctim;
    last_probe.found = found;
    if (found)
        snprintf(what, whatlen, "%s", last_probe.what);
    return found;
}

int iom_output_danger(const char *path, char *what, size_t whatlen)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (S_ISBLK(st.st_mode))
        return IOM_OUTPUT_DEVICE;
    if (S_ISREG(st.st_mode) && st.st_size > 0 && iom_target_has_signature(path, what, whatlen))
        return IOM_OUTPUT_SIGNATURE;
    return 0;
}

static int probe(const char *path, char *what, size_t whatlen)
{
    blkid_probe pr = blkid_new_probe_from_filename(path);
    if (!pr)
        return 0;
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
    blkid_probe_enable_partitions(pr, 1);
    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
    int found = 0, rc = blkid_do_safeprobe(pr);
    if (rc == 0) {
        const char *type = NULL;
        if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0 && type) {
            /* "an ext4 signature", "a vfat signature": the article of the name as spoken */
            snprintf(what, whatlen, "carries %s %s signature", article(type), type);
        } else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0 && type) {
            snprintf(what, whatlen, "carries %s %s partition table", article(type), type);
        } else {
            snprintf(what, whatlen, "carries a signature libblkid recognises");
        }
        found = 1;
    } else if (rc == -2) { /* libblkid: "ambivalent", more than one filesystem found */
        snprintf(what, whatlen, "carries more than one filesystem signature (blkid -p lists "
                 "them)");
        found = 1;
    }
    blkid_free_probe(pr);
    return found;
}

/* A block device refused with EACCES or EPERM: who may open it (root, or a
 * member of the device's group, "disk" on Debian: ls -l /dev/sda shows
 * brw-rw---- root disk; when the group cannot read it or is root, only
 * root), or, when even root is refused, why that may be (a nodev mount, a
 * device cgroup, a security module). */
static int device_refused(char *err, size_t errlen, int e, const char *path,
                          const struct stat *st)
{
    struct statvfs vfs;
    if (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NODEV)) /* mount(8) nodev: no one */
        return iom_target_fail(err, errlen, -e,
                    "target %s: cannot open: %s; the filesystem that holds this device node "
                    "is mounted nodev, which refuses device access to every user, root "
                    "included: use the device's node under /dev",
                    path, strerror(e));
    if (geteuid() == 0) /* root already: not the node's mode (device cgroups: kernel
                         * docs admin-guide/cgroup-v1/devices.rst; LSMs) */
        return iom_target_fail(err, errlen, -e,
                    "target %s: cannot open: %s, though iomark runs as root: something "
                    "beyond the node's permissions refuses it (a container's device cgroup, "
                    "or a security module such as SELinux or AppArmor)",
                    path, strerror(e));
    struct group *g = getgrgid(st->st_gid);
    char gname[64];
    if (g)
        snprintf(gname, sizeof(gname), "%s", g->gr_name);
    else
        snprintf(gname, sizeof(gname), "%u", (unsigned)st->st_gid);
    if (st->st_gid != 0 && (st->st_mode & S_IRGRP)) /* the group may read it: joining helps */
        return iom_target_fail(err, errlen, -e,
                    "target %s: cannot open: %s; a block device needs root or membership in its "
                    "group %s (e.g. sudo iomark ..., or usermod -aG %s USER and log in again)",
                    path, strerror(e), gname, gname);
    return iom_target_fail(err, errlen, -e, /* mode 0600 root:root, say: only root opens it */
                "target %s: cannot open: %s; only %s may open this block device (owner uid %u, "
                "group %s, mode %03o): run iomark as root (e.g. sudo iomark ...)",
                path, strerror(e), st->st_uid ? "root and its owner" : "root",
                (unsigned)st->st_uid, gname, (unsigned)(st->st_mode & 0777));
}

/* Why the open(2) of regular file `path` in access mode acc (O_RDONLY,
 * O_WRONLY, O_RDWR) failed with e, after "owner uid U, mode M: ": the
 * permission missing for this process (faccessat(2) with AT_EACCESS, its
 * effective ids) and what needs it (wneed), a read-only filesystem, an
 * immutable file, or, when the mode allows the access, what else refuses it. */
static void file_why(const char *path, const struct stat *st, int acc, int e, const char *wneed,
                     char *why, size_t len)
{
    int n = snprintf(why, len, "owner uid %u, mode %03o: ", (unsigned)st->st_uid,
                     (unsigned)(st->st_mode & 0777));
    if (n < 0 || (size_t)n >= len)
        return;
    why += n;
    len -= (size_t)n;
    int re = acc != O_WRONLY && faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) ? errno : 0;
    int we = acc != O_RDONLY && faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) ? errno : 0;
    const char *what = wneed ? wneed : "for the workload";
    if (e == EROFS || we == EROFS)
        snprintf(why, len, "its filesystem is mounted read-only, and iomark needs to write it %s",
                 what);
    else if (re == EACCES && we == EACCES)
        snprintf(why, len, "iomark needs read and write permission %s", what);
    else if (we == EACCES)
        snprintf(why, len, "iomark needs write permission %s", what);
    else if (re == EACCES)
        snprintf(why, len, "iomark needs read permission");
    else if (we == EPERM)
        snprintf(why, len, "the file is immutable, and iomark needs to write it %s; lsattr "
                 "shows the i flag, chattr -i clears it", what);
    else
        snprintf(why, len, "its mode allows this, so something else refuses it: an append-only "
                 "file, which lsattr shows with the a flag, or a security module such as "
                 "SELinux or AppArmor");
}

int iom_target_open_failed(char *err, size_t errlen, int e, const char *path, int flags,
                           const char *wneed)
{
    struct stat st;
    bool have = stat(path, &st) == 0;
    if ((e == EACCES || e == EPERM) && have && S_ISBLK(st.st_mode))
        return device_refused(err, errlen, e, path, &st);
    if (!have || !S_ISREG(st.st_mode))
        return iom_target_fail(err, errlen, -e, "target %s: cannot open: %s", path, strerror(e));
    int acc = flags & O_ACCMODE;
    const char *how = acc == O_RDWR     ? "reading and writing"
                      : acc == O_WRONLY ? "writing" : "reading";
    if (e == EACCES || e == EPERM || e == EROFS) {
        char why[400];
        file_why(path, &st, acc, e, wneed, why, sizeof(why));
        return iom_target_fail(err, errlen, -e, "target %s: cannot open for %s: %s (%s)", path, how,
                    strerror(e), why);
    }
    return iom_target_fail(err, errlen, -e, "target %s: cannot open for %s: %s", path, how, strerror(e));
}

int iom_target_folder_refused(const char *path, const char *dir, bool sized, char *err,
                              size_t errlen)
{
    if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) == 0)
        return 0;
    int e = errno;
    char cwd[4096];
    if (!strcmp(dir, ".") && getcwd(cwd, sizeof(cwd))) /* "folder /x", not "folder ." */
        dir = cwd;
    char how[4400];
    struct stat st;
    if (e == EROFS)
        snprintf(how, sizeof(how), "folder %s is on a filesystem mounted read-only", dir);
    else if (stat(dir, &st) == 0)
        snprintf(how, sizeof(how), "folder %s is not writable (owner uid %u, mode %03o)", dir,
                 (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
    else
        snprintf(how, sizeof(how), "folder %s is not writable: %s", dir, strerror(e));
    if (!sized)
        return iom_target_fail(err, errlen, -e, "target %s does not exist, and iomark cannot create it: %s",
                    path, how);
    return iom_target_fail(err, errlen, -e, "target %s: %s; iomark needs %s there to create the test file",
                path, how, e == EROFS ? "a writable filesystem" : "write permission");
}

int iom_target_search_refused(const char *path, char *err, size_t errlen)
{
    char p[4096];
    snprintf(p, sizeof(p), "%s", path);
    /* each folder on the way, from the top: the first this process cannot enter */
    for (char *s = strchr(p + (p[0] == '/'), '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        struct stat st;
        if (faccessat(AT_FDCWD, p, X_OK, AT_EACCESS) != 0 && errno == EACCES &&
            stat(p, &st) == 0)
            return iom_target_fail(err, errlen, -EACCES,
                        "target %s: cannot reach it: folder %s cannot be entered (owner uid %u, "
                        "mode %03o): iomark needs search (x) permission on it",
                        path, p, (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
        *s = '/';
    }
    return iom_target_fail(err, errlen, -EACCES, "target %s: %s", path, strerror(EACCES));
}
