/* test_verify.c - CRC-32C against published check values; the verify block
 * format detects each kind of damage. */
#include <stdlib.h>

#include "check.h"
#include "core/crc32c.h"
#include "core/verify.h"

int main(void)
{
    /* RFC 3720 B.4 and the CRC catalogue's check value for "123456789" */
    CHECK_U64(iom_crc32c(0, "123456789", 9), 0xE3069283u);
    unsigned char z[32] = {0}, ff[32];
    memset(ff, 0xff, sizeof(ff));
    CHECK_U64(iom_crc32c(0, z, 32), 0x8A9136AAu);  /* RFC 3720 B.4: 32 bytes of zeros */
    CHECK_U64(iom_crc32c(0, ff, 32), 0x62A8AB43u); /* RFC 3720 B.4: 32 bytes of 0xff */
    unsigned char inc[32];
    for (int i = 0; i < 32; i++)
        inc[i] = (unsigned char)i;
    CHECK_U64(iom_crc32c(0, inc, 32), 0x46DD794Eu); /* RFC 3720 B.4: incrementing */
    /* continuing a CRC over pieces equals one pass */
    CHECK_U64(iom_crc32c(iom_crc32c(0, "12345", 5), "6789", 4), 0xE3069283u);

    const uint32_t bs = 4096;
    unsigned char *a = malloc(bs), *b = malloc(bs);
    iom_verify_fill(a, bs, 8192, 42, 7);
    struct iom_verify_found f;
    CHECK(iom_verify_check(a, bs, 8192, 42, &f) == IOM_VERIFY_OK);
    CHECK_U64(f.generation, 7);
    /* a changed byte anywhere */
    for (uint32_t pos = 0; pos < bs; pos += 997) {
        memcpy(b, a, bs);
        b[pos] ^= 0x10;
        enum iom_verify_result r = iom_verify_check(b, bs, 8192, 42, NULL);
        CHECK(r == IOM_VERIFY_BAD_CRC || (pos < 8 && r == IOM_VERIFY_NO_HEADER) ||
              (pos >= 12 && pos < 16 && r == IOM_VERIFY_BAD_LEN));
    }
    /* a block that belongs elsewhere */
    iom_verify_fill(b, bs, 12288, 42, 1);
    CHECK(iom_verify_check(b, bs, 8192, 42, &f) == IOM_VERIFY_BAD_OFFSET);
    CHECK_U64(f.offset, 12288);
    /* a block from an earlier run (another seed) */
    iom_verify_fill(b, bs, 8192, 41, 1);
    CHECK(iom_verify_check(b, bs, 8192, 42, &f) == IOM_VERIFY_STALE);
    CHECK_U64(f.seed, 41);
    /* zeros: never written */
    memset(b, 0, bs);
    CHECK(iom_verify_check(b, bs, 8192, 42, NULL) == IOM_VERIFY_NO_HEADER);
    /* different payload for different offsets (no dedup-friendly blocks) */
    iom_verify_fill(b, bs, 16384, 42, 7);
    CHECK(memcmp(a + 64, b + 64, bs - 64) != 0);
    free(a);
    free(b);
    return check_status("test_verify");
}
