/*
 * ioevents.h - a worker thread's syncs (core/worker.c) that need none of its
 * own state: when fio issues a sync between writes, and the sync at a job's
 * end. Internal to src/core.
 */
#ifndef IOMARK_CORE_IOEVENTS_H
#define IOMARK_CORE_IOEVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/target.h"
#include "engine/engine.h"
#include "workload/spec.h"

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
