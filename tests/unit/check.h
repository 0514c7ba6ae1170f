/* check.h - minimal assertions for standalone test programs (liburing's
 * convention: exit 0 pass, 1 fail, 77 skip). Each CHECK prints the failing
 * expression with its location and counts; main returns check_status(). */
#ifndef IOMARK_TESTS_CHECK_H
#define IOMARK_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                                             \
    do {                                                                                        \
        check_count++;                                                                          \
        if (!(cond)) {                                                                          \
            check_failures++;                                                                   \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);            \
        }                                                                                       \
    } while (0)

#define CHECK_U64(a, b)                                                                         \
    do {                                                                                        \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                        \
        check_count++;                                                                          \
        if (a_ != b_) {                                                                         \
            check_failures++;                                                                   \
            fprintf(stderr, "%s:%d: %s = %" PRIu64 ", expected %" PRIu64 "\n", __FILE__,       \
                    __LINE__, #a, a_, b_);                                                      \
        }                                                                                       \
    } while (0)

#define CHECK_NEAR(a, b, rel)                                                                   \
    do {                                                                                        \
        double a_ = (double)(a), b_ = (double)(b);                                              \
        double d_ = a_ > b_ ? a_ - b_ : b_ - a_;                                                \
        double m_ = (b_ < 0 ? -b_ : b_) * (rel);                                                \
        check_count++;                                                                          \
        if (d_ > m_ + 1e-12) {                                                                  \
            check_failures++;                                                                   \
            fprintf(stderr, "%s:%d: %s = %.9g, expected %.9g within %.3g%%\n", __FILE__,       \
                    __LINE__, #a, a_, b_, (rel) * 100);                                         \
        }                                                                                       \
    } while (0)

static inline int check_status(const char *name)
{
    if (check_failures) {
        fprintf(stderr, "%s: %d of %d checks failed\n", name, check_failures, check_count);
        return 1;
    }
    printf("%s: %d checks passed\n", name, check_count);
    return 0;
}

#endif
