/* host.c - which hypervisor the probed machine runs on (iom_probe_host):
 * DMI strings, /sys/hypervisor, the CPU's hypervisor flag and CPUID leaf
 * 0x40000000 (the vendor signatures each hypervisor documents). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "probe/probe.h"
#include "probe/probe_win.h"
#include "probe/sysfs.h"

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
        {"VMwareVMware", "VMware"},     {"KVMKVMKVM", "KVM/QEMU"}, {"TCGTCGTCGTCG", "KVM/QEMU"},
        {"Microsoft Hv", "Hyper-V"},    {"XenVMMXenVMM", "Xen"},   {"bhyve bhyve ", "bhyve"},
        {"VBoxVBoxVBox", "VirtualBox"}, {"ACRNACRNACRN", "ACRN"},  {" lrpepyh  vr", "Parallels"},
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
    iom_pf_read_at(dmi, "sys_vendor", h->dmi_sys_vendor, sizeof(h->dmi_sys_vendor));
    iom_pf_read_at(dmi, "product_name", h->dmi_product_name, sizeof(h->dmi_product_name));
    iom_pf_read_at(dmi, "bios_vendor", h->dmi_bios_vendor, sizeof(h->dmi_bios_vendor));
    snprintf(p, sizeof(p), "%s/proc/sys/kernel", root);
    iom_pf_read_at(p, "osrelease", h->kernel, sizeof(h->kernel));
    char xen[32] = "";
    snprintf(p, sizeof(p), "%s/sys/hypervisor", root);
    iom_pf_read_at(p, "type", xen, sizeof(xen));

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
#ifdef _WIN32 /* the live system: SMBIOS strings from the registry, not sysfs */
    if (!root[0]) {
        have_dmi = iom_probe_host_facts_win(h) == 0;
        xen[0] = '\0';
    }
#endif
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
