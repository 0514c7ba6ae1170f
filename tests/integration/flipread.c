/* flipread.c - an LD_PRELOAD library that inverts one byte of what pread(2)
 * returns from one file: a device that gives back a changed byte, to test
 * that a verify phase finds it (data on disk stays as written).
 * FLIPREAD_FILE: the file's path; FLIPREAD_AT: the byte's offset in the file.
 * Build: cc -shared -fPIC -o flipread.so flipread.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);

static void flip(int fd, void *buf, ssize_t got, off_t off)
{
    const char *file = getenv("FLIPREAD_FILE"), *at_s = getenv("FLIPREAD_AT");
    if (!file || !at_s || got <= 0)
        return;
    long long at = atoll(at_s);
    if (at < off || at >= off + got)
        return;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof(path) - 1);
    if (n <= 0)
        return;
    path[n] = 0;
    if (strcmp(path, file) == 0)
        ((unsigned char *)buf)[at - off] ^= 0xff;
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
    static pread_fn real;
    if (!real)
        real = (pread_fn)dlsym(RTLD_NEXT, "pread");
    ssize_t got = real(fd, buf, len, off);
    flip(fd, buf, got, off);
    return got;
}

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
    static pread_fn real;
    if (!real)
        real = (pread_fn)dlsym(RTLD_NEXT, "pread64");
    ssize_t got = real(fd, buf, len, off);
    flip(fd, buf, got, off);
    return got;
}
