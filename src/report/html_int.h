/*
 * html_int.h - pieces shared by the HTML report's writer (html.c: page,
 * sections, tables) and its SVG charts (html_svg.c). Internal to src/report.
 */
#ifndef IOMARK_REPORT_HTML_INT_H
#define IOMARK_REPORT_HTML_INT_H

#include <stddef.h>
#include <stdio.h>

#include "report/html.h"

#define IOM_HTML_NR_COLORS 8
/* Okabe-Ito colour-blind safe palette, IOM_HTML_NR_COLORS entries */
extern const char *const iom_html_palette[IOM_HTML_NR_COLORS];

/* Chart width in SVG user units (the viewBox), the same for every chart. */
#define CW 960

enum axis_kind { AX_LIN, AX_LOG, AX_NINES };

struct line {
    const char *name;
    size_t n;
    const double *x, *y;
    int mark;               /* index of a point to ring (the knee), -1 none */
    int color;              /* palette index; -1 = the line's own index */
    int dash;               /* 0 solid, 1 dashed, 2 dotted, 3 dash-dot */
};

/* The XML entity that stands for ch in text and attribute values ("&amp;",
 * "&lt;", "&gt;", "&quot;", "&#39;"), or NULL when ch stands for itself.
 * Static storage. */
const char *iom_html_entity(char ch);

/* Write s as XML text: markup characters escaped, control characters and
 * invalid UTF-8 replaced, so the page stays well-formed. */
void iom_html_esc(FILE *f, const char *s);

/* The page's start: doctype, head with the report's stylesheet, and
 * <body><main><h1>title</h1>; ts (tslen bytes) gets the time written,
 * "YYYY-mm-dd HH:MM UTC". The caller closes </main></body></html>. */
void iom_html_page_head(FILE *f, const char *title, char *ts, size_t tslen);

/*
 * A line chart: nl lines (points x[k], y[k]; each point carries data-x and
 * data-y), axes of kinds xk and yk (AX_LOG: values <= 0 are left out;
 * AX_NINES: percentiles on a "nines" scale), the y axis from 0 when
 * y_from_zero. id names the <svg> element. Strings are escaped here.
 */
void iom_html_line_chart(FILE *f, const char *id, const char *title, const char *xlabel,
                         const char *ylabel, enum axis_kind xk, enum axis_kind yk,
                         int y_from_zero, const struct line *ls, size_t nl);

/*
 * Horizontal bars of one metric row of c, one per input that has it (mean
 * of its runs, whiskers min..max when it has several), with the change
 * label against the baseline (and Welch's p when tested). Draws nothing
 * with fewer than two inputs holding the metric.
 */
void iom_html_bar_chart(FILE *f, const struct iom_cmp *c, const struct iom_cmp_row *row,
                        const char *wname);

#endif
