/*
 * sys/utsname.h for Windows builds (mingw-w64 has none): uname() filled from
 * RtlGetVersion (the true version, not the manifest-limited GetVersionEx)
 * and GetComputerNameExA. sysname is "Windows", release "10.0.19045" style
 * (major.minor.build). Returns 0, or -1 with errno set.
 */
#ifndef IOMARK_PLATFORM_SYS_UTSNAME_H
#define IOMARK_PLATFORM_SYS_UTSNAME_H

struct utsname {
    char sysname[65];
    char nodename[65];
    char release[65];
    char version[65];
    char machine[65];
};

int uname(struct utsname *u);

#endif
