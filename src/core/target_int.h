/*
 * target_int.h - the part of the target checks that is the same on every
 * system (target.c on Linux, target_win.c on Windows). Internal to src/core.
 */
#ifndef IOMARK_CORE_TARGET_INT_H
#define IOMARK_CORE_TARGET_INT_H

#include <stddef.h>
#include <stdint.h>

#include "core/target.h"

/*
 * With t->size_bytes, t->logical_block_bytes set and `need` the bytes the
 * job needs (offset + size, or --create size; 0 = the whole target): set
 * t->need_bytes, t->region_start and t->region_len, and check the region
 * (not empty, offset inside, at least one block) and, for direct I/O, that
 * every block size, the offset, blockalign and strides are multiples of the
 * logical block size. Returns 0, or -EINVAL with one line in err naming the
 * option at fault and what is allowed.
 */
int iom_target_check_region(const struct iom_job *job, const char *path, struct iom_target *t,
                            uint64_t need, char *err, size_t errlen);

#endif
