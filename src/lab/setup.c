/* setup.c - `iomark lab setup`: host packages, Debian's kernel package
 * (downloaded, unpacked, never installed), base.cpio and lab.conf. */
#include "lab/image.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/proc.h"
#include "lab/qemu.h"

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

/* Module names base.cpio must hold: every controller's plus the result channel's. */
static size_t base_module_names(const char **names, size_t max)
{
    size_t n = 0, nc;
    const struct iom_lab_ctrl *c = iom_lab_ctrls(&nc);
    /* ext4 (with its dependencies) and the crc32c it asks the crypto API for
     * at mount: the file system of `iomark lab -- tpcc` */
    static const char *const extra[] = {"virtio_pci", "virtio_console", "ext4",
                                        "crc32c_generic"};
    for (size_t i = 0; i < 4 && n < max; i++)
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
    if ((rc = iom_lab_cpio_add_binary(&c, "bin/busybox", busybox, o->log, err, errlen))) {
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
    {
        /* the uncompressed kernel the lab boots (no decompression under TCG) */
        struct iom_lab_setup_info si;
        char elf[4300], e2[512];
        if (iom_lab_setup_load(o->labdir, &si) == 0 &&
            iom_lab_kernel_elf(o->labdir, &si, elf, sizeof(elf), e2, sizeof(e2)) == 0)
            fprintf(o->log, "wrote %s (uncompressed, PVH entry)\n", elf);
        else
            fprintf(o->log, "no uncompressed kernel (%s): the lab boots %s\n", e2, vmlinuz);
    }
out:
    free(dep_text);
    iom_lab_strv_free(mods, nmods);
    /* the unpacked package is 400 MB; base.cpio holds what the lab needs */
    char e2[256];
    run_logged(NULL, rm_dl, NULL, NULL, 0, 600, e2, sizeof(e2));
    return rc;
}


/* The PVH entry note of an ELF kernel: Elf_Nhdr {namesz 4, descsz, type 18
 * (XEN_ELFNOTE_PHYS32_ENTRY, include/xen/interface/elfnote.h)} + "Xen\0",
 * which QEMU needs to boot an uncompressed kernel with -kernel. */
static bool has_pvh_note(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    static const unsigned char pat[] = {0x12, 0, 0, 0, 'X', 'e', 'n', 0};
    unsigned char buf[1 << 16];
    size_t n, keep = 0;
    bool found = false;
    while (!found && (n = fread(buf + keep, 1, sizeof(buf) - keep, f)) > 0) {
        n += keep;
        for (size_t i = 8; i + sizeof(pat) <= n && !found; i++)
            found = memcmp(buf + i, pat, sizeof(pat)) == 0 && buf[i - 8] == 4 && buf[i - 7] == 0 &&
                    buf[i - 6] == 0 && buf[i - 5] == 0;
        keep = n < 16 ? n : 16;
        memmove(buf, buf + n - keep, keep);
    }
    fclose(f);
    return found;
}

int iom_lab_kernel_elf(const char *labdir, const struct iom_lab_setup_info *info, char *path,
                       size_t len, char *err, size_t errlen)
{
    snprintf(path, len, "%s/vmlinux-%s", labdir, info->kernel_version);
    if (access(path, R_OK) == 0 && has_pvh_note(path))
        return 0;
    char *img = NULL;
    size_t ilen = 0;
    int rc = read_text(info->vmlinuz, &img, &ilen);
    if (rc) {
        snprintf(err, errlen, "reading %s: %s", info->vmlinuz, strerror(-rc));
        return rc;
    }
    /* the payload of a bzImage: xz (Debian's amd64 kernels) or gzip */
    static const unsigned char xz[] = {0xfd, '7', 'z', 'X', 'Z', 0};
    static const unsigned char gz[] = {0x1f, 0x8b, 0x08};
    const char *tool = NULL;
    size_t off = 0;
    for (size_t i = 0; i + sizeof(xz) <= ilen && !tool; i++) {
        if (memcmp(img + i, xz, sizeof(xz)) == 0)
            tool = "xz", off = i;
        else if (memcmp(img + i, gz, sizeof(gz)) == 0)
            tool = "gzip", off = i;
    }
    if (!tool) {
        free(img);
        snprintf(err, errlen, "%s: no xz or gzip payload", info->vmlinuz);
        return -ENOTSUP;
    }
    char payload[4200], tmp[4200];
    snprintf(payload, sizeof(payload), "%s.payload.tmp.%ld", path, (long)getpid());
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(payload, "wb");
    if (!f || fwrite(img + off, 1, ilen - off, f) != ilen - off) {
        rc = -EIO;
        snprintf(err, errlen, "writing %s", payload);
    }
    if (f && fclose(f) != 0 && !rc)
        rc = -EIO;
    free(img);
    if (!rc) {
        /* xz: one stream, the bytes after it are the bzImage's tail; gzip
         * says "trailing garbage ignored" with status 2 and still writes it all */
        char *av_xz[] = {"xz", "--single-stream", "-dc", payload, NULL};
        char *av_gz[] = {"gzip", "-dc", payload, NULL};
        struct iom_lab_proc_opts po = {.stdout_path = tmp, .timeout_s = 300};
        struct iom_lab_proc_result pr;
        rc = iom_lab_proc_run(strcmp(tool, "xz") == 0 ? av_xz : av_gz, &po, &pr);
        if (rc)
            snprintf(err, errlen, "%s: %s", tool, rc == -ENOENT ? "not found" : strerror(-rc));
        else if (pr.exit_status != 0 && !(pr.exit_status == 2 && strcmp(tool, "gzip") == 0))
            rc = -EIO, snprintf(err, errlen, "%s -dc %s exited with %d", tool, payload,
                                pr.exit_status);
    }
    unlink(payload);
    if (!rc && !has_pvh_note(tmp)) {
        rc = -ENOTSUP;
        snprintf(err, errlen, "%s: the kernel has no PVH entry note (CONFIG_PVH)", info->vmlinuz);
    }
    if (!rc && rename(tmp, path) != 0) {
        rc = -errno;
        snprintf(err, errlen, "rename %s: %s", tmp, strerror(errno));
    }
    if (rc)
        unlink(tmp);
    return rc;
}
