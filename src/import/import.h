/*
 * import.h - read result files of iomark and of other tools into one
 * comparable record (struct iom_imp_result).
 *
 * Formats (detected by content, never by file name): iomark JSON ("schema":
 * "iomark-result", type run / repeat / mark / sweep / tpcc), fio JSON and
 * json+ (fio 2.x latencies in us and io_bytes in KiB, fio 3.x in ns and
 * bytes; both normalised), fio normal text output, DiskSpd XML (-Rxml) and
 * text, CrystalDiskMark and KDiskMark text reports, iomark's own text report
 * of one run (iomark_text.c). Each format is one file
 * src/import/<format>.c exposing one struct iom_importer.
 *
 * Units in the record, whatever the source: rates per second, MB = 10^6
 * bytes, MiB = 2^20 bytes, latency in microseconds, CPU in percent, TPC-C
 * response times in milliseconds. A value the source does not hold is NAN
 * (test with isnan), never 0, so "unknown" is not compared as "zero".
 */
#ifndef IOMARK_IMPORT_IMPORT_H
#define IOMARK_IMPORT_IMPORT_H

#include <stddef.h>
#include <stdint.h>

/* Directions of a run's figures: read, write, their total (of every direction,
 * trims included), and trims (fio's third direction; index 3 so the total
 * keeps its place). */
enum { IOM_IMP_READ = 0, IOM_IMP_WRITE = 1, IOM_IMP_TOTAL = 2, IOM_IMP_TRIM = 3, IOM_IMP_NDIR = 4 };

/* Figures of one direction of one run. */
struct iom_imp_dir {
    double iops;
    double mb_per_s;        /* 10^6 bytes per second */
    double mib_per_s;       /* 2^20 bytes per second */
    double lat_mean_us;
    double lat_p99_us;
    double lat_max_us;
    double ios;             /* completed I/Os (the latency sample count) */
};

/* One TPC-C transaction's response-time profile (milliseconds). */
struct iom_imp_txn {
    char name[32];          /* "new_order", "payment", ... as the source names it */
    double calls;
    double mean_ms, p50_ms, p95_ms, p99_ms, max_ms;
};

/* One point of a latency percentile curve. */
struct iom_imp_pct {
    double pct;             /* 0..100 */
    double lat_us;
};

/* The latency percentile curve of one target of a multi-target run. */
struct iom_imp_tcurve {
    char target[160];
    double samples;         /* the target's latency sample count; NAN when unknown */
    uint32_t nr_pct;
    struct iom_imp_pct *pct;
};

/* One point of a time series. */
struct iom_imp_point {
    double t_s;             /* end of the interval, seconds since measuring began */
    double iops;
    double lat_mean_us;     /* NAN when unknown */
    double lat_p99_us;
};

/* One measured run of a workload. */
struct iom_imp_run {
    struct iom_imp_dir dir[IOM_IMP_NDIR]; /* IOM_IMP_READ, _WRITE, _TOTAL, _TRIM */
    double runtime_s;
    double cpu_pct;             /* busy % of the whole machine (all CPUs = 100) */
    double cpu_proc_pct;        /* the tool's own CPU time, % of one CPU */
    double iops_per_cpu_pct;    /* total IOPS / cpu_pct */
    /* TPC-C (type "tpcc"): NAN / 0 for I/O workloads */
    double nopm, tpm;
    uint32_t nr_txn;
    struct iom_imp_txn *txn;
    /* total-direction latency percentile curve, ascending pct; may be empty */
    uint32_t nr_pct;
    struct iom_imp_pct *pct;
    /* per-target curves when the run had several targets (iomark JSON); may be empty */
    uint32_t nr_tcurves;
    struct iom_imp_tcurve *tcurves;
    /* per-interval series; may be empty */
    uint32_t nr_series;
    struct iom_imp_point *series;
};

/* One workload (a fio job, a CrystalDiskMark test, an iomark run...). */
struct iom_imp_workload {
    char name[96];              /* matching key across inputs */
    char target[160];           /* "" when unknown or several */
    int threads, iodepth;       /* 0 when unknown (sweep points set them) */
    uint64_t bs_bytes;          /* block size, 0 when unknown or mixed */
    char rw[16];                /* access pattern (fio's rw names), "" when unknown */
    int is_tpcc;
    int is_knee;                /* sweep point where more concurrency stopped paying */
    int is_knee_base;           /* sweep point: the best one before the knee */
    uint32_t nr_runs;           /* >= 1; several for --repeat or repeated blocks */
    struct iom_imp_run *runs;
};

struct iom_imp_result {
    char path[512];             /* file it came from */
    char format[24];            /* "iomark", "fio-json", "fio-text", "diskspd-xml", ... */
    char tool[64];              /* "fio-3.16", "DiskSpd 2.0.21a", "iomark 0.1.0", ... */
    char kind[16];              /* iomark document type: "run", "repeat", "sweep", ... */
    /* "" for a complete source run; else why its figures are partial, in the
     * source's own words ("source run interrupted (fio: terminating on signal
     * 2) after 2.8 s of 10 s"); compare and report show it beside the file */
    char note[320];
    /* an iomark sweep: its "status" ("ok" when every point was measured,
     * "interrupted", "error") and "knee_min_gain_pct", the gain below which
     * more concurrency stops paying; "" and 0 otherwise */
    char sweep_status[16];
    double sweep_knee_pct;
    uint32_t nr_workloads;
    struct iom_imp_workload *w;
};

/* One importer: probe says whether the bytes look like its format; parse
 * fills the record. Both get the whole file, NUL-terminated. */
struct iom_importer {
    const char *format;         /* "fio-json", ... */
    int (*probe)(const char *text, size_t len);
    int (*parse)(const char *text, size_t len, struct iom_imp_result *res, char *err,
                 size_t errlen);
};

extern const struct iom_importer iom_import_iomark, iom_import_fio_json, iom_import_fio_text,
    iom_import_diskspd_xml, iom_import_diskspd_text, iom_import_cdm_text, iom_import_iomark_text;

/*
 * Read the result file `path` into a new record (*out; free with
 * iom_imp_result_free). The format is chosen by content. Returns 0, or
 * -EINVAL when the file is empty, is not a result of a known format, or
 * holds a failed run (err gets one line naming the file and the reason),
 * -ENOENT/-EACCES/... when it cannot be read, -ENOMEM.
 */
int iom_import_file(const char *path, struct iom_imp_result **out, char *err, size_t errlen);

/* Same for bytes already in memory; `name` is used in messages. text needs
 * no terminating NUL (a copy is made). */
int iom_import_buffer(const char *name, const char *text, size_t len,
                      struct iom_imp_result **out, char *err, size_t errlen);

/* Free a record and everything it owns. NULL is fine. */
void iom_imp_result_free(struct iom_imp_result *r);

/* A count read from a file as a double (threads, queue depth, ...): the
 * value when it is a plausible whole count in [0, 10^6], else 0 (unknown).
 * Converting an out-of-range double to int is undefined behaviour. */
static inline int iom_imp_count(double v)
{
    return v >= 0 && v <= 1e6 ? (int)v : 0;
}

/* Helpers for importers (import.c). */

/* Set every double of a run to NAN and its arrays to empty. */
void iom_imp_run_init(struct iom_imp_run *run);

/* Append a workload named `name` with one initialised run; returns it or
 * NULL when out of memory. */
struct iom_imp_workload *iom_imp_add_workload(struct iom_imp_result *res, const char *name);

/*
 * The workload key both DiskSpd importers (text and XML) give a timespan, so
 * that the same DiskSpd run read from -Rtext and -Rxml matches in a
 * comparison: "<bs> <random|sequential> w<write %>% Q<outstanding> T<threads>",
 * bs in the largest binary unit that divides it (MiB, KiB, else B), and
 * " #<idx+1>" after the first timespan (idx > 0). NAN figures print as
 * "nan". Writes at most len bytes (NUL-terminated, truncated if needed).
 */
void iom_imp_diskspd_key(char *buf, size_t len, double bs, int random, double write_pct,
                         double qd, double threads, int idx);

/* Append an initialised run to w; returns it or NULL when out of memory. */
struct iom_imp_run *iom_imp_add_run(struct iom_imp_workload *w);

/* Fill mb_per_s/mib_per_s from bytes and seconds (iom_imp_dir_from_bytes), and
 * total = read + write + trim (iom_imp_make_total: IOPS, bandwidth and I/Os add;
 * the mean latency is the I/O-weighted mean of the directions with I/Os; p99
 * is taken over when one direction alone has I/Os, max as the largest; else
 * they are left as they are). Unknown stays NAN. */
void iom_imp_dir_from_bytes(struct iom_imp_dir *d, double ios, double bytes, double secs);
void iom_imp_make_total(struct iom_imp_run *run);

/* Append one percentile point / series point / transaction / per-target
 * curve point (pct in %, lat_us in microseconds; the curve of `target` is
 * made on first use, with `samples`, the target's latency sample count or
 * NAN). 0 or -ENOMEM. */
int iom_imp_add_pct(struct iom_imp_run *run, double pct, double lat_us);
int iom_imp_add_target_pct(struct iom_imp_run *run, const char *target, double samples, double pct,
                           double lat_us);
int iom_imp_add_point(struct iom_imp_run *run, const struct iom_imp_point *p);
int iom_imp_add_txn(struct iom_imp_run *run, const struct iom_imp_txn *t);

/* Append a note to res->note ("; " between notes; printf format; cut to fit). */
void iom_imp_note(struct iom_imp_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * fio's own words about a run that did not complete, from the text of its
 * output (stdout and stderr as the user saved them): the first line
 * starting "fio: terminating on signal" (interrupted) when want_signal, else
 * the first line starting "fio: " that names an error ("err=" or "error=").
 * Copies the line (without its newline) to out and returns 1; 0 when there
 * is none. Errno numbers are quoted, never translated (the source may be
 * another OS).
 */
int iom_imp_fio_line(const char *text, int want_signal, char *out, size_t len);

/* A fio time value ("10", "10s", "300ms", "2m", "1h"; fio's default unit is
 * seconds) in seconds, or NAN. */
double iom_imp_fio_time_s(const char *s);

/* Find the first '{' that starts a JSON document after optional log lines
 * (a '{' at the start of a line). NULL when there is none. */
const char *iom_imp_json_start(const char *text);

#endif
