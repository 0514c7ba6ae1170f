/* pattern.c - fio's buffer_pattern syntax (pattern.h; fio lib/pattern.c). */
#include "workload/pattern.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hexval(char c)
{
    return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* 0xHEX: its digits up to a non-hex character or the next "0x" (fio: 0xff0x14) */
static const char *parse_hex(const char *p, uint8_t *out, unsigned room, unsigned *n)
{
    p += 2;
    size_t num = strspn(p, "0123456789abcdefABCDEF");
    if (!num)
        return NULL;
    if (num > 1 && p[num] && (p[num - 1] == '0' && (p[num] == 'x' || p[num] == 'X')))
        num--;
    unsigned bytes = (unsigned)((num + 1) / 2);
    if (bytes > room)
        return NULL;
    size_t i = 0;
    for (unsigned b = 0; b < bytes; b++) {
        int v = 0;
        if (b == 0 && (num & 1))
            v = hexval(p[i++]);
        else {
            v = hexval(p[i]) << 4 | hexval(p[i + 1]);
            i += 2;
        }
        out[b] = (uint8_t)v;
    }
    *n = bytes;
    return p + num;
}

/* DECIMAL: an int in its fewest bytes, least significant first */
static const char *parse_dec(const char *p, uint8_t *out, unsigned room, unsigned *n)
{
    char buf[32];
    size_t len = strspn(p + (*p == '-' || *p == '+'), "0123456789") + (*p == '-' || *p == '+');
    const char *x = strstr(p, "0x") ? strstr(p, "0x") : strstr(p, "0X");
    if (x && x >= p && (size_t)(x - p) < len) /* fio looks ahead to a following 0x */
        len = (size_t)(x - p);
    if (!len || len >= sizeof(buf))
        return NULL;
    memcpy(buf, p, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(buf, &end, 10);
    if (end == buf || *end || errno || v > INT_MAX || v < INT_MIN)
        return NULL;
    unsigned i = 0;
    if (!v) {
        if (!room)
            return NULL;
        out[i++] = 0;
    } else {
        for (unsigned u = (unsigned)v; u; u >>= 8) {
            if (i == room)
                return NULL;
            out[i++] = (uint8_t)(u & 0xff);
        }
    }
    *n = i;
    return p + len;
}

static const char *parse_file(const char *p, uint8_t *out, unsigned room, unsigned *n)
{
    const char *end = strchr(p + 1, '\'');
    char path[4096];
    if (!end || (size_t)(end - p - 1) >= sizeof(path) || end == p + 1)
        return NULL;
    memcpy(path, p + 1, (size_t)(end - p - 1));
    path[end - p - 1] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t got = fread(out, 1, room, f);
    fclose(f);
    if (!got)
        return NULL;
    *n = (unsigned)got;
    return end + 1;
}

int iom_pattern_parse(const char *in, uint8_t *out, unsigned out_len)
{
    unsigned total = 0;
    const char *p = in;
    if (!in || !*in)
        return -EINVAL;
    while (*p) {
        unsigned n = 0;
        const char *next;
        if (*p == '"') {
            const char *end = strchr(p + 1, '"');
            n = end ? (unsigned)(end - p - 1) : 0;
            if (!end || !n || n > out_len - total)
                return -EINVAL;
            memcpy(out + total, p + 1, n);
            next = end + 1;
        } else if (*p == '\'') {
            next = parse_file(p, out + total, out_len - total, &n);
        } else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            next = parse_hex(p, out + total, out_len - total, &n);
        } else {
            next = parse_dec(p, out + total, out_len - total, &n);
        }
        if (!next || !n)
            return -EINVAL;
        total += n;
        p = next;
    }
    return (int)total;
}

void iom_pattern_fill(const uint8_t *pat, unsigned pat_len, uint8_t *out, uint64_t len)
{
    if (!pat_len)
        return;
    uint64_t have = pat_len < len ? pat_len : len;
    memcpy(out, pat, have);
    while (have < len) { /* doubling copies, as fio's dup_pattern */
        uint64_t n = have < len - have ? have : len - have;
        memcpy(out + have, out, n);
        have += n;
    }
}
