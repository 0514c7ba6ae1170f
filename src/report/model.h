/*
 * model.h (report) - writers of `iomark model`: the FIT document and its
 * text summary, and the predictions (MVA and DES side by side) as text or
 * JSON. Writers only read the structures (model/fit.h); all maths is in
 * src/model. Layout of the documents: docs/model.md.
 */
#ifndef IOMARK_REPORT_MODEL_H
#define IOMARK_REPORT_MODEL_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "model/fit.h"

/* The FIT document (schema iomark-model, type model_fit) of a fitted model;
 * sources[] are the input file names. New cJSON tree (caller frees) or NULL
 * when out of memory. */
cJSON *iom_model_fit_json(const struct iom_fit *f, const char *const *sources, unsigned nsources);

/* Text summary of a fit: the device, the limits and each point's error. */
void iom_model_fit_text(FILE *out, const struct iom_fit *f);

/* The predictions of n scenarios (sc[i] gave pr[i]) on the model read from
 * fit_path: a document of type model_prediction. NULL when out of memory. */
cJSON *iom_model_pred_json(const struct iom_fit *f, const char *fit_path,
                           const struct iom_scenario *sc, const struct iom_prediction *pr,
                           unsigned n);

/* The same as aligned text: one column pair (MVA, DES) per scenario. */
void iom_model_pred_text(FILE *out, const struct iom_fit *f, const char *fit_path,
                         const struct iom_scenario *sc, const struct iom_prediction *pr,
                         unsigned n);

/* Predicted vs measured for points the model was not fitted on
 * (iom_fit_check): a document of type model_check. NULL when out of memory. */
cJSON *iom_model_check_json(const struct iom_fit *model, const char *fit_path,
                            const struct iom_fit *check, const char *const *sources,
                            unsigned nsources);

/* The same as text: the device, the checked documents' limits, one row per point. */
void iom_model_check_text(FILE *out, const struct iom_fit *model, const char *fit_path,
                          const struct iom_fit *check);

/* What an `iomark model` document is: 2 for a check (type model_check), 1 for
 * a fit (model_fit), 0 for anything else (not schema iomark-model, a
 * prediction, NULL). */
int iom_model_doc_kind(const cJSON *doc);

/*
 * `iomark report` of model documents: one self-contained HTML page (inline
 * SVG, no scripts) with, per document (docs[i], read from paths[i]; both
 * borrowed), three line charts against outstanding I/O (IOPS, mean and p99
 * latency in us): for every source file and thread count of its points[] a
 * measured series (solid) and a predicted one (dashed, the same colour),
 * every point carrying data-x (outstanding I/O) and data-y (the value as in
 * the document), then a table of the same pairs with their error in %.
 * title NULL = "iomark model: predicted vs measured". Returns 0, -EINVAL
 * when a document is not a model_check or model_fit, -EIO when writing
 * failed.
 */
int iom_model_html_report(FILE *f, const cJSON *const *docs, const char *const *paths,
                          unsigned n, const char *title);

#endif
