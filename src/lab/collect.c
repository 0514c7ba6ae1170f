/* collect.c - parse the lab's result channel and the guest's sysfs view. */
#include "lab/collect.h"
#include "util/json_get.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR "@@iomark-lab "

int iom_lab_channel_parse(const char *buf, size_t len, struct iom_lab_channel *ch)
{
    memset(ch, 0, sizeof(*ch));
    size_t pos = 0;
    while (pos < len) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (!nl) {
            ch->truncated = true;
            return 0;
        }
        size_t hl = (size_t)(nl - (buf + pos));
        char hdr[160];
        if (hl >= sizeof(hdr) || hl < sizeof(HDR) || memcmp(buf + pos, HDR, sizeof(HDR) - 1) != 0)
            return -EPROTO;
        memcpy(hdr, buf + pos, hl);
        hdr[hl] = 0;
        char name[64];
        unsigned long long n;
        char extra;
        if (sscanf(hdr + sizeof(HDR) - 1, "%63s %llu %c", name, &n, &extra) != 2)
            return -EPROTO;
        pos += hl + 1;
        if (n > len - pos || len - pos - n < 1) {
            ch->truncated = true;   /* data or its closing newline missing */
            return 0;
        }
        if (buf[pos + n] != '\n')
            return -EPROTO;
        struct iom_lab_section *s = realloc(ch->s, (ch->n + 1) * sizeof(*s));
        if (!s)
            return -ENOMEM;
        ch->s = s;
        s = &ch->s[ch->n];
        snprintf(s->name, sizeof(s->name), "%s", name);
        if (!(s->data = malloc(n + 1)))
            return -ENOMEM;
        memcpy(s->data, buf + pos, n);
        s->data[n] = 0;
        s->len = n;
        ch->n++;
        if (strcmp(name, "end") == 0)
            ch->complete = true;
        pos += n + 1;
    }
    return 0;
}

int iom_lab_channel_read(const char *path, struct iom_lab_channel *ch)
{
    memset(ch, 0, sizeof(*ch));
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? 0 : -errno;
    size_t cap = 1 << 16, n = 0, r;
    char *b = malloc(cap);
    int rc = 0;
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
            cap *= 2;
        }
    }
    if (!b)
        rc = -ENOMEM;
    else if (ferror(f))
        rc = -EIO;
    fclose(f);
    if (!rc)
        rc = iom_lab_channel_parse(b, n, ch);
    free(b);
    return rc;
}

const struct iom_lab_section *iom_lab_channel_get(const struct iom_lab_channel *ch,
                                                  const char *name)
{
    for (size_t i = 0; i < ch->n; i++)
        if (strcmp(ch->s[i].name, name) == 0)
            return &ch->s[i];
    return NULL;
}

void iom_lab_channel_free(struct iom_lab_channel *ch)
{
    for (size_t i = 0; i < ch->n; i++)
        free(ch->s[i].data);
    free(ch->s);
    memset(ch, 0, sizeof(*ch));
}

/* Value of "key=" in key=value lines, copied to buf; false when absent. */
static bool kv(const char *text, const char *key, char *buf, size_t len)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        if (l > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
            snprintf(buf, len, "%.*s", (int)(l - kl - 1), p + kl + 1);
            return true;
        }
        p = eol ? eol + 1 : NULL;
    }
    return false;
}

static long kv_long(const char *text, const char *key)
{
    char b[64], *end;
    if (!text || !kv(text, key, b, sizeof(b)))
        return -1;
    long v = strtol(b, &end, 10);
    return end != b && v >= 0 ? v : -1;
}

void iom_lab_guest_view_parse(const char *sysfs, const char *meta, struct iom_lab_guest_view *v)
{
    memset(v, 0, sizeof(*v));
    v->can_queue = v->cmd_per_lun = v->queue_depth = v->nr_requests = -1;
    v->max_sectors_kb = v->max_hw_sectors_kb = v->max_segments = -1;
    v->nr_hw_queues = v->nvme_sqsize = v->nr_cpus = v->mem_total_kib = -1;
    v->disk_seen_uptime_s = -1;
    if (sysfs) {
        char b[128];
        kv(sysfs, "disk", v->disk, sizeof(v->disk));
        kv(sysfs, "driver", v->driver, sizeof(v->driver));
        if (!kv(sysfs, "device/model", v->model, sizeof(v->model)))
            kv(sysfs, "nvme/model", v->model, sizeof(v->model));
        if (kv(sysfs, "queue/scheduler", b, sizeof(b))) {
            /* "[mq-deadline] none" -> "mq-deadline"; "none" alone stays */
            const char *o = strchr(b, '['), *c = o ? strchr(o, ']') : NULL;
            if (o && c)
                snprintf(v->scheduler, sizeof(v->scheduler), "%.*s", (int)(c - o - 1), o + 1);
            else
                snprintf(v->scheduler, sizeof(v->scheduler), "%s", b);
        }
        v->can_queue = kv_long(sysfs, "scsi_host/can_queue");
        v->cmd_per_lun = kv_long(sysfs, "scsi_host/cmd_per_lun");
        v->queue_depth = kv_long(sysfs, "device/queue_depth");
        v->nr_requests = kv_long(sysfs, "queue/nr_requests");
        v->max_sectors_kb = kv_long(sysfs, "queue/max_sectors_kb");
        v->max_hw_sectors_kb = kv_long(sysfs, "queue/max_hw_sectors_kb");
        v->max_segments = kv_long(sysfs, "queue/max_segments");
        v->nr_hw_queues = kv_long(sysfs, "nr_hw_queues");
        v->nvme_sqsize = kv_long(sysfs, "nvme/sqsize");
        /* module/NAME/PARAM=VALUE lines -> "NAME.PARAM=VALUE ..." */
        for (const char *p = sysfs; p && *p;) {
            const char *eol = strchr(p, '\n');
            size_t l = eol ? (size_t)(eol - p) : strlen(p);
            if (l > 7 && strncmp(p, "module/", 7) == 0) {
                char item[256];
                snprintf(item, sizeof(item), "%.*s", (int)(l - 7), p + 7);
                char *slash = strchr(item, '/');
                if (slash)
                    *slash = '.';
                size_t have = strlen(v->module_params);
                if (have + strlen(item) + 2 < sizeof(v->module_params))
                    snprintf(v->module_params + have, sizeof(v->module_params) - have, "%s%s",
                             have ? " " : "", item);
            }
            p = eol ? eol + 1 : NULL;
        }
    }
    if (meta) {
        char b[64];
        kv(meta, "kernel", v->kernel, sizeof(v->kernel));
        v->nr_cpus = kv_long(meta, "nr_cpus");
        v->mem_total_kib = kv_long(meta, "mem_total_kib");
        if (kv(meta, "disk_seen_uptime_s", b, sizeof(b)))
            v->disk_seen_uptime_s = strtod(b, NULL);
    }
}

void iom_lab_guest_queues(const struct iom_lab_guest_view *v, long *adapter, long *lun)
{
    *adapter = v->can_queue;
    *lun = v->queue_depth >= 0 ? v->queue_depth : v->nr_requests;
}

static void add_num(cJSON *o, const char *k, long v)
{
    if (v >= 0)
        cJSON_AddNumberToObject(o, k, (double)v);
}

cJSON *iom_lab_guest_view_json(const struct iom_lab_guest_view *v)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    long adapter, lun;
    iom_lab_guest_queues(v, &adapter, &lun);
    cJSON_AddStringToObject(o, "disk", v->disk);
    cJSON_AddStringToObject(o, "driver", v->driver);
    cJSON_AddStringToObject(o, "model", v->model);
    cJSON_AddStringToObject(o, "scheduler", v->scheduler);
    add_num(o, "adapter_queue", adapter);
    add_num(o, "lun_queue", lun);
    add_num(o, "can_queue", v->can_queue);
    add_num(o, "cmd_per_lun", v->cmd_per_lun);
    add_num(o, "queue_depth", v->queue_depth);
    add_num(o, "nr_requests", v->nr_requests);
    add_num(o, "max_sectors_kb", v->max_sectors_kb);
    add_num(o, "max_hw_sectors_kb", v->max_hw_sectors_kb);
    add_num(o, "max_segments", v->max_segments);
    add_num(o, "nr_hw_queues", v->nr_hw_queues);
    add_num(o, "nvme_sqsize", v->nvme_sqsize);
    cJSON_AddStringToObject(o, "module_parameters", v->module_params);
    cJSON_AddStringToObject(o, "kernel", v->kernel);
    add_num(o, "nr_cpus", v->nr_cpus);
    add_num(o, "mem_total_kib", v->mem_total_kib);
    if (v->disk_seen_uptime_s >= 0)
        cJSON_AddNumberToObject(o, "disk_seen_uptime_s", v->disk_seen_uptime_s);
    return o;
}

int iom_lab_figures_from_doc(const cJSON *doc, struct iom_lab_figures *f)
{
    memset(f, 0, sizeof(*f));
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(doc, "type");
    const cJSON *tot = cJSON_GetObjectItemCaseSensitive(doc, "total");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, "run") != 0 || !cJSON_IsObject(tot))
        return -EINVAL;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(tot, "total");
    if (!cJSON_IsObject(d)) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(tot, "read");
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(tot, "write");
        d = iom_json_num(w, "ios", -1) > 0 && iom_json_num(r, "ios", -1) <= 0 ? w : r;
    }
    if (!cJSON_IsObject(d) || iom_json_num(d, "iops", -1) < 0)
        return -EINVAL;
    f->iops = iom_json_num(d, "iops", -1);
    f->mib_per_s = iom_json_num(d, "mib_per_s", -1);
    f->ios = iom_json_num(d, "ios", -1);
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(d, "lat_us");
    f->lat_mean_us = iom_json_num(lat, "mean", -1);
    f->lat_p99_us = iom_json_num(cJSON_GetObjectItemCaseSensitive(lat, "percentiles"), "99", -1);
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(doc, "cpu");
    double u = iom_json_num(cpu, "user_pct", -1), s = iom_json_num(cpu, "system_pct", -1);
    f->cpu_pct = u >= 0 && s >= 0 ? u + s : -1;
    return 0;
}
