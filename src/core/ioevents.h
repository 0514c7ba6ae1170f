/*
 * ioevents.h - what a worker thread does around its I/Os that needs none of
 * its own state (core/worker.c): a write's data as fio makes it, fio's rule
 * for when an error lets a job go on, when fio issues a sync between writes,
 * and the sync at a job's end. Internal to src/core.
 */
#ifndef IOMARK_CORE_IOEVENTS_H
#define IOMARK_CORE_IOEVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/offsets.h"
#include "core/target.h"
#include "engine/engine.h"
#include "workload/spec.h"

/*
 * Fill the data of write io (io->buf, io->len bytes; io->offset and
 * io->start_ns read) as fio does: refill (fio's refill_buffers) new random
 * bytes from r; else fio's scramble_buffers (io_u.c small_content_scramble):
 * in every 512-byte block the I/O's offset at a cache line picked from its
 * start time and offset, and the start time (s, ns) in the last 16 bytes of
 * the block's first cache line.
 */
void iom_fill_write(struct iom_io *io, struct iom_rng *r, bool refill);

/*
 * Whether an error (errno err > 0) of class cls (IOM_ERRCLS_*) lets the job
 * go on: the native --continue_on_error (every error), or fio's per-class
 * rule (td_error.c td_non_fatal_error: the class's continue_on_error bit and
 * the errno in its ignore_error list, by default EIO and EILSEQ).
 */
bool iom_error_non_fatal(const struct iom_job *job, int cls, int err);

/*
 * The sync due before a thread's next I/O (fio 3.33 io_u.c get_rw_ddir):
 * IOM_IO_SYNC when the writes it has issued (`writes` > 0) are a multiple of
 * job->fsync_blocks, else IOM_IO_DATASYNC when a multiple of
 * job->fdatasync_blocks, and the I/O issued last was not a sync
 * (`last_sync`, fio's last_was_sync); 0 = none.
 */
static inline unsigned iom_sync_due(const struct iom_job *job, uint64_t writes, bool last_sync)
{
    if (!writes || last_sync)
        return 0;
    if (job->fsync_blocks && writes % job->fsync_blocks == 0)
        return IOM_IO_SYNC;
    if (job->fdatasync_blocks && writes % job->fdatasync_blocks == 0)
        return IOM_IO_DATASYNC;
    return 0;
}

/*
 * end_fsync / fsync_on_close: one fsync(2) of target t's descriptor by a
 * thread of a writing job after its last I/O (fio backend.c do_io ->
 * fio_file_fsync; not counted in any statistics, as fio's TD_FSYNCING sync).
 * Nothing without job->end_fsync, for a job without writes (fio
 * should_fsync) or a target without a descriptor (null engine). A failure is
 * printed on stderr and the job goes on, as fio's "end_fsync failed".
 */
void iom_end_fsync(const struct iom_job *job, const struct iom_target *t);

#endif
