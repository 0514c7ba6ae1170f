/* ioevents.c - a worker's state-free helpers around its I/Os (ioevents.h). */
#include "core/ioevents.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void iom_fill_write(struct iom_io *io, struct iom_rng *r, bool refill)
{
    uint64_t *p = io->buf;
    if (refill) {
        for (size_t k = 0; k < io->len / 8; k++)
            p[k] = iom_rng_next(r);
        return;
    }
    char *b = io->buf;
    uint64_t off = io->offset, sec = io->start_ns / 1000000000u, nsec = io->start_ns % 1000000000u;
    unsigned line = (unsigned)((nsec ^ off) & 7);
    for (uint64_t i = 0; i < io->len / 512; i++, b += 512, off += 512) {
        memcpy(b + (line << 6), &off, sizeof(off));
        memcpy(b + 64 - 16, &sec, sizeof(sec));
        memcpy(b + 64 - 8, &nsec, sizeof(nsec));
    }
}

bool iom_error_non_fatal(const struct iom_job *job, int cls, int err)
{
    if (job->continue_on_error)
        return true;
    if (!(job->coe_classes & (1u << cls)))
        return false;
    if (!job->nr_ignore_errno[cls])
        return err == EIO || err == EILSEQ;
    for (unsigned i = 0; i < job->nr_ignore_errno[cls]; i++)
        if (job->ignore_errno[cls][i] == err)
            return true;
    return false;
}

void iom_end_fsync(const struct iom_job *job, const struct iom_target *t)
{
    if (!job->end_fsync || !iom_job_writes(job) || t->fd < 0)
        return;
    struct iom_engine e = {.fd = t->fd};
    int64_t rc = iom_engine_sync_now(&e, IOM_IO_SYNC);
    if (rc < 0)
        fprintf(stderr, "iomark: end_fsync failed for file %s: %s\n", t->path,
                strerror((int)-rc));
}
