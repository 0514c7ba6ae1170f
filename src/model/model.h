/*
 * model.h - queueing model of one disk behind a guest's queue limits:
 * exact mean value analysis (MVA) of a closed network for mean values, and a
 * seeded discrete-event simulation (DES) driven by a measured service-time
 * histogram for tails. docs/model.md describes the method and assumptions.
 *
 * The modelled path of one I/O (esxtop's GAVG = KAVG + DAVG idea, VMware KB
 * 1008205): a thread issues it; it waits in the GUEST (above the driver) while
 * the driver already holds the limit L of requests (L = the smallest of the
 * adapter queue, the LUN queue and nr_requests x hardware queues, see
 * iom_model_limit); once admitted it waits in the ADAPTER/LUN QUEUE for one of
 * the device's c parallel servers; then it is served (DEVICE time, a sample of
 * the service-time distribution). Measured latency = guest + queue + device.
 * After completion its thread spends host_s (CPU outside the measured
 * latency) before it issues the next I/O (closed loop of threads x iodepth
 * I/Os). The burst form issues N I/Os at time 0 and none afterwards.
 *
 * Units: seconds everywhere (double). All functions return 0 or -errno
 * (-EINVAL for bad parameters, -ENOMEM); none prints or exits.
 *
 * Sources of the formulas: M. Reiser and S. S. Lavenberg, "Mean-Value
 * Analysis of Closed Multichain Queuing Networks", J. ACM 27(2), 1980 (the
 * load-dependent recursion used here); E. D. Lazowska et al., "Quantitative
 * System Performance", Prentice-Hall 1984, ch. 6 and 20 (flow-equivalent
 * servers for a population limit); L. Kleinrock, "Queueing Systems Vol. 1",
 * Wiley 1975 (M/M/1, M/M/c, M/M/1/K, used by the tests).
 */
#ifndef IOMARK_MODEL_MODEL_H
#define IOMARK_MODEL_MODEL_H

#include "core/offsets.h"
#include <stdint.h>

#include "stats/hist.h"

/* ---------------------------------------------------------------- RNG --- */

/* iomark's generator (core/offsets.h: xoshiro256**, Blackman and Vigna,
 * prng.di.unimi.it, seeded by splitmix64), wrapped for the model's draws. */
struct iom_model_rng {
    struct iom_rng r;
};

/* Seed the generator; the same seed gives the same sequence on every machine. */
void iom_model_rng_seed(struct iom_model_rng *r, uint64_t seed);
/* Uniform in [0, 1) with 53 random bits. */
double iom_model_rng_uniform(struct iom_model_rng *r);
/* Exponential with the given mean (mean >= 0), by inversion. */
double iom_model_rng_exp(struct iom_model_rng *r, double mean);

/* ------------------------------------------------- service times --- */

enum iom_svc_kind {
    IOM_SVC_EXP,  /* exponential with mean mean_s (textbook cases, MVA's assumption) */
    IOM_SVC_DET,  /* constant mean_s */
    IOM_SVC_HIST, /* sampled from a latency histogram (stats/hist.h) */
};

/*
 * A service-time distribution. For IOM_SVC_HIST the non-empty buckets of the
 * histogram are kept with their cumulative probability; a sample picks a
 * bucket with its probability and a value uniformly inside the bucket's
 * [low, high] range (so the sample mean matches the histogram to within the
 * bucket width, <= 1/64 of the value). Owns its arrays: free with
 * iom_svc_free().
 */
struct iom_svc {
    enum iom_svc_kind kind;
    double mean_s;     /* mean of the distribution (computed for IOM_SVC_HIST) */
    unsigned n;        /* IOM_SVC_HIST: non-empty buckets */
    double *cum;       /* cumulative probability of buckets 0..i, last is 1 */
    double *lo_s;      /* bucket low bound, s */
    double *width_s;   /* bucket high - low + 1 ns, s */
};

/* Exponential or constant service with mean mean_s > 0. Nothing to free. */
int iom_svc_simple(struct iom_svc *s, enum iom_svc_kind kind, double mean_s);
/* Service times from histogram h (values in ns); h is copied, not kept.
 * -EINVAL when h is empty; -ENOMEM. */
int iom_svc_from_hist(struct iom_svc *s, const struct iom_hist *h);
/* One sample in seconds. */
double iom_svc_sample(const struct iom_svc *s, struct iom_model_rng *r);
/* Release the arrays of an IOM_SVC_HIST distribution (safe on any kind). */
void iom_svc_free(struct iom_svc *s);

/* --------------------------------------------------- the system --- */

/* Queue limits a guest puts on one disk; 0 = no limit from that source. */
struct iom_model_limits {
    unsigned adapter_queue; /* SCSI host can_queue (shared by the adapter's LUNs; one LUN modelled) */
    unsigned lun_queue;     /* per-LUN queue_depth */
    unsigned nr_requests;   /* block layer tags per hardware queue */
    unsigned hw_queues;     /* hardware queues (0 is read as 1) */
};

/* The limit L the model uses for one LUN alone on its adapter: the smallest
 * non-zero of adapter_queue, lun_queue and nr_requests x max(1, hw_queues);
 * 0 when there is none. */
unsigned iom_model_limit(const struct iom_model_limits *l);

/* The per-LUN limit of the disk itself: the smallest non-zero of lun_queue
 * and nr_requests x max(1, hw_queues); 0 when there is none. */
unsigned iom_model_lun_limit(const struct iom_model_limits *l);

/*
 * The per-LUN limit MVA uses when `luns` (>= 1) equally loaded LUNs share the
 * adapter: the smallest non-zero of the LUN limit and adapter_queue / luns
 * (rounded down, at least 1). Exact for the throughput when every LUN keeps
 * its share of the adapter full; the DES models the shared adapter queue
 * itself. iom_model_limit(l) = iom_model_limit_luns(l, 1).
 */
unsigned iom_model_limit_luns(const struct iom_model_limits *l, unsigned luns);

/* The device and the host around it. */
struct iom_model_dev {
    double svc_mean_s;  /* mean service time S at the device, s (> 0) */
    double parallelism; /* c >= 1: servers working in parallel (real for MVA; DES rounds) */
    double host_s;      /* per-I/O time of a thread outside the measured latency, s (>= 0) */
    /* The guest CPU as a server of its own (QEMU TCG emulates the device on the
     * guest's vCPUs): cpu_servers CPUs, cpu_s of busy CPU per I/O (utilisation
     * law D = U / X). It caps the disk's rate at cpu_servers / cpu_s. cpu_s 0 =
     * no CPU station (then cpu_servers is ignored). */
    double cpu_s;       /* s of guest CPU per I/O (>= 0) */
    double cpu_servers; /* guest CPUs (>= 1 when cpu_s > 0) */
};

/* Results of one case. Counts are time averages; times are per I/O. */
struct iom_model_out {
    double iops;        /* completions per second */
    double mean_s;      /* mean latency = guest_s + queue_s + device_s */
    double p99_s;       /* 99th percentile latency (DES only; NAN from MVA) */
    double guest_s;     /* mean wait above the driver (limit L full) */
    double queue_s;     /* mean wait in the adapter/LUN queue for a device server */
    double device_s;    /* mean service time */
    double host_s;      /* mean time at the host station (closed loop only) */
    double makespan_s;  /* burst: time until the last I/O completed; 0 otherwise */
    double n_guest, n_queue, n_device; /* mean numbers (closed loop) */
    uint64_t ios;       /* DES: I/Os measured */
};

/* ------------------------------------------------------------ MVA --- */

/*
 * Exact MVA of the closed network: a host station with `threads` servers
 * (service host_s each; skipped when host_s == 0) and the disk as one
 * load-dependent flow-equivalent station with rate min(n, L, c) / S, where L
 * is `limit` (0 = none); with a CPU station (d->cpu_s > 0) that rate is
 * capped at cpu_servers / cpu_s (the guest CPUs' throughput bound, Lazowska
 * et al. 1984 ch. 5; the CPU's time then shows in the split as device time). Exponential service (product form) is assumed for
 * exactness; the means are insensitive to the distribution only at the
 * extremes. The split of the disk's time comes from its marginal
 * distribution: E[max(0, n - L)] in the guest, E[min(n, L) - min(n, L, c)]
 * in the queue, E[min(n, L, c)] at the device, each divided by the
 * throughput (Little's law). population >= 1, threads >= 1.
 * Cost: O(population x s) time, s the number of disk states with probability
 * above 1e-18 (at most population), O(population) memory.
 */
int iom_mva_closed(const struct iom_model_dev *d, unsigned limit, unsigned threads,
                   unsigned population, struct iom_model_out *out);

/*
 * Like iom_mva_closed for every population 1..max_pop at once: iops[n-1] and
 * mean_s[n-1] for population n (arrays of max_pop entries, caller-owned).
 */
int iom_mva_curve(const struct iom_model_dev *d, unsigned limit, unsigned threads,
                  unsigned max_pop, double *iops, double *mean_s);

/*
 * Mean values of a burst of n I/Os issued at once (no further arrivals),
 * FCFS, k = min(L, round(c)) servers, exponential service of mean S. I/O i
 * (1-based, in issue order) is admitted below the driver after max(0, i - L)
 * completions and starts service after max(0, i - k) completions; while
 * k are busy completions come every S/k on average, so its mean guest wait is
 * max(0, i - L) S/k, its queue wait (max(0, i - k) - max(0, i - L)) S/k. The
 * last completion comes (n - k) S/k + S H(k) after the start (H = harmonic
 * number: the maximum of k exponential services). iops = n / makespan. With
 * a CPU station a completion comes at most every cpu_s / cpu_servers: the
 * step is max(S/k, cpu_s/cpu_servers).
 */
int iom_mva_burst(const struct iom_model_dev *d, unsigned limit, unsigned n,
                  struct iom_model_out *out);

/* ------------------------------------------------------------ DES --- */

/*
 * A discrete-event simulation of the same system with finite queues, on one
 * or more LUNs of one adapter. Each LUN has its own device (c servers, the
 * same service distribution) and its own limit; the adapter limit is shared
 * by all LUNs. An I/O is admitted below the driver when both its LUN and the
 * adapter have room; otherwise it waits in the guest, and freed room goes to
 * the oldest waiting I/O whose LUN has room.
 */
struct iom_des_cfg {
    const struct iom_svc *svc; /* service-time distribution at each LUN's device */
    unsigned servers;          /* c >= 1 per LUN */
    unsigned limit;            /* per-LUN limit (0 = none): LUN queue, nr_requests x hw queues */
    unsigned adapter_limit;    /* shared by all LUNs (0 = none): the adapter queue */
    unsigned luns;             /* 0 or 1 = one LUN; I/O j goes to LUN j % luns (at most 4096) */
    unsigned threads;          /* >= 1; I/O j belongs to thread j % threads */
    unsigned iodepth;          /* >= 1: closed loop of threads x iodepth I/Os */
    double host_s;             /* per-I/O time of a thread after each completion (FIFO per thread) */
    unsigned burst;            /* > 0: burst form, this many I/Os at t = 0, threads/iodepth unused */
    uint64_t warmup_ios;       /* closed loop: completions discarded first */
    uint64_t measure_ios;      /* closed loop: completions measured (>= 1) */
    uint64_t seed;             /* RNG seed: same seed, same result */
    struct iom_hist *pool;     /* optional, caller-owned: measured latencies (ns) are added */
};

/* DES extras beyond iom_model_out. */
struct iom_des_extra {
    double mean_in_system; /* time average of I/Os issued and not completed (measured window) */
    double window_s;       /* length of the measured window */
};

/*
 * Run the simulation. Latency percentiles come from an iom_hist of the
 * measured latencies (nearest rank, as everywhere in iomark). extra may be
 * NULL. -EINVAL for zero servers/threads/iodepth/measure_ios or no svc.
 */
int iom_des_run(const struct iom_des_cfg *cfg, struct iom_model_out *out,
                struct iom_des_extra *extra);

/* Open-arrival simulation, for checks against textbook results. */
struct iom_des_open_out {
    double mean_response_s; /* of accepted arrivals */
    double blocking;        /* fraction of arrivals refused (system full) */
    double mean_in_system;  /* time average */
    double throughput;      /* accepted completions per second */
    uint64_t arrivals, blocked, completed;
};

/*
 * Poisson arrivals at rate lambda (> 0) to `servers` FCFS servers with
 * service from svc; capacity (0 = unlimited) is the most I/Os in the system
 * (queue + service), arrivals beyond it are lost (M/M/c/K). Runs until
 * `arrivals` arrivals after warmup arrivals. Same seed, same result.
 */
int iom_des_open(const struct iom_svc *svc, unsigned servers, double lambda, unsigned capacity,
                 uint64_t warmup, uint64_t arrivals, uint64_t seed, struct iom_des_open_out *out);

#endif
