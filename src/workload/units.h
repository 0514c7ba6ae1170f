/*
 * units.h - parse sizes, durations, percentages and counts from user text.
 *
 * Each parser returns 0 and stores the value, or returns -EINVAL (malformed,
 * unknown suffix, not a whole number of the base unit) or -ERANGE (does not
 * fit in 64 bits) and points *why at a static one-line reason for the
 * message the front end prints. Bounds (zero allowed or not, maxima) are the
 * caller's: the option table in options.c applies them.
 */
#ifndef IOMARK_WORKLOAD_UNITS_H
#define IOMARK_WORKLOAD_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Size in bytes. A number (digits, optional fraction) with an optional
 * suffix, case-insensitive: none or B = bytes; K, KB, KiB, Ki = 2^10;
 * M.. = 2^20; G.. = 2^30; T.. = 2^40; P.. = 2^50. All binary, as fio's
 * default kb_base=1024 and DiskSpd. A fraction is allowed only when the
 * result is a whole number of bytes ("1.5K" = 1536, "1.5" is refused).
 * A leading sign is refused.
 */
int iom_parse_size(const char *s, uint64_t *bytes, const char **why);

/*
 * Switch iom_parse_size on the calling thread to fio's unit rules (fio 3.33
 * parse.c __get_mult_bytes) while a job file is read: kb_base 1024 (fio's
 * default) or 1000; 0 switches back to iomark's all-binary rules. With fio's
 * rules K/KB, M/MB, ... are kb_base powers and KiB, MiB, ... the other base
 * ("opposite units" at kb_base=1024: fio 3.33 reads bs=4KiB as 4000 bytes);
 * Ki, Mi, ... (not fio's) read as K, M as fio's prefix match does.
 */
void iom_units_fio_kb_base(unsigned kb_base);

/*
 * Duration in nanoseconds. A number with an optional unit: none or s =
 * seconds (fio's default for runtime), ns, us, ms, m (minutes), h, d. A
 * fraction is allowed when the result is a whole number of ns. "1d" =
 * 86400 s = 86400 * 10^9 ns (fits in 64 bits; the limit is about 584 years).
 */
int iom_parse_duration(const char *s, uint64_t *ns, const char **why);

/* Percentage: a whole number 0..100 with an optional '%'. */
int iom_parse_percent(const char *s, uint32_t *pct, const char **why);

/* Unsigned decimal integer without suffix (counts: threads, depth, runs). */
int iom_parse_u64(const char *s, uint64_t *v, const char **why);

/*
 * Bytes for a message, in binary units with the exact count beside them:
 * "512 MiB (536870912 bytes)", "1.5 GiB (1610612736 bytes)", "100 bytes".
 * The unit is the largest of KiB..PiB not above the value; one decimal,
 * dropped when it is 0. Writes at most len bytes (NUL-terminated); returns buf.
 */
char *iom_format_bytes(uint64_t bytes, char *buf, size_t len);

#endif
