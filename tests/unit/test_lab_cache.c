/*
 * test_lab_cache.c - the lab folder's cache of iomark-HASH.cpio archives stays
 * bounded: after iom_lab_iomark_image only IOM_LAB_KEEP_IMAGES archives are
 * left (this build's and the newest other), an archive another process holds
 * (flock) is never removed, and iom_lab_clean reports the bytes it freed as
 * the sum of the sizes the test itself wrote. The "binary" is /bin/true (its
 * archive holds it and the libraries ldd lists), so no QEMU is needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "lab/image.h"

static char dir[64];

/* Write NAME in dir with `bytes` bytes, modification time `age_s` seconds ago. */
static void fake(const char *name, size_t bytes, long age_s)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    for (size_t i = 0; i < bytes; i++)
        fputc('x', f);
    fclose(f);
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= age_s;
    tv[1] = tv[0];
    CHECK(utimes(p, tv) == 0);
}

static bool exists(const char *name)
{
    char p[256];
    snprintf(p, sizeof(p), "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

static int count_images(void)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "ls %s | grep -c '^iomark-.*\\.cpio$'", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

int main(void)
{
    if (access("/bin/true", X_OK) != 0 || system("command -v ldd >/dev/null 2>&1") != 0) {
        fprintf(stderr, "SKIP: needs /bin/true and ldd\n");
        return 77;
    }
    snprintf(dir, sizeof(dir), "/tmp/iomark-labcache.XXXXXX");
    CHECK(mkdtemp(dir) != NULL);

    /* four archives of earlier builds, oldest first, as a busy tree leaves them */
    fake("iomark-00000000000000a1.cpio", 1000, 4000);
    fake("iomark-00000000000000a2.cpio", 2000, 3000);
    fake("iomark-00000000000000a3.cpio", 3000, 2000);
    fake("iomark-00000000000000a4.cpio", 4000, 1000);
    fake("lab.conf", 10, 5000);
    /* a running lab of build a1 holds its archive */
    char held[256];
    snprintf(held, sizeof(held), "%s/iomark-00000000000000a1.cpio", dir);
    int hfd = open(held, O_RDONLY);
    CHECK(hfd >= 0 && flock(hfd, LOCK_SH) == 0);

    char path[4300], err[256] = "";
    bool rebuilt = false;
    int rc = iom_lab_iomark_image(dir, "/bin/true", path, sizeof(path), &rebuilt, err,
                                  sizeof(err));
    CHECK(rc == 0);
    if (rc)
        fprintf(stderr, "iom_lab_iomark_image: %s\n", err);
    CHECK(rebuilt);
    CHECK(access(path, R_OK) == 0);
    /* kept: this build's, the newest other (a4), and a1 because it is held */
    CHECK(exists("iomark-00000000000000a4.cpio"));
    CHECK(exists("iomark-00000000000000a1.cpio"));
    CHECK(!exists("iomark-00000000000000a2.cpio"));
    CHECK(!exists("iomark-00000000000000a3.cpio"));
    CHECK(exists("lab.conf"));
    CHECK(count_images() == IOM_LAB_KEEP_IMAGES + 1);
    close(hfd);   /* the lab of a1 ends */

    /* the second call finds its archive: not rebuilt, and a1 (no longer held) goes */
    rc = iom_lab_iomark_image(dir, "/bin/true", path, sizeof(path), &rebuilt, err, sizeof(err));
    CHECK(rc == 0 && !rebuilt);
    CHECK(!exists("iomark-00000000000000a1.cpio"));
    CHECK(count_images() == IOM_LAB_KEEP_IMAGES);

    /* clean: everything but what this process holds (its own archive); a
     * leftover of a process that no longer exists goes too */
    struct stat st;
    CHECK(stat(path, &st) == 0);
    fake("iomark-00000000000000b1.cpio.tmp.999999999", 500, 10);   /* no such pid */
    struct iom_lab_clean_opts co = {.labdir = dir, .leftovers = true};
    struct iom_lab_clean_result r;
    CHECK(iom_lab_clean(&co, &r) == 0);
    CHECK_U64(r.nr_removed, 2);           /* a4 and the leftover */
    CHECK_U64(r.bytes_freed, 4000 + 500);
    CHECK_U64(r.nr_in_use, 1);            /* this process's own archive */
    CHECK_U64(r.bytes_left, (uint64_t)st.st_size);
    CHECK(exists("lab.conf"));
    CHECK(count_images() == 1);

    /* all: setup's files too; the held archive still stays */
    co.all = true;
    CHECK(iom_lab_clean(&co, &r) == 0);
    CHECK_U64(r.nr_removed, 1);
    CHECK_U64(r.bytes_freed, 10);
    CHECK(!exists("lab.conf"));

    /* a folder that does not exist is empty */
    co.labdir = "/nonexistent/iomark-lab";
    CHECK(iom_lab_clean(&co, &r) == 0 && r.nr_removed == 0);

    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    return check_status("test_lab_cache");
}
