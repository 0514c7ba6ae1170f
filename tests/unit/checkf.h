/* checkf.h - CHECK(cond, fmt, ...) for standalone test programs that say
 * why a check failed (printf-style); counts into `failures`, which main
 * turns into the exit status (0 pass, 1 fail). check.h is the plain form. */
#ifndef IOMARK_TESTS_CHECKF_H
#define IOMARK_TESTS_CHECKF_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#endif
