/* cpu_win.c - system CPU times per processor on Windows (declared in
 * platform/include/iom_compat_win.h; cpu.c calls it for the live system). */
#include <windows.h>

#include <errno.h>
#include <stdlib.h>
#include <winternl.h>

#include "stats/cpu.h"

int iom_win_cpu_sample(struct iom_cpu_sample *s)
{
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    ULONG n = si.dwNumberOfProcessors ? si.dwNumberOfProcessors : 1, got = 0;
    SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION *p = calloc(n, sizeof(*p));
    if (!p)
        return -ENOMEM;
    NTSTATUS st = NtQuerySystemInformation(SystemProcessorPerformanceInformation, p,
                                           n * (ULONG)sizeof(*p), &got);
    if (st < 0) {
        free(p);
        return -EIO;
    }
    n = got / (ULONG)sizeof(*p);
    for (ULONG i = 0; i < n; i++) {
        uint64_t idle = (uint64_t)p[i].IdleTime.QuadPart;
        uint64_t kernel = (uint64_t)p[i].KernelTime.QuadPart; /* includes idle */
        uint64_t user = (uint64_t)p[i].UserTime.QuadPart;
        uint64_t sys = kernel > idle ? kernel - idle : 0;
        s->user += user;
        s->system += sys;
        s->idle += idle;
        if (s->nr_percpu < IOM_CPU_MAX) {
            struct iom_cpu_ticks *t = &s->percpu[s->nr_percpu++];
            t->id = (uint32_t)i;
            t->user = user;
            t->system = sys;
            t->idle = idle;
        }
    }
    free(p);
    return 0;
}
