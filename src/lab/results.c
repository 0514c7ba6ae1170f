/*
 * results.c - one controller's results from a boot's result channel: its
 * guest view, probe, each job's runs (documents written to the output
 * folder), figures, I/O path counters and tpcc consistency check.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/labrun.h"
#include "report/report.h"

/* Last non-empty line of a text (stderr) into buf. */
static void last_line(const char *text, char *buf, size_t len)
{
    buf[0] = 0;
    if (!text)
        return;
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(buf, len, "%.*s", (int)(end - start), start);
}

/* A section of unit prefix pfx ("" or "K/"). */
const struct iom_lab_section *iom_lab_usec(const struct iom_lab_channel *ch, const char *pfx,
                                          const char *name)
{
    char full[96];
    snprintf(full, sizeof(full), "%s%s", pfx, name);
    return iom_lab_channel_get(ch, full);
}

/* Read unit uo's results (sections prefixed pfx) from the channel, write its
 * documents. Returns the first failure ("" when none) in first_fail. */
void iom_lab_collect_unit(const struct iom_lab_opts *o, struct iom_lab_env *e,
                         const struct iom_lab_channel *ch, const char *pfx, const char *fname,
                         struct iom_lab_unitout *uo, char *first_fail, size_t fflen)
{
    const struct iom_lab_unit *u = uo->u;
    const struct iom_lab_ctrl *c = u->c;
    const struct iom_lab_section *sys = iom_lab_usec(ch, pfx, "sysfs");
    const struct iom_lab_section *meta = iom_lab_usec(ch, pfx, "meta");
    if (!meta)
        meta = iom_lab_channel_get(ch, "meta");
    if (sys || meta) {
        iom_lab_guest_view_parse(sys ? sys->data : NULL, meta ? meta->data : NULL, &uo->view);
        uo->have_view = sys != NULL;
    }
    if (uo->have_view)
        uo->params = iom_lab_params_json(u, &uo->view);
    /* `iomark probe` ran once for every disk of the boot: this unit's copy
     * keeps only its own target (by path) */
    const struct iom_lab_section *pb = iom_lab_usec(ch, pfx, "probe");
    if (!pb)
        pb = iom_lab_channel_get(ch, "probe");
    if (pb)
        uo->probe = cJSON_ParseWithLength(pb->data, pb->len);
    cJSON *ta = uo->probe ? cJSON_GetObjectItemCaseSensitive(uo->probe, "targets") : NULL;
    if (cJSON_IsArray(ta) && cJSON_GetArraySize(ta) > 1 && uo->have_view) {
        char want[64];
        snprintf(want, sizeof(want), "/dev/%s", uo->view.disk);
        for (int k = cJSON_GetArraySize(ta) - 1; k >= 0; k--) {
            const cJSON *pth = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ta, k), "path");
            if (!cJSON_IsString(pth) || strcmp(pth->valuestring, want) != 0)
                cJSON_DeleteItemFromArray(ta, k);
        }
    }
    first_fail[0] = 0;
    for (size_t j = 0; j < o->nr_jobs; j++) {
        struct iom_lab_jobout *jo = &uo->jobs[j];
        const char *cmd = o->jobs[j].command;
        for (unsigned r = 1; r <= o->repeat; r++) {
            struct iom_lab_runrec *rec = &jo->runs[r - 1];
            char name[48], path[4400];
            snprintf(name, sizeof(name), "result.%zu.%u", j + 1, r);
            const struct iom_lab_section *res = iom_lab_usec(ch, pfx, name);
            snprintf(name, sizeof(name), "status.%zu.%u", j + 1, r);
            const struct iom_lab_section *st = iom_lab_usec(ch, pfx, name);
            snprintf(name, sizeof(name), "stderr.%zu.%u", j + 1, r);
            const struct iom_lab_section *se = iom_lab_usec(ch, pfx, name);
            snprintf(name, sizeof(name), "t0.%zu.%u", j + 1, r);
            const struct iom_lab_section *t0 = iom_lab_usec(ch, pfx, name);
            snprintf(name, sizeof(name), "t1.%zu.%u", j + 1, r);
            const struct iom_lab_section *t1 = iom_lab_usec(ch, pfx, name);
            iom_lab_io_from(t0 ? t0->data : NULL, t1 ? t1->data : NULL, &rec->io);
            if (!isnan(rec->qemu_t0) && !isnan(rec->qemu_t1))
                rec->io.qemu_cpu_s = rec->qemu_t1 - rec->qemu_t0;
            rec->status = st ? atoi(st->data) : -1;
            bool xml = strcmp(cmd, "diskspd") == 0;
            cJSON *doc = res && !xml ? cJSON_ParseWithLength(res->data, res->len) : NULL;
            char ierr[256];
            if (res && rec->status == 0)
                iom_import_buffer(name, res->data, res->len, &rec->imp, ierr, sizeof(ierr));
            iom_lab_figures_of(cmd, doc, rec);
            if (strcmp(cmd, "sweep") == 0 && rec->imp) {
                snprintf(name, sizeof(name), "series.%zu.%u", j + 1, r);
                const struct iom_lab_section *sr = iom_lab_usec(ch, pfx, name);
                iom_lab_points_from_series(sr ? sr->data : NULL, rec, rec->imp->nr_workloads);
            }
            rec->ok = rec->status == 0 && (doc || rec->imp);
            if (rec->ok)
                jo->nr_ok++;
            else if (!jo->fail[0]) {
                char el[200];
                last_line(se ? se->data : NULL, el, sizeof(el));
                if (!st)
                    snprintf(jo->fail, sizeof(jo->fail), "%s run %u did not report", cmd, r);
                else if (rec->status != 0)
                    snprintf(jo->fail, sizeof(jo->fail),
                             "iomark %s in the guest exited with %d: %s", cmd, rec->status,
                             el[0] ? el : "(no message)");
                else
                    snprintf(jo->fail, sizeof(jo->fail), "%s run %u sent no readable result",
                             cmd, r);
                if (!first_fail[0])
                    snprintf(first_fail, fflen, "%s", jo->fail);
            }
            if (doc && strcmp(cmd, "mark") == 0 && !jo->mark_tests) {
                const cJSON *t = cJSON_GetObjectItemCaseSensitive(doc, "tests");
                if (cJSON_IsArray(t))
                    jo->mark_tests = cJSON_Duplicate(t, 1);
            }
            if (!res)
                continue;
            /* the guest's document (with the lab's record added to JSON ones) */
            char base[300];
            if (o->nr_jobs == 1)
                snprintf(base, sizeof(base), "%s", fname);
            else
                snprintf(base, sizeof(base), "%s.job%zu-%s", fname, j + 1, cmd);
            if (o->repeat == 1)
                snprintf(path, sizeof(path), "%s/%s.%s", e->outdir, base, xml ? "xml" : "json");
            else
                snprintf(path, sizeof(path), "%s/%s.%u.%s", e->outdir, base, r,
                         xml ? "xml" : "json");
            int wrc = 0;
            if (doc) {
                cJSON *lab = iom_lab_env_json(e, o, u);
                cJSON_AddStringToObject(lab, "controller", c->name);
                cJSON_AddStringToObject(lab, "variant", u->name);
                cJSON_AddStringToObject(lab, "controller_title", c->title);
                cJSON_AddStringToObject(lab, "qemu_device", c->qemu_device);
                cJSON_AddStringToObject(lab, "machine", c->machine);
                cJSON_AddStringToObject(lab, "command", cmd);
                cJSON_AddNumberToObject(lab, "job", (double)(j + 1));
                cJSON_AddNumberToObject(lab, "run", r);
                if (uo->have_view)
                    cJSON_AddItemToObject(lab, "guest", iom_lab_guest_view_json(&uo->view));
                if (uo->probe)
                    cJSON_AddItemToObject(lab, "probe", cJSON_Duplicate(uo->probe, 1));
                cJSON_AddItemToObject(doc, "lab", lab);
                wrc = iom_json_write(doc, path);
            } else {
                FILE *f = fopen(path, "w");
                if (!f || fwrite(res->data, 1, res->len, f) != res->len)
                    wrc = -EIO;
                if (f && fclose(f))
                    wrc = -EIO;
            }
            if (wrc && !first_fail[0])
                snprintf(first_fail, fflen, "writing %s: %s", path, strerror(-wrc));
            cJSON_Delete(doc);
        }
        iom_lab_mean_of(jo, o->repeat);
        if (strcmp(cmd, "tpcc") == 0) {
            char name[48];
            snprintf(name, sizeof(name), "check.%zu", j + 1);
            const struct iom_lab_section *ck = iom_lab_usec(ch, pfx, name);
            snprintf(name, sizeof(name), "checkstatus.%zu", j + 1);
            const struct iom_lab_section *cs = iom_lab_usec(ch, pfx, name);
            jo->check_status = cs ? atoi(cs->data) : -1;
            if (ck)
                jo->check = cJSON_ParseWithLength(ck->data, ck->len);
            if (jo->check_status != 0 && !first_fail[0])
                snprintf(first_fail, fflen, "tpcc consistency check in the guest %s",
                         jo->check_status < 0 ? "did not run" : "found violations");
        } else {
            jo->check_status = -1;
        }
    }
}

