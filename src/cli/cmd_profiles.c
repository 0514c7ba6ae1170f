/* cmd_profiles.c - `iomark profiles`: list the SQL Server I/O profiles. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "workload/args.h"
#include "workload/profiles.h"

int iom_cmd_profiles(int argc, char **argv)
{
    bool verbose = false;
    static const struct iom_arg_opt table[] = {
        {"verbose", 'v', false}, {"help", 'h', false}, {NULL, 0, false}};
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, table, "profiles");
    int k;
    const char *v;
    char aerr[300];
    while ((k = iom_args_next(&args, &v, aerr, sizeof(aerr))) != IOM_ARG_END) {
        if (k == IOM_ARG_ERROR || k == IOM_ARG_POSITIONAL) {
            if (k == IOM_ARG_POSITIONAL)
                snprintf(aerr, sizeof(aerr), "%s: unexpected argument; allowed: --verbose (-v)", v);
            iom_cli_error("profiles", "%s", aerr);
            return IOM_EXIT_USAGE;
        }
        if (iom_args_flag(v) < 0) {
            iom_cli_error("profiles", "--%s=%s: allowed: 0 or 1", table[k].name, v);
            return IOM_EXIT_USAGE;
        }
        if (!strcmp(table[k].name, "help") && iom_args_flag(v)) {
            printf("usage: iomark profiles [--verbose]\nList the SQL Server I/O profiles; run one "
                   "with iomark run --profile NAME [options] TARGET.\n");
            return IOM_EXIT_OK;
        }
        verbose = iom_args_flag(v);
    }
    size_t n;
    const struct iom_profile *p = iom_profile_list(&n);
    for (size_t i = 0; i < n; i++) {
        printf("%-15s %s\n", p[i].name, p[i].pattern);
        printf("%-15s   options: %s\n", "", p[i].options);
        if (verbose)
            printf("%-15s   source: %s\n", "", p[i].source);
    }
    printf("\nRun one with: iomark run --profile NAME [options] TARGET (options override the "
           "profile's).\n");
    return IOM_EXIT_OK;
}
