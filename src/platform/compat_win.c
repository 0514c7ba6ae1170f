/* compat_win.c - POSIX functions mingw-w64 lacks, over the Win32 API
 * (declared in platform/include/iom_compat_win.h and its sys/ headers). */
#include <windows.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>

long iom_win_sysconf(int name)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    switch (name) {
    case _SC_NPROCESSORS_ONLN:
        return (long)si.dwNumberOfProcessors;
    case _SC_PAGESIZE:
        return (long)si.dwPageSize;
    case _SC_PHYS_PAGES: {
        MEMORYSTATUSEX ms = {.dwLength = sizeof(ms)};
        if (!GlobalMemoryStatusEx(&ms) || !si.dwPageSize)
            return -1;
        return (long)(ms.ullTotalPhys / si.dwPageSize);
    }
    default:
        errno = EINVAL;
        return -1;
    }
}

/* RtlGetVersion reports the real version; GetVersionEx is capped by the
 * application manifest (Microsoft Docs: "RtlGetVersion function"). */
typedef LONG(WINAPI *rtl_get_version_fn)(OSVERSIONINFOW *);

int uname(struct utsname *u)
{
    memset(u, 0, sizeof(*u));
    snprintf(u->sysname, sizeof(u->sysname), "Windows");
    OSVERSIONINFOW v = {.dwOSVersionInfoSize = sizeof(v)};
    HMODULE nt = GetModuleHandleA("ntdll.dll");
    rtl_get_version_fn fn = nt ? (rtl_get_version_fn)(void (*)(void))GetProcAddress(nt, "RtlGetVersion") : NULL;
    if (fn && fn(&v) == 0)
        snprintf(u->release, sizeof(u->release), "%lu.%lu.%lu", (unsigned long)v.dwMajorVersion,
                 (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
    DWORD n = sizeof(u->nodename);
    if (!GetComputerNameExA(ComputerNameDnsHostname, u->nodename, &n))
        snprintf(u->nodename, sizeof(u->nodename), "unknown");
    SYSTEM_INFO si;
    GetNativeSystemInfo(&si);
    snprintf(u->machine, sizeof(u->machine), "%s",
             si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_AMD64   ? "x86_64"
             : si.wProcessorArchitecture == PROCESSOR_ARCHITECTURE_ARM64 ? "aarch64"
                                                                         : "unknown");
    return 0;
}

static void ft_to_tv(const FILETIME *ft, struct timeval *tv)
{
    uint64_t t = ((uint64_t)ft->dwHighDateTime << 32) | ft->dwLowDateTime; /* 100 ns */
    tv->tv_sec = (long)(t / 10000000u);
    tv->tv_usec = (long)(t % 10000000u / 10u);
}

int getrusage(int who, struct rusage *ru)
{
    FILETIME c, e, k, us;
    if (who != RUSAGE_SELF) {
        errno = EINVAL;
        return -1;
    }
    memset(ru, 0, sizeof(*ru));
    if (!GetProcessTimes(GetCurrentProcess(), &c, &e, &k, &us)) {
        errno = EIO;
        return -1;
    }
    ft_to_tv(&us, &ru->ru_utime);
    ft_to_tv(&k, &ru->ru_stime);
    return 0;
}

int iom_win_alphasort(const struct dirent **a, const struct dirent **b)
{
    return strcoll((*a)->d_name, (*b)->d_name);
}

int iom_win_scandir(const char *dir, struct dirent ***namelist,
                    int (*filter)(const struct dirent *),
                    int (*compar)(const struct dirent **, const struct dirent **))
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    struct dirent **list = NULL, *de;
    size_t n = 0, cap = 0;
    while ((de = readdir(d))) {
        if (filter && !filter(de))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            struct dirent **nl = realloc(list, nc * sizeof(*nl));
            if (!nl)
                goto nomem;
            list = nl;
            cap = nc;
        }
        list[n] = malloc(sizeof(*de));
        if (!list[n])
            goto nomem;
        memcpy(list[n++], de, sizeof(*de));
    }
    closedir(d);
    if (compar && n > 1)
        qsort(list, n, sizeof(*list), (int (*)(const void *, const void *))compar);
    *namelist = list;
    return (int)n;
nomem:
    while (n)
        free(list[--n]);
    free(list);
    closedir(d);
    errno = ENOMEM;
    return -1;
}

#include <io.h>

#ifndef ERROR_OFFSET_ALIGNMENT_VIOLATION
#define ERROR_OFFSET_ALIGNMENT_VIOLATION 327L
#endif

static int errno_of(DWORD e)
{
    switch (e) {
    case ERROR_INVALID_PARAMETER:
    case ERROR_OFFSET_ALIGNMENT_VIOLATION:
        return EINVAL;
    case ERROR_HANDLE_EOF:
        return 0;
    case ERROR_DISK_FULL:
        return ENOSPC;
    case ERROR_ACCESS_DENIED:
    case ERROR_WRITE_PROTECT:
        return EACCES;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_NO_SYSTEM_RESOURCES:
        return ENOMEM;
    default:
        return EIO;
    }
}

int iom_win_errno(unsigned long win32_error)
{
    return errno_of((DWORD)win32_error);
}

static ssize_t rw_at(int fd, void *buf, size_t n, int64_t off, int write)
{
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    if (n > 0x7fffffffu)
        n = 0x7fffffffu;
    OVERLAPPED ov = {0};
    ov.Offset = (DWORD)(uint64_t)off;
    ov.OffsetHigh = (DWORD)((uint64_t)off >> 32);
    /* low bit set: no completion packet even if h is bound to a port
     * (Microsoft Docs, GetQueuedCompletionStatus remarks) */
    HANDLE ev = CreateEventA(NULL, TRUE, FALSE, NULL);
    if (!ev) {
        errno = ENOMEM;
        return -1;
    }
    ov.hEvent = (HANDLE)((uintptr_t)ev | 1);
    DWORD got = 0;
    BOOL ok = write ? WriteFile(h, buf, (DWORD)n, &got, &ov) : ReadFile(h, buf, (DWORD)n, &got, &ov);
    if (!ok && GetLastError() == ERROR_IO_PENDING)
        ok = GetOverlappedResult(h, &ov, &got, TRUE);
    DWORD e = ok ? 0 : GetLastError();
    CloseHandle(ev);
    if (!ok) {
        if (e == ERROR_HANDLE_EOF)
            return 0;
        errno = errno_of(e);
        return -1;
    }
    return (ssize_t)got;
}

ssize_t iom_win_pread(int fd, void *buf, size_t n, int64_t off)
{
    return rw_at(fd, buf, n, off, 0);
}

ssize_t iom_win_pwrite(int fd, const void *buf, size_t n, int64_t off)
{
    return rw_at(fd, (void *)buf, n, off, 1);
}

ssize_t iom_win_readlink(const char *path, char *buf, size_t len)
{
    (void)path, (void)buf, (void)len;
    errno = EINVAL;
    return -1;
}

char *iom_win_realpath(const char *path, char *resolved)
{
    return _fullpath(resolved, path, resolved ? MAX_PATH : 0);
}

int iom_win_fdatasync(int fd)
{
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE) {
        errno = EBADF;
        return -1;
    }
    if (!FlushFileBuffers(h)) {
        errno = errno_of(GetLastError());
        return -1;
    }
    return 0;
}

#undef strftime
size_t iom_win_strftime(char *s, size_t max, const char *fmt, const struct tm *tm)
{
    char f[256];
    size_t o = 0;
    for (const char *p = fmt; *p && o + 3 < sizeof(f); p++) {
        if (p[0] == '%' && p[1] == 'e') {
            int d = tm->tm_mday;
            f[o++] = d < 10 ? ' ' : (char)('0' + d / 10);
            f[o++] = (char)('0' + d % 10);
            p++;
        } else if (p[0] == '%' && p[1]) {
            f[o++] = *p++;
            f[o++] = *p;
        } else {
            f[o++] = *p;
        }
    }
    f[o] = '\0';
    return strftime(s, max, f, tm);
}

char *iom_win_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = malloc(len + 1);
    if (!d) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

#include <stdarg.h>
#include <sys/ioctl.h>

int iom_win_ioctl(int fd, unsigned long req, ...)
{
    if (req != TIOCGWINSZ) {
        errno = EINVAL;
        return -1;
    }
    va_list ap;
    va_start(ap, req);
    struct winsize *ws = va_arg(ap, struct winsize *);
    va_end(ap);
    CONSOLE_SCREEN_BUFFER_INFO ci;
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(h, &ci)) {
        errno = ENOTTY;
        return -1;
    }
    memset(ws, 0, sizeof(*ws));
    ws->ws_col = (unsigned short)(ci.srWindow.Right - ci.srWindow.Left + 1);
    ws->ws_row = (unsigned short)(ci.srWindow.Bottom - ci.srWindow.Top + 1);
    return 0;
}

#include <direct.h>

int iom_win_setenv(const char *name, const char *value, int overwrite)
{
    if (!name || !*name || strchr(name, '=')) {
        errno = EINVAL;
        return -1;
    }
    if (!overwrite && getenv(name))
        return 0;
    if (_putenv_s(name, value ? value : "") != 0) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

int iom_win_unsetenv(const char *name)
{
    return iom_win_setenv(name, "", 1); /* _putenv_s with "" removes the variable */
}

char *iom_win_mkdtemp(char *tmpl)
{
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX") != 0 || _mktemp_s(tmpl, n + 1) != 0) {
        errno = EINVAL;
        return NULL;
    }
    if (_mkdir(tmpl) != 0)
        return NULL;
    return tmpl;
}
