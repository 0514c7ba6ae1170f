/*
 * devinfo_win.c - which volume and disk hold a database file on Windows
 * (tpcc_devinfo_probe's contract, tpcc.h): the volume of the file or of its
 * folder (GetVolumePathName), its file system (GetVolumeInformation) and the
 * disk under it, through the Windows probe (probe/probe_win.c). majmin stays
 * "" (Windows has no device numbers).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_win.h"
#include "tpcc/tpcc.h"

int tpcc_devinfo_probe(const char *path, struct tpcc_devinfo *out)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->path, sizeof(out->path), "%s", path);
    struct iom_probe_target *t = malloc(sizeof(*t));
    if (!t)
        return -ENOMEM;
    int rc = iom_probe_target_win(path, t);
    if (rc == -ENOENT) { /* not created yet (an empty WAL): its folder */
        char dir[4096];
        snprintf(dir, sizeof(dir), "%s", path);
        char *s = strrchr(dir, '\\'), *s2 = strrchr(dir, '/');
        if (s2 > s)
            s = s2;
        if (s)
            *s = '\0';
        else
            snprintf(dir, sizeof(dir), ".");
        rc = iom_probe_target_win(dir, t);
    }
    if (rc == 0) {
        snprintf(out->device, sizeof(out->device), "%s", t->device);
        snprintf(out->disk, sizeof(out->disk), "%s", t->nr_disks ? t->disks[0].name : "");
        snprintf(out->fstype, sizeof(out->fstype), "%s", t->fstype);
        snprintf(out->source, sizeof(out->source), "%s", t->mountpoint);
    }
    free(t);
    return rc;
}
