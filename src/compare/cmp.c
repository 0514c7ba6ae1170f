/* cmp.c - build the comparison table (see cmp.h). */
#include "compare/cmp.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void iom_cmp_input_free(struct iom_cmp_input *in)
{
    for (uint32_t i = 0; i < in->nr_files; i++)
        iom_imp_result_free(in->files[i]);
    free(in->files);
    in->files = NULL;
    in->nr_files = 0;
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int iom_cmp_spec_each(const char *spec, char *label, size_t label_len, iom_cmp_file_fn fn,
                      void *ctx)
{
    const char *list = spec;
    const char *eq = strchr(spec, '=');
    if (label_len)
        label[0] = '\0';
    if (!is_file(spec) && eq && eq != spec) {
        if (label_len)
            snprintf(label, label_len, "%.*s", (int)(eq - spec), spec);
        list = eq + 1;
    }
    /* a whole name that exists is one file even if it holds a comma */
    if (is_file(list))
        return fn(list, ctx);
    char *copy = strdup(list);
    if (!copy)
        return -ENOMEM;
    int rc = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save))
        if (*tok)
            rc = fn(tok, ctx);
    free(copy);
    return rc;
}

struct load_ctx {
    struct iom_cmp_input *in;
    char *err;
    size_t errlen;
};

/* iom_cmp_file_fn: import one file of an input and append it */
static int load_one(const char *path, void *arg)
{
    struct load_ctx *c = arg;
    struct iom_imp_result *r;
    int rc = iom_import_file(path, &r, c->err, c->errlen);
    if (rc)
        return rc;
    struct iom_imp_result **n = realloc(c->in->files, (c->in->nr_files + 1) * sizeof(*n));
    if (!n) {
        iom_imp_result_free(r);
        return -ENOMEM;
    }
    c->in->files = n;
    c->in->files[c->in->nr_files++] = r;
    return 0;
}

int iom_cmp_input_load(const char *spec, struct iom_cmp_input *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof(*in));
    struct load_ctx c = {in, err, errlen};
    int rc = iom_cmp_spec_each(spec, in->label, sizeof(in->label), load_one, &c);
    if (!rc && in->nr_files == 0) {
        snprintf(err, errlen, "%s: no file named", spec);
        rc = -EINVAL;
    }
    if (!rc && !in->label[0]) {
        /* label: the file's base name, "+N" when several */
        const char *b = strrchr(in->files[0]->path, '/');
        b = b ? b + 1 : in->files[0]->path;
        if (in->nr_files > 1)
            snprintf(in->label, sizeof(in->label), "%s+%u", b, in->nr_files - 1);
        else
            snprintf(in->label, sizeof(in->label), "%s", b);
    }
    if (rc)
        iom_cmp_input_free(in);
    return rc;
}

/* ---- metrics ---- */

struct mdef {
    const char *key, *label, *unit, *noun;
    int better;
    int tpcc;
};

static const struct mdef io_metrics[] = {
    {"iops", "IOPS", "IO/s", "IOPS", 1, 0},
    {"read_iops", "read IOPS", "IO/s", "read IOPS", 1, 0},
    {"write_iops", "write IOPS", "IO/s", "write IOPS", 1, 0},
    {"trim_iops", "trim IOPS", "IO/s", "trim IOPS", 1, 0},
    {"mb_per_s", "throughput", "MB/s", "MB/s", 1, 0},
    {"mib_per_s", "throughput", "MiB/s", "MiB/s", 1, 0},
    {"lat_mean_us", "mean latency", "us", "latency", -1, 0},
    {"lat_p99_us", "p99 latency", "us", "p99 latency", -1, 0},
    {"cpu_pct", "CPU busy", "% all CPUs", "CPU", -1, 0},
    {"cpu_proc_pct", "tool CPU", "% of 1 CPU", "tool CPU", -1, 0},
    {"iops_per_cpu_pct", "IOPS per CPU-%", "IO/s per %", "IOPS per CPU-%", 1, 0},
    {"nopm", "NOPM", "orders/min", "NOPM", 1, 1},
    {"tpm", "TPM", "txn/min", "TPM", 1, 1},
};

static double io_value(const struct iom_imp_run *r, const char *key)
{
    if (!strcmp(key, "iops"))
        return r->dir[2].iops;
    if (!strcmp(key, "read_iops"))
        return r->dir[0].iops;
    if (!strcmp(key, "write_iops"))
        return r->dir[1].iops;
    if (!strcmp(key, "trim_iops"))
        return r->dir[IOM_IMP_TRIM].iops;
    if (!strcmp(key, "mb_per_s"))
        return r->dir[2].mb_per_s;
    if (!strcmp(key, "mib_per_s"))
        return r->dir[2].mib_per_s;
    if (!strcmp(key, "lat_mean_us"))
        return r->dir[2].lat_mean_us;
    if (!strcmp(key, "lat_p99_us"))
        return r->dir[2].lat_p99_us;
    if (!strcmp(key, "cpu_pct"))
        return r->cpu_pct;
    if (!strcmp(key, "cpu_proc_pct"))
        return r->cpu_proc_pct;
    if (!strcmp(key, "iops_per_cpu_pct"))
        return r->iops_per_cpu_pct;
    if (!strcmp(key, "nopm"))
        return r->nopm;
    if (!strcmp(key, "tpm"))
        return r->tpm;
    return NAN;
}

/* "txn.<name>.<field>" */
static double txn_value(const struct iom_imp_run *r, const char *name, const char *field)
{
    for (uint32_t i = 0; i < r->nr_txn; i++) {
        const struct iom_imp_txn *t = &r->txn[i];
        if (strcmp(t->name, name) != 0)
            continue;
        if (!strcmp(field, "mean_ms"))
            return t->mean_ms;
        if (!strcmp(field, "p95_ms"))
            return t->p95_ms;
        if (!strcmp(field, "p99_ms"))
            return t->p99_ms;
        if (!strcmp(field, "calls"))
            return t->calls;
    }
    return NAN;
}

const struct iom_imp_workload *iom_cmp_find_workload(const struct iom_imp_result *r,
                                                     const char *name, int positional)
{
    if (positional)
        return r->nr_workloads ? &r->w[0] : NULL;
    for (uint32_t k = 0; k < r->nr_workloads; k++)
        if (strcmp(r->w[k].name, name) == 0)
            return &r->w[k];
    return NULL;
}

int iom_cmp_workload_diff(const struct iom_imp_workload *a, const struct iom_imp_workload *b,
                          char *buf, size_t len)
{
    int n = 0;
    size_t o = 0;
    buf[0] = 0;
#define DIFF(...)                                                                                  \
    do {                                                                                           \
        if (o < len)                                                                               \
            o += (size_t)snprintf(buf + o, len - o, "%s", n++ ? ", " : "");                        \
        if (o < len)                                                                               \
            o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__);                                  \
    } while (0)
    if (a->bs_bytes && b->bs_bytes && a->bs_bytes != b->bs_bytes)
        DIFF("bs %llu vs %llu B", (unsigned long long)a->bs_bytes, (unsigned long long)b->bs_bytes);
    if (a->iodepth && b->iodepth && a->iodepth != b->iodepth)
        DIFF("iodepth %d vs %d", a->iodepth, b->iodepth);
    if (a->threads && b->threads && a->threads != b->threads)
        DIFF("threads %d vs %d", a->threads, b->threads);
    if (a->rw[0] && b->rw[0] && strcmp(a->rw, b->rw) != 0)
        DIFF("rw %s vs %s", a->rw, b->rw);
#undef DIFF
    return n;
}

struct collect {
    double *v;
    size_t n, cap;
};

static int push(struct collect *c, double x)
{
    if (isnan(x))
        return 0;
    if (c->n == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 16;
        double *nv = realloc(c->v, nc * sizeof(*nv));
        if (!nv)
            return -ENOMEM;
        c->v = nv;
        c->cap = nc;
    }
    c->v[c->n++] = x;
    return 0;
}

static int add_row(struct iom_cmp *c, struct iom_cmp_workload *cw, const char *key, const char *label,
                   const char *unit, const char *noun, int better, const char *txn,
                   const char *field)
{
    struct iom_cmp_row row;
    memset(&row, 0, sizeof(row));
    snprintf(row.key, sizeof(row.key), "%s", key);
    snprintf(row.label, sizeof(row.label), "%s", label);
    snprintf(row.unit, sizeof(row.unit), "%s", unit);
    snprintf(row.noun, sizeof(row.noun), "%s", noun);
    row.better = better;
    row.base = -1;
    row.cells = calloc(c->nr_inputs, sizeof(*row.cells));
    row.delta = calloc(c->nr_inputs, sizeof(*row.delta));
    if (!row.cells || !row.delta)
        goto nomem;
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        struct collect col = {0};
        const struct iom_cmp_input *in = &c->inputs[i];
        for (uint32_t f = 0; f < in->nr_files; f++) {
            const struct iom_imp_workload *w = iom_cmp_find_workload(in->files[f], cw->name, cw->positional);
            for (uint32_t k = 0; w && k < w->nr_runs; k++) {
                double v = txn ? txn_value(&w->runs[k], txn, field) : io_value(&w->runs[k], key);
                if (push(&col, v)) {
                    free(col.v);
                    goto nomem;
                }
            }
        }
        iom_sample_stats(col.v, col.n, &row.cells[i].s);
        free(col.v);
        if (row.cells[i].s.n > 0 && row.base < 0)
            row.base = (int)i;
    }
    if (row.base < 0) { /* nobody knows it */
        free(row.cells);
        free(row.delta);
        return 0;
    }
    const struct iom_sample_stats *b = &row.cells[row.base].s;
    for (uint32_t i = 0; i < c->nr_inputs; i++) {
        struct iom_cmp_delta *d = &row.delta[i];
        d->improvement_pct = NAN;
        const struct iom_sample_stats *s = &row.cells[i].s;
        if ((int)i == row.base || s->n == 0)
            continue;
        d->improvement_pct = iom_improvement_pct(b->mean, s->mean, better);
        if (iom_welch_from_stats(b, s, &d->welch) == 0) {
            d->has_test = 1;
            d->significant = d->welch.p < c->alpha;
        }
    }
    struct iom_cmp_row *nr = realloc(cw->rows, (cw->nr_rows + 1) * sizeof(*nr));
    if (!nr)
        goto nomem;
    cw->rows = nr;
    cw->rows[cw->nr_rows++] = row;
    return 0;
nomem:
    free(row.cells);
    free(row.delta);
    return -ENOMEM;
}

static int build_workload(struct iom_cmp *c, struct iom_cmp_workload *cw)
{
    /* does any run of any input do both reads and writes, or TPC-C? */
    int mixed = 0, tpcc = 0, trims = 0;
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        for (uint32_t f = 0; f < c->inputs[i].nr_files; f++) {
            const struct iom_imp_workload *w = iom_cmp_find_workload(c->inputs[i].files[f], cw->name, cw->positional);
            for (uint32_t k = 0; w && k < w->nr_runs; k++) {
                const struct iom_imp_dir *d = w->runs[k].dir;
                if ((d[0].iops > 0) + (d[1].iops > 0) + (d[IOM_IMP_TRIM].iops > 0) > 1)
                    mixed = 1; /* two directions or more: each its own row */
                if (d[IOM_IMP_TRIM].iops > 0)
                    trims = 1;
                if (w->is_tpcc)
                    tpcc = 1;
            }
        }
    /* TPC-C: NOPM and TPM lead; I/O workloads: in table order */
    for (int pass = tpcc ? 0 : 1; pass < 2; pass++)
        for (size_t m = 0; m < sizeof(io_metrics) / sizeof(io_metrics[0]); m++) {
            const struct mdef *d = &io_metrics[m];
            if (tpcc && d->tpcc != (pass == 0))
                continue;
            if (!mixed && (!strcmp(d->key, "read_iops") || !strcmp(d->key, "write_iops") ||
                           !strcmp(d->key, "trim_iops")))
                continue;
            if (!trims && !strcmp(d->key, "trim_iops"))
                continue;
            if (add_row(c, cw, d->key, d->label, d->unit, d->noun, d->better, NULL, NULL))
                return -ENOMEM;
        }
    if (!tpcc)
        return 0;
    /* per-transaction rows: the union of transaction names, in order seen */
    static const struct {
        const char *field, *label;
    } tf[] = {{"mean_ms", "mean"}, {"p95_ms", "p95"}, {"p99_ms", "p99"}};
    char names[32][32];
    int nn = 0;
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        for (uint32_t f = 0; f < c->inputs[i].nr_files; f++) {
            const struct iom_imp_workload *w = iom_cmp_find_workload(c->inputs[i].files[f], cw->name, cw->positional);
            for (uint32_t k = 0; w && k < w->nr_runs; k++)
                for (uint32_t t = 0; t < w->runs[k].nr_txn; t++) {
                    int seen = 0;
                    for (int q = 0; q < nn; q++)
                        seen |= !strcmp(names[q], w->runs[k].txn[t].name);
                    if (!seen && nn < 32)
                        snprintf(names[nn++], sizeof(names[0]), "%s", w->runs[k].txn[t].name);
                }
        }
    for (int q = 0; q < nn; q++)
        for (size_t j = 0; j < sizeof(tf) / sizeof(tf[0]); j++) {
            char key[64], label[64], noun[48];
            snprintf(key, sizeof(key), "txn.%s.%s", names[q], tf[j].field);
            snprintf(label, sizeof(label), "%s %s", names[q], tf[j].label);
            snprintf(noun, sizeof(noun), "%s %s time", names[q], tf[j].label);
            if (add_row(c, cw, key, label, "ms", noun, -1, names[q], tf[j].field))
                return -ENOMEM;
        }
    return 0;
}

/* Direction of a CrystalDiskMark-style test name ("SEQ1M Q8T1 read",
 * "RND4K Q32T16 write": iomark mark, CrystalDiskMark and KDiskMark text):
 * 0 read, 1 write, -1 another name. */
static int cdm_dir(const char *name)
{
    char kind[16], dir[8];
    unsigned q, t;
    int n = 0;
    if (sscanf(name, "%15s Q%uT%u %7s%n", kind, &q, &t, dir, &n) != 4 || name[n])
        return -1;
    return !strcmp(dir, "read") ? 0 : !strcmp(dir, "write") ? 1 : -1;
}

/* When every workload is a CrystalDiskMark-style test: every read, then every
 * write, each in order of first appearance (CrystalDiskMark's text export,
 * [Read] then [Write]; mark's run order). Inputs with other tests (another
 * profile, a mark stopped part-way) would otherwise append their reads after
 * the first input's writes. */
static void cdm_order(struct iom_cmp *c)
{
    for (uint32_t q = 0; q < c->nr_workloads; q++)
        if (cdm_dir(c->w[q].name) < 0)
            return;
    uint32_t o = 0; /* stable: move each read up past the writes before it */
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        if (cdm_dir(c->w[q].name) != 0)
            continue;
        struct iom_cmp_workload r = c->w[q];
        memmove(&c->w[o + 1], &c->w[o], (q - o) * sizeof(c->w[0]));
        c->w[o++] = r;
    }
}

int iom_cmp_build(struct iom_cmp_input *inputs, uint32_t nr, double alpha, struct iom_cmp **out)
{
    struct iom_cmp *c = calloc(1, sizeof(*c));
    if (!c)
        return -ENOMEM;
    c->inputs = inputs;
    c->nr_inputs = nr;
    c->alpha = alpha;
    int positional = nr > 1;
    for (uint32_t i = 0; i < nr; i++)
        for (uint32_t f = 0; f < inputs[i].nr_files; f++)
            if (inputs[i].files[f]->nr_workloads != 1)
                positional = 0;
    /* workload names in order of first appearance */
    for (uint32_t i = 0; i < nr; i++) {
        for (uint32_t f = 0; f < inputs[i].nr_files; f++) {
            const struct iom_imp_result *r = inputs[i].files[f];
            for (uint32_t k = 0; k < r->nr_workloads; k++) {
                int seen = 0;
                for (uint32_t q = 0; q < c->nr_workloads; q++)
                    seen |= positional || !strcmp(c->w[q].name, r->w[k].name);
                if (seen)
                    continue;
                struct iom_cmp_workload *nw = realloc(c->w, (c->nr_workloads + 1) * sizeof(*nw));
                if (!nw) {
                    iom_cmp_free(c);
                    return -ENOMEM;
                }
                c->w = nw;
                struct iom_cmp_workload *cw = &c->w[c->nr_workloads++];
                memset(cw, 0, sizeof(*cw));
                snprintf(cw->name, sizeof(cw->name), "%s", r->w[k].name);
                cw->positional = positional;
            }
        }
    }
    cdm_order(c);
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        if (build_workload(c, &c->w[q])) {
            iom_cmp_free(c);
            return -ENOMEM;
        }
    }
    *out = c;
    return 0;
}

void iom_cmp_free(struct iom_cmp *c)
{
    if (!c)
        return;
    for (uint32_t q = 0; q < c->nr_workloads; q++) {
        for (uint32_t r = 0; r < c->w[q].nr_rows; r++) {
            free(c->w[q].rows[r].cells);
            free(c->w[q].rows[r].delta);
        }
        free(c->w[q].rows);
    }
    free(c->w);
    for (uint32_t i = 0; i < c->nr_inputs; i++)
        iom_cmp_input_free(&c->inputs[i]);
    free(c->inputs);
    free(c);
}

int iom_cmp_has_test(const struct iom_cmp *c)
{
    for (uint32_t q = 0; q < c->nr_workloads; q++)
        for (uint32_t r = 0; r < c->w[q].nr_rows; r++)
            for (uint32_t i = 0; i < c->nr_inputs; i++)
                if ((int)i != c->w[q].rows[r].base && c->w[q].rows[r].delta[i].has_test)
                    return 1;
    return 0;
}

void iom_cmp_delta_text(const struct iom_cmp_row *row, const struct iom_cmp_delta *d, char *buf,
                        size_t len)
{
    buf[0] = '\0';
    if (isnan(d->improvement_pct))
        return;
    double x = d->improvement_pct;
    if (fabs(x) < 0.05) {
        snprintf(buf, len, "no change in %s", row->noun);
    } else if (row->better > 0) {
        snprintf(buf, len, "%+.1f%% %s", x, row->noun);
    } else {
        snprintf(buf, len, "%.1f%% %s %s", fabs(x), x >= 0 ? "lower" : "higher", row->noun);
    }
}

/* A file's kind: 1 a TPC-C (OLTP) result, 0 an I/O workload result. */
static int is_oltp(const struct iom_imp_result *r)
{
    for (uint32_t k = 0; k < r->nr_workloads; k++)
        if (r->w[k].is_tpcc)
            return 1;
    return !strcmp(r->format, "iomark") && !strcmp(r->kind, "tpcc");
}

/* What made the file, for the refusal: "iomark tpcc", "DiskSpd text", ... */
static void source_name(const struct iom_imp_result *r, char *buf, size_t len)
{
    static const struct {
        const char *format, *name;
    } names[] = {
        {"fio-json", "fio JSON"},       {"fio-text", "fio text"},
        {"diskspd-xml", "DiskSpd XML"}, {"diskspd-text", "DiskSpd text"},
        {"iomark-text", "iomark text"}, {"crystaldiskmark-text", "CrystalDiskMark/KDiskMark text"},
    };
    if (!strcmp(r->format, "iomark")) {
        snprintf(buf, len, "iomark %s", r->kind[0] ? r->kind : "run");
        return;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strcmp(r->format, names[i].format)) {
            snprintf(buf, len, "%s", names[i].name);
            return;
        }
    snprintf(buf, len, "%s", r->format);
}

int iom_cmp_check_kinds(const struct iom_cmp_input *inputs, uint32_t nr, char *err, size_t errlen)
{
    const struct iom_imp_result *first = NULL;
    for (uint32_t i = 0; i < nr; i++)
        for (uint32_t f = 0; f < inputs[i].nr_files; f++) {
            const struct iom_imp_result *r = inputs[i].files[f];
            if (!first) {
                first = r;
                continue;
            }
            if (is_oltp(r) == is_oltp(first))
                continue;
            static const char *const kind[] = {"an I/O workload result", "a TPC-C (OLTP) result"};
            char a[64], b[64];
            source_name(first, a, sizeof(a));
            source_name(r, b, sizeof(b));
            snprintf(err, errlen,
                     "%s is %s (%s) and %s is %s (%s): they measure different things and cannot "
                     "be compared; give TPC-C results only, or I/O workload results only",
                     first->path, kind[is_oltp(first)], a, r->path, kind[is_oltp(r)], b);
            return -EINVAL;
        }
    return 0;
}

int iom_cmp_load(const char *const *specs, uint32_t nr, double alpha, struct iom_cmp **out, char *err,
                 size_t errlen)
{
    *out = NULL;
    snprintf(err, errlen, "out of memory");
    struct iom_cmp_input *inputs = calloc(nr ? nr : 1, sizeof(*inputs));
    if (!inputs)
        return -ENOMEM;
    for (uint32_t i = 0; i < nr; i++) {
        int rc = iom_cmp_input_load(specs[i], &inputs[i], err, errlen);
        if (rc) {
            for (uint32_t k = 0; k < i; k++)
                iom_cmp_input_free(&inputs[k]);
            free(inputs);
            return rc;
        }
    }
    int krc = iom_cmp_check_kinds(inputs, nr, err, errlen);
    if (krc) {
        for (uint32_t k = 0; k < nr; k++)
            iom_cmp_input_free(&inputs[k]);
        free(inputs);
        return krc;
    }
    if (iom_cmp_build(inputs, nr, alpha, out)) { /* takes the inputs only on success */
        for (uint32_t k = 0; k < nr; k++)
            iom_cmp_input_free(&inputs[k]);
        free(inputs);
        snprintf(err, errlen, "out of memory");
        return -ENOMEM;
    }
    return 0;
}
