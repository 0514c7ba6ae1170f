/*
 * compare.h - the statistics behind `iomark compare`: summary of repeated
 * runs, relative change with a direction, and Welch's two-sample t-test
 * with its p-value. Pure maths, no printing and no I/O.
 *
 * Sources:
 * - Welch's t and the Welch-Satterthwaite degrees of freedom: B. L. Welch,
 *   "The generalization of Student's problem when several different
 *   population variances are involved", Biometrika 34 (1947) 28-35;
 *   NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.5.3.
 * - Student's t distribution through the regularized incomplete beta
 *   function, A(t|nu) = 1 - I_{nu/(nu+t^2)}(nu/2, 1/2): Abramowitz & Stegun,
 *   Handbook of Mathematical Functions (1964), 26.7.1 and 26.5.27.
 * - I_x(a,b) by its continued fraction (A&S 26.5.8) evaluated with the
 *   modified Lentz method, as in Press et al., Numerical Recipes in C, 2nd
 *   ed. (1992), section 6.4 (betai/betacf).
 */
#ifndef IOMARK_STATS_COMPARE_H
#define IOMARK_STATS_COMPARE_H

#include <stddef.h>

/* Summary of n samples: mean, sample standard deviation (n - 1 in the
 * denominator; 0 when n < 2), min, max. NAN samples are skipped and not
 * counted. */
struct iom_sample_stats {
    size_t n;
    double mean, stddev, min, max;
};

/* Fill *s from x[0..n). n == 0 (or only NANs) gives n = 0 and NAN figures. */
void iom_sample_stats(const double *x, size_t n, struct iom_sample_stats *s);

/*
 * Standard deviation of x[0..n) (NANs skipped), two-pass. population != 0:
 * divide by the count (DiskSpd's IopsStdDev over its IoBucketizer buckets);
 * population == 0: the sample one, count - 1 (fio's bw/iops "stdev"), 0 for
 * a single value. *mean (may be NULL) gets the mean. With no value: returns
 * NAN and *mean = NAN.
 */
double iom_stddev(const double *x, size_t n, int population, double *mean);

/*
 * Regularized incomplete beta function I_x(a, b) for a, b > 0 and
 * 0 <= x <= 1 (A&S 26.5.8 continued fraction, NR 6.4). Returns NAN for
 * arguments outside that domain. Accurate to about 1e-12 relative.
 */
double iom_betai(double a, double b, double x);

/*
 * Two-sided p-value of Student's t statistic t with df > 0 degrees of
 * freedom (df need not be an integer): P(|T| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2).
 * Returns NAN when df <= 0 or t is NAN; 0 for infinite t.
 */
double iom_t_p_two_sided(double t, double df);

/* Result of Welch's test of "the two means are equal". */
struct iom_welch {
    double t;      /* (mean_b - mean_a) / sqrt(var_a/n_a + var_b/n_b) */
    double df;     /* Welch-Satterthwaite degrees of freedom */
    double p;      /* two-sided p-value */
};

/*
 * Welch's unequal-variance t-test between samples a (n_a values) and b
 * (n_b values); NANs are skipped. Returns 0 and fills *w, or -EINVAL when
 * either sample has fewer than 2 values. When both variances are 0 the test
 * degenerates: equal means give t = 0, p = 1; different means give
 * t = +-INFINITY, p = 0 and df = n_a + n_b - 2.
 */
int iom_welch_test(const double *a, size_t n_a, const double *b, size_t n_b, struct iom_welch *w);

/* Same test from summary figures (means, sample standard deviations, counts). */
int iom_welch_from_stats(const struct iom_sample_stats *a, const struct iom_sample_stats *b,
                         struct iom_welch *w);

/*
 * Relative change of `value` against `base` in percent, signed so that a
 * positive number is an improvement: better > 0 (more is better, IOPS):
 * (value - base) / base * 100; better < 0 (less is better, latency):
 * (base - value) / base * 100. NAN when base is 0 or either value is NAN.
 */
double iom_improvement_pct(double base, double value, int better);

/*
 * The knee of a scaling curve: points 0..n-1 in order of increasing
 * concurrency (outstanding I/O) with their IOPS and mean latency. The knee
 * is the first point i >= 1 from which on more concurrency adds little:
 * no point at or after i has more than min_gain_pct percent more IOPS than
 * the best point before i (max(iops[i..n-1]) < best * (1 + min_gain_pct/100)),
 * while latency still grows (lat[i] > the latency of that best point).
 * Comparing with the best so far and every later point, not just the
 * neighbour, keeps one noisy dip (or a grid step that trades threads for
 * queue depth) from being taken for the knee. Returns i, or -1 when IOPS
 * keep growing (or n < 2); *base_idx (may be NULL) gets the index of the
 * best point before the knee. NAN points are skipped.
 */
int iom_knee_find(const double *iops, const double *lat_us, size_t n, double min_gain_pct,
                  int *base_idx);

#endif
