/* compare.c - print the comparison table as text, Markdown or JSON. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/html_int.h"
#include "report/report.h"

void iom_cmp_fmt_num(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (a >= 1000)
        snprintf(buf, len, "%.0f", v);
    else if (a >= 100)
        snprintf(buf, len, "%.1f", v);
    else if (a >= 10)
        snprintf(buf, len, "%.2f", v);
    else if (a >= 1 || a == 0)
        snprintf(buf, len, "%.3f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

void iom_cmp_fmt_cell(const struct iom_cmp_cell *c, const char *sep, char *buf, size_t len)
{
    char m[32], r[16];
    if (c->s.n == 0) {
        snprintf(buf, len, "-");
        return;
    }
    iom_cmp_fmt_num(c->s.mean, m, sizeof(m));
    if (c->s.n < 2) {
        snprintf(buf, len, "%s", m);
        return;
    }
    double rel = c->s.mean != 0 ? c->s.stddev / fabs(c->s.mean) * 100 : 0.0;
    if (rel >= 9.95) /* "%.2g" would print 99.6 as "1e+02" */
        snprintf(r, sizeof(r), "%.0f", rel);
    else if (rel >= 0.01 || rel == 0)
        snprintf(r, sizeof(r), "%.2g", rel);
    else
        snprintf(r, sizeof(r), "<0.01");
    snprintf(buf, len, "%s%s%s%% (n=%zu)", m, sep, r, c->s.n);
}

static void delta_full(const struct iom_cmp *c, const struct iom_cmp_row *row, uint32_t i,
                       char *buf, size_t len)
{
    const struct iom_cmp_delta *d = &row->delta[i];
    char t[96];
    iom_cmp_delta_text(row, d, t, sizeof(t));
    if (!t[0]) {
        snprintf(buf, len, (int)i == row->base ? "(base)" : "");
        return;
    }
    char base[120] = "";
    if (row->base != 0)
        snprintf(base, sizeof(base), " vs %s", c->inputs[row->base].label);
    if (d->has_test)
        snprintf(buf, len, "%s%s, p=%.2g %s", t, base, d->welch.p,
                 d->significant ? "(significant)" : "(within noise)");
    else
        snprintf(buf, len, "%s%s", t, base);
}

#define COLW 26

/* The most runs input i has of any metric (compare.h). */
size_t iom_cmp_most_runs(const struct iom_cmp *c, int i)
{
    size_t n = 0;
    for (uint32_t q = 0; q < c->nr_workloads; q++)
        for (uint32_t r = 0; r < c->w[q].nr_rows; r++)
            for (uint32_t k = 0; k < c->nr_inputs; k++)
                if ((i < 0 || (int)k == i) && c->w[q].rows[r].cells[k].s.n > n)
                    n = c->w[q].rows[r].cells[k].s.n;
    return n;
}

/* How the inputs at hand get repeated runs, by the first input's kind:
 * iomark run's --repeat, mark's --runs; anything else (a sweep, tpcc, fio,
 * DiskSpd) by running it again and pooling each side's files into one
 * input. Options in code style (the open and close marks). */
static void repeat_hint(const struct iom_cmp *c, const char *open, const char *close, char *buf,
                        size_t len)
{
    const struct iom_imp_result *r =
        c->nr_inputs && c->inputs[0].nr_files ? c->inputs[0].files[0] : NULL;
    bool iomark = r && strcmp(r->format, "iomark") == 0;
    if (iomark && (!strcmp(r->kind, "run") || !strcmp(r->kind, "repeat")))
        snprintf(buf, len, "repeat runs, e.g. %s--repeat=3%s, on both sides", open, close);
    else if (iomark && !strcmp(r->kind, "mark"))
        snprintf(buf, len, "more counted runs, e.g. %s--runs=3%s, on both sides", open, close);
    else
        snprintf(buf, len,
                 "3 runs per side, each side's files given as one input: "
                 "%sNAME=a.json,b.json,c.json%s",
                 open, close);
}

void iom_cmp_no_verdict_note(const struct iom_cmp *c, enum iom_cmp_style style, char *buf,
                             size_t len)
{
    const char *open = style == IOM_CMP_MARKDOWN ? "`" : style == IOM_CMP_HTML ? "<code>" : "";
    const char *close = style == IOM_CMP_MARKDOWN ? "`" : style == IOM_CMP_HTML ? "</code>" : "";
    char who[400] = "", hint[200];
    unsigned single = 0;
    if (iom_cmp_most_runs(c, -1) >= 2) { /* some input has repeats: name the ones that have not */
        for (uint32_t i = 0; i < c->nr_inputs; i++) {
            if (iom_cmp_most_runs(c, (int)i) >= 2)
                continue;
            size_t w = strlen(who);
            if (w + 16 >= sizeof(who))
                break; /* many inputs: the first ones named */
            w += (size_t)snprintf(who + w, sizeof(who) - w, "%s%s", single ? ", " : "", open);
            for (const char *p = c->inputs[i].label; *p && w + 8 < sizeof(who); p++) {
                /* a label is the user's text: escaped in HTML */
                const char *e = style == IOM_CMP_HTML ? iom_html_entity(*p) : NULL;
                if (e)
                    w += (size_t)snprintf(who + w, sizeof(who) - w, "%s", e);
                else
                    who[w++] = *p;
            }
            who[w] = '\0';
            snprintf(who + w, sizeof(who) - w, "%s", close);
            single++;
        }
    }
    repeat_hint(c, open, close, hint, sizeof(hint));
    if (single)
        snprintf(buf, len,
                 "Changes are relative to the first input that has the metric, without a "
                 "verdict: Welch's t-test needs 2+ runs on both sides of a change, and %s %s "
                 "one run (%s).",
                 who, single > 1 ? "have" : "has", hint);
    else
        snprintf(buf, len,
                 "Changes are relative to the first input that has the metric, without a "
                 "verdict: with one run per side nothing tells a change from run-to-run noise "
                 "(%s, for Welch's t-test).",
                 hint);
}

/* Print the note in lines of at most 80 columns (plain text). */
static void print_wrapped(FILE *f, const char *s)
{
    while (*s) {
        size_t n = strlen(s), cut = n;
        if (n > 80) {
            cut = 80;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = n;
        }
        fprintf(f, "%.*s\n", (int)cut, s);
        s += cut;
        while (*s == ' ')
            s++;
    }
}

/* Print s left-aligned in w columns (UTF-8 aware: "±" is one column). */
static void pad(FILE *f, const char *s, int w)
{
    int cols = 0;
    for (const char *p = s; *p; p++)
        if (((unsigned char)*p & 0xC0) != 0x80)
            cols++;
    fputs(s, f);
    for (; cols < w; cols++)
        fputc(' ', f);
}

void iom_cmp_print_text(FILE *f, const struct iom_cmp *c)
{
    fprintf(f, "inputs:\n");
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        const struct iom_cmp_input *in = &c->inputs[i];
        fprintf(f, "  [%u] %s:", i + 1, in->label);
        for (uint32_t k = 0; k < in->nr_files; k++)
            fprintf(f, " %s (%s, %s)", in->files[k]->path, in->files[k]->format, in->files[k]->tool);
        fputc('\n', f);
        for (uint32_t k = 0; k < in->nr_files; k++)
            if (in->files[k]->note[0])
                fprintf(f, "      NOTE %s: %s\n", in->files[k]->path, in->files[k]->note);
    }
    if (c->nr_inputs > 1 && iom_cmp_has_test(c))
        fprintf(f, "Changes are relative to the first input that has the metric; with 2+ runs\n"
                   "per side, Welch's t-test (two-sided, alpha %.2g) says whether the difference\n"
                   "exceeds the run-to-run spread. Values: mean ±relative stddev (n runs).\n",
                c->alpha);
    else if (c->nr_inputs >= 2) {
        char note[800];
        iom_cmp_no_verdict_note(c, IOM_CMP_TEXT, note, sizeof(note));
        print_wrapped(f, note);
    }
    if (!(c->nr_inputs > 1 && iom_cmp_has_test(c)) && iom_cmp_most_runs(c, -1) >= 2)
        fprintf(f, "Values: mean ±relative stddev (n runs).\n");
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        const struct iom_cmp_workload *w = &c->w[q];
        fprintf(f, "\nworkload: %s%s\n", w->name, w->positional ? " (matched by position)" : "");
        fprintf(f, "%-34s", "metric");
        for (uint32_t i = 0; i < c->nr_inputs; i++)
            fprintf(f, " %-*.*s", COLW, COLW, c->inputs[i].label);
        for (uint32_t i = 1; i < c->nr_inputs; i++)
            fprintf(f, " %.20s change", c->inputs[i].label);
        fputc('\n', f);
        for (uint32_t r = 0; r < w->nr_rows; r++) {
            const struct iom_cmp_row *row = &w->rows[r];
            char lab[80];
            snprintf(lab, sizeof(lab), "%s (%s)", row->label, row->unit);
            fprintf(f, "%-34s", lab);
            for (uint32_t i = 0; i < c->nr_inputs; i++) {
                char cell[64];
                iom_cmp_fmt_cell(&row->cells[i], " ±", cell, sizeof(cell));
                fputc(' ', f);
                pad(f, cell, COLW);
            }
            for (uint32_t i = 1; i < c->nr_inputs; i++) {
                char d[200];
                delta_full(c, row, i, d, sizeof(d));
                fprintf(f, " %s%s", d, i + 1 < c->nr_inputs ? " |" : "");
            }
            fputc('\n', f);
        }
    }
}

static void md_escape(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
}

void iom_cmp_print_markdown(FILE *f, const struct iom_cmp *c)
{
    fprintf(f, "Inputs:\n\n");
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        const struct iom_cmp_input *in = &c->inputs[i];
        fprintf(f, "%u. **", i + 1);
        md_escape(f, in->label);
        fprintf(f, "**:");
        for (uint32_t k = 0; k < in->nr_files; k++) {
            fprintf(f, " `%s` (%s, ", in->files[k]->path, in->files[k]->format);
            md_escape(f, in->files[k]->tool);
            fputc(')', f);
        }
        for (uint32_t k = 0; k < in->nr_files; k++)
            if (in->files[k]->note[0]) {
                fprintf(f, " **note** (`%s`): ", in->files[k]->path);
                md_escape(f, in->files[k]->note);
            }
        fputc('\n', f);
    }
    if (c->nr_inputs > 1 && iom_cmp_has_test(c))
        fprintf(f, "\nChanges are relative to the first input that has the metric. With 2+ runs per "
                   "side, Welch's two-sided t-test (alpha %.2g) tells a real difference from "
                   "run-to-run noise.\n",
                c->alpha);
    else if (c->nr_inputs > 1) {
        char note[800];
        iom_cmp_no_verdict_note(c, IOM_CMP_MARKDOWN, note, sizeof(note));
        fprintf(f, "\n%s\n", note);
    }
    if (iom_cmp_most_runs(c, -1) >= 2)
        fprintf(f, "\nValues: mean ± relative stddev (n runs).\n");
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        const struct iom_cmp_workload *w = &c->w[q];
        fprintf(f, "\n### ");
        md_escape(f, w->name);
        fprintf(f, "%s\n\n| metric |", w->positional ? " (matched by position)" : "");
        for (uint32_t i = 0; i < c->nr_inputs; i++) {
            fputc(' ', f);
            md_escape(f, c->inputs[i].label);
            fprintf(f, " |");
        }
        for (uint32_t i = 1; i < c->nr_inputs; i++) {
            fputc(' ', f);
            md_escape(f, c->inputs[i].label);
            fprintf(f, " change |");
        }
        fprintf(f, "\n|---|");
        for (uint32_t i = 0; i < 2 * c->nr_inputs - 1; i++)
            fprintf(f, "---:|");
        fputc('\n', f);
        for (uint32_t r = 0; r < w->nr_rows; r++) {
            const struct iom_cmp_row *row = &w->rows[r];
            fprintf(f, "| %s (%s) |", row->label, row->unit);
            for (uint32_t i = 0; i < c->nr_inputs; i++) {
                char cell[64];
                iom_cmp_fmt_cell(&row->cells[i], " ±", cell, sizeof(cell));
                fprintf(f, " %s |", cell);
            }
            for (uint32_t i = 1; i < c->nr_inputs; i++) {
                char d[200];
                delta_full(c, row, i, d, sizeof(d));
                fputc(' ', f);
                int bold = row->delta[i].significant;
                if (bold)
                    fputs("**", f);
                md_escape(f, d);
                if (bold)
                    fputs("**", f);
                fprintf(f, " |");
            }
            fputc('\n', f);
        }
    }
}

static cJSON *num_or_null(double v)
{
    return isnan(v) || isinf(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v);
}

cJSON *iom_cmp_json(const struct iom_cmp *c)
{
    cJSON *d = iom_json_doc_new("compare");
    if (!d)
        return NULL;
    cJSON_AddStringToObject(d, "test", "Welch two-sample t-test, two-sided");
    cJSON_AddNumberToObject(d, "alpha", c->alpha);
    cJSON *ins = cJSON_AddArrayToObject(d, "inputs");
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", c->inputs[i].label);
        cJSON *fs = cJSON_AddArrayToObject(o, "files");
        for (uint32_t k = 0; k < c->inputs[i].nr_files; k++) {
            cJSON *fo = cJSON_CreateObject();
            cJSON_AddStringToObject(fo, "path", c->inputs[i].files[k]->path);
            cJSON_AddStringToObject(fo, "format", c->inputs[i].files[k]->format);
            cJSON_AddStringToObject(fo, "tool", c->inputs[i].files[k]->tool);
            if (c->inputs[i].files[k]->note[0])
                cJSON_AddStringToObject(fo, "note", c->inputs[i].files[k]->note);
            cJSON_AddItemToArray(fs, fo);
        }
        cJSON_AddItemToArray(ins, o);
    }
    cJSON *ws = cJSON_AddArrayToObject(d, "workloads");
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        const struct iom_cmp_workload *w = &c->w[q];
        cJSON *wo = cJSON_CreateObject();
        cJSON_AddStringToObject(wo, "name", w->name);
        cJSON_AddBoolToObject(wo, "matched_by_position", w->positional);
        cJSON *ms = cJSON_AddArrayToObject(wo, "metrics");
        for (uint32_t r = 0; r < w->nr_rows; r++) {
            const struct iom_cmp_row *row = &w->rows[r];
            cJSON *mo = cJSON_CreateObject();
            cJSON_AddStringToObject(mo, "key", row->key);
            cJSON_AddStringToObject(mo, "label", row->label);
            cJSON_AddStringToObject(mo, "unit", row->unit);
            cJSON_AddStringToObject(mo, "better", row->better > 0 ? "higher" : "lower");
            cJSON_AddNumberToObject(mo, "base_input", row->base);
            cJSON *vs = cJSON_AddArrayToObject(mo, "values");
            for (uint32_t i = 0; i < c->nr_inputs; i++) {
                const struct iom_sample_stats *s = &row->cells[i].s;
                if (s->n == 0) {
                    cJSON_AddItemToArray(vs, cJSON_CreateNull());
                    continue;
                }
                cJSON *vo = cJSON_CreateObject();
                cJSON_AddNumberToObject(vo, "n", (double)s->n);
                cJSON_AddItemToObject(vo, "mean", num_or_null(s->mean));
                cJSON_AddItemToObject(vo, "stddev", num_or_null(s->stddev));
                cJSON_AddItemToObject(vo, "min", num_or_null(s->min));
                cJSON_AddItemToObject(vo, "max", num_or_null(s->max));
                cJSON_AddItemToArray(vs, vo);
            }
            cJSON *ch = cJSON_AddArrayToObject(mo, "changes");
            for (uint32_t i = 0; i < c->nr_inputs; i++) {
                const struct iom_cmp_delta *dl = &row->delta[i];
                if ((int)i == row->base || isnan(dl->improvement_pct))
                    continue;
                cJSON *co = cJSON_CreateObject();
                char t[96];
                iom_cmp_delta_text(row, dl, t, sizeof(t));
                cJSON_AddNumberToObject(co, "input", i);
                cJSON_AddItemToObject(co, "improvement_pct", num_or_null(dl->improvement_pct));
                cJSON_AddStringToObject(co, "text", t);
                if (dl->has_test) {
                    cJSON *wt = cJSON_AddObjectToObject(co, "welch");
                    cJSON_AddItemToObject(wt, "t", num_or_null(dl->welch.t));
                    cJSON_AddItemToObject(wt, "df", num_or_null(dl->welch.df));
                    cJSON_AddItemToObject(wt, "p", num_or_null(dl->welch.p));
                    cJSON_AddBoolToObject(wt, "significant", dl->significant);
                }
                cJSON_AddItemToArray(ch, co);
            }
            cJSON_AddItemToArray(ms, mo);
        }
        cJSON_AddItemToArray(ws, wo);
    }
    return d;
}
