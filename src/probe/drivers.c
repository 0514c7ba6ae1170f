/* drivers.c - the probe's tables: PCI names of storage controllers and the
 * guest drivers it knows (drivers.h). */
#include "probe/drivers.h"

#include <string.h>

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

static const struct iom_probe_driver_info drivers[] = {
    {"vmw_pvscsi",
     "vmw_pvscsi",
     "scsi",
     "VMware PVSCSI",
     {"ring_pages", "cmd_per_lun", "msg_ring_pages", "use_msg", "use_msi", "use_msix",
      "use_req_threshold", NULL}},
    {"mptsas", "mptsas", "scsi", "LSI Logic SAS (Fusion-MPT)", {"max_lun", "mpt_pt_clear", NULL}},
    {"mptspi",
     "mptspi",
     "scsi",
     "LSI Logic Parallel (Fusion-MPT 53C1030)",
     {"mpt_saf_te", "mpt_pq_filter", NULL}},
    {"megaraid_sas",
     "megaraid_sas",
     "scsi",
     "LSI MegaRAID SAS",
     {"max_sectors", "throttlequeuedepth", "msix_vectors", "enable_sdev_max_qd",
      "host_tagset_enable", "poll_queues", NULL}},
    {"sym53c8xx",
     "sym53c8xx",
     "scsi",
     "LSI/Symbios 53C8xx (parallel SCSI)",
     {"cmd_per_lun", "tag_ctrl", "safe", NULL}},
    {"virtio_scsi", "virtio_scsi", "scsi", "virtio-scsi", {"virtscsi_poll_queues", NULL}},
    {"storvsc",
     "hv_storvsc",
     "scsi",
     "Hyper-V synthetic SCSI (storvsc)",
     {"storvsc_ringbuffer_size", "storvsc_vcpus_per_sub_channel", "ring_avail_percent_lowater",
      "storvsc_max_hw_queues", NULL}},
    {"hv_storvsc",
     "hv_storvsc",
     "scsi",
     "Hyper-V synthetic SCSI (storvsc)",
     {"storvsc_ringbuffer_size", "storvsc_vcpus_per_sub_channel", "ring_avail_percent_lowater",
      "storvsc_max_hw_queues", NULL}},
    {"ahci", "ahci", "ata", "SATA AHCI", {"mobile_lpm_policy", NULL}},
    {"ata_piix", "ata_piix", "ata", "IDE (Intel PIIX)", {"prefer_ms_hyperv", NULL}},
    {"pata_acpi", "pata_acpi", "ata", "IDE (ACPI)", {NULL}},
    {"nvme",
     "nvme",
     "nvme",
     "NVMe controller",
     {"io_queue_depth", "poll_queues", "write_queues", "sgl_threshold", "max_host_mem_size_mb",
      "use_threaded_interrupts", NULL}},
    {"virtio_blk",
     "virtio_blk",
     "virtio",
     "virtio-blk",
     {"num_request_queues", "queue_depth", "poll_queues", NULL}},
    {"vbd",
     "xen_blkfront",
     "xen",
     "Xen PV block (xen-blkfront)",
     {"max_queues", "max_ring_page_order", "max_indirect_segments", "feature_persistent", NULL}},
    {"xen-blkfront",
     "xen_blkfront",
     "xen",
     "Xen PV block (xen-blkfront)",
     {"max_queues", "max_ring_page_order", "max_indirect_segments", "feature_persistent", NULL}},
    {"mpt3sas", "mpt3sas", "scsi", "LSI/Broadcom SAS3 (mpt3sas)", {"max_queue_depth", NULL}},
    {"hpsa", "hpsa", "scsi", "HP Smart Array", {NULL}},
    {"aacraid", "aacraid", "scsi", "Adaptec RAID", {NULL}},
    {"ibmvscsi", "ibmvscsi", "scsi", "IBM virtual SCSI", {"max_requests", NULL}},
};

const struct iom_probe_driver_info *iom_probe_driver_lookup(const char *name)
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
