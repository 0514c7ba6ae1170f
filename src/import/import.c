/* import.c - format detection, the record's memory and helpers for importers. */
#include "import/import.h"

#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct iom_importer *const importers[] = {
    &iom_import_iomark,      &iom_import_fio_json,     &iom_import_diskspd_xml,
    &iom_import_diskspd_text, &iom_import_fio_text,     &iom_import_cdm_text,
    &iom_import_iomark_text,
};

void iom_imp_run_init(struct iom_imp_run *run)
{
    memset(run, 0, sizeof(*run));
    for (int d = 0; d < IOM_IMP_NDIR; d++) {
        struct iom_imp_dir *x = &run->dir[d];
        x->iops = x->mb_per_s = x->mib_per_s = NAN;
        x->lat_mean_us = x->lat_p99_us = x->lat_max_us = x->ios = NAN;
    }
    run->runtime_s = run->cpu_pct = run->cpu_proc_pct = run->iops_per_cpu_pct = NAN;
    run->nopm = run->tpm = NAN;
}

struct iom_imp_run *iom_imp_add_run(struct iom_imp_workload *w)
{
    struct iom_imp_run *n = realloc(w->runs, (w->nr_runs + 1) * sizeof(*n));
    if (!n)
        return NULL;
    w->runs = n;
    iom_imp_run_init(&n[w->nr_runs]);
    return &n[w->nr_runs++];
}

void iom_imp_diskspd_key(char *buf, size_t len, double bs, int random, double write_pct,
                         double qd, double threads, int idx)
{
    char bsn[32];
    if (bs >= 1048576 && fmod(bs, 1048576) == 0)
        snprintf(bsn, sizeof(bsn), "%gMiB", bs / 1048576);
    else if (bs >= 1024 && fmod(bs, 1024) == 0)
        snprintf(bsn, sizeof(bsn), "%gKiB", bs / 1024);
    else
        snprintf(bsn, sizeof(bsn), "%gB", bs);
    int n = snprintf(buf, len, "%s %s w%g%% Q%g T%g", bsn, random ? "random" : "sequential",
                     write_pct, qd, threads);
    if (idx > 0 && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, " #%d", idx + 1);
}

struct iom_imp_workload *iom_imp_add_workload(struct iom_imp_result *res, const char *name)
{
    struct iom_imp_workload *n = realloc(res->w, (res->nr_workloads + 1) * sizeof(*n));
    if (!n)
        return NULL;
    res->w = n;
    struct iom_imp_workload *w = &n[res->nr_workloads];
    memset(w, 0, sizeof(*w));
    snprintf(w->name, sizeof(w->name), "%s", name ? name : "");
    if (!iom_imp_add_run(w))
        return NULL;
    res->nr_workloads++;
    return w;
}

void iom_imp_dir_from_bytes(struct iom_imp_dir *d, double ios, double bytes, double secs)
{
    d->ios = ios;
    if (secs > 0) {
        d->iops = ios / secs;
        d->mb_per_s = bytes / secs / 1e6;
        d->mib_per_s = bytes / secs / 1048576.0;
    }
}

static double add_known(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a + b;
}

void iom_imp_make_total(struct iom_imp_run *run)
{
    static const int dirs[] = {IOM_IMP_READ, IOM_IMP_WRITE, IOM_IMP_TRIM};
    struct iom_imp_dir *t = &run->dir[IOM_IMP_TOTAL];
    double n_all = 0, lat_sum = 0, mx = 0;
    int active = 0, one = -1;
    t->iops = t->mb_per_s = t->mib_per_s = t->ios = NAN; /* the sums, made afresh */
    bool mean_ok = true, max_ok = true;
    for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
        const struct iom_imp_dir *x = &run->dir[dirs[k]];
        t->iops = add_known(t->iops, x->iops);
        t->mb_per_s = add_known(t->mb_per_s, x->mb_per_s);
        t->mib_per_s = add_known(t->mib_per_s, x->mib_per_s);
        t->ios = add_known(t->ios, x->ios);
        double n = isnan(x->ios) ? 0 : x->ios;
        if (n <= 0)
            continue;
        active++;
        one = dirs[k];
        n_all += n;
        mean_ok = mean_ok && !isnan(x->lat_mean_us);
        lat_sum += n * x->lat_mean_us;
        max_ok = max_ok && !isnan(x->lat_max_us);
        mx = fmax(mx, x->lat_max_us);
    }
    if (active && mean_ok) /* the directions' means weighted by their I/Os */
        t->lat_mean_us = lat_sum / n_all;
    if (isnan(t->lat_p99_us) && active == 1)
        t->lat_p99_us = run->dir[one].lat_p99_us;
    if (isnan(t->lat_max_us) && active && max_ok)
        t->lat_max_us = mx;
}

int iom_imp_add_pct(struct iom_imp_run *run, double pct, double lat_us)
{
    struct iom_imp_pct *n = realloc(run->pct, (run->nr_pct + 1) * sizeof(*n));
    if (!n)
        return -ENOMEM;
    run->pct = n;
    n[run->nr_pct].pct = pct;
    n[run->nr_pct].lat_us = lat_us;
    run->nr_pct++;
    return 0;
}

int iom_imp_add_target_pct(struct iom_imp_run *run, const char *target, double samples, double pct,
                           double lat_us)
{
    struct iom_imp_tcurve *c = NULL;
    for (uint32_t i = 0; i < run->nr_tcurves; i++)
        if (strcmp(run->tcurves[i].target, target) == 0)
            c = &run->tcurves[i];
    if (!c) {
        struct iom_imp_tcurve *n = realloc(run->tcurves, (run->nr_tcurves + 1) * sizeof(*n));
        if (!n)
            return -ENOMEM;
        run->tcurves = n;
        c = &n[run->nr_tcurves++];
        memset(c, 0, sizeof(*c));
        snprintf(c->target, sizeof(c->target), "%s", target);
        c->samples = samples;
    }
    struct iom_imp_pct *p = realloc(c->pct, (c->nr_pct + 1) * sizeof(*p));
    if (!p)
        return -ENOMEM;
    c->pct = p;
    p[c->nr_pct].pct = pct;
    p[c->nr_pct].lat_us = lat_us;
    c->nr_pct++;
    return 0;
}

int iom_imp_add_point(struct iom_imp_run *run, const struct iom_imp_point *p)
{
    struct iom_imp_point *n = realloc(run->series, (run->nr_series + 1) * sizeof(*n));
    if (!n)
        return -ENOMEM;
    run->series = n;
    n[run->nr_series++] = *p;
    return 0;
}

int iom_imp_add_txn(struct iom_imp_run *run, const struct iom_imp_txn *t)
{
    struct iom_imp_txn *n = realloc(run->txn, (run->nr_txn + 1) * sizeof(*n));
    if (!n)
        return -ENOMEM;
    run->txn = n;
    n[run->nr_txn++] = *t;
    return 0;
}

const char *iom_imp_json_start(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '{' && (p == text || p[-1] == '\n' || p[-1] == '\r'))
            return p;
    }
    return NULL;
}

void iom_imp_result_free(struct iom_imp_result *r)
{
    if (!r)
        return;
    for (uint32_t i = 0; i < r->nr_workloads; i++) {
        struct iom_imp_workload *w = &r->w[i];
        for (uint32_t k = 0; k < w->nr_runs; k++) {
            free(w->runs[k].txn);
            free(w->runs[k].pct);
            free(w->runs[k].series);
            for (uint32_t c = 0; c < w->runs[k].nr_tcurves; c++)
                free(w->runs[k].tcurves[c].pct);
            free(w->runs[k].tcurves);
        }
        free(w->runs);
    }
    free(r->w);
    free(r);
}

static int only_space(const char *t, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (t[i] != ' ' && t[i] != '\t' && t[i] != '\r' && t[i] != '\n' && t[i] != '\0')
            return 0;
    return 1;
}

int iom_import_buffer(const char *name, const char *text, size_t len,
                      struct iom_imp_result **out, char *err, size_t errlen)
{
    *out = NULL;
    if (len == 0) {
        snprintf(err, errlen, "%s: empty file (0 bytes); not a result", name);
        return -EINVAL;
    }
    if (only_space(text, len)) {
        snprintf(err, errlen, "%s: only white space; not a result", name);
        return -EINVAL;
    }
    char *buf = malloc(len + 1);
    if (!buf)
        return -ENOMEM;
    memcpy(buf, text, len);
    buf[len] = '\0';
    /* a NUL inside the file ends the text the parsers see */
    size_t tlen = strlen(buf);
    const struct iom_importer *imp = NULL;
    for (size_t i = 0; i < sizeof(importers) / sizeof(importers[0]); i++) {
        if (importers[i]->probe(buf, tlen)) {
            imp = importers[i];
            break;
        }
    }
    if (!imp) {
        snprintf(err, errlen,
                 "%s: not a result file of a known format (iomark JSON, fio JSON/json+/text, "
                 "DiskSpd XML/text, CrystalDiskMark/KDiskMark text)",
                 name);
        free(buf);
        return -EINVAL;
    }
    struct iom_imp_result *res = calloc(1, sizeof(*res));
    if (!res) {
        free(buf);
        return -ENOMEM;
    }
    snprintf(res->path, sizeof(res->path), "%s", name);
    snprintf(res->format, sizeof(res->format), "%s", imp->format);
    char why[400] = "";
    int rc = imp->parse(buf, tlen, res, why, sizeof(why));
    if (rc == 0 && res->nr_workloads == 0) {
        snprintf(why, sizeof(why), "holds no workload results");
        rc = -EINVAL;
    }
    free(buf);
    if (rc) {
        snprintf(err, errlen, "%s: %s: %s", name, imp->format,
                 why[0] ? why : rc == -ENOMEM ? "out of memory" : "cannot be read");
        iom_imp_result_free(res);
        return rc;
    }
    *out = res;
    return 0;
}

int iom_import_file(const char *path, struct iom_imp_result **out, char *err, size_t errlen)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        snprintf(err, errlen, "%s: is a folder; name a result file", path);
        return -EISDIR;
    }
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(f);
        return -ENOMEM;
    }
    for (;;) {
        if (len == cap) {
            if (cap >= (size_t)1 << 30) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: larger than 1 GiB; not a result file", path);
                return -EFBIG;
            }
            char *n = realloc(buf, cap * 2);
            if (!n) {
                free(buf);
                fclose(f);
                return -ENOMEM;
            }
            buf = n;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        free(buf);
        snprintf(err, errlen, "%s: read error", path);
        return -EIO;
    }
    int rc = iom_import_buffer(path, buf, len, out, err, errlen);
    free(buf);
    return rc;
}

void iom_imp_note(struct iom_imp_result *res, const char *fmt, ...)
{
    size_t n = strlen(res->note);
    if (n && n + 2 < sizeof(res->note)) {
        memcpy(res->note + n, "; ", 3);
        n += 2;
    }
    if (n + 1 >= sizeof(res->note))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->note + n, sizeof(res->note) - n, fmt, ap);
    va_end(ap);
}

int iom_imp_fio_line(const char *text, int want_signal, char *out, size_t len)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        size_t n = strcspn(l, "\r\n");
        if (strncmp(l, "fio: ", 5) != 0)
            continue;
        int sig = n > 26 && strncmp(l, "fio: terminating on signal", 26) == 0;
        int errline = 0;
        for (const char *q = l; q + 4 <= l + n && !errline; q++)
            errline = strncmp(q, "err=", 4) == 0 || (q + 6 <= l + n && strncmp(q, "error=", 6) == 0);
        if (want_signal ? sig : (errline && !sig)) {
            snprintf(out, len, "%.*s", (int)(n < 200 ? n : 200), l);
            return 1;
        }
    }
    return 0;
}

double iom_imp_fio_time_s(const char *s)
{
    if (!s)
        return NAN;
    char *e;
    double v = strtod(s, &e);
    if (e == s || v < 0)
        return NAN;
    if (!*e || !strcmp(e, "s"))
        return v;
    if (!strcmp(e, "ms"))
        return v / 1e3;
    if (!strcmp(e, "us"))
        return v / 1e6;
    if (!strcmp(e, "m"))
        return v * 60;
    if (!strcmp(e, "h"))
        return v * 3600;
    if (!strcmp(e, "d"))
        return v * 86400;
    return NAN;
}
