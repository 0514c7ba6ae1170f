/* units.c - exact parsing of sizes, durations and percentages. */
#include "workload/units.h"

#include <stdio.h>
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

/*
 * Parse "<digits>[.<digits>]" into an exact rational num / 10^frac_digits.
 * Returns the pointer past the number, or NULL if there is no digit.
 */
static const char *parse_decimal(const char *s, unsigned __int128 *num, unsigned *frac_digits,
                                 int *overflow)
{
    unsigned __int128 v = 0;
    unsigned nd = 0, fd = 0;
    *overflow = 0;
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (unsigned)(*s - '0');
        if (v > ((unsigned __int128)1 << 100))
            *overflow = 1;
        s++;
        nd++;
    }
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s)) {
            if (fd < 18) {
                v = v * 10 + (unsigned)(*s - '0');
                fd++;
            } else if (*s != '0') {
                *overflow = 1; /* more precision than any unit can make whole */
            }
            if (v > ((unsigned __int128)1 << 100))
                *overflow = 1;
            s++;
            nd++;
        }
    }
    if (nd == 0)
        return NULL;
    *num = v;
    *frac_digits = fd;
    return s;
}

/* value = num * mult / 10^fd, which must be whole and fit in 64 bits. */
static int scale_exact(unsigned __int128 num, unsigned fd, uint64_t mult, uint64_t *out,
                       const char **why, const char *not_whole)
{
    unsigned __int128 p10 = 1;
    for (unsigned i = 0; i < fd; i++)
        p10 *= 10;
    if (num != 0 && (unsigned __int128)mult > (((unsigned __int128)1 << 127) / num)) {
        *why = "too large for a 64-bit count";
        return -ERANGE;
    }
    unsigned __int128 prod = num * mult;
    if (prod % p10 != 0) {
        *why = not_whole;
        return -EINVAL;
    }
    prod /= p10;
    if (prod > UINT64_MAX) {
        *why = "too large for a 64-bit count";
        return -ERANGE;
    }
    *out = (uint64_t)prod;
    return 0;
}

static int check_sign(const char *s, const char **why)
{
    if (s == NULL || *s == '\0') {
        *why = "empty value";
        return -EINVAL;
    }
    if (*s == '-') {
        *why = "negative values are not allowed";
        return -EINVAL;
    }
    if (*s == '+' || isspace((unsigned char)*s)) {
        *why = "expected a number";
        return -EINVAL;
    }
    return 0;
}

static _Thread_local unsigned fio_kb_base; /* 0: iomark's binary rules */

void iom_units_fio_kb_base(unsigned kb_base)
{
    fio_kb_base = kb_base;
}

/* fio's multiplier for a size suffix (parse.c __get_mult_bytes), 0 if unknown */
static uint64_t fio_mult(const char *sfx)
{
    static const char pw[] = "kmgtp";
    char c[8] = {0};
    size_t n = strnlen(sfx, sizeof(c));
    if (n >= sizeof(c))
        return 0;
    for (size_t i = 0; i < n; i++) /* c stays NUL-terminated: n < sizeof(c) */
        c[i] = (char)tolower((unsigned char)sfx[i]);
    if (!n || strcmp(c, "b") == 0)
        return 1;
    const char *p = strchr(pw, c[0]);
    if (!p || !c[0])
        return 0;
    uint64_t base = fio_kb_base;
    if (strcmp(c + 1, "ib") == 0) /* KiB...: the other base */
        base = fio_kb_base == 1000 ? 1024 : 1000;
    else if (c[1] && strcmp(c + 1, "b") != 0 && strcmp(c + 1, "i") != 0)
        return 0;
    uint64_t m = 1;
    for (long k = 0; k <= p - pw; k++)
        m *= base;
    return m;
}

int iom_parse_size(const char *s, uint64_t *bytes, const char **why)
{
    static const struct {
        const char *suffix;
        unsigned shift;
    } sfx[] = {
        {"", 0},     {"b", 0},    {"k", 10},   {"kb", 10},  {"kib", 10}, {"ki", 10},
        {"m", 20},   {"mb", 20},  {"mib", 20}, {"mi", 20},  {"g", 30},   {"gb", 30},
        {"gib", 30}, {"gi", 30},  {"t", 40},   {"tb", 40},  {"tib", 40}, {"ti", 40},
        {"p", 50},   {"pb", 50},  {"pib", 50}, {"pi", 50},
    };
    int rc = check_sign(s, why);
    if (rc)
        return rc;
    unsigned __int128 num;
    unsigned fd;
    int ovf;
    const char *end = parse_decimal(s, &num, &fd, &ovf);
    if (!end) {
        *why = "expected a number of bytes with an optional suffix K, M, G, T (binary)";
        return -EINVAL;
    }
    if (ovf) {
        *why = "too large for a 64-bit count";
        return -ERANGE;
    }
    if (fio_kb_base) {
        uint64_t m = fio_mult(end);
        if (m)
            return scale_exact(num, fd, m, bytes, why,
                               "not a whole number of bytes; give whole bytes or a fraction "
                               "that makes them, e.g. 1536 or 1.5K");
        *why = "unknown size suffix; allowed (fio, kb_base=1024): none or B, K/KB, M/MB, G/GB, "
               "T/TB, P/PB (binary), KiB, MiB, GiB, TiB, PiB (decimal, as fio 3.33 reads them)";
        return -EINVAL;
    }
    for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
        if (strcasecmp(end, sfx[i].suffix) == 0)
            return scale_exact(num, fd, UINT64_C(1) << sfx[i].shift, bytes, why,
                               "not a whole number of bytes; give whole bytes or a fraction "
                               "that makes them, e.g. 1536 or 1.5K");
    }
    *why = "unknown size suffix; allowed: none or B (bytes), K/KB/KiB/Ki, M.., G.., T.., P.. "
           "(all binary, case-insensitive)";
    return -EINVAL;
}

int iom_parse_duration(const char *s, uint64_t *ns, const char **why)
{
    static const struct {
        const char *unit;
        uint64_t mult;
    } units[] = {
        {"", UINT64_C(1000000000)},       {"s", UINT64_C(1000000000)},
        {"sec", UINT64_C(1000000000)},    {"ns", 1},
        {"us", 1000},                     {"ms", 1000000},
        {"m", UINT64_C(60000000000)},     {"min", UINT64_C(60000000000)},
        {"h", UINT64_C(3600000000000)},   {"d", UINT64_C(86400000000000)},
    };
    int rc = check_sign(s, why);
    if (rc)
        return rc;
    unsigned __int128 num;
    unsigned fd;
    int ovf;
    const char *end = parse_decimal(s, &num, &fd, &ovf);
    if (!end) {
        *why = "expected a duration such as 30, 30s, 500ms, 2m, 1h, 1d";
        return -EINVAL;
    }
    if (ovf) {
        *why = "too long for a 64-bit count of nanoseconds";
        return -ERANGE;
    }
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcasecmp(end, units[i].unit) == 0)
            return scale_exact(num, fd, units[i].mult, ns, why,
                               "not a whole number of nanoseconds; e.g. 1.5s or 1500ms");
    }
    *why = "unknown time unit; allowed: none or s (seconds), ns, us, ms, m, h, d";
    return -EINVAL;
}

int iom_parse_percent(const char *s, uint32_t *pct, const char **why)
{
    int rc = check_sign(s, why);
    if (rc)
        return rc;
    uint64_t v = 0;
    const char *p = s;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > 1000)
            v = 1000;
        p++;
    }
    if (p == s || !(*p == '\0' || (p[0] == '%' && p[1] == '\0'))) {
        *why = "expected a whole percentage from 0 to 100";
        return -EINVAL;
    }
    if (v > 100) {
        *why = "a percentage must be from 0 to 100";
        return -ERANGE;
    }
    *pct = (uint32_t)v;
    return 0;
}

int iom_parse_u64(const char *s, uint64_t *v, const char **why)
{
    int rc = check_sign(s, why);
    if (rc)
        return rc;
    unsigned __int128 acc = 0;
    const char *p = s;
    while (isdigit((unsigned char)*p)) {
        acc = acc * 10 + (unsigned)(*p - '0');
        if (acc > UINT64_MAX) {
            *why = "too large for a 64-bit count";
            return -ERANGE;
        }
        p++;
    }
    if (p == s || *p != '\0') {
        *why = "expected a whole number";
        return -EINVAL;
    }
    *v = (uint64_t)acc;
    return 0;
}

char *iom_format_bytes(uint64_t bytes, char *buf, size_t len)
{
    static const char *const u[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024) {
        snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
        return buf;
    }
    int k = 0;
    double v = (double)bytes / 1024.0;
    while (k < 4 && v >= 1023.95) {   /* 1023.95 KiB and up print as 1 MiB, not 1024.0 KiB */
        v /= 1024.0;
        k++;
    }
    char num[32];
    snprintf(num, sizeof(num), "%.1f", v);
    size_t n = strlen(num);
    if (n > 2 && strcmp(num + n - 2, ".0") == 0)
        num[n - 2] = 0;
    snprintf(buf, len, "%s %s (%llu bytes)", num, u[k], (unsigned long long)bytes);
    return buf;
}
