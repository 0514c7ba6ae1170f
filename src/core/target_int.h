/*
 * target_int.h - the part of the target checks that is the same on every
 * system (target.c on Linux, target_win.c on Windows). Internal to src/core.
 */
#ifndef IOMARK_CORE_TARGET_INT_H
#define IOMARK_CORE_TARGET_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/target.h"

/*
 * Write the printf-style message fmt into err (errlen bytes, truncated) and
 * return rc: the one-line refusals of the target checks ("return
 * iom_target_fail(err, errlen, -EINVAL, ...)").
 */
int iom_target_fail(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * With t->size_bytes, t->logical_block_bytes set and `need` the bytes the
 * job needs (offset + size, or --create size; 0 = the whole target): set
 * t->need_bytes, t->region_start and t->region_len, and check the region
 * (not empty, offset inside, at least one block) and, for direct I/O, that
 * every block size, the offset, blockalign and strides are multiples of the
 * logical block size. Returns 0, or -EINVAL with one line in err naming the
 * option at fault and what is allowed.
 */
int iom_target_check_region(const struct iom_job *job, const char *path, struct iom_target *t,
                            uint64_t need, char *err, size_t errlen);

#ifndef _WIN32
/* Linux only (target_refuse.c). */

/*
 * Is block device dev (maj:min; devname its kernel name, "loop0", for its
 * partitions in sysfs) or one of its partitions mounted, used as swap, or
 * held by device-mapper, md or bcache? 1 with what set to the reason ("is
 * mounted (on /mnt)"), else 0. Reads /sys, /proc/self/mountinfo, /proc/swaps.
 */
int iom_target_in_use(dev_t dev, const char *devname, char *what, size_t whatlen);

/*
 * Does the file or block device at path carry a filesystem, RAID or
 * partition-table signature that libblkid's safe probe finds (the prober
 * of blkid -p, wipefs and mkfs)? 1 with what set to "carries an ext4
 * signature" (the article of the name as spoken), "carries a dos partition
 * table" or "carries more than one filesystem signature ..."; 0 when none
 * is found or path cannot be read. Reads only; the answer for the same
 * regular file (device, inode, size and change time unchanged) is remembered, so a command
 * that checks its target once per test probes it once. Not thread-safe: call
 * from one thread.
 */
int iom_target_has_signature(const char *path, char *what, size_t whatlen);

/*
 * The one-line message of an open(2) of target path with flags (only the
 * access mode, O_RDONLY/O_WRONLY/O_RDWR, counts) that failed with errno e,
 * written to err (errlen bytes, cut to fit). A block device refused with
 * EACCES/EPERM: who may open it, or why root is refused. A regular file:
 * "target P: cannot open for reading and writing: Permission denied (owner
 * uid 0, mode 644: iomark needs write permission WNEED)", naming the
 * permission this process lacks (its effective ids), a read-only
 * filesystem, an immutable file, or that the mode allows it; wneed says
 * what needs the writes ("for --rw=randwrite"), NULL for a read-only open.
 * Returns -e.
 */
int iom_target_open_failed(char *err, size_t errlen, int e, const char *path, int flags,
                           const char *wneed);

/*
 * Can this process (its effective ids) create a file in folder dir, the
 * folder of target path? 0 when dir is writable and searchable; otherwise
 * -errno (-EACCES, -EROFS) with one line in err naming the folder, its
 * owner and mode: with sized, "target P: folder D is not writable (owner
 * uid 0, mode 755); iomark needs write permission there to create the test
 * file", without (no size given), "target P does not exist, and iomark
 * cannot create it: folder D is not writable (...)". Changes nothing.
 */
int iom_target_folder_refused(const char *path, const char *dir, bool sized, char *err,
                              size_t errlen);

/*
 * stat(2) of target path failed with EACCES: name the first folder on its
 * way this process (its effective ids) cannot enter, "target P: cannot reach
 * it: folder D cannot be entered (owner uid 0, mode 700): iomark needs
 * search (x) permission on it", or, when none is found, the plain error.
 * Returns -EACCES with the line in err.
 */
int iom_target_search_refused(const char *path, char *err, size_t errlen);
#endif

#endif
