/*
 * collect.h - the lab's result channel and what is read from it.
 *
 * The guest writes framed sections to a virtio-serial port that QEMU backs
 * with a host file (never the console, so kernel messages cannot mix in):
 *
 *     "@@iomark-lab " NAME " " BYTES "\n" <BYTES bytes of data> "\n"
 *
 * Sections: meta, sysfs, probe, result.N, stderr.N, status.N, error, dmesg, log,
 * and "end" last (its data says "ok" or why the guest stopped early).
 */
#ifndef IOMARK_LAB_COLLECT_H
#define IOMARK_LAB_COLLECT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

struct iom_lab_section {
    char name[64];
    char *data;      /* NUL-terminated copy, len bytes before the NUL */
    size_t len;
};

struct iom_lab_channel {
    struct iom_lab_section *s;
    size_t n;
    bool complete;     /* the "end" section arrived */
    bool truncated;    /* the stream broke off inside a section or header */
};

/*
 * Split a channel stream of len bytes into sections. A stream that breaks
 * off keeps the whole sections before the break and sets truncated. Returns
 * 0, -EPROTO when something other than a section header appears where a
 * header must be (the sections before it are kept), or -ENOMEM. Free with
 * iom_lab_channel_free.
 */
int iom_lab_channel_parse(const char *buf, size_t len, struct iom_lab_channel *ch);

/* Read and parse a channel file. A missing file gives an empty channel and
 * 0. Returns 0 or -errno as iom_lab_channel_parse. */
int iom_lab_channel_read(const char *path, struct iom_lab_channel *ch);

/* The section called name, or NULL. */
const struct iom_lab_section *iom_lab_channel_get(const struct iom_lab_channel *ch,
                                                  const char *name);

/* Free the sections (ch itself is the caller's). */
void iom_lab_channel_free(struct iom_lab_channel *ch);

/* The guest's view of its disk and adapter, from the "sysfs" and "meta"
 * sections. -1 = not reported (not applicable to this driver). */
struct iom_lab_guest_view {
    char disk[32];            /* sda, vda, nvme0n1 */
    char driver[64];          /* scsi_host proc_name, else the driver bound */
    char scheduler[32];       /* the active one, "none" from "[none] mq-deadline" */
    char model[64];
    long can_queue;           /* adapter queue: scsi_host can_queue */
    long cmd_per_lun;
    long queue_depth;         /* per-LUN queue: device/queue_depth */
    long nr_requests;         /* block-layer queue of the disk */
    long max_sectors_kb, max_hw_sectors_kb, max_segments;
    long nr_hw_queues;        /* blk-mq hardware queues (mq/ folders) */
    long nvme_sqsize;         /* NVMe: 0-based submission queue size */
    char module_params[1024]; /* "vmw_pvscsi.ring_pages=8 ..." */
    char kernel[64];          /* guest uname -r */
    long nr_cpus;
    long mem_total_kib;
    double disk_seen_uptime_s;
};

/* Fill v from the texts of the sysfs and meta sections (either may be NULL). */
void iom_lab_guest_view_parse(const char *sysfs, const char *meta, struct iom_lab_guest_view *v);

/*
 * The queue limits shown in the lab's table: adapter = can_queue; LUN =
 * queue_depth. For devices without a SCSI host (NVMe, virtio-blk) adapter is
 * -1 and LUN is the block layer's nr_requests (the tags per hardware queue).
 */
void iom_lab_guest_queues(const struct iom_lab_guest_view *v, long *adapter, long *lun);

/* JSON object of a guest view ("-1" fields are left out). NULL on ENOMEM. */
cJSON *iom_lab_guest_view_json(const struct iom_lab_guest_view *v);

/* The figures in the comparison table. */
struct iom_lab_figures {
    double iops, mib_per_s, lat_mean_us, lat_p99_us;
    double ios;               /* the direction's I/Os (latency samples); -1 absent */
    double cpu_pct;           /* guest CPU busy: user + system % of all vCPUs */
};

/*
 * Read the figures from an iomark result document (type "run"): the "total"
 * object's "total" entry, else its direction with I/Os. Returns 0, or
 * -EINVAL when the document has no such figures (status error, other type).
 */
int iom_lab_figures_from_doc(const cJSON *doc, struct iom_lab_figures *f);

#endif
