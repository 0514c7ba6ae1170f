/* test_fioverify.c - fio 3.33's verify blocks (core/fioverify.h):
 *  - fio's CRCs against the check values ("123456789") of the CRC catalogue
 *    (reveng.sourceforge.io/crc-catalogue: CRC-16/ARC 0xBB3D, CRC-7/MMC 0x75,
 *    CRC-64/REDIS 0xE9C6D914C4B8D9CA; CRC-32/CKSUM without the length,
 *    0x765E7680, is fio's crc32 with the final xor: fio's is 0x89A1897F) and
 *    XXH32 against the xxHash project's sanity values (seed 0: "" 0x02CC5D05);
 *  - every algorithm's file written by fio 3.33 itself (tests/data/fio-verify,
 *    2 blocks of 512 bytes; tests/data/SOURCES.md) passes iomark's check (the
 *    digest iomark computes equals the one fio stored), a changed data byte
 *    inside what the digest covers fails it (BAD_DIGEST, at that block), a
 *    changed header byte fails the header (BAD_META);
 *  - fio's meta + verify_pattern file: passes, a changed pattern byte is found
 *    at its 512-byte interval with the byte, got and wanted;
 *  - iomark's own fill passes its check for every algorithm, with intervals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/fioverify.h"

static char root[4096];

static size_t load(const char *name, unsigned char *buf, size_t cap)
{
    char p[4200];
    snprintf(p, sizeof(p), "%s/tests/data/fio-verify/%s", root, name);
    FILE *f = fopen(p, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", p);
        return 0;
    }
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static enum iom_verify_result chk(const unsigned char *b, uint32_t len, enum iom_fio_vtype t,
                                  uint32_t iv, uint64_t off, const uint8_t *pat, uint32_t pl,
                                  struct iom_fio_vfail *f)
{
    struct iom_fio_vparams p = {.type = t, .interval = iv, .offset = off, .pat = pat, .pat_len = pl};
    return iom_fio_verify_check(b, len, &p, f);
}

int main(void)
{
    snprintf(root, sizeof(root), "%s", __FILE__);
    char *cut = strstr(root, "/tests/unit/");
    if (cut)
        *cut = 0;
    const char *s = "123456789";
    CHECK_U64(iom_fio_crc16(s, 9), 0xBB3D);
    CHECK_U64(iom_fio_crc7(s, 9), 0x75);
    CHECK_U64(iom_fio_crc64(s, 9), UINT64_C(0xE9C6D914C4B8D9CA));
    CHECK_U64(iom_fio_crc32(s, 9), 0x765E7680u ^ 0xFFFFFFFFu);
    CHECK_U64(iom_fio_xxh32("", 0, 0), 0x02CC5D05u);

    static const char *names[] = {"md5",      "sha1",     "sha256", "sha512", "sha3-224",
                                  "sha3-256", "sha3-384", "sha3-512", "crc64", "crc32",
                                  "crc32c",   "crc16",    "crc7",   "xxhash"};
    unsigned char b[1024], c[1024];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char fn[64];
        snprintf(fn, sizeof(fn), "%s.bin", names[i]);
        CHECK_U64(load(fn, b, sizeof(b)), 1024);
        int t = iom_fio_verify_type(names[i]);
        CHECK(t > 0);
        struct iom_fio_vfail f;
        /* fio's blocks of 512 bytes, read as one I/O of 1 KiB with interval 512 and as two */
        if (chk(b, 1024, (enum iom_fio_vtype)t, 512, 0, NULL, 0, &f) != IOM_VERIFY_OK)
            fprintf(stderr, "%s: %s at %llu\n", names[i], f.what, (unsigned long long)f.offset);
        CHECK(chk(b, 1024, (enum iom_fio_vtype)t, 512, 0, NULL, 0, &f) == IOM_VERIFY_OK);
        CHECK(chk(b + 512, 512, (enum iom_fio_vtype)t, 0, 512, NULL, 0, &f) == IOM_VERIFY_OK);
        /* a data byte fio's digest covers (sha512: of 344 data bytes, fio's field holds
         * bytes 88 to 127 and the last 88) */
        uint32_t hs = iom_fio_verify_hdr_size((enum iom_fio_vtype)t);
        memcpy(c, b, sizeof(c));
        c[512 + hs + 100] ^= 0x01;
        CHECK(chk(c, 1024, (enum iom_fio_vtype)t, 512, 0, NULL, 0, &f) == IOM_VERIFY_BAD_DIGEST);
        CHECK_U64(f.offset, 512);
        memcpy(c, b, sizeof(c));
        c[512 + 20] ^= 0x01; /* the header's offset field */
        CHECK(chk(c, 1024, (enum iom_fio_vtype)t, 512, 0, NULL, 0, &f) == IOM_VERIFY_BAD_META);
        CHECK(strcmp(f.what, "bad header offset") == 0);
        /* the same blocks read as if at another offset */
        CHECK(chk(b, 512, (enum iom_fio_vtype)t, 0, 4096, NULL, 0, &f) == IOM_VERIFY_BAD_META);

        /* iomark's own blocks: 3 intervals of 512 in a 1536-byte write at 12288 */
        unsigned char *w = malloc(1536);
        struct iom_fio_vparams p = {.type = (enum iom_fio_vtype)t, .interval = 512,
                                    .offset = 12288, .seed = 99 + i, .thread = 1};
        iom_fio_verify_fill(w, 1536, &p);
        CHECK(iom_fio_verify_check(w, 1536, &p, &f) == IOM_VERIFY_OK);
        w[1024 + hs + 100] ^= 0x80;
        CHECK(iom_fio_verify_check(w, 1536, &p, &f) == IOM_VERIFY_BAD_DIGEST);
        CHECK_U64(f.offset, 12288 + 1024);
        free(w);
    }

    /* fio: bs=1k verify=meta verify_pattern=0xaa555aa5 verify_interval=512 */
    const uint8_t pat[4] = {0xaa, 0x55, 0x5a, 0xa5};
    CHECK_U64(load("metapat.bin", b, sizeof(b)), 1024);
    struct iom_fio_vfail f;
    CHECK(chk(b, 1024, IOM_FV_META, 512, 0, pat, 4, &f) == IOM_VERIFY_OK);
    memcpy(c, b, sizeof(c));
    c[512 + 100] = 0;
    CHECK(chk(c, 1024, IOM_FV_META, 512, 0, pat, 4, &f) == IOM_VERIFY_BAD_PATTERN);
    CHECK_U64(f.offset, 512);
    CHECK_U64(f.pat_byte, 100);
    CHECK_U64(f.got, 0);
    CHECK_U64(f.wanted, 0xaa); /* byte 612 of the I/O: 612 % 4 = 0 */
    /* without the pattern, meta checks only the headers */
    CHECK(chk(c, 1024, IOM_FV_META, 512, 0, NULL, 0, &f) == IOM_VERIFY_OK);
    return check_failures ? 1 : 0;
}
