/* cmd_lab_win.c - the lab on Windows: it drives QEMU/KVM guests, loop
 * devices and Linux tools, so it stays in the Linux build. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int iom_cmd_lab(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: iomark lab ...\n\n"
               "The lab runs on Linux only (QEMU with KVM, loop devices, guest kernels); run\n"
               "it from the Linux build of iomark.\n");
        return IOM_EXIT_OK;
    }
    fprintf(stderr, "iomark lab: lab runs on Linux only (QEMU/KVM guests); use the Linux build\n");
    return IOM_EXIT_USAGE;
}
