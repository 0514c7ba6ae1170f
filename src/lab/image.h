/*
 * image.h - the lab's guest image: Debian's kernel (downloaded with
 * `apt-get download`, unpacked with `dpkg-deb -x`, never installed on the
 * host), an initramfs written as "newc" cpio archives (the format of the
 * kernel's Documentation/driver-api/early-userspace/buffer-format.rst), and
 * the cache folder that holds them.
 *
 * The guest's initramfs is three archives concatenated, which the kernel
 * unpacks in order (buffer-format.rst: "the initramfs image may be a
 * concatenation of several archives"):
 *   base.cpio    busybox and the controller drivers with their dependencies
 *                (built by `iomark lab setup`)
 *   iomark-HASH.cpio  the iomark binary and the shared libraries it loads
 *                (one per build, named by the binary's hash)
 *   job cpio     per boot: /init, the workload arguments, the modules to load
 */
#ifndef IOMARK_LAB_IMAGE_H
#define IOMARK_LAB_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* ---- newc cpio writer ---- */

#define IOM_CPIO_MAX_DIRS 512

struct iom_cpio {
    FILE *f;
    uint32_t next_ino;
    uint64_t offset;   /* bytes written so far (for 4-byte alignment) */
    int err;           /* first -errno seen; later calls do nothing */
    char *dirs[IOM_CPIO_MAX_DIRS];   /* folders written, for add_parents */
    size_t nr_dirs;
};

/* Create (truncate) path and start an archive. Returns 0 or -errno. */
int iom_cpio_open(struct iom_cpio *c, const char *path);

/* Add a folder entry `name` (no leading '/', e.g. "lib/modules"). mode holds
 * permission bits only. Returns 0 or the archive's first -errno. */
int iom_cpio_add_dir(struct iom_cpio *c, const char *name, mode_t perm);

/* Add a regular file `name` with `len` bytes of `data`. Returns 0 or -errno. */
int iom_cpio_add_data(struct iom_cpio *c, const char *name, mode_t perm, const void *data,
                      size_t len);

/* Add a regular file `name` with the contents of host file src (symlinks
 * followed). Returns 0 or -errno (-ENOENT when src is missing). */
int iom_cpio_add_file(struct iom_cpio *c, const char *name, mode_t perm, const char *src);

/* Add a character device node (e.g. "dev/console", 5, 1). Returns 0 or -errno. */
int iom_cpio_add_chardev(struct iom_cpio *c, const char *name, mode_t perm, unsigned major,
                         unsigned minor);

/* Add a symbolic link `name` -> target. Returns 0 or -errno. */
int iom_cpio_add_symlink(struct iom_cpio *c, const char *name, const char *target);

/* Add every missing parent folder of `name` ("a/b/c" adds "a" and "a/b"),
 * remembering up to 256 added ones so each is written once. */
int iom_cpio_add_parents(struct iom_cpio *c, const char *name);

/* Write the TRAILER!!! entry, pad to a 512-byte multiple, close. Returns 0 or
 * the first -errno of the archive's life. */
int iom_cpio_close(struct iom_cpio *c);

/* ---- kernel modules ---- */

/*
 * Resolve kernel modules and their dependencies from the text of a
 * modules.dep file (as written by depmod: "path.ko: dep1.ko dep2.ko", deps
 * listed nearest first). names are module names; '-' and '_' are the same
 * (as the kernel treats them). On success *paths (malloc'd array of
 * malloc'd strings, free with iom_lab_strv_free) holds the module paths in a
 * load order where every module follows its dependencies, each once, and
 * *n their count. Returns 0, -ENOENT when a name is not in the file (its
 * name is copied to missing, which may be NULL), -ENOMEM.
 */
int iom_lab_moddep_resolve(const char *dep_text, const char *const *names, size_t nr_names,
                           char ***paths, size_t *n, char *missing, size_t missing_len);

/* Module name of a .ko path: "kernel/drivers/scsi/vmw_pvscsi.ko" -> "vmw_pvscsi",
 * with '-' turned into '_' (the form /sys/module uses). */
void iom_lab_module_name(const char *path, char *buf, size_t len);

/* Free a NULL-or-n-terminated string array from this module. */
void iom_lab_strv_free(char **v, size_t n);

/* ---- shared libraries of a binary ---- */

/*
 * Parse the output of `ldd BINARY` into the absolute paths the loader opens:
 * "libx.so.1 => /lib/x/libx.so.1 (0x...)" gives the path after "=>", a line
 * starting with "/" (the program interpreter) gives its first word;
 * linux-vdso and "not a dynamic executable" give nothing. *paths is a
 * malloc'd array (free with iom_lab_strv_free). Returns 0 or -ENOMEM; a
 * "not found" library gives -ENOENT with its name in missing.
 */
int iom_lab_ldd_parse(const char *text, char ***paths, size_t *n, char *missing,
                      size_t missing_len);

/* ---- the cache folder ---- */

/* The lab folder: $IOMARK_LAB_DIR, else $XDG_CACHE_HOME/iomark/lab, else
 * $HOME/.cache/iomark/lab. Returns 0 or -ENOENT when none of these is set. */
int iom_lab_dir(char *buf, size_t len);

/* mkdir -p. Returns 0 or -errno. */
int iom_lab_mkdirs(const char *path, mode_t mode);

/* 64-bit FNV-1a hash of a file's bytes (change detection, not security;
 * http://www.isthe.com/chongo/tech/comp/fnv/). Returns 0 or -errno. */
int iom_lab_hash_file(const char *path, uint64_t *hash);

/* What `iomark lab setup` leaves in the lab folder (lab.conf, key=value). */
struct iom_lab_setup_info {
    char kernel_version[64];  /* "6.1.0-57-amd64" */
    char kernel_package[96];  /* "linux-image-6.1.0-57-amd64 6.1.192-3" */
    char vmlinuz[4096];       /* absolute path of the kernel image */
    char base_cpio[4096];     /* absolute path of base.cpio */
    char modules[2048];       /* space-separated module names inside base.cpio */
};

/* Read lab.conf from the lab folder. Returns 0, -ENOENT when setup has not
 * run (or its files are gone), -EINVAL when lab.conf is malformed. */
int iom_lab_setup_load(const char *labdir, struct iom_lab_setup_info *info);

/* Steps of `iomark lab setup`; each prints what it does to log. */
struct iom_lab_setup_opts {
    const char *labdir;
    const char *kernel_package;   /* NULL = what linux-image-amd64 depends on */
    bool install;                 /* apt-get install missing host packages (root only) */
    FILE *log;
};

/*
 * The uncompressed kernel of a setup, labdir/vmlinux-VERSION, written from
 * the bzImage's xz or gzip payload (as the kernel's scripts/extract-vmlinux
 * finds it) when missing, with `xz --single-stream -dc` or `gzip -dc`.
 * QEMU boots it through its PVH entry (the ELF note XEN_ELFNOTE_PHYS32_ENTRY;
 * Debian's kernels have CONFIG_PVH), skipping the decompression that takes
 * the guest 10-30 s under TCG. Writes its path to path. Returns 0, or
 * -ENOTSUP (no payload found, no PVH note) or another -errno with one line in
 * err; the caller then boots info->vmlinuz.
 */
int iom_lab_kernel_elf(const char *labdir, const struct iom_lab_setup_info *info, char *path,
                       size_t len, char *err, size_t errlen);

/*
 * Prepare the lab folder: check (or, with install and root, apt-get install
 * --no-install-recommends) qemu-system-x86, busybox-static, kmod; download
 * the kernel package with `apt-get download`; unpack it with `dpkg-deb -x`;
 * run `depmod -b`; write base.cpio with busybox and the modules of every
 * controller in iom_lab_ctrls() plus virtio_console (the result channel);
 * prune the unpacked modules; write lab.conf. Returns 0 or -errno with one
 * line in err.
 */
int iom_lab_setup(const struct iom_lab_setup_opts *o, char *err, size_t errlen);

/*
 * Make sure labdir/iomark-HASH.cpio exists, holding the binary `exe`
 * (normally /proc/self/exe) and every library ldd lists for it, at the same
 * absolute paths. HASH is the binary's FNV-1a 64 hash, so several iomark
 * builds sharing one lab folder never see each other's image. The archive
 * is held open with a shared flock(2) until the process exits, so no other
 * iomark removes it while this one runs. Then the folder is pruned: this
 * archive and the newest others up to IOM_LAB_KEEP_IMAGES in all (by
 * modification time) stay, older ones not locked by a running lab are
 * removed (each is 60-80 MB). Writes the archive's path to
 * path (len bytes) and sets *rebuilt when it had to be written. Returns 0
 * or -errno with one line in err.
 */
int iom_lab_iomark_image(const char *labdir, const char *exe, char *path, size_t len,
                         bool *rebuilt, char *err, size_t errlen);

/* iomark-HASH.cpio archives a lab folder keeps (this build's and the newest
 * others), so a tree rebuilt all day holds at most this many. */
#define IOM_LAB_KEEP_IMAGES 2

struct iom_lab_clean_opts {
    const char *labdir;
    const char *keep_path;     /* an archive never removed (NULL: none) */
    unsigned keep_images;      /* newest archives kept, keep_path counted (0: none) */
    bool leftovers;            /* also NAME.tmp.PID files and download.PID folders of
                                  processes that no longer exist */
    bool all;                  /* also setup's files (base.cpio, vmlinuz-*, modules.dep,
                                  lab.conf) and the folder when it is then empty */
    FILE *log;                 /* "removed NAME (X.X MiB)" per removal; NULL: quiet */
};

struct iom_lab_clean_result {
    unsigned nr_removed;
    unsigned nr_in_use;        /* archives kept because a running lab holds them */
    uint64_t bytes_freed;      /* apparent sizes (st_size) of removed files, bytes */
    uint64_t bytes_left;       /* sizes of the iomark-*.cpio archives still there */
};

/*
 * Remove cached iomark-HASH.cpio archives of labdir: all but keep_path and
 * the keep_images newest (by modification time), skipping any a running lab
 * holds (flock, see iom_lab_iomark_image); with leftovers or all, also the
 * files listed above. A missing labdir is not an error (nothing removed).
 * Fills *r. Returns 0 or -errno (the first failure; removals before it stay).
 */
int iom_lab_clean(const struct iom_lab_clean_opts *o, struct iom_lab_clean_result *r);

/*
 * Add host binary src to the archive as `name` (no leading '/') and, when
 * it is dynamic, every library `ldd src` lists at its absolute path.
 * Progress lines go to log (may be NULL). Returns 0 or -errno with one line
 * in err (-ENOENT: ldd missing or a library not found).
 */
int iom_lab_cpio_add_binary(struct iom_cpio *c, const char *name, const char *src, FILE *log,
                            char *err, size_t errlen);

/* What one boot needs in its job archive. */
struct iom_lab_job_files {
    const char *init_script;     /* /init */
    size_t nr_jobs;              /* /lab/njobs; jobs are numbered from 1 */
    const char *const *job_command;  /* /lab/job.J.cmd: run, diskspd, sweep, mark, tpcc */
    const char *const *job_args;     /* /lab/job.J.args: arguments, one per line, with the
                                      * placeholders of iom_lab_job_guest_args */
    const unsigned *job_timeout_s;   /* /lab/job.J.timeout: the guest's bound per run */
    const char *modules;         /* /lab/modules: "path [param=value ...]" lines */
    const char *fs_modules;      /* /lab/fsmodules: ext4 and its dependencies (tpcc), or "" */
    const char *drivers;         /* /lab/drivers: module names whose parameters are reported */
    const char *units;           /* /lab/units: "PREFIX:DRIVER" words, one per controller of
                                  * the boot ("-:ANY" for a boot with one controller) */
    const char *scheduler;       /* /lab/scheduler */
    const char *ctrl;            /* /lab/ctrl */
    unsigned repeat;             /* /lab/repeat: runs of every job */
};

/*
 * Write the initramfs for one boot at out_path: base.cpio + iomark.cpio
 * (copied byte for byte) followed by a job archive with the files of j.
 * Returns 0 or -errno.
 */
int iom_lab_initrd_write(const char *out_path, const char *base_cpio, const char *iomark_cpio,
                         const struct iom_lab_job_files *j);

/* The /init script the guest runs (busybox sh). */
extern const char iom_lab_init_script[];

#endif
