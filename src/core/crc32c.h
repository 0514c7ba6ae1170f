/*
 * crc32c.h - CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected
 * 0x82F63B78), the checksum of iSCSI (RFC 3720 appendix B.4), ext4 and
 * fio's verify=crc32c. Check value: crc32c("123456789") = 0xE3069283.
 * Uses the SSE4.2 crc32 instruction when the CPU has it, else a
 * slicing-by-8 table.
 */
#ifndef IOMARK_CORE_CRC32C_H
#define IOMARK_CORE_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Continue a CRC: crc is 0 for a new checksum (pre/post inversion inside). */
uint32_t iom_crc32c(uint32_t crc, const void *buf, size_t len);

#endif
