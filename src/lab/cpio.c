/* cpio.c - the newc cpio writer of the lab's initramfs (format:
 * Documentation/driver-api/early-userspace/buffer-format.rst). */
#include "lab/image.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- newc cpio ---- */

static void cpio_write(struct iom_cpio *c, const void *p, size_t len)
{
    if (c->err || !len)
        return;
    if (fwrite(p, 1, len, c->f) != len)
        c->err = errno ? -errno : -EIO;
    c->offset += len;
}

static void cpio_pad4(struct iom_cpio *c)
{
    static const char zeros[4];
    size_t pad = (4 - (c->offset & 3)) & 3;
    cpio_write(c, zeros, pad);
}

static void cpio_header(struct iom_cpio *c, const char *name, mode_t mode, uint64_t size,
                        unsigned rmaj, unsigned rmin)
{
    char h[111];
    size_t namesize = strlen(name) + 1;
    if (size > 0xffffffffu) {
        c->err = -EFBIG;
        return;
    }
    /* magic, ino, mode, uid, gid, nlink, mtime, filesize, devmajor, devminor,
     * rdevmajor, rdevminor, namesize, check (buffer-format.rst) */
    snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
             c->next_ino++, (unsigned)mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned)size,
             0u, 0u, rmaj, rmin, (unsigned)namesize, 0u);
    cpio_write(c, h, 110);
    cpio_write(c, name, namesize);
    cpio_pad4(c);
}

int iom_cpio_open(struct iom_cpio *c, const char *path)
{
    memset(c, 0, sizeof(*c));
    c->next_ino = 721;
    c->f = fopen(path, "wb");
    return c->f ? 0 : -errno;
}

static bool dir_known(struct iom_cpio *c, const char *name)
{
    for (size_t i = 0; i < c->nr_dirs; i++)
        if (strcmp(c->dirs[i], name) == 0)
            return true;
    return false;
}

int iom_cpio_add_dir(struct iom_cpio *c, const char *name, mode_t perm)
{
    if (c->err)
        return c->err;
    if (dir_known(c, name))
        return 0;
    cpio_header(c, name, S_IFDIR | (perm & 07777), 0, 0, 0);
    if (c->nr_dirs < IOM_CPIO_MAX_DIRS) {
        c->dirs[c->nr_dirs] = strdup(name);
        if (c->dirs[c->nr_dirs])
            c->nr_dirs++;
    }
    return c->err;
}

int iom_cpio_add_parents(struct iom_cpio *c, const char *name)
{
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", name);
    for (char *p = strchr(buf, '/'); p && !c->err; p = strchr(p + 1, '/')) {
        *p = 0;
        if (*buf)
            iom_cpio_add_dir(c, buf, 0755);
        *p = '/';
    }
    return c->err;
}

int iom_cpio_add_data(struct iom_cpio *c, const char *name, mode_t perm, const void *data,
                      size_t len)
{
    cpio_header(c, name, S_IFREG | (perm & 07777), len, 0, 0);
    cpio_write(c, data, len);
    cpio_pad4(c);
    return c->err;
}

int iom_cpio_add_file(struct iom_cpio *c, const char *name, mode_t perm, const char *src)
{
    if (c->err)
        return c->err;
    int fd = open(src, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -EINVAL;
    }
    cpio_header(c, name, S_IFREG | (perm & 07777), (uint64_t)st.st_size, 0, 0);
    char buf[1 << 16];
    uint64_t left = (uint64_t)st.st_size;
    while (left && !c->err) {
        ssize_t n = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));
        if (n <= 0) {
            c->err = n < 0 ? -errno : -EIO;   /* the file shrank under us */
            break;
        }
        cpio_write(c, buf, (size_t)n);
        left -= (uint64_t)n;
    }
    close(fd);
    cpio_pad4(c);
    return c->err;
}

int iom_cpio_add_chardev(struct iom_cpio *c, const char *name, mode_t perm, unsigned major,
                         unsigned minor)
{
    cpio_header(c, name, S_IFCHR | (perm & 07777), 0, major, minor);
    return c->err;
}

int iom_cpio_add_symlink(struct iom_cpio *c, const char *name, const char *target)
{
    cpio_header(c, name, S_IFLNK | 0777, strlen(target), 0, 0);
    cpio_write(c, target, strlen(target));
    cpio_pad4(c);
    return c->err;
}

int iom_cpio_close(struct iom_cpio *c)
{
    static const char zeros[512];
    cpio_header(c, "TRAILER!!!", 0, 0, 0, 0);
    size_t pad = (512 - (c->offset & 511)) & 511;
    cpio_write(c, zeros, pad);
    if (c->f && fclose(c->f) != 0 && !c->err)
        c->err = -errno;
    c->f = NULL;
    for (size_t i = 0; i < c->nr_dirs; i++)
        free(c->dirs[i]);
    c->nr_dirs = 0;
    return c->err;
}
