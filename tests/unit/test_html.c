/*
 * test_html.c - the HTML report is well-formed (libxml2's strict XML parser
 * and its HTML parser both read it without an error), has no script and no
 * external reference, and its charts carry the values of the results:
 * expected numbers read by hand from tests/data/results files
 * (diskspd_xml_3.xml: Iops buckets Total=106, 222, 335 in the first three
 * seconds, Percentile 99 TotalMilliseconds 1202.421; fio_json_7.json: read
 * iops 25.246234 + write 26.442108, read clat p99 67633152 ns) and from a
 * sweep document written here.
 */
#include <errno.h>
#include <libgen.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/html.h"

static int fails;

#define CHECK(c)                                                                               \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #c);                    \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

static xmlXPathContext *ctx;

/* Number of nodes matching xpath. */
static int count(const char *xpath)
{
    xmlXPathObject *o = xmlXPathEvalExpression((const xmlChar *)xpath, ctx);
    int n = o && o->nodesetval ? o->nodesetval->nodeNr : -1;
    xmlXPathFreeObject(o);
    return n;
}

/* Numeric value of the first node (attribute) matching xpath, NAN if none. */
static double value(const char *xpath)
{
    xmlXPathObject *o = xmlXPathEvalExpression((const xmlChar *)xpath, ctx);
    double v = NAN;
    if (o && o->nodesetval && o->nodesetval->nodeNr > 0) {
        xmlChar *s = xmlNodeGetContent(o->nodesetval->nodeTab[0]);
        if (s)
            v = strtod((const char *)s, NULL);
        xmlFree(s);
    } else {
        fprintf(stderr, "no match: %s\n", xpath);
    }
    xmlXPathFreeObject(o);
    return v;
}

static int has_text(const char *xpath, const char *text)
{
    xmlXPathObject *o = xmlXPathEvalExpression((const xmlChar *)xpath, ctx);
    int found = 0;
    for (int i = 0; o && o->nodesetval && i < o->nodesetval->nodeNr; i++) {
        xmlChar *s = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
        if (s && strstr((const char *)s, text))
            found = 1;
        xmlFree(s);
    }
    xmlXPathFreeObject(o);
    if (!found)
        fprintf(stderr, "'%s' not in %s\n", text, xpath);
    return found;
}

#define NEAR(got, want)                                                                        \
    do {                                                                                       \
        double g_ = (got), w_ = (want);                                                        \
        if (!(fabs(g_ - w_) <= 1e-6 * fabs(w_) + 1e-9)) {                                      \
            fprintf(stderr, "%s:%d: %s = %.10g, want %.10g\n", __FILE__, __LINE__, #got, g_, w_); \
            fails++;                                                                           \
        }                                                                                      \
    } while (0)

static const char sweep_doc[] =
    "{\"schema\":\"iomark-result\",\"type\":\"sweep\",\"status\":\"ok\",\"points\":["
    "{\"target\":\"/dev/sdb\",\"threads\":1,\"iodepth\":1,\"knee\":false,\"result\":{\"total\":"
    "{\"total\":{\"ios\":1000,\"iops\":1000,\"lat_us\":{\"mean\":950}}}}},"
    "{\"target\":\"/dev/sdb\",\"threads\":1,\"iodepth\":4,\"knee\":false,\"result\":{\"total\":"
    "{\"total\":{\"ios\":3500,\"iops\":3500,\"lat_us\":{\"mean\":1100}}}}},"
    "{\"target\":\"/dev/sdb\",\"threads\":1,\"iodepth\":16,\"knee\":true,\"result\":{\"total\":"
    "{\"total\":{\"ios\":3600,\"iops\":3600,\"lat_us\":{\"mean\":4300}}}}}]}";

static struct iom_imp_result *load(const char *dir, const char *name)
{
    char path[1200], err[600];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    struct iom_imp_result *r = NULL;
    if (iom_import_file(path, &r, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        fails++;
    }
    return r;
}

int main(void)
{
    char src[1024], dir[1200];
    snprintf(src, sizeof(src), "%s", __FILE__);
    snprintf(dir, sizeof(dir), "%s/../data/results", dirname(src));
    if (access(dir, R_OK) != 0) {
        fprintf(stderr, "%s not found (tests/data/results is part of the repository)\n", dir);
        return 1;
    }
    struct iom_cmp_input *in = calloc(2, sizeof(*in)), *in2 = calloc(1, sizeof(*in2));
    const char *files[2] = {"diskspd_xml_3.xml", "fio_json_7.json"};
    for (int i = 0; i < 2; i++) {
        in[i].files = calloc(1, sizeof(*in[i].files));
        in[i].files[0] = load(dir, files[i]);
        in[i].nr_files = 1;
        snprintf(in[i].label, sizeof(in[i].label), i ? "fio <RAID5> & co" : "DiskSpd");
        if (!in[i].files[0])
            return 1;
    }
    /* a sweep document, for a report of its own */
    char err[300];
    in2[0].files = calloc(1, sizeof(*in2[0].files));
    CHECK(iom_import_buffer("sweep.json", sweep_doc, strlen(sweep_doc), &in2[0].files[0], err,
                            sizeof(err)) == 0);
    in2[0].nr_files = 1;
    snprintf(in2[0].label, sizeof(in2[0].label), "sweep");

    /* first the two real files alone (matched by position) */
    struct iom_cmp *c;
    CHECK(iom_cmp_build(in, 2, 0.05, &c) == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(iom_html_report(f, c, "test <report>") == 0);
    fclose(f);

    xmlDoc *doc = xmlReadMemory(buf, (int)len, "r.html", NULL, XML_PARSE_NONET);
    CHECK(doc != NULL);
    htmlDocPtr hdoc = htmlReadMemory(buf, (int)len, "r.html", "utf-8",
                                     HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING);
    CHECK(hdoc != NULL);
    xmlFreeDoc(hdoc);
    CHECK(strstr(buf, "<script") == NULL);
    CHECK(strstr(buf, "src=") == NULL && strstr(buf, "href=") == NULL);
    CHECK(strstr(buf, "test &lt;report&gt;") != NULL);
    if (doc) {
        ctx = xmlXPathNewContext(doc);
        xmlXPathRegisterNs(ctx, (const xmlChar *)"s", (const xmlChar *)"http://www.w3.org/2000/svg");
        xmlXPathRegisterNs(ctx, (const xmlChar *)"h", (const xmlChar *)"http://www.w3.org/1999/xhtml");
        /* IOPS over time: DiskSpd's 30 one-second buckets */
        CHECK(count("//s:svg[@id='iops-time-0']/s:g[@data-series='DiskSpd']/s:circle") == 30);
        NEAR(value("//s:svg[@id='iops-time-0']/s:g[@data-series='DiskSpd']/s:circle[1]/@data-y"), 106);
        NEAR(value("//s:svg[@id='iops-time-0']/s:g[@data-series='DiskSpd']/s:circle[2]/@data-y"), 222);
        NEAR(value("//s:svg[@id='iops-time-0']/s:g[@data-series='DiskSpd']/s:circle[3]/@data-y"), 335);
        NEAR(value("//s:svg[@id='iops-time-0']/s:g[@data-series='DiskSpd']/s:circle[3]/@data-x"), 3);
        /* percentile curves, one line per input */
        NEAR(value("//s:svg[@id='pct-0']/s:g[@data-series='DiskSpd']/s:circle[@data-x='99']/@data-y"),
             1202421);
        NEAR(value("//s:svg[@id='pct-0']/s:g[@data-series='fio <RAID5> & co']/s:circle[@data-x='99']"
                   "/@data-y"),
             67633.152);
        /* comparison bars: IOPS of both inputs and the change label */
        NEAR(value("//s:svg[@data-metric='iops']/s:rect[@data-input='0']/@data-value"), 6971 / 30.0);
        NEAR(value("//s:svg[@data-metric='iops']/s:rect[@data-input='1']/@data-value"),
             25.246234 + 26.442108);
        /* (51.688342 - 232.3667) / 232.3667 = -77.76% */
        CHECK(has_text("//s:svg[@data-metric='iops']/s:text", "-77.8% IOPS"));
        /* DiskSpd mean 137.932 ms vs fio's I/O-weighted 19.338 ms: 86.0% lower */
        CHECK(has_text("//s:svg[@data-metric='lat_mean_us']/s:text", "86.0% lower latency"));
        CHECK(has_text("//h:table//h:td", "-77.8% IOPS"));
        xmlXPathFreeContext(ctx);
        xmlFreeDoc(doc);
    }
    free(buf);
    iom_cmp_free(c); /* frees the inputs and their array */

    /* a sweep alone: scaling curves with the knee */
    struct iom_cmp *c2;
    CHECK(iom_cmp_build(in2, 1, 0.05, &c2) == 0);
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(iom_html_report(f, c2, NULL) == 0);
    fclose(f);
    doc = xmlReadMemory(buf, (int)len, "s.html", NULL, XML_PARSE_NONET);
    CHECK(doc != NULL);
    if (doc) {
        ctx = xmlXPathNewContext(doc);
        xmlXPathRegisterNs(ctx, (const xmlChar *)"s", (const xmlChar *)"http://www.w3.org/2000/svg");
        CHECK(count("//s:svg[@id='sweep-0-0-0']//s:circle") == 3);
        NEAR(value("//s:svg[@id='sweep-0-0-0']//s:circle[2]/@data-x"), 4);
        NEAR(value("//s:svg[@id='sweep-0-0-0']//s:circle[2]/@data-y"), 3500);
        NEAR(value("//s:svg[@id='sweep-0-0-1']//s:circle[3]/@data-y"), 4300);
        CHECK(count("//s:svg[@id='sweep-0-0-0']//s:circle[@class='knee']") == 1);
        NEAR(value("//s:svg[@id='sweep-0-0-0']//s:circle[@class='knee']/@data-x"), 16);
        xmlXPathFreeContext(ctx);
        xmlFreeDoc(doc);
    }
    free(buf);
    iom_cmp_free(c2);
    xmlCleanupParser();
    if (fails)
        fprintf(stderr, "%d check(s) failed\n", fails);
    return fails ? 1 : 0;
}
