/*
 * compare.h - writers of the comparison table built by compare/cmp.h
 * (`iomark compare`): aligned text, Markdown and the JSON document. They
 * only format: every figure (means, changes, Welch's test) comes from the
 * table, which comes from stats/.
 */
#ifndef IOMARK_REPORT_COMPARE_H
#define IOMARK_REPORT_COMPARE_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "compare/cmp.h"

/*
 * Print the table c to f as aligned plain text: one block per workload,
 * one row per metric, one column per input (mean, and with repeats the
 * spread), then the change against the base input and the test's verdict.
 * c is only read. Write errors are left to the caller (ferror(f)).
 */
void iom_cmp_print_text(FILE *f, const struct iom_cmp *c);

/* As iom_cmp_print_text, as GitHub-flavoured Markdown tables. */
void iom_cmp_print_markdown(FILE *f, const struct iom_cmp *c);

/* The most runs input i has of any metric (i < 0: of any input): 2 or more
 * when its cells show a spread (mean ± relative stddev, n runs). */
size_t iom_cmp_most_runs(const struct iom_cmp *c, int i);

/* How a note spells options: as typed, in `backticks`, in <code>. */
enum iom_cmp_style { IOM_CMP_TEXT, IOM_CMP_MARKDOWN, IOM_CMP_HTML };

/*
 * The note on a comparison of 2+ inputs whose changes carry no verdict
 * (compare/cmp.h iom_cmp_has_test 0), one sentence into buf (len bytes,
 * always NUL-terminated): changes are relative to the first input; when
 * no input has repeats, "with one run per side nothing tells a change from
 * run-to-run noise", else the inputs that have one run are named; then how
 * to get repeats for the first input's kind (run --repeat=3, mark
 * --runs=3, else 3 files pooled per side as NAME=a.json,b.json,c.json).
 * The same words in the text, Markdown and HTML reports.
 */
void iom_cmp_no_verdict_note(const struct iom_cmp *c, enum iom_cmp_style style, char *buf,
                             size_t len);

/*
 * The JSON document of the table ("schema": "iomark-result", "type":
 * "compare"; docs/json-schema.md). Returns a new cJSON tree the caller
 * frees with cJSON_Delete, or NULL when out of memory. c is only read.
 */
cJSON *iom_cmp_json(const struct iom_cmp *c);

/*
 * Format v with 3-4 significant digits for tables into buf (len bytes,
 * always NUL-terminated when len > 0): "63947", "484.3", "12.50", "0.856";
 * "-" for NaN. Units are the caller's.
 */
void iom_cmp_fmt_num(double v, char *buf, size_t len);

/*
 * Format a table cell into buf (len bytes, always NUL-terminated when
 * len > 0): "-" without runs, the value (iom_cmp_fmt_num) for one run, and
 * for n > 1 runs "MEAN<sep>R% (n=N)" with R the relative sample standard
 * deviation in percent, stddev / |mean| * 100 (0 when the mean is 0),
 * written without an exponent: "0.85", "12", "110"; "<0.01" below 0.01.
 * sep is what goes between the mean and R (" ±" for text, " ± " for HTML).
 */
void iom_cmp_fmt_cell(const struct iom_cmp_cell *c, const char *sep, char *buf, size_t len);

#endif
