/* cmd_mark.c - placeholder replaced below */
#include "cli/cli.h"
int iom_cmd_mark(int argc, char **argv)
{
    (void)argc, (void)argv;
    return IOM_EXIT_USAGE;
}
