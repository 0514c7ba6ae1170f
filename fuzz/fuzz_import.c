/* fuzz_import.c - libFuzzer harness for one result importer, chosen at
 * build time with -DIMPORTER=iom_import_xxx; without it the content-based
 * dispatcher (iom_import_buffer) is fuzzed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
#ifdef IMPORTER
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct iom_imp_result *res = calloc(1, sizeof(*res));
    if (res) {
        IMPORTER.probe(text, size);
        IMPORTER.parse(text, size, res, err, sizeof(err));
        iom_imp_result_free(res);
    }
    free(text);
#else
    struct iom_imp_result *res = NULL;
    if (iom_import_buffer("fuzz", (const char *)data, size, &res, err, sizeof(err)) == 0)
        iom_imp_result_free(res);
#endif
    return 0;
}
