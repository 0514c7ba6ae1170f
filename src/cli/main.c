/* main.c - iomark's command table. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "workload/args.h"

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"run", iom_cmd_run, "run one workload (fio-style options) on files or block devices"},
    {"probe", iom_cmd_probe, "show controller, driver and queue limits under files or disks"},
    {"mark", iom_cmd_mark, "CrystalDiskMark-style preset: SEQ1M/RND4K read and write"},
    {"lab", iom_cmd_lab, "same workload on QEMU's PVSCSI, NVMe, LSI SAS, SATA, IDE, virtio; compared"},
    {"tpcc", iom_cmd_tpcc, "TPC-C derived OLTP workload on SQLite or PostgreSQL (NOPM, TPM)"},
    {"compare", iom_cmd_compare, "compare results (iomark, fio, DiskSpd, CrystalDiskMark) side by side"},
    {"sweep", iom_cmd_sweep, "one workload over lists of threads and queue depths; finds the knee"},
    {"report", iom_cmd_report, "self-contained HTML report with SVG charts from result files"},
    {"diskspd", iom_cmd_diskspd, "run a DiskSpd 2.x command line; DiskSpd text or XML report"},
    {"profiles", iom_cmd_profiles, "list the SQL Server I/O profiles (iomark run --profile NAME)"},
    {"model", iom_cmd_model, "queueing model: fit a sweep, predict other queue limits (MVA + simulation)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: iomark COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'iomark COMMAND --help' (or 'iomark help COMMAND') shows a command's options. 'iomark --version'.\n");
}

/* The command nearest to a mistyped one: at most 2 edits (1 for words of up to
 * 4 letters), or NULL. "rnu" -> run, "mrak" -> mark, "swep" -> sweep. */
static const char *closest(const char *word)
{
    const char *best = NULL;
    size_t bd = 99;
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        size_t d = iom_edit_distance(word, commands[i].name);
        if (d < bd) {
            bd = d;
            best = commands[i].name;
        }
    }
    return bd <= (strlen(word) <= 4 ? 1u : 2u) ? best : NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return IOM_EXIT_USAGE;
    }
    if (strcmp(argv[1], "help") == 0 && argc > 2) { /* iomark help CMD [SUB] = CMD [SUB] --help */
        static char *hargv[8];
        int n = 0;
        hargv[n++] = argv[0];
        for (int i = 2; i < argc && n < 6; i++)
            hargv[n++] = argv[i];
        hargv[n++] = (char *)"--help";
        hargv[n] = NULL;
        argc = n;
        argv = hargv; /* argv[1] is the command, as below */
    } else if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
               strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return IOM_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("iomark %s\n", IOMARK_VERSION);
        return IOM_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return iom_cli_stdout_status(argv[1], commands[i].fn(argc - 1, argv + 1));
    const char *near = closest(argv[1]);
    fprintf(stderr, "iomark: %s: unknown command; ", argv[1]);
    if (near)
        fprintf(stderr, "did you mean %s? ", near);
    fprintf(stderr, "commands:");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(stderr, " %s", commands[i].name);
    fprintf(stderr, " help\n");
    return IOM_EXIT_USAGE;
}
