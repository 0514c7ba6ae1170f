/*
 * report.h - reporters: turn a struct iom_result into human text or the
 * versioned JSON document described in docs/json-schema.md. Reporters only
 * read results; all statistics come from stats/.
 */
#ifndef IOMARK_REPORT_REPORT_H
#define IOMARK_REPORT_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "stats/result.h"

#define IOM_JSON_SCHEMA "iomark-result"
#define IOM_JSON_SCHEMA_VERSION 1

/* Print the human report (aligned tables, units in every header) to f. */
void iom_report_text(FILE *f, const struct iom_result *r);

/* Build the JSON document of a run. Returns a new cJSON tree (caller frees
 * with cJSON_Delete) or NULL when out of memory. */
cJSON *iom_report_json(const struct iom_result *r);

/* JSON of one direction's figures (the "read"/"write"/"total" objects). */
cJSON *iom_json_io_stats(const struct iom_io_stats *s, uint64_t interval_ns);

/* JSON of the workload spec (the "spec" object). */
cJSON *iom_json_spec(const struct iom_job *job);

/* A document for a run that failed: {schema, schema_version, iomark_version,
 * type, status: "error", error: message}. */
cJSON *iom_json_error_doc(const char *type, const char *message);

/* Start a document with the common header fields (schema, version, type,
 * iomark_version, start time). */
cJSON *iom_json_doc_new(const char *type);

/*
 * Add the "host" object of every iomark document (docs/json-schema.md):
 * {"hostname", "kernel" as `uname -sr` prints it ("Linux 6.1.0-28-amd64"),
 * "nr_cpus"}. hostname or kernel NULL: this machine's (uname(2)); nr_cpus
 * 0: the online CPUs (sysconf). Returns the object, owned by doc; NULL
 * when out of memory.
 */
cJSON *iom_json_add_host(cJSON *doc, const char *hostname, const char *kernel, unsigned nr_cpus);

/*
 * A target's name for text reports, written to buf (len bytes, cut to fit)
 * and returned: its path, and under MPI, where one entry is one rank's
 * targets, "rank R on HOST: PATH" ("PATH1 + PATH2" for a rank with several
 * targets). No allocation.
 */
const char *iom_report_target_name(const struct iom_target_result *t, char *buf, size_t len);

/*
 * Is path an output to write in place rather than through a temporary file
 * renamed over it? True when it exists and is not a regular file (lstat(2):
 * a character device such as /dev/null, a FIFO, a symbolic link such as
 * /dev/stdout -> /proc/self/fd/1): rename(2) would replace the device or
 * link itself with a regular file (as root, /dev/null for the whole
 * machine). False for a regular file or a path that does not exist.
 */
bool iom_output_in_place(const char *path);

/*
 * Write `doc` to path (or stdout when path is NULL), pretty-printed, with a
 * final newline. Writes to a temporary file and renames it into place so a
 * reader never sees a partial document; an output iom_output_in_place()
 * names is written directly. Returns 0 or -errno.
 */
int iom_json_write(const cJSON *doc, const char *path);

/*
 * iom_json_write() with the text `prefix` (NULL or "" = none) written before the
 * document in the same file (or stdout), e.g. fio's "fio: terminating on signal
 * N" line, which fio 3.33 writes before the JSON of an interrupted run and
 * which fio's result readers skip. Returns 0 or -errno (-ENOMEM, fopen's, or
 * the failed write's: -ENOSPC, -EPIPE, -EIO when the C library kept no errno).
 */
int iom_json_write_after(const char *prefix, const cJSON *doc, const char *path);

/* "4 KiB", "1 MiB", "1.5 GiB" or "4096 B" for a byte count (exact when possible). */
void iom_fmt_bytes(uint64_t bytes, char *buf, size_t len);

/* "SIGINT" for 2, and so on. */
const char *iom_signal_name(int sig);

#endif
