/* cmd_compare.c - `iomark compare [options] RESULT...`: side by side, with the
 * change against the first input and Welch's test where runs repeat. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "workload/args.h"
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
            "the format is found from the content. TPC-C results (tpcc) compare only with\n"
            "TPC-C results, I/O workload results only with I/O workload results.\n"
            "Repeated runs of one input:\n"
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

/* One line on stderr per input whose workload differs from the first
 * input's in block size, queue depth, threads or rw: the figures then
 * compare different workloads. */
static void warn_mismatches(const struct iom_cmp *c)
{
    const struct iom_imp_result *base = c->nr_inputs ? c->inputs[0].files[0] : NULL;
    for (uint32_t k = 0; base && k < c->nr_workloads; k++) {
        const struct iom_cmp_workload *cw = &c->w[k];
        const struct iom_imp_workload *a = iom_cmp_find_workload(base, cw->name, cw->positional);
        for (uint32_t i = 1; a && i < c->nr_inputs; i++) {
            const struct iom_imp_result *r = c->inputs[i].files[0];
            const struct iom_imp_workload *b = iom_cmp_find_workload(r, cw->name, cw->positional);
            char diff[300];
            if (b && iom_cmp_workload_diff(a, b, diff, sizeof(diff)))
                fprintf(stderr, "iomark compare: warning: %s vs %s (workload %s) differ: %s\n",
                        c->inputs[0].label, c->inputs[i].label, cw->name, diff);
        }
    }
}

int iom_cmd_compare(int argc, char **argv)
{
    enum fmt fmt = F_TEXT;
    const char *out = NULL;
    double alpha = 0.05;
    const char **specs = calloc((size_t)argc + 1, sizeof(*specs));
    if (!specs)
        return IOM_EXIT_FAIL;
    static const struct iom_arg_opt table[] = {
        {"output-format", 0, true}, {"output", 'o', true}, {"alpha", 0, true}, {"help", 'h', false},
        {NULL, 0, false},
    };
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, table, "compare");
    int nspec = 0, k;
    const char *v;
    char aerr[600];
    while ((k = iom_args_next(&args, &v, aerr, sizeof(aerr))) != IOM_ARG_END) {
        const char *bad = NULL;
        if (k == IOM_ARG_ERROR) {
            iom_cli_error("compare", "%s", aerr);
            free(specs);
            return IOM_EXIT_USAGE;
        } else if (k == IOM_ARG_POSITIONAL) {
            specs[nspec++] = v;
        } else if (!strcmp(table[k].name, "help")) {
            usage(stdout);
            free(specs);
            return IOM_EXIT_OK;
        } else if (!strcmp(table[k].name, "output-format")) {
            if (!strcmp(v, "normal") || !strcmp(v, "text"))
                fmt = F_TEXT;
            else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
                fmt = F_MD;
            else if (!strcmp(v, "json"))
                fmt = F_JSON;
            else {
                free(specs);
                return iom_cli_bad_choice("compare", "output-format", v,
                                          (const char *const[]){"normal", "markdown", "json", NULL},
                                          "normal, markdown, json");
            }
        } else if (!strcmp(table[k].name, "output")) {
            if (!*v)
                bad = "needs a file name";
            out = v;
        } else if (!strcmp(table[k].name, "alpha")) {
            char *end;
            alpha = strtod(v, &end);
            if (end == v || *end || !(alpha > 0 && alpha < 1))
                bad = "allowed: a number between 0 and 1, e.g. 0.05";
        }
        if (bad) {
            iom_cli_error("compare", "--%s=%s: %s", table[k].name, v, bad);
            free(specs);
            return IOM_EXIT_USAGE;
        }
    }
    if (nspec == 0) {
        iom_cli_error("compare", "no RESULT given; name one or more result files");
        free(specs);
        return IOM_EXIT_USAGE;
    }
    int orc = iom_cli_check_output("compare", out, -1);
    if (!orc)
        orc = iom_cli_output_apart_specs("compare", out, specs, (size_t)nspec);
    if (orc) {
        free(specs);
        return orc;
    }
    struct iom_cmp *c;
    char err[700];
    int lrc = iom_cmp_load(specs, (uint32_t)nspec, alpha, &c, err, sizeof(err));
    free(specs);
    if (lrc) {
        iom_cli_error("compare", "%s", err);
        return lrc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
    }
    warn_mismatches(c);
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
            status = iom_cli_fclose("compare", f, out);
        }
    }
    iom_cmp_free(c);
    return status;
}
