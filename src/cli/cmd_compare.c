/* cmd_compare.c - `iomark compare [options] RESULT...`: side by side, with the
 * change against the first input and Welch's test where runs repeat. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "compare/cmp.h"
#include "report/compare.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: iomark compare [options] RESULT...\n"
            "Compare results side by side: one column per RESULT, one table per workload,\n"
            "and the change of each input against the first one that has the metric.\n\n"
            "RESULT is a result file of iomark (run, repeat, mark, sweep, tpcc), fio (json,\n"
            "json+, normal text), DiskSpd (XML or text), CrystalDiskMark or KDiskMark (text);\n"
            "the format is found from the content. Repeated runs of one input:\n"
            "  A1.json,A2.json,A3.json       files of one input, pooled as runs\n"
            "  LABEL=A1.json,A2.json          the same with a column label\n"
            "(an iomark --repeat document or a fio log with repeated job blocks already\n"
            "holds several runs). With 2+ runs on both sides Welch's t-test says whether\n"
            "the difference is larger than the run-to-run spread.\n\n"
            "  --output-format=FMT   normal (default), markdown, json\n"
            "  --output=FILE, -o FILE  write there instead of stdout\n"
            "  --alpha=P             significance level of the test, 0 < P < 1 (default 0.05)\n"
            "  --help\n\n"
            "Exit status: 0 ok, 2 bad option or a file that is not a result.\n");
}

enum fmt { F_TEXT, F_MD, F_JSON };

int iom_cmd_compare(int argc, char **argv)
{
    enum fmt fmt = F_TEXT;
    const char *out = NULL;
    double alpha = 0.05;
    const char **specs = calloc((size_t)argc + 1, sizeof(*specs));
    if (!specs)
        return IOM_EXIT_FAIL;
    int nspec = 0, opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || a[1] == '\0') {
            specs[nspec++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            opts_done = 1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(specs);
            return IOM_EXIT_OK;
        } else if (!strncmp(a, "--output-format=", 16)) {
            const char *v = a + 16;
            if (!strcmp(v, "normal") || !strcmp(v, "text"))
                fmt = F_TEXT;
            else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
                fmt = F_MD;
            else if (!strcmp(v, "json"))
                fmt = F_JSON;
            else {
                iom_cli_error("compare", "--output-format=%s: allowed: normal, markdown, json", v);
                free(specs);
                return IOM_EXIT_USAGE;
            }
        } else if (!strncmp(a, "--output=", 9) || !strcmp(a, "-o") || !strcmp(a, "--output")) {
            const char *v = a[1] == 'o' || !strcmp(a, "--output") ? (i + 1 < argc ? argv[++i] : "")
                                                                  : a + 9;
            if (!*v) {
                iom_cli_error("compare", "--output=: needs a file name");
                free(specs);
                return IOM_EXIT_USAGE;
            }
            out = v;
        } else if (!strncmp(a, "--alpha=", 8)) {
            char *end;
            alpha = strtod(a + 8, &end);
            if (end == a + 8 || *end || !(alpha > 0 && alpha < 1)) {
                iom_cli_error("compare", "--alpha=%s: allowed: a number between 0 and 1, e.g. 0.05",
                              a + 8);
                free(specs);
                return IOM_EXIT_USAGE;
            }
        } else {
            iom_cli_error("compare", "%s: unknown option; allowed: --output-format, --output, "
                                     "--alpha, --help", a);
            free(specs);
            return IOM_EXIT_USAGE;
        }
    }
    if (nspec == 0) {
        iom_cli_error("compare", "no RESULT given; name one or more result files");
        free(specs);
        return IOM_EXIT_USAGE;
    }
    struct iom_cmp *c;
    char err[700];
    int lrc = iom_cmp_load(specs, (uint32_t)nspec, alpha, &c, err, sizeof(err));
    free(specs);
    if (lrc) {
        iom_cli_error("compare", "%s", err);
        return lrc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
    }
    int status = IOM_EXIT_OK;
    if (fmt == F_JSON) {
        cJSON *doc = iom_cmp_json(c);
        struct iom_run_opts ro = {.output_path = out};
        status = doc ? iom_cli_emit_json("compare", doc, &ro) : IOM_EXIT_FAIL;
        cJSON_Delete(doc);
    } else {
        FILE *f = out ? fopen(out, "w") : stdout;
        if (!f) {
            iom_cli_error("compare", "--output=%s: %s", out, strerror(errno));
            status = IOM_EXIT_USAGE;
        } else {
            if (fmt == F_MD)
                iom_cmp_print_markdown(f, c);
            else
                iom_cmp_print_text(f, c);
            if (f != stdout && fclose(f) != 0) {
                iom_cli_error("compare", "writing %s: %s", out, strerror(errno));
                status = IOM_EXIT_FAIL;
            }
        }
    }
    iom_cmp_free(c);
    return status;
}
