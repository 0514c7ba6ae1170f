/* test_pattern.c - fio's pattern syntax (workload/pattern.h). Expected bytes
 * are the examples fio 3.33 documents in lib/pattern.c above
 * parse_and_fill_pattern (#1-#4, #6, #7 without its %o, #10; #6's comment
 * prints "ff ec cc" for 0xFFeeCC, a slip for ff ee cc, which its hex digits
 * say), plus hex with an odd digit count as fio's parse_number reads it
 * (first digit alone) and fio's limits (INT_MIN..INT_MAX, unterminated
 * strings, empty input). */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "workload/pattern.h"

static int same(const char *in, const char *hex)
{
    uint8_t out[IOM_PATTERN_MAX], want[IOM_PATTERN_MAX];
    int n = iom_pattern_parse(in, out, sizeof(out));
    size_t w = strlen(hex) / 2;
    for (size_t i = 0; i < w; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        want[i] = (uint8_t)v;
    }
    if (n != (int)w || memcmp(out, want, w) != 0) {
        fprintf(stderr, "pattern %s: got %d bytes, wanted %s\n", in, n, hex);
        return 0;
    }
    return 1;
}

int main(void)
{
    CHECK(same("\"abcd\"", "61626364"));       /* #1 */
    CHECK(same("-1024", "00fcffff"));          /* #2 */
    CHECK(same("66", "42"));                   /* #3 */
    CHECK(same("0xFF0X1", "ff01"));            /* #4 */
    CHECK(same("\"123\"0xFFeeCC", "313233ffeecc")); /* #6 */
    CHECK(same("-100xab\"1\"", "f6ffffffab31"));    /* #7 without %o */
    CHECK(same("0xfefefefefefefefefefefefefefefefefefefefefe",
               "fefefefefefefefefefefefefefefefefefefefefe")); /* #10 */
    CHECK(same("0xabc", "0abc"));
    CHECK(same("0", "00"));
    CHECK(same("258", "0201"));
    CHECK(same("0xdeadbeef\"xy\"-12", "deadbeef7879f4ffffff"));
    uint8_t out[16];
    CHECK(iom_pattern_parse("2147483648", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("-2147483649", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("\"abc", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("\"\"", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("0x", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("abc", out, sizeof(out)) == -EINVAL);
    CHECK(iom_pattern_parse("0x00112233445566778899aabbccddeeff00", out, sizeof(out)) == -EINVAL);
    /* the file form: its bytes */
    char path[] = "/tmp/iomark-pattern-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK(write(fd, "QRS", 3) == 3);
        close(fd);
        char in[64];
        snprintf(in, sizeof(in), "'%s'0x01", path);
        CHECK(same(in, "51525301"));
        unlink(path);
    }
    /* repeated over a buffer */
    uint8_t buf[10];
    const uint8_t pat[3] = {1, 2, 3};
    iom_pattern_fill(pat, 3, buf, sizeof(buf));
    CHECK(buf[0] == 1 && buf[2] == 3 && buf[3] == 1 && buf[8] == 3 && buf[9] == 1);
    return check_status("test_pattern");
}
