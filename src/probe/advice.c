/* advice.c - advice lines from probed controllers and their queue limits.
 * Sources (each advice line carries its own): VMware KB 2053145 (PVSCSI and
 * LSI Logic SAS queue depths, Windows and Linux tuning); the Linux drivers
 * that set the guest's limits (drivers/scsi/vmw_pvscsi.c,
 * drivers/message/fusion/mptsas.c, drivers/scsi/sym53c8xx_2, libata);
 * block/elevator.c for default schedulers; Little's law for queueing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

#define SRC_PVSCSI "VMware KB 2053145; Linux drivers/scsi/vmw_pvscsi.c (ring_pages, cmd_per_lun)"
#define SRC_MOVE                                                                              \
    "Linux drivers/message/fusion (mptsas), drivers/scsi/sym53c8xx_2, libata (queue limits); " \
    "VMware KB 2053145 (LSI Logic SAS 128/32, PVSCSI queues)"
#define SRC_SCHED                                                                             \
    "Linux block/elevator.c (mq-deadline by default on single-queue devices, none on "          \
    "multi-queue); Documentation/block/switching-sched.rst"
#define SRC_LITTLE                                                                            \
    "Little's law (J. D. C. Little, Operations Research 9(3), 1961); Linux "                     \
    "Documentation/block/queue-sysfs.rst (nr_requests)"

static struct iom_probe_advice *add(struct iom_probe_advice_list *l, const char *disk)
{
    if (l->nr >= IOM_PROBE_MAX_ADVICE)
        return NULL;
    struct iom_probe_advice *a = &l->a[l->nr++];
    memset(a, 0, sizeof(*a));
    snprintf(a->disk, sizeof(a->disk), "%s", disk ? disk : "");
    return a;
}

static const char *param(const struct iom_probe_disk *d, const char *name)
{
    for (int i = 0; i < d->nr_params; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return d->params[i].value;
    return NULL;
}

/* Where data disks should go, by hypervisor: the paravirtual controller each
 * hypervisor ships (VMware PVSCSI/vNVMe, KVM virtio, Hyper-V storvsc, Xen
 * blkfront), with the queue figures of VMware KB 2053145 and QEMU's defaults. */
static const char *move_to(const struct iom_probe_host *h)
{
    const char *hv = h ? h->hypervisor : "";
    if (strcmp(hv, "VMware") == 0)
        return "PVSCSI (adapter 256 / LUN 64 by default, 1024 / 254 tuned) or vNVMe";
    if (strcmp(hv, "KVM/QEMU") == 0 || strcmp(hv, "Firecracker") == 0)
        return "virtio-scsi (QEMU: adapter 256 / LUN 128) or virtio-blk (one queue per vCPU)";
    if (strcmp(hv, "Hyper-V") == 0)
        return "the Hyper-V synthetic SCSI controller (storvsc)";
    if (strcmp(hv, "Xen") == 0)
        return "Xen PV block (xen-blkfront)";
    return "a paravirtual controller (PVSCSI on VMware, virtio-scsi or virtio-blk on KVM/QEMU)";
}

static void fmt_limit(int64_t v, char *buf, size_t len)
{
    if (v < 0)
        snprintf(buf, len, "?");
    else
        snprintf(buf, len, "%lld", (long long)v);
}

static void advise_disk(const struct iom_probe_disk *d, const struct iom_probe_host *h,
                        struct iom_probe_advice_list *l)
{
    char cq[24], qd[24];
    fmt_limit(d->can_queue, cq, sizeof(cq));
    fmt_limit(iom_probe_lun_limit(d), qd, sizeof(qd));
    struct iom_probe_advice *a;

    if (strcmp(d->driver, "vmw_pvscsi") == 0) {
        const char *rp = param(d, "ring_pages");
        long pages = rp ? strtol(rp, NULL, 10) : 0;
        if (pages <= 0 && d->can_queue > 0)
            pages = (long)(d->can_queue / 32); /* 32 requests per ring page */
        if ((pages > 0 && pages < 32) || (d->queue_depth > 0 && d->queue_depth < 254)) {
            if (!(a = add(l, d->name)))
                return;
            snprintf(a->text, sizeof(a->text),
                     "%s: PVSCSI with %ld ring pages gives adapter queue %s, LUN queue %s; for "
                     "1024 / 254 on Linux boot with vmw_pvscsi.ring_pages=32 "
                     "vmw_pvscsi.cmd_per_lun=254 (or the same in /etc/modprobe.d + initramfs); "
                     "on Windows set HKLM\\SYSTEM\\CurrentControlSet\\services\\pvscsi\\"
                     "Parameters\\Device DriverParameter=\"RequestRingPages=32,MaxQueueDepth=254\""
                     " and reboot",
                     d->name, pages, cq, qd);
            snprintf(a->source, sizeof(a->source), "%s", SRC_PVSCSI);
        }
        return;
    }
    const char *what = NULL, *extra = "";
    if (strcmp(d->driver, "mptsas") == 0) {
        what = "LSI Logic SAS (mptsas)";
        extra = "; on Windows this controller gives 128 / 32, not tunable";
    } else if (strcmp(d->driver, "mptspi") == 0) {
        what = "LSI Logic Parallel (mptspi)";
    } else if (strcmp(d->driver, "sym53c8xx") == 0) {
        what = "LSI 53C8xx parallel SCSI (sym53c8xx)";
        extra = "; under QEMU its throughput collapses with concurrency";
    } else if (strcmp(d->kind, "ata") == 0 && (strcmp(d->driver, "ahci") == 0 ||
                                               d->can_queue > 1 || d->queue_depth > 1)) {
        what = "SATA (AHCI, NCQ)";
    } else if (strcmp(d->kind, "ata") == 0) {
        what = "IDE (PATA)";
        extra = "; one I/O at a time";
    }
    if (!what || !(a = add(l, d->name)))
        return;
    snprintf(a->text, sizeof(a->text),
             "%s: %s: adapter queue %s, LUN queue %s bind: at most %s I/Os reach this disk, "
             "the rest wait in the guest%s; move data disks to %s",
             d->name, what, cq, qd, qd, extra, move_to(h));
    snprintf(a->source, sizeof(a->source), "%s", SRC_MOVE);
}

void iom_probe_advise(const struct iom_probe_target *t, const struct iom_probe_host *host,
                      struct iom_probe_advice_list *list)
{
    for (int i = 0; i < t->nr_disks; i++)
        advise_disk(&t->disks[i], host, list);
}

int iom_probe_advise_schedulers(const struct iom_probe_target *t, int nr,
                                struct iom_probe_advice_list *list)
{
    const struct iom_probe_disk *first = NULL;
    bool differ = false;
    for (int i = 0; i < nr; i++)
        for (int k = 0; k < t[i].nr_disks; k++) {
            const struct iom_probe_disk *d = &t[i].disks[k];
            if (!d->scheduler[0])
                continue;
            if (!first)
                first = d;
            else if (strcmp(first->scheduler, d->scheduler) != 0)
                differ = true;
        }
    if (!differ)
        return 0;
    struct iom_probe_advice *a = add(list, NULL);
    if (!a)
        return 1;
    size_t n = (size_t)snprintf(a->text, sizeof(a->text), "I/O schedulers differ:");
    for (int i = 0; i < nr; i++)
        for (int k = 0; k < t[i].nr_disks && n < sizeof(a->text); k++)
            n += (size_t)snprintf(a->text + n, sizeof(a->text) - n, " %s %s,",
                                  t[i].disks[k].name,
                                  t[i].disks[k].scheduler[0] ? t[i].disks[k].scheduler : "?");
    if (n < sizeof(a->text))
        snprintf(a->text + n - 1, sizeof(a->text) - n + 1,
                 "; set them alike before comparing (echo none > /sys/block/DISK/queue/scheduler)");
    snprintf(a->source, sizeof(a->source), "%s", SRC_SCHED);
    return 1;
}

int iom_probe_advise_depth(const struct iom_probe_disk *d, uint64_t outstanding,
                           struct iom_probe_advice *a)
{
    int64_t lun = iom_probe_lun_limit(d);
    int64_t cap = lun;
    const char *which = d->queue_depth > 0 ? "LUN queue (device/queue_depth)"
                                           : "request queue (queue/nr_requests)";
    if (d->can_queue > 0 && (cap < 0 || d->can_queue < cap)) {
        cap = d->can_queue;
        which = "adapter queue (can_queue)";
    }
    if (cap <= 0 || outstanding <= (uint64_t)cap)
        return 0;
    memset(a, 0, sizeof(*a));
    snprintf(a->disk, sizeof(a->disk), "%s", d->name);
    snprintf(a->text, sizeof(a->text),
             "%s: %llu outstanding I/Os asked for (iodepth x numjobs), but its %s is %lld: "
             "%llu wait in the guest, so measured latency = wait + device service time",
             d->name, (unsigned long long)outstanding, which, (long long)cap,
             (unsigned long long)(outstanding - (uint64_t)cap));
    snprintf(a->source, sizeof(a->source), "%s", SRC_LITTLE);
    return 1;
}
