/* fuzz_diskspd.c - libFuzzer harness: the DiskSpd command-line front end. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_util.h"
#include "workload/diskspd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **argv;
    char *buf;
    int argc = fuzz_split_args(data, size, &argv, &buf);
    struct iom_diskspd ds;
    struct iom_run_opts ro = {0};
    char err[512];
    if (iom_diskspd_parse(argc, argv, 0, &ds, &ro, err, sizeof(err)) == 0)
        iom_diskspd_resolve(&ds, UINT64_C(1) << 30, err, sizeof(err));
    iom_diskspd_free(&ds); /* safe after a failed parse too */
    free(argv);
    free(buf);
    return 0;
}
