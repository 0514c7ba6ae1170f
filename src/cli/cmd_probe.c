/* cmd_probe.c - `iomark probe [options] [TARGET...]`: controller, queue limits, advice. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "workload/args.h"
#include "probe/probe.h"
#include "report/probe_report.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: iomark probe [options] [TARGET...]\n"
            "Show the storage stack under each TARGET (file, folder or block device; none =\n"
            "every disk): filesystem, partitions, device-mapper, md, loop, the disk, its\n"
            "controller driver and PCI id, queue limits (adapter can_queue, LUN queue_depth,\n"
            "nr_requests, hardware queues), I/O size limits, scheduler, write cache, driver\n"
            "module parameters, the hypervisor, and advice with sources. Needs no root.\n\n"
            "  --output-format=FMT   normal (default) or json\n"
            "  --output=FILE         write the report to FILE instead of stdout\n"
            "  --sysfs-root=DIR      read DIR/sys and DIR/proc instead of /sys and /proc\n"
            "                        (a captured tree; default: $%s or /)\n"
            "  --outstanding=N       check N concurrent I/Os per target (iodepth x numjobs)\n"
            "                        against each disk's queue limits\n"
            "  --help                this text\n\n"
            "Exit status: 0 ok, 1 output could not be written, 2 bad input.\n",
            IOM_PROBE_ROOT_ENV);
}

int iom_cmd_probe(int argc, char **argv)
{
    bool json = false;
    const char *out_path = NULL, *root_opt = NULL;
    unsigned long long outstanding = 0;
    const char **targets = calloc((size_t)argc, sizeof(*targets));
    int nt = 0, status = IOM_EXIT_OK;
    if (!targets)
        return IOM_EXIT_FAIL;
    static const struct iom_arg_opt table[] = {
        {"output-format", 0, true}, {"output", 'o', true}, {"sysfs-root", 0, true},
        {"outstanding", 0, true},   {"help", 'h', false},  {NULL, 0, false},
    };
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, table, "probe");
    int ak;
    const char *v;
    char aerr[600];
    while (!status && (ak = iom_args_next(&args, &v, aerr, sizeof(aerr))) != IOM_ARG_END) {
        const char *name = ak >= 0 ? table[ak].name : "";
        if (ak == IOM_ARG_ERROR) {
            iom_cli_error("probe", "%s", aerr);
            status = IOM_EXIT_USAGE;
        } else if (ak == IOM_ARG_POSITIONAL) {
            targets[nt++] = v;
        } else if (!strcmp(name, "help")) {
            usage(stdout);
            free(targets);
            return IOM_EXIT_OK;
        } else if (!strcmp(name, "output-format")) {
            if (strcmp(v, "json") == 0) {
                json = true;
            } else if (strcmp(v, "normal") == 0 || strcmp(v, "text") == 0) {
                json = false;
            } else {
                status = iom_cli_bad_choice("probe", "output-format", v,
                                            (const char *const[]){"normal", "json", NULL},
                                            "normal, json");
            }
        } else if (!strcmp(name, "output")) {
            if (!v[0]) {
                iom_cli_error("probe", "--output=: needs a file name");
                status = IOM_EXIT_USAGE;
            } else {
                out_path = v;
            }
        } else if (!strcmp(name, "sysfs-root")) {
            struct stat st;
            if (!v[0] || stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
                iom_cli_error("probe", "--sysfs-root=%s: allowed: an existing folder holding sys/ "
                              "(and proc/)", v);
                status = IOM_EXIT_USAGE;
            } else {
                root_opt = v;
            }
        } else if (!strcmp(name, "outstanding")) {
            char *end;
            errno = 0;
            outstanding = strtoull(v, &end, 10);
            if (errno || end == v || *end || v[0] == '-' || outstanding == 0 ||
                outstanding > 1000000) {
                iom_cli_error("probe", "--outstanding=%s: allowed: a whole number 1-1000000", v);
                status = IOM_EXIT_USAGE;
            }
        }
    }
    const char *root = status ? "" : iom_probe_root(root_opt);
    if (!status && root[0] && !root_opt) {
        struct stat st;
        if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
            iom_cli_error("probe", "%s=%s: allowed: an existing folder holding sys/ (and proc/)",
                          IOM_PROBE_ROOT_ENV, root);
            status = IOM_EXIT_USAGE;
        }
    }
    if (!status && out_path)
        status = iom_cli_check_output("probe", out_path, -1);

    struct iom_probe_target *pt = NULL;
    int npt = 0;
    if (!status && nt == 0) {
        int rc = iom_probe_all_disks(root, &pt, &npt);
        if (rc) {
            iom_cli_error("probe", "cannot list disks in %s/sys/block: %s", root, strerror(-rc));
            status = rc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
        }
    } else if (!status) {
        pt = calloc((size_t)nt, sizeof(*pt));
        if (!pt)
            status = IOM_EXIT_FAIL;
        for (int i = 0; !status && i < nt; i++) {
            int rc = iom_probe_target(root, targets[i], &pt[i]);
            if (rc) {
                iom_cli_error("probe", "%s: %s%s%s", targets[i],
                              rc == -ENODEV   ? "not a block device known to sysfs"
                              : rc == -EINVAL ? "a captured tree needs absolute paths"
                                              : strerror(-rc),
                              root[0] ? " under --sysfs-root " : "", root);
                status = IOM_EXIT_USAGE;
            }
        }
        npt = nt;
    }
    if (status)
        goto out;

    struct iom_probe_host host;
    iom_probe_host(root, &host);
    struct iom_probe_advice_list adv = {0};
    for (int i = 0; i < npt; i++)
        iom_probe_advise(&pt[i], &host, &adv);
    if (npt > 1)
        iom_probe_advise_schedulers(pt, npt, &adv);
    for (int i = 0; outstanding && i < npt; i++)
        for (int k = 0; k < pt[i].nr_disks && adv.nr < IOM_PROBE_MAX_ADVICE; k++) {
            bool seen = false; /* one line per disk, however many targets share it */
            for (int j = 0; j < adv.nr; j++)
                seen |= strcmp(adv.a[j].disk, pt[i].disks[k].name) == 0 &&
                        strstr(adv.a[j].text, "outstanding I/Os asked for") != NULL;
            if (!seen)
                adv.nr += iom_probe_advise_depth(&pt[i].disks[k], outstanding, &adv.a[adv.nr]);
        }

    if (json) {
        cJSON *doc = iom_probe_report_json(root, &host, pt, npt, &adv);
        if (!doc) {
            status = IOM_EXIT_FAIL;
            goto out;
        }
        int rc = iom_json_write(doc, out_path);
        cJSON_Delete(doc);
        if (rc)
            status = iom_cli_write_failed("probe", out_path, rc);
    } else {
        FILE *f = stdout;
        if (out_path && !(f = fopen(out_path, "w"))) {
            iom_cli_error("probe", "cannot write %s: %s", out_path, strerror(errno));
            status = IOM_EXIT_FAIL;
            goto out;
        }
        iom_probe_report_text(f, &host, pt, npt, &adv);
        status = iom_cli_fclose("probe", f, out_path);
    }
out:
    free(pt);
    free(targets);
    return status;
}
