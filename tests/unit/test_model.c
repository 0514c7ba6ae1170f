/* test_model.c - the queueing model (src/model) against textbook results
 * computed here independently: M/M/1 mean response 1/(mu - lambda), M/M/c
 * with Erlang's C formula, M/M/1/K blocking, the machine-repairman closed
 * network (Kleinrock, Queueing Systems Vol. 1, sections 3.2, 3.4, 3.6, 3.8),
 * Little's law on the simulator's own output, and burst makespans of a
 * constant service time. Every simulation is seeded, so results repeat. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "model/fit.h"
#include "model/model.h"

/* Erlang C: probability an arrival waits in M/M/c with offered load a = lambda/mu. */
static double erlang_c(unsigned c, double a)
{
    double term = 1, sum = 1; /* sum_{k<c} a^k/k! */
    for (unsigned k = 1; k < c; k++) {
        term *= a / k;
        sum += term;
    }
    double last = term * a / c; /* a^c / c! */
    double rho = a / c;
    double top = last / (1 - rho);
    return top / (sum + top);
}

/* Machine repairman (finite source): N machines, mean up time Z, c repairmen,
 * mean repair S, all exponential. p(n) from the birth-death balance equations
 * lambda_n = (N - n)/Z, mu_n = min(n, c)/S. Returns throughput; *r_out the
 * mean time at the repair station (N/X - Z), *guest_out E[max(0, n - L)]. */
static double repairman(unsigned N, double Z, unsigned c, double S, unsigned L, double *r_out,
                        double *guest_out)
{
    double *p = calloc(N + 1, sizeof(double));
    p[0] = 1;
    double norm = 1;
    for (unsigned n = 1; n <= N; n++) {
        p[n] = p[n - 1] * ((double)(N - n + 1) / Z) / ((double)(n < c ? n : c) / S);
        norm += p[n];
    }
    double x = 0, g = 0;
    for (unsigned n = 0; n <= N; n++) {
        p[n] /= norm;
        x += p[n] * (n < c ? n : c) / S;
        if (L && n > L)
            g += p[n] * (n - L);
    }
    free(p);
    *r_out = N / x - Z;
    if (guest_out)
        *guest_out = g;
    return x;
}

static void test_mm1(void)
{
    struct iom_svc s;
    CHECK(iom_svc_simple(&s, IOM_SVC_EXP, 1e-3) == 0); /* mu = 1000/s */
    struct iom_des_open_out o;
    double lambda = 500;
    CHECK(iom_des_open(&s, 1, lambda, 0, 10000, 1000000, 42, &o) == 0);
    double w = 1.0 / (1000.0 - lambda); /* 2 ms */
    CHECK_NEAR(o.mean_response_s, w, 0.02);
    CHECK(o.blocked == 0);
    /* Little's law on the simulator: L = lambda W */
    CHECK_NEAR(o.mean_in_system, o.throughput * o.mean_response_s, 0.01);
    CHECK_NEAR(o.mean_in_system, lambda * w, 0.03); /* textbook L = rho/(1-rho) = 1 */
}

static void test_mmc(void)
{
    struct iom_svc s;
    CHECK(iom_svc_simple(&s, IOM_SVC_EXP, 4e-3) == 0); /* mu = 250/s per server */
    unsigned c = 4;
    double lambda = 750, mu = 250, a = lambda / mu; /* rho = 0.75 */
    double w = erlang_c(c, a) / (c * mu - lambda) + 1 / mu;
    CHECK_NEAR(erlang_c(2, 1.0), 1.0 / 3.0, 1e-12); /* hand value: C(2, 1) = 1/3 */
    struct iom_des_open_out o;
    CHECK(iom_des_open(&s, c, lambda, 0, 10000, 1000000, 7, &o) == 0);
    CHECK_NEAR(o.mean_response_s, w, 0.02);
    CHECK_NEAR(o.mean_in_system, o.throughput * o.mean_response_s, 0.01);
}

static void test_mm1k(void)
{
    struct iom_svc s;
    CHECK(iom_svc_simple(&s, IOM_SVC_EXP, 1e-3) == 0);
    unsigned K = 5;
    double rho = 0.9;
    double pb = (1 - rho) * pow(rho, K) / (1 - pow(rho, K + 1)); /* Kleinrock (3.45) */
    struct iom_des_open_out o;
    CHECK(iom_des_open(&s, 1, rho * 1000, K, 10000, 1000000, 11, &o) == 0);
    CHECK_NEAR(o.blocking, pb, 0.03);
    /* carried load: throughput = lambda (1 - Pb) */
    CHECK_NEAR(o.throughput, rho * 1000 * (1 - pb), 0.01);
}

static void test_mva_repairman(void)
{
    /* threads = N: the host station is a pure delay of Z (one I/O per thread) */
    struct {
        unsigned N, c, L;
        double Z, S;
    } cases[] = {
        {1, 1, 0, 1e-3, 1e-3},   {10, 1, 0, 5e-3, 1e-3},  {10, 3, 0, 2e-3, 1e-3},
        {64, 8, 0, 1e-5, 1e-4},  {400, 32, 0, 1e-6, 1e-3}, /* deep saturation */
        {300, 64, 20, 1e-5, 1e-4},                        /* limit below c */
        {300, 16, 40, 1e-5, 1e-4},                        /* c below limit */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        unsigned N = cases[i].N, c = cases[i].c, L = cases[i].L;
        struct iom_model_dev d = {.svc_mean_s = cases[i].S, .parallelism = c, .host_s = cases[i].Z};
        struct iom_model_out o;
        CHECK(iom_mva_closed(&d, L, N, N, &o) == 0);
        unsigned ceff = L && L < c ? L : c;
        double r, g;
        double x = repairman(N, cases[i].Z, ceff, cases[i].S, L, &r, &g);
        CHECK_NEAR(o.iops, x, 1e-9);
        CHECK_NEAR(o.mean_s, r, 1e-9);
        CHECK_NEAR(o.n_guest, g, 1e-6 + (g > 0 ? 0 : 1));
        CHECK_NEAR(o.guest_s + o.queue_s + o.device_s, o.mean_s, 1e-9);
        CHECK_NEAR(o.device_s, cases[i].S, 1e-9);
        CHECK_NEAR(o.host_s, cases[i].Z, 1e-9);
    }
    /* no host time: all N at the disk; X = min(N, L, c)/S exactly */
    struct iom_model_dev d = {.svc_mean_s = 1e-3, .parallelism = 8, .host_s = 0};
    struct iom_model_out o;
    CHECK(iom_mva_closed(&d, 4, 1, 100, &o) == 0);
    CHECK_NEAR(o.iops, 4000, 1e-12);
    CHECK_NEAR(o.mean_s, 100 / 4000.0, 1e-12);
    CHECK_NEAR(o.guest_s, 96 / 4000.0, 1e-12);
    CHECK(fabs(o.queue_s) < 1e-15);
}

/* The guest-CPU station (m CPUs, D of CPU per I/O) caps the disk's rate at
 * m / D: the machine-repairman balance equations with the repair rate
 * min(min(n, c) / S, m / D), solved here by hand, and the utilisation law
 * X <= m / D (Lazowska et al. 1984, ch. 5). */
static void test_cpu_cap(void)
{
    const unsigned N = 50, c = 8;
    const double Z = 1e-3, S = 1e-3, m = 2, D = 5e-4; /* cap 4000/s below c / S = 8000/s */
    double *p = calloc(N + 1, sizeof(double)), norm = 1, x = 0;
    p[0] = 1;
    for (unsigned n = 1; n <= N; n++) {
        double mu = fmin((n < c ? n : c) / S, m / D);
        p[n] = p[n - 1] * ((double)(N - n + 1) / Z) / mu;
        norm += p[n];
    }
    for (unsigned n = 1; n <= N; n++)
        x += p[n] / norm * fmin((n < c ? n : c) / S, m / D);
    free(p);
    struct iom_model_dev d = {.svc_mean_s = S, .parallelism = c, .host_s = Z, .cpu_s = D,
                              .cpu_servers = m};
    struct iom_model_out o;
    CHECK(iom_mva_closed(&d, 0, N, N, &o) == 0);
    CHECK_NEAR(o.iops, x, 1e-9);
    CHECK_NEAR(o.mean_s, N / x - Z, 1e-9);
    CHECK(o.iops <= m / D * (1 + 1e-12));
    /* without host time every I/O is at the disk: X = m / D exactly */
    d.host_s = 0;
    CHECK(iom_mva_closed(&d, 0, 1, 64, &o) == 0);
    CHECK_NEAR(o.iops, m / D, 1e-12);
    /* a cap above the device's rate changes nothing */
    d.cpu_s = 1e-5;
    CHECK(iom_mva_closed(&d, 0, 1, 64, &o) == 0);
    CHECK_NEAR(o.iops, c / S, 1e-12);
    /* burst: completions at most every D / m; makespan (n - k) max(S/k, D/m) + S H(k) */
    d.cpu_s = D;
    CHECK(iom_mva_burst(&d, 0, 1000, &o) == 0);
    double h = 0;
    for (unsigned j = 1; j <= c; j++)
        h += 1.0 / j;
    CHECK_NEAR(o.makespan_s, (1000 - c) * D / m + S * h, 1e-12);
    /* the prediction's DES gets the same bound: m S / D = 4 servers of S */
    struct iom_fit *f = calloc(1, sizeof(*f));
    f->dev = (struct iom_model_dev){.svc_mean_s = S, .parallelism = c, .host_s = 0, .cpu_s = D,
                                    .cpu_servers = m};
    struct iom_scenario sc = {.parallelism = c, .svc_scale = 1, .threads = 1, .iodepth = 32,
                              .des_ios = 200000, .seed = 3};
    struct iom_prediction pr;
    CHECK(iom_model_predict(f, &sc, &pr) == 0);
    CHECK(pr.des_servers == 4);
    CHECK_NEAR(pr.mva.iops, m / D, 1e-9);
    CHECK_NEAR(pr.des.iops, m / D, 0.02);
    free(f);
    /* a CPU station needs at least one CPU */
    d.cpu_servers = 0;
    CHECK(iom_mva_closed(&d, 0, 1, 4, &o) != 0);
}

/* The simulator on the closed network with threads = N (the host is a pure
 * delay, insensitive to its distribution) matches the exact MVA means. */
static void test_des_vs_mva(void)
{
    struct iom_svc s;
    CHECK(iom_svc_simple(&s, IOM_SVC_EXP, 1e-4) == 0);
    unsigned N = 96, c = 8, L = 32;
    double Z = 5e-4;
    struct iom_des_cfg cfg = {.svc = &s, .servers = c, .limit = L, .threads = N, .iodepth = 1,
                              .host_s = Z, .warmup_ios = 20000, .measure_ios = 400000,
                              .seed = 3};
    struct iom_model_out ds, ms;
    struct iom_des_extra ex;
    CHECK(iom_des_run(&cfg, &ds, &ex) == 0);
    struct iom_model_dev d = {.svc_mean_s = 1e-4, .parallelism = c, .host_s = Z};
    CHECK(iom_mva_closed(&d, L, N, N, &ms) == 0);
    double r;
    double x = repairman(N, Z, c, 1e-4, 0, &r, NULL);
    CHECK_NEAR(ms.iops, x, 1e-9);
    CHECK_NEAR(ds.iops, x, 0.02);
    CHECK_NEAR(ds.mean_s, r, 0.02);
    CHECK_NEAR(ds.n_guest, ms.n_guest, 0.05);
    /* Little's law on the simulator's output: time-average in latency = X W */
    CHECK_NEAR(ex.mean_in_system, ds.iops * ds.mean_s, 0.01);
    CHECK_NEAR(ds.guest_s + ds.queue_s + ds.device_s, ds.mean_s, 1e-9);
    /* seeded: the same seed gives the same numbers */
    struct iom_model_out ds2;
    CHECK(iom_des_run(&cfg, &ds2, NULL) == 0);
    CHECK(ds2.iops == ds.iops && ds2.mean_s == ds.mean_s && ds2.p99_s == ds.p99_s);

    /* threads x iodepth closed loop without host time: Little with N in latency */
    struct iom_des_cfg c2 = {.svc = &s, .servers = 4, .limit = 16, .threads = 8, .iodepth = 8,
                             .host_s = 0, .warmup_ios = 10000, .measure_ios = 200000,
                             .seed = 5};
    CHECK(iom_des_run(&c2, &ds, &ex) == 0);
    CHECK_NEAR(ds.iops, 4 / 1e-4, 0.01);
    CHECK_NEAR(ex.mean_in_system, 64, 0.01);
    CHECK_NEAR(ex.mean_in_system, ds.iops * ds.mean_s, 0.01);
}

static void test_burst(void)
{
    /* constant service S, k = min(L, c) servers: I/O i completes at ceil(i/k) S */
    struct iom_svc s;
    CHECK(iom_svc_simple(&s, IOM_SVC_DET, 1e-3) == 0);
    unsigned n = 800, c = 256, L = 64;
    struct iom_des_cfg cfg = {.svc = &s, .servers = c, .limit = L, .burst = n, .seed = 1};
    struct iom_model_out o;
    CHECK(iom_des_run(&cfg, &o, NULL) == 0);
    double sum = 0;
    for (unsigned i = 1; i <= n; i++)
        sum += ceil((double)i / L) * 1e-3;
    CHECK_NEAR(o.mean_s, sum / n, 1e-9);
    CHECK_NEAR(o.makespan_s, ceil((double)n / L) * 1e-3, 1e-9);
    CHECK_U64(o.ios, n);
    CHECK(fabs(o.queue_s) < 1e-12); /* L < c: nobody waits in the LUN queue */
    /* p99: rank 792 of 800 completes in round ceil(792/64) = 13 */
    CHECK_NEAR(o.p99_s, 13e-3, 1.0 / 128);

    /* exponential service: DES means over seeds approach the MVA burst means */
    CHECK(iom_svc_simple(&s, IOM_SVC_EXP, 1e-3) == 0);
    struct iom_model_dev d = {.svc_mean_s = 1e-3, .parallelism = 32, .host_s = 0};
    struct iom_model_out m;
    CHECK(iom_mva_burst(&d, 64, n, &m) == 0);
    double mean = 0, mk = 0, g = 0, q = 0;
    int runs = 200;
    for (int r = 0; r < runs; r++) {
        struct iom_des_cfg b = {.svc = &s, .servers = 32, .limit = 64, .burst = n,
                                .seed = 100 + (uint64_t)r};
        CHECK(iom_des_run(&b, &o, NULL) == 0);
        mean += o.mean_s / runs;
        mk += o.makespan_s / runs;
        g += o.guest_s / runs;
        q += o.queue_s / runs;
    }
    CHECK_NEAR(mean, m.mean_s, 0.01);
    CHECK_NEAR(mk, m.makespan_s, 0.01);
    CHECK_NEAR(g, m.guest_s, 0.02);
    CHECK_NEAR(q, m.queue_s, 0.02);
    /* hand check of the MVA burst means: k = 32, S/k = 1/32 ms; guest wait of
     * I/O i is (i - 64)/32 ms for i > 64: sum_{j=1}^{736} j / 32 / 800 ms */
    CHECK_NEAR(m.guest_s, (736.0 * 737 / 2) / 32 / 800 * 1e-3, 1e-12);
}

/* Several LUNs sharing an adapter queue. With a constant service time and
 * c above every limit, all admitted I/Os are in service, so the answers are
 * exact: throughput = (I/Os below the driver) / S. */
static void test_luns(void)
{
    struct iom_svc s;
    CHECK(iom_svc_simple(&s, IOM_SVC_DET, 1e-3) == 0);
    /* 8 LUNs x LUN queue 64 = 512 > adapter 256: the adapter binds */
    struct iom_des_cfg c = {.svc = &s, .servers = 512, .limit = 64, .adapter_limit = 256,
                            .luns = 8, .threads = 8, .iodepth = 100, .warmup_ios = 20000,
                            .measure_ios = 200000, .seed = 1};
    struct iom_model_out o;
    struct iom_des_extra ex;
    CHECK(iom_des_run(&c, &o, &ex) == 0);
    CHECK_NEAR(o.iops, 256 / 1e-3, 0.01);
    CHECK_NEAR(o.mean_s, 800 / (256 / 1e-3), 0.01); /* Little: N / X */
    CHECK_NEAR(ex.mean_in_system, 800, 0.01);
    CHECK_NEAR(o.n_guest, 800 - 256, 0.01);
    CHECK(o.queue_s < 1e-12);
    /* adapter 1024: each LUN's 64 binds, 8 x 64 = 512 below the driver */
    c.adapter_limit = 1024;
    CHECK(iom_des_run(&c, &o, NULL) == 0);
    CHECK_NEAR(o.iops, 512 / 1e-3, 0.01);
    /* the MVA share: adapter 256 over 8 LUNs = 32 each; 8 x 32 / S */
    struct iom_model_limits l = {.adapter_queue = 256, .lun_queue = 64};
    CHECK_U64(iom_model_limit_luns(&l, 8), 32);
    CHECK_U64(iom_model_limit_luns(&l, 2), 64);
    CHECK_U64(iom_model_lun_limit(&l), 64);
    /* burst of 800 on 8 LUNs behind adapter 256: rounds of 256, I/O i done at ceil(i/256) S */
    struct iom_des_cfg b = {.svc = &s, .servers = 512, .limit = 64, .adapter_limit = 256,
                            .luns = 8, .burst = 800, .seed = 1};
    CHECK(iom_des_run(&b, &o, NULL) == 0);
    double sum = 0;
    for (unsigned i = 1; i <= 800; i++)
        sum += ceil(i / 256.0) * 1e-3;
    CHECK_NEAR(o.mean_s, sum / 800, 1e-9);
    CHECK_NEAR(o.makespan_s, 4e-3, 1e-9);
    /* one LUN: the adapter and the LUN limit act as their minimum */
    struct iom_des_cfg one = {.svc = &s, .servers = 512, .limit = 64, .adapter_limit = 32,
                              .burst = 800, .seed = 1};
    CHECK(iom_des_run(&one, &o, NULL) == 0);
    CHECK_NEAR(o.makespan_s, 25e-3, 1e-9); /* 800 / 32 rounds */
}

static void test_hist_svc(void)
{
    struct iom_hist *h = calloc(1, sizeof(*h));
    /* 3/4 of services at 100 us, 1/4 at 1 ms: mean 325 us */
    iom_hist_add_n(h, 100000, 3000);
    iom_hist_add_n(h, 1000000, 1000);
    struct iom_svc s;
    CHECK(iom_svc_from_hist(&s, h) == 0);
    CHECK_NEAR(s.mean_s, 325e-6, 1.0 / 128);
    struct iom_model_rng r;
    iom_model_rng_seed(&r, 9);
    double sum = 0;
    unsigned big = 0, n = 400000;
    for (unsigned i = 0; i < n; i++) {
        double v = iom_svc_sample(&s, &r);
        sum += v;
        big += v > 500e-6;
    }
    CHECK_NEAR(sum / n, 325e-6, 0.01);
    CHECK_NEAR((double)big / n, 0.25, 0.02);
    iom_svc_free(&s);
    iom_hist_reset(h);
    CHECK(iom_svc_from_hist(&s, h) == -22);
    free(h);
}

static void test_limit(void)
{
    struct iom_model_limits l = {.adapter_queue = 256, .lun_queue = 64, .nr_requests = 128,
                                 .hw_queues = 1};
    CHECK_U64(iom_model_limit(&l), 64);
    l.lun_queue = 254;
    l.adapter_queue = 1024;
    CHECK_U64(iom_model_limit(&l), 128); /* nr_requests x 1 */
    l.hw_queues = 4;
    CHECK_U64(iom_model_limit(&l), 254); /* 128 x 4 = 512 */
    struct iom_model_limits none = {0};
    CHECK_U64(iom_model_limit(&none), 0);
}

static void test_quantile_hist(void)
{
    /* half the mass log-uniform on [10, 20] us, half on [20, 40] us: the quartiles are
     * the geometric midpoints 10 sqrt(2) and 20 sqrt(2) us, the mean of a log-uniform
     * [a, b] is (b - a) / ln(b / a) */
    struct iom_quantiles q = {.n = 3, .p = {0, 50, 100}, .v_s = {10e-6, 20e-6, 40e-6}};
    struct iom_hist *h = calloc(1, sizeof(*h));
    CHECK(iom_fit_hist_from_quantiles(h, &q, 1000000) == 0);
    CHECK_U64(iom_hist_total(h), 1000000);
    CHECK_NEAR((double)iom_hist_percentile(h, 50), 20000, 1.0 / 64);
    CHECK_NEAR((double)iom_hist_percentile(h, 25), 10000 * sqrt(2.0), 1.0 / 64);
    CHECK_NEAR((double)iom_hist_percentile(h, 75), 20000 * sqrt(2.0), 1.0 / 64);
    struct iom_svc s;
    CHECK(iom_svc_from_hist(&s, h) == 0);
    CHECK_NEAR(s.mean_s, (10e-6 / log(2.0) + 20e-6 / log(2.0)) / 2, 0.01);
    iom_svc_free(&s);
    struct iom_quantiles bad = {.n = 2, .p = {0, 100}, .v_s = {20e-6, 10e-6}};
    CHECK(iom_fit_hist_from_quantiles(h, &bad, 100) == -22);
    free(h);
}

/* The fit recovers c from points generated by the machine-repairman formula. */
static void test_fit_recovers_c(void)
{
    struct iom_fit *f = calloc(1, sizeof(*f));
    double S = 200e-6, Z = 20e-6;
    unsigned c = 5, qd[] = {1, 2, 4, 8, 16, 32};
    for (unsigned i = 0; i < 6; i++) {
        struct iom_fit_point *p = &f->points[f->npoints++];
        double r;
        /* threads = N: the host is a pure delay of Z, as in repairman() */
        p->threads = qd[i];
        p->iodepth = 1;
        p->iops = repairman(qd[i], Z, c, S, 0, &r, NULL);
        p->mean_s = r;
        p->q = (struct iom_quantiles){.n = 2, .p = {0, 100}, .v_s = {0.5 * S, 1.5 * S},
                                      .samples = 1000};
    }
    CHECK(iom_fit_device(f, 1) == 0);
    CHECK_NEAR(f->dev.svc_mean_s, S, 1e-9); /* N = 1: R = S exactly */
    CHECK_NEAR(f->dev.host_s, Z, 1e-6);
    CHECK_NEAR(f->dev.parallelism, c, 1e-3);
    CHECK(f->c_identified);
    CHECK(f->rms_iops_err_pct < 0.01 && f->rms_mean_err_pct < 0.01);
    free(f);
}

int main(void)
{
    test_mm1();
    test_mmc();
    test_mm1k();
    test_mva_repairman();
    test_des_vs_mva();
    test_burst();
    test_hist_svc();
    test_limit();
    test_luns();
    test_quantile_hist();
    test_fit_recovers_c();
    test_cpu_cap();
    return check_status("test_model");
}
