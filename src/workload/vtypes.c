/* vtypes.c - fio's verify= types (vtypes.h). */
#include "workload/vtypes.h"

#include <string.h>

static const struct {
    const char *name;
    enum iom_fio_vtype type;
    uint32_t field; /* the digest field's bytes (fio struct vhdr_*) */
} types[] = {
    {"meta", IOM_FV_META, 0},         {"md5", IOM_FV_MD5, 16},
    {"crc64", IOM_FV_CRC64, 8},       {"crc32", IOM_FV_CRC32, 4},
    {"crc32c", IOM_FV_CRC32C, 4},     {"crc32c-intel", IOM_FV_CRC32C_INTEL, 4},
    {"crc16", IOM_FV_CRC16, 2},       {"crc7", IOM_FV_CRC7, 1},
    {"sha256", IOM_FV_SHA256, 64},    {"sha512", IOM_FV_SHA512, 128},
    {"sha3-224", IOM_FV_SHA3_224, 28}, {"sha3-256", IOM_FV_SHA3_256, 32},
    {"sha3-384", IOM_FV_SHA3_384, 48}, {"sha3-512", IOM_FV_SHA3_512, 64},
    {"xxhash", IOM_FV_XXHASH, 4},     {"sha1", IOM_FV_SHA1, 20},
    {"pattern", IOM_FV_PATTERN, 0},
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

int iom_fio_verify_type(const char *name)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (strcmp(types[i].name, name) == 0)
            return (int)types[i].type;
    return -1;
}

const char *iom_fio_verify_name(enum iom_fio_vtype t)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (types[i].type == t)
            return types[i].name;
    return "none";
}

uint32_t iom_fio_verify_hdr_size(enum iom_fio_vtype t)
{
    for (size_t i = 0; i < NTYPES; i++)
        if (types[i].type == t)
            return 40 + types[i].field;
    return 40;
}

bool iom_fio_verify_available(enum iom_fio_vtype t)
{
#ifndef _WIN32
    (void)t;
    return true;
#else
    return !(t == IOM_FV_MD5 || t == IOM_FV_SHA1 || t == IOM_FV_SHA256 ||
             (t >= IOM_FV_SHA3_224 && t <= IOM_FV_SHA3_512));
#endif
}

const char *iom_fio_verify_names(void)
{
#ifndef _WIN32
    return "meta, pattern, md5, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, sha3-512, "
           "crc64, crc32, crc32c, crc32c-intel, crc16, crc7, xxhash";
#else
    return "meta, pattern, sha512, crc64, crc32, crc32c, crc32c-intel, crc16, crc7, xxhash "
           "(md5, sha1, sha256 and sha3 need Nettle, not in the Windows build)";
#endif
}
