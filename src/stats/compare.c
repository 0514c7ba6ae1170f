/* compare.c - summary statistics, Welch's t-test and relative change (see compare.h). */
#include "stats/compare.h"

#include <errno.h>
#include <float.h>
#include <math.h>

void iom_sample_stats(const double *x, size_t n, struct iom_sample_stats *s)
{
    s->n = 0;
    s->min = s->max = NAN;
    for (size_t i = 0; i < n; i++) {
        if (isnan(x[i]))
            continue;
        if (s->n == 0 || x[i] < s->min)
            s->min = x[i];
        if (s->n == 0 || x[i] > s->max)
            s->max = x[i];
        s->n++;
    }
    s->stddev = iom_stddev(x, n, 0, &s->mean);
}

double iom_stddev(const double *x, size_t n, int population, double *mean)
{
    double sum = 0, m;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i])) {
            sum += x[i];
            k++;
        }
    m = k ? sum / (double)k : NAN;
    if (mean)
        *mean = m;
    if (k == 0)
        return NAN;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            ss += (x[i] - m) * (x[i] - m);
    if (population)
        return sqrt(ss / (double)k);
    return k > 1 ? sqrt(ss / (double)(k - 1)) : 0;
}

/* Continued fraction of I_x(a,b) by the modified Lentz method (NR 6.4 betacf). */
static double betacf(double a, double b, double x)
{
    const int max_iter = 300;
    const double eps = 1e-15, fpmin = DBL_MIN / eps;
    double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < fpmin)
        d = fpmin;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= max_iter; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < fpmin)
            d = fpmin;
        c = 1 + aa / c;
        if (fabs(c) < fpmin)
            c = fpmin;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (fabs(d) < fpmin)
            d = fpmin;
        c = 1 + aa / c;
        if (fabs(c) < fpmin)
            c = fpmin;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < eps)
            break;
    }
    return h;
}

double iom_betai(double a, double b, double x)
{
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
        return NAN;
    if (x == 0 || x == 1)
        return x;
    /* front factor x^a (1-x)^b / (a B(a,b)), in logs (A&S 26.5.8) */
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    double bt = exp(lbt);
    /* the fraction converges fast for x < (a+1)/(a+b+2); else use symmetry
     * I_x(a,b) = 1 - I_{1-x}(b,a) (A&S 26.5.2) */
    if (x < (a + 1) / (a + b + 2))
        return bt * betacf(a, b, x) / a;
    return 1 - bt * betacf(b, a, 1 - x) / b;
}

double iom_t_p_two_sided(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    if (isinf(t))
        return 0;
    return iom_betai(df / 2, 0.5, df / (df + t * t));
}

int iom_welch_from_stats(const struct iom_sample_stats *a, const struct iom_sample_stats *b,
                         struct iom_welch *w)
{
    if (a->n < 2 || b->n < 2)
        return -EINVAL;
    double na = (double)a->n, nb = (double)b->n;
    double va = a->stddev * a->stddev / na, vb = b->stddev * b->stddev / nb;
    double diff = b->mean - a->mean;
    if (va + vb == 0) {
        w->df = na + nb - 2;
        if (diff == 0) {
            w->t = 0;
            w->p = 1;
        } else {
            w->t = diff > 0 ? INFINITY : -INFINITY;
            w->p = 0;
        }
        return 0;
    }
    w->t = diff / sqrt(va + vb);
    /* Welch-Satterthwaite */
    w->df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
    w->p = iom_t_p_two_sided(w->t, w->df);
    return 0;
}

int iom_welch_test(const double *a, size_t n_a, const double *b, size_t n_b, struct iom_welch *w)
{
    struct iom_sample_stats sa, sb;
    iom_sample_stats(a, n_a, &sa);
    iom_sample_stats(b, n_b, &sb);
    return iom_welch_from_stats(&sa, &sb, w);
}

double iom_improvement_pct(double base, double value, int better)
{
    if (isnan(base) || isnan(value) || base == 0)
        return NAN;
    double ch = (value - base) / fabs(base) * 100.0;
    return better < 0 ? -ch : ch;
}

int iom_knee_find(const double *iops, const double *lat_us, size_t n, double min_gain_pct,
                  int *base_idx)
{
    int best = -1;
    for (size_t i = 0; i < n; i++) {
        if (best >= 0 && !isnan(iops[i]) && iops[best] > 0) {
            double later = -INFINITY; /* best IOPS from i on */
            for (size_t k = i; k < n; k++)
                if (!isnan(iops[k]))
                    later = fmax(later, iops[k]);
            if (later < iops[best] * (1 + min_gain_pct / 100.0) && lat_us[i] > lat_us[best]) {
                if (base_idx)
                    *base_idx = best;
                return (int)i;
            }
        }
        if (!isnan(iops[i]) && (best < 0 || iops[i] > iops[best]))
            best = (int)i;
    }
    return -1;
}
