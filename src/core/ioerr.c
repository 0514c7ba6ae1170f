/* ioerr.c - naming and judging a failed I/O (ioerr.h). */
#include "core/ioerr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

const char *iom_ddir_name(unsigned ddir)
{
    return ddir == IOM_IO_WRITE ? "write" : ddir == IOM_IO_TRIM ? "trim" : ddir >= IOM_IO_SYNC ?
           "sync" : "read";
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

void iom_error_dump(const struct iom_job *job, const char *path, const struct iom_io *io, int err)
{
    if (job->error_dump)
        fprintf(stderr, "iomark: io_u error on file %s: %s: %s offset=%llu, buflen=%u\n", path,
                strerror(err), iom_ddir_name(io->ddir), (unsigned long long)io->offset,
                (unsigned)io->len);
}
