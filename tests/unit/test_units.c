/* test_units.c - size, duration, percentage parsers: exact values and refusals. */
#include <errno.h>

#include "check.h"
#include "workload/units.h"

struct size_case {
    const char *in;
    int ok;
    uint64_t want;
};

int main(void)
{
    static const struct size_case sizes[] = {
        {"4096", 1, 4096},         {"4k", 1, 4096},          {"4K", 1, 4096},
        {"4Ki", 1, 4096},          {"4KiB", 1, 4096},        {"4kib", 1, 4096},
        {"4KB", 1, 4096},          {"1M", 1, 1048576},       {"64MiB", 1, 67108864},
        {"4GiB", 1, 4294967296ULL}, {"4g", 1, 4294967296ULL}, {"2T", 1, 2199023255552ULL},
        {"1.5K", 1, 1536},         {"0.5M", 1, 524288},      {"512B", 1, 512},
        {"1P", 1, 1125899906842624ULL}, {"0", 1, 0},          {"16383P", 1, 18445618173802708992ULL},
        {"64D", 0, 0},             {"1.5", 0, 0},            {"-1", 0, 0},
        {"", 0, 0},                {"K", 0, 0},              {"4 K", 0, 0},
        {"+4K", 0, 0},             {"16384P", 0, 0},         {"99999999999999999999999", 0, 0},
        {"1.0000001K", 0, 0},      {"4KK", 0, 0},            {"4Kx", 0, 0},
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        uint64_t v = 0;
        const char *why = NULL;
        int rc = iom_parse_size(sizes[i].in, &v, &why);
        if (sizes[i].ok) {
            CHECK(rc == 0);
            CHECK_U64(v, sizes[i].want);
            if (rc)
                fprintf(stderr, "  size '%s' refused: %s\n", sizes[i].in, why);
        } else {
            CHECK(rc == -EINVAL || rc == -ERANGE);
            CHECK(why != NULL && why[0] != '\0');
            if (rc == 0)
                fprintf(stderr, "  size '%s' accepted as %llu\n", sizes[i].in, (unsigned long long)v);
        }
    }

    struct size_case durs[] = {
        {"10", 1, 10000000000ULL},  {"10s", 1, 10000000000ULL}, {"500ms", 1, 500000000ULL},
        {"250us", 1, 250000ULL},    {"7ns", 1, 7},              {"2m", 1, 120000000000ULL},
        {"1h", 1, 3600000000000ULL}, {"1d", 1, 86400000000000ULL}, {"1.5s", 1, 1500000000ULL},
        {"0", 1, 0},                {"-5", 0, 0},               {"5x", 0, 0},
        {"1.5ns", 0, 0},            {"", 0, 0},                 {"s", 0, 0},
        {"300000d", 0, 0}, /* 2.6e19 ns does not fit in 64 bits */
    };
    for (size_t i = 0; i < sizeof(durs) / sizeof(durs[0]); i++) {
        uint64_t v = 0;
        const char *why = NULL;
        int rc = iom_parse_duration(durs[i].in, &v, &why);
        CHECK((rc == 0) == durs[i].ok);
        if (durs[i].ok)
            CHECK_U64(v, durs[i].want);
        else if (rc == 0)
            fprintf(stderr, "  duration '%s' accepted\n", durs[i].in);
    }

    struct {
        const char *in;
        int ok;
        uint32_t want;
    } pcts[] = {{"0", 1, 0},   {"70", 1, 70},  {"100", 1, 100}, {"30%", 1, 30},
                {"200", 0, 0}, {"200%", 0, 0}, {"-1", 0, 0},    {"1.5", 0, 0},
                {"", 0, 0},    {"50%%", 0, 0}, {"101", 0, 0}};
    for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
        uint32_t v = 0;
        const char *why = NULL;
        int rc = iom_parse_percent(pcts[i].in, &v, &why);
        CHECK((rc == 0) == pcts[i].ok);
        if (pcts[i].ok)
            CHECK_U64(v, pcts[i].want);
    }

    uint64_t v;
    const char *why;
    CHECK(iom_parse_u64("18446744073709551615", &v, &why) == 0 && v == UINT64_MAX);
    CHECK(iom_parse_u64("18446744073709551616", &v, &why) == -ERANGE);
    CHECK(iom_parse_u64("12a", &v, &why) == -EINVAL);
    return check_status("test_units");
}
