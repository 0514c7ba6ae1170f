/* cmd_report.c - `iomark report [options] RESULT... -o report.html`: one
 * self-contained HTML page with SVG charts (report/html.c). */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "report/html.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: iomark report [options] RESULT... -o report.html\n"
            "Write one self-contained HTML file (inline SVG charts, no scripts, no network):\n"
            "comparison bars with change labels, latency percentile curves (log scale),\n"
            "IOPS and latency over time, sweep scaling curves with the knee, and tables.\n"
            "RESULT is any result iomark compare reads; A1.json,A2.json or LABEL=A1.json,...\n"
            "makes several files (repeated runs) one input.\n\n"
            "  --output=FILE, -o FILE  the HTML file (default: stdout)\n"
            "  --title=TEXT            page title (default \"iomark report\")\n"
            "  --alpha=P               significance level of Welch's test (default 0.05)\n"
            "  --help\n\n"
            "Exit status: 0 ok, 1 write failed, 2 bad option or a file that is not a result.\n");
}

static int check_out(const char *path)
{
    char *dup = strdup(path);
    if (!dup)
        return IOM_EXIT_FAIL;
    struct stat st;
    int rc = 0;
    const char *dir = dirname(dup);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        iom_cli_error("report", "--output=%s: folder %s does not exist", path, dir);
        rc = IOM_EXIT_USAGE;
    } else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        iom_cli_error("report", "--output=%s: is a folder; name a file", path);
        rc = IOM_EXIT_USAGE;
    }
    free(dup);
    return rc;
}

int iom_cmd_report(int argc, char **argv)
{
    const char *out = NULL, *title = NULL;
    double alpha = 0.05;
    const char **specs = calloc((size_t)argc + 1, sizeof(*specs));
    if (!specs)
        return IOM_EXIT_FAIL;
    int nspec = 0, opts_done = 0, status = IOM_EXIT_OK;
    for (int i = 1; i < argc && !status; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || a[1] == '\0') {
            specs[nspec++] = a;
        } else if (!strcmp(a, "--")) {
            opts_done = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(specs);
            return IOM_EXIT_OK;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strncmp(a, "--output=", 9)) {
            out = a[1] == 'o' || !strcmp(a, "--output") ? (i + 1 < argc ? argv[++i] : "") : a + 9;
            if (!*out) {
                iom_cli_error("report", "--output=: needs a file name");
                status = IOM_EXIT_USAGE;
            }
        } else if (!strncmp(a, "--title=", 8)) {
            title = a + 8;
        } else if (!strncmp(a, "--alpha=", 8)) {
            char *end;
            alpha = strtod(a + 8, &end);
            if (end == a + 8 || *end || !(alpha > 0 && alpha < 1)) {
                iom_cli_error("report", "--alpha=%s: allowed: a number between 0 and 1, e.g. 0.05",
                              a + 8);
                status = IOM_EXIT_USAGE;
            }
        } else {
            iom_cli_error("report", "%s: unknown option; allowed: --output (-o), --title, --alpha, "
                                    "--help", a);
            status = IOM_EXIT_USAGE;
        }
    }
    if (!status && nspec == 0) {
        iom_cli_error("report", "no RESULT given; name one or more result files");
        status = IOM_EXIT_USAGE;
    }
    if (!status && out)
        status = check_out(out);
    if (status) {
        free(specs);
        return status;
    }
    struct iom_cmp *c;
    char err[700];
    int lrc = iom_cmp_load(specs, (uint32_t)nspec, alpha, &c, err, sizeof(err));
    free(specs);
    if (lrc) {
        iom_cli_error("report", "%s", err);
        return lrc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
    }
    /* write to a temporary file and rename, so a reader never sees half a page */
    char tmp[4200];
    FILE *f = stdout;
    if (out) {
        snprintf(tmp, sizeof(tmp), "%s.tmp%d", out, (int)getpid());
        f = fopen(tmp, "w");
        if (!f) {
            iom_cli_error("report", "--output=%s: %s", out, strerror(errno));
            iom_cmp_free(c);
            return IOM_EXIT_USAGE;
        }
    }
    int rc = iom_html_report(f, c, title);
    if (out) {
        if (fclose(f) != 0)
            rc = -errno;
        if (!rc && rename(tmp, out) != 0)
            rc = -errno;
        if (rc)
            unlink(tmp);
    } else if (fflush(stdout) != 0) {
        rc = -EIO;
    }
    if (rc) {
        iom_cli_error("report", "writing %s: %s", out ? out : "stdout", strerror(-rc));
        status = IOM_EXIT_FAIL;
    }
    iom_cmp_free(c);
    return status;
}
