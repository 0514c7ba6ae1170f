/*
 * pattern.h - fio's buffer pattern syntax (fio 3.33 lib/pattern.c
 * parse_and_fill_pattern; HOWTO "buffer_pattern"): a sequence, in any order,
 * of
 *   "text"      the bytes of text (no escapes);
 *   0xHEX       the bytes as written, most significant first (0xdeadbeef is
 *               de ad be ef; an odd count: the first digit alone, 0xabc is
 *               0a bc); 0xff0x14 is two numbers;
 *   DECIMAL     an int (INT_MIN..INT_MAX) in its fewest bytes, least
 *               significant first (12 is 0c, 258 is 02 01, 0 is 00, -12 is
 *               f4 ff ff ff);
 *   'file'      the file's bytes (up to the space left).
 * fio's %o format (verify_pattern) is not supported here.
 */
#ifndef IOMARK_WORKLOAD_PATTERN_H
#define IOMARK_WORKLOAD_PATTERN_H

#include <stdint.h>

#define IOM_PATTERN_MAX 512 /* fio's MAX_PATTERN_SIZE */

/* Parse in into out (out_len bytes at most). Returns the pattern's length
 * in bytes (> 0), or -EINVAL (bad syntax, a number out of range, an
 * unterminated string, a file that cannot be read or is empty, or more than
 * out_len bytes). */
int iom_pattern_parse(const char *in, uint8_t *out, unsigned out_len);

/* fio's cpy_pattern: the pattern repeated over out (len bytes). */
void iom_pattern_fill(const uint8_t *pat, unsigned pat_len, uint8_t *out, uint64_t len);

#endif
