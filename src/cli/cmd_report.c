/* cmd_report.c - placeholder until implemented */
#include "cli/cli.h"
int iom_cmd_report(int argc, char **argv)
{
    (void)argc, (void)argv;
    return IOM_EXIT_USAGE;
}
