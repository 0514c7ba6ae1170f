/*
 * sys/resource.h for Windows builds: getrusage(RUSAGE_SELF) with the user
 * and kernel times of GetProcessTimes (100 ns units converted to
 * struct timeval). Other fields are 0. Returns 0, or -1 with errno set
 * (EINVAL for a `who` other than RUSAGE_SELF).
 */
#ifndef IOMARK_PLATFORM_SYS_RESOURCE_H
#define IOMARK_PLATFORM_SYS_RESOURCE_H

#include <sys/time.h>

#define RUSAGE_SELF 0

struct rusage {
    struct timeval ru_utime;
    struct timeval ru_stime;
};

int getrusage(int who, struct rusage *ru);

#endif
