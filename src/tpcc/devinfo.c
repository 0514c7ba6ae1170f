/*
 * devinfo.c - which device holds a database file: st_dev of the file (or of
 * its folder when the file does not exist, e.g. an empty WAL), its
 * /sys/dev/block/MAJ:MIN link for the kernel name and whole disk, and the
 * /proc/self/mountinfo line with that MAJ:MIN for the file system type and
 * mount source (overlay, tmpfs and network file systems have no block
 * device; their major is 0).
 */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tpcc/tpcc.h"

static void base_of_link(const char *link, char *out, size_t len)
{
    char target[PATH_MAX];
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n <= 0)
        return;
    target[n] = '\0';
    const char *b = strrchr(target, '/');
    snprintf(out, len, "%s", b ? b + 1 : target);
}

int tpcc_devinfo_probe(const char *path, struct tpcc_devinfo *out)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->path, sizeof(out->path), "%s", path);
    struct stat st;
    if (stat(path, &st) != 0) {
        char *dup = strdup(path);
        if (!dup)
            return -ENOMEM;
        int r = stat(dirname(dup), &st);
        free(dup);
        if (r != 0)
            return -errno;
    }
    unsigned ma = major(st.st_dev), mi = minor(st.st_dev);
    snprintf(out->majmin, sizeof(out->majmin), "%u:%u", ma, mi);
    char link[96];
    snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", ma, mi);
    base_of_link(link, out->device, sizeof(out->device));
    if (out->device[0]) {
        /* a partition's sysfs folder sits inside its disk's folder */
        char p[160];
        snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/partition", ma, mi);
        if (access(p, F_OK) == 0) {
            char real[PATH_MAX];
            if (realpath(link, real)) {
                char *slash = strrchr(real, '/');
                if (slash) {
                    *slash = '\0';
                    const char *b = strrchr(real, '/');
                    snprintf(out->disk, sizeof(out->disk), "%s", b ? b + 1 : real);
                }
            }
        } else {
            snprintf(out->disk, sizeof(out->disk), "%s", out->device);
        }
    }
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (f) {
        char line[4096];
        while (fgets(line, sizeof(line), f)) {
            /* id parent MAJ:MIN root mountpoint opts ... - fstype source superopts */
            char mm[32];
            if (sscanf(line, "%*s %*s %31s", mm) != 1 || strcmp(mm, out->majmin) != 0)
                continue;
            const char *dash = strstr(line, " - ");
            if (dash) {
                char fs[32] = "", src[256] = "";
                if (sscanf(dash + 3, "%31s %255s", fs, src) >= 1) {
                    snprintf(out->fstype, sizeof(out->fstype), "%s", fs);
                    snprintf(out->source, sizeof(out->source), "%s", src);
                }
            }
            break;
        }
        fclose(f);
    }
    return 0;
}
