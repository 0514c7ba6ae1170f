/*
 * blockinfo.h - fio's block error histogram (block_error_percentiles; fio
 * 3.33 stat.h BLOCK_INFO*, io_u.c trim_block_info, iolog.c unlog_io_piece,
 * stat.c calc_block_percentiles): one 32-bit word per trim-sized block of a
 * job's file, the block's state in the top 3 bits and the number of trims
 * completed on it in the low 29.
 */
#ifndef IOMARK_STATS_BLOCKINFO_H
#define IOMARK_STATS_BLOCKINFO_H

#include <stdint.h>

#define IOM_BLOCK_INFO_MAX 8192u  /* fio's MAX_NR_BLOCK_INFOS */
#define IOM_BLOCK_STATE_SHIFT 29

enum iom_block_state { /* fio's BLOCK_STATE_* in its order */
    IOM_BLOCK_UNINIT,
    IOM_BLOCK_TRIMMED,
    IOM_BLOCK_WRITTEN,
    IOM_BLOCK_TRIM_FAILURE,
    IOM_BLOCK_WRITE_FAILURE,
    IOM_BLOCK_STATES
};

/* fio's names of the states ("unwritten", "trimmed", "written", "trim failure",
 * "write failure"), indexed by enum iom_block_state. */
extern const char *const iom_block_state_names[IOM_BLOCK_STATES];

/* A completed trim on the block *info (fio trim_block_info): unless it has
 * failed before, its state becomes trimmed and its trim count grows by one. */
void iom_block_trimmed(uint32_t *info);

/* A failed write (trim: trim != 0) on the block *info (fio unlog_io_piece):
 * unless it has failed before, its state becomes write (trim) failure, its
 * trim count kept. */
void iom_block_failed(uint32_t *info, int trim);

/*
 * fio's block lifetime percentiles (stat.c calc_block_percentiles): sorts a
 * copy of infos (n words) by category (unwritten; trimmed or written; failed),
 * then trim count, then state; for each of the np percentiles p (0-100,
 * ascending, as the report's percentile list) out[i] is the trim count of
 * the block at index p x (n - u) / 100 + u, u the unwritten blocks (fio's
 * integer truncation), and states[s] counts the blocks in each state.
 * Returns np, or 0 (out and states untouched) when every block is unwritten
 * or n is 0 or the copy cannot be allocated.
 */
uint32_t iom_block_percentiles(const uint32_t *infos, uint32_t n, const double *plist, uint32_t np,
                               uint32_t *out, uint32_t states[IOM_BLOCK_STATES]);

#endif
