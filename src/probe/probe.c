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

#include "probe/drivers.h"
#include "probe/probe_win.h"
#include "probe/sysfs.h"

#define MAX_DEPTH 8

const char *iom_probe_root(const char *opt)
{
    if (opt)
        return opt;
    const char *e = getenv(IOM_PROBE_ROOT_ENV);
    return e ? e : "";
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
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '7' && r[2] >= '0' && r[2] <= '7' &&
            r[3] >= '0' && r[3] <= '7') {
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
        snprintf(out, len, "%s", iom_pf_base_of(rp));
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
    int n = iom_pf_list_dir(dir, &e);
    int rc = -ENODEV;
    for (int i = 0; i < n; i++) {
        if (rc == 0 || strncmp(e[i]->d_name, "dm-", 3) != 0)
            continue;
        char d[PATH_MAX], nm[128];
        snprintf(d, sizeof(d), "%s/%s", dir, e[i]->d_name);
        if (iom_pf_read_at(d, "dm/name", nm, sizeof(nm)) == 0 && strcmp(nm, dmname) == 0) {
            snprintf(out, len, "%s", e[i]->d_name);
            rc = 0;
        }
    }
    if (n >= 0)
        iom_pf_free_list(e, n);
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

static void read_params(const char *root, const struct iom_probe_driver_info *di,
                        struct iom_probe_disk *d)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/sys/module/%s/parameters", root, di->module);
    for (int i = 0; di->params[i] && d->nr_params < IOM_PROBE_MAX_PARAMS; i++) {
        char v[64];
        if (iom_pf_read_at(dir, di->params[i], v, sizeof(v)))
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
    iom_pf_read_at(node, "dev", d->dev, sizeof(d->dev));
    int64_t sectors = iom_pf_read_num_at(node, "size");
    d->size_bytes = sectors >= 0 ? sectors * 512 : -1;
    d->nr_requests = iom_pf_read_num_at(node, "queue/nr_requests");
    d->max_sectors_kb = iom_pf_read_num_at(node, "queue/max_sectors_kb");
    d->max_hw_sectors_kb = iom_pf_read_num_at(node, "queue/max_hw_sectors_kb");
    d->max_segments = iom_pf_read_num_at(node, "queue/max_segments");
    d->logical_block_bytes = iom_pf_read_num_at(node, "queue/logical_block_size");
    d->physical_block_bytes = iom_pf_read_num_at(node, "queue/physical_block_size");
    d->rotational = iom_pf_read_num_at(node, "queue/rotational");
    iom_pf_read_at(node, "queue/write_cache", d->write_cache, sizeof(d->write_cache));
    if (iom_pf_read_at(node, "queue/scheduler", d->schedulers, sizeof(d->schedulers)) == 0) {
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
    int n = iom_pf_list_dir(mq, &e);
    d->nr_hw_queues = n >= 0 ? 0 : -1;
    for (int i = 0; i < n; i++)
        if (isdigit((unsigned char)e[i]->d_name[0]))
            d->nr_hw_queues++;
    if (n >= 0)
        iom_pf_free_list(e, n);
    d->queue_depth = iom_pf_read_num_at(node, "device/queue_depth");
    iom_pf_read_at(node, "device/vendor", d->vendor, sizeof(d->vendor));
    iom_pf_read_at(node, "device/model", d->model, sizeof(d->model));
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
            const char *b = iom_pf_base_of(cur);
            if (!d->scsi_host[0] && strncmp(b, "host", 4) == 0 && isdigit((unsigned char)b[4]))
                snprintf(d->scsi_host, sizeof(d->scsi_host), "%s", b);
            if (!first_driver[0]) {
                char drv[32];
                iom_pf_link_base_at(cur, "driver", drv, sizeof(drv));
                if (drv[0] && strcmp(drv, "sd") != 0 && strcmp(drv, "sr") != 0)
                    snprintf(first_driver, sizeof(first_driver), "%s", drv);
            }
            if (!d->pci_slot[0] && is_pci_addr(b)) {
                snprintf(d->pci_slot, sizeof(d->pci_slot), "%s", b);
                int64_t v = iom_pf_read_num_at(cur, "vendor"),
                        dv = iom_pf_read_num_at(cur, "device");
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
        if (iom_pf_read_at(hdir, "proc_name", proc, sizeof(proc)) == 0 && proc[0])
            snprintf(d->driver, sizeof(d->driver), "%s", proc);
        d->can_queue = iom_pf_read_num_at(hdir, "can_queue");
        d->cmd_per_lun = iom_pf_read_num_at(hdir, "cmd_per_lun");
        d->sg_tablesize = iom_pf_read_num_at(hdir, "sg_tablesize");
    }
    if (!d->driver[0])
        snprintf(d->driver, sizeof(d->driver), "%s", first_driver);

    const struct iom_probe_driver_info *di =
        d->driver[0] ? iom_probe_driver_lookup(d->driver) : NULL;
    if (di) {
        snprintf(d->driver, sizeof(d->driver), "%s", di->module[0] ? di->module : d->driver);
        if (strcmp(di->module, "xen_blkfront") == 0)
            snprintf(d->driver, sizeof(d->driver), "xen-blkfront");
        snprintf(d->kind, sizeof(d->kind), "%s", di->kind);
        read_params(root, di, d);
    } else if (d->scsi_host[0]) {
        snprintf(d->kind, sizeof(d->kind), "%s", strcmp(d->vendor, "ATA") == 0 ? "ata" : "scsi");
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
    if (iom_pf_exists_at(node, "partition")) {
        char parent[PATH_MAX];
        snprintf(parent, sizeof(parent), "%s", node);
        char *s = strrchr(parent, '/');
        if (s)
            *s = '\0';
        snprintf(buf, sizeof(buf), "partition %lld of %s",
                 (long long)iom_pf_read_num_at(node, "partition"), iom_pf_base_of(parent));
        add_layer(t, name, "partition", buf);
        walk_dev(root, iom_pf_base_of(parent), t, depth + 1);
        return;
    }
    bool is_dm = iom_pf_exists_at(node, "dm/name"), is_md = iom_pf_exists_at(node, "md/level");
    if (is_dm || is_md) {
        char nm[96] = "", extra[96] = "";
        if (is_dm) {
            iom_pf_read_at(node, "dm/name", nm, sizeof(nm));
            iom_pf_read_at(node, "dm/uuid", extra, sizeof(extra));
            char *dash = strchr(extra, '-');
            if (dash)
                *dash = '\0'; /* "LVM", "CRYPT", "mpath" */
            snprintf(buf, sizeof(buf), "device-mapper %s%s%s%s", nm, extra[0] ? " (" : "", extra,
                     extra[0] ? ")" : "");
        } else {
            iom_pf_read_at(node, "md/level", nm, sizeof(nm));
            snprintf(buf, sizeof(buf), "md %s", nm);
        }
        add_layer(t, name, is_dm ? "dm" : "md", buf);
        char sl[PATH_MAX];
        snprintf(sl, sizeof(sl), "%s/slaves", node);
        struct dirent **e;
        int n = iom_pf_list_dir(sl, &e);
        for (int i = 0; i < n; i++)
            if (e[i]->d_name[0] != '.')
                walk_dev(root, e[i]->d_name, t, depth + 1);
        if (n >= 0)
            iom_pf_free_list(e, n);
        return;
    }
    if (strncmp(name, "loop", 4) == 0 && isdigit((unsigned char)name[4])) {
        char back[PATH_MAX];
        if (iom_pf_read_at(node, "loop/backing_file", back, sizeof(back)) != 0) {
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
        t->is_dir = live && S_ISDIR(st.st_mode);
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
#ifdef _WIN32 /* the live system: storage IOCTLs, not sysfs */
    if (!root[0])
        return iom_probe_target_win(target, out);
#endif
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
#ifdef _WIN32
    if (!root[0])
        return iom_probe_all_disks_win(out, nr);
#endif
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/sys/block", root);
    struct dirent **e;
    int n = iom_pf_list_dir(dir, &e);
    if (n < 0)
        return -ENOENT;
    struct iom_probe_target *v = calloc(n ? (size_t)n : 1, sizeof(*v));
    if (!v) {
        iom_pf_free_list(e, n);
        return -ENOMEM;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        const char *nm = e[i]->d_name;
        if (nm[0] == '.' || skip_disk(nm))
            continue;
        char node[PATH_MAX];
        snprintf(node, sizeof(node), "%s/%s", dir, nm);
        if (iom_pf_read_num_at(node, "size") == 0)
            continue;
        struct iom_probe_target *t = &v[k];
        memset(t, 0, sizeof(*t));
        snprintf(t->path, sizeof(t->path), "%s", nm);
        snprintf(t->device, sizeof(t->device), "%s", nm);
        walk_dev(root, nm, t, 0);
        k++;
    }
    iom_pf_free_list(e, n);
    *out = v;
    *nr = k;
    return 0;
}
