/*
 * sys/sysmacros.h for Windows builds: major()/minor()/makedev() over the
 * 32-bit dev_t of mingw-w64 (12 bits major, 20 bits minor, as Linux's old
 * encoding). Windows has no device numbers; iomark keeps them 0 there.
 */
#ifndef IOMARK_PLATFORM_SYS_SYSMACROS_H
#define IOMARK_PLATFORM_SYS_SYSMACROS_H

#define major(d) ((unsigned)(((d) >> 20) & 0xfffu))
#define minor(d) ((unsigned)((d)&0xfffffu))
#define makedev(ma, mi) ((((unsigned)(ma)&0xfffu) << 20) | ((unsigned)(mi)&0xfffffu))

#endif
