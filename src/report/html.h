/*
 * html.h - `iomark report`: one self-contained HTML file (inline CSS, inline
 * SVG, no scripts, no network) with the charts of a set of results:
 * comparison bars with change labels, latency percentile curves (log
 * scale), IOPS and latency over time, sweep scaling curves, and the
 * comparison tables. The page is well-formed XML (XHTML syntax), so any
 * XML parser reads it; every plotted point carries its value in data-x /
 * data-y attributes and every bar in data-value, for tests and for people
 * who want the numbers.
 */
#ifndef IOMARK_REPORT_HTML_H
#define IOMARK_REPORT_HTML_H

#include <stdio.h>

#include "compare/cmp.h"
#include "report/compare.h" /* iom_cmp_fmt_num for the tables */

/*
 * Write the report of the comparison c (built by iom_cmp_build from the
 * inputs; one input is fine) to f. title may be NULL ("iomark report").
 * Returns 0, or -EIO when writing fails.
 */
int iom_html_report(FILE *f, const struct iom_cmp *c, const char *title);

#endif
