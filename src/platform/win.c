/* win.c - Windows helpers (see win.h). */
#include "platform/win.h"

#include <winioctl.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_FD 4096

static struct {
    DWORD access, flags;
    bool used;
} fd_table[MAX_FD];
static SRWLOCK fd_lock = SRWLOCK_INIT;

int iom_win_fd_remember(int fd, DWORD access, DWORD flags)
{
    if (fd < 0 || fd >= MAX_FD)
        return -EINVAL;
    AcquireSRWLockExclusive(&fd_lock);
    fd_table[fd].access = access;
    fd_table[fd].flags = flags;
    fd_table[fd].used = true;
    ReleaseSRWLockExclusive(&fd_lock);
    return 0;
}

int iom_win_fd_flags(int fd, DWORD *access, DWORD *flags)
{
    if (fd < 0 || fd >= MAX_FD)
        return -ENOENT;
    int rc = -ENOENT;
    AcquireSRWLockShared(&fd_lock);
    if (fd_table[fd].used) {
        *access = fd_table[fd].access;
        *flags = fd_table[fd].flags;
        rc = 0;
    }
    ReleaseSRWLockShared(&fd_lock);
    return rc;
}

void iom_win_fd_forget(int fd)
{
    if (fd < 0 || fd >= MAX_FD)
        return;
    AcquireSRWLockExclusive(&fd_lock);
    fd_table[fd].used = false;
    ReleaseSRWLockExclusive(&fd_lock);
}

bool iom_win_is_device_path(const char *p)
{
    return (p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/') && p[2] == '.' &&
           (p[3] == '\\' || p[3] == '/');
}

int iom_win_sector_sizes(HANDLE h, uint32_t *logical, uint32_t *physical)
{
    STORAGE_PROPERTY_QUERY q = {.PropertyId = StorageAccessAlignmentProperty,
                                .QueryType = PropertyStandardQuery};
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR d;
    DWORD got = 0;
    memset(&d, 0, sizeof(d));
    if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof(q), &d, sizeof(d), &got,
                        NULL) &&
        got >= offsetof(STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR, BytesPerPhysicalSector) + 4 &&
        d.BytesPerLogicalSector) {
        *logical = d.BytesPerLogicalSector;
        *physical = d.BytesPerPhysicalSector ? d.BytesPerPhysicalSector : d.BytesPerLogicalSector;
        return 0;
    }
    DISK_GEOMETRY_EX g;
    memset(&g, 0, sizeof(g));
    if (DeviceIoControl(h, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, NULL, 0, &g, sizeof(g), &got, NULL) &&
        g.Geometry.BytesPerSector) {
        *logical = *physical = g.Geometry.BytesPerSector;
        return 0;
    }
    return -EIO;
}

uint32_t iom_win_file_sector_size(const char *path)
{
    char full[MAX_PATH], root[MAX_PATH];
    if (!GetFullPathNameA(path, sizeof(full), full, NULL) ||
        !GetVolumePathNameA(full, root, sizeof(root)))
        return 512;
    /* "C:\" -> "\\.\C:" for the volume's own alignment */
    if (root[0] && root[1] == ':') {
        char dev[8] = {'\\', '\\', '.', '\\', root[0], ':', 0};
        HANDLE h = CreateFileA(dev, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0,
                               NULL);
        if (h != INVALID_HANDLE_VALUE) {
            uint32_t l = 0, p = 0;
            int rc = iom_win_sector_sizes(h, &l, &p);
            CloseHandle(h);
            if (rc == 0)
                return l;
        }
    }
    DWORD spc, bps, fc, tc;
    if (GetDiskFreeSpaceA(root, &spc, &bps, &fc, &tc) && bps)
        return bps;
    return 512;
}

const char *iom_win_strerror(DWORD e, char *buf, size_t len)
{
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, e,
                             MAKELANGID(LANG_ENGLISH, SUBLANG_DEFAULT), buf, (DWORD)len, NULL);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '.'))
        buf[--n] = '\0';
    if (!n)
        snprintf(buf, len, "Windows error %lu", (unsigned long)e);
    return buf;
}
