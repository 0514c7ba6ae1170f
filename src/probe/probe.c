/* probe.c - follow a target down the storage stack and identify its controllers. */
#include "probe/probe.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define MAX_DEPTH 8

const char *iom_probe_root(const char *opt)
{
    if (opt)
        return opt;
    const char *e = getenv(IOM_PROBE_ROOT_ENV);
    return e ? e : "";
}

/* ---------- small file helpers ---------- */

static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

/* First line of file `path`, trimmed, into buf. 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    char tmp[512];
    int rc = fgets(tmp, sizeof(tmp), f) ? 0 : -ENODATA;
    fclose(f);
    if (rc)
        return rc;
    trim(tmp);
    snprintf(buf, len, "%s", tmp);
    return 0;
}

/* Read "DIR/REL" (rel may be "") as one trimmed line. */
static int read_at(const char *dir, const char *rel, char *buf, size_t len)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s/%s", dir, rel) >= (int)sizeof(p))
        return -ENAMETOOLONG;
    return read_line(p, buf, len);
}

/* Decimal (or 0x hex) value of DIR/REL, or -1. */
static int64_t read_num_at(const char *dir, const char *rel)
{
    char b[64];
    if (read_at(dir, rel, b, sizeof(b)))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(b, &end, 0);
    if (errno || end == b)
        return -1;
    return v;
}

static bool exists_at(const char *dir, const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    return access(p, F_OK) == 0;
}

/* basename of the target of symlink DIR/REL, or "" */
static void link_base_at(const char *dir, const char *rel, char *out, size_t len)
{
    char p[PATH_MAX], t[PATH_MAX];
    out[0] = '\0';
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    ssize_t n = readlink(p, t, sizeof(t) - 1);
    if (n <= 0)
        return;
    t[n] = '\0';
    const char *b = strrchr(t, '/');
    snprintf(out, len, "%s", b ? b + 1 : t);
}

static const char *base_of(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* Sorted directory listing without dot entries; caller frees with free_list. */
static int list_dir(const char *dir, struct dirent ***ents)
{
    return scandir(dir, ents, NULL, alphasort);
}

static void free_list(struct dirent **ents, int n)
{
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
}

/* ---------- tables ---------- */

struct pci_name {
    int vendor, device;
    const char *name;
};

/* Vendor:device pairs of virtual and common storage controllers. Sources:
 * QEMU include/hw/pci/pci_ids.h and device models (lsi53c895a 1000:0012,
 * mptsas1068 1000:0054, megasas 1000:0060, megasas-gen2 1000:0079, nvme
 * 1b36:0010, pvscsi 15ad:07c0), EDK II OvmfPkg headers (53C1030 1000:0030,
 * SAS1068 1000:0054, PVSCSI 15ad:07c0), Linux include/linux/pci_ids.h. */
static const struct pci_name pci_names[] = {
    {0x15ad, 0x07c0, "VMware PVSCSI"},
    {0x15ad, 0x07e0, "VMware SATA AHCI"},
    {0x15ad, 0x07f0, "VMware NVMe (vNVMe)"},
    {0x15ad, 0x1976, "VMware NVMe (vNVMe)"},
    {0x1000, 0x0030, "LSI Logic 53C1030 (LSI Logic Parallel)"},
    {0x1000, 0x0012, "LSI 53C895A (parallel SCSI)"},
    {0x1000, 0x0054, "LSI Logic SAS1068"},
    {0x1000, 0x0058, "LSI Logic SAS1068E"},
    {0x1000, 0x0060, "LSI MegaRAID SAS 1078"},
    {0x1000, 0x0078, "LSI MegaRAID SAS 1078 Gen2"},
    {0x1000, 0x0079, "LSI MegaRAID SAS 2108 (9260-8i)"},
    {0x1af4, 0x1001, "virtio-blk (transitional)"},
    {0x1af4, 0x1042, "virtio-blk"},
    {0x1af4, 0x1004, "virtio-scsi (transitional)"},
    {0x1af4, 0x1048, "virtio-scsi"},
    {0x1b36, 0x0010, "QEMU NVMe"},
    {0x8086, 0x2922, "Intel ICH9 AHCI"},
    {0x8086, 0x2829, "Intel ICH8M AHCI"},
    {0x8086, 0x7010, "Intel PIIX3 IDE"},
    {0x8086, 0x7111, "Intel PIIX4 IDE"},
    {0x8086, 0x269e, "Intel ICH6 IDE"},
    {0x1ae0, 0x001f, "Google NVMe"},
    {0x1d0f, 0x8061, "Amazon EBS NVMe"},
    {0x1d0f, 0x0061, "Amazon EBS NVMe"},
    {0x1414, 0xb111, "Microsoft Hyper-V NVMe"},
};

const char *iom_probe_pci_name(int vendor, int device)
{
    for (size_t i = 0; i < sizeof(pci_names) / sizeof(pci_names[0]); i++)
        if (pci_names[i].vendor == vendor && pci_names[i].device == device)
            return pci_names[i].name;
    return NULL;
}

struct driver_info {
    const char *sysfs_name;   /* proc_name or driver link */
    const char *module;       /* canonical module name (also /sys/module/<module>) */
    const char *kind;
    const char *fallback_name;/* human name when PCI does not say */
    const char *params[8];    /* relevant module parameters */
};

static const struct driver_info drivers[] = {
    {"vmw_pvscsi", "vmw_pvscsi", "scsi", "VMware PVSCSI",
     {"ring_pages", "cmd_per_lun", "msg_ring_pages", "use_msg", "use_msi", "use_msix",
      "use_req_threshold", NULL}},
    {"mptsas", "mptsas", "scsi", "LSI Logic SAS (Fusion-MPT)", {"max_lun", "mpt_pt_clear", NULL}},
    {"mptspi", "mptspi", "scsi", "LSI Logic Parallel (Fusion-MPT 53C1030)",
     {"mpt_saf_te", "mpt_pq_filter", NULL}},
    {"megaraid_sas", "megaraid_sas", "scsi", "LSI MegaRAID SAS",
     {"max_sectors", "throttlequeuedepth", "msix_vectors", "enable_sdev_max_qd",
      "host_tagset_enable", "poll_queues", NULL}},
    {"sym53c8xx", "sym53c8xx", "scsi", "LSI/Symbios 53C8xx (parallel SCSI)",
     {"cmd_per_lun", "tag_ctrl", "safe", NULL}},
    {"virtio_scsi", "virtio_scsi", "scsi", "virtio-scsi", {"virtscsi_poll_queues", NULL}},
    {"storvsc", "hv_storvsc", "scsi", "Hyper-V synthetic SCSI (storvsc)",
     {"storvsc_ringbuffer_size", "storvsc_vcpus_per_sub_channel", "ring_avail_percent_lowater",
      "storvsc_max_hw_queues", NULL}},
    {"hv_storvsc", "hv_storvsc", "scsi", "Hyper-V synthetic SCSI (storvsc)",
     {"storvsc_ringbuffer_size", "storvsc_vcpus_per_sub_channel", "ring_avail_percent_lowater",
      "storvsc_max_hw_queues", NULL}},
    {"ahci", "ahci", "ata", "SATA AHCI", {"mobile_lpm_policy", NULL}},
    {"ata_piix", "ata_piix", "ata", "IDE (Intel PIIX)", {"prefer_ms_hyperv", NULL}},
    {"pata_acpi", "pata_acpi", "ata", "IDE (ACPI)", {NULL}},
    {"nvme", "nvme", "nvme", "NVMe controller",
     {"io_queue_depth", "poll_queues", "write_queues", "sgl_threshold", "max_host_mem_size_mb",
      "use_threaded_interrupts", NULL}},
    {"virtio_blk", "virtio_blk", "virtio", "virtio-blk",
     {"num_request_queues", "queue_depth", "poll_queues", NULL}},
    {"vbd", "xen_blkfront", "xen", "Xen PV block (xen-blkfront)",
     {"max_queues", "max_ring_page_order", "max_indirect_segments", "feature_persistent", NULL}},
    {"xen-blkfront", "xen_blkfront", "xen", "Xen PV block (xen-blkfront)",
     {"max_queues", "max_ring_page_order", "max_indirect_segments", "feature_persistent", NULL}},
    {"mpt3sas", "mpt3sas", "scsi", "LSI/Broadcom SAS3 (mpt3sas)", {"max_queue_depth", NULL}},
    {"hpsa", "hpsa", "scsi", "HP Smart Array", {NULL}},
    {"aacraid", "aacraid", "scsi", "Adaptec RAID", {NULL}},
    {"ibmvscsi", "ibmvscsi", "scsi", "IBM virtual SCSI", {"max_requests", NULL}},
};

static const struct driver_info *driver_lookup(const char *name)
{
    for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
        if (strcmp(drivers[i].sysfs_name, name) == 0)
            return &drivers[i];
    return NULL;
}

int64_t iom_probe_lun_limit(const struct iom_probe_disk *d)
{
    if (d->queue_depth > 0)
        return d->queue_depth;
    return d->nr_requests > 0 ? d->nr_requests : -1;
}

/* ---------- paths ---------- */

/* realpath of root + rel, or -errno */
static int real_at(const char *root, const char *rel, char *out)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s%s", root, rel) >= (int)sizeof(p))
        return -ENAMETOOLONG;
    if (!realpath(p, out))
        return -errno;
    return 0;
}

static bool is_pci_addr(const char *s)
{
    unsigned a, b, c, d;
    char tail;
    return strlen(s) == 12 && sscanf(s, "%4x:%2x:%2x.%1x%c", &a, &b, &c, &d, &tail) == 4;
}

/* ---------- mounts ---------- */

/* Undo mountinfo's octal escapes (\040 for space) in place. */
static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' &&
            r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

struct mount_hit {
    unsigned major, minor;
    char mountpoint[192], fstype[32], source[128];
};

/* Does mount point m contain path p? */
static size_t prefix_len(const char *m, const char *p)
{
    size_t n = strlen(m);
    if (strcmp(m, "/") == 0)
        return 1;
    if (strncmp(m, p, n) == 0 && (p[n] == '/' || p[n] == '\0'))
        return n;
    return 0;
}

/* Find the mount holding absolute path `abs`; when want_dev, prefer entries
 * with that maj:min. Returns 0 or -ENOENT. */
static int find_mount(const char *root, const char *abs, bool want_dev, dev_t dev,
                      struct mount_hit *hit)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/proc/self/mountinfo", root);
    FILE *f = fopen(p, "r");
    if (!f)
        return -ENOENT;
    char line[4096];
    size_t best = 0;
    bool best_dev = false;
    int found = -ENOENT;
    while (fgets(line, sizeof(line), f)) {
        unsigned id, parent, ma, mi;
        char mroot[1024], mnt[1024];
        if (sscanf(line, "%u %u %u:%u %1023s %1023s", &id, &parent, &ma, &mi, mroot, mnt) != 6)
            continue;
        char *dash = strstr(line, " - ");
        if (!dash)
            continue;
        char fstype[64] = "", source[512] = "";
        if (sscanf(dash + 3, "%63s %511s", fstype, source) < 1)
            continue;
        unescape(mnt);
        unescape(source);
        size_t n = prefix_len(mnt, abs);
        if (!n)
            continue;
        bool dmatch = want_dev && major(dev) == ma && minor(dev) == mi;
        /* a matching device beats a longer prefix; among equals the later
         * line (mounted on top) wins */
        if ((dmatch && !best_dev) || (dmatch == best_dev && n >= best)) {
            best = n;
            best_dev = dmatch;
            hit->major = ma;
            hit->minor = mi;
            snprintf(hit->mountpoint, sizeof(hit->mountpoint), "%s", mnt);
            snprintf(hit->fstype, sizeof(hit->fstype), "%s", fstype);
            snprintf(hit->source, sizeof(hit->source), "%s", source);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

/* Kernel name of block device maj:min under root, or "" */
static void name_of_dev(const char *root, unsigned ma, unsigned mi, char *out, size_t len)
{
    char rel[64];
    snprintf(rel, sizeof(rel), "/sys/dev/block/%u:%u", ma, mi);
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s%s", root, rel);
    out[0] = '\0';
    char rp[PATH_MAX];
    if (realpath(dir, rp))
        snprintf(out, len, "%s", base_of(rp));
}

/* Is `name` a block device of the tree (root/sys/class/block/name)? */
static bool block_exists(const char *root, const char *name)
{
    if (!name[0] || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return false;
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/sys/class/block/%s", root, name);
    return access(p, F_OK) == 0;
}

/* dm device whose dm/name is `dmname` ("vg-lv"), into out; 0 or -ENODEV */
static int dm_by_name(const char *root, const char *dmname, char *out, size_t len)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/sys/block", root);
    struct dirent **e;
    int n = list_dir(dir, &e);
    int rc = -ENODEV;
    for (int i = 0; i < n; i++) {
        if (rc == 0 || strncmp(e[i]->d_name, "dm-", 3) != 0)
            continue;
        char d[PATH_MAX], nm[128];
        snprintf(d, sizeof(d), "%s/%s", dir, e[i]->d_name);
        if (read_at(d, "dm/name", nm, sizeof(nm)) == 0 && strcmp(nm, dmname) == 0) {
            snprintf(out, len, "%s", e[i]->d_name);
            rc = 0;
        }
    }
    if (n >= 0)
        free_list(e, n);
    return rc;
}

/* Map a /dev path (or bare name) to a kernel name inside a captured tree. */
static int tree_dev_name(const char *root, const char *path, char *out, size_t len)
{
    const char *p = path;
    if (strncmp(p, "/dev/mapper/", 12) == 0)
        return dm_by_name(root, p + 12, out, len);
    if (strncmp(p, "/dev/", 5) == 0)
        p += 5;
    if (!block_exists(root, p))
        return -ENODEV;
    snprintf(out, len, "%s", p);
    return 0;
}

/* ---------- the walk ---------- */

static void add_layer(struct iom_probe_target *t, const char *name, const char *kind,
                      const char *detail)
{
    if (t->nr_layers >= IOM_PROBE_MAX_LAYERS)
        return;
    struct iom_probe_layer *l = &t->layers[t->nr_layers++];
    snprintf(l->name, sizeof(l->name), "%s", name);
    snprintf(l->kind, sizeof(l->kind), "%s", kind);
    snprintf(l->detail, sizeof(l->detail), "%s", detail ? detail : "");
}

static void read_params(const char *root, const struct driver_info *di, struct iom_probe_disk *d)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/sys/module/%s/parameters", root, di->module);
    for (int i = 0; di->params[i] && d->nr_params < IOM_PROBE_MAX_PARAMS; i++) {
        char v[64];
        if (read_at(dir, di->params[i], v, sizeof(v)))
            continue; /* absent, or readable by root only */
        struct iom_probe_param *p = &d->params[d->nr_params++];
        snprintf(p->module, sizeof(p->module), "%s", di->module);
        snprintf(p->name, sizeof(p->name), "%s", di->params[i]);
        snprintf(p->value, sizeof(p->value), "%s", v);
    }
}

static void fill_disk(const char *root, const char *name, const char *node,
                      struct iom_probe_disk *d)
{
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "%s", name);
    d->pci_vendor = d->pci_device = -1;
    read_at(node, "dev", d->dev, sizeof(d->dev));
    int64_t sectors = read_num_at(node, "size");
    d->size_bytes = sectors >= 0 ? sectors * 512 : -1;
    d->nr_requests = read_num_at(node, "queue/nr_requests");
    d->max_sectors_kb = read_num_at(node, "queue/max_sectors_kb");
    d->max_hw_sectors_kb = read_num_at(node, "queue/max_hw_sectors_kb");
    d->max_segments = read_num_at(node, "queue/max_segments");
    d->logical_block_bytes = read_num_at(node, "queue/logical_block_size");
    d->physical_block_bytes = read_num_at(node, "queue/physical_block_size");
    d->rotational = read_num_at(node, "queue/rotational");
    read_at(node, "queue/write_cache", d->write_cache, sizeof(d->write_cache));
    if (read_at(node, "queue/scheduler", d->schedulers, sizeof(d->schedulers)) == 0) {
        const char *a = strchr(d->schedulers, '['), *b = a ? strchr(a, ']') : NULL;
        const char *from = a && b ? a + 1 : d->schedulers; /* "none": no brackets */
        size_t n = a && b ? (size_t)(b - a - 1) : strlen(d->schedulers);
        if (n >= sizeof(d->scheduler))
            n = sizeof(d->scheduler) - 1;
        memcpy(d->scheduler, from, n);
        d->scheduler[n] = '\0';
    }
    /* hardware queues: one numbered folder per queue under mq/ */
    char mq[PATH_MAX];
    snprintf(mq, sizeof(mq), "%s/mq", node);
    struct dirent **e;
    int n = list_dir(mq, &e);
    d->nr_hw_queues = n >= 0 ? 0 : -1;
    for (int i = 0; i < n; i++)
        if (isdigit((unsigned char)e[i]->d_name[0]))
            d->nr_hw_queues++;
    if (n >= 0)
        free_list(e, n);
    d->queue_depth = read_num_at(node, "device/queue_depth");
    read_at(node, "device/vendor", d->vendor, sizeof(d->vendor));
    read_at(node, "device/model", d->model, sizeof(d->model));
    d->can_queue = d->cmd_per_lun = d->sg_tablesize = -1;

    /* walk up from the device: SCSI host, driver, PCI function */
    char dp[PATH_MAX], rroot[PATH_MAX] = "";
    if (root[0] && !realpath(root, rroot))
        rroot[0] = '\0';
    char first_driver[32] = "";
    if (real_at(node, "/device", dp) == 0) {
        size_t stop = strlen(rroot);
        char cur[PATH_MAX];
        snprintf(cur, sizeof(cur), "%s", dp);
        for (int guard = 0; guard < 32 && strlen(cur) > stop + 1; guard++) {
            const char *b = base_of(cur);
            if (!d->scsi_host[0] && strncmp(b, "host", 4) == 0 && isdigit((unsigned char)b[4]))
                snprintf(d->scsi_host, sizeof(d->scsi_host), "%s", b);
            if (!first_driver[0]) {
                char drv[32];
                link_base_at(cur, "driver", drv, sizeof(drv));
                if (drv[0] && strcmp(drv, "sd") != 0 && strcmp(drv, "sr") != 0)
                    snprintf(first_driver, sizeof(first_driver), "%s", drv);
            }
            if (!d->pci_slot[0] && is_pci_addr(b)) {
                snprintf(d->pci_slot, sizeof(d->pci_slot), "%s", b);
                int64_t v = read_num_at(cur, "vendor"), dv = read_num_at(cur, "device");
                d->pci_vendor = (int)v;
                d->pci_device = (int)dv;
            }
            if (strcmp(b, "devices") == 0)
                break;
            char *slash = strrchr(cur, '/');
            if (!slash || slash == cur)
                break;
            *slash = '\0';
        }
    }
    if (d->scsi_host[0]) {
        char hdir[PATH_MAX];
        snprintf(hdir, sizeof(hdir), "%s/sys/class/scsi_host/%s", root, d->scsi_host);
        char proc[32];
        if (read_at(hdir, "proc_name", proc, sizeof(proc)) == 0 && proc[0])
            snprintf(d->driver, sizeof(d->driver), "%s", proc);
        d->can_queue = read_num_at(hdir, "can_queue");
        d->cmd_per_lun = read_num_at(hdir, "cmd_per_lun");
        d->sg_tablesize = read_num_at(hdir, "sg_tablesize");
    }
    if (!d->driver[0])
        snprintf(d->driver, sizeof(d->driver), "%s", first_driver);

    const struct driver_info *di = d->driver[0] ? driver_lookup(d->driver) : NULL;
    if (di) {
        snprintf(d->driver, sizeof(d->driver), "%s", di->module[0] ? di->module : d->driver);
        if (strcmp(di->module, "xen_blkfront") == 0)
            snprintf(d->driver, sizeof(d->driver), "xen-blkfront");
        snprintf(d->kind, sizeof(d->kind), "%s", di->kind);
        read_params(root, di, d);
    } else if (d->scsi_host[0]) {
        snprintf(d->kind, sizeof(d->kind), "%s",
                 strcmp(d->vendor, "ATA") == 0 ? "ata" : "scsi");
    } else {
        snprintf(d->kind, sizeof(d->kind), "other");
    }
    const char *pn = iom_probe_pci_name(d->pci_vendor, d->pci_device);
    if (pn)
        snprintf(d->controller, sizeof(d->controller), "%s", pn);
    else if (di)
        snprintf(d->controller, sizeof(d->controller), "%s", di->fallback_name);
    else if (strncmp(name, "zram", 4) == 0)
        snprintf(d->controller, sizeof(d->controller), "zram (compressed RAM disk)");
    else if (strncmp(name, "ram", 3) == 0)
        snprintf(d->controller, sizeof(d->controller), "RAM disk (brd)");
}

static int walk_file(const char *root, const char *path, struct iom_probe_target *t, int depth,
                     bool top);

static void walk_dev(const char *root, const char *name, struct iom_probe_target *t, int depth)
{
    if (depth > MAX_DEPTH) {
        snprintf(t->note, sizeof(t->note), "stack deeper than %d layers; stopped", MAX_DEPTH);
        return;
    }
    char node[PATH_MAX], rel[128];
    snprintf(rel, sizeof(rel), "/sys/class/block/%s", name);
    if (real_at(root, rel, node)) {
        snprintf(t->note, sizeof(t->note), "%s is not in %s/sys/class/block", name, root);
        return;
    }
    char buf[192];
    if (exists_at(node, "partition")) {
        char parent[PATH_MAX];
        snprintf(parent, sizeof(parent), "%s", node);
        char *s = strrchr(parent, '/');
        if (s)
            *s = '\0';
        snprintf(buf, sizeof(buf), "partition %lld of %s", (long long)read_num_at(node, "partition"),
                 base_of(parent));
        add_layer(t, name, "partition", buf);
        walk_dev(root, base_of(parent), t, depth + 1);
        return;
    }
    bool is_dm = exists_at(node, "dm/name"), is_md = exists_at(node, "md/level");
    if (is_dm || is_md) {
        char nm[96] = "", extra[96] = "";
        if (is_dm) {
            read_at(node, "dm/name", nm, sizeof(nm));
            read_at(node, "dm/uuid", extra, sizeof(extra));
            char *dash = strchr(extra, '-');
            if (dash)
                *dash = '\0'; /* "LVM", "CRYPT", "mpath" */
            snprintf(buf, sizeof(buf), "device-mapper %s%s%s%s", nm, extra[0] ? " (" : "", extra,
                     extra[0] ? ")" : "");
        } else {
            read_at(node, "md/level", nm, sizeof(nm));
            snprintf(buf, sizeof(buf), "md %s", nm);
        }
        add_layer(t, name, is_dm ? "dm" : "md", buf);
        char sl[PATH_MAX];
        snprintf(sl, sizeof(sl), "%s/slaves", node);
        struct dirent **e;
        int n = list_dir(sl, &e);
        for (int i = 0; i < n; i++)
            if (e[i]->d_name[0] != '.')
                walk_dev(root, e[i]->d_name, t, depth + 1);
        if (n >= 0)
            free_list(e, n);
        return;
    }
    if (strncmp(name, "loop", 4) == 0 && isdigit((unsigned char)name[4])) {
        char back[PATH_MAX];
        if (read_at(node, "loop/backing_file", back, sizeof(back)) != 0) {
            add_layer(t, name, "loop", "not bound to a file");
            return;
        }
        add_layer(t, name, "loop", back);
        /* " (deleted)" marks a removed backing file */
        char *del = strstr(back, " (deleted)");
        if (del)
            *del = '\0';
        walk_file(root, back, t, depth + 1, false);
        return;
    }
    add_layer(t, name, "disk", NULL);
    if (t->nr_disks < IOM_PROBE_MAX_DISKS)
        fill_disk(root, name, node, &t->disks[t->nr_disks++]);
}

/* A file (or folder): its mount, then the block device under that. */
static int walk_file(const char *root, const char *path, struct iom_probe_target *t, int depth,
                     bool top)
{
    char abs[PATH_MAX];
    struct stat st;
    bool live = !root[0];
    bool have_dev = false;
    if (live) {
        if (stat(path, &st) != 0)
            return -errno;
        if (!realpath(path, abs))
            return -errno;
        have_dev = true;
    } else {
        if (path[0] != '/')
            return -EINVAL;
        snprintf(abs, sizeof(abs), "%s", path);
    }
    struct mount_hit m;
    memset(&m, 0, sizeof(m));
    int rc = find_mount(root, abs, have_dev, have_dev ? st.st_dev : 0, &m);
    if (top) {
        t->is_file = true;
        if (rc == 0) {
            snprintf(t->fstype, sizeof(t->fstype), "%s", m.fstype);
            snprintf(t->mountpoint, sizeof(t->mountpoint), "%s", m.mountpoint);
            snprintf(t->mount_source, sizeof(t->mount_source), "%s", m.source);
        }
    }
    char name[64] = "";
    if (rc == 0 && m.major != 0)
        name_of_dev(root, m.major, m.minor, name, sizeof(name));
    if (!name[0] && live && major(st.st_dev) != 0)
        name_of_dev(root, major(st.st_dev), minor(st.st_dev), name, sizeof(name));
    if (!name[0] && rc == 0 && strncmp(m.source, "/dev/", 5) == 0) {
        if (live) {
            struct stat sd;
            if (stat(m.source, &sd) == 0 && S_ISBLK(sd.st_mode))
                name_of_dev(root, major(sd.st_rdev), minor(sd.st_rdev), name, sizeof(name));
        } else {
            tree_dev_name(root, m.source, name, sizeof(name));
        }
    }
    if (!name[0]) {
        if (rc == 0)
            snprintf(t->note, sizeof(t->note), "%s is on %s (%s): no block device under it", path,
                     m.mountpoint, m.fstype);
        else
            snprintf(t->note, sizeof(t->note), "no mount found for %s", path);
        return 0;
    }
    if (top)
        snprintf(t->device, sizeof(t->device), "%s", name);
    walk_dev(root, name, t, depth + 1);
    return 0;
}

int iom_probe_target(const char *root, const char *target, struct iom_probe_target *out)
{
    memset(out, 0, sizeof(*out));
    if (strlen(target) >= sizeof(out->path))
        return -ENAMETOOLONG;
    snprintf(out->path, sizeof(out->path), "%s", target);
    char name[64] = "";
    if (!root[0]) {
        struct stat st;
        if (stat(target, &st) != 0) {
            int err = errno ? -errno : -ENOENT;
            /* a bare kernel name ("sda") */
            if (!strchr(target, '/') && block_exists(root, target))
                snprintf(name, sizeof(name), "%s", target);
            else
                return err;
        } else if (S_ISBLK(st.st_mode)) {
            name_of_dev(root, major(st.st_rdev), minor(st.st_rdev), name, sizeof(name));
            if (!name[0])
                return -ENODEV;
        } else {
            return walk_file(root, target, out, 0, true);
        }
    } else {
        bool devish = !strchr(target, '/') || strncmp(target, "/dev/", 5) == 0;
        if (devish && tree_dev_name(root, target, name, sizeof(name)) != 0) {
            if (!strchr(target, '/'))
                return -ENODEV;
            name[0] = '\0';
        }
        if (!name[0])
            return walk_file(root, target, out, 0, true);
    }
    snprintf(out->device, sizeof(out->device), "%s", name);
    walk_dev(root, name, out, 0);
    return 0;
}

static bool skip_disk(const char *n)
{
    static const char *const pre[] = {"loop", "ram", "zram", "dm-", "md", "sr", "fd", "nbd"};
    for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
        if (strncmp(n, pre[i], strlen(pre[i])) == 0)
            return true;
    return false;
}

int iom_probe_all_disks(const char *root, struct iom_probe_target **out, int *nr)
{
    *out = NULL;
    *nr = 0;
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/sys/block", root);
    struct dirent **e;
    int n = list_dir(dir, &e);
    if (n < 0)
        return -ENOENT;
    struct iom_probe_target *v = calloc(n ? (size_t)n : 1, sizeof(*v));
    if (!v) {
        free_list(e, n);
        return -ENOMEM;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *nm = e[i]->d_name;
        if (nm[0] == '.' || skip_disk(nm))
            continue;
        char node[PATH_MAX];
        snprintf(node, sizeof(node), "%s/%s", dir, nm);
        if (read_num_at(node, "size") == 0)
            continue;
        struct iom_probe_target *t = &v[k];
        memset(t, 0, sizeof(*t));
        snprintf(t->path, sizeof(t->path), "%s", nm);
        snprintf(t->device, sizeof(t->device), "%s", nm);
        walk_dev(root, nm, t, 0);
        k++;
    }
    free_list(e, n);
    *out = v;
    *nr = k;
    return 0;
}

/* ---------- hypervisor ---------- */

static bool has(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

static const char *from_dmi(const struct iom_probe_host *h)
{
    const char *v = h->dmi_sys_vendor, *p = h->dmi_product_name, *b = h->dmi_bios_vendor;
    if (has(v, "VMware") || has(p, "VMware"))
        return "VMware";
    if (has(v, "Microsoft") && has(p, "Virtual Machine"))
        return "Hyper-V";
    if (has(v, "Xen") || has(p, "HVM domU") || has(b, "Xen"))
        return "Xen";
    if (has(v, "innotek") || has(p, "VirtualBox"))
        return "VirtualBox";
    if (has(v, "Firecracker") || has(p, "Firecracker"))
        return "Firecracker";
    if (has(v, "BHYVE") || has(p, "BHYVE"))
        return "bhyve";
    if (has(v, "QEMU") || has(p, "KVM") || has(v, "Red Hat") || has(p, "OpenStack") ||
        has(v, "Google") || has(v, "Amazon EC2") || has(b, "SeaBIOS"))
        return "KVM/QEMU";
    return NULL;
}

static const char *from_cpuid(const char *sig)
{
    static const struct {
        const char *sig, *name;
    } t[] = {
        {"VMwareVMware", "VMware"}, {"KVMKVMKVM", "KVM/QEMU"},  {"TCGTCGTCGTCG", "KVM/QEMU"},
        {"Microsoft Hv", "Hyper-V"}, {"XenVMMXenVMM", "Xen"},   {"bhyve bhyve ", "bhyve"},
        {"VBoxVBoxVBox", "VirtualBox"}, {"ACRNACRNACRN", "ACRN"}, {" lrpepyh  vr", "Parallels"},
    };
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
        if (strncmp(sig, t[i].sig, strlen(t[i].sig)) == 0)
            return t[i].name;
    return NULL;
}

int iom_probe_host(const char *root, struct iom_probe_host *h)
{
    memset(h, 0, sizeof(*h));
    char dmi[PATH_MAX], p[PATH_MAX];
    snprintf(dmi, sizeof(dmi), "%s/sys/class/dmi/id", root);
    bool have_dmi = access(dmi, F_OK) == 0;
    read_at(dmi, "sys_vendor", h->dmi_sys_vendor, sizeof(h->dmi_sys_vendor));
    read_at(dmi, "product_name", h->dmi_product_name, sizeof(h->dmi_product_name));
    read_at(dmi, "bios_vendor", h->dmi_bios_vendor, sizeof(h->dmi_bios_vendor));
    snprintf(p, sizeof(p), "%s/proc/sys/kernel", root);
    read_at(p, "osrelease", h->kernel, sizeof(h->kernel));
    char xen[32] = "";
    snprintf(p, sizeof(p), "%s/sys/hypervisor", root);
    read_at(p, "type", xen, sizeof(xen));

    snprintf(p, sizeof(p), "%s/proc/cpuinfo", root);
    FILE *f = fopen(p, "r");
    if (f) {
        char line[8192];
        while (fgets(line, sizeof(line), f)) {
            if (strncmp(line, "flags", 5) != 0)
                continue;
            h->cpu_hypervisor_flag = strstr(line, " hypervisor") != NULL;
            break;
        }
        fclose(f);
    }
#if defined(__x86_64__) || defined(__i386__)
    if (!root[0]) {
        unsigned a, b, c, d;
        if (__get_cpuid(1, &a, &b, &c, &d) && (c >> 31) & 1) {
            __cpuid(0x40000000, a, b, c, d);
            memcpy(h->cpuid_signature, &b, 4);
            memcpy(h->cpuid_signature + 4, &c, 4);
            memcpy(h->cpuid_signature + 8, &d, 4);
            h->cpuid_signature[12] = '\0';
            for (int i = 0; i < 12; i++)
                if (h->cpuid_signature[i] && !isprint((unsigned char)h->cpuid_signature[i]))
                    h->cpuid_signature[i] = '?';
        }
    }
#endif
    const char *name = from_dmi(h);
    const char *cpu = h->cpuid_signature[0] ? from_cpuid(h->cpuid_signature) : NULL;
    if (name) {
        snprintf(h->evidence, sizeof(h->evidence), "DMI sys_vendor \"%s\", product \"%s\"",
                 h->dmi_sys_vendor, h->dmi_product_name);
    } else if (strcmp(xen, "xen") == 0) {
        name = "Xen";
        snprintf(h->evidence, sizeof(h->evidence), "/sys/hypervisor/type = xen");
    } else if (cpu) {
        name = cpu;
        if (!have_dmi && strcmp(cpu, "KVM/QEMU") == 0)
            name = "Firecracker";
        snprintf(h->evidence, sizeof(h->evidence), "CPUID leaf 0x40000000 \"%s\"%s",
                 h->cpuid_signature,
                 have_dmi ? "" : "; no DMI tables (a microVM such as Firecracker exposes none)");
    } else if (h->cpu_hypervisor_flag || h->cpuid_signature[0]) {
        name = "unknown";
        snprintf(h->evidence, sizeof(h->evidence), "hypervisor CPU flag set%s%s%s",
                 h->cpuid_signature[0] ? "; CPUID \"" : "", h->cpuid_signature,
                 h->cpuid_signature[0] ? "\"" : "");
    } else {
        name = "none";
        snprintf(h->evidence, sizeof(h->evidence), "no hypervisor CPU flag%s%s%s",
                 have_dmi ? "; DMI vendor \"" : "", have_dmi ? h->dmi_sys_vendor : "",
                 have_dmi ? "\"" : "");
    }
    snprintf(h->hypervisor, sizeof(h->hypervisor), "%s", name);
    return 0;
}
