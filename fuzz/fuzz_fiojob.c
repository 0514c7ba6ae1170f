/* fuzz_fiojob.c - libFuzzer harness: the fio job-file parser. The first
 * byte's low bit turns --ignore-unknown on. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workload/fiojob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct iom_fio_parse_opts po;
    memset(&po, 0, sizeof(po));
    po.ignore_unknown = size && (data[0] & 1);
    struct iom_fio_file *f = calloc(1, sizeof(*f));
    char err[512];
    if (f && iom_fio_parse_text(text, &po, f, err, sizeof(err)) == 0)
        iom_fio_file_free(f);
    free(f);
    free(text);
    return 0;
}
