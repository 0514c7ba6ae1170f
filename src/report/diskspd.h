/*
 * diskspd.h - DiskSpd-style reports of a run: the text layout of DiskSpd
 * 2.x (ResultParser) and its XML result document (-Rxml, XmlResultParser),
 * with DiskSpd's element names for the fields iomark measures.
 *
 * Layout source: github.com/microsoft/diskspd ResultParser/ResultParser.cpp
 * and XmlResultParser/XmlResultParser.cpp (v2.1), checked against the real
 * result files in tests/data/results/diskspd_*.
 *
 * What differs, by necessity: the per-thread IopsStdDev column with -D
 * prints N/A (iomark keeps the interval series per run, not per thread; the
 * total row has the real value), and the XML has no per-thread <Iops>
 * series. docs/diskspd.md lists these.
 */
#ifndef IOMARK_REPORT_DISKSPD_H
#define IOMARK_REPORT_DISKSPD_H

#include <stdio.h>

#include "workload/diskspd.h"
#include "stats/result.h"

/* Print the DiskSpd text report of run r (parsed from ds) to f. */
void iom_report_diskspd_text(FILE *f, const struct iom_diskspd *ds, const struct iom_result *r);

/* -Rptext: the "Command Line" and "Input parameters" part only. */
void iom_report_diskspd_profile_text(FILE *f, const struct iom_diskspd *ds);

/*
 * Write the DiskSpd XML document of run r to f (r == NULL: the <Profile>
 * element alone, for -Rpxml). Built with libxml2 and saved indented,
 * without an XML declaration, as DiskSpd writes it. Returns 0, -ENOMEM or
 * -EIO.
 */
int iom_report_diskspd_xml(FILE *f, const struct iom_diskspd *ds, const struct iom_result *r);

#endif
