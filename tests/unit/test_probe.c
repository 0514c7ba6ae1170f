/* test_probe.c - probe the captured sysfs trees in tests/data/sysfs/ and
 * compare with values typed by hand from tests/data/lab-guest-logs/
 * (LAB sysfs / LAB scsi_host lines) and QEMU's PCI ids (see the README
 * there). Exit 0 pass, 1 fail. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe.h"
#include "report/probe_report.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

static char data_dir[PATH_MAX];

static void tree(const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", data_dir, name);
}

struct expect {
    const char *tree, *target, *disk;
    const char *driver, *controller_substr;
    int vendor, device;
    const char *slot;
    long can_queue, cmd_per_lun, queue_depth, nr_requests, nr_hw_queues;
    long max_sectors_kb, max_hw_sectors_kb, max_segments;
    const char *scheduler;
    long rotational;
    const char *advice_substr;   /* NULL: no advice expected */
    const char *log;             /* where the numbers come from */
};

/* Typed by hand from the lab logs (LAB sysfs and LAB scsi_host lines). */
static const struct expect cases[] = {
    {"pvscsi", "sda", "sda", "vmw_pvscsi", "VMware PVSCSI", 0x15ad, 0x07c0, "0000:00:01.0",
     256, 254, 254, 256, 1, 1280, 32767, 128, "mq-deadline", 1,
     "vmw_pvscsi.ring_pages=32", "pvscsi.log"},
    {"lsisas", "/dev/sda", "sda", "mptsas", "SAS1068", 0x1000, 0x0054, "0000:00:01.0",
     118, 7, 64, 236, 1, 1280, 4096, 128, "mq-deadline", 1,
     "adapter queue 118, LUN queue 64 bind", "mptsas1068.log"},
    {"megasas", "sda", "sda", "megaraid_sas", "MegaRAID", 0x1000, 0x0060, "0000:00:01.0",
     967, 256, 256, 256, 1, 128, 128, 80, "mq-deadline", 1, NULL, "megasas.log"},
    {"lsi53c895a", "sda", "sda", "sym53c8xx", "53C895A", 0x1000, 0x0012, "0000:00:01.0",
     446, 64, 16, 256, 1, 1280, 32767, 96, "mq-deadline", 1,
     "adapter queue 446, LUN queue 16 bind", "lsi53c895a.log"},
    {"nvme", "nvme0n1", "nvme0n1", "nvme", "NVMe", 0x1b36, 0x0010, "0000:00:01.0",
     -1, -1, -1, 1023, 2, 512, 512, 127, "none", 0, NULL, "nvme.log"},
    {"ahci", "sda", "sda", "ahci", "AHCI", 0x8086, 0x2922, "0000:00:1f.2",
     32, 0, 32, 64, 1, 128, 128, 168, "mq-deadline", 1,
     "SATA (AHCI, NCQ): adapter queue 32, LUN queue 32 bind", "ahci-q35.log"},
    {"ata_piix", "sda", "sda", "ata_piix", "PIIX3 IDE", 0x8086, 0x7010, "0000:00:01.1",
     1, 0, 1, 2, 1, 1280, 32767, 128, "mq-deadline", 1,
     "IDE (PATA): adapter queue 1, LUN queue 1 bind", "ide-piix-pc.log"},
    {"virtio_blk", "vda", "vda", "virtio_blk", "virtio-blk", 0x1af4, 0x1001, "0000:00:01.0",
     -1, -1, -1, 256, 2, 1280, 2147483647, 254, "none", 1, NULL, "virtio-blk.log"},
    {"virtio_scsi", "sda", "sda", "virtio_scsi", "virtio-scsi", 0x1af4, 0x1004, "0000:00:01.0",
     256, 128, 128, 256, 2, 1280, 32767, 254, "none", 1, NULL, "virtio-scsi.log"},
};

static void check_case(const struct expect *e)
{
    char root[PATH_MAX];
    tree(e->tree, root, sizeof(root));
    struct iom_probe_target *t = calloc(1, sizeof(*t));
    int rc = iom_probe_target(root, e->target, t);
    CHECK(rc == 0, "%s: probe %s returned %d", e->tree, e->target, rc);
    if (rc) {
        free(t);
        return;
    }
    CHECK(t->nr_disks == 1, "%s: %d disks", e->tree, t->nr_disks);
    const struct iom_probe_disk *d = &t->disks[0];
    CHECK(strcmp(d->name, e->disk) == 0, "%s: disk %s", e->tree, d->name);
    CHECK(strcmp(d->driver, e->driver) == 0, "%s: driver %s, want %s", e->tree, d->driver,
          e->driver);
    CHECK(strstr(d->controller, e->controller_substr) != NULL, "%s: controller '%s' lacks '%s'",
          e->tree, d->controller, e->controller_substr);
    CHECK(d->pci_vendor == e->vendor && d->pci_device == e->device, "%s: pci %04x:%04x", e->tree,
          d->pci_vendor, d->pci_device);
    CHECK(strcmp(d->pci_slot, e->slot) == 0, "%s: slot %s", e->tree, d->pci_slot);
#define NUM(field, want)                                                                           \
    CHECK(d->field == (want), "%s: " #field " %lld, want %ld (%s)", e->tree, (long long)d->field,   \
          (long)(want), e->log)
    NUM(can_queue, e->can_queue);
    NUM(cmd_per_lun, e->cmd_per_lun);
    NUM(queue_depth, e->queue_depth);
    NUM(nr_requests, e->nr_requests);
    NUM(nr_hw_queues, e->nr_hw_queues);
    NUM(max_sectors_kb, e->max_sectors_kb);
    NUM(max_hw_sectors_kb, e->max_hw_sectors_kb);
    NUM(max_segments, e->max_segments);
    NUM(rotational, e->rotational);
    NUM(size_bytes, 524288L * 512);
    CHECK(strcmp(d->scheduler, e->scheduler) == 0, "%s: scheduler %s", e->tree, d->scheduler);
    /* the queue a disk's I/O meets first */
    long lun = e->queue_depth > 0 ? e->queue_depth : e->nr_requests;
    CHECK(iom_probe_lun_limit(d) == lun, "%s: lun limit %lld, want %ld", e->tree,
          (long long)iom_probe_lun_limit(d), lun);

    struct iom_probe_host h;
    iom_probe_host(root, &h);
    CHECK(strcmp(h.hypervisor, "KVM/QEMU") == 0, "%s: hypervisor %s", e->tree, h.hypervisor);
    struct iom_probe_advice_list adv = {0};
    iom_probe_advise(t, &h, &adv);
    if (e->advice_substr) {
        CHECK(adv.nr == 1, "%s: %d advice lines, want 1", e->tree, adv.nr);
        if (adv.nr) {
            CHECK(strstr(adv.a[0].text, e->advice_substr) != NULL, "%s: advice '%s' lacks '%s'",
                  e->tree, adv.a[0].text, e->advice_substr);
            CHECK(strstr(adv.a[0].source, "Linux drivers") != NULL, "%s: advice source '%s'", e->tree,
                  adv.a[0].source);
        }
    } else {
        CHECK(adv.nr == 0, "%s: unexpected advice '%s'", e->tree, adv.nr ? adv.a[0].text : "");
    }

    /* the JSON object carries the same numbers */
    cJSON *j = iom_probe_json_target(t);
    cJSON *dj = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "disks"), 0);
    cJSON *lq = cJSON_GetObjectItem(dj, "lun_queue");
    if (e->queue_depth < 0)
        CHECK(cJSON_IsNull(lq), "%s: json lun_queue not null", e->tree);
    else
        CHECK(cJSON_IsNumber(lq) && lq->valuedouble == e->queue_depth, "%s: json lun_queue",
              e->tree);
    cJSON *drv = cJSON_GetObjectItem(dj, "driver");
    CHECK(cJSON_IsString(drv) && strcmp(drv->valuestring, e->driver) == 0, "%s: json driver",
          e->tree);
    cJSON_Delete(j);
    free(t);
}

static void check_stacks(void)
{
    char root[PATH_MAX];
    struct iom_probe_target *t = calloc(1, sizeof(*t));
    /* file on LVM on a partition of a virtio disk (synthetic stack, see README) */
    tree("virtio_blk", root, sizeof(root));
    CHECK(iom_probe_target(root, "/data/test.dat", t) == 0, "probe /data/test.dat");
    CHECK(t->is_file && strcmp(t->fstype, "ext4") == 0 && strcmp(t->mountpoint, "/data") == 0,
          "file on ext4 /data: %s %s", t->fstype, t->mountpoint);
    CHECK(strcmp(t->device, "dm-0") == 0, "device %s", t->device);
    CHECK(t->nr_layers == 3, "layers %d", t->nr_layers);
    if (t->nr_layers == 3) {
        CHECK(strcmp(t->layers[0].kind, "dm") == 0 && strstr(t->layers[0].detail, "vg0-data") &&
                  strstr(t->layers[0].detail, "LVM"),
              "layer 0 %s %s", t->layers[0].kind, t->layers[0].detail);
        CHECK(strcmp(t->layers[1].name, "vda1") == 0 && strcmp(t->layers[1].kind, "partition") == 0,
              "layer 1 %s", t->layers[1].name);
        CHECK(strcmp(t->layers[2].name, "vda") == 0 && strcmp(t->layers[2].kind, "disk") == 0,
              "layer 2 %s", t->layers[2].name);
    }
    CHECK(t->nr_disks == 1 && strcmp(t->disks[0].driver, "virtio_blk") == 0, "disk under dm");
    /* /dev/mapper name resolves to the dm device */
    CHECK(iom_probe_target(root, "/dev/mapper/vg0-data", t) == 0 && strcmp(t->device, "dm-0") == 0,
          "mapper name -> %s", t->device);
    /* a mount point with an escaped space, on tmpfs: no block device */
    CHECK(iom_probe_target(root, "/data/scratch space/f", t) == 0, "tmpfs file");
    CHECK(strcmp(t->fstype, "tmpfs") == 0 && t->nr_disks == 0 && t->note[0] &&
              strcmp(t->mountpoint, "/data/scratch space") == 0,
          "tmpfs: fstype %s disks %d mount '%s'", t->fstype, t->nr_disks, t->mountpoint);
    CHECK(iom_probe_target(root, "sdz", t) == -ENODEV, "unknown device");

    /* loop device backed by a file on a partition of a virtio-scsi disk */
    tree("virtio_scsi", root, sizeof(root));
    CHECK(iom_probe_target(root, "/dev/loop0", t) == 0, "probe loop0");
    CHECK(t->nr_layers == 3 && strcmp(t->layers[0].kind, "loop") == 0 &&
              strcmp(t->layers[0].detail, "/srv/img.raw") == 0 &&
              strcmp(t->layers[1].name, "sda1") == 0,
          "loop stack: %d layers, %s", t->nr_layers, t->layers[0].detail);
    CHECK(t->nr_disks == 1 && strcmp(t->disks[0].driver, "virtio_scsi") == 0, "loop disk");
    free(t);

    /* every disk: a tree holds one (loop and dm are skipped) */
    struct iom_probe_target *all;
    int n;
    tree("virtio_blk", root, sizeof(root));
    CHECK(iom_probe_all_disks(root, &all, &n) == 0 && n == 1 && strcmp(all[0].path, "vda") == 0,
          "all disks: %d", n);
    free(all);
}

static void check_advice_rules(void)
{
    char root[PATH_MAX];
    struct iom_probe_target *t = calloc(2, sizeof(*t));
    struct iom_probe_host h;
    /* schedulers differ: AHCI (mq-deadline) vs NVMe (none), Linux block/elevator.c */
    tree("ahci", root, sizeof(root));
    iom_probe_target(root, "sda", &t[0]);
    tree("nvme", root, sizeof(root));
    iom_probe_target(root, "nvme0n1", &t[1]);
    struct iom_probe_advice_list adv = {0};
    CHECK(iom_probe_advise_schedulers(t, 2, &adv) == 1 && adv.nr == 1, "schedulers differ");
    CHECK(adv.nr && strstr(adv.a[0].text, "sda mq-deadline") &&
              strstr(adv.a[0].text, "nvme0n1 none"),
          "scheduler advice: %s", adv.a[0].text);
    adv.nr = 0;
    CHECK(iom_probe_advise_schedulers(t, 1, &adv) == 0 && adv.nr == 0, "one disk: no advice");

    /* depth: AHCI LUN queue 32; 32 fits, 33 does not */
    struct iom_probe_advice a;
    CHECK(iom_probe_advise_depth(&t[0].disks[0], 32, &a) == 0, "32 on a LUN queue of 32");
    CHECK(iom_probe_advise_depth(&t[0].disks[0], 64, &a) == 1 && strstr(a.text, "is 32: 32 wait"),
          "64 on 32: %s", a.text);
    /* NVMe: nr_requests 1023 per hardware queue */
    CHECK(iom_probe_advise_depth(&t[1].disks[0], 1023, &a) == 0, "1023 on nvme");
    CHECK(iom_probe_advise_depth(&t[1].disks[0], 1024, &a) == 1, "1024 on nvme");
    /* LSI SAS: adapter 118 binds before nothing, LUN 64 first */
    tree("lsisas", root, sizeof(root));
    iom_probe_target(root, "sda", &t[0]);
    CHECK(iom_probe_advise_depth(&t[0].disks[0], 100, &a) == 1 && strstr(a.text, "LUN queue") &&
              strstr(a.text, "is 64: 36 wait"),
          "lsisas 100: %s", a.text);

    /* the controller to move to follows the hypervisor */
    memset(&h, 0, sizeof(h));
    snprintf(h.hypervisor, sizeof(h.hypervisor), "VMware");
    adv.nr = 0;
    iom_probe_advise(&t[0], &h, &adv);
    CHECK(adv.nr == 1 && strstr(adv.a[0].text, "move data disks to PVSCSI"), "vmware move: %s",
          adv.nr ? adv.a[0].text : "");
    /* PVSCSI already at 32 ring pages and LUN 254: no advice */
    tree("pvscsi", root, sizeof(root));
    iom_probe_target(root, "sda", &t[0]);
    snprintf(t[0].disks[0].params[0].value, sizeof(t[0].disks[0].params[0].value), "32");
    t[0].disks[0].can_queue = 1024;
    adv.nr = 0;
    iom_probe_advise(&t[0], &h, &adv);
    CHECK(adv.nr == 0, "tuned pvscsi: %s", adv.nr ? adv.a[0].text : "");
    free(t);
}

static void check_host(void)
{
    char root[PATH_MAX];
    struct iom_probe_host h;
    tree("ata_piix", root, sizeof(root));
    iom_probe_host(root, &h);
    CHECK(strcmp(h.hypervisor, "KVM/QEMU") == 0 && strstr(h.evidence, "i440FX"), "pc host: %s",
          h.evidence);
    CHECK(h.cpu_hypervisor_flag && strcmp(h.kernel, "6.1.0-57-amd64") == 0, "cpuinfo/kernel");
    CHECK(h.cpuid_signature[0] == '\0', "no CPUID for a captured tree");
    /* an empty root: no DMI, no cpuinfo -> none */
    char empty[] = "/tmp/iomark-probe-empty-XXXXXX";
    if (mkdtemp(empty)) {
        iom_probe_host(empty, &h);
        CHECK(strcmp(h.hypervisor, "none") == 0, "empty root: %s", h.hypervisor);
        struct iom_probe_target *all;
        int n;
        CHECK(iom_probe_all_disks(empty, &all, &n) == -ENOENT, "no sys/block");
        rmdir(empty);
    }
    CHECK(strcmp(iom_probe_pci_name(0x15ad, 0x07c0), "VMware PVSCSI") == 0, "pci name");
    CHECK(iom_probe_pci_name(0x1234, 0x5678) == NULL, "unknown pci");
    CHECK(strcmp(iom_probe_root("/x"), "/x") == 0, "root option wins");
}

int main(void)
{
    char src[PATH_MAX];
    snprintf(src, sizeof(src), "%s", __FILE__);
    snprintf(data_dir, sizeof(data_dir), "%s/../data/sysfs", dirname(src));
    char probe[PATH_MAX];
    snprintf(probe, sizeof(probe), "%s/pvscsi", data_dir);
    if (access(probe, F_OK) != 0) {
        fprintf(stderr, "SKIP: captured trees not found at %s\n", data_dir);
        return 77;
    }
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_case(&cases[i]);
    check_stacks();
    check_advice_rules();
    check_host();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok: %zu captured trees, stacks, advice rules, host\n", sizeof(cases) / sizeof(cases[0]));
    return 0;
}
