/*
 * win.h - Windows helpers shared by the Windows-only files (target_win.c,
 * iocp_win.c, probe_win.c). Windows builds only.
 *
 * Sources: Microsoft Docs for CreateFile (FILE_FLAG_NO_BUFFERING,
 * FILE_FLAG_WRITE_THROUGH, FILE_FLAG_OVERLAPPED), ReOpenFile,
 * IOCTL_STORAGE_QUERY_PROPERTY with StorageAccessAlignmentProperty
 * (STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR), "File Buffering" (unbuffered I/O
 * must use sector-aligned offsets, sizes and buffer addresses).
 */
#ifndef IOMARK_PLATFORM_WIN_H
#define IOMARK_PLATFORM_WIN_H
#ifdef _WIN32

#include <windows.h>

#include <stdbool.h>
#include <stdint.h>

/*
 * Remember how CRT descriptor fd's handle was opened (CreateFile's access
 * and flags), so an engine can ReOpenFile it with the same flags: a handle
 * belongs to at most one completion port, and each worker thread has its
 * own port (as DiskSpd opens one handle per thread). Returns 0, or -EINVAL
 * for fd < 0 or fd >= 4096.
 */
int iom_win_fd_remember(int fd, DWORD access, DWORD flags);

/* The access and flags remembered for fd. Returns 0, or -ENOENT when fd
 * was not opened by iom_target_open(). */
int iom_win_fd_flags(int fd, DWORD *access, DWORD *flags);

/* Forget fd (on close). */
void iom_win_fd_forget(int fd);

/* Is `path` a device path: "\\.\PhysicalDriveN", "\\.\X:" (a volume),
 * "\\.\..." or "//./..."? */
bool iom_win_is_device_path(const char *path);

/*
 * Sector sizes of the device under `h` (a disk or volume handle, opened with
 * any access, even 0) from IOCTL_STORAGE_QUERY_PROPERTY /
 * StorageAccessAlignmentProperty; on failure (older Windows, Wine, a
 * driver without it) from IOCTL_DISK_GET_DRIVE_GEOMETRY_EX's BytesPerSector
 * (then physical = logical). Returns 0 with *logical and *physical in bytes,
 * or -errno when neither answers.
 */
int iom_win_sector_sizes(HANDLE h, uint32_t *logical, uint32_t *physical);

/*
 * Sector size for unbuffered I/O on files under `path` (a file or folder):
 * the volume's StorageAccessAlignmentProperty through "\\.\X:", else
 * GetDiskFreeSpace's BytesPerSector for the volume root, else 512.
 * Never fails; returns bytes.
 */
uint32_t iom_win_file_sector_size(const char *path);

/* Text of Win32 error e (FormatMessage, no trailing newline) in buf. */
const char *iom_win_strerror(DWORD e, char *buf, size_t len);

#endif /* _WIN32 */
#endif
