/*
 * vtypes.h - the names, numbers and header sizes of fio 3.33's verify= types
 * (fio verify.h enum and struct vhdr_*, options.c "verify"), shared by the job
 * front ends (which check a job) and core/fioverify.h (which writes and checks
 * the blocks).
 */
#ifndef IOMARK_WORKLOAD_VTYPES_H
#define IOMARK_WORKLOAD_VTYPES_H

#include <stdbool.h>
#include <stdint.h>

/* fio's enum of verify types (verify.h), the numbers written in the header */
enum iom_fio_vtype {
    IOM_FV_NONE = 0,
    IOM_FV_META = 1, /* VERIFY_HDR_ONLY */
    IOM_FV_MD5,
    IOM_FV_CRC64,
    IOM_FV_CRC32,
    IOM_FV_CRC32C,
    IOM_FV_CRC32C_INTEL, /* fio writes IOM_FV_CRC32C for it */
    IOM_FV_CRC16,
    IOM_FV_CRC7,
    IOM_FV_SHA256,
    IOM_FV_SHA512,
    IOM_FV_SHA3_224,
    IOM_FV_SHA3_256,
    IOM_FV_SHA3_384,
    IOM_FV_SHA3_512,
    IOM_FV_XXHASH,
    IOM_FV_SHA1,
    IOM_FV_PATTERN, /* verify_pattern after the header */
    IOM_FV_COUNT
};

/* fio's name ("md5", "crc32c-intel", "meta", "pattern", ...) -> type; -1 if
 * fio 3.33 has no such verify= value iomark writes ("null", "pattern" without
 * header are not here). */
int iom_fio_verify_type(const char *name);

/* The type's fio name (static). */
const char *iom_fio_verify_name(enum iom_fio_vtype t);

/* fio __hdr_size: 40 + the digest field's bytes. */
uint32_t iom_fio_verify_hdr_size(enum iom_fio_vtype t);

/* false when this build lacks the type's hash (md5, sha1, sha256, sha3-* on
 * Windows, where Nettle is not built). */
bool iom_fio_verify_available(enum iom_fio_vtype t);

/* "md5, sha1, ..." : the names this build writes, for error messages. */
const char *iom_fio_verify_names(void);

#endif
