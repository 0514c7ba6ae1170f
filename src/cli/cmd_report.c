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
#include "report/lab_html.h"
#include "report/model.h"
#include "workload/args.h"
#include "report/html.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: iomark report [options] RESULT... -o report.html\n"
            "Write one self-contained HTML file (inline SVG charts, no scripts, no network):\n"
            "comparison bars with change labels, latency percentile curves (log scale),\n"
            "IOPS and latency over time, sweep scaling curves with the knee, and tables.\n"
            "RESULT is any result iomark compare reads; A1.json,A2.json or LABEL=A1.json,...\n"
            "makes several files (repeated runs) one input. `iomark model --check` (or fit)\n"
            "documents instead give predicted vs measured curves (IOPS, mean, p99).\n\n"
            "  --output=FILE, -o FILE  the HTML file (default: stdout, refused when it is a\n"
            "                          terminal)\n"
            "  --title=TEXT            page title (default \"iomark report\")\n"
            "  --alpha=P               significance level of Welch's test (default 0.05)\n"
            "  --help\n\n"
            "Exit status: 0 ok, 1 write failed, 2 bad option or a file that is not a result.\n");
}

/* A whole file as a parsed JSON document, NULL when it is not one. */
static cJSON *read_json(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return NULL;
    char *text = NULL;
    size_t len = 0;
    if (fseek(in, 0, SEEK_END) == 0) {
        long l = ftell(in);
        if (l > 0 && fseek(in, 0, SEEK_SET) == 0 && (text = malloc((size_t)l + 1)))
            len = fread(text, 1, (size_t)l, in);
    }
    fclose(in);
    cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    return doc;
}

/* The page's output: a temporary file renamed over --output when complete
 * (a reader never sees half a page), or stdout. */
struct page_out {
    FILE *f;
    const char *out;
    char tmp[4200];
};

/* 0, or the error printed and IOM_EXIT_USAGE. */
static int page_open(struct page_out *po, const char *out)
{
    po->out = out;
    po->f = stdout;
    if (!out)
        return 0;
    if (iom_output_in_place(out)) /* /dev/stdout, a FIFO: no temporary renamed over it */
        po->tmp[0] = '\0';
    else
        snprintf(po->tmp, sizeof(po->tmp), "%s.tmp%d", out, (int)getpid());
    if (!(po->f = fopen(po->tmp[0] ? po->tmp : out, "w"))) {
        iom_cli_error("report", "--output=%s: %s", out, strerror(errno));
        return IOM_EXIT_USAGE;
    }
    return 0;
}

/* Finish the page written with status rc (0 or the renderer's -errno): close
 * and rename, or remove the temporary file. Returns 0; IOM_EXIT_USAGE when
 * the renderer found its input unfit (-EINVAL); else as iom_cli_write_failed
 * for the first error. Prints the reason. */
static int page_close(struct page_out *po, int rc)
{
    /* a renderer's -EIO (a failed write) gives way to the reason the flush
     * or close reports (ENOSPC, EPIPE) */
    errno = 0;
    if (po->out) {
        if (fclose(po->f) != 0 && (!rc || rc == -EIO))
            rc = errno ? -errno : -EIO;
        if (po->tmp[0] && !rc && rename(po->tmp, po->out) != 0)
            rc = -errno;
        if (po->tmp[0] && rc)
            unlink(po->tmp);
    } else if ((fflush(stdout) != 0 || ferror(stdout)) && (!rc || rc == -EIO)) {
        rc = errno ? -errno : -EIO;
    }
    if (rc == -EINVAL) {
        iom_cli_error("report", "writing %s: %s", po->out ? po->out : "standard output",
                      strerror(EINVAL));
        return IOM_EXIT_USAGE;
    }
    return rc ? iom_cli_write_failed("report", po->out, rc) : 0;
}

/* `iomark report LABDIR`: the lab page from LABDIR/lab.json (report/lab_html.h). */
static int lab_report(const char *path, const char *out, const char *title)
{
    cJSON *doc = read_json(path);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(doc, "type");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, "lab") != 0) {
        iom_cli_error("report", "%s: not an iomark lab document", path);
        cJSON_Delete(doc);
        return IOM_EXIT_USAGE;
    }
    struct page_out po;
    if (page_open(&po, out)) {
        cJSON_Delete(doc);
        return IOM_EXIT_USAGE;
    }
    int status = page_close(&po, iom_lab_html_report(po.f, doc, title));
    cJSON_Delete(doc);
    return status;
}

/* `iomark report CHECK.json...`: predicted and measured curves of model
 * documents (report/model.h). Returns -1 when specs[0] is not a model
 * document (the caller goes on with results), else an exit status. */
static int model_report(const char **specs, int nspec, const char *out, const char *title)
{
    cJSON **docs = calloc((size_t)nspec, sizeof(*docs));
    if (!docs)
        return IOM_EXIT_FAIL;
    int status = IOM_EXIT_OK;
    for (int i = 0; i < nspec && !status; i++) {
        docs[i] = read_json(specs[i]);
        if (!iom_model_doc_kind(docs[i])) {
            if (i == 0)
                status = -1;
            else {
                iom_cli_error("report", "%s: not an iomark model check or fit document; "
                              "model documents are reported alone", specs[i]);
                status = IOM_EXIT_USAGE;
            }
        }
    }
    struct page_out po;
    if (!status)
        status = page_open(&po, out);
    if (!status)
        status = page_close(&po, iom_model_html_report(po.f, (const cJSON *const *)docs, specs,
                                                       (unsigned)nspec, title));
    for (int i = 0; i < nspec; i++)
        cJSON_Delete(docs[i]);
    free(docs);
    return status;
}

int iom_cmd_report(int argc, char **argv)
{
    const char *out = NULL, *title = NULL;
    double alpha = 0.05;
    const char **specs = calloc((size_t)argc + 1, sizeof(*specs));
    if (!specs)
        return IOM_EXIT_FAIL;
    static const struct iom_arg_opt table[] = {
        {"output", 'o', true}, {"title", 0, true}, {"alpha", 0, true}, {"help", 'h', false},
        {NULL, 0, false},
    };
    struct iom_args args;
    iom_args_init(&args, argc, argv, 1, table, "report");
    int nspec = 0, status = IOM_EXIT_OK, k;
    const char *v;
    char aerr[600];
    while (!status && (k = iom_args_next(&args, &v, aerr, sizeof(aerr))) != IOM_ARG_END) {
        const char *bad = NULL;
        if (k == IOM_ARG_ERROR) {
            iom_cli_error("report", "%s", aerr);
            status = IOM_EXIT_USAGE;
            break;
        } else if (k == IOM_ARG_POSITIONAL) {
            specs[nspec++] = v;
        } else if (!strcmp(table[k].name, "help")) {
            usage(stdout);
            free(specs);
            return IOM_EXIT_OK;
        } else if (!strcmp(table[k].name, "output")) {
            out = v;
            if (!*out)
                bad = "needs a file name";
        } else if (!strcmp(table[k].name, "title")) {
            title = v;
        } else if (!strcmp(table[k].name, "alpha")) {
            char *end;
            alpha = strtod(v, &end);
            if (end == v || *end || !(alpha > 0 && alpha < 1))
                bad = "allowed: a number between 0 and 1, e.g. 0.05";
        }
        if (bad) {
            iom_cli_error("report", "--%s=%s: %s", table[k].name, v, bad);
            status = IOM_EXIT_USAGE;
        }
    }
    if (!status && nspec == 0) {
        iom_cli_error("report", "no RESULT given; name one or more result files");
        status = IOM_EXIT_USAGE;
    }
    if (!status && out)
        status = iom_cli_check_output("report", out, -1);
    if (!status && out)
        status = iom_cli_output_apart_specs("report", out, specs, (size_t)nspec);
    /* a page of HTML on a terminal is of no use to anyone: it goes to a file */
    if (!status && !out && isatty(STDOUT_FILENO)) {
        iom_cli_error("report", "no --output: stdout is a terminal; give -o FILE (e.g. -o "
                                "report.html), or redirect stdout to a file or a pipe");
        status = IOM_EXIT_USAGE;
    }
    if (status) {
        free(specs);
        return status;
    }
    /* a lab folder (iomark lab --output-dir): its lab report; any other
     * folder is refused here, naming both things a RESULT can be */
    for (int i = 0; i < nspec; i++) {
        struct stat st;
        char lp[4200];
        if (stat(specs[i], &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        snprintf(lp, sizeof(lp), "%s/lab.json", specs[i]);
        int lab = access(lp, R_OK) == 0;
        if (lab && nspec == 1) {
            free(specs);
            return lab_report(lp, out, title);
        }
        iom_cli_error("report", "%s: %s; allowed: result files, or one lab folder (iomark lab "
                                "--output-dir) holding lab.json", specs[i],
                      lab ? "a lab folder is reported alone" : "a folder without lab.json");
        free(specs);
        return IOM_EXIT_USAGE;
    }
    /* model check/fit documents: predicted and measured curves */
    int mrc = model_report(specs, nspec, out, title);
    if (mrc >= 0) {
        free(specs);
        return mrc;
    }
    struct iom_cmp *c;
    char err[700];
    int lrc = iom_cmp_load(specs, (uint32_t)nspec, alpha, &c, err, sizeof(err));
    free(specs);
    if (lrc) {
        iom_cli_error("report", "%s", err);
        return lrc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
    }
    struct page_out po;
    if (page_open(&po, out)) {
        iom_cmp_free(c);
        return IOM_EXIT_USAGE;
    }
    status = page_close(&po, iom_html_report(po.f, c, title));
    iom_cmp_free(c);
    return status;
}
