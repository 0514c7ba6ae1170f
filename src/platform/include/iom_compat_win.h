/*
 * iom_compat_win.h - the few POSIX names iomark's portable code uses that
 * mingw-w64's C runtime lacks. Windows builds only: CMake force-includes it
 * (-include) so Linux sources stay free of #ifdef _WIN32 for these.
 *
 * Sources: Microsoft's CRT documentation (_open flags: _O_NOINHERIT keeps a
 * handle out of child processes, the meaning of O_CLOEXEC) and the POSIX
 * sysconf() specification (the names mapped here).
 */
#ifndef IOMARK_PLATFORM_COMPAT_WIN_H
#define IOMARK_PLATFORM_COMPAT_WIN_H
#ifdef _WIN32

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC _O_NOINHERIT
#endif
#ifndef O_DIRECT
#define O_DIRECT 0x40000000 /* iomark-private: target_win.c maps it to FILE_FLAG_NO_BUFFERING */
#endif
/* Signal numbers POSIX names and Windows never raises; kept so that result
 * files use the same numbers on both systems (SIGHUP is 1, SIGPIPE 13 on
 * Linux). */
#ifndef SIGHUP
#define SIGHUP 1
#endif
#ifndef SIGPIPE
#define SIGPIPE 13
#endif

/* sysconf() for the names iomark asks: online CPUs (GetSystemInfo), physical
 * pages and the page size (GlobalMemoryStatusEx, GetSystemInfo). Returns -1
 * for other names, as POSIX sysconf() does for an unsupported one. */
#define _SC_NPROCESSORS_ONLN 84
#define _SC_PHYS_PAGES 85
#define _SC_PAGESIZE 30
long iom_win_sysconf(int name);
#define sysconf iom_win_sysconf

/* POSIX signal masks: Windows delivers no POSIX signals to threads (a console
 * control handler runs on a thread of its own, see platform/signal_win.c),
 * so blocking them in worker threads has nothing to do. */
#ifndef SIG_BLOCK
typedef _sigset_t sigset_t;
#define SIG_BLOCK 0
#define SIG_SETMASK 2
static inline int sigfillset(sigset_t *s) { *s = ~(_sigset_t)0; return 0; }
static inline int sigemptyset(sigset_t *s) { *s = 0; return 0; }
/* winpthreads defines pthread_sigmask() as the constant 0; a function
 * (same meaning) avoids "statement with no effect" warnings. */
#include <pthread_signal.h>
#undef pthread_sigmask
static inline int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    (void)how, (void)set;
    if (old)
        *old = 0;
    return 0;
}
#endif

/* scandir(3)/alphasort(3) (POSIX.1-2008) over mingw-w64's opendir/readdir:
 * same contract: *namelist is malloc'ed, each entry too; returns the count
 * or -1 with errno set. */
struct dirent;
int iom_win_scandir(const char *dir, struct dirent ***namelist,
                    int (*filter)(const struct dirent *),
                    int (*compar)(const struct dirent **, const struct dirent **));
int iom_win_alphasort(const struct dirent **a, const struct dirent **b);
#define scandir iom_win_scandir
#define alphasort iom_win_alphasort

/* pread(2)/pwrite(2) on a CRT descriptor: ReadFile/WriteFile at an explicit
 * offset (OVERLAPPED.Offset/OffsetHigh), waiting for completion, so they work
 * on handles opened with FILE_FLAG_OVERLAPPED too. Return bytes or -1 with
 * errno set (EIO, or EINVAL for a misaligned unbuffered I/O). */
#include <stddef.h>
ssize_t iom_win_pread(int fd, void *buf, size_t n, int64_t off);
ssize_t iom_win_pwrite(int fd, const void *buf, size_t n, int64_t off);
#define pread iom_win_pread
#define pwrite iom_win_pwrite

/* readlink(2): Windows paths iomark reads have no symlinks it follows;
 * returns -1 with errno EINVAL ("not a symbolic link"), as POSIX does for
 * a path that is not one. realpath(3) via _fullpath (absolute, normalised).
 * fdatasync(2) via FlushFileBuffers. */
ssize_t iom_win_readlink(const char *path, char *buf, size_t len);
char *iom_win_realpath(const char *path, char *resolved);
int iom_win_fdatasync(int fd);
#define readlink iom_win_readlink
#define realpath iom_win_realpath
#define fdatasync iom_win_fdatasync

/* strftime(3) with "%e" (day of the month, space-padded; C99), which the
 * msvcrt.dll strftime that mingw-w64 links lacks: %e is rewritten to the
 * padded day before the CRT sees the format. Same contract as strftime. */
#include <time.h>
size_t iom_win_strftime(char *s, size_t max, const char *fmt, const struct tm *tm);
#define strftime iom_win_strftime

/* strndup(3) (POSIX.1-2008): at most n bytes of s, NUL-terminated, malloc'ed;
 * NULL with errno ENOMEM. */
char *iom_win_strndup(const char *s, size_t n);
#define strndup iom_win_strndup

/* Console control events as POSIX signals: Ctrl+C calls handler(SIGINT),
 * Ctrl+Break, console close, logoff and shutdown call handler(SIGTERM),
 * through SetConsoleCtrlHandler (its handler runs on a thread of its own,
 * so `handler` must only set a sig_atomic_t flag). Also turns on VT
 * sequence processing of the console (the progress line) and asks for a
 * 1 ms timer resolution (timeBeginPeriod) for the run. Returns 0 or -EINVAL. */
int iom_win_signals_install(void (*handler)(int sig));

/* CPU counters on Windows: system-wide and per CPU from
 * NtQuerySystemInformation(SystemProcessorPerformanceInformation), the
 * source of DiskSpd's CPU table (microsoft/diskspd, ResultParser.cpp):
 * user = UserTime, system = KernelTime - IdleTime, idle = IdleTime, in
 * 100 ns units (iom_cpu_usage_between only uses ratios). Fills the
 * system part of *s (cpu.c fills the process part). Returns 0 or -EIO. */
struct iom_cpu_sample;
int iom_win_cpu_sample(struct iom_cpu_sample *s);

/* setenv(3)/unsetenv(3) over _putenv_s (POSIX contract: 0, or -1 with
 * errno; setenv with overwrite 0 keeps an existing value). mkdtemp(3):
 * the XXXXXX tail replaced (_mktemp_s) and the folder made; the template,
 * or NULL with errno. */
int iom_win_setenv(const char *name, const char *value, int overwrite);
int iom_win_unsetenv(const char *name);
char *iom_win_mkdtemp(char *tmpl);
#define setenv iom_win_setenv
#define unsetenv iom_win_unsetenv
#define mkdtemp iom_win_mkdtemp

/* errno value for a Win32 error code (GetLastError()): EINVAL, ENOSPC,
 * EACCES, ENOMEM, or EIO for the rest. */
int iom_win_errno(unsigned long win32_error);

#endif /* _WIN32 */
#endif
