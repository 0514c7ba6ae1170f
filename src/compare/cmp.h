/*
 * cmp.h - the comparison table of `iomark compare` and the HTML report:
 * inputs (each one or several imported files = repeated runs), workloads
 * matched across inputs, and one row per metric with per-input summaries,
 * the change against the base input and Welch's test (stats/compare.h).
 * Building the table is here; printing is in report/compare.h.
 */
#ifndef IOMARK_COMPARE_CMP_H
#define IOMARK_COMPARE_CMP_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "import/import.h"
#include "stats/compare.h"

/* One input column: a label and the files whose runs it pools. */
struct iom_cmp_input {
    char label[96];
    uint32_t nr_files;
    struct iom_imp_result **files;   /* owned */
};

/* A metric value of one input: summary over its runs. */
struct iom_cmp_cell {
    struct iom_sample_stats s;       /* s.n == 0: this input does not know the metric */
};

/* The change of one input against the row's base input. */
struct iom_cmp_delta {
    double improvement_pct;          /* > 0 better, < 0 worse; NAN unknown */
    int has_test;                    /* both sides have >= 2 runs */
    struct iom_welch welch;
    int significant;                 /* has_test && p < alpha */
};

struct iom_cmp_row {
    char key[64];                    /* "iops", "lat_p99_us", "txn.new_order.p95_ms" ... */
    char label[64];                  /* "IOPS", "p99 latency" */
    char unit[16];                   /* "IO/s", "us", "%" ... */
    char noun[48];                   /* word used in the change text: "IOPS", "latency" */
    int better;                      /* +1 more is better, -1 less is better */
    int base;                        /* index of the first input that knows it, -1 none */
    struct iom_cmp_cell *cells;      /* [nr_inputs] */
    struct iom_cmp_delta *delta;     /* [nr_inputs]; delta[base] unused */
};

struct iom_cmp_workload {
    char name[96];
    int positional;                  /* matched by position (one workload per input) */
    uint32_t nr_rows;
    struct iom_cmp_row *rows;
};

struct iom_cmp {
    uint32_t nr_inputs;
    struct iom_cmp_input *inputs;
    uint32_t nr_workloads;
    struct iom_cmp_workload *w;
    double alpha;                    /* significance level of the test */
};

/* Called once per file name of an input spec: 0 to go on, else stop with it. */
typedef int (*iom_cmp_file_fn)(const char *path, void *ctx);

/*
 * The grammar of one command-line input spec, shared by compare and report
 * (and the check that --output is none of their inputs): "FILE",
 * "FILE,FILE,..." (repeated runs of one input) or "LABEL=FILE[,FILE...]";
 * a spec (or the part after "LABEL=") that exists as a file is that one
 * file, even when it holds '=' or ','; empty names between commas are
 * skipped. Calls fn(path, ctx) for each file name in order (path is
 * borrowed for the call). Writes the label, or "" when the spec has none,
 * into label (label_len bytes; 0: not written). Returns 0, -ENOMEM, or the
 * first non-zero return of fn.
 */
int iom_cmp_spec_each(const char *spec, char *label, size_t label_len, iom_cmp_file_fn fn,
                      void *ctx);

/*
 * Parse one command-line input spec into in (the grammar of
 * iom_cmp_spec_each): its label (else the first file's base name, "+N"
 * when there are N more) and each of its files, imported.
 * Returns 0, or -errno with one line in err naming the file and reason.
 */
int iom_cmp_input_load(const char *spec, struct iom_cmp_input *in, char *err, size_t errlen);

/* Free what an input owns (not the struct itself). */
void iom_cmp_input_free(struct iom_cmp_input *in);

/*
 * Build the table over nr inputs (ownership of the inputs array moves into
 * *out; free with iom_cmp_free). Workloads are matched by name; when every
 * input holds exactly one workload they are matched by position. alpha is
 * the significance level (e.g. 0.05). Returns 0 or -ENOMEM.
 */
int iom_cmp_build(struct iom_cmp_input *inputs, uint32_t nr, double alpha, struct iom_cmp **out);

void iom_cmp_free(struct iom_cmp *c);

/* The workload of r that a comparison column `name` matches: the first
 * workload when positional (inputs compared by position), else the one
 * named exactly `name`. NULL when there is none. Borrowed from r. */
const struct iom_imp_workload *iom_cmp_find_workload(const struct iom_imp_result *r,
                                                     const char *name, int positional);

/*
 * What differs between the workload a and the workload b that a comparison
 * pairs (block size, queue depth, threads, rw; a field unknown on either
 * side is not compared): "bs 4096 vs 8192 B, iodepth 1 vs 32" into buf, or
 * "" when nothing known differs. Returns the number of differing fields.
 */
int iom_cmp_workload_diff(const struct iom_imp_workload *a, const struct iom_imp_workload *b,
                          char *buf, size_t len);

/*
 * Whether the files of the nr inputs are results of one kind that can be
 * compared: all TPC-C (OLTP) results (iomark tpcc: NOPM, TPM, transaction
 * times), or all I/O workload results (iomark run, repeat, mark, sweep and
 * text, fio, DiskSpd, CrystalDiskMark/KDiskMark). Returns 0, or -EINVAL with
 * one line in err naming the first file of each kind and its kind, e.g.
 * "tpcc.json is a TPC-C (OLTP) result (iomark tpcc) and d.txt is an I/O
 * workload result (DiskSpd text): ...". Used by compare and report alike
 * (through iom_cmp_load).
 */
int iom_cmp_check_kinds(const struct iom_cmp_input *inputs, uint32_t nr, char *err, size_t errlen);

/*
 * Load the nr input specs (as iom_cmp_input_load), check that they are of
 * one kind (iom_cmp_check_kinds) and build their comparison (as
 * iom_cmp_build) into *out. Returns 0; -ENOMEM; or the first load's error
 * (-EINVAL, -ENOENT, ...) or the kinds' refusal (-EINVAL) with err naming
 * the file(s) and the reason. Nothing is left allocated on failure.
 */
int iom_cmp_load(const char *const *specs, uint32_t nr, double alpha, struct iom_cmp **out, char *err,
                 size_t errlen);

/* 1 when some change in c carries Welch's test (both sides of a row have 2+
 * runs), else 0: then every change is shown without a verdict, and the
 * reporters do not explain a test that judged nothing. */
int iom_cmp_has_test(const struct iom_cmp *c);

/* The change text of a delta: "+38.3% IOPS", "28.0% lower latency",
 * "12.0% higher p99 latency", or "" when unknown. */
void iom_cmp_delta_text(const struct iom_cmp_row *row, const struct iom_cmp_delta *d, char *buf,
                        size_t len);

#endif
