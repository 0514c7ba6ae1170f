/*
 * target.h - checking, creating and opening the files and block devices a
 * job runs on.
 *
 * Two steps keep bad input harmless: iom_target_check() looks at a target
 * and the job and refuses what cannot work or would destroy data, without
 * writing or creating anything; only after every target passed does
 * iom_target_prepare() create or extend test files.
 */
#ifndef IOMARK_CORE_TARGET_H
#define IOMARK_CORE_TARGET_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workload/spec.h"

struct iom_target {
    const char *path;            /* borrowed from the job */
    bool exists, is_blockdev;
    bool created;                /* prepare() created the file */
    bool extended;               /* prepare() extended an existing, smaller file */
    uint64_t extended_from;      /* its size before (bytes), when extended */
    bool sparse;                 /* regular file with unallocated blocks */
    uint64_t size_bytes;         /* current size (after prepare: final size) */
    uint64_t need_bytes;         /* size the job needs (file targets) */
    uint64_t fill_need;          /* fill_device: the free space the new file's region spans
                                    (created empty, not filled); 0 otherwise */
    uint32_t logical_block_bytes;/* direct I/O offset/size alignment */
    dev_t dev;                   /* the block device: st_rdev, or st_dev for files */
    char devname[64];            /* its kernel name ("vda1", "loop0"), "" if not a block device */
    uint64_t region_start, region_len;
    bool make_dirs;              /* job->make_dirs and its folder is missing: made at create */
    int fd;                      /* -1 until opened */
};

/*
 * The one-line message for a PATH (a target, an --output file) whose folder
 * is missing or is not a folder, written to err (errlen bytes, cut to fit):
 * it walks up from PATH to the nearest part that exists and names the first
 * folder missing below it, "WHAT P: folder a does not exist" for
 * a/b/c/x.dat (not a/b/c), or the part that is no folder, "WHAT P: f is a
 * file, not a folder" for f/x (where stat(2) says only ENOTDIR). WHAT is
 * "target" ("target P: ...") or an option ("--output" gives "--output=P:
 * ..."). Returns -ENOENT, -ENOTDIR, or -errno of a stat(2) failure other
 * than those two (named in the message); no allocation.
 */
int iom_path_folder_error(const char *path, const char *what, char *err, size_t errlen);

/*
 * Would writing a result file (an --output) at path destroy data that is
 * there? Following symbolic links (/dev/disk/by-id/...): IOM_OUTPUT_DEVICE
 * for a block device (Windows: a \\.\ volume or disk path), which a result
 * would be written into in place; IOM_OUTPUT_SIGNATURE for a non-empty
 * regular file carrying a filesystem, RAID or partition-table signature
 * (a VM disk image; Linux only, libblkid's safe probe as for targets), with
 * what set to "carries an ext4 signature"; else 0 (what untouched): no such
 * path, a regular file without a signature, a folder (refused elsewhere), a
 * character device or FIFO (/dev/null, /dev/stdout: written in place, as
 * meant). Reads only; not thread-safe (the probe's cache).
 */
enum { IOM_OUTPUT_DEVICE = 1, IOM_OUTPUT_SIGNATURE = 2 };
int iom_output_danger(const char *path, char *what, size_t whatlen);

/*
 * Inspect `path` for `job` without changing anything: existence, type,
 * size, block size, direct-I/O alignment of every block size and offset;
 * for a file to create, its folder (missing: named before a missing
 * --size), whether this process may create files there (Linux), and free
 * space; for an existing file (Linux), whether this process (its effective
 * ids) may read it, and write it when the job writes or the file must be
 * extended to the region (the message names the owner, mode and permission
 * needed); and,
 * unless job->force, the safety checks: a job that writes a block device
 * that is mounted, swap, or held by device-mapper/md, or that writes or
 * extends a block device or regular file carrying a filesystem, RAID or
 * partition-table signature found by libblkid (Windows: a volume or a
 * partitioned disk; files are not probed there).
 * On refusal returns -EINVAL (bad input), -EEXIST (would destroy data),
 * -ENOSPC, -ENOENT, -EACCES, -EROFS or another -errno, and writes one line
 * to err naming the target, the option at fault when there is one, and what
 * is allowed or needed.
 */
int iom_target_check(const struct iom_job *job, const char *path, struct iom_target *t,
                     char *err, size_t errlen);

/*
 * Create (or extend) a file target to need_bytes and fill the new part
 * with incompressible random data, so reads never hit unwritten zero pages.
 * An existing file is never truncated; one smaller than need_bytes is
 * extended (t->extended, t->extended_from its old size). `stop` (may be NULL) is polled to
 * abandon the fill on a signal; a file created here is then removed.
 * progress(pct, arg) is called now and then when non-NULL.
 * Returns 0, -EINTR (stopped), or -errno with err filled.
 */
int iom_target_prepare(const struct iom_job *job, struct iom_target *t,
                       const volatile sig_atomic_t *stop, void (*progress)(double pct, void *arg),
                       void *arg, char *err, size_t errlen);

/*
 * Drop the target's cached pages (fio's invalidate=1, fio's
 * file_invalidate_cache): posix_fadvise(POSIX_FADV_DONTNEED) over the whole
 * file, or the BLKFLSBUF ioctl on a block device (needs CAP_SYS_ADMIN).
 * Dirty pages are not dropped (the kernel writes them back first only for
 * BLKFLSBUF). Uses t->fd when open, else opens t->path read-only for the
 * call. Returns 0 or -errno with err filled; nothing is changed on disk.
 */
int iom_target_invalidate(const struct iom_target *t, char *err, size_t errlen);

/*
 * fio's pre_read=1 (filesetup.c pre_read_file): read the target's region
 * [region_start, +region_len) in pieces of bs bytes (fio: the largest read
 * block size; the last piece shorter) through a buffered descriptor of its
 * own, so the region is in the page cache when the job starts. Block devices
 * and files alike. Returns 0 or -errno (a short read: -EIO, as fio) with err
 * filled; nothing is written.
 */
int iom_target_pre_read(const struct iom_target *t, uint64_t bs, char *err, size_t errlen);

/* Open for the run with the job's flags (O_DIRECT, O_DSYNC/O_SYNC, read or
 * read-write). Sets t->fd. With job->fadvise, advises the kernel of the pattern
 * over [region_start, +region_len) as fio's fadvise_hint does at open
 * (POSIX_FADV_RANDOM turns readahead off; a refused advice is ignored).
 * Returns 0 or -errno with err filled (a filesystem refusing O_DIRECT gets a
 * message suggesting --direct=0). */
int iom_target_open(const struct iom_job *job, struct iom_target *t, char *err, size_t errlen);

/*
 * The target opened once more, as fio 3.33 reopens a job's file for its
 * verify phase (backend.c clear_io_state closes it after the writes;
 * verify.c get_next_verify -> ioengines.c td_io_open_file): open(2) with the
 * job's flags (as iom_target_open), then with job->invalidate the cache drop
 * of fio's file_invalidate_cache over [region_start, +region_len)
 * (posix_fadvise(POSIX_FADV_DONTNEED) for a file, which leaves dirty pages;
 * ioctl(BLKFLSBUF) for a block device; a failure is ignored, fio only notes
 * it), then the fadvise hint as iom_target_open. t is not changed. POSIX only.
 * Returns the new descriptor (the caller's to close) or -errno with err filled.
 */
int iom_target_reopen(const struct iom_job *job, const struct iom_target *t, char *err,
                      size_t errlen);

/* Close the fd; remove the file when remove_created and prepare() made it. */
void iom_target_close(struct iom_target *t, bool remove_created);

#endif
