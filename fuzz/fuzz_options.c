/* fuzz_options.c - libFuzzer harness: the native option parser. The input
 * is split at newlines into argv words. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "workload/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char **argv;
    char *buf;
    int argc = fuzz_split_args(data, size, &argv, &buf);
    struct iom_job job;
    struct iom_run_opts ro = {0};
    char err[512];
    iom_job_defaults(&job);
    if (iom_options_parse(argc, argv, 0, &job, &ro, err, sizeof(err)) == 0) {
        const char *opt, *why;
        iom_job_validate(&job, &opt, &why);
    }
    iom_job_free(&job);
    free(argv);
    free(buf);
    return 0;
}
