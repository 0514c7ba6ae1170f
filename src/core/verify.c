/* verify.c - write and check self-describing blocks (see verify.h). */
#include "core/verify.h"

#include <string.h>

#include "core/crc32c.h"
#include "core/offsets.h"

static const char magic[8] = {'i', 'o', 'm', 'a', 'r', 'k', 'V', '1'};

struct hdr {
    char magic[8];
    uint32_t crc;
    uint32_t len;
    uint64_t offset;
    uint64_t seed;
    uint32_t generation;
    uint32_t pad;
};
_Static_assert(sizeof(struct hdr) == IOM_VERIFY_HDR_BYTES, "verify header is 40 bytes");

static uint32_t block_crc(const unsigned char *b, uint32_t len)
{
    /* the crc field (bytes 8..11) counts as zero */
    static const unsigned char zero[4];
    uint32_t c = iom_crc32c(0, b, 8);
    c = iom_crc32c(c, zero, 4);
    return iom_crc32c(c, b + 12, len - 12);
}

void iom_verify_fill(void *buf, uint32_t len, uint64_t offset, uint64_t seed, uint32_t generation)
{
    unsigned char *b = buf;
    struct hdr h;
    memcpy(h.magic, magic, 8);
    h.crc = 0;
    h.len = len;
    h.offset = offset;
    h.seed = seed;
    h.generation = generation;
    h.pad = 0;
    memcpy(b, &h, sizeof(h));
    struct iom_rng r;
    iom_rng_seed(&r, seed ^ (offset * UINT64_C(0x9e3779b97f4a7c15)) ^ ((uint64_t)generation << 32));
    uint32_t pos = sizeof(h);
    for (; pos + 8 <= len; pos += 8) {
        uint64_t x = iom_rng_next(&r);
        memcpy(b + pos, &x, 8);
    }
    for (; pos < len; pos++)
        b[pos] = (unsigned char)iom_rng_next(&r);
    h.crc = block_crc(b, len);
    memcpy(b + 8, &h.crc, 4);
}

enum iom_verify_result iom_verify_check(const void *buf, uint32_t len, uint64_t offset,
                                        uint64_t seed, struct iom_verify_found *found)
{
    const unsigned char *b = buf;
    struct hdr h;
    memcpy(&h, b, sizeof(h));
    uint32_t crc = block_crc(b, len);
    if (found) {
        found->offset = h.offset;
        found->seed = h.seed;
        found->generation = h.generation;
        found->len = h.len;
        found->crc_stored = h.crc;
        found->crc_computed = crc;
    }
    if (memcmp(h.magic, magic, 8) != 0)
        return IOM_VERIFY_NO_HEADER;
    if (h.len != len)
        return IOM_VERIFY_BAD_LEN;
    if (crc != h.crc)
        return IOM_VERIFY_BAD_CRC;
    if (h.offset != offset)
        return IOM_VERIFY_BAD_OFFSET;
    if (h.seed != seed)
        return IOM_VERIFY_STALE;
    return IOM_VERIFY_OK;
}

const char *iom_verify_result_name(enum iom_verify_result r)
{
    switch (r) {
    case IOM_VERIFY_OK:
        return "ok";
    case IOM_VERIFY_NO_HEADER:
        return "no iomark verify header (block never written by a verify run, or overwritten)";
    case IOM_VERIFY_BAD_CRC:
        return "crc32c mismatch (contents changed)";
    case IOM_VERIFY_BAD_LEN:
        return "block written with another block size";
    case IOM_VERIFY_BAD_OFFSET:
        return "block belongs at another offset (swapped or misdirected write)";
    case IOM_VERIFY_STALE:
        return "stale block from a run with another seed";
    case IOM_VERIFY_BAD_META:
        return "bad fio verify header (magic, length, offset or header crc)";
    case IOM_VERIFY_BAD_DIGEST:
        return "checksum mismatch (the data after fio's verify header changed)";
    case IOM_VERIFY_BAD_PATTERN:
        return "bad pattern (a byte differs from verify_pattern)";
    }
    return "?";
}
