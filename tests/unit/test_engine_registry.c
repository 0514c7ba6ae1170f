/* test_engine_registry.c - the engine registry (engine/engine.h) is the one
 * list of engines: lookup by name and alias, complete ops tables, the list
 * text that help and errors print, and the io_uring -> libaio fallback. */
#include <string.h>

#include "check.h"
#include "engine/engine.h"

int main(void)
{
    /* the engines iomark documents (docs/options.md), in help order */
    static const char *const want[] = {"io_uring", "libaio", "psync", "null"};
    size_t n = 0;
    for (const struct iom_engine_ops *const *e = iom_engines; *e; e++, n++) {
        CHECK(n < 4 && strcmp((*e)->name, want[n]) == 0);
        CHECK(iom_engine_find((*e)->name) == *e);
        CHECK((*e)->description && (*e)->description[0]);
        CHECK((*e)->available && (*e)->init && (*e)->queue && (*e)->commit && (*e)->getevents &&
              (*e)->cleanup);
        if ((*e)->fallback)
            CHECK(iom_engine_find((*e)->fallback) != NULL && iom_engine_find((*e)->fallback) != *e);
    }
    CHECK_U64(n, 4);
    CHECK(iom_engine_find("sync") == iom_engine_find("psync"));
    CHECK(iom_engine_find("posixaio") == NULL);
    CHECK(iom_engine_find("") == NULL);
    CHECK(strcmp(iom_engine_find("io_uring")->fallback, "libaio") == 0);
    /* the depth a thread keeps in flight: psync completes each I/O in queue()
     * (src/engine/psync.c), so 1 whatever is asked (fio caps its FIO_SYNCIO
     * engines the same way); the queueing engines keep what is asked */
    CHECK_U64(iom_engine_depth("psync", 8), 1);
    CHECK_U64(iom_engine_depth("sync", 32), 1);
    CHECK_U64(iom_engine_depth("psync", 1), 1);
    CHECK_U64(iom_engine_depth("io_uring", 8), 8);
    CHECK_U64(iom_engine_depth("libaio", 8), 8);
    CHECK_U64(iom_engine_depth("null", 16), 16);
    CHECK_U64(iom_engine_depth("no-such-engine", 4), 4);
    CHECK(iom_engine_find("psync")->synchronous && !iom_engine_find("io_uring")->synchronous &&
          !iom_engine_find("libaio")->synchronous && !iom_engine_find("null")->synchronous);
    char buf[160];
    CHECK(strcmp(iom_engine_list(buf, sizeof(buf)), "io_uring, libaio, psync (or sync), null") == 0);
    CHECK(strcmp(iom_engine_list(buf, 12), "io_uring, l") == 0);
    return check_status("test_engine_registry");
}
