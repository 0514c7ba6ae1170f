/* engine.c - the registry of engines: one line per engine. */
#include "engine/engine.h"

#include <stdio.h>
#include <string.h>

const struct iom_engine_ops *const iom_engines[] = {
#ifdef _WIN32 /* I/O completion ports instead of io_uring and libaio (iocp_win.c) */
    &iom_engine_iocp,
#else
    &iom_engine_io_uring,
    &iom_engine_libaio,
#endif
    &iom_engine_psync,
    &iom_engine_null,
    NULL,
};

const struct iom_engine_ops *iom_engine_find(const char *name)
{
    for (const struct iom_engine_ops *const *e = iom_engines; *e; e++)
        if (strcmp(name, (*e)->name) == 0 || ((*e)->alias && strcmp(name, (*e)->alias) == 0))
            return *e;
    return NULL;
}

unsigned iom_engine_depth(const char *name, unsigned depth)
{
    const struct iom_engine_ops *e = name ? iom_engine_find(name) : NULL;
    return e && e->synchronous && depth > 1 ? 1 : depth;
}

char *iom_engine_list(char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (const struct iom_engine_ops *const *e = iom_engines; *e && n < len; e++) {
        int k = snprintf(buf + n, len - n, "%s%s", e == iom_engines ? "" : ", ", (*e)->name);
        if (k > 0)
            n += (size_t)k;
        if ((*e)->alias && n < len && (k = snprintf(buf + n, len - n, " (or %s)", (*e)->alias)) > 0)
            n += (size_t)k;
    }
    return buf;
}

int iom_engine_set_fd(struct iom_engine *e, int fd)
{
    int rc = e->ops && e->ops->set_fd ? e->ops->set_fd(e, fd) : 0;
    if (rc == 0)
        e->fd = fd;
    return rc;
}
