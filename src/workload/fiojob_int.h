/*
 * fiojob_int.h - internal to the fio job-file front end (fiojob.h), shared by
 * its three files; nothing outside src/workload/fiojob*.c includes it:
 *   fiojob_value.c  the text: lines, [sections], ';'/'#' comments, ${VAR},
 *                   fio's built-in variables ($pagesize, $ncpus, $mb_memory),
 *                   arithmetic in values, size=/offset= percentages
 *                   (iom_fio_resolve_pct);
 *   fiojob_opts.c   one fio option -> struct iom_job and struct state;
 *   fiojob.c        a job from [global] + its section + the command line,
 *                   files and sizes, steps and groups, the public entry points.
 * Errors: err (errlen bytes) gets one line, "line N: ..." when the
 * option has a line; functions return 0 or -errno.
 */
#ifndef IOMARK_WORKLOAD_FIOJOB_INT_H
#define IOMARK_WORKLOAD_FIOJOB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/fiojob.h"
#include "workload/spec.h"

/* ---- lexing ---- */

struct section {
    char name[IOM_NAME_LEN];
    uint32_t line;
    bool global;
    uint32_t first, nr;      /* its options in the kv array */
};

struct lexed {
    struct iom_fio_kv *kv;
    uint32_t nr_kv, cap_kv;
    struct section *sec;
    uint32_t nr_sec, cap_sec;
};

/*
 * iom_fioj_trim (fiojob_value.c): strip leading and trailing white space (isspace) of
 * the NUL-terminated s in place: writes a NUL after the last non-space
 * character and returns a pointer into s at the first one ("" when s is all
 * space). No errors.
 */
char *iom_fioj_trim(char *s);

/*
 * iom_fioj_lex (fiojob_value.c): split a job file's text (NUL-terminated, '\n' line
 * ends) into sections and their options, appended to lx (zeroed by the
 * caller; lx->kv and lx->sec are realloc'd arrays the caller frees, also
 * after an error). Blank lines and lines starting with ';' or '#' are
 * skipped, a trailing comment after '#' or ';' is cut, ${NAME} is replaced
 * from the environment (unset: by "", as fio 3.33, the name kept in the
 * option's unset_var), and a value holding $pagesize, $ncpus or $mb_memory
 * becomes "(...)" with the numbers in (evaluated later by apply/arith).
 * Each option keeps its 1-based line. Returns 0; -EINVAL with err set for a
 * line over 4095 characters, a malformed [section] header, a section name
 * over IOM_NAME_LEN - 1 characters, an option before any section, a
 * malformed ${NAME}, or an empty name or a name/value too long for
 * struct iom_fio_kv; -ENOMEM (err untouched) when an allocation fails.
 */
int iom_fioj_lex(const char *text, struct lexed *lx, char *err, size_t errlen);

/*
 * iom_fioj_arith (fiojob_value.c): evaluate v, fio's arithmetic on whole numbers
 * (+ - * / % ^, unary minus, parentheses; fio's exp/expression-parser.y; no
 * units inside, as fio 3.33), and write the result as a decimal into out
 * (outlen bytes; out may be v's own buffer). Returns 0, or -EINVAL when v is
 * malformed, has trailing text, divides by zero, overflows a multiplication,
 * has an exponent outside 0..63 or is negative (out then unchanged).
 */
int iom_fioj_arith(const char *v, char *out, size_t outlen);

/*
 * iom_fioj_engine_option (fiojob_engopts.c): is `option` (a fio option name,
 * NUL-terminated) one of the options fio 3.33 defines for its I/O engine
 * `engine` (e.g. "e4defrag", "donorname")? From the option
 * tables of the engines/ C files of fio at tag fio-3.33. No errors; false
 * for any name not in them.
 */
bool iom_fioj_engine_option(const char *engine, const char *option);

/* ---- options ---- */

/* What a job's options set beyond the iom_job fields. */
struct state {
    char filename[4096];
    bool filename_append;           /* a further filename= line of one section adds (fio) */
    char directory[1024];
    char unset_note[200];           /* a file name or folder with an unset ${NAME} (note) */
    uint64_t filesize, io_size;
    bool size_given, runtime_given, time_based, stonewall, new_group, group_reporting;
    bool randrepeat, seed_given;
    bool norandommap, invalidate;
    bool verify_nohdr;           /* verify=pattern (fio VERIFY_PATTERN_NO_HDR) */
    unsigned verify_pat_line;    /* the line of verify_pattern (0: none) */
    uint32_t loops;
    uint32_t size_pct, offset_pct;  /* size=N% / offset=N% of the file */
    uint64_t rw_skip;               /* rw=read:<nr> */
    uint64_t number_ios;            /* number_ios=N: stop after N I/Os */
    uint64_t openfiles;             /* openfiles=N (0 = fio's default, all of them) */
    uint32_t openfiles_line;
    char random_generator[16];
    bool rate_split, rate_iops_split; /* rate= / rate_iops= given as READ,WRITE[,TRIM] */
    uint64_t rate_rw[2], rate_iops_rw[2]; /* their read and write values (0 = no cap) */
    bool trim_split;                /* bs=/bssplit= given as READ,WRITE[,TRIM]: trims' own */
    uint64_t trim_bs;               /* the trims' bs (fio's third value, 4096 by default) */
    uint32_t nr_trim_bssplit;       /* the trims' bssplit list (0 entries: trim_bs) */
    struct iom_bs_weight trim_bssplit[IOM_MAX_BSSPLIT];
    uint32_t rate_line;             /* the line of the last such value */
    uint32_t nrfiles;               /* nrfiles= (files per clone without filename=), 1 */
    char filename_format[256];      /* filename_format=, "" = $jobname.$jobnum.$filenum */
    char file_service[32];          /* file_service_type= as written, "" = roundrobin */
    char jobname[IOM_NAME_LEN];
    char wait_for[IOM_NAME_LEN];    /* wait_for=JOB: start once JOB has finished */
    bool unlink;                    /* unlink=1: remove the job's files at its end */
    bool end_fsync, fsync_on_close; /* either sets job.end_fsync (one fsync at the end) */
    bool block_err;                 /* block_error_percentiles=1 */
    uint32_t nr_pcts;               /* percentile_list (sorted), 0 = fio's default list */
    double pcts[IOM_FIO_MAX_PCTS];
    uint32_t pct_precision;         /* the most digits typed after a '.' in percentile_list */
    bool log_on[3];                 /* write_bw_log, write_lat_log, write_iops_log given */
    char log_name[3][IOM_FIO_LOG_NAME]; /* their prefixes ("" = the job's name) */
    uint32_t log_avg_msec;
    bool log_offset;
};

/*
 * iom_fioj_apply (fiojob_opts.c): apply one fio option kv0 (a "(...)" value is first
 * evaluated with arith, except for name, description, filename, directory)
 * to job (set up by the caller with fio's defaults) and to st (the job's
 * fio-only settings: files, sizes, loops, groups, ...). kv0 is not changed.
 * Returns 0 when applied or accepted without an effect; -ENOENT when the
 * option or value is outside the subset iomark runs (err holds "line N:
 * name=value (why)" or "command line: ..." for the caller's list of skipped
 * or refused options); -EINVAL with err set when the value is malformed.
 */
/*
 * iom_fioj_error_opt (fiojob_err.c): fio's error-handling options
 * continue_on_error (none read write io verify all 0 1), ignore_error
 * (READ,WRITE,VERIFY lists of errno names EPERM..ERANGE or numbers joined by
 * ':'; a non-empty list sets its class, as fio's ignore_error_type) and
 * error_dump into job->coe_classes / ignore_errno / error_dump, and
 * fill_device/fill_fs (0|1) into job->fill_device and fallocate (none native
 * posix keep truncate 0 1) into job->fallocate. n, v: the
 * option and its value; where: "line N" for messages. Returns 0 (applied),
 * 1 (n is none of them), -EINVAL (bad value; err holds one line).
 */
int iom_fioj_error_opt(const char *n, const char *v, struct iom_job *job, const char *where,
                       char *err, size_t errlen);

int iom_fioj_apply(const struct iom_fio_kv *kv0, struct iom_job *job, struct state *st, char *err,
          size_t errlen);

#endif
