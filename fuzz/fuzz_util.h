/* fuzz_util.h - split a fuzz input into an argv (words at newlines). */
#ifndef IOMARK_FUZZ_UTIL_H
#define IOMARK_FUZZ_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline int fuzz_split_args(const uint8_t *data, size_t size, char ***argv_out, char **buf_out)
{
    char *buf = malloc(size + 1);
    char **argv = calloc(size + 2, sizeof(*argv));
    int argc = 0;
    if (!buf || !argv) {
        free(buf);
        free(argv);
        *argv_out = NULL;
        *buf_out = NULL;
        return 0;
    }
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *p = buf;
    while (p <= buf + size) {
        char *nl = memchr(p, '\n', (size_t)(buf + size - p));
        if (nl)
            *nl = '\0';
        argv[argc++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    *argv_out = argv;
    *buf_out = buf;
    return argc;
}

#endif
