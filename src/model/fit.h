/*
 * fit.h - fit the device model (model.h) to measured points, read the
 * points from iomark documents, and predict what-if scenarios with MVA and
 * DES side by side. docs/model.md describes the method.
 *
 * Units: seconds (double) unless a name says otherwise. Functions return 0
 * or -errno; those that take err/errlen write one line saying what is wrong
 * with the input (for "iomark model: ..." messages). Nothing prints or exits.
 */
#ifndef IOMARK_MODEL_FIT_H
#define IOMARK_MODEL_FIT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define IOM_FIT_MAXQ 12      /* quantiles kept: min, p25 ... p99.9999, max */
#define IOM_FIT_MAXPOINTS 256
#define IOM_MODEL_SCHEMA "iomark-model"
#define IOM_MODEL_SCHEMA_VERSION 1
/* A fit is poor when its rms error over the points it was fitted on is above
 * this, in IOPS or in mean latency (%; iom_fit_poor, docs/model.md "The fit"). */
#define IOM_FIT_POOR_PCT 25.0
#define IOM_FIT_MAXINCOMPLETE 16 /* incomplete source documents recorded */

/* A latency distribution given by quantiles: p[i] in percent (0 = min,
 * 100 = max), ascending; v_s[i] the value in seconds, non-decreasing. */
struct iom_quantiles {
    unsigned n;
    double p[IOM_FIT_MAXQ];
    double v_s[IOM_FIT_MAXQ];
    uint64_t samples; /* I/Os behind them */
};

/* One measured point (one run at threads x iodepth outstanding I/O). */
struct iom_fit_point {
    unsigned threads, iodepth;
    double iops, mean_s, p99_s;
    struct iom_quantiles q;
    double cpu_busy;  /* guest CPU busy (user + system) as a fraction of all its CPUs, 0..1;
                         NAN when the document has no cpu object */
    unsigned nr_cpus; /* CPUs behind cpu_busy (0 = unknown) */
    char source[160]; /* "file" or "file#point" */
    /* filled by iom_fit_device */
    double pred_iops, pred_mean_s, pred_p99_s;
};

/* A sweep document that did not run to its end (its status is not "ok": a
 * signal stopped it, or a point failed): the points it has are fitted. */
struct iom_fit_incomplete {
    char source[160];
    char status[16];            /* the document's status: "interrupted", "error" */
    char by[16];                /* its interrupted_by ("SIGINT" ...); "" when absent */
    unsigned measured, planned; /* points in the document; its planned_points (0 = unknown) */
};

/* The fitted model. */
struct iom_fit {
    struct iom_model_dev dev;      /* S (low-load mean), c (fitted), host_s */
    struct iom_model_limits limits; /* from the documents' probe */
    struct iom_quantiles svc;      /* service-time distribution (lowest-load point) */
    unsigned base;                 /* index of the lowest-load point in points[] */
    unsigned npoints;
    struct iom_fit_point points[IOM_FIT_MAXPOINTS];
    double rms_iops_err_pct, max_iops_err_pct, rms_mean_err_pct, max_mean_err_pct;
    int c_identified;  /* 0 when no point saturates: c is then only a lower bound */
    int guest_cpu;     /* set before iom_fit_device: 1 fit the guest-CPU station, 0 not,
                          -1 auto (when the documents come from a TCG lab guest) */
    int from_tcg;      /* set by iom_fit_load_docs: a document has lab.accelerator "tcg" */
    char rw[32];
    uint64_t bs_bytes;
    char target[256], driver[64], controller[96];
    /* set by iom_fit_load_docs: the sweep documents that are incomplete (the
     * first IOM_FIT_MAXINCOMPLETE of them; nincomplete counts all) */
    unsigned nincomplete;
    struct iom_fit_incomplete incomplete[IOM_FIT_MAXINCOMPLETE];
};

/*
 * Spread a quantile table into histogram h (cleared first): the mass between
 * consecutive quantiles a < b is spread uniformly over ln(value) in [a, b]
 * (a CDF linear in the logarithm, denser near a, as latency tails are; over
 * the value itself when a < 1 ns), `total` counts in all (rounded with carry
 * so they add up to total exactly). -EINVAL for fewer than 2 quantiles, decreasing
 * values or total 0.
 */
int iom_fit_hist_from_quantiles(struct iom_hist *h, const struct iom_quantiles *q,
                                uint64_t total);

/*
 * Read measured points from iomark documents (schema iomark-result): a
 * "sweep" gives every point with status ok (a sweep whose own status is not
 * ok is recorded in fit->incomplete), a "run" one point. All must be
 * one target and one rw/bs; the limits come from the first document's
 * targets[0].probe.disks[0] (adapter_queue, lun_queue, nr_requests,
 * nr_hw_queues; null = 0). fit->points/npoints, limits, rw, bs, target,
 * driver, controller are set. -EINVAL with err set for anything else.
 */
int iom_fit_load_docs(const char *const *paths, unsigned npaths, struct iom_fit *fit, char *err,
                      size_t errlen);

/*
 * Keep only the points with at most max_outstanding (threads x iodepth)
 * I/Os (fit on the low-depth part of a sweep). Returns the number kept;
 * points keep their order.
 */
unsigned iom_fit_keep_outstanding(struct iom_fit *fit, unsigned max_outstanding);

/*
 * Fit the device: S = mean latency of the lowest-load point (fewest
 * outstanding I/O, then fewest threads), its quantiles as the service
 * distribution; host_s = max(0, N/X - R) at that point (Little's law);
 * c >= 1 minimising sum (ln X_mva(N_i; c) - ln X_i)^2 over all points (grid
 * of 241 log-spaced values then golden-section refinement). With the
 * guest-CPU station (fit->guest_cpu 1, or -1 and fit->from_tcg) the CPU per
 * I/O D = min over the points of cpu_busy x nr_cpus / IOPS (utilisation law;
 * the smallest is the least inflated by CPU work not caused by the I/O) on
 * nr_cpus servers is set first, so c is fitted under that cap; without a
 * cpu object on every point it stays off. Then every
 * point's predicted IOPS and mean (MVA) and p99 (DES, seed `seed`) and the
 * error figures. fit->points must be loaded. -EINVAL when a point has no
 * positive IOPS/latency; -ENOMEM.
 */
int iom_fit_device(struct iom_fit *fit, uint64_t seed);

/* 1 when the fit is poor: its rms error over the points it was fitted on
 * (rms_iops_err_pct, rms_mean_err_pct, set by iom_fit_device or read from a
 * FIT document) is above IOM_FIT_POOR_PCT in IOPS or in mean latency; 0
 * otherwise (also when they are not known, NAN). */
int iom_fit_poor(const struct iom_fit *fit);

/* One scenario to predict. */
struct iom_scenario {
    char name[64];
    struct iom_model_limits limits;
    double parallelism;  /* c to use */
    double svc_scale;    /* service times x this (1 = as fitted) */
    unsigned threads, iodepth, burst; /* burst > 0: burst form */
    unsigned luns;       /* 0/1 = one LUN; K > 1: K LUNs share the adapter, I/O j on LUN j % K;
                            K must divide threads (closed loop) or burst */
    uint64_t des_ios;    /* I/Os simulated (closed: measured, at least min(500 x outstanding,
                            5000000); burst: over repeated bursts) */
    uint64_t seed;
};

struct iom_prediction {
    unsigned limit;                 /* L used by MVA per LUN (iom_model_limit_luns) */
    unsigned des_servers;           /* round(c), or round(min(c, m S / D)) with the guest-CPU
                                       station (the same bound m / D), at least 1 */
    unsigned des_runs;              /* burst: bursts simulated */
    struct iom_model_out mva, des;  /* mva.p99_s is NAN */
};

/* Run MVA and DES for a scenario on a fitted model. -EINVAL for a scenario
 * without threads/iodepth or burst; -ENOMEM. */
int iom_model_predict(const struct iom_fit *fit, const struct iom_scenario *sc,
                      struct iom_prediction *out);

/*
 * Check a model against other measured points (fit-on-one, predict-the-
 * others validation): for every point of `check` (loaded with
 * iom_fit_load_docs, so its limits are the checked documents' own probe
 * limits unless override is non-NULL) predict IOPS and mean (MVA) and p99
 * (DES, des_ios I/Os, seed) with model's device and fill check->points[].pred_*
 * and check's error figures. -EINVAL, -ENOMEM.
 */
int iom_fit_check(const struct iom_fit *model, struct iom_fit *check,
                  const struct iom_model_limits *override, uint64_t des_ios, uint64_t seed);

/* Read a FIT document written by iom_model_fit_json (report/model.h).
 * -EINVAL with err set when it is not one. */
int iom_fit_from_json(const cJSON *doc, struct iom_fit *fit, char *err, size_t errlen);

#endif
