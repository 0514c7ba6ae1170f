/*
 * fiojob.h - the fio job-file front end: read the subset of fio's job-file
 * language that administrators use ([global] and job sections, the options
 * listed in docs/fio-jobs.md, ${VAR} from the environment, ';' and '#'
 * comment lines) into runnable struct iom_job values, grouped the way fio
 * groups them (run steps separated by stonewall / wait_for_previous, and
 * reporting groups started by new_group or stonewall).
 *
 * Semantics follow fio's HOWTO (fio 3.x, "Job file format" and "Job
 * parameters"); where iomark's model differs (one thread per file, see
 * below) the job carries a note saying how.
 */
#ifndef IOMARK_WORKLOAD_FIOJOB_H
#define IOMARK_WORKLOAD_FIOJOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/spec.h"

#define IOM_FIO_MAX_OPTS 64
#define IOM_FIO_MAX_MAPS 32
#define IOM_FIO_MAX_IGNORED 64
#define IOM_FIO_MAX_PCTS 20      /* fio's FIO_IO_U_LIST_MAX_LEN */
#define IOM_FIO_LOG_NAME 200

/* fio's log kinds, index of iom_fio_job.log_name */
enum iom_fio_log { IOM_FIO_LOG_BW, IOM_FIO_LOG_LAT, IOM_FIO_LOG_IOPS };

/* One option as written (after ${VAR} expansion). */
struct iom_fio_kv {
    char name[48];
    char value[256];     /* "" for a bare flag */
    uint32_t line;       /* 1-based line in the job file; 0 = command line */
    char unset_var[32];  /* the first ${NAME} of the value not set in the environment
                            (replaced by "", as fio 3.33), or "" */
};

/*
 * One fio job section, ready to run. fio runs `numjobs` clones of a job,
 * each doing I/O round-robin over the job's files; iomark runs one thread
 * per (clone, file), so a job over k files becomes k targets with the
 * clones' iodepth and rate divided by k (rounded up) and size split per
 * file: the job's totals match fio's. A job without filename gets fio's
 * default names "<job>.<clone>.0" in `directory`, one file per clone.
 */
struct iom_fio_job {
    struct iom_job job;          /* targets, sizes, limits; owns the target list */
    char jobname[IOM_NAME_LEN];  /* the [section] name or name= */
    uint32_t line;               /* line of the [section] header */
    uint32_t groupid;            /* fio's reporting group (0, 1, ...) */
    unsigned kb_base;            /* fio's kb_base: 1024 (default) or 1000 (sizes read and the
                                    normal report's units decimal first) */
    uint32_t step;               /* run step; jobs of one step run at the same time */
    bool group_reporting;        /* report the group as one merged job */
    bool time_based;
    bool limit_is_region;        /* size-based without size=: job.io_limit_bytes is UINT64_MAX
                                    until the caller sets target size x loops */
    bool generated_files;        /* no filename=: targets c*files_per_clone ... are clone c's
                                    own files (fio's nrfiles) */
    uint32_t files_per_clone;    /* generated files: nrfiles (1) */
    uint32_t loops;              /* size-based: times over the region (1) */
    uint32_t fio_numjobs;        /* numjobs and iodepth as written */
    uint32_t fio_iodepth;
    uint32_t nr_opts;            /* the section's own options, for fio's "job options" */
    struct iom_fio_kv opts[IOM_FIO_MAX_OPTS];
    char note[640];              /* how iomark's mapping differs, or "" */
    uint32_t size_pct, offset_pct; /* size=N% / offset=N%: of the file's size, resolved by
                                      iom_fio_resolve_pct() once the file is known (0 = none) */
    uint64_t filesize;           /* filesize= as written (0 = none) */
    uint32_t nr_dirs;            /* directory= values of the job (first 4), with their lines
                                    (0 = command line), checked by iom_fio_check_dirs; 0
                                    when --filename-map replaces every file of the job */
    char dirs[4][1024];
    uint32_t dirs_line[4];
    uint64_t earlier_size;       /* the size an earlier job makes this job's first file, for
                                    size=N% of a file not made yet (iom_fio_earlier_size) */
    char random_generator[16];   /* fio's name as written (default tausworthe); iomark draws
                                    with xoshiro256** whatever the name (core/offsets.h) */
    int wait_for;                /* wait_for=NAME: index of that earlier job in jobs[], or -1 */
    bool unlink;                 /* unlink=1: remove the files iomark created at the job's end */
    bool pre_read;               /* pre_read=1: read the region into the page cache first */
    uint32_t nr_pcts;            /* percentile_list: nr_pcts values in [0, 100], ascending
                                    (fio sorts them); 0 = fio's default list */
    double pcts[IOM_FIO_MAX_PCTS];
    uint32_t pct_precision;      /* decimals fio prints the percentiles with: the most digits
                                    typed after a '.' in percentile_list (fio 3.33 prints
                                    99.9:50:1 as 1.0th, 50.0th, 99.9th); 2 for the default */
    /* write_bw_log / write_lat_log / write_iops_log: the file prefix of each log
     * ("" = not written; a bare option takes the job's name, as fio), averaged over
     * log_avg_msec (0 = one line per I/O), with the offset column when log_offset */
    char log_name[3][IOM_FIO_LOG_NAME];
    uint32_t log_avg_msec;
    bool log_offset;
};

struct iom_fio_file {
    uint32_t nr_jobs;
    struct iom_fio_job *jobs;    /* nr_jobs entries in file order */
    uint32_t nr_steps, nr_groups;
    uint32_t nr_global;          /* options of the [global] sections, for "global options" */
    struct iom_fio_kv global[IOM_FIO_MAX_OPTS];
    uint32_t nr_ignored;         /* with ignore_unknown: "line N: name=value (why)" */
    char ignored[IOM_FIO_MAX_IGNORED][200];
    uint32_t nr_refused;         /* without ignore_unknown: the same lines, refused at once */
    char refused[IOM_FIO_MAX_IGNORED][200];
    uint32_t maps_used;          /* bit i: --filename-map i named a file of some job */
};

struct iom_fio_parse_opts {
    bool ignore_unknown;         /* --ignore-unknown: skip and list options outside the subset */
    uint32_t nr_maps;            /* --filename-map=FROM=TO: replace file FROM by TO */
    const char *map_from[IOM_FIO_MAX_MAPS];
    const char *map_to[IOM_FIO_MAX_MAPS];
    uint32_t nr_overrides;       /* options applied to every job after its own (command line) */
    struct iom_fio_kv overrides[IOM_FIO_MAX_OPTS];
};

/*
 * Parse job-file text (NUL-terminated; `text` is not modified). Variables
 * ${NAME} are taken from the environment (getenv); an unset variable is
 * replaced by "" as fio 3.33 does (options.c fio_option_dup_subs), and an
 * error about its option, or a file name or folder holding it (the job's
 * note), names the variable. On success returns 0 and fills *out (free
 * with iom_fio_file_free). On error returns -EINVAL (or -ENOMEM) and writes
 * one line to err: "line N: option=value: reason" or "line N: reason";
 * *out is left empty.
 */
int iom_fio_parse_text(const char *text, const struct iom_fio_parse_opts *po,
                       struct iom_fio_file *out, char *err, size_t errlen);

/* Read path ("-": standard input, as fio) and parse it as iom_fio_parse_text();
 * include lines also find their files beside path. -errno with err filled
 * when the file cannot be read. */
int iom_fio_parse_file(const char *path, const struct iom_fio_parse_opts *po,
                       struct iom_fio_file *out, char *err, size_t errlen);

/*
 * Is `arg` a fio job file rather than a target? True when it names a
 * regular file that ends in ".fio", or whose first line that is neither
 * blank nor a ';'/'#' comment is a "[section]" header (read from the first
 * 4 KiB only). Block devices, directories and data files are never job
 * files. Reads nothing else; never creates anything.
 */
bool iom_fio_is_jobfile(const char *arg);

/*
 * Resolve the region of one job as fio 3.33 filesetup.c setup_files does once the
 * file is known. With file_append, the offset is the file's end. A size past the
 * end of a block device target is cut to the device (the smallest one's end past
 * the offset; a size-based job's amount too) and fj->note says so. Then, with
 * offset=N%, size=N% or filesize= with an offset, from the first target's real
 * size R in bytes (stat st_size, a block device's end, else fj->earlier_size,
 * else 0): offset = R x N / 100 aligned up to the smallest block size; region =
 * filesize - offset (with filesize=) or R - offset (size=N% without it); size=N%
 * takes N % of offset + region, at most the region, in whole smallest blocks, and
 * sets the I/O amount (job.io_limit_bytes, x loops). Last, a forward skip
 * (rw=read:N) of a size-based job with one block size on one file gets fio's walk
 * (docs/fio-jobs.md): job.size_bytes ends with the last block that starts inside
 * the region and ends inside the file, job.create_bytes lays the file out to
 * offset + region, and a walk that wraps (region from 0, ending before the file's
 * end) runs by bytes (job.io_passes 0). Call before the targets are checked;
 * reads nothing but the target's metadata. Returns 0, or -EINVAL with one line in
 * err: size=N% of a file that does not exist without filesize=, an offset at or
 * past filesize= or the file's end, a region smaller than one block.
 */
int iom_fio_resolve_pct(struct iom_fio_job *fj, char *err, size_t errlen);

/*
 * Check every directory= value of job fj as fio 3.33 does when it parses one
 * (options.c str_directory_cb: each ':'-separated folder must exist and be a
 * folder by lstat, so a symbolic link is refused too). Call before anything is
 * created; not for a parse-only look (fio's --parse-only skips it). Returns 0,
 * or -EINVAL with one line in err: "line N: directory=VALUE: FOLDER does not
 * exist; allowed: ...". Reads the file system's metadata only.
 */
int iom_fio_check_dirs(const struct iom_fio_job *fj, char *err, size_t errlen);

/*
 * Set ff->jobs[i].earlier_size: the largest size an earlier job (0 .. i-1,
 * their percentages resolved) makes job i's first file (its offset plus its
 * span, or its filesize), 0 when none names it. fio lays out every job's
 * files before any runs, so size=50% of a file an earlier job creates is half
 * of that job's size; iom_fio_resolve_pct takes it when the file does not
 * exist yet. Pure (reads ff only).
 */
void iom_fio_earlier_size(struct iom_fio_file *ff, uint32_t i);

/* Free everything *f owns and zero it. */
void iom_fio_file_free(struct iom_fio_file *f);

/* The fio clone (0 .. fio_numjobs - 1) a thread of job fj stands for: its
 * thread index on a named file, or with generated files its target index over
 * files_per_clone. Pure. */
static inline uint32_t iom_fio_clone_of(const struct iom_fio_job *fj, uint32_t target_idx,
                                        uint32_t thread_idx)
{
    if (!fj->generated_files)
        return thread_idx;
    return fj->files_per_clone > 1 ? target_idx / fj->files_per_clone : target_idx;
}

#endif
