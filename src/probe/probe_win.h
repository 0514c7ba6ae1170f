/*
 * probe_win.h - the live probe on Windows (probe_win.c): storage IOCTLs,
 * SetupAPI and the registry instead of sysfs. probe.c and host.c call these
 * for root "" in Windows builds; captured sysfs trees are still read by the
 * portable code. Internal to src/probe.
 */
#ifndef IOMARK_PROBE_PROBE_WIN_H
#define IOMARK_PROBE_PROBE_WIN_H
#ifdef _WIN32

#include "probe/probe.h"

/*
 * Probe a file (its volume and the disks under the volume, from
 * IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS), a volume ("\\.\D:") or a disk
 * ("\\.\PhysicalDrive1", or "PhysicalDrive1"). Per disk: bus type, vendor
 * and product (IOCTL_STORAGE_QUERY_PROPERTY StorageDeviceProperty), maximum
 * transfer and pages (StorageAdapterProperty), sector sizes
 * (StorageAccessAlignmentProperty), size (IOCTL_DISK_GET_LENGTH_INFO), SCSI
 * port/path/target/LUN (IOCTL_SCSI_GET_ADDRESS), the controller's name,
 * service (driver) and PCI IDs from SetupAPI (the disk's parent device),
 * and the service's Parameters\Device\DriverParameter registry value split
 * into "Key=Value" parameters (PVSCSI: RequestRingPages, MaxQueueDepth;
 * VMware KB 2053145). Facts Windows does not give are left -1 or "".
 * Same return values as iom_probe_target().
 */
int iom_probe_target_win(const char *target, struct iom_probe_target *out);

/* Every \\.\PhysicalDriveN that opens (N < 64), as iom_probe_all_disks(). */
int iom_probe_all_disks_win(struct iom_probe_target **out, int *nr);

/* SMBIOS system manufacturer, product and BIOS vendor from
 * HKLM\HARDWARE\DESCRIPTION\System\BIOS into h (kernel = "Windows
 * major.minor.build"). Returns 0 when the key exists, else -ENOENT. */
int iom_probe_host_facts_win(struct iom_probe_host *h);

/* Split a DriverParameter string ("Key=Value,Key=Value"; ',' ';' or ' '
 * between pairs) into d's parameters, module = svc. Pairs without '=' are
 * skipped; at most IOM_PROBE_MAX_PARAMS are kept. */
void iom_probe_win_parse_driver_parameter(struct iom_probe_disk *d, const char *svc,
                                          const char *value);

/* Read HKLM\SYSTEM\CurrentControlSet\Services\<svc>\Parameters\Device
 * DriverParameter (REG_SZ) into d's parameters. Returns 0, or -ENOENT when
 * the value is absent. */
int iom_probe_win_driver_parameter(struct iom_probe_disk *d, const char *svc);

/*
 * Queue limits of controllers whose Windows drivers document them, from
 * d->driver (the service name) and its parameters: "pvscsi" gets adapter
 * queue RequestRingPages x 32 and LUN queue MaxQueueDepth (defaults 8 pages
 * and 64 when not set; VMware KB 2053145), a "ring_pages" parameter and
 * driver "vmw_pvscsi" so the shared advice applies; "LSI_SAS" gets 128 / 32
 * and driver "mptsas". Other drivers are left as they are.
 */
void iom_probe_win_known_limits(struct iom_probe_disk *d);

#endif
#endif
