/* crc32c.c - CRC-32C, hardware (SSE4.2) or slicing-by-8 software. */
#include "core/crc32c.h"

#include <pthread.h>
#include <string.h>

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

static uint32_t crc_sw(uint32_t c, const unsigned char *p, size_t len)
{
    pthread_once(&table_once, make_table);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= c;
        c = table[7][w & 0xff] ^ table[6][(w >> 8) & 0xff] ^ table[5][(w >> 16) & 0xff] ^
            table[4][(w >> 24) & 0xff] ^ table[3][(w >> 32) & 0xff] ^ table[2][(w >> 40) & 0xff] ^
            table[1][(w >> 48) & 0xff] ^ table[0][w >> 56];
        p += 8;
        len -= 8;
    }
    while (len--)
        c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
    return c;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const unsigned char *p,
                                                          size_t len)
{
    uint64_t c64 = c;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c64 = __builtin_ia32_crc32di(c64, w);
        p += 8;
        len -= 8;
    }
    c = (uint32_t)c64;
    while (len--)
        c = __builtin_ia32_crc32qi(c, *p++);
    return c;
}
#endif

uint32_t iom_crc32c(uint32_t crc, const void *buf, size_t len)
{
    uint32_t c = ~crc;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2"))
        return ~crc_hw(c, buf, len);
#endif
    return ~crc_sw(c, buf, len);
}
