/* faildisk.c - a FUSE filesystem with one RAM-backed file, disk.img, whose
 * reads and writes fail with EIO inside one byte range: a failing backing
 * store for a loop device, to test iomark against real I/O errors.
 * usage: faildisk MOUNTPOINT   (size and bad range from the environment:
 * FAILDISK_BYTES, FAILDISK_BAD_START, FAILDISK_BAD_END; runs in the
 * foreground until unmounted). With FAILDISK_LOST_WRITES=1 the range does not
 * fail: its reads work and its writes report success but are dropped (lost
 * writes, for verify's read-back). */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fuse.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *data;
static off_t size, bad_lo, bad_hi;
static int lost_writes;

static int fd_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
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

static int fd_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
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

static int fd_open(const char *path, struct fuse_file_info *fi)
{
    (void)fi;
    return strcmp(path, "/disk.img") == 0 ? 0 : -ENOENT;
}

static int span(off_t off, size_t *len)
{
    if (off >= size)
        return 0;
    if ((off_t)*len > size - off)
        *len = (size_t)(size - off);
    return off < bad_hi && off + (off_t)*len > bad_lo ? (lost_writes ? 2 : -EIO) : 1;
}

static int fd_read(const char *path, char *buf, size_t len, off_t off, struct fuse_file_info *fi)
{
    (void)path, (void)fi;
    int r = span(off, &len);
    if (r <= 0)
        return r;
    memcpy(buf, data + off, len); /* lost writes: the range reads as it is */
    return (int)len;
}

static int fd_write(const char *path, const char *buf, size_t len, off_t off,
                    struct fuse_file_info *fi)
{
    (void)path, (void)fi;
    int r = span(off, &len);
    if (r <= 0)
        return r ? r : -ENOSPC;
    if (r == 1)
        memcpy(data + off, buf, len); /* r == 2: a lost write, reported done */
    return (int)len;
}

static const struct fuse_operations ops = {
    .getattr = fd_getattr,
    .readdir = fd_readdir,
    .open = fd_open,
    .read = fd_read,
    .write = fd_write,
};

int main(int argc, char **argv)
{
    const char *b = getenv("FAILDISK_BYTES"), *lo = getenv("FAILDISK_BAD_START"),
               *hi = getenv("FAILDISK_BAD_END");
    if (argc != 2 || !b || !lo || !hi)
        return 2;
    size = strtoll(b, NULL, 0);
    bad_lo = strtoll(lo, NULL, 0);
    bad_hi = strtoll(hi, NULL, 0);
    lost_writes = getenv("FAILDISK_LOST_WRITES") && atoi(getenv("FAILDISK_LOST_WRITES"));
    data = calloc(1, (size_t)size);
    if (!data)
        return 1;
    for (off_t i = 0; i < size; i++)
        data[i] = (char)(i * 131 + 7);
    char *fargv[] = {argv[0], argv[1], "-f", "-s", NULL};
    return fuse_main(4, fargv, &ops, NULL);
}
