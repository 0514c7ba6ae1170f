/*
 * qemu.h - the lab's controllers and the QEMU command line that puts one
 * backing disk on each. Device names, guest drivers and pitfalls (the LSI
 * SAS1068 disk needs a non-zero SAS address `wwn=`; on q35 `bus=ide.0` is
 * AHCI, on pc it is PIIX IDE; -nodefaults needs an explicit -serial) are
 * facts checked in the lab (QEMU 7.2, Linux 6.1; tests/data/lab-guest-logs).
 */
#ifndef IOMARK_LAB_QEMU_H
#define IOMARK_LAB_QEMU_H

#include <stdbool.h>
#include <stddef.h>

#define IOM_LAB_MAX_CTRLS 16

/* One emulated controller. */
struct iom_lab_ctrl {
    const char *name;         /* command-line name: "pvscsi" */
    const char *title;        /* "VMware PVSCSI" */
    const char *qemu_device;  /* the QEMU model measured: "pvscsi" */
    const char *machine;      /* "q35" or "pc" */
    const char *devices[2];   /* -device values; "%s" is the drive id */
    const char *modules[4];   /* guest modules to load (dependencies come from
                               * modules.dep); NULL-terminated */
    bool is_default;          /* in the default set */
};

/* The controller table and its size. */
const struct iom_lab_ctrl *iom_lab_ctrls(size_t *n);

/* Look a controller up by name; NULL when unknown. */
const struct iom_lab_ctrl *iom_lab_ctrl_find(const char *name);

/*
 * Parse a comma-separated controller list ("pvscsi,nvme") into out[] (at
 * most max entries). "default" and "all" name those sets. Returns 0, or
 * -EINVAL with "NAME: allowed: ..." in err for an unknown, repeated or
 * empty name.
 */
int iom_lab_ctrl_list_parse(const char *list, const struct iom_lab_ctrl **out, size_t max,
                            size_t *n, char *err, size_t errlen);

/* Everything a boot needs besides the controller. */
struct iom_lab_vm {
    const char *accel;        /* "kvm" or "tcg" */
    unsigned vcpus;
    unsigned memory_mib;
    const char *kernel;       /* kernel: a bzImage, or an ELF with a PVH entry */
    const char *bios;         /* -bios firmware (qboot.rom), NULL = QEMU's default (SeaBIOS) */
    const char *initrd;       /* initramfs path */
    const char *append;       /* kernel command line */
    const char *disk;         /* raw backing image */
    const char *cache;        /* QEMU cache mode: writeback, none, ... */
    const char *result_path;  /* host file of the result port */
    const char *console_path; /* host file of the serial console */
};

/*
 * Build the argv of qemu-system-x86_64 for controller c: -nodefaults,
 * -serial to console_path, the backing disk as drive "d0" on c's devices,
 * and the result channel (a virtio-serial port named "iomark.result" backed
 * by result_path). *argv is malloc'd, NULL-terminated, freed with
 * iom_lab_argv_free. Returns 0 or -ENOMEM.
 */
int iom_lab_qemu_argv(const struct iom_lab_ctrl *c, const struct iom_lab_vm *vm, char ***argv);

/*
 * The same for n controllers in one guest (all on c[0]'s machine type):
 * drive dK on controller K, all on vm->disk with image locking off (the
 * guest uses one disk at a time), adapter ids made unique (hbaK). n = 1 gives
 * exactly iom_lab_qemu_argv's command line. Returns 0, -EINVAL (n = 0) or
 * -ENOMEM.
 */
int iom_lab_qemu_argv_multi(const struct iom_lab_ctrl *const *c, size_t n,
                            const struct iom_lab_vm *vm, char ***argv);

/* Free an argv from iom_lab_qemu_argv. */
void iom_lab_argv_free(char **argv);

/* True when /dev/kvm can be opened read-write (KVM usable). */
bool iom_lab_kvm_usable(void);

/* Run `qemu-system-x86_64 --version` and copy its version ("7.2.19 (Debian
 * 1:7.2+dfsg-7+deb12u18)") to buf. Returns 0 or -errno (-ENOENT: no QEMU). */
int iom_lab_qemu_version(char *buf, size_t len);

/* The QEMU binary the lab runs. */
#define IOM_LAB_QEMU "qemu-system-x86_64"

#endif
