/*
 * drivers.h - the guest storage drivers the probe knows: sysfs name, module,
 * kind and the module parameters worth reporting. Internal to src/probe
 * (probe.c fills disks from it); iom_probe_pci_name and
 * iom_probe_lun_limit, defined next to the tables, are declared in probe.h.
 */
#ifndef IOMARK_PROBE_DRIVERS_H
#define IOMARK_PROBE_DRIVERS_H

#include "probe/probe.h"

struct iom_probe_driver_info {
    const char *sysfs_name;    /* proc_name or driver link */
    const char *module;        /* canonical module name (also /sys/module/<module>) */
    const char *kind;          /* "scsi", "ata", "nvme", "virtio", "xen" */
    const char *fallback_name; /* human name when PCI does not say */
    const char *params[8];     /* relevant module parameters, NULL-terminated */
};

/* The entry whose sysfs_name is name (a scsi_host proc_name or the
 * basename of a device's driver link), or NULL when unknown. Static data:
 * never freed. */
const struct iom_probe_driver_info *iom_probe_driver_lookup(const char *name);

#endif
