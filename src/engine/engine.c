/* engine.c - the registry of engines. */
#include "engine/engine.h"

#include <string.h>

#ifdef _WIN32
const char *const iom_engine_names[] = {"iocp", "psync", "null", NULL};
#else
const char *const iom_engine_names[] = {"io_uring", "libaio", "psync", "null", NULL};
#endif

const struct iom_engine_ops *iom_engine_find(const char *name)
{
#ifdef _WIN32
    if (strcmp(name, "iocp") == 0)
        return &iom_engine_iocp;
#else
    if (strcmp(name, "io_uring") == 0)
        return &iom_engine_io_uring;
    if (strcmp(name, "libaio") == 0)
        return &iom_engine_libaio;
#endif
    if (strcmp(name, "psync") == 0 || strcmp(name, "sync") == 0)
        return &iom_engine_psync;
    if (strcmp(name, "null") == 0)
        return &iom_engine_null;
    return NULL;
}
