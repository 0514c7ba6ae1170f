/*
 * abuf.h - I/O buffers aligned for O_DIRECT on Linux and Windows: allocate with
 * posix_memalign(&p, alignment, bytes) (0 or ENOMEM), free with buf_free(p).
 * On Windows posix_memalign maps to _aligned_malloc, whose blocks must go back
 * through _aligned_free (Microsoft's CRT documentation of _aligned_malloc).
 */
#ifndef IOMARK_CORE_ABUF_H
#define IOMARK_CORE_ABUF_H

#include <errno.h>
#include <stdlib.h>

#ifdef _WIN32
#include <malloc.h>
#define posix_memalign(p, a, n) ((*(p) = _aligned_malloc((n), (a))) ? 0 : ENOMEM)
#define buf_free _aligned_free
#else
#define buf_free free
#endif

#endif
