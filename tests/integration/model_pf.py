"""Product-form reference for iomark model's tests (test_model.sh,
test_model_report.sh): the closed network of a host station (T servers of
mean z) and a disk of rate min(min(j, L, c) / S, cap) with j I/Os present,
solved by normalising constants over the N + 1 splits of the population
(not MVA's recursion: an independent computation). Seconds throughout."""
import math


def marginal(S, c, z, L, T, N, cap=math.inf):
    """(mu_d, p): the disk's rate function and its marginal p[j], j = 0..N."""
    def mu_d(j):
        return min(min(j, L if L else j, c) / S, cap)
    if z == 0:
        return mu_d, [0.0] * N + [1.0]

    def mu_h(i):
        return min(i, T) / z
    lf_d = [0.0]
    lf_h = [0.0]
    for j in range(1, N + 1):
        lf_d.append(lf_d[-1] - math.log(mu_d(j)))
        lf_h.append(lf_h[-1] - math.log(mu_h(j)))
    w = [lf_d[j] + lf_h[N - j] for j in range(N + 1)]
    m = max(w)
    p = [math.exp(x - m) for x in w]
    s = sum(p)
    return mu_d, [x / s for x in p]


def product_form(S, c, z, L, T, N, cap=math.inf):
    """Throughput X and the mean time at the disk (the latency)."""
    mu_d, p = marginal(S, c, z, L, T, N, cap)
    X = sum(p[j] * mu_d(j) for j in range(1, N + 1))
    return X, sum(p[j] * j for j in range(N + 1)) / X
