/* image.c - cpio writer, modules.dep resolver, kernel download, initramfs. */
#include "lab/image.h"

#include <dirent.h>
#include <errno.h>
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

/* ---- string arrays ---- */

void iom_lab_strv_free(char **v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int strv_push(char ***v, size_t *n, const char *s, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*v)[i]) == len && strncmp((*v)[i], s, len) == 0)
            return 0;   /* each once */
    char **nv = realloc(*v, (*n + 1) * sizeof(**v));
    if (!nv)
        return -ENOMEM;
    *v = nv;
    if (!(nv[*n] = strndup(s, len)))
        return -ENOMEM;
    (*n)++;
    return 0;
}

/* ---- modules.dep ---- */

void iom_lab_module_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t l = strcspn(b, ".");
    snprintf(buf, len, "%.*s", (int)l, b);
    for (char *p = buf; *p; p++)
        if (*p == '-')
            *p = '_';
}

/* The modules.dep line of module `name`, or NULL. */
static const char *dep_line(const char *text, const char *name, size_t *line_len)
{
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        size_t colon = strcspn(p, ":");
        if (colon < l) {
            char path[512], mod[128];
            snprintf(path, sizeof(path), "%.*s", (int)colon, p);
            iom_lab_module_name(path, mod, sizeof(mod));
            if (strcmp(mod, name) == 0) {
                *line_len = l;
                return p;
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return NULL;
}

static int resolve_one(const char *text, const char *name, int depth, char ***paths, size_t *n,
                       char *missing, size_t missing_len)
{
    char norm[128];
    size_t l;
    iom_lab_module_name(name, norm, sizeof(norm));
    const char *line = dep_line(text, norm, &l);
    if (!line) {
        if (missing)
            snprintf(missing, missing_len, "%s", name);
        return -ENOENT;
    }
    if (depth > 64)
        return -ELOOP;
    size_t colon = strcspn(line, ":");
    /* dependencies first; depmod lists a module's full closure, so loading
     * them from last to first satisfies every dependency among them too */
    const char *deps = line + colon + 1;
    size_t dl = l - colon - 1;
    const char *toks[64];
    size_t tl[64], nt = 0;
    for (size_t i = 0; i < dl && nt < 64;) {
        while (i < dl && deps[i] == ' ')
            i++;
        size_t s = i;
        while (i < dl && deps[i] != ' ')
            i++;
        if (i > s) {
            toks[nt] = deps + s;
            tl[nt++] = i - s;
        }
    }
    for (size_t k = nt; k-- > 0;) {
        char dep[512];
        snprintf(dep, sizeof(dep), "%.*s", (int)tl[k], toks[k]);
        int rc = resolve_one(text, dep, depth + 1, paths, n, missing, missing_len);
        if (rc)
            return rc;
    }
    return strv_push(paths, n, line, colon);
}

int iom_lab_moddep_resolve(const char *dep_text, const char *const *names, size_t nr_names,
                           char ***paths, size_t *n, char *missing, size_t missing_len)
{
    *paths = NULL;
    *n = 0;
    for (size_t i = 0; i < nr_names; i++) {
        int rc = resolve_one(dep_text, names[i], 0, paths, n, missing, missing_len);
        if (rc) {
            iom_lab_strv_free(*paths, *n);
            *paths = NULL;
            *n = 0;
            return rc;
        }
    }
    return 0;
}

/* ---- ldd ---- */

int iom_lab_ldd_parse(const char *text, char ***paths, size_t *n, char *missing,
                      size_t missing_len)
{
    *paths = NULL;
    *n = 0;
    int rc = 0;
    for (const char *p = text; p && *p && !rc;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof(line), "%.*s", (int)l, p);
        char *s = line + strspn(line, " \t");
        char *arrow = strstr(s, "=> ");
        if (arrow) {
            char *path = arrow + 3;
            if (strncmp(path, "not found", 9) == 0) {
                if (missing)
                    snprintf(missing, missing_len, "%.*s", (int)strcspn(s, " \t"), s);
                rc = -ENOENT;
            } else if (*path == '/') {
                rc = strv_push(paths, n, path, strcspn(path, " \t("));
            }
        } else if (*s == '/') {
            rc = strv_push(paths, n, s, strcspn(s, " \t("));
        }
        p = eol ? eol + 1 : NULL;
    }
    if (rc) {
        iom_lab_strv_free(*paths, *n);
        *paths = NULL;
        *n = 0;
    }
    return rc;
}

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

static int read_text(const char *path, char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -errno;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    if (!b) {
        fclose(f);
        return -ENOMEM;
    }
    size_t r;
    while ((r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                fclose(f);
                return -ENOMEM;
            }
            b = nb;
            cap *= 2;
        }
    }
    fclose(f);
    b[n] = 0;
    *out = b;
    if (len)
        *len = n;
    return 0;
}

/* ---- setup ---- */

int iom_lab_setup_load(const char *labdir, struct iom_lab_setup_info *info)
{
    char path[4096];
    char *text = NULL;
    memset(info, 0, sizeof(*info));
    snprintf(path, sizeof(path), "%s/lab.conf", labdir);
    int rc = read_text(path, &text, NULL);
    if (rc)
        return rc == -ENOENT ? -ENOENT : rc;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(l, '=');
        if (!eq)
            continue;
        *eq = 0;
        const char *v = eq + 1;
        if (strcmp(l, "kernel_version") == 0)
            snprintf(info->kernel_version, sizeof(info->kernel_version), "%s", v);
        else if (strcmp(l, "kernel_package") == 0)
            snprintf(info->kernel_package, sizeof(info->kernel_package), "%s", v);
        else if (strcmp(l, "vmlinuz") == 0)
            snprintf(info->vmlinuz, sizeof(info->vmlinuz), "%s", v);
        else if (strcmp(l, "base_cpio") == 0)
            snprintf(info->base_cpio, sizeof(info->base_cpio), "%s", v);
        else if (strcmp(l, "modules") == 0)
            snprintf(info->modules, sizeof(info->modules), "%s", v);
    }
    free(text);
    if (!info->kernel_version[0] || !info->vmlinuz[0] || !info->base_cpio[0])
        return -EINVAL;
    if (access(info->vmlinuz, R_OK) != 0 || access(info->base_cpio, R_OK) != 0)
        return -ENOENT;
    return 0;
}

static int run_logged(FILE *log, char *const argv[], const char *cwd, char *capture,
                      size_t caplen, unsigned timeout_s, char *err, size_t errlen)
{
    struct iom_lab_proc_opts o = {.cwd = cwd, .capture = capture, .capture_len = caplen,
                                  .timeout_s = timeout_s};
    char tmp[8192];
    if (!capture) {
        o.capture = tmp;
        o.capture_len = sizeof(tmp);
    }
    if (log) {
        fprintf(log, "  $");
        for (char *const *a = argv; *a; a++)
            fprintf(log, " %s", *a);
        fprintf(log, "\n");
        fflush(log);
    }
    struct iom_lab_proc_result r;
    int rc = iom_lab_proc_run(argv, &o, &r);
    if (rc) {
        snprintf(err, errlen, "%s: %s", argv[0], rc == -ENOENT ? "not found" : strerror(-rc));
        return rc;
    }
    if (r.exit_status != 0) {
        /* last non-empty output line says why */
        char *out = o.capture, *last = out;
        for (char *p = out; *p; p++)
            if (*p == '\n' && p[1] && p[1] != '\n')
                last = p + 1;
        snprintf(err, errlen, "%s failed (%s %d): %.*s", argv[0],
                 r.timed_out ? "timed out, signal" : r.signal ? "signal" : "exit status",
                 r.signal ? r.signal : r.exit_status, (int)strcspn(last, "\n"), last);
        return -EIO;
    }
    return 0;
}

/* Host packages and the program each provides. */
static const struct {
    const char *pkg, *prog;
} host_pkgs[] = {
    {"qemu-system-x86", IOM_LAB_QEMU},
    {"busybox-static", "busybox"},
    {"kmod", "depmod"},
};

static int check_host(const struct iom_lab_setup_opts *o, char *err, size_t errlen)
{
    char missing[256] = "", path[4096];
    for (size_t i = 0; i < sizeof(host_pkgs) / sizeof(host_pkgs[0]); i++)
        if (iom_lab_which(host_pkgs[i].prog, path, sizeof(path)) != 0) {
            strncat(missing, " ", sizeof(missing) - strlen(missing) - 1);
            strncat(missing, host_pkgs[i].pkg, sizeof(missing) - strlen(missing) - 1);
        }
    if (!missing[0]) {
        fprintf(o->log, "host packages: qemu-system-x86, busybox-static, kmod present\n");
        return 0;
    }
    if (!o->install || geteuid() != 0) {
        snprintf(err, errlen,
                 "missing host packages:%s; install them with: apt-get install "
                 "--no-install-recommends%s",
                 missing, missing);
        return -ENOENT;
    }
    fprintf(o->log, "installing host packages:%s\n", missing);
    char *upd[] = {"apt-get", "update", "-qq", NULL};
    int rc = run_logged(o->log, upd, NULL, NULL, 0, 900, err, errlen);
    if (rc)
        return rc;
    char *inst[16] = {"apt-get", "install", "-y", "-qq", "--no-install-recommends"};
    size_t k = 5;
    for (size_t i = 0; i < sizeof(host_pkgs) / sizeof(host_pkgs[0]); i++)
        if (iom_lab_which(host_pkgs[i].prog, path, sizeof(path)) != 0)
            inst[k++] = (char *)host_pkgs[i].pkg;
    inst[k] = NULL;
    return run_logged(o->log, inst, NULL, NULL, 0, 1800, err, errlen);
}

/* "linux-image-6.1.0-57-amd64" from `apt-cache depends linux-image-amd64`. */
static int kernel_package(const struct iom_lab_setup_opts *o, char *pkg, size_t len, char *err,
                          size_t errlen)
{
    if (o->kernel_package) {
        snprintf(pkg, len, "%s", o->kernel_package);
        return 0;
    }
    char out[8192];
    char *argv[] = {"apt-cache", "depends", "linux-image-amd64", NULL};
    int rc = run_logged(o->log, argv, NULL, out, sizeof(out), 120, err, errlen);
    if (rc)
        return rc;
    const char *p = strstr(out, "Depends: linux-image-");
    if (!p) {
        snprintf(err, errlen,
                 "apt-cache knows no linux-image-amd64 dependency; name one with --kernel-package");
        return -ENOENT;
    }
    p += strlen("Depends: ");
    snprintf(pkg, len, "%.*s", (int)strcspn(p, " \n<>"), p);
    return 0;
}

static int find_suffix(const char *dir, const char *prefix, const char *suffix, char *buf,
                       size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return -errno;
    struct dirent *e;
    int rc = -ENOENT;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name), sl = strlen(suffix);
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && l > sl &&
            strcmp(e->d_name + l - sl, suffix) == 0) {
            snprintf(buf, len, "%s", e->d_name);
            rc = 0;
            break;
        }
    }
    closedir(d);
    return rc;
}

/* Add a host binary and (when dynamic) the libraries it loads. */
static int add_binary(struct iom_cpio *c, const char *name, const char *src, FILE *log, char *err,
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

/* Module names base.cpio must hold: every controller's plus the result channel's. */
static size_t base_module_names(const char **names, size_t max)
{
    size_t n = 0, nc;
    const struct iom_lab_ctrl *c = iom_lab_ctrls(&nc);
    static const char *const extra[] = {"virtio_pci", "virtio_console"};
    for (size_t i = 0; i < 2 && n < max; i++)
        names[n++] = extra[i];
    for (size_t i = 0; i < nc; i++)
        for (size_t k = 0; c[i].modules[k] && n < max; k++) {
            bool dup = false;
            for (size_t j = 0; j < n; j++)
                dup |= strcmp(names[j], c[i].modules[k]) == 0;
            if (!dup)
                names[n++] = c[i].modules[k];
        }
    return n;
}

int iom_lab_setup(const struct iom_lab_setup_opts *o, char *err, size_t errlen)
{
    char path[4096], kroot[4096], pkg[128], deb[512], ver[128], busybox[4096];
    char *dep_text = NULL;
    char **mods = NULL;
    size_t nmods = 0;
    int rc = iom_lab_mkdirs(o->labdir, 0755);
    if (rc) {
        snprintf(err, errlen, "cannot create %s: %s", o->labdir, strerror(-rc));
        return rc;
    }
    fprintf(o->log, "lab folder: %s\n", o->labdir);
    if ((rc = check_host(o, err, errlen)))
        return rc;
    if ((rc = iom_lab_which("busybox", busybox, sizeof(busybox)))) {
        snprintf(err, errlen, "busybox not found (package busybox-static)");
        return rc;
    }
    if ((rc = kernel_package(o, pkg, sizeof(pkg), err, errlen)))
        return rc;
    fprintf(o->log, "kernel package: %s (downloaded, never installed)\n", pkg);
    char dl[4096];
    snprintf(dl, sizeof(dl), "%s/download.%ld", o->labdir, (long)getpid());
    char *rm_dl[] = {"rm", "-rf", dl, NULL};
    run_logged(NULL, rm_dl, NULL, NULL, 0, 120, err, errlen);
    if ((rc = iom_lab_mkdirs(dl, 0755))) {
        snprintf(err, errlen, "cannot create %s: %s", dl, strerror(-rc));
        return rc;
    }
    char *dlv[] = {"apt-get", "download", pkg, NULL};
    if ((rc = run_logged(o->log, dlv, dl, NULL, 0, 1800, err, errlen)))
        return rc;
    if ((rc = find_suffix(dl, "linux-image-", ".deb", deb, sizeof(deb)))) {
        snprintf(err, errlen, "apt-get download left no linux-image-*.deb in %s", dl);
        return rc;
    }
    snprintf(kroot, sizeof(kroot), "%s/kroot", dl);
    snprintf(path, sizeof(path), "%s/%s", dl, deb);
    char *xv[] = {"dpkg-deb", "-x", path, kroot, NULL};
    if ((rc = run_logged(o->log, xv, NULL, NULL, 0, 600, err, errlen)))
        return rc;
    snprintf(path, sizeof(path), "%s/lib/modules", kroot);
    {
        DIR *d = opendir(path);
        struct dirent *e;
        ver[0] = 0;
        while (d && (e = readdir(d)))
            if (e->d_name[0] != '.')
                snprintf(ver, sizeof(ver), "%s", e->d_name);
        if (d)
            closedir(d);
        if (!ver[0]) {
            snprintf(err, errlen, "%s holds no kernel modules folder", path);
            return -ENOENT;
        }
    }
    fprintf(o->log, "kernel version: %s\n", ver);
    char *depv[] = {"depmod", "-b", kroot, ver, NULL};
    if ((rc = run_logged(o->log, depv, NULL, NULL, 0, 600, err, errlen)))
        return rc;
    snprintf(path, sizeof(path), "%s/lib/modules/%s/modules.dep", kroot, ver);
    if ((rc = read_text(path, &dep_text, NULL))) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(-rc));
        return rc;
    }
    const char *names[64];
    size_t nn = base_module_names(names, 64);
    char missing[128] = "";
    rc = iom_lab_moddep_resolve(dep_text, names, nn, &mods, &nmods, missing, sizeof(missing));
    if (rc) {
        snprintf(err, errlen, "kernel %s has no module %s", ver, missing);
        goto out;
    }
    /* base.cpio */
    char base[4096], tmpbase[4200];
    snprintf(base, sizeof(base), "%s/base.cpio", o->labdir);
    snprintf(tmpbase, sizeof(tmpbase), "%s.tmp.%ld", base, (long)getpid());
    struct iom_cpio c;
    if ((rc = iom_cpio_open(&c, tmpbase))) {
        snprintf(err, errlen, "cannot write %s: %s", tmpbase, strerror(-rc));
        goto out;
    }
    static const char *const dirs[] = {"bin", "sbin", "dev", "proc", "sys", "tmp", "lab"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
        iom_cpio_add_dir(&c, dirs[i], 0755);
    iom_cpio_add_chardev(&c, "dev/console", 0600, 5, 1);
    iom_cpio_add_chardev(&c, "dev/null", 0666, 1, 3);
    fprintf(o->log, "initramfs: busybox %s\n", busybox);
    if ((rc = add_binary(&c, "bin/busybox", busybox, o->log, err, errlen))) {
        iom_cpio_close(&c);
        goto out;
    }
    char modlist[2048] = "";
    for (size_t i = 0; i < nmods; i++) {
        char name[4096], src[4096], m[128];
        snprintf(name, sizeof(name), "lib/modules/%s/%s", ver, mods[i]);
        snprintf(src, sizeof(src), "%s/%s", kroot, name);
        iom_cpio_add_parents(&c, name);
        if ((rc = iom_cpio_add_file(&c, name, 0644, src))) {
            snprintf(err, errlen, "adding %s: %s", src, strerror(-rc));
            iom_cpio_close(&c);
            goto out;
        }
        iom_lab_module_name(mods[i], m, sizeof(m));
        strncat(modlist, i ? " " : "", sizeof(modlist) - strlen(modlist) - 1);
        strncat(modlist, m, sizeof(modlist) - strlen(modlist) - 1);
    }
    /* modules.dep in the guest too, for whoever looks */
    snprintf(path, sizeof(path), "lib/modules/%s/modules.dep", ver);
    iom_cpio_add_data(&c, path, 0644, dep_text, strlen(dep_text));
    fprintf(o->log, "initramfs: %zu modules: %s\n", nmods, modlist);
    if ((rc = iom_cpio_close(&c))) {
        snprintf(err, errlen, "writing %s: %s", tmpbase, strerror(-rc));
        goto out;
    }
    if (rename(tmpbase, base) != 0) {
        rc = -errno;
        snprintf(err, errlen, "rename %s: %s", tmpbase, strerror(errno));
        goto out;
    }
    /* modules.dep next to base.cpio: `iomark lab` resolves each boot's load order */
    {
        char mpath[4200];
        snprintf(mpath, sizeof(mpath), "%s/modules.dep", o->labdir);
        FILE *mf = fopen(mpath, "w");
        if (!mf || fputs(dep_text, mf) < 0 || fclose(mf) != 0) {
            rc = -EIO;
            snprintf(err, errlen, "cannot write %s", mpath);
            goto out;
        }
    }
    /* the kernel image */
    char vmlinuz[4096], vsrc[4096];
    snprintf(vsrc, sizeof(vsrc), "%s/boot/vmlinuz-%s", kroot, ver);
    snprintf(vmlinuz, sizeof(vmlinuz), "%s/vmlinuz-%s", o->labdir, ver);
    char *cpv[] = {"cp", vsrc, vmlinuz, NULL};
    if ((rc = run_logged(o->log, cpv, NULL, NULL, 0, 120, err, errlen)))
        goto out;
    /* lab.conf last: its presence means setup finished */
    char conf[4096], tmpconf[4200];
    snprintf(conf, sizeof(conf), "%s/lab.conf", o->labdir);
    snprintf(tmpconf, sizeof(tmpconf), "%s.tmp.%ld", conf, (long)getpid());
    FILE *f = fopen(tmpconf, "w");
    if (!f) {
        rc = -errno;
        snprintf(err, errlen, "cannot write %s: %s", tmpconf, strerror(errno));
        goto out;
    }
    char pver[128] = "";
    /* linux-image-6.1.0-57-amd64_6.1.192-3_amd64.deb -> 6.1.192-3 */
    const char *us = strchr(deb, '_');
    if (us)
        snprintf(pver, sizeof(pver), "%.*s", (int)strcspn(us + 1, "_"), us + 1);
    fprintf(f, "# written by iomark lab setup\nkernel_version=%s\nkernel_package=%s %s\n"
               "vmlinuz=%s\nbase_cpio=%s\nmodules=%s\nbusybox=%s\n",
            ver, pkg, pver, vmlinuz, base, modlist, busybox);
    if (fclose(f) != 0 || rename(tmpconf, conf) != 0) {
        rc = -errno;
        snprintf(err, errlen, "writing %s: %s", conf, strerror(errno));
        goto out;
    }
    fprintf(o->log, "wrote %s, %s, %s\n", base, vmlinuz, conf);
out:
    free(dep_text);
    iom_lab_strv_free(mods, nmods);
    /* the unpacked package is 400 MB; base.cpio holds what the lab needs */
    char e2[256];
    run_logged(NULL, rm_dl, NULL, NULL, 0, 600, e2, sizeof(e2));
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
                          strncmp(e->d_name, "vmlinuz-", 8) == 0;
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
    rc = add_binary(&c, "bin/iomark", exe, NULL, err, errlen);
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

int iom_lab_initrd_write(const char *out_path, const char *base_cpio, const char *iomark_cpio,
                         const struct iom_lab_job_files *j)
{
    char jobpath[4200];
    snprintf(jobpath, sizeof(jobpath), "%s.job", out_path);
    struct iom_cpio c;
    int rc = iom_cpio_open(&c, jobpath);
    if (rc)
        return rc;
    size_t alen = 0;
    for (size_t i = 0; i < j->nr_args; i++)
        alen += strlen(j->args[i]) + 1;
    char *args = malloc(alen + 1), *p = args;
    if (!args) {
        iom_cpio_close(&c);
        unlink(jobpath);
        return -ENOMEM;
    }
    for (size_t i = 0; i < j->nr_args; i++)
        p += sprintf(p, "%s\n", j->args[i]);
    char line[64];
    iom_cpio_add_dir(&c, "lab", 0755);
    iom_cpio_add_data(&c, "init", 0755, j->init_script, strlen(j->init_script));
    iom_cpio_add_data(&c, "lab/args", 0644, args, alen);
    snprintf(line, sizeof(line), "%s\n", j->command);
    iom_cpio_add_data(&c, "lab/command", 0644, line, strlen(line));
    iom_cpio_add_data(&c, "lab/modules", 0644, j->modules, strlen(j->modules));
    iom_cpio_add_data(&c, "lab/drivers", 0644, j->drivers, strlen(j->drivers));
    snprintf(line, sizeof(line), "%s\n", j->scheduler);
    iom_cpio_add_data(&c, "lab/scheduler", 0644, line, strlen(line));
    snprintf(line, sizeof(line), "%s\n", j->ctrl);
    iom_cpio_add_data(&c, "lab/ctrl", 0644, line, strlen(line));
    snprintf(line, sizeof(line), "%u\n", j->repeat);
    iom_cpio_add_data(&c, "lab/repeat", 0644, line, strlen(line));
    snprintf(line, sizeof(line), "%u\n", j->run_timeout_s);
    iom_cpio_add_data(&c, "lab/run_timeout", 0644, line, strlen(line));
    free(args);
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
