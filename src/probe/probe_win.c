/*
 * probe_win.c - what sits under a file, volume or disk on Windows (see
 * probe_win.h). Sources: Microsoft Docs for IOCTL_STORAGE_QUERY_PROPERTY
 * (STORAGE_DEVICE_DESCRIPTOR, STORAGE_ADAPTER_DESCRIPTOR,
 * STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR), IOCTL_SCSI_GET_ADDRESS,
 * IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, IOCTL_STORAGE_GET_DEVICE_NUMBER,
 * SetupDiGetClassDevs / CM_Get_Parent / CM_Get_DevNode_Registry_Property;
 * VMware KB 2053145 (PVSCSI DriverParameter "RequestRingPages=32,
 * MaxQueueDepth=254"; defaults 8 pages = adapter 256, LUN 64).
 */
#include "platform/win.h"

#include <cfgmgr32.h>
#include <devguid.h>
#include <initguid.h>
#include <ntddscsi.h>
#include <setupapi.h>
#include <winioctl.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_win.h"

static const char *bus_kind(STORAGE_BUS_TYPE b)
{
    switch (b) {
    case BusTypeScsi:
    case BusTypeSas:
    case BusTypeiScsi:
    case BusTypeFibre:
        return "scsi";
    case BusTypeAta:
    case BusTypeAtapi:
    case BusTypeSata:
        return "ata";
    case BusTypeNvme:
        return "nvme";
    default:
        return "other";
    }
}

static const char *bus_name(STORAGE_BUS_TYPE b)
{
    static const char *const n[] = {"unknown", "SCSI", "ATAPI", "ATA", "IEEE 1394", "SSA",
                                    "Fibre Channel", "USB", "RAID", "iSCSI", "SAS", "SATA", "SD",
                                    "MMC", "Virtual", "File-backed virtual", "Storage Spaces",
                                    "NVMe", "SCM", "UFS"};
    return (unsigned)b < sizeof(n) / sizeof(n[0]) ? n[b] : "unknown";
}

/* a descriptor string at byte offset off of buf (0 = absent), trimmed */
static void desc_str(const void *buf, DWORD got, DWORD off, char *out, size_t len)
{
    out[0] = '\0';
    if (!off || off >= got)
        return;
    snprintf(out, len, "%s", (const char *)buf + off);
    size_t n = strlen(out);
    while (n && out[n - 1] == ' ')
        out[--n] = '\0';
    char *s = out;
    while (*s == ' ')
        s++;
    memmove(out, s, strlen(s) + 1);
}

static void add_param(struct iom_probe_disk *d, const char *module, const char *name,
                      const char *value)
{
    if (d->nr_params >= IOM_PROBE_MAX_PARAMS)
        return;
    struct iom_probe_param *p = &d->params[d->nr_params++];
    snprintf(p->module, sizeof(p->module), "%s", module);
    snprintf(p->name, sizeof(p->name), "%s", name);
    snprintf(p->value, sizeof(p->value), "%s", value);
}

static const char *param_of(const struct iom_probe_disk *d, const char *name)
{
    for (int i = 0; i < d->nr_params; i++)
        if (_stricmp(d->params[i].name, name) == 0)
            return d->params[i].value;
    return NULL;
}

void iom_probe_win_parse_driver_parameter(struct iom_probe_disk *d, const char *svc,
                                          const char *value)
{
    char val[512];
    snprintf(val, sizeof(val), "%s", value);
    char *save = NULL;
    for (char *tok = strtok_r(val, ",; ", &save); tok; tok = strtok_r(NULL, ",; ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        add_param(d, svc, tok, eq + 1);
    }
}

int iom_probe_win_driver_parameter(struct iom_probe_disk *d, const char *svc)
{
    char key[160], val[512];
    snprintf(key, sizeof(key), "SYSTEM\\CurrentControlSet\\Services\\%s\\Parameters\\Device", svc);
    DWORD len = sizeof(val) - 1, type = 0;
    if (RegGetValueA(HKEY_LOCAL_MACHINE, key, "DriverParameter", RRF_RT_REG_SZ, &type, val, &len) !=
        ERROR_SUCCESS)
        return -ENOENT;
    val[sizeof(val) - 1] = '\0';
    iom_probe_win_parse_driver_parameter(d, svc, val);
    return 0;
}

/* The controller of disk number `num` through SetupAPI: the disk's parent. */
static void controller_of(unsigned long num, struct iom_probe_disk *d)
{
    HDEVINFO set = SetupDiGetClassDevsA(&GUID_DEVINTERFACE_DISK, NULL, NULL,
                                        DIGCF_PRESENT | DIGCF_DEVICEINTERFACE);
    if (set == INVALID_HANDLE_VALUE)
        return;
    SP_DEVICE_INTERFACE_DATA ifd = {.cbSize = sizeof(ifd)};
    for (DWORD i = 0; SetupDiEnumDeviceInterfaces(set, NULL, &GUID_DEVINTERFACE_DISK, i, &ifd);
         i++) {
        char buf[1024];
        SP_DEVICE_INTERFACE_DETAIL_DATA_A *det = (SP_DEVICE_INTERFACE_DETAIL_DATA_A *)buf;
        det->cbSize = sizeof(*det);
        SP_DEVINFO_DATA dev = {.cbSize = sizeof(dev)};
        if (!SetupDiGetDeviceInterfaceDetailA(set, &ifd, det, sizeof(buf), NULL, &dev))
            continue;
        HANDLE h = CreateFileA(det->DevicePath, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                               OPEN_EXISTING, 0, NULL);
        if (h == INVALID_HANDLE_VALUE)
            continue;
        STORAGE_DEVICE_NUMBER sdn;
        DWORD got;
        BOOL ok = DeviceIoControl(h, IOCTL_STORAGE_GET_DEVICE_NUMBER, NULL, 0, &sdn, sizeof(sdn),
                                  &got, NULL);
        CloseHandle(h);
        if (!ok || sdn.DeviceNumber != num)
            continue;
        DEVINST parent;
        if (CM_Get_Parent(&parent, dev.DevInst, 0) != CR_SUCCESS)
            break;
        char name[256] = "", svc[64] = "", hwid[512] = "";
        ULONG len = sizeof(name);
        if (CM_Get_DevNode_Registry_PropertyA(parent, CM_DRP_FRIENDLYNAME, NULL, name, &len, 0) !=
            CR_SUCCESS) {
            len = sizeof(name);
            CM_Get_DevNode_Registry_PropertyA(parent, CM_DRP_DEVICEDESC, NULL, name, &len, 0);
        }
        len = sizeof(svc);
        CM_Get_DevNode_Registry_PropertyA(parent, CM_DRP_SERVICE, NULL, svc, &len, 0);
        len = sizeof(hwid);
        CM_Get_DevNode_Registry_PropertyA(parent, CM_DRP_HARDWAREID, NULL, hwid, &len, 0);
        unsigned ven = 0, devid = 0;
        const char *p = strstr(hwid, "VEN_");
        if (p && sscanf(p, "VEN_%4x&DEV_%4x", &ven, &devid) == 2) {
            d->pci_vendor = (int)ven;
            d->pci_device = (int)devid;
        }
        const char *known = d->pci_vendor >= 0 ? iom_probe_pci_name(d->pci_vendor, d->pci_device)
                                               : NULL;
        if (known || name[0])
            snprintf(d->controller, sizeof(d->controller), "%s", known ? known : name);
        if (svc[0]) {
            snprintf(d->driver, sizeof(d->driver), "%s", svc);
            iom_probe_win_driver_parameter(d, svc);
        }
        break;
    }
    SetupDiDestroyDeviceInfoList(set);
}

/* Windows service names whose documented queue limits iomark knows
 * (VMware KB 2053145 for pvscsi; LSI_SAS: adapter 128 / LUN 32). */
void iom_probe_win_known_limits(struct iom_probe_disk *d)
{
    if (_stricmp(d->driver, "pvscsi") == 0) {
        const char *rp = param_of(d, "RequestRingPages"), *qd = param_of(d, "MaxQueueDepth");
        long pages = rp ? strtol(rp, NULL, 10) : 8; /* driver default: 8 pages */
        d->can_queue = pages > 0 ? pages * 32 : -1;  /* 32 requests per ring page */
        d->queue_depth = qd ? strtol(qd, NULL, 10) : 64;
        if (!param_of(d, "ring_pages")) {
            char v[16];
            snprintf(v, sizeof(v), "%ld", pages);
            add_param(d, "pvscsi", "ring_pages", v); /* the name advice.c reads */
        }
        snprintf(d->driver, sizeof(d->driver), "vmw_pvscsi"); /* same controller as on Linux */
    } else if (_stricmp(d->driver, "LSI_SAS") == 0) {
        d->can_queue = 128;
        d->queue_depth = 32;
        snprintf(d->driver, sizeof(d->driver), "mptsas");
    }
}

static void fill_disk(unsigned long num, struct iom_probe_disk *d)
{
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "PhysicalDrive%lu", num);
    d->pci_vendor = d->pci_device = -1;
    d->can_queue = d->cmd_per_lun = d->sg_tablesize = d->queue_depth = -1;
    d->nr_requests = d->nr_hw_queues = -1;
    d->max_sectors_kb = d->max_hw_sectors_kb = d->max_segments = -1;
    d->logical_block_bytes = d->physical_block_bytes = d->rotational = d->size_bytes = -1;
    snprintf(d->kind, sizeof(d->kind), "other");
    char path[40];
    snprintf(path, sizeof(path), "\\\\.\\PhysicalDrive%lu", num);
    HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0,
                           NULL);
    if (h != INVALID_HANDLE_VALUE) {
        DWORD got = 0;
        union {
            STORAGE_DEVICE_DESCRIPTOR d;
            char raw[1024];
        } dev;
        STORAGE_PROPERTY_QUERY q = {.PropertyId = StorageDeviceProperty,
                                    .QueryType = PropertyStandardQuery};
        if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof(q), &dev, sizeof(dev),
                            &got, NULL) &&
            got >= sizeof(STORAGE_DEVICE_DESCRIPTOR) - 1) {
            snprintf(d->kind, sizeof(d->kind), "%s", bus_kind(dev.d.BusType));
            desc_str(&dev, got, dev.d.VendorIdOffset, d->vendor, sizeof(d->vendor));
            desc_str(&dev, got, dev.d.ProductIdOffset, d->model, sizeof(d->model));
            /* until SetupAPI names the controller: the bus Windows reports */
            snprintf(d->controller, sizeof(d->controller), "%s bus", bus_name(dev.d.BusType));
        }
        STORAGE_ADAPTER_DESCRIPTOR ad;
        q.PropertyId = StorageAdapterProperty;
        memset(&ad, 0, sizeof(ad));
        if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof(q), &ad, sizeof(ad), &got,
                            NULL) &&
            got >= offsetof(STORAGE_ADAPTER_DESCRIPTOR, MaximumPhysicalPages) + 4) {
            if (ad.MaximumTransferLength)
                d->max_hw_sectors_kb = d->max_sectors_kb = ad.MaximumTransferLength / 1024;
            if (ad.MaximumPhysicalPages && ad.MaximumPhysicalPages != 0xffffffffu)
                d->max_segments = ad.MaximumPhysicalPages;
        }
        uint32_t l = 0, p = 0;
        if (iom_win_sector_sizes(h, &l, &p) == 0) {
            d->logical_block_bytes = l;
            d->physical_block_bytes = p;
        }
        GET_LENGTH_INFORMATION len;
        if (DeviceIoControl(h, IOCTL_DISK_GET_LENGTH_INFO, NULL, 0, &len, sizeof(len), &got, NULL))
            d->size_bytes = len.Length.QuadPart;
        DEVICE_SEEK_PENALTY_DESCRIPTOR sp;
        q.PropertyId = StorageDeviceSeekPenaltyProperty;
        if (DeviceIoControl(h, IOCTL_STORAGE_QUERY_PROPERTY, &q, sizeof(q), &sp, sizeof(sp), &got,
                            NULL) &&
            got >= sizeof(sp))
            d->rotational = sp.IncursSeekPenalty ? 1 : 0;
        SCSI_ADDRESS sa;
        if (DeviceIoControl(h, IOCTL_SCSI_GET_ADDRESS, NULL, 0, &sa, sizeof(sa), &got, NULL)) {
            snprintf(d->scsi_host, sizeof(d->scsi_host), "Scsi%u:", sa.PortNumber);
            snprintf(d->dev, sizeof(d->dev), "%u:%u:%u", sa.PathId, sa.TargetId, sa.Lun);
        }
        CloseHandle(h);
    }
    controller_of(num, d);
    iom_probe_win_known_limits(d);
}

static int probe_disk_number(unsigned long num, struct iom_probe_target *out)
{
    if (out->nr_disks >= IOM_PROBE_MAX_DISKS)
        return 0;
    fill_disk(num, &out->disks[out->nr_disks++]);
    return 0;
}

/* disks under volume handle h; adds a layer for the volume */
static void volume_disks(HANDLE h, const char *volname, const char *fs,
                         struct iom_probe_target *out)
{
    union {
        VOLUME_DISK_EXTENTS v;
        char raw[sizeof(VOLUME_DISK_EXTENTS) + 15 * sizeof(DISK_EXTENT)];
    } ext;
    DWORD got = 0;
    struct iom_probe_layer *ly = &out->layers[out->nr_layers++];
    snprintf(ly->name, sizeof(ly->name), "%s", volname);
    snprintf(ly->kind, sizeof(ly->kind), "partition");
    if (!DeviceIoControl(h, IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS, NULL, 0, &ext, sizeof(ext), &got,
                         NULL)) {
        snprintf(ly->detail, sizeof(ly->detail), "volume %s%s%s; its disks are not known (%s)",
                 volname, fs[0] ? ", " : "", fs, "IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS refused");
        snprintf(out->note, sizeof(out->note), "volume %s: Windows did not name its disks",
                 volname);
        return;
    }
    size_t o = (size_t)snprintf(ly->detail, sizeof(ly->detail), "volume %s%s%s on", volname,
                                fs[0] ? " " : "", fs);
    for (DWORD i = 0; i < ext.v.NumberOfDiskExtents && i < 16; i++) {
        if (o < sizeof(ly->detail))
            o += (size_t)snprintf(ly->detail + o, sizeof(ly->detail) - o, " PhysicalDrive%lu",
                                  (unsigned long)ext.v.Extents[i].DiskNumber);
        bool seen = false;
        for (int k = 0; k < out->nr_disks; k++)
            seen |= out->disks[k].name[13] &&
                    strtoul(out->disks[k].name + 13, NULL, 10) == ext.v.Extents[i].DiskNumber;
        if (!seen)
            probe_disk_number(ext.v.Extents[i].DiskNumber, out);
    }
}

static unsigned long drive_number(const char *s)
{
    return strtoul(s, NULL, 10);
}

int iom_probe_target_win(const char *target, struct iom_probe_target *out)
{
    memset(out, 0, sizeof(*out));
    if (strlen(target) >= sizeof(out->path))
        return -ENAMETOOLONG;
    snprintf(out->path, sizeof(out->path), "%s", target);
    const char *t = target;
    if (iom_win_is_device_path(t))
        t += 4;
    if (_strnicmp(t, "PhysicalDrive", 13) == 0 && t[13] >= '0' && t[13] <= '9') {
        char path[40];
        snprintf(path, sizeof(path), "\\\\.\\PhysicalDrive%lu", drive_number(t + 13));
        HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0,
                               NULL);
        if (h == INVALID_HANDLE_VALUE)
            return -ENODEV;
        CloseHandle(h);
        snprintf(out->device, sizeof(out->device), "PhysicalDrive%lu", drive_number(t + 13));
        return probe_disk_number(drive_number(t + 13), out);
    }
    char root[MAX_PATH] = "", fs[32] = "";
    if (t != target) { /* \\.\D: */
        if (!(((t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'z') && t[1] == ':'))
            return -ENODEV;
        snprintf(root, sizeof(root), "%c:\\", t[0]);
    } else {
        char full[MAX_PATH];
        DWORD attr = GetFileAttributesA(target);
        if (attr == INVALID_FILE_ATTRIBUTES)
            return -ENOENT;
        out->is_file = true;
        out->is_dir = (attr & FILE_ATTRIBUTE_DIRECTORY) != 0;
        if (!GetFullPathNameA(target, sizeof(full), full, NULL) ||
            !GetVolumePathNameA(full, root, sizeof(root)))
            return -ENOENT;
    }
    GetVolumeInformationA(root, NULL, 0, NULL, NULL, NULL, fs, sizeof(fs));
    snprintf(out->fstype, sizeof(out->fstype), "%s", fs);
    snprintf(out->mountpoint, sizeof(out->mountpoint), "%s", root);
    if (!(root[0] && root[1] == ':')) { /* a mounted folder or a network share */
        snprintf(out->note, sizeof(out->note), "%s: not a volume with a drive letter", root);
        return 0;
    }
    char vol[8] = {'\\', '\\', '.', '\\', root[0], ':', 0};
    snprintf(out->device, sizeof(out->device), "%c:", root[0]);
    snprintf(out->mount_source, sizeof(out->mount_source), "%s", vol);
    HANDLE h = CreateFileA(vol, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0, NULL);
    if (h == INVALID_HANDLE_VALUE) {
        snprintf(out->note, sizeof(out->note), "volume %c: cannot be opened", root[0]);
        return 0;
    }
    volume_disks(h, out->device, fs, out);
    CloseHandle(h);
    return 0;
}

int iom_probe_all_disks_win(struct iom_probe_target **out, int *nr)
{
    *out = NULL;
    *nr = 0;
    struct iom_probe_target *v = calloc(64, sizeof(*v));
    if (!v)
        return -ENOMEM;
    int k = 0;
    for (unsigned long n = 0; n < 64; n++) {
        char path[40];
        snprintf(path, sizeof(path), "\\\\.\\PhysicalDrive%lu", n);
        HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_EXISTING, 0,
                               NULL);
        if (h == INVALID_HANDLE_VALUE)
            continue;
        CloseHandle(h);
        struct iom_probe_target *t = &v[k++];
        snprintf(t->path, sizeof(t->path), "PhysicalDrive%lu", n);
        snprintf(t->device, sizeof(t->device), "PhysicalDrive%lu", n);
        probe_disk_number(n, t);
    }
    *out = v;
    *nr = k;
    return 0;
}

int iom_probe_host_facts_win(struct iom_probe_host *h)
{
    const char *key = "HARDWARE\\DESCRIPTION\\System\\BIOS";
    DWORD len;
    int rc = -ENOENT;
    len = sizeof(h->dmi_sys_vendor);
    h->dmi_sys_vendor[0] = h->dmi_product_name[0] = h->dmi_bios_vendor[0] = '\0';
    if (RegGetValueA(HKEY_LOCAL_MACHINE, key, "SystemManufacturer", RRF_RT_REG_SZ, NULL,
                     h->dmi_sys_vendor, &len) == ERROR_SUCCESS)
        rc = 0;
    len = sizeof(h->dmi_product_name);
    RegGetValueA(HKEY_LOCAL_MACHINE, key, "SystemProductName", RRF_RT_REG_SZ, NULL,
                 h->dmi_product_name, &len);
    len = sizeof(h->dmi_bios_vendor);
    RegGetValueA(HKEY_LOCAL_MACHINE, key, "BIOSVendor", RRF_RT_REG_SZ, NULL, h->dmi_bios_vendor,
                 &len);
    struct utsname_like {
        char s[64];
    } k;
    OSVERSIONINFOW v = {.dwOSVersionInfoSize = sizeof(v)};
    typedef LONG(WINAPI * fn_t)(OSVERSIONINFOW *);
    HMODULE nt = GetModuleHandleA("ntdll.dll");
    fn_t fn = nt ? (fn_t)(void (*)(void))GetProcAddress(nt, "RtlGetVersion") : NULL;
    if (fn && fn(&v) == 0)
        snprintf(k.s, sizeof(k.s), "Windows %lu.%lu.%lu", (unsigned long)v.dwMajorVersion,
                 (unsigned long)v.dwMinorVersion, (unsigned long)v.dwBuildNumber);
    else
        snprintf(k.s, sizeof(k.s), "Windows");
    snprintf(h->kernel, sizeof(h->kernel), "%s", k.s);
    h->cpu_hypervisor_flag = false;
    return rc;
}
