/* fioverify.c - fio 3.33's verify blocks (fioverify.h). */
#include "core/fioverify.h"

#include <pthread.h>
#include <string.h>

#include "core/crc32c.h"
#include "core/offsets.h"
#include "workload/pattern.h"

#ifndef _WIN32
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#define HAVE_NETTLE 1
#endif

/* ---- fio's CRCs: tables built from their polynomials (fio crc/) ---- */

static uint64_t t64[256];
static uint32_t t32[256];
static uint16_t t16[256];
static uint8_t t7[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void make_tables(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint64_t c64 = i;
        uint16_t c16 = (uint16_t)i;
        uint32_t c32 = i << 24;
        uint8_t c7 = 0;
        for (int k = 0; k < 8; k++) {
            c64 = c64 & 1 ? c64 >> 1 ^ UINT64_C(0x95AC9329AC4BC9B5) : c64 >> 1;
            c16 = (uint16_t)(c16 & 1 ? c16 >> 1 ^ 0xA001 : c16 >> 1);
            c32 = c32 & 0x80000000u ? c32 << 1 ^ 0x04C11DB7u : c32 << 1;
            /* CRC-7 (x^7 + x^3 + 1), bits of i from the top, 7-bit register */
            unsigned fb = (c7 >> 6 & 1) ^ (i >> (7 - k) & 1);
            c7 = (uint8_t)(c7 << 1 & 0x7f);
            if (fb)
                c7 ^= 0x09;
        }
        t64[i] = c64;
        t16[i] = c16;
        t32[i] = c32;
        t7[i] = c7;
    }
}

uint64_t iom_fio_crc64(const void *buf, uint32_t len)
{
    pthread_once(&tables_once, make_tables);
    const uint8_t *b = buf;
    uint64_t c = 0;
    while (len--)
        c = t64[(c ^ *b++) & 0xff] ^ c >> 8;
    return c;
}

uint32_t iom_fio_crc32(const void *buf, uint32_t len)
{
    pthread_once(&tables_once, make_tables);
    const uint8_t *b = buf;
    uint32_t c = 0;
    while (len--)
        c = c << 8 ^ t32[(c >> 24 ^ *b++) & 0xff];
    return c;
}

uint16_t iom_fio_crc16(const void *buf, uint32_t len)
{
    pthread_once(&tables_once, make_tables);
    const uint8_t *b = buf;
    uint16_t c = 0;
    while (len--)
        c = (uint16_t)(c >> 8 ^ t16[(c ^ *b++) & 0xff]);
    return c;
}

uint8_t iom_fio_crc7(const void *buf, uint32_t len)
{
    pthread_once(&tables_once, make_tables);
    const uint8_t *b = buf;
    uint8_t c = 0;
    while (len--)
        c = t7[(uint8_t)(c << 1) ^ *b++];
    return c;
}

/* XXH32 (github.com/Cyan4973/xxHash, doc/xxhash_spec.md) */
#define P1 2654435761u
#define P2 2246822519u
#define P3 3266489917u
#define P4 668265263u
#define P5 374761393u

static uint32_t rotl(uint32_t x, int r)
{
    return x << r | x >> (32 - r);
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t iom_fio_xxh32(const void *buf, uint32_t len, uint32_t seed)
{
    const uint8_t *p = buf, *end = p + len;
    uint32_t h;
    if (len >= 16) {
        uint32_t v[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};
        for (; end - p >= 16; p += 16)
            for (int i = 0; i < 4; i++)
                v[i] = rotl(v[i] + rd32(p + 4 * i) * P2, 13) * P1;
        h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
    } else {
        h = seed + P5;
    }
    h += len;
    for (; end - p >= 4; p += 4)
        h = rotl(h + rd32(p) * P3, 17) * P4;
    for (; p < end; p++)
        h = rotl(h + *p * P5, 11) * P1;
    h ^= h >> 15;
    h *= P2;
    h ^= h >> 13;
    h *= P3;
    h ^= h >> 16;
    return h;
}

static void put_le(uint8_t *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> 8 * i);
}

static uint64_t get_le(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

#ifdef HAVE_NETTLE
/* fio crc/sha256.c: padded with the bit count little-endian, the field holds the last
 * padded block with its first 8 bytes the low byte of each state word */
static void fio_sha256(const uint8_t *p, uint32_t len, uint8_t *out)
{
    struct sha256_ctx c;
    sha256_init(&c);
    uint32_t whole = len & ~63u, r = len - whole;
    sha256_update(&c, whole, p);
    uint8_t tail[128];
    memcpy(tail, p + whole, r);
    tail[r] = 0x80;
    uint32_t at = r < 56 ? 56 : 120;
    memset(tail + r + 1, 0, at - r - 1);
    put_le(tail + at, (uint64_t)len << 3, 8);
    sha256_update(&c, at + 8, tail);
    memcpy(out, tail + at + 8 - 64, 64);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)c.state[i];
}
#endif

/* fio verify.c fill_sha512: fio_sha512_update only, its buffer being the field */
static void fio_sha512(const uint8_t *p, uint32_t len, uint8_t *out)
{
    if (len < 128) {
        memcpy(out, p, len);
        return;
    }
    uint32_t r = len % 128;
    memcpy(out, p, 128);
    memcpy(out, p + len - r, r);
}

void iom_fio_verify_digest(enum iom_fio_vtype t, const void *data, uint32_t len, uint8_t *out)
{
    const uint8_t *p = data;
    switch (t) {
    case IOM_FV_CRC64:
        put_le(out, iom_fio_crc64(p, len), 8);
        break;
    case IOM_FV_CRC32:
        put_le(out, iom_fio_crc32(p, len), 4);
        break;
    case IOM_FV_CRC32C:
    case IOM_FV_CRC32C_INTEL: /* fio crc32c_sw: initial ~0, no final inversion */
        put_le(out, ~iom_crc32c(0, p, len), 4);
        break;
    case IOM_FV_CRC16:
        put_le(out, iom_fio_crc16(p, len), 2);
        break;
    case IOM_FV_CRC7:
        out[0] = iom_fio_crc7(p, len);
        break;
    case IOM_FV_XXHASH:
        put_le(out, iom_fio_xxh32(p, len, 1), 4);
        break;
    case IOM_FV_SHA512:
        fio_sha512(p, len, out);
        break;
#ifdef HAVE_NETTLE
    case IOM_FV_MD5: {
        struct md5_ctx c;
        md5_init(&c);
        md5_update(&c, len, p);
        md5_digest(&c, 16, out);
        break;
    }
    case IOM_FV_SHA1: { /* fio keeps the five words in host (little-endian) order */
        struct sha1_ctx c;
        uint8_t d[20];
        sha1_init(&c);
        sha1_update(&c, len, p);
        sha1_digest(&c, 20, d);
        for (int i = 0; i < 20; i++)
            out[i] = d[i / 4 * 4 + 3 - i % 4];
        break;
    }
    case IOM_FV_SHA256:
        fio_sha256(p, len, out);
        break;
    case IOM_FV_SHA3_224: {
        struct sha3_224_ctx c;
        sha3_224_init(&c);
        sha3_224_update(&c, len, p);
        sha3_224_digest(&c, 28, out);
        break;
    }
    case IOM_FV_SHA3_256: {
        struct sha3_256_ctx c;
        sha3_256_init(&c);
        sha3_256_update(&c, len, p);
        sha3_256_digest(&c, 32, out);
        break;
    }
    case IOM_FV_SHA3_384: {
        struct sha3_384_ctx c;
        sha3_384_init(&c);
        sha3_384_update(&c, len, p);
        sha3_384_digest(&c, 48, out);
        break;
    }
    case IOM_FV_SHA3_512: {
        struct sha3_512_ctx c;
        sha3_512_init(&c);
        sha3_512_update(&c, len, p);
        sha3_512_digest(&c, 64, out);
        break;
    }
#endif
    default:
        break;
    }
}

/* fio __fill_hdr: the 40-byte header with its crc32 */
static void fill_hdr(uint8_t *h, const struct iom_fio_vparams *p, uint32_t n, uint64_t off)
{
    enum iom_fio_vtype t = p->type == IOM_FV_CRC32C_INTEL ? IOM_FV_CRC32C : p->type;
    put_le(h, 0xacca, 2);
    put_le(h + 2, (uint64_t)t, 2);
    put_le(h + 4, n, 4);
    put_le(h + 8, p->seed, 8);
    put_le(h + 16, off, 8);
    put_le(h + 24, p->time_ns / 1000000000u, 4);
    put_le(h + 28, p->time_ns % 1000000000u, 4);
    put_le(h + 32, p->thread, 2);
    put_le(h + 34, p->numberio, 2);
    put_le(h + 36, ~iom_crc32c(0, h, 36), 4);
}

void iom_fio_verify_fill(void *buf, uint32_t len, const struct iom_fio_vparams *p)
{
    uint8_t *b = buf;
    if (p->pat_len) {
        iom_pattern_fill(p->pat, p->pat_len, b, len);
    } else {
        struct iom_rng r;
        iom_rng_seed(&r, p->seed);
        uint32_t k = 0;
        for (; k + 8 <= len; k += 8) {
            uint64_t x = iom_rng_next(&r);
            memcpy(b + k, &x, 8);
        }
        for (; k < len; k++)
            b[k] = (uint8_t)iom_rng_next(&r);
    }
    uint32_t step = iom_fio_verify_step(p->interval, len);
    uint32_t hs = iom_fio_verify_hdr_size(p->type);
    for (uint32_t at = 0; at + hs <= len; at += step) {
        uint32_t n = len - at < step ? len - at : step;
        fill_hdr(b + at, p, n, p->offset + at);
        iom_fio_verify_digest(p->type, b + at + hs, n - hs, b + at + IOM_VERIFY_HDR_BYTES);
    }
}

static enum iom_verify_result fail(struct iom_fio_vfail *f, enum iom_verify_result r,
                                   const char *what)
{
    f->what = what;
    return r;
}

/* fio verify_io_u_pattern: the data after the header, the pattern running on
 * from the I/O's first byte */
static bool pattern_ok(const uint8_t *b, uint32_t at, uint32_t from, uint32_t n,
                       const struct iom_fio_vparams *p, struct iom_fio_vfail *f)
{
    for (uint32_t i = from; i < n; i++) {
        uint8_t want = p->pat[(at + i) % p->pat_len];
        if (b[at + i] != want) {
            f->pat_byte = i;
            f->got = b[at + i];
            f->wanted = want;
            return false;
        }
    }
    return true;
}

enum iom_verify_result iom_fio_verify_check(const void *buf, uint32_t len,
                                            const struct iom_fio_vparams *p,
                                            struct iom_fio_vfail *f)
{
    const uint8_t *b = buf;
    uint32_t step = iom_fio_verify_step(p->interval, len);
    uint32_t hs = iom_fio_verify_hdr_size(p->type);
    uint32_t field = hs - IOM_VERIFY_HDR_BYTES;
    for (uint32_t at = 0; at < len; at += step) {
        const uint8_t *h = b + at;
        uint32_t n = len - at < step ? len - at : step;
        f->offset = p->offset + at;
        if (n < hs)
            return fail(f, IOM_VERIFY_BAD_META, "bad header length");
        if (get_le(h, 2) != 0xacca)
            return fail(f, IOM_VERIFY_BAD_META, "bad magic header");
        if (get_le(h + 4, 4) != n)
            return fail(f, IOM_VERIFY_BAD_META, "bad header length");
        if (get_le(h + 16, 8) != p->offset + at)
            return fail(f, IOM_VERIFY_BAD_META, "bad header offset");
        if (p->check_numberio && get_le(h + 34, 2) != p->numberio)
            return fail(f, IOM_VERIFY_BAD_META, "bad header numberio");
        if (get_le(h + 36, 4) != (uint32_t)~iom_crc32c(0, h, 36))
            return fail(f, IOM_VERIFY_BAD_META, "bad header crc");
        if (p->type == IOM_FV_META || p->type == IOM_FV_PATTERN) {
            if (p->pat_len && !pattern_ok(b, at, hs, n, p, f))
                return fail(f, IOM_VERIFY_BAD_PATTERN, "bad pattern");
            continue;
        }
        uint8_t d[128];
        memcpy(d, h + IOM_VERIFY_HDR_BYTES, field); /* sha512 under 128 bytes keeps the rest */
        iom_fio_verify_digest(p->type, h + hs, n - hs, d);
        if (memcmp(d, h + IOM_VERIFY_HDR_BYTES, field) != 0)
            return fail(f, IOM_VERIFY_BAD_DIGEST, iom_fio_verify_name(p->type));
    }
    return IOM_VERIFY_OK;
}
