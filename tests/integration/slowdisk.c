/* slowdisk.c - a FUSE filesystem with one RAM-backed file, disk.img, that is
 * slow for its first seconds (a thin-provisioned or cold cloud volume, an
 * SLC cache that must wake up): every read and write request made within
 * SLOWDISK_SLOW_MS of the first request sleeps SLOWDISK_DELAY_US first;
 * after that the file runs at memory speed. To test that `iomark mark`
 * leaves its preparation run out of the statistic.
 * usage: slowdisk MOUNTPOINT  (SLOWDISK_BYTES, SLOWDISK_SLOW_MS,
 * SLOWDISK_DELAY_US from the environment; runs in the foreground until
 * unmounted) */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char *data;
static off_t size;
static long slow_ms, delay_us;
static double first = -1;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the throttle: single-threaded FUSE (-s), so no locking */
static void throttle(void)
{
    double t = now_s();
    if (first < 0)
        first = t;
    if ((t - first) * 1000.0 < (double)slow_ms)
        usleep((useconds_t)delay_us);
}

static int sd_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void)fi;
    memset(st, 0, sizeof(*st));
    if (strcmp(path, "/") == 0) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    if (strcmp(path, "/disk.img") == 0) {
        st->st_mode = S_IFREG | 0644;
        st->st_nlink = 1;
        st->st_size = size;
        st->st_blocks = size / 512;
        return 0;
    }
    return -ENOENT;
}

static int sd_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)off, (void)fi, (void)flags;
    if (strcmp(path, "/") != 0)
        return -ENOENT;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    fill(buf, "disk.img", NULL, 0, 0);
    return 0;
}

static int sd_open(const char *path, struct fuse_file_info *fi)
{
    if (strcmp(path, "/disk.img") != 0)
        return -ENOENT;
    fi->direct_io = 1; /* every request reaches us (no page cache) */
    return 0;
}

static int sd_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
    (void)path, (void)fi;
    throttle();
    if (off >= size)
        return 0;
    if ((off_t)len > size - off)
        len = (size_t)(size - off);
    memcpy(buf, data + off, len);
    return (int)len;
}

static int sd_write(const char *path, const char *buf, size_t len, off_t off,
                    struct fuse_file_info *fi)
{
    (void)path, (void)fi;
    throttle();
    if (off >= size)
        return -ENOSPC;
    if ((off_t)len > size - off)
        len = (size_t)(size - off);
    memcpy(data + off, buf, len);
    return (int)len;
}

static const struct fuse_operations ops = {
    .getattr = sd_getattr,
    .readdir = sd_readdir,
    .open = sd_open,
    .read = sd_read,
    .write = sd_write,
};

int main(int argc, char **argv)
{
    const char *b = getenv("SLOWDISK_BYTES"), *ms = getenv("SLOWDISK_SLOW_MS"),
               *us = getenv("SLOWDISK_DELAY_US");
    if (argc != 2 || !b || !ms || !us)
        return 2;
    size = strtoll(b, NULL, 0);
    slow_ms = strtol(ms, NULL, 0);
    delay_us = strtol(us, NULL, 0);
    data = malloc((size_t)size);
    if (!data)
        return 1;
    for (off_t i = 0; i < size; i++) /* not zeros: no shortcut anywhere */
        data[i] = (char)(i * 131 + 7);
    char *fargv[] = {argv[0], argv[1], "-f", "-s", NULL};
    return fuse_main(4, fargv, &ops, NULL);
}
