/* fuzz_model.c - libFuzzer harness: the FIT document reader of `iomark model`
 * (model/fitdoc.c) and, for a document it accepts, one small prediction
 * (MVA and a short DES) so that extreme but accepted values are exercised. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    cJSON *doc = cJSON_Parse(text);
    free(text);
    struct iom_fit *f = calloc(1, sizeof(*f));
    char err[600];
    if (doc && f && iom_fit_from_json(doc, f, err, sizeof(err)) == 0) {
        struct iom_scenario sc = {.limits = f->limits, .parallelism = f->dev.parallelism,
                                  .svc_scale = 1, .threads = 2, .iodepth = 4, .des_ios = 1000,
                                  .seed = 1};
        struct iom_prediction pr;
        (void)iom_model_predict(f, &sc, &pr);
        sc.burst = 16;
        sc.luns = 2;
        (void)iom_model_predict(f, &sc, &pr);
    }
    cJSON_Delete(doc);
    free(f);
    return 0;
}
