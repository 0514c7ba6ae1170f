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
    IOM_VERIFY_BAD_META,    /* verify=meta: fio's header wrong (magic, type, len, crc) */
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

/*
 * fio's verify=meta blocks (fio 3.33 verify.h struct verify_header, verify.c
 * __fill_hdr, verify_header; VERIFY_HDR_ONLY): every `interval` bytes a
 * 40-byte header, little-endian: magic 0xacca (u16), verify_type 1 (u16), len
 * = interval (u32), rand_seed (u64), offset (u64), time_sec, time_nsec (u32
 * each), thread (u16), numberio (u16), crc32 (u32: fio's crc32c of the 36
 * bytes before it, which is CRC-32C without the final inversion); then data
 * from rand_seed. iom_verify_meta_fill writes a buffer of len bytes for
 * `offset` (rand_seed derived from seed and the interval's offset, thread,
 * numberio and time as given); iom_verify_meta_check checks each interval's
 * magic, type, len, offset and header crc (fio's checks but rand_seed and
 * numberio, which depend on fio's generator and write order: so it reads
 * fio's files too), and returns IOM_VERIFY_OK or the first failure with its
 * interval's offset in *bad_offset.
 */
void iom_verify_meta_fill(void *buf, uint32_t len, uint32_t interval, uint64_t offset,
                          uint64_t seed, uint16_t thread, uint16_t numberio, uint64_t time_ns);
enum iom_verify_result iom_verify_meta_check(const void *buf, uint32_t len, uint32_t interval,
                                             uint64_t offset, uint64_t *bad_offset);

/* "crc mismatch" and so on, for reports. */
const char *iom_verify_result_name(enum iom_verify_result r);

#endif
