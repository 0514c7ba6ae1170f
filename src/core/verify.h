/*
 * verify.h - the block format of --verify=crc32c.
 *
 * Every block a verify run writes starts with a 40-byte header:
 *   magic "iomarkV1" | crc32c | len | offset | seed | generation
 * followed by pseudo-random payload derived from (seed, offset,
 * generation). The CRC-32C covers the whole block with the crc field
 * taken as zero. A read checks, in order: the magic (else the block was
 * never written by a verify run, or is garbage), the CRC (a changed byte),
 * the offset (a block written elsewhere: misdirected or swapped), the seed
 * (a block from another verify run: stale data). Integers little-endian.
 */
#ifndef IOMARK_CORE_VERIFY_H
#define IOMARK_CORE_VERIFY_H

#include <stdint.h>

#define IOM_VERIFY_HDR_BYTES 40

enum iom_verify_result {
    IOM_VERIFY_OK = 0,
    IOM_VERIFY_NO_HEADER,   /* magic missing */
    IOM_VERIFY_BAD_CRC,     /* contents changed */
    IOM_VERIFY_BAD_LEN,     /* block written with another block size */
    IOM_VERIFY_BAD_OFFSET,  /* block belongs elsewhere (swapped, misdirected) */
    IOM_VERIFY_STALE,       /* block from a run with another seed */
    IOM_VERIFY_BAD_PATTERN, /* verify_pattern: a byte differs from the pattern */
    IOM_VERIFY_BAD_META,    /* fio's verify header wrong (magic, length, offset, crc): core/fioverify.h */
    IOM_VERIFY_BAD_DIGEST,  /* fio's digest (md5, crc32c, ...) of the data after its header differs */
};

/* What a header said, for the mismatch report. */
struct iom_verify_found {
    uint64_t offset, seed;
    uint32_t generation, len;
    uint32_t crc_stored, crc_computed;
};

/* Fill buf (len >= IOM_VERIFY_HDR_BYTES bytes) as the block at `offset`
 * written by a run with `seed`, the `generation`-th write of its thread. */
void iom_verify_fill(void *buf, uint32_t len, uint64_t offset, uint64_t seed, uint32_t generation);

/* Check a block read at `offset` by a run with `seed`. Returns
 * IOM_VERIFY_OK or the first failed check; *found (may be NULL) receives
 * the header fields as read. */
enum iom_verify_result iom_verify_check(const void *buf, uint32_t len, uint64_t offset,
                                        uint64_t seed, struct iom_verify_found *found);

/* "crc mismatch" and so on, for reports. */
const char *iom_verify_result_name(enum iom_verify_result r);

#endif
