/*
 * import_diskspd_xml.c - DiskSpd -Rxml results (libxml2).
 *
 * Layout (DiskSpd's ResultParser/XmlResultParser.cpp):
 *   Results/System/Tool/Version
 *   Results/Profile/TimeSpans/TimeSpan/Targets/Target: BlockSize,
 *       Random (the -r alignment: a random pattern) or StrideSize (a
 *       sequential one), WriteRatio, RequestCount (outstanding I/O per
 *       thread). RandomAccess is the -fr caching hint
 *       (FILE_FLAG_RANDOM_ACCESS), not the pattern (DiskSpd's
 *       Common/Common.cpp, Target::GetXml: "<RandomAccess>" from
 *       _fRandomAccessHint; "If XML contains <Random>, <StrideSize> is
 *       ignored").
 *   Results/TimeSpan: TestTimeSeconds, ThreadCount,
 *       CpuUtilization/Average/UsagePercent (% of all CPUs),
 *       Latency (with -L): Average{Read,Write,Total}Milliseconds and
 *       Bucket{Percentile, ReadMilliseconds, WriteMilliseconds, TotalMilliseconds},
 *       Iops/Bucket@SampleMillisecond,Read,Write,Total,... (with -D),
 *       Thread/Target: ReadBytes, ReadCount, WriteBytes, WriteCount.
 * A "*** Interrupted by Ctrl-C." line before the document (DiskSpd prints
 * it on the same stdout) gives the record a note; a TimeSpan holding
 * <Error> (interrupted before measuring) is refused in DiskSpd's words.
 * Every Results/TimeSpan becomes one workload; its counts are summed over
 * threads and targets, rates are divided by TestTimeSeconds.
 */
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

static int probe(const char *text, size_t len)
{
    (void)len;
    const char *r = strstr(text, "<Results>");
    return r && strstr(r, "<TimeSpan>") &&
           (strstr(r, "<ThreadCount>") || strstr(r, "<Thread>") || strstr(r, "<Error>"));
}

static xmlNode *child(const xmlNode *n, const char *name)
{
    if (!n)
        return NULL;
    for (xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

static double val(const xmlNode *n)
{
    if (!n)
        return NAN;
    xmlChar *s = xmlNodeGetContent(n);
    if (!s)
        return NAN;
    char *end;
    double d = strtod((const char *)s, &end);
    if (end == (char *)s)
        d = NAN;
    xmlFree(s);
    return d;
}

static double cval(const xmlNode *n, const char *name)
{
    return val(child(n, name));
}

static double attr(const xmlNode *n, const char *name)
{
    xmlChar *s = xmlGetProp(n, (const xmlChar *)name);
    if (!s)
        return NAN;
    double d = strtod((const char *)s, NULL);
    xmlFree(s);
    return d;
}

static int is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static int parse_timespan(const xmlNode *ts, const xmlNode *ptarget, int idx,
                          struct iom_imp_result *res)
{
    double secs = cval(ts, "TestTimeSeconds");
    double threads = cval(ts, "ThreadCount");
    double rbytes = 0, rcount = 0, wbytes = 0, wcount = 0;
    char target[160] = "";
    int nr_paths = 0;
    for (xmlNode *th = ts->children; th; th = th->next) {
        if (!is(th, "Thread"))
            continue;
        for (xmlNode *t = th->children; t; t = t->next) {
            if (!is(t, "Target"))
                continue;
            rbytes += cval(t, "ReadBytes");
            rcount += cval(t, "ReadCount");
            wbytes += cval(t, "WriteBytes");
            wcount += cval(t, "WriteCount");
            xmlChar *p = xmlNodeGetContent(child(t, "Path"));
            if (p && strcmp(target, (const char *)p) != 0) {
                nr_paths++;
                if (nr_paths == 1)
                    snprintf(target, sizeof(target), "%s", (const char *)p);
            }
            xmlFree(p);
        }
    }
    if (nr_paths > 1)
        target[0] = '\0';
    /* DiskSpd's XmlResultParser prints <Random> for -r, else <StrideSize> */
    int rnd = child(ptarget, "Random") != NULL;
    double qd = cval(ptarget, "RequestCount");
    char name[96];
    iom_imp_diskspd_key(name, sizeof(name), cval(ptarget, "BlockSize"), rnd,
                        cval(ptarget, "WriteRatio"), qd, threads, idx);
    struct iom_imp_workload *w = iom_imp_add_workload(res, name);
    if (!w)
        return -ENOMEM;
    w->threads = iom_imp_count(threads);
    w->iodepth = iom_imp_count(qd);
    snprintf(w->target, sizeof(w->target), "%s", target);
    struct iom_imp_run *run = &w->runs[0];
    run->runtime_s = secs;
    iom_imp_dir_from_bytes(&run->dir[0], rcount, rbytes, secs);
    iom_imp_dir_from_bytes(&run->dir[1], wcount, wbytes, secs);
    iom_imp_dir_from_bytes(&run->dir[2], rcount + wcount, rbytes + wbytes, secs);
    run->cpu_pct = cval(child(child(ts, "CpuUtilization"), "Average"), "UsagePercent");
    if (run->cpu_pct > 0)
        run->iops_per_cpu_pct = run->dir[2].iops / run->cpu_pct;
    const xmlNode *lat = child(ts, "Latency");
    if (lat) {
        run->dir[0].lat_mean_us = cval(lat, "AverageReadMilliseconds") * 1000;
        run->dir[1].lat_mean_us = cval(lat, "AverageWriteMilliseconds") * 1000;
        run->dir[2].lat_mean_us = cval(lat, "AverageTotalMilliseconds") * 1000;
        for (xmlNode *b = lat->children; b; b = b->next) {
            if (!is(b, "Bucket"))
                continue;
            double p = cval(b, "Percentile");
            static const char *const keys[3] = {"ReadMilliseconds", "WriteMilliseconds",
                                                "TotalMilliseconds"};
            for (int d = 0; d < 3; d++) {
                double v = cval(b, keys[d]) * 1000;
                if (p == 99)
                    run->dir[d].lat_p99_us = v;
                if (p == 100)
                    run->dir[d].lat_max_us = v;
            }
            if (!isnan(p) && p > 0 && iom_imp_add_pct(run, p, cval(b, "TotalMilliseconds") * 1000))
                return -ENOMEM;
        }
        for (int d = 0; d < 2; d++)
            if (!(run->dir[d].ios > 0))
                run->dir[d].lat_mean_us = run->dir[d].lat_p99_us = run->dir[d].lat_max_us = NAN;
    }
    /* -D: per-interval IOPS buckets of the whole run */
    const xmlNode *iops = child(ts, "Iops");
    double prev_ms = 0;
    for (xmlNode *b = iops ? iops->children : NULL; b; b = b->next) {
        if (!is(b, "Bucket"))
            continue;
        double ms = attr(b, "SampleMillisecond"), r = attr(b, "Read"), wr = attr(b, "Write");
        double dur = (ms - prev_ms) / 1000.0;
        prev_ms = ms;
        if (!(dur > 0))
            continue;
        double ra_ms = attr(b, "ReadAvgLatencyMilliseconds"), wa_ms = attr(b, "WriteAvgLatencyMilliseconds");
        double lat_us = NAN;
        if (r + wr > 0 && !isnan(ra_ms) && !isnan(wa_ms))
            lat_us = (r * ra_ms + wr * wa_ms) / (r + wr) * 1000;
        struct iom_imp_point pt = {ms / 1000.0, (r + wr) / dur, lat_us, NAN};
        if (iom_imp_add_point(run, &pt))
            return -ENOMEM;
    }
    return 0;
}

static int parse(const char *text, size_t len, struct iom_imp_result *res, char *err, size_t errlen)
{
    const char *start = strstr(text, "<Results>");
    xmlDoc *doc = xmlReadMemory(start, (int)(len - (size_t)(start - text)), "diskspd.xml", NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc) {
        snprintf(err, errlen, "the XML document does not parse (truncated?)");
        return -EINVAL;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    xmlChar *ver = xmlNodeGetContent(child(child(child(root, "System"), "Tool"), "Version"));
    snprintf(res->tool, sizeof(res->tool), "DiskSpd %s", ver ? (const char *)ver : "?");
    xmlFree(ver);
    const xmlNode *ptarget =
        child(child(child(child(child(root, "Profile"), "TimeSpans"), "TimeSpan"), "Targets"), "Target");
    int rc = 0, idx = 0;
    for (xmlNode *ts = root->children; ts && !rc; ts = ts->next) {
        if (!is(ts, "TimeSpan"))
            continue;
        xmlChar *e = xmlNodeGetContent(child(ts, "Error"));
        if (e) { /* XmlResultParser.cpp: interrupted before measuring, no results */
            snprintf(err, errlen, "the source run did not measure: DiskSpd said \"%.200s\"",
                     (const char *)e);
            xmlFree(e);
            rc = -EINVAL;
            break;
        }
        rc = parse_timespan(ts, ptarget, idx++, res);
    }
    /* CmdRequestCreator.cpp prints its Ctrl-C line on stdout, before the XML */
    const char *cc = strstr(text, "*** Interrupted by Ctrl-C.");
    if (!rc && idx && cc && cc < start) {
        xmlChar *du = xmlNodeGetContent(
            child(child(child(child(root, "Profile"), "TimeSpans"), "TimeSpan"), "Duration"));
        double asked = du ? strtod((const char *)du, NULL) : NAN;
        xmlFree(du);
        size_t n = strcspn(cc, "\r\n");
        if (asked > 0)
            iom_imp_note(res, "source run interrupted (%.*s) after %.3g s of %.3g s",
                         (int)(n < 120 ? n : 120), cc, res->w[0].runs[0].runtime_s, asked);
        else
            iom_imp_note(res, "source run interrupted (%.*s) after %.3g s", (int)(n < 120 ? n : 120),
                         cc, res->w[0].runs[0].runtime_s);
    }
    if (!rc && idx == 0) {
        snprintf(err, errlen, "no <TimeSpan> results in the document");
        rc = -EINVAL;
    }
    xmlFreeDoc(doc);
    return rc;
}

const struct iom_importer iom_import_diskspd_xml = {"diskspd-xml", probe, parse};
