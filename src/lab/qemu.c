/* qemu.c - controller table and QEMU command line per controller. */
#include "lab/qemu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/proc.h"
#include "workload/args.h"

/*
 * Device names from QEMU 7.2's device models (qemu-system-x86_64 -device
 * help); guest drivers and queue limits as the guest logs in
 * tests/data/lab-guest-logs show them (QEMU 7.2, Debian kernel 6.1).
 */
static const struct iom_lab_ctrl ctrls[] = {
    {"pvscsi", "VMware PVSCSI", "pvscsi", "q35",
     {"pvscsi,id=hba", "scsi-hd,drive=%s,bus=hba.0"}, {"vmw_pvscsi", "sd_mod"}, true},
    {"nvme", "NVMe", "nvme", "q35", {"nvme,serial=iomarklab0,drive=%s", NULL}, {"nvme"}, true},
    /* without a non-zero SAS address Linux ignores the disk (seen in the lab) */
    {"lsisas", "LSI Logic SAS1068", "mptsas1068", "q35",
     {"mptsas1068,id=hba", "scsi-hd,drive=%s,bus=hba.0,wwn=0x5000c50015ea71ac"},
     {"mptsas", "sd_mod"}, true},
    /* q35's built-in ICH9 AHCI: bus ide.0 is its first SATA port */
    {"sata", "SATA (AHCI)", "ich9-ahci", "q35", {"ide-hd,drive=%s,bus=ide.0", NULL},
     {"ahci", "sd_mod"}, true},
    /* a PIIX3 IDE function added to q35 (the device the pc machine has
     * built in), so IDE can share a q35 guest with the others */
    {"ide", "IDE (PIIX)", "piix3-ide", "q35", {"piix3-ide,id=hba", "ide-hd,drive=%s,bus=hba.0"},
     {"ata_piix", "sd_mod"}, true},
    {"virtio-blk", "virtio-blk", "virtio-blk-pci", "q35", {"virtio-blk-pci,drive=%s", NULL},
     {"virtio_pci", "virtio_blk"}, true},
    {"megasas", "LSI MegaRAID SAS", "megasas", "q35",
     {"megasas,id=hba", "scsi-hd,drive=%s,bus=hba.0"}, {"megaraid_sas", "sd_mod"}, false},
    {"lsi53c895a", "LSI 53C895A", "lsi53c895a", "q35",
     {"lsi53c895a,id=hba", "scsi-hd,drive=%s,bus=hba.0"}, {"sym53c8xx", "sd_mod"}, false},
    {"virtio-scsi", "virtio-scsi", "virtio-scsi-pci", "q35",
     {"virtio-scsi-pci,id=hba", "scsi-hd,drive=%s,bus=hba.0"},
     {"virtio_pci", "virtio_scsi", "sd_mod"}, false},
};

const struct iom_lab_ctrl *iom_lab_ctrls(size_t *n)
{
    *n = sizeof(ctrls) / sizeof(ctrls[0]);
    return ctrls;
}

const struct iom_lab_ctrl *iom_lab_ctrl_find(const char *name)
{
    for (size_t i = 0; i < sizeof(ctrls) / sizeof(ctrls[0]); i++)
        if (strcmp(ctrls[i].name, name) == 0)
            return &ctrls[i];
    return NULL;
}

static int add_ctrl(const struct iom_lab_ctrl *c, const struct iom_lab_ctrl **out, size_t max,
                    size_t *n, char *err, size_t errlen)
{
    for (size_t i = 0; i < *n; i++)
        if (out[i] == c) {
            snprintf(err, errlen, "%s: named twice", c->name);
            return -EINVAL;
        }
    if (*n >= max) {
        snprintf(err, errlen, "%s: at most %zu controllers", c->name, max);
        return -EINVAL;
    }
    out[(*n)++] = c;
    return 0;
}

int iom_lab_ctrl_list_parse(const char *list, const struct iom_lab_ctrl **out, size_t max,
                            size_t *n, char *err, size_t errlen)
{
    *n = 0;
    char *dup = strdup(list ? list : "");
    if (!dup)
        return -ENOMEM;
    int rc = 0;
    char *save = NULL;
    const char *p = dup;
    if (!*p) {
        snprintf(err, errlen, "empty list; allowed: default, all, or names separated by commas");
        rc = -EINVAL;
    }
    for (char *tok = strtok_r(dup, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
        bool all = strcmp(tok, "all") == 0, def = strcmp(tok, "default") == 0;
        if (all || def) {
            for (size_t i = 0; i < sizeof(ctrls) / sizeof(ctrls[0]) && !rc; i++)
                if (all || ctrls[i].is_default)
                    rc = add_ctrl(&ctrls[i], out, max, n, err, errlen);
            continue;
        }
        const struct iom_lab_ctrl *c = iom_lab_ctrl_find(tok);
        if (!c) {
            enum { NC = sizeof(ctrls) / sizeof(ctrls[0]) };
            char names[512] = "", why[700];
            const char *known[NC + 2];
            for (size_t i = 0; i < NC; i++) {
                strncat(names, i ? ", " : "", sizeof(names) - strlen(names) - 1);
                strncat(names, ctrls[i].name, sizeof(names) - strlen(names) - 1);
                known[i] = ctrls[i].name;
            }
            known[NC] = "default";
            known[NC + 1] = "all";
            strncat(names, ", default, all", sizeof(names) - strlen(names) - 1);
            /* "nvmee": did you mean nvme? (workload/args.h) */
            iom_allowed_near(why, sizeof(why), tok, known, NC + 2, names);
            snprintf(err, errlen, "%s: unknown controller; %s", tok, why);
            rc = -EINVAL;
            break;
        }
        rc = add_ctrl(c, out, max, n, err, errlen);
    }
    if (!rc && *n == 0) {
        snprintf(err, errlen, "empty list; allowed: default, all, or names separated by commas");
        rc = -EINVAL;
    }
    free(dup);
    return rc;
}

struct argv_b {
    char **v;
    size_t n, cap;
    int err;
};

static void push(struct argv_b *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void push(struct argv_b *b, const char *fmt, ...)
{
    if (b->err)
        return;
    if (b->n + 2 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 32;
        char **v = realloc(b->v, cap * sizeof(*v));
        if (!v) {
            b->err = -ENOMEM;
            return;
        }
        b->v = v;
        b->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    int r = vasprintf(&b->v[b->n], fmt, ap);
    va_end(ap);
    if (r < 0) {
        b->err = -ENOMEM;
        return;
    }
    b->v[++b->n] = NULL;
}

/* One -device value of controller k of n: "%s" becomes the drive id dK; with
 * several controllers the adapter id "hba" becomes "hbaK" (ids must be unique). */
static void push_device(struct argv_b *b, const char *dev, size_t k, size_t n)
{
    char buf[512];
    size_t o = 0;
    for (const char *p = dev; *p && o + 16 < sizeof(buf);) {
        if (p[0] == '%' && p[1] == 's') {
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "d%zu", k);
            p += 2;
        } else if (n > 1 && strncmp(p, "hba", 3) == 0) {
            o += (size_t)snprintf(buf + o, sizeof(buf) - o, "hba%zu", k);
            p += 3;
        } else {
            buf[o++] = *p++;
        }
    }
    buf[o] = 0;
    push(b, "-device");
    push(b, "%s", buf);
}

int iom_lab_qemu_argv_multi(const struct iom_lab_ctrl *const *c, size_t n,
                            const struct iom_lab_vm *vm, char ***argv)
{
    struct argv_b b = {0};
    if (n == 0)
        return -EINVAL;
    push(&b, "%s", IOM_LAB_QEMU);
    push(&b, "-accel");
    push(&b, "%s", vm->accel);
    push(&b, "-M");
    push(&b, "%s", c[0]->machine);
    push(&b, "-m");
    push(&b, "%u", vm->memory_mib);
    push(&b, "-smp");
    push(&b, "%u", vm->vcpus);
    push(&b, "-nodefaults");
    push(&b, "-no-user-config");
    push(&b, "-display");
    push(&b, "none");
    push(&b, "-no-reboot");
    push(&b, "-serial");
    push(&b, "file:%s", vm->console_path);
    if (vm->bios) {
        push(&b, "-bios");
        push(&b, "%s", vm->bios);
    }
    push(&b, "-kernel");
    push(&b, "%s", vm->kernel);
    push(&b, "-initrd");
    push(&b, "%s", vm->initrd);
    push(&b, "-append");
    push(&b, "%s", vm->append);
    for (size_t k = 0; k < n; k++) {
        /* several drives on one image: QEMU's image locking would refuse the
         * second; the guest uses one disk at a time */
        push(&b, "-drive");
        push(&b, "file=%s,format=raw,if=none,id=d%zu,cache=%s%s", vm->disk, k, vm->cache,
             n > 1 ? ",file.locking=off" : "");
        for (size_t i = 0; i < 2; i++)
            if (c[k]->devices[i])
                push_device(&b, c[k]->devices[i], k, n);
    }
    /* result channel: a virtio-serial port, apart from the console */
    push(&b, "-device");
    push(&b, "virtio-serial-pci,id=vser0");
    push(&b, "-chardev");
    push(&b, "file,id=iomres,path=%s", vm->result_path);
    push(&b, "-device");
    push(&b, "virtserialport,bus=vser0.0,chardev=iomres,name=iomark.result");
    if (b.err) {
        iom_lab_argv_free(b.v);
        return b.err;
    }
    *argv = b.v;
    return 0;
}

int iom_lab_qemu_argv(const struct iom_lab_ctrl *c, const struct iom_lab_vm *vm, char ***argv)
{
    return iom_lab_qemu_argv_multi(&c, 1, vm, argv);
}

void iom_lab_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}

bool iom_lab_kvm_usable(void)
{
    int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

int iom_lab_qemu_version(char *buf, size_t len)
{
    char out[1024];
    char *argv[] = {(char *)IOM_LAB_QEMU, (char *)"--version", NULL};
    struct iom_lab_proc_opts o = {.capture = out, .capture_len = sizeof(out), .timeout_s = 30};
    struct iom_lab_proc_result r;
    int rc = iom_lab_proc_run(argv, &o, &r);
    if (rc)
        return rc;
    if (r.exit_status != 0)
        return -EIO;
    /* "QEMU emulator version 7.2.19 (Debian 1:7.2+dfsg-7+deb12u18)\n..." */
    const char *p = strstr(out, "version ");
    p = p ? p + 8 : out;
    size_t l = strcspn(p, "\n");
    snprintf(buf, len, "%.*s", (int)l, p);
    return 0;
}
