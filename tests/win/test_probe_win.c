/*
 * test_probe_win.c - Windows probe parts that need no real controller:
 * DriverParameter parsing, the registry read, the PVSCSI / LSI SAS queue
 * limits and the advice they lead to. Expected values from VMware KB 2053145
 * (PVSCSI on Windows: default 8 ring pages and LUN queue 64, i.e. adapter
 * 256 / LUN 64; "RequestRingPages=32,MaxQueueDepth=254" gives 1024 / 254,
 * 32 requests per ring page) and the LSI Logic SAS limits 128 / 32.
 * The registry part writes a value under a service name of its own
 * (iomark_test_svc) and deletes it; run it under Wine or on a test machine.
 */
#include <windows.h>

#include <stdio.h>
#include <string.h>

#include "../unit/check.h"
#include "probe/probe.h"
#include "probe/probe_win.h"

static void blank(struct iom_probe_disk *d, const char *driver)
{
    memset(d, 0, sizeof(*d));
    snprintf(d->name, sizeof(d->name), "PhysicalDrive1");
    snprintf(d->kind, sizeof(d->kind), "scsi");
    snprintf(d->driver, sizeof(d->driver), "%s", driver);
    d->can_queue = d->queue_depth = d->cmd_per_lun = d->nr_requests = -1;
}

static const char *param(const struct iom_probe_disk *d, const char *name)
{
    for (int i = 0; i < d->nr_params; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return d->params[i].value;
    return NULL;
}

int main(void)
{
    struct iom_probe_disk d;
    struct iom_probe_target t;
    struct iom_probe_advice_list adv;

    /* tuned PVSCSI: 32 pages x 32 = 1024, LUN 254; no advice */
    blank(&d, "pvscsi");
    iom_probe_win_parse_driver_parameter(&d, "pvscsi", "RequestRingPages=32,MaxQueueDepth=254");
    CHECK(d.nr_params == 2);
    CHECK(param(&d, "RequestRingPages") && strcmp(param(&d, "RequestRingPages"), "32") == 0);
    iom_probe_win_known_limits(&d);
    CHECK_U64(d.can_queue, 1024);
    CHECK_U64(d.queue_depth, 254);
    CHECK(strcmp(d.driver, "vmw_pvscsi") == 0);
    memset(&t, 0, sizeof(t));
    t.nr_disks = 1;
    t.disks[0] = d;
    memset(&adv, 0, sizeof(adv));
    iom_probe_advise(&t, NULL, &adv);
    CHECK(adv.nr == 0);

    /* PVSCSI with the driver's defaults (no DriverParameter): 256 / 64, advice names the fix */
    blank(&d, "pvscsi");
    iom_probe_win_known_limits(&d);
    CHECK_U64(d.can_queue, 256);
    CHECK_U64(d.queue_depth, 64);
    t.disks[0] = d;
    memset(&adv, 0, sizeof(adv));
    iom_probe_advise(&t, NULL, &adv);
    CHECK(adv.nr == 1);
    CHECK(adv.nr == 1 && strstr(adv.a[0].text, "RequestRingPages=32,MaxQueueDepth=254") != NULL);
    CHECK(adv.nr == 1 && strstr(adv.a[0].source, "2053145") != NULL);

    /* separators and junk: "a=1; b=2 junk c=3" -> three pairs */
    blank(&d, "x");
    iom_probe_win_parse_driver_parameter(&d, "x", "a=1; b=2 junk c=3");
    CHECK(d.nr_params == 3);
    CHECK(param(&d, "c") && strcmp(param(&d, "c"), "3") == 0);

    /* LSI Logic SAS: fixed 128 / 32 */
    blank(&d, "LSI_SAS");
    iom_probe_win_known_limits(&d);
    CHECK_U64(d.can_queue, 128);
    CHECK_U64(d.queue_depth, 32);
    CHECK(strcmp(d.driver, "mptsas") == 0);

    /* the registry read, on a service name of the test's own */
    const char *key = "SYSTEM\\CurrentControlSet\\Services\\iomark_test_svc\\Parameters\\Device";
    const char *val = "RequestRingPages=16,MaxQueueDepth=128";
    LSTATUS st = RegSetKeyValueA(HKEY_LOCAL_MACHINE, key, "DriverParameter", REG_SZ, val,
                                 (DWORD)strlen(val) + 1);
    if (st == ERROR_SUCCESS) {
        blank(&d, "iomark_test_svc");
        CHECK(iom_probe_win_driver_parameter(&d, "iomark_test_svc") == 0);
        CHECK(param(&d, "MaxQueueDepth") && strcmp(param(&d, "MaxQueueDepth"), "128") == 0);
        CHECK(strcmp(d.params[0].module, "iomark_test_svc") == 0);
        RegDeleteTreeA(HKEY_LOCAL_MACHINE, "SYSTEM\\CurrentControlSet\\Services\\iomark_test_svc");
    } else {
        printf("registry part skipped: cannot write HKLM (error %ld; not elevated?)\n", (long)st);
    }
    blank(&d, "iomark_absent_svc");
    CHECK(iom_probe_win_driver_parameter(&d, "iomark_absent_svc") != 0);
    CHECK(d.nr_params == 0);
    return check_status("test_probe_win");
}
