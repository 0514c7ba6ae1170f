/*
 * fioverify.h - fio 3.33's verify blocks, byte for byte (fio verify.h struct
 * verify_header and struct vhdr_*, verify.c populate_hdr/verify_io_u, crc/).
 *
 * An I/O of len bytes is cut into intervals of `interval` bytes (0 or more than
 * len: one interval, the I/O). Each interval starts with fio's 40-byte header,
 * little-endian: magic 0xacca (u16), verify_type (u16), len (u32: the
 * interval's length), rand_seed (u64), offset (u64: the interval's offset in
 * the file), time_sec, time_nsec (u32 each), thread (u16), numberio (u16),
 * crc32 (u32: fio's crc32c, CRC-32C without the final inversion, of the 36
 * bytes before it). Then the algorithm's digest field (fio struct vhdr_*:
 * md5 16 bytes, sha1 20, sha256 64, sha512 128, sha3-224/256/384/512 28/32/
 * 48/64, crc64 8, crc32/crc32c 4, crc16 2, crc7 1, xxhash 4; meta and
 * pattern none), then data up to the interval's end; the digest covers that
 * data. The data is verify_pattern repeated from the I/O's first byte (fio
 * fill_verify_pattern) or, without a pattern, pseudo-random bytes from
 * rand_seed (fio uses its own generator: the bytes differ, the layout not).
 *
 * fio's digests, as fio 3.33 computes them (measured on files fio wrote):
 * md5 and sha3-* are the standard digests; sha1 is the standard digest with
 * each 32-bit word stored little-endian; sha256 is fio's own variant (the
 * message padded with its bit length little-endian; the 64-byte field holds
 * that last padded block with its first 8 bytes replaced by the low byte of
 * each state word: fio crc/sha256.c uses the field as its block buffer);
 * sha512 has no final step in fio (verify.c fill_sha512): the 128-byte field
 * holds the data's last partial 128-byte block followed by the rest of the
 * data's first block; crc64 is CRC-64/REDIS (reflected 0x95AC9329AC4BC9B5,
 * init 0); crc32 the MSB-first 0x04C11DB7 CRC with init 0 and no final xor;
 * crc16 CRC-16/ARC; crc7 CRC-7/MMC; xxhash XXH32 with seed 1. Integers in
 * the digest fields are little-endian. md5, sha1, sha256 and sha3 use Nettle
 * (absent from the Windows build: iom_fio_verify_available() says so).
 */
#ifndef IOMARK_CORE_FIOVERIFY_H
#define IOMARK_CORE_FIOVERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/verify.h"
#include "workload/vtypes.h"

/* What one fill or check needs. pat/pat_len: verify_pattern (NULL/0: random
 * data); seed: the I/O's rand_seed; thread, numberio, time_ns: header fields
 * (not checked). interval 0: the I/O is one interval. */
struct iom_fio_vparams {
    enum iom_fio_vtype type;
    uint32_t interval;
    uint64_t offset;  /* the I/O's byte offset in the file */
    uint64_t seed;
    uint16_t thread, numberio;
    uint64_t time_ns;
    const uint8_t *pat;
    uint32_t pat_len;
    bool check_numberio; /* check: the header's numberio must equal numberio (fio does for
                            the read-back of a write job: a lost or stale write) */
};

/* The first failed interval of a check. */
struct iom_fio_vfail {
    uint64_t offset;   /* the interval's byte offset in the file */
    const char *what;  /* fio's words: "bad magic header", "bad header length", "bad header
                          offset", "bad header crc", "md5 mismatch", "bad pattern", ... */
    uint32_t pat_byte; /* bad pattern: the byte within the interval, got and wanted */
    uint8_t got, wanted;
};

/* The interval fio uses for an I/O of len bytes (get_hdr_inc). */
static inline uint32_t iom_fio_verify_step(uint32_t interval, uint32_t len)
{
    return interval && interval <= len ? interval : len;
}

/* Write buf (len bytes, each interval at least the type's header size) as fio
 * 3.33 writes the I/O described by p. */
void iom_fio_verify_fill(void *buf, uint32_t len, const struct iom_fio_vparams *p);

/* Check buf (len bytes read at p->offset) as fio 3.33's verify_io_u does for
 * a job that only reads (rand_seed and numberio are taken from the header):
 * each interval's magic, length, offset and header crc, then its digest (or,
 * for meta and pattern with verify_pattern, the pattern after the header).
 * The verify_type field is not compared (fio checks by the job's type).
 * Returns IOM_VERIFY_OK, or IOM_VERIFY_BAD_META (header), IOM_VERIFY_BAD_DIGEST
 * or IOM_VERIFY_BAD_PATTERN with *f (not NULL) describing the first failure. */
enum iom_verify_result iom_fio_verify_check(const void *buf, uint32_t len,
                                            const struct iom_fio_vparams *p,
                                            struct iom_fio_vfail *f);

/* fio's checksums alone (for tests against other tools): crc/ functions. */
uint64_t iom_fio_crc64(const void *buf, uint32_t len);
uint32_t iom_fio_crc32(const void *buf, uint32_t len);
uint16_t iom_fio_crc16(const void *buf, uint32_t len);
uint8_t iom_fio_crc7(const void *buf, uint32_t len);
uint32_t iom_fio_xxh32(const void *buf, uint32_t len, uint32_t seed);

/* The digest field of type t over data (len bytes) into out (at least
 * iom_fio_verify_hdr_size(t) - 40 bytes). sha512 writes only what fio writes
 * (see above; with len < 128 bytes the rest of out is left as it was). */
void iom_fio_verify_digest(enum iom_fio_vtype t, const void *data, uint32_t len, uint8_t *out);

#endif
