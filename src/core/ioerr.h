/*
 * ioerr.h - how a worker names and judges a failed I/O (fio 3.33's rules):
 * the direction's word, whether an error lets the job go on, fio's error_dump.
 */
#ifndef IOMARK_CORE_IOERR_H
#define IOMARK_CORE_IOERR_H

#include <stdbool.h>

#include "engine/engine.h"
#include "workload/spec.h"

/* "read", "write", "trim" or "sync" (fsync, fdatasync): an I/O direction (IOM_IO_*) in messages (fio's words).
 * Returns a static string. */
const char *iom_ddir_name(unsigned ddir);

/* Whether an error (errno err > 0) of class cls (IOM_ERRCLS_*) lets the job go on:
 * the native --continue_on_error (every error), or fio's per-class rule (td_error.c
 * td_non_fatal_error: the class's continue_on_error bit and the errno in its
 * ignore_error list, by default EIO and EILSEQ). */
bool iom_error_non_fatal(const struct iom_job *job, int cls, int err);

/* fio's error_dump: with job->error_dump, print a non-fatal error (errno err) of io
 * on the file at path to stderr as fio's io_u_log_error does; else nothing. */
void iom_error_dump(const struct iom_job *job, const char *path, const struct iom_io *io, int err);

#endif
