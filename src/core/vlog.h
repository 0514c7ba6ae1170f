/*
 * vlog.h - the blocks a verify job wrote, for its verify phase (fio's
 * do_verify=1: after the writes, read back and check every block written).
 *
 * As fio 3.33 (iolog.c log_io_piece, verify.c get_next_verify): a random
 * pattern with a random map (each block once per pass) reads the blocks back
 * in the order they were written; any other pattern (sequential, or
 * norandommap / random_generator=lfsr) reads them in offset order, and a block
 * overlapped by a later write is dropped (only the last write of a region is
 * read back). Pieces are (offset, length) in bytes; nothing else is kept.
 */
#ifndef IOMARK_CORE_VLOG_H
#define IOMARK_CORE_VLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iom_vlog_piece {
    uint64_t offset;  /* bytes from the target's start */
    uint32_t len;     /* bytes */
    uint32_t seq;     /* write order (low 32 bits), for the overlap rule */
};

struct iom_vlog {
    bool on;                     /* the job logs its writes */
    bool in_order;               /* read back in write order (random map), else by offset */
    struct iom_vlog_piece *p;    /* owned; iom_vlog_free releases it */
    size_t n, cap, next;         /* pieces, allocated, next to read back */
};

/* Start an empty log (l zeroed by the caller); in_order as above. */
void iom_vlog_init(struct iom_vlog *l, bool in_order);

/* Log a write of len bytes at offset (at its issue, as fio). Returns 0 or
 * -ENOMEM (the log is unchanged). Amortised O(1). */
int iom_vlog_add(struct iom_vlog *l, uint64_t offset, uint32_t len);

/* End of the writes: by offset (not in_order), sort the pieces and drop every
 * piece a later piece overlaps (fio's rb-tree insert removes the older piece).
 * Then iom_vlog_next hands them out from the first. O(n log n + n k), k the
 * pieces within one block length of each other. */
void iom_vlog_seal(struct iom_vlog *l);

/* The next piece to read back into *offset, *len; false when none is left. */
bool iom_vlog_next(struct iom_vlog *l, uint64_t *offset, uint32_t *len);

/* Forget every piece (a new pass) / free the log. */
void iom_vlog_clear(struct iom_vlog *l);
void iom_vlog_free(struct iom_vlog *l);

#endif
