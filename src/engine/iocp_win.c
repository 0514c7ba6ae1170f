/*
 * iocp_win.c - Windows engine: overlapped ReadFile/WriteFile on an I/O
 * completion port, reaped with GetQueuedCompletionStatusEx; DiskSpd's way of
 * doing I/O (microsoft/diskspd, IORequestGenerator.cpp: one completion port
 * per thread, ReadFile/WriteFile with an OVERLAPPED per outstanding I/O).
 *
 * Each engine instance (one per worker thread) re-opens the target with
 * ReOpenFile and the same access and flags (FILE_FLAG_OVERLAPPED, and
 * FILE_FLAG_NO_BUFFERING / FILE_FLAG_WRITE_THROUGH when the job asks), since
 * a handle can be bound to one completion port only (Microsoft Docs,
 * CreateIoCompletionPort). A ReadFile/WriteFile that completes at once still
 * queues a completion packet (no FILE_SKIP_COMPLETION_PORT_ON_SUCCESS), so
 * every I/O is reaped the same way.
 */
#include "platform/win.h"

#include <errno.h>
#include <io.h>
#include <stdlib.h>
#include <string.h>
#include <winternl.h>

#include "engine/engine.h"

struct iocp_slot {
    OVERLAPPED ov; /* first: the OVERLAPPED* of a completion is the slot */
    struct iom_io *io;
};

struct iocp_priv {
    HANDLE file, port;
    struct iocp_slot *slots;
    OVERLAPPED_ENTRY *entries;
    unsigned depth;
    unsigned inflight; /* queued, completion not reaped yet */
};

static int iocp_available(void)
{
    return 0;
}

static int iocp_init(struct iom_engine *e, unsigned depth, int fd, void **bufs, unsigned nr_bufs,
                     uint32_t buf_len)
{
    (void)bufs, (void)nr_bufs, (void)buf_len;
    HANDLE h = (HANDLE)_get_osfhandle(fd);
    if (h == INVALID_HANDLE_VALUE)
        return -EBADF;
    DWORD access = 0, flags = 0;
    if (iom_win_fd_flags(fd, &access, &flags) != 0)
        return -EBADF;
    if (!(flags & FILE_FLAG_OVERLAPPED))
        return -EINVAL;
    struct iocp_priv *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->depth = depth;
    p->slots = calloc(depth, sizeof(*p->slots));
    p->entries = calloc(depth, sizeof(*p->entries));
    int rc = -ENOMEM;
    if (!p->slots || !p->entries)
        goto fail;
    p->file = ReOpenFile(h, access, FILE_SHARE_READ | FILE_SHARE_WRITE, flags);
    if (p->file == INVALID_HANDLE_VALUE) {
        rc = -iom_win_errno(GetLastError());
        p->file = NULL;
        goto fail;
    }
    p->port = CreateIoCompletionPort(p->file, NULL, 1, 1);
    if (!p->port) {
        rc = -iom_win_errno(GetLastError());
        goto fail;
    }
    e->priv = p;
    e->fd = fd;
    e->depth = depth;
    return 0;
fail:
    if (p->file)
        CloseHandle(p->file);
    free(p->slots);
    free(p->entries);
    free(p);
    return rc;
}

static int iocp_queue(struct iom_engine *e, struct iom_io *io)
{
    struct iocp_priv *p = e->priv;
    if (io->ddir == IOM_IO_TRIM) { /* refused before the run (target_win.c); never queued */
        io->result = -EOPNOTSUPP;
        return IOM_Q_COMPLETED;
    }
    if (io->ddir >= IOM_IO_SYNC) { /* fsync/fdatasync: FlushFileBuffers, at once */
        io->result = FlushFileBuffers(p->file) ? 0 : -EIO;
        return IOM_Q_COMPLETED;
    }
    struct iocp_slot *s = &p->slots[io->slot];
    memset(&s->ov, 0, sizeof(s->ov));
    s->ov.Offset = (DWORD)io->offset;
    s->ov.OffsetHigh = (DWORD)(io->offset >> 32);
    s->io = io;
    BOOL ok = io->ddir == IOM_IO_WRITE ? WriteFile(p->file, io->buf, io->len, NULL, &s->ov)
                           : ReadFile(p->file, io->buf, io->len, NULL, &s->ov);
    DWORD err = ok ? ERROR_SUCCESS : GetLastError();
    if (ok || err == ERROR_IO_PENDING) { /* done already or later: a packet comes */
        p->inflight++;
        return IOM_Q_QUEUED;
    }
    /* refused at submission (no packet will come) */
    io->result = err == ERROR_HANDLE_EOF ? 0 : -iom_win_errno(err);
    return IOM_Q_COMPLETED;
}

static int iocp_commit(struct iom_engine *e)
{
    (void)e;
    return 0;
}

/* NTSTATUS in OVERLAPPED.Internal -> bytes or -errno */
static int64_t result_of(const OVERLAPPED_ENTRY *en)
{
    NTSTATUS st = (NTSTATUS)en->lpOverlapped->Internal;
    if (st >= 0)
        return (int64_t)en->dwNumberOfBytesTransferred;
    if ((ULONG)st == 0xC0000011UL) /* STATUS_END_OF_FILE */
        return 0;
    return -iom_win_errno(RtlNtStatusToDosError(st));
}

static int iocp_getevents(struct iom_engine *e, unsigned min, unsigned max, uint64_t timeout_ns,
                          struct iom_io **out)
{
    struct iocp_priv *p = e->priv;
    if (max > p->depth)
        max = p->depth;
    unsigned got = 0;
    ULONGLONG deadline = timeout_ns ? GetTickCount64() + (timeout_ns + 999999u) / 1000000u : 0;
    for (;;) {
        DWORD wait = 0;
        if (got < min) {
            if (!timeout_ns) {
                wait = INFINITE;
            } else {
                ULONGLONG now = GetTickCount64();
                wait = now >= deadline ? 0 : (DWORD)(deadline - now);
            }
        }
        ULONG n = 0;
        if (!GetQueuedCompletionStatusEx(p->port, p->entries, max - got, &n, wait, FALSE)) {
            DWORD err = GetLastError();
            if (err == WAIT_TIMEOUT)
                return (int)got;
            return -iom_win_errno(err);
        }
        for (ULONG i = 0; i < n; i++) {
            struct iocp_slot *s = (struct iocp_slot *)p->entries[i].lpOverlapped;
            s->io->result = result_of(&p->entries[i]);
            out[got++] = s->io;
            p->inflight--;
        }
        if (got >= min || got >= max || wait == 0)
            return (int)got;
    }
}

static void iocp_cleanup(struct iom_engine *e)
{
    struct iocp_priv *p = e->priv;
    if (!p)
        return;
    /* the runner drains what it issued; cancel anything left and wait for
     * its packets (up to 10 s), so no I/O still points at slots freed here */
    if (p->inflight) {
        CancelIoEx(p->file, NULL);
        ULONGLONG give_up = GetTickCount64() + 10000;
        while (p->inflight && GetTickCount64() < give_up) {
            ULONG n = 0;
            if (!GetQueuedCompletionStatusEx(p->port, p->entries, p->depth, &n, 100, FALSE))
                continue;
            p->inflight -= n < p->inflight ? n : p->inflight;
        }
    }
    CloseHandle(p->file);
    CloseHandle(p->port);
    free(p->slots);
    free(p->entries);
    free(p);
    e->priv = NULL;
}

const struct iom_engine_ops iom_engine_iocp = {
    .name = "iocp",
    .available = iocp_available,
    .init = iocp_init,
    .queue = iocp_queue,
    .commit = iocp_commit,
    .getevents = iocp_getevents,
    .cleanup = iocp_cleanup,
};
