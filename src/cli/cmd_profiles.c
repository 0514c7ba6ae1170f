/* cmd_profiles.c - `iomark profiles`: list the SQL Server I/O profiles. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "workload/profiles.h"

int iom_cmd_profiles(int argc, char **argv)
{
    bool verbose = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: iomark profiles [--verbose]\nList the SQL Server I/O profiles; run one "
                   "with iomark run --profile NAME [options] TARGET.\n");
            return IOM_EXIT_OK;
        }
        if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0) {
            verbose = true;
            continue;
        }
        iom_cli_error("profiles", "%s: unknown option; allowed: --verbose", argv[i]);
        return IOM_EXIT_USAGE;
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
