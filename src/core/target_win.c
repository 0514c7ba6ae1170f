/*
 * target_win.c - target inspection, safety checks and test-file creation on
 * Windows (the same contract as target.c, see target.h).
 *
 * Targets: files, volumes ("\\.\D:") and physical disks
 * ("\\.\PhysicalDrive1"). Sizes from GetFileSizeEx and
 * IOCTL_DISK_GET_LENGTH_INFO; sector alignment from
 * IOCTL_STORAGE_QUERY_PROPERTY / StorageAccessAlignmentProperty (win.c).
 * Safety: a write to a volume, or to a disk whose drive layout
 * (IOCTL_DISK_GET_DRIVE_LAYOUT_EX) holds partitions, is refused without
 * --force. Unbuffered I/O (FILE_FLAG_NO_BUFFERING) needs sector-aligned
 * offsets and sizes (Microsoft Docs, "File Buffering"); the shared region
 * check refuses misaligned jobs before any I/O, on Windows and under Wine.
 * Opening maps --direct to FILE_FLAG_NO_BUFFERING and --sync to
 * FILE_FLAG_WRITE_THROUGH, as DiskSpd documents -Su and -Sw (-S = -Su,
 * -Sh = -Suw; microsoft/diskspd, CmdLineParser/CmdLineParser.cpp usage text).
 */
#include "platform/win.h"

#include <winioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/offsets.h"
#include "core/target.h"
#include "core/target_int.h"
#include "workload/units.h"



int iom_output_danger(const char *path, char *what, size_t whatlen)
{
    (void)what; /* files are not probed for signatures on Windows */
    (void)whatlen;
    return iom_win_is_device_path(path) ? IOM_OUTPUT_DEVICE : 0;
}

/* "\\.\D:" -> 'D', else 0 */
static char volume_letter(const char *p)
{
    if (!iom_win_is_device_path(p))
        return 0;
    const char *n = p + 4;
    if (((n[0] >= 'A' && n[0] <= 'Z') || (n[0] >= 'a' && n[0] <= 'z')) && n[1] == ':' &&
        (n[2] == '\0' || ((n[2] == '\\' || n[2] == '/') && n[3] == '\0')))
        return n[0];
    return 0;
}

/* Partitions on a disk: 0 none (raw or empty table), >0 count; style named in what. */
static int disk_partitions(HANDLE h, char *what, size_t whatlen)
{
    DWORD sz = sizeof(DRIVE_LAYOUT_INFORMATION_EX) + 127 * sizeof(PARTITION_INFORMATION_EX), got;
    DRIVE_LAYOUT_INFORMATION_EX *l = calloc(1, sz);
    if (!l)
        return -ENOMEM;
    int n = 0;
    if (DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_LAYOUT_EX, NULL, 0, l, sz, &got, NULL)) {
        for (DWORD i = 0; i < l->PartitionCount; i++) {
            const PARTITION_INFORMATION_EX *pi = &l->PartitionEntry[i];
            bool used = pi->PartitionStyle == PARTITION_STYLE_GPT
                            ? memcmp(&pi->Gpt.PartitionType, &(GUID){0}, sizeof(GUID)) != 0
                            : pi->PartitionLength.QuadPart > 0 && pi->Mbr.PartitionType != 0;
            n += used;
        }
        if (n)
            snprintf(what, whatlen, "carries a %s partition table with %d partition%s",
                     l->PartitionStyle == PARTITION_STYLE_GPT   ? "GPT"
                     : l->PartitionStyle == PARTITION_STYLE_MBR ? "MBR"
                                                                : "RAW",
                     n, n == 1 ? "" : "s");
    }
    free(l);
    return n;
}

static int check_device(const struct iom_job *job, const char *path, struct iom_target *t,
                        char *err, size_t errlen)
{
    HANDLE h = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                           OPEN_EXISTING, 0, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        char m[160];
        if (e == ERROR_FILE_NOT_FOUND || e == ERROR_PATH_NOT_FOUND)
            return iom_target_fail(err, errlen, -ENOENT, "target %s: no such disk or volume", path);
        return iom_target_fail(err, errlen, -iom_win_errno(e),
                    "target %s: cannot open: %s (disks and volumes need an elevated prompt)", path,
                    iom_win_strerror(e, m, sizeof(m)));
    }
    t->exists = true;
    t->is_blockdev = true;
    GET_LENGTH_INFORMATION len;
    DWORD got;
    DISK_GEOMETRY_EX geo;
    if (!DeviceIoControl(h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &len, sizeof(len), &got, NULL) &&
        !(DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &geo, sizeof(geo), &got,
                          NULL) &&
          (len.Length = geo.DiskSize, geo.DiskSize.QuadPart > 0))) {
        DWORD e = GetLastError();
        char m[160];
        CloseHandle(h);
        return iom_target_fail(err, errlen, -iom_win_errno(e), "target %s: cannot read the size: %s", path,
                    iom_win_strerror(e, m, sizeof(m)));
    }
    t->size_bytes = (uint64_t)len.Length.QuadPart;
    uint32_t lbs = 512, pbs = 512;
    iom_win_sector_sizes(h, &lbs, &pbs);
    t->logical_block_bytes = lbs;
    char letter = volume_letter(path);
    const char *name = path + 4;
    snprintf(t->devname, sizeof(t->devname), "%s", name);
    int rc = 0;
    if (iom_job_writes(job) && !job->force) {
        char what[256] = "";
        if (letter) {
            char root[4] = {letter, ':', '\\', 0}, fs[32] = "";
            if (GetVolumeInformationA(root, NULL, 0, NULL, NULL, NULL, fs, sizeof(fs)) && fs[0])
                snprintf(what, sizeof(what), "is a mounted volume with a %s file system", fs);
            else
                snprintf(what, sizeof(what), "is a mounted volume (drive %c:)", letter);
        } else {
            disk_partitions(h, what, sizeof(what));
        }
        if (what[0])
            rc = iom_target_fail(err, errlen, -EEXIST,
                      "target %s %s; a write test would destroy its data. Add --force to write "
                      "to it anyway",
                      path, what);
    }
    CloseHandle(h);
    return rc;
}

int iom_target_check(const struct iom_job *job, const char *path, struct iom_target *t,
                     char *err, size_t errlen)
{
    memset(t, 0, sizeof(*t));
    t->path = path;
    t->fd = -1;
    if (iom_job_trims(job) && strcmp(job->ioengine, "null") != 0) {
        snprintf(err, errlen, "--rw=%s: trims are not supported on Windows (no discard or "
                 "punched hole in this build's engine)", iom_rw_name(job->rw));
        return -EOPNOTSUPP;
    }
    uint64_t span = iom_job_span_bytes(job); /* size, and the clones' offset_increment */
    uint64_t need = span ? (span > UINT64_MAX - job->offset_bytes ? UINT64_MAX
                                                                   : job->offset_bytes + span) : 0;
    if (job->create_bytes > need)
        need = job->create_bytes;

    if (iom_win_is_device_path(path)) {
        int rc = check_device(job, path, t, err, errlen);
        if (rc)
            return rc;
        if (need > t->size_bytes) {
            char a[64], b[64];
            return iom_target_fail(err, errlen, -EINVAL, "--size: the region ends at %s but %s holds %s",
                        iom_format_bytes(need, a, sizeof(a)), path,
                        iom_format_bytes(t->size_bytes, b, sizeof(b)));
        }
        return iom_target_check_region(job, path, t, need, err, errlen);
    }

    WIN32_FILE_ATTRIBUTE_DATA fa;
    if (GetFileAttributesExA(path, GetFileExInfoStandard, &fa)) {
        if (fa.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)
            return iom_target_fail(err, errlen, -EINVAL,
                        "target %s: not a regular file or device; name a file, a volume "
                        "(\\\\.\\D:) or a disk (\\\\.\\PhysicalDrive1)",
                        path);
        t->exists = true;
        t->size_bytes = ((uint64_t)fa.nFileSizeHigh << 32) | fa.nFileSizeLow;
        DWORD hi = 0, lo = GetCompressedFileSizeA(path, &hi);
        if (lo != INVALID_FILE_SIZE || GetLastError() == NO_ERROR)
            t->sparse = (((uint64_t)hi << 32) | lo) < t->size_bytes;
    } else {
        DWORD e = GetLastError();
        if (e != ERROR_FILE_NOT_FOUND && e != ERROR_PATH_NOT_FOUND) {
            char m[160];
            return iom_target_fail(err, errlen, -iom_win_errno(e), "target %s: %s", path,
                        iom_win_strerror(e, m, sizeof(m)));
        }
        if (job->no_create) /* fio's allow_file_create=0 */
            return iom_target_fail(err, errlen, -ENOENT, "target %s does not exist and allow_file_create=0 "
                        "disallows creating it", path);
        /* the folder must exist: said first, as --size would not help without it */
        char full[MAX_PATH];
        char *base = NULL;
        if (!GetFullPathNameA(path, sizeof(full), full, &base) || !base)
            return iom_target_fail(err, errlen, -ENOENT, "target %s: folder does not exist", path);
        *base = '\0';
        DWORD da = GetFileAttributesA(full);
        if (da == INVALID_FILE_ATTRIBUTES || !(da & FILE_ATTRIBUTE_DIRECTORY))
            return iom_target_fail(err, errlen, -ENOENT, "target %s: folder %s does not exist", path, full);
        if (!need)
            return iom_target_fail(err, errlen, -ENOENT,
                        "target %s does not exist; give --size to have iomark create it", path);
    }
    t->logical_block_bytes = iom_win_file_sector_size(path);
    if (need > t->size_bytes) {
        char full[MAX_PATH], root[MAX_PATH];
        ULARGE_INTEGER avail, total;
        if (GetFullPathNameA(path, sizeof(full), full, NULL) &&
            GetVolumePathNameA(full, root, sizeof(root)) &&
            GetDiskFreeSpaceExA(root, &avail, &total, NULL)) {
            /* keep 1% or 64 MiB of the volume free, whichever is smaller (as on Linux) */
            uint64_t reserve = total.QuadPart / 100;
            if (reserve > (UINT64_C(64) << 20))
                reserve = UINT64_C(64) << 20;
            if (need - t->size_bytes + reserve > avail.QuadPart)
                return iom_target_fail(err, errlen, -ENOSPC,
                            "target %s: creating it needs %llu bytes but the volume has %llu "
                            "bytes free; choose a smaller --size",
                            path, (unsigned long long)need, (unsigned long long)avail.QuadPart);
        }
    }
    return iom_target_check_region(job, path, t, need, err, errlen);
}

int iom_target_prepare(const struct iom_job *job, struct iom_target *t,
                       const volatile sig_atomic_t *stop, void (*progress)(double pct, void *arg),
                       void *arg, char *err, size_t errlen)
{
    if (t->is_blockdev || t->need_bytes <= t->size_bytes)
        return 0;
    HANDLE h = CreateFileA(t->path, GENERIC_WRITE, FILE_SHARE_READ, NULL,
                           t->exists ? OPEN_EXISTING : CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        char m[160];
        return iom_target_fail(err, errlen, -iom_win_errno(e), "target %s: cannot create: %s", t->path,
                    iom_win_strerror(e, m, sizeof(m)));
    }
    t->created = !t->exists;
    const size_t chunk = 1 << 20;
    uint64_t *buf = malloc(chunk);
    int rc = 0;
    if (!buf) {
        rc = iom_target_fail(err, errlen, -ENOMEM, "out of memory");
        goto out;
    }
    struct iom_rng rng;
    iom_rng_seed(&rng, job->seed ^ (uint64_t)t->need_bytes ^ 0x10ba1c0ffeeULL);
    uint64_t pos = t->size_bytes, start = pos, end = t->need_bytes;
    LARGE_INTEGER at = {.QuadPart = (LONGLONG)pos};
    SetFilePointerEx(h, at, NULL, FILE_BEGIN);
    while (pos < end) {
        if (stop && *stop) {
            rc = -EINTR;
            snprintf(err, errlen, "target %s: creation interrupted", t->path);
            goto out;
        }
        size_t n = end - pos < chunk ? (size_t)(end - pos) : chunk;
        for (size_t i = 0; i < (n + 7) / 8; i++)
            buf[i] = job->zero_buffers ? 0 : iom_rng_next(&rng);
        DWORD w = 0;
        if (!WriteFile(h, buf, (DWORD)n, &w, NULL) || w == 0) {
            DWORD e = GetLastError();
            char m[160];
            rc = iom_target_fail(err, errlen, -iom_win_errno(e),
                      "target %s: writing the test file at byte %llu: %s", t->path,
                      (unsigned long long)pos, iom_win_strerror(e, m, sizeof(m)));
            goto out;
        }
        pos += w;
        if (progress && ((pos - start) % (UINT64_C(64) << 20) == 0 || pos == end))
            progress(100.0 * (double)(pos - start) / (double)(end - start), arg);
    }
    if (!FlushFileBuffers(h)) {
        DWORD e = GetLastError();
        char m[160];
        rc = iom_target_fail(err, errlen, -iom_win_errno(e), "target %s: FlushFileBuffers: %s", t->path,
                  iom_win_strerror(e, m, sizeof(m)));
        goto out;
    }
    t->size_bytes = end;
    t->sparse = false;
out:
    free(buf);
    CloseHandle(h);
    if (rc && t->created) {
        DeleteFileA(t->path);
        t->created = false;
    }
    return rc;
}

int iom_target_open(const struct iom_job *job, struct iom_target *t, char *err, size_t errlen)
{
    bool writes = iom_job_writes(job);
    DWORD access = GENERIC_READ | (writes ? GENERIC_WRITE : 0);
    DWORD flags = FILE_FLAG_OVERLAPPED;
    if (job->direct)
        flags |= FILE_FLAG_NO_BUFFERING;
    if (job->sync != IOM_SYNC_NONE)
        flags |= FILE_FLAG_WRITE_THROUGH;
    HANDLE h = CreateFileA(t->path, access, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING,
                           FILE_ATTRIBUTE_NORMAL | flags, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD e = GetLastError();
        char m[160];
        return iom_target_fail(err, errlen, -iom_win_errno(e), "target %s: cannot open: %s", t->path,
                    iom_win_strerror(e, m, sizeof(m)));
    }
    int fd = _open_osfhandle((intptr_t)h, (writes ? _O_RDWR : _O_RDONLY) | _O_BINARY);
    if (fd < 0) {
        int e = errno ? errno : EBADF;
        DWORD type = GetFileType(h);
        CloseHandle(h);
        return iom_target_fail(err, errlen, -e,
                    "target %s: the C runtime refuses a descriptor for its handle (%s; "
                    "GetFileType gives %lu)",
                    t->path, strerror(e), (unsigned long)type);
    }
    if (iom_win_fd_remember(fd, access, flags) != 0) {
        _close(fd);
        return iom_target_fail(err, errlen, -EMFILE, "target %s: descriptor %d out of range", t->path, fd);
    }
    t->fd = fd;
    return 0;
}

void iom_target_close(struct iom_target *t, bool remove_created)
{
    if (t->fd >= 0) {
        iom_win_fd_forget(t->fd);
        _close(t->fd);
    }
    t->fd = -1;
    if (remove_created && t->created) {
        DeleteFileA(t->path);
        t->created = false;
    }
}

int iom_target_invalidate(const struct iom_target *t, char *err, size_t errlen)
{
    /* Windows has no per-file "drop the cache" call for an open handle */
    snprintf(err, errlen, "%s: dropping cached pages is not available on Windows", t->path);
    return -EOPNOTSUPP;
}

int iom_target_pre_read(const struct iom_target *t, uint64_t bs, char *err, size_t errlen)
{
    (void)bs;
    snprintf(err, errlen, "%s: pre_read: not on Windows", t->path);
    return -EOPNOTSUPP;
}
