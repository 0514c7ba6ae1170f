/* image.c - the lab folder, the cache of iomark images, the initramfs of a boot.
 * `iomark lab setup` (kernel download, base.cpio) is in setup.c. */
#include "lab/image.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lab/proc.h"
#include "lab/qemu.h"

/* ---- folders, hashes ---- */

int iom_lab_dir(char *buf, size_t len)
{
    const char *e = getenv("IOMARK_LAB_DIR");
    if (e && *e) {
        snprintf(buf, len, "%s", e);
        return 0;
    }
    e = getenv("XDG_CACHE_HOME");
    if (e && *e) {
        snprintf(buf, len, "%s/iomark/lab", e);
        return 0;
    }
    e = getenv("HOME");
    if (e && *e) {
        snprintf(buf, len, "%s/.cache/iomark/lab", e);
        return 0;
    }
    return -ENOENT;
}

int iom_lab_mkdirs(const char *path, mode_t mode)
{
    char buf[4096];
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, mode) != 0 && errno != EEXIST)
            return -errno;
        *p = '/';
    }
    if (mkdir(buf, mode) != 0 && errno != EEXIST)
        return -errno;
    return 0;
}

int iom_lab_hash_file(const char *path, uint64_t *hash)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    uint64_t h = UINT64_C(14695981039346656037);   /* FNV-1a 64 offset basis */
    unsigned char buf[1 << 16];
    ssize_t r;
    while ((r = read(fd, buf, sizeof(buf))) > 0)
        for (ssize_t i = 0; i < r; i++) {
            h ^= buf[i];
            h *= UINT64_C(1099511628211);          /* FNV-1a 64 prime */
        }
    int rc = r < 0 ? -errno : 0;
    close(fd);
    *hash = h;
    return rc;
}

/* Add a host binary and (when dynamic) the libraries it loads. */
int iom_lab_cpio_add_binary(struct iom_cpio *c, const char *name, const char *src, FILE *log, char *err,
                             size_t errlen)
{
    int rc = iom_cpio_add_parents(c, name);
    if (!rc)
        rc = iom_cpio_add_file(c, name, 0755, src);
    if (rc) {
        snprintf(err, errlen, "adding %s: %s", src, strerror(-rc));
        return rc;
    }
    char out[16384];
    char *argv[] = {"ldd", (char *)src, NULL};
    struct iom_lab_proc_opts o = {.capture = out, .capture_len = sizeof(out), .timeout_s = 60};
    struct iom_lab_proc_result r;
    rc = iom_lab_proc_run(argv, &o, &r);
    if (rc) {
        snprintf(err, errlen, "ldd: %s", rc == -ENOENT ? "not found" : strerror(-rc));
        return rc;
    }
    char **libs = NULL, missing[256] = "";
    size_t n = 0;
    rc = iom_lab_ldd_parse(out, &libs, &n, missing, sizeof(missing));
    if (rc) {
        snprintf(err, errlen, "%s needs %s, which ldd does not find", src, missing);
        return rc;
    }
    for (size_t i = 0; i < n && !rc; i++) {
        rc = iom_cpio_add_parents(c, libs[i] + 1);
        if (!rc)
            rc = iom_cpio_add_file(c, libs[i] + 1, 0755, libs[i]);
        if (rc)
            snprintf(err, errlen, "adding %s: %s", libs[i], strerror(-rc));
        else if (log)
            fprintf(log, "  + %s\n", libs[i]);
    }
    iom_lab_strv_free(libs, n);
    return rc;
}

/* ---- the cache of iomark-HASH.cpio archives ---- */

/* The archive this process uses, held open with a shared flock(2) for the
 * process's life: another process's prune or `lab clean` takes an exclusive
 * non-blocking lock before it removes an archive, so an archive in use by a
 * running lab is never removed under it. */
static int held_fd = -1;

static bool is_image_name(const char *name)
{
    size_t l = strlen(name);
    return strncmp(name, "iomark-", 7) == 0 && l >= 12 && strcmp(name + l - 5, ".cpio") == 0;
}

/* Leftovers of an interrupted write: "NAME.tmp.PID" (base.cpio, iomark-HASH.cpio,
 * lab.conf) and "download.PID" (setup's kernel download folder). */
static bool is_leftover_name(const char *name, long *pid)
{
    const char *t = strstr(name, ".tmp.");
    const char *num = t ? t + 5 : strncmp(name, "download.", 9) == 0 ? name + 9 : NULL;
    if (!num || !*num || strspn(num, "0123456789") != strlen(num))
        return false;
    *pid = strtol(num, NULL, 10);
    return true;
}

/* Remove path if no process holds a lock on it. Returns 1 removed, 0 in use
 * (or gone), -errno. */
static int remove_unlocked(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -errno;
    int rc = 0;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        rc = unlink(path) == 0 ? 1 : -errno;
    close(fd);
    return rc;
}

/* rm -r of a folder that setup wrote (no symlinks followed). Adds the bytes
 * of removed regular files to *bytes. Returns 0 or -errno. */
static int remove_tree(const char *path, uint64_t *bytes)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -errno;
    if (!S_ISDIR(st.st_mode)) {
        if (unlink(path) != 0)
            return -errno;
        if (S_ISREG(st.st_mode))
            *bytes += (uint64_t)st.st_size;
        return 0;
    }
    DIR *d = opendir(path);
    if (!d)
        return -errno;
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[4200];
        snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
        rc = remove_tree(p, bytes);
    }
    closedir(d);
    if (!rc && rmdir(path) != 0)
        rc = -errno;
    return rc;
}

struct image_ent {
    char name[256];
    time_t mtime;
    uint64_t bytes;
};

static int newest_first(const void *a, const void *b)
{
    const struct image_ent *x = a, *y = b;
    if (x->mtime != y->mtime)
        return x->mtime > y->mtime ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The iomark-*.cpio archives of labdir, newest first (*v malloc'd). */
static int list_images(const char *labdir, struct image_ent **v, size_t *n)
{
    *v = NULL;
    *n = 0;
    DIR *d = opendir(labdir);
    if (!d)
        return errno == ENOENT ? 0 : -errno;
    size_t cap = 0;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d))) {
        if (!is_image_name(e->d_name) || strlen(e->d_name) >= sizeof((*v)->name))
            continue;
        char p[4200];
        struct stat st;
        snprintf(p, sizeof(p), "%s/%s", labdir, e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            struct image_ent *nv = realloc(*v, nc * sizeof(**v));
            if (!nv) {
                rc = -ENOMEM;
                break;
            }
            *v = nv;
            cap = nc;
        }
        struct image_ent *ie = &(*v)[(*n)++];
        snprintf(ie->name, sizeof(ie->name), "%s", e->d_name);
        ie->mtime = st.st_mtime;
        ie->bytes = (uint64_t)st.st_size;
    }
    closedir(d);
    if (rc) {
        free(*v);
        *v = NULL;
        *n = 0;
        return rc;
    }
    if (*n)
        qsort(*v, *n, sizeof(**v), newest_first);
    return 0;
}

static void report_removed(const struct iom_lab_clean_opts *o, struct iom_lab_clean_result *r,
                           const char *name, uint64_t bytes)
{
    r->nr_removed++;
    r->bytes_freed += bytes;
    if (o->log)
        fprintf(o->log, "removed %s (%.1f MiB)\n", name, (double)bytes / (1024.0 * 1024.0));
}

int iom_lab_clean(const struct iom_lab_clean_opts *o, struct iom_lab_clean_result *r)
{
    memset(r, 0, sizeof(*r));
    struct image_ent *v;
    size_t n;
    int rc = list_images(o->labdir, &v, &n);
    if (rc)
        return rc;
    unsigned kept = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char p[4200];
        snprintf(p, sizeof(p), "%s/%s", o->labdir, v[i].name);
        if ((o->keep_path && strcmp(p, o->keep_path) == 0) || kept < o->keep_images) {
            kept++;
            r->bytes_left += v[i].bytes;
            continue;
        }
        int rr = remove_unlocked(p);
        if (rr == 1) {
            report_removed(o, r, v[i].name, v[i].bytes);
        } else if (rr == 0) {
            r->nr_in_use++;
            r->bytes_left += v[i].bytes;
            if (o->log)
                fprintf(o->log, "kept %s: in use by a running iomark lab\n", v[i].name);
        } else {
            rc = rr;
        }
    }
    free(v);
    if (rc || !o->leftovers)
        goto sizes;
    /* leftovers of interrupted writes whose process is gone, and (all) setup's files */
    DIR *d = opendir(o->labdir);
    struct dirent *e;
    while (!rc && d && (e = readdir(d))) {
        long pid;
        char p[4200];
        struct stat st;
        bool setup_file = strcmp(e->d_name, "base.cpio") == 0 ||
                          strcmp(e->d_name, "modules.dep") == 0 ||
                          strcmp(e->d_name, "lab.conf") == 0 ||
                          strncmp(e->d_name, "vmlinuz-", 8) == 0 ||
                          strncmp(e->d_name, "vmlinux-", 8) == 0;
        bool leftover = is_leftover_name(e->d_name, &pid) && pid > 0 &&
                        (kill((pid_t)pid, 0) != 0 && errno == ESRCH);
        if (!leftover && !(o->all && setup_file))
            continue;
        snprintf(p, sizeof(p), "%s/%s", o->labdir, e->d_name);
        if (lstat(p, &st) != 0)
            continue;
        uint64_t bytes = 0;
        if ((rc = remove_tree(p, &bytes)) == 0)
            report_removed(o, r, e->d_name, bytes);
    }
    if (d)
        closedir(d);
sizes:
    if (!rc && o->all && !r->nr_in_use) {
        /* the folder itself when nothing else is left in it */
        if (rmdir(o->labdir) == 0 && o->log)
            fprintf(o->log, "removed %s\n", o->labdir);
    }
    return rc;
}

/* Keep this build's archive and the newest others up to IOM_LAB_KEEP_IMAGES in
 * all; remove the rest unless a running lab holds them. */
static void prune_images(const char *labdir, const char *keep)
{
    struct iom_lab_clean_opts o = {.labdir = labdir, .keep_path = keep,
                                   .keep_images = IOM_LAB_KEEP_IMAGES};
    struct iom_lab_clean_result r;
    (void)iom_lab_clean(&o, &r);
}

/* Open path and hold a shared lock on it for the process's life; fails with
 * -ENOENT when a prune removed it between our check and the lock. */
static int hold_image(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat a, b;
    if (flock(fd, LOCK_SH) != 0 || fstat(fd, &a) != 0 || stat(path, &b) != 0 ||
        a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
        close(fd);
        return -ENOENT;
    }
    if (held_fd >= 0)
        close(held_fd);
    held_fd = fd;
    return 0;
}

int iom_lab_iomark_image(const char *labdir, const char *exe, char *path, size_t len,
                         bool *rebuilt, char *err, size_t errlen)
{
    char tmp[4300];
    uint64_t h = 0;
    *rebuilt = false;
    int rc = iom_lab_hash_file(exe, &h);
    if (rc) {
        snprintf(err, errlen, "cannot read %s: %s", exe, strerror(-rc));
        return rc;
    }
    snprintf(path, len, "%s/iomark-%016llx.cpio", labdir, (unsigned long long)h);
    if (access(path, R_OK) == 0 && hold_image(path) == 0) {
        utimes(path, NULL);   /* newest: the last to be pruned */
        prune_images(labdir, path);
        return 0;
    }
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    struct iom_cpio c;
    if ((rc = iom_cpio_open(&c, tmp))) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(-rc));
        return rc;
    }
    rc = iom_lab_cpio_add_binary(&c, "bin/iomark", exe, NULL, err, errlen);
    int crc = iom_cpio_close(&c);
    if (!rc && crc) {
        rc = crc;
        snprintf(err, errlen, "writing %s: %s", tmp, strerror(-rc));
    }
    if (rc) {
        unlink(tmp);
        return rc;
    }
    if (rename(tmp, path) != 0) {
        rc = -errno;
        snprintf(err, errlen, "rename %s: %s", tmp, strerror(errno));
        unlink(tmp);
        return rc;
    }
    *rebuilt = true;
    if ((rc = hold_image(path))) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(-rc));
        return rc;
    }
    prune_images(labdir, path);
    return 0;
}

static int append_file(FILE *out, const char *src)
{
    FILE *in = fopen(src, "rb");
    if (!in)
        return -errno;
    char buf[1 << 16];
    size_t n;
    int rc = 0;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            rc = -EIO;
            break;
        }
    if (ferror(in))
        rc = -EIO;
    fclose(in);
    return rc;
}

static void add_text(struct iom_cpio *c, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_text(struct iom_cpio *c, const char *name, const char *fmt, ...)
{
    char line[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    iom_cpio_add_data(c, name, 0644, line, strlen(line));
}

int iom_lab_initrd_write(const char *out_path, const char *base_cpio, const char *iomark_cpio,
                         const struct iom_lab_job_files *j)
{
    char jobpath[4200];
    snprintf(jobpath, sizeof(jobpath), "%s.job", out_path);
    struct iom_cpio c;
    int rc = iom_cpio_open(&c, jobpath);
    if (rc)
        return rc;
    iom_cpio_add_dir(&c, "lab", 0755);
    iom_cpio_add_data(&c, "init", 0755, j->init_script, strlen(j->init_script));
    add_text(&c, "lab/njobs", "%zu\n", j->nr_jobs);
    for (size_t i = 0; i < j->nr_jobs; i++) {
        char name[64];
        snprintf(name, sizeof(name), "lab/job.%zu.cmd", i + 1);
        add_text(&c, name, "%s\n", j->job_command[i]);
        snprintf(name, sizeof(name), "lab/job.%zu.args", i + 1);
        iom_cpio_add_data(&c, name, 0644, j->job_args[i], strlen(j->job_args[i]));
        snprintf(name, sizeof(name), "lab/job.%zu.timeout", i + 1);
        add_text(&c, name, "%u\n", j->job_timeout_s[i]);
    }
    iom_cpio_add_data(&c, "lab/modules", 0644, j->modules, strlen(j->modules));
    iom_cpio_add_data(&c, "lab/fsmodules", 0644, j->fs_modules, strlen(j->fs_modules));
    iom_cpio_add_data(&c, "lab/drivers", 0644, j->drivers, strlen(j->drivers));
    const char *units = j->units ? j->units : "-:ANY\n";
    iom_cpio_add_data(&c, "lab/units", 0644, units, strlen(units));
    add_text(&c, "lab/scheduler", "%s\n", j->scheduler);
    add_text(&c, "lab/ctrl", "%s\n", j->ctrl);
    add_text(&c, "lab/repeat", "%u\n", j->repeat);
    rc = iom_cpio_close(&c);
    FILE *out = rc ? NULL : fopen(out_path, "wb");
    if (!rc && !out)
        rc = -errno;
    if (!rc)
        rc = append_file(out, base_cpio);
    if (!rc)
        rc = append_file(out, iomark_cpio);
    if (!rc)
        rc = append_file(out, jobpath);
    if (out && fclose(out) != 0 && !rc)
        rc = -errno;
    unlink(jobpath);
    if (rc)
        unlink(out_path);
    return rc;
}
