/*
 * probe.h - which controller, driver and queue limits sit behind a file or
 * block device, read from sysfs and procfs (no root needed, nothing written).
 *
 * iom_probe_target() follows a target down the storage stack: a file to its
 * mount and filesystem, the filesystem's block device through partitions,
 * device-mapper, md and loop (to the loop's backing file and again down) to
 * the disks at the bottom, and for each disk its controller: driver, PCI
 * vendor:device and name, adapter queue (scsi_host can_queue), LUN queue
 * (device/queue_depth), nr_requests, hardware queues, I/O size limits, block
 * sizes, scheduler, write cache and the driver's module parameters.
 * iom_probe_host() names the hypervisor from DMI and CPUID.
 *
 * Every sysfs/procfs path is read under a root: "" for the running system,
 * or a folder holding a captured tree (DIR/sys/..., DIR/proc/...), so tests
 * run on trees captured from other machines. Sources of the facts used here
 * and in advice.c: the Linux drivers named there, VMware KB 2053145, the
 * kernel's Documentation/ABI/stable/sysfs-block.
 *
 * Identification only: the structs below are plain data (no pointers, one
 * free() releases them); printing lives in src/report/probe_*.c.
 */
#ifndef IOMARK_PROBE_PROBE_H
#define IOMARK_PROBE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define IOM_PROBE_MAX_LAYERS 8
#define IOM_PROBE_MAX_DISKS 8
#define IOM_PROBE_MAX_PARAMS 12
#define IOM_PROBE_MAX_ADVICE 8
#define IOM_PROBE_ROOT_ENV "IOMARK_SYSFS_ROOT"

/* One driver module parameter (/sys/module/<mod>/parameters/<name>). */
struct iom_probe_param {
    char module[24];
    char name[40];
    char value[40];
};

/* One disk at the bottom of the stack and the controller it hangs on.
 * Numeric fields are -1 when sysfs does not show them. */
struct iom_probe_disk {
    char name[32];               /* kernel name: "sda", "nvme0n1", "vda" */
    char dev[16];                /* "8:0" */
    char driver[32];             /* controller driver: "vmw_pvscsi", "nvme", "virtio_blk" */
    char controller[64];         /* human name: "VMware PVSCSI", or "" when unknown */
    char kind[16];               /* "scsi", "ata", "nvme", "virtio", "xen", "vmbus", "other" */
    char pci_slot[16];           /* "0000:00:01.0" or "" */
    int pci_vendor, pci_device;  /* -1 when not on PCI */
    char scsi_host[16];          /* "host0" or "" */
    char vendor[32], model[64];  /* device/vendor, device/model (trimmed) */
    int64_t can_queue;           /* scsi_host: adapter queue */
    int64_t cmd_per_lun;         /* scsi_host: default LUN queue */
    int64_t sg_tablesize;        /* scsi_host: scatter-gather entries */
    int64_t queue_depth;         /* device/queue_depth: LUN queue */
    int64_t nr_requests;         /* queue/nr_requests (per hardware queue) */
    int64_t nr_hw_queues;        /* folders under mq/ */
    int64_t max_sectors_kb, max_hw_sectors_kb, max_segments;
    int64_t logical_block_bytes, physical_block_bytes;
    int64_t rotational;          /* 1 spinning (or unknown to the guest), 0 flash */
    int64_t size_bytes;          /* size (512-byte sectors x 512) */
    char scheduler[32];          /* the active one, from "[mq-deadline] none" */
    char schedulers[96];         /* the whole list as sysfs shows it */
    char write_cache[24];        /* "write back", "write through" or "" */
    int nr_params;
    struct iom_probe_param params[IOM_PROBE_MAX_PARAMS];
};

/* One layer between the target and its disks, top first. */
struct iom_probe_layer {
    char name[32];               /* "vda1", "dm-0", "md0", "loop3" */
    char kind[16];               /* "partition", "dm", "md", "loop", "disk", "other" */
    char detail[192];            /* dm name, md level, loop backing file, partition's disk */
};

struct iom_probe_target {
    char path[256];              /* as given */
    bool is_file;                /* false: a block device */
    bool is_dir;                 /* is_file and a directory (a folder to run in) */
    char fstype[32];             /* file: the filesystem holding it */
    char mountpoint[192];
    char mount_source[128];
    char device[32];             /* the block device right under the target, "" if none */
    char note[192];              /* why the walk stopped early ("tmpfs: no block device") */
    char hypervisor[32];         /* "" from iom_probe_target; the run path copies
                                  * iom_probe_host's name here for its advice */
    int nr_layers;
    struct iom_probe_layer layers[IOM_PROBE_MAX_LAYERS];
    int nr_disks;
    struct iom_probe_disk disks[IOM_PROBE_MAX_DISKS];
};

struct iom_probe_host {
    char hypervisor[32];         /* "VMware", "KVM/QEMU", "Hyper-V", "Xen", "Firecracker",
                                  * "bhyve", "VirtualBox", "none", "unknown" */
    char evidence[192];          /* which facts decided it */
    char dmi_sys_vendor[64], dmi_product_name[64], dmi_bios_vendor[64];
    char cpuid_signature[16];    /* leaf 0x40000000 vendor string, "" if not read */
    bool cpu_hypervisor_flag;    /* "hypervisor" in /proc/cpuinfo flags */
    char kernel[64];             /* /proc/sys/kernel/osrelease */
};

/* One advice line and where its facts come from. */
struct iom_probe_advice {
    char disk[32];               /* the disk it is about, "" when about several */
    char text[480];
    char source[160];
};

struct iom_probe_advice_list {
    int nr;
    struct iom_probe_advice a[IOM_PROBE_MAX_ADVICE];
};

/*
 * The sysfs/procfs root to use: `opt` when not NULL, else the environment
 * variable IOMARK_SYSFS_ROOT when set, else "" (the running system). The
 * returned string is borrowed (from opt or the environment); never NULL.
 * A trailing "/" is harmless: paths are built as ROOT + "/sys/...".
 */
const char *iom_probe_root(const char *opt);

/*
 * Probe one target under `root` ("" = live system). `target` is a file or
 * folder path, a block device path ("/dev/sda"), or a bare kernel name
 * ("sda", "nvme0n1"). With a captured root, /dev/X and X name the device
 * X of the tree, and a file path is matched against the tree's
 * proc/self/mountinfo by the longest mount point (no stat of the path).
 * Fills *out (zeroed first). Returns 0 when the target was found (even when
 * the walk stops early: see out->note), -ENOENT when it does not exist,
 * -ENODEV when a block device name is not in sysfs, -ENAMETOOLONG, or
 * another -errno.
 */
int iom_probe_target(const char *root, const char *target, struct iom_probe_target *out);

/*
 * Probe every whole disk under root/sys/block, skipping loop, ram, zram and
 * dm/md devices without a backing device, one iom_probe_target per disk
 * (path = the kernel name). *out is a malloc'ed array the caller frees;
 * *nr its length (0 is possible). Returns 0, -ENOENT when root/sys/block is
 * missing, or -ENOMEM.
 */
int iom_probe_all_disks(const char *root, struct iom_probe_target **out, int *nr);

/*
 * Name the hypervisor. DMI (root/sys/class/dmi/id/{sys_vendor,product_name,
 * bios_vendor}) decides first; then, for the live system only (root ""),
 * the CPUID hypervisor leaf 0x40000000 signature ("VMwareVMware",
 * "KVMKVMKVM", "Microsoft Hv", "XenVMMXenVMM", "TCGTCGTCGTCG", "bhyve bhyve ",
 * "VBoxVBoxVBox"); a KVM guest without DMI tables is reported as
 * Firecracker (a microVM that exposes no SMBIOS). The cpuinfo "hypervisor"
 * flag alone gives "unknown"; no flag and no DMI hint gives "none".
 * Always fills *out; returns 0.
 */
int iom_probe_host(const char *root, struct iom_probe_host *out);

/*
 * Human name of a PCI storage controller from a built-in table (QEMU,
 * VMware, Hyper-V, Xen, VirtualBox devices and common LSI/Intel ones), or
 * NULL when the pair is not in the table.
 */
const char *iom_probe_pci_name(int vendor, int device);

/*
 * The queue a disk's I/O meets first: the LUN queue (queue_depth) for SCSI
 * and ATA disks, else nr_requests per hardware queue. -1 when unknown.
 */
int64_t iom_probe_lun_limit(const struct iom_probe_disk *d);

/* --- advice.c --- */

/*
 * Advice about one probed target's disks: PVSCSI below 32 ring pages (how
 * to reach adapter 1024 / LUN 254 on Linux and Windows, VMware KB 2053145);
 * LSI SAS, LSI parallel (53C1030, 53C895A), SATA and IDE controllers (the
 * queue limits that bind and the controller to move data disks to, chosen
 * by `host`'s hypervisor; host may be NULL). Appends to *list (up to
 * IOM_PROBE_MAX_ADVICE entries, extra advice is dropped). Facts and
 * sources: VMware KB 2053145 and the Linux guest drivers (advice.c).
 */
void iom_probe_advise(const struct iom_probe_target *t, const struct iom_probe_host *host,
                      struct iom_probe_advice_list *list);

/*
 * Advice when the disks of the targets compared use different I/O
 * schedulers (Linux block/elevator.c: SCSI/ATA default to mq-deadline, NVMe and
 * virtio to none; set them alike for a fair comparison). Appends one line
 * to *list when they differ. Returns 1 when they differ, else 0.
 */
int iom_probe_advise_schedulers(const struct iom_probe_target *t, int nr,
                                struct iom_probe_advice_list *list);

/*
 * Would `outstanding` concurrent I/Os (a run's iodepth x numjobs on one
 * target) exceed the queue limit of disk d? Returns 1 and writes one advice
 * line (text and source) to *a when the LUN queue (iom_probe_lun_limit) or
 * the adapter queue (can_queue) is below `outstanding`, else 0 (a untouched).
 * Little's law (outstanding = IOPS x latency; Little, 1961): the excess
 * waits in the guest and adds to measured latency.
 */
int iom_probe_advise_depth(const struct iom_probe_disk *d, uint64_t outstanding,
                           struct iom_probe_advice *a);

#endif
