/*
 * test_format_bytes.c - iom_format_bytes, the size text of messages: binary
 * units (KiB = 2^10 ... PiB = 2^50) with one decimal dropped when 0, the exact
 * count in parentheses. Expected strings worked out by hand from the powers
 * of two (536870912 = 512 x 2^20; 1610612736 = 1.5 x 2^30; 104857600 = 100 x
 * 2^20; 79716982784 / 2^30 = 74.24...).
 */
#include <string.h>

#include "check.h"
#include "workload/units.h"

static void expect(uint64_t b, const char *want)
{
    char buf[64];
    iom_format_bytes(b, buf, sizeof(buf));
    check_count++;
    if (strcmp(buf, want) != 0) {
        check_failures++;
        fprintf(stderr, "iom_format_bytes(%llu) = \"%s\", expected \"%s\"\n",
                (unsigned long long)b, buf, want);
    }
}

int main(void)
{
    expect(0, "0 bytes");
    expect(100, "100 bytes");
    expect(1023, "1023 bytes");
    expect(1024, "1 KiB (1024 bytes)");
    expect(1536, "1.5 KiB (1536 bytes)");
    expect(536870912, "512 MiB (536870912 bytes)");
    expect(104857600, "100 MiB (104857600 bytes)");
    expect(1610612736, "1.5 GiB (1610612736 bytes)");
    expect(UINT64_C(79716982784), "74.2 GiB (79716982784 bytes)");
    expect(UINT64_C(1) << 50, "1 PiB (1125899906842624 bytes)");
    expect(UINT64_C(1) << 60, "1024 PiB (1152921504606846976 bytes)");
    /* 1048575 bytes = 1023.999 KiB: rounds up into the next unit */
    expect(1048575, "1 MiB (1048575 bytes)");
    expect(1048063, "1023.5 KiB (1048063 bytes)");
    char small[8];
    iom_format_bytes(536870912, small, sizeof(small));   /* truncated, still terminated */
    CHECK(strlen(small) == 7);
    return check_status("test_format_bytes");
}
