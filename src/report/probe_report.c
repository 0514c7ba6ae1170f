/* probe_report.c - text and JSON output of probe results. */
#include "report/probe_report.h"

#include <string.h>

#include "report/report.h"

static void num_or_null(cJSON *o, const char *k, int64_t v)
{
    if (v < 0)
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddNumberToObject(o, k, (double)v);
}

static void str_or_null(cJSON *o, const char *k, const char *v)
{
    if (!v || !v[0])
        cJSON_AddNullToObject(o, k);
    else
        cJSON_AddStringToObject(o, k, v);
}

static cJSON *disk_json(const struct iom_probe_disk *d)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "name", d->name);
    str_or_null(o, "dev", d->dev);
    str_or_null(o, "driver", d->driver);
    str_or_null(o, "controller", d->controller);
    cJSON_AddStringToObject(o, "kind", d->kind);
    if (d->pci_vendor >= 0 && d->pci_device >= 0) {
        cJSON *p = cJSON_AddObjectToObject(o, "pci");
        char id[16];
        snprintf(id, sizeof(id), "%04x:%04x", d->pci_vendor, d->pci_device);
        cJSON_AddStringToObject(p, "id", id);
        cJSON_AddStringToObject(p, "slot", d->pci_slot);
    } else {
        cJSON_AddNullToObject(o, "pci");
    }
    str_or_null(o, "scsi_host", d->scsi_host);
    str_or_null(o, "vendor", d->vendor);
    str_or_null(o, "model", d->model);
    num_or_null(o, "size_bytes", d->size_bytes);
    num_or_null(o, "adapter_queue", d->can_queue);
    num_or_null(o, "cmd_per_lun", d->cmd_per_lun);
    num_or_null(o, "sg_tablesize", d->sg_tablesize);
    num_or_null(o, "lun_queue", d->queue_depth);
    num_or_null(o, "nr_requests", d->nr_requests);
    num_or_null(o, "nr_hw_queues", d->nr_hw_queues);
    num_or_null(o, "max_sectors_kb", d->max_sectors_kb);
    num_or_null(o, "max_hw_sectors_kb", d->max_hw_sectors_kb);
    num_or_null(o, "max_segments", d->max_segments);
    num_or_null(o, "logical_block_bytes", d->logical_block_bytes);
    num_or_null(o, "physical_block_bytes", d->physical_block_bytes);
    if (d->rotational < 0)
        cJSON_AddNullToObject(o, "rotational");
    else
        cJSON_AddBoolToObject(o, "rotational", d->rotational != 0);
    str_or_null(o, "scheduler", d->scheduler);
    str_or_null(o, "schedulers", d->schedulers);
    str_or_null(o, "write_cache", d->write_cache);
    cJSON *mp = cJSON_AddObjectToObject(o, "module_parameters");
    for (int i = 0; i < d->nr_params; i++) {
        char k[80];
        snprintf(k, sizeof(k), "%s.%s", d->params[i].module, d->params[i].name);
        cJSON_AddStringToObject(mp, k, d->params[i].value);
    }
    return o;
}

cJSON *iom_probe_json_target(const struct iom_probe_target *t)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "path", t->path);
    cJSON_AddStringToObject(o, "kind", t->is_dir ? "directory" : t->is_file ? "file" : "block_device");
    if (t->is_file) {
        cJSON *fs = cJSON_AddObjectToObject(o, "filesystem");
        str_or_null(fs, "type", t->fstype);
        str_or_null(fs, "mountpoint", t->mountpoint);
        str_or_null(fs, "source", t->mount_source);
    }
    str_or_null(o, "device", t->device);
    str_or_null(o, "note", t->note);
    if (t->hypervisor[0])
        cJSON_AddStringToObject(o, "hypervisor", t->hypervisor);
    cJSON *st = cJSON_AddArrayToObject(o, "stack");
    for (int i = 0; i < t->nr_layers; i++) {
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "name", t->layers[i].name);
        cJSON_AddStringToObject(l, "kind", t->layers[i].kind);
        str_or_null(l, "detail", t->layers[i].detail);
        cJSON_AddItemToArray(st, l);
    }
    cJSON *ds = cJSON_AddArrayToObject(o, "disks");
    for (int i = 0; i < t->nr_disks; i++)
        cJSON_AddItemToArray(ds, disk_json(&t->disks[i]));
    return o;
}

cJSON *iom_probe_report_json(const char *root, const struct iom_probe_host *h,
                             const struct iom_probe_target *t, int nr,
                             const struct iom_probe_advice_list *adv)
{
    cJSON *d = cJSON_CreateObject();
    if (!d)
        return NULL;
    cJSON_AddStringToObject(d, "schema", IOM_PROBE_JSON_SCHEMA);
    cJSON_AddNumberToObject(d, "schema_version", IOM_PROBE_JSON_SCHEMA_VERSION);
    cJSON_AddStringToObject(d, "type", "probe");
    cJSON_AddStringToObject(d, "iomark_version", IOMARK_VERSION);
    cJSON_AddStringToObject(d, "sysfs_root", root && root[0] ? root : "/");
    cJSON *ho = cJSON_AddObjectToObject(d, "host");
    cJSON_AddStringToObject(ho, "hypervisor", h->hypervisor);
    cJSON_AddStringToObject(ho, "evidence", h->evidence);
    str_or_null(ho, "dmi_sys_vendor", h->dmi_sys_vendor);
    str_or_null(ho, "dmi_product_name", h->dmi_product_name);
    str_or_null(ho, "dmi_bios_vendor", h->dmi_bios_vendor);
    str_or_null(ho, "cpuid_signature", h->cpuid_signature);
    cJSON_AddBoolToObject(ho, "cpu_hypervisor_flag", h->cpu_hypervisor_flag);
    str_or_null(ho, "kernel", h->kernel);
    cJSON *ta = cJSON_AddArrayToObject(d, "targets");
    for (int i = 0; i < nr; i++)
        cJSON_AddItemToArray(ta, iom_probe_json_target(&t[i]));
    cJSON *aa = cJSON_AddArrayToObject(d, "advice");
    for (int i = 0; adv && i < adv->nr; i++) {
        cJSON *a = cJSON_CreateObject();
        str_or_null(a, "disk", adv->a[i].disk);
        cJSON_AddStringToObject(a, "text", adv->a[i].text);
        cJSON_AddStringToObject(a, "source", adv->a[i].source);
        cJSON_AddItemToArray(aa, a);
    }
    return d;
}

static void fmt_n(int64_t v, char *buf, size_t len)
{
    if (v < 0)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%lld", (long long)v);
}

static void print_disk(FILE *f, const struct iom_probe_disk *d)
{
    char sz[32] = "size ?", pci[48] = "", a[24], l[24], nrq[24], hw[24], ms[24], mhw[24],
         seg[24], lb[24], pb[24];
    if (d->size_bytes >= 0)
        iom_fmt_bytes((uint64_t)d->size_bytes, sz, sizeof(sz));
    if (d->pci_vendor >= 0)
        snprintf(pci, sizeof(pci), " [%04x:%04x at %s]", d->pci_vendor, d->pci_device,
                 d->pci_slot);
    fmt_n(d->can_queue, a, sizeof(a));
    fmt_n(d->queue_depth, l, sizeof(l));
    fmt_n(d->nr_requests, nrq, sizeof(nrq));
    fmt_n(d->nr_hw_queues, hw, sizeof(hw));
    fmt_n(d->max_sectors_kb, ms, sizeof(ms));
    fmt_n(d->max_hw_sectors_kb, mhw, sizeof(mhw));
    fmt_n(d->max_segments, seg, sizeof(seg));
    fmt_n(d->logical_block_bytes, lb, sizeof(lb));
    fmt_n(d->physical_block_bytes, pb, sizeof(pb));
    fprintf(f, "  disk %s (%s, %s)%s%s%s: driver %s, controller %s%s\n", d->name,
            d->dev[0] ? d->dev : "?", sz, d->model[0] ? " \"" : "", d->model,
            d->model[0] ? "\"" : "", d->driver[0] ? d->driver : "unknown",
            d->controller[0] ? d->controller : "unknown", pci);
    fprintf(f, "    queues: adapter (can_queue) %s%s%s, LUN (queue_depth) %s, nr_requests %s x %s hw "
               "queue(s)\n",
            a, d->scsi_host[0] ? " on " : "", d->scsi_host, l, nrq, hw);
    fprintf(f, "    max I/O %s KiB (hw %s KiB), max segments %s; blocks %s B logical / %s B "
               "physical; rotational %s\n",
            ms, mhw, seg, lb, pb, d->rotational < 0 ? "?" : d->rotational ? "yes" : "no");
    fprintf(f, "    scheduler %s (%s); write cache %s\n", d->scheduler[0] ? d->scheduler : "?",
            d->schedulers[0] ? d->schedulers : "?", d->write_cache[0] ? d->write_cache : "?");
    if (d->nr_params) {
        fprintf(f, "    module parameters:");
        for (int i = 0; i < d->nr_params; i++)
            fprintf(f, " %s.%s=%s", d->params[i].module, d->params[i].name, d->params[i].value);
        fprintf(f, "\n");
    }
}

void iom_probe_report_text(FILE *f, const struct iom_probe_host *h,
                           const struct iom_probe_target *t, int nr,
                           const struct iom_probe_advice_list *adv)
{
    fprintf(f, "host: hypervisor %s (%s)%s%s\n", h->hypervisor, h->evidence,
            h->kernel[0] ? "; kernel " : "", h->kernel);
    for (int i = 0; i < nr; i++) {
        const struct iom_probe_target *x = &t[i];
        fprintf(f, "\n%s: ", x->path);
        if (x->is_file)
            fprintf(f, "%s on %s %s (%s)", x->is_dir ? "directory" : "file",
                    x->fstype[0] ? x->fstype : "?",
                    x->mountpoint[0] ? x->mountpoint : "?",
                    x->mount_source[0] ? x->mount_source : "?");
        else
            fprintf(f, "block device");
        if (x->nr_layers) {
            fprintf(f, "; stack:");
            for (int k = 0; k < x->nr_layers; k++)
                fprintf(f, "%s %s (%s%s%s)", k ? " ->" : "", x->layers[k].name,
                        x->layers[k].kind, x->layers[k].detail[0] ? ": " : "",
                        x->layers[k].detail);
        }
        fprintf(f, "\n");
        if (x->note[0])
            fprintf(f, "  note: %s\n", x->note);
        for (int k = 0; k < x->nr_disks; k++)
            print_disk(f, &x->disks[k]);
    }
    if (adv && adv->nr) {
        fprintf(f, "\nadvice:\n");
        for (int i = 0; i < adv->nr; i++)
            fprintf(f, "  - %s\n    source: %s\n", adv->a[i].text, adv->a[i].source);
    }
}

void iom_probe_summary_line(const struct iom_probe_target *t, char *buf, size_t len)
{
    if (!t->nr_disks) {
        snprintf(buf, len, "%s%s%s", t->device[0] ? t->device : "no block device",
                 t->note[0] ? ": " : "", t->note);
        return;
    }
    const struct iom_probe_disk *d = &t->disks[0];
    char a[24], l[24], nrq[24], hw[24], ms[24], pci[24] = "";
    fmt_n(d->can_queue, a, sizeof(a));
    fmt_n(d->queue_depth, l, sizeof(l));
    fmt_n(d->nr_requests, nrq, sizeof(nrq));
    fmt_n(d->nr_hw_queues, hw, sizeof(hw));
    fmt_n(d->max_sectors_kb, ms, sizeof(ms));
    if (d->pci_vendor >= 0)
        snprintf(pci, sizeof(pci), " %04x:%04x", d->pci_vendor, d->pci_device);
    size_t n = 0;
    for (int i = 0; i < t->nr_layers && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " -> " : "", t->layers[i].name);
    if (n < len)
        snprintf(buf + n, len - n,
                 "%s: %s (%s%s), adapter queue %s, LUN queue %s, nr_requests %s x %s hw queues, "
                 "max I/O %s KiB, scheduler %s%s",
                 t->nr_disks > 1 ? " (first disk)" : "", d->driver[0] ? d->driver : "?",
                 d->controller[0] ? d->controller : "?", pci, a, l, nrq, hw, ms,
                 d->scheduler[0] ? d->scheduler : "?",
                 t->nr_disks > 1 ? "" : "");
}
