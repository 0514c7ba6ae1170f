/* cmd_model.c - `iomark model fit DOC...` and `iomark model FIT.json
 * --what-if ... --workload ... | --burst N`: argument handling only; the
 * maths is in src/model, the writers in src/report/model.c. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "model/fit.h"
#include "report/model.h"
#include "workload/args.h"

#define CMD "model"
#define MAX_SCEN 8
#define MAX_OIO 16384u
#define MAX_BURST 1000000u

static void usage(FILE *f)
{
    fprintf(f,
            "usage: iomark model fit [options] SWEEP.json|RUN.json...\n"
            "       iomark model FIT.json [--what-if K=V,...]... (--workload threads=T,iodepth=D | --burst N)\n"
            "Fit a queueing model of the disk to measured points, then predict what other\n"
            "queue limits or workloads would do: IOPS, mean and p99 latency, and the split of\n"
            "the time into guest wait (above the driver), adapter/LUN queue wait and device\n"
            "time; exact mean value analysis (means) and a simulation (tails) side by side.\n\n"
            "fit:\n"
            "  DOC...                    iomark sweep documents or run documents (one target, one rw/bs,\n"
            "                            one process: MPI-merged documents are refused); a sweep's\n"
            "                            point is named FILE#K, the Kth point counted from 1\n"
            "  --output=FILE, -o FILE    write the FIT document (JSON) there; text summary on stdout\n"
            "  --output-format=FMT       normal (default) or json (the FIT document on stdout)\n"
            "  --seed=N                  simulation seed for the p99 column (default 1)\n"
            "  --max-outstanding=N       fit only the points with threads x iodepth <= N\n"
            "  --guest-cpu=auto|on|off   the guest CPU as a server of its own (CPU per I/O from\n"
            "                            the documents' cpu objects caps the rate); auto: on for\n"
            "                            documents of an iomark lab guest under TCG (default)\n\n"
            "predict:\n"
            "  --what-if K=V,...         a scenario beside the fitted one (up to %d); keys:\n"
            "                            adapter_queue, lun_queue, nr_requests, hw_queues (0 = no limit),\n"
            "                            parallelism (c >= 1), service_scale (> 0)\n"
            "  --workload threads=T,iodepth=D[,luns=K]   closed loop of T x D outstanding I/Os\n"
            "                            (at most %u); luns=K: K LUNs on one adapter share its\n"
            "                            queue, thread t on LUN t %% K (K divides T, or the burst)\n"
            "  --burst N                 N I/Os issued at once (at most %u)\n"
            "  --seed=N                  simulation seed (default 1); same seed, same figures\n"
            "  --des-ios=N               I/Os simulated per scenario (default 200000, 1000..100000000)\n"
            "  --output-format=FMT       normal (default) or json\n"
            "  --output=FILE, -o FILE    write there instead of stdout\n\n"
            "check (validation on points the model was not fitted on):\n"
            "  iomark model FIT.json --check SWEEP.json...   predicted vs measured per point, with\n"
            "                            the checked documents' own queue limits (from their probe)\n\n"
            "Exit status: 0 ok, 2 bad option or input (nothing written), 1 failure.\n",
            MAX_SCEN - 1, MAX_OIO, MAX_BURST);
}

/* "--name=value" or "--name value"; returns the value or NULL; *i advances. */
static const char *optval(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] == '\0')
        return *i + 1 < argc ? argv[++*i] : "";
    return NULL;
}

static int parse_u64(const char *s, unsigned long long lo, unsigned long long hi,
                     unsigned long long *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* The name of `names` (NULL-terminated, lower-case) nearest to `typed` for a
 * "did you mean" hint: iom_name_nearness (workload/args.h, on
 * iom_edit_distance) at most `far` (2 = one edit, 3 = a prefix, 4 = two
 * edits); NULL when none is that near. typed may carry leading dashes and an
 * "=value" tail, which are not compared. */
static const char *nearest(const char *typed, const char *const *names, unsigned far)
{
    char t[48];
    while (*typed == '-')
        typed++;
    snprintf(t, sizeof(t), "%.*s", (int)strcspn(typed, "="), typed);
    const char *best = NULL;
    unsigned bn = far + 1;
    for (; *names; names++)
        iom_name_nearer(t, *names, &bn, &best);
    return best;
}

static const char *const whatif_keys[] = {"adapter_queue", "lun_queue",   "nr_requests", "hw_queues",
                                          "parallelism",   "service_scale", NULL};
#define WHATIF_ALLOWED \
    "adapter_queue, lun_queue, nr_requests, hw_queues, parallelism, service_scale"

/* K=V,K=V list: applies to sc; on error prints one line and returns -1. */
static int parse_whatif(const char *opt, const char *list, struct iom_scenario *sc)
{
    char buf[512];
    if (!*list || strlen(list) >= sizeof(buf)) {
        iom_cli_error(CMD, "--%s=%s: allowed: K=V,... with keys " WHATIF_ALLOWED, opt, list);
        return -1;
    }
    snprintf(buf, sizeof(buf), "%s", list);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq) {
            iom_cli_error(CMD, "--%s=%s: '%s' is not K=V", opt, list, kv);
            return -1;
        }
        *eq = 0;
        const char *k = kv, *v = eq + 1;
        unsigned long long u;
        unsigned *slot = NULL;
        if (!strcmp(k, "adapter_queue"))
            slot = &sc->limits.adapter_queue;
        else if (!strcmp(k, "lun_queue"))
            slot = &sc->limits.lun_queue;
        else if (!strcmp(k, "nr_requests"))
            slot = &sc->limits.nr_requests;
        else if (!strcmp(k, "hw_queues") || !strcmp(k, "nr_hw_queues"))
            slot = &sc->limits.hw_queues;
        if (slot) {
            if (parse_u64(v, 0, 1000000, &u)) {
                iom_cli_error(CMD, "--%s=%s: %s=%s: allowed: an integer 0..1000000 (0 = no limit)",
                              opt, list, k, v);
                return -1;
            }
            *slot = (unsigned)u;
        } else if (!strcmp(k, "parallelism") || !strcmp(k, "service_scale")) {
            char *end;
            double d = strtod(v, &end);
            int pa = !strcmp(k, "parallelism");
            if (end == v || *end || !(pa ? d >= 1 && d <= 1e6 : d > 0 && d <= 1e6)) {
                iom_cli_error(CMD, "--%s=%s: %s=%s: allowed: %s", opt, list, k, v,
                              pa ? "a number 1..1000000" : "a number > 0 (1 = as fitted)");
                return -1;
            }
            if (pa)
                sc->parallelism = d;
            else
                sc->svc_scale = d;
        } else {
            const char *near = nearest(k, whatif_keys, 4);
            iom_cli_error(CMD, "--%s=%s: unknown key %s; %s%s%sallowed: " WHATIF_ALLOWED, opt,
                          list, k, near ? "did you mean " : "", near ? near : "", near ? "? " : "");
            return -1;
        }
    }
    return 0;
}

static int parse_workload(const char *list, unsigned *threads, unsigned *iodepth, unsigned *luns)
{
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", list);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        unsigned long long u;
        if (eq)
            *eq = 0;
        int th = !strcmp(kv, "threads") || !strcmp(kv, "numjobs");
        int qd = !strcmp(kv, "iodepth");
        int ln = !strcmp(kv, "luns");
        if (!th && !qd && !ln) {
            static const char *const keys[] = {"threads", "numjobs", "iodepth", "luns", NULL};
            const char *near = nearest(kv, keys, 4);
            iom_cli_error(CMD, "--workload=%s: unknown key %s; %s%s%sallowed: threads=T,iodepth=D"
                               "[,luns=K]", list, kv, near ? "did you mean " : "", near ? near : "",
                          near ? "? " : "");
            return -1;
        }
        if (!eq || parse_u64(eq + 1, 1, ln ? 4096 : MAX_OIO, &u)) {
            iom_cli_error(CMD, "--workload=%s: allowed: threads=T,iodepth=D[,luns=K] with "
                               "1 <= T x D <= %u, 1 <= K <= 4096", list, MAX_OIO);
            return -1;
        }
        *(th ? threads : qd ? iodepth : luns) = (unsigned)u;
    }
    if ((*threads || *iodepth) &&
        (!*threads || !*iodepth || (unsigned long long)*threads * *iodepth > MAX_OIO)) {
        iom_cli_error(CMD, "--workload=%s: allowed: threads=T,iodepth=D[,luns=K] with "
                           "1 <= T x D <= %u, 1 <= K <= 4096", list, MAX_OIO);
        return -1;
    }
    return 0;
}

/* Warning lines on stderr for a fit that succeeded: a source sweep that did
 * not run to its end (fitted on its points so far), and a poor fit (rms error
 * above IOM_FIT_POOR_PCT on its own points). The FIT document has both
 * (incomplete_sources, fit.poor). */
static void fit_warn(const struct iom_fit *f)
{
    for (unsigned i = 0; i < f->nincomplete && i < IOM_FIT_MAXINCOMPLETE; i++) {
        const struct iom_fit_incomplete *in = &f->incomplete[i];
        char how[64], of[32] = "";
        if (!strcmp(in->status, "interrupted"))
            snprintf(how, sizeof(how), "was interrupted%s%s", in->by[0] ? " by " : "", in->by);
        else /* "error": a point failed and the sweep stopped */
            snprintf(how, sizeof(how), "stopped early (status %s)", in->status);
        if (in->planned)
            snprintf(of, sizeof(of), " of %u", in->planned);
        fprintf(stderr, "iomark %s: warning: fit: %s: the sweep %s: %u%s points measured; the "
                        "fit uses only those\n", CMD, in->source, how, in->measured, of);
    }
    if (f->nincomplete > IOM_FIT_MAXINCOMPLETE)
        fprintf(stderr, "iomark %s: warning: fit: %u more incomplete sweeps\n", CMD,
                f->nincomplete - IOM_FIT_MAXINCOMPLETE);
    /* one outstanding-I/O level: the model is fitted to reproduce its lowest-load
     * point, so the error over one level says nothing about other depths */
    unsigned oio0 = f->npoints ? f->points[0].threads * f->points[0].iodepth : 0, levels = 0;
    for (unsigned i = 0; i < f->npoints; i++)
        if (f->points[i].threads * f->points[i].iodepth != oio0) {
            levels = 2;
            break;
        }
    if (f->npoints && !levels)
        fprintf(stderr, "iomark %s: warning: fit: its %u point%s at one outstanding-I/O level "
                        "(%u): the model is fitted to that level, so its error there says nothing "
                        "of other depths, and the parallelism is only a lower bound; fit a sweep "
                        "over outstanding I/O (e.g. iomark sweep --iodepth=1,4,16,64) to predict "
                        "other depths\n",
                CMD, f->npoints, f->npoints == 1 ? " is" : "s are all", oio0);
    if (iom_fit_poor(f))
        fprintf(stderr, "iomark %s: warning: fit: a poor fit: rms error over its %u points IOPS "
                        "%.1f%%, mean latency %.1f%% (above %.0f%%): the model does not describe "
                        "these measurements; its predictions are not reliable\n", CMD, f->npoints,
                f->rms_iops_err_pct, f->rms_mean_err_pct, IOM_FIT_POOR_PCT);
}

static int cmd_fit(int argc, char **argv)
{
    const char *out = NULL;
    int json = 0;
    unsigned long long seed = 1, maxo = 0;
    int guest_cpu = -1;
    const char **docs = calloc((size_t)argc + 1, sizeof(*docs));
    if (!docs)
        return IOM_EXIT_FAIL;
    unsigned nd = 0;
    int rc = IOM_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (a[0] != '-' || a[1] == '\0') {
            docs[nd++] = a;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            rc = IOM_EXIT_OK;
            goto done;
        } else if ((v = optval(argc, argv, &i, "--output-format"))) {
            if (!strcmp(v, "json"))
                json = 1;
            else if (!strcmp(v, "normal") || !strcmp(v, "text"))
                json = 0;
            else {
                rc = iom_cli_bad_choice(CMD, "output-format", v,
                                        (const char *const[]){"normal", "json", NULL},
                                        "normal, json");
                goto done;
            }
        } else if ((v = optval(argc, argv, &i, "--output")) || (v = optval(argc, argv, &i, "-o"))) {
            if (!*v) {
                iom_cli_error(CMD, "--output=: needs a file name");
                goto done;
            }
            out = v;
            if (iom_cli_check_output(CMD, out, -1))
                goto done;
        } else if ((v = optval(argc, argv, &i, "--seed"))) {
            if (parse_u64(v, 0, UINT64_MAX, &seed)) {
                iom_cli_error(CMD, "--seed=%s: allowed: an integer >= 0", v);
                goto done;
            }
        } else if ((v = optval(argc, argv, &i, "--max-outstanding"))) {
            if (parse_u64(v, 1, 65536, &maxo)) {
                iom_cli_error(CMD, "--max-outstanding=%s: allowed: an integer 1..65536 "
                                   "(threads x iodepth)", v);
                goto done;
            }
        } else if ((v = optval(argc, argv, &i, "--guest-cpu"))) {
            if (!strcmp(v, "auto") || !strcmp(v, "on") || !strcmp(v, "off"))
                guest_cpu = !strcmp(v, "auto") ? -1 : !strcmp(v, "on");
            else {
                rc = iom_cli_bad_choice(CMD, "guest-cpu", v,
                                        (const char *const[]){"auto", "on", "off", NULL},
                                        "auto, on, off");
                goto done;
            }
        } else {
            static const char *const opts[] = {"output",      "output-format", "seed",
                                               "max-outstanding", "guest-cpu", "help", NULL};
            const char *near = nearest(a, opts, 4);
            iom_cli_error(CMD, "%s: unknown option of 'model fit'; %s%s%sallowed: --output, "
                               "--output-format, --seed, --max-outstanding, --guest-cpu, --help",
                          a, near ? "did you mean --" : "", near ? near : "", near ? "? " : "");
            goto done;
        }
    }
    if (!nd) {
        iom_cli_error(CMD, "fit: no document given; name iomark sweep or run JSON files");
        goto done;
    }
    if (iom_cli_output_apart(CMD, out, docs, nd, "the input"))
        goto done;
    struct iom_fit *f = calloc(1, sizeof(*f));
    if (!f) {
        rc = IOM_EXIT_FAIL;
        goto done;
    }
    char err[600];
    int lrc = iom_fit_load_docs(docs, nd, f, err, sizeof(err));
    if (lrc) {
        iom_cli_error(CMD, "fit: %s", err);
        free(f);
        goto done;
    }
    if (maxo && !iom_fit_keep_outstanding(f, (unsigned)maxo)) {
        iom_cli_error(CMD, "--max-outstanding=%llu: no point of the documents has that few "
                           "outstanding I/Os", maxo);
        free(f);
        goto done;
    }
    f->guest_cpu = guest_cpu;
    lrc = iom_fit_device(f, seed);
    if (lrc) {
        iom_cli_error(CMD, "fit: %s", lrc == -ENOMEM ? "out of memory" : "the points cannot be fitted");
        rc = lrc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
        free(f);
        goto done;
    }
    fit_warn(f);
    cJSON *doc = iom_model_fit_json(f, docs, nd);
    rc = IOM_EXIT_OK;
    if (!doc) {
        rc = IOM_EXIT_FAIL;
    } else if (out || json) {
        int w = iom_json_write(doc, out);
        if (w)
            rc = iom_cli_write_failed(CMD, out, w);
    }
    if (rc == IOM_EXIT_OK && !json)
        iom_model_fit_text(stdout, f);
    cJSON_Delete(doc);
    free(f);
done:
    free(docs);
    return rc;
}

/* Read FIT.json; prints the reason and returns NULL when it cannot. */
static struct iom_fit *load_fit(const char *fitpath)
{
    FILE *ff = fopen(fitpath, "rb");
    if (!ff) {
        iom_cli_error(CMD, "%s: cannot read: %s", fitpath, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap + 1);
    while (text) {
        n += fread(text + n, 1, cap - n, ff);
        if (n < cap || cap >= ((size_t)1 << 28))
            break;
        char *nt = realloc(text, cap * 2 + 1);
        if (!nt) {
            free(text);
            text = NULL;
            break;
        }
        text = nt;
        cap *= 2;
    }
    fclose(ff);
    if (!text)
        return NULL;
    text[n] = 0;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    struct iom_fit *f = calloc(1, sizeof(*f));
    char err[600];
    if (!f) {
        cJSON_Delete(doc);
        return NULL;
    }
    if (!doc || iom_fit_from_json(doc, f, err, sizeof(err))) {
        iom_cli_error(CMD, "%s: %s", fitpath, doc ? err : "not JSON; expected a FIT document from "
                                                          "'iomark model fit'");
        cJSON_Delete(doc);
        free(f);
        return NULL;
    }
    cJSON_Delete(doc);
    return f;
}

/* One warning line when the checked documents are not like the FIT's: another
 * target, rw or bs (the device model is of the FIT's), or no queue limits in
 * their probe (predicted with none, L = 0, while the FIT has one). */
static void check_warn(const struct iom_fit *f, const struct iom_fit *c, const char *doc)
{
    char w[900] = "";
    size_t n = 0;
    if (strcmp(f->target, c->target))
        n += (size_t)snprintf(w + n, sizeof(w) - n, "; target %s, the FIT's is %s", c->target,
                              f->target);
    if (strcmp(f->rw, c->rw) || f->bs_bytes != c->bs_bytes)
        n += (size_t)snprintf(w + n, sizeof(w) - n, "; rw=%s bs=%llu, the FIT's is rw=%s bs=%llu",
                              c->rw, (unsigned long long)c->bs_bytes, f->rw,
                              (unsigned long long)f->bs_bytes);
    if (!iom_model_limit(&c->limits) && iom_model_limit(&f->limits))
        n += (size_t)snprintf(w + n, sizeof(w) - n, "; no queue limits in its probe, so "
                              "predicted with none (L = 0; the FIT's L = %u)",
                              iom_model_limit(&f->limits));
    if (n)
        fprintf(stderr, "iomark %s: warning: --check=%s%s\n", CMD, doc, w);
}

static int check_cmd(struct iom_fit *f, const char *fitpath, const char **docs, unsigned nd,
                     int json, const char *out, unsigned long long des_ios,
                     unsigned long long seed)
{
    struct iom_fit *c = calloc(1, sizeof(*c));
    char err[600];
    if (!c)
        return IOM_EXIT_FAIL;
    if (iom_fit_load_docs(docs, nd, c, err, sizeof(err))) {
        iom_cli_error(CMD, "--check: %s", err);
        free(c);
        return IOM_EXIT_USAGE;
    }
    check_warn(f, c, docs[0]);
    int rc = IOM_EXIT_OK;
    if (iom_fit_check(f, c, NULL, des_ios < 50000 ? des_ios : 50000, seed)) {
        iom_cli_error(CMD, "--check: the model cannot evaluate these points");
        rc = IOM_EXIT_FAIL;
    } else if (json) {
        cJSON *d = iom_model_check_json(f, fitpath, c, docs, nd);
        int w = d ? iom_json_write(d, out) : -ENOMEM;
        cJSON_Delete(d);
        if (w)
            rc = iom_cli_write_failed(CMD, out, w);
    } else {
        FILE *o = out ? fopen(out, "w") : stdout;
        if (!o) {
            iom_cli_error(CMD, "--output=%s: %s", out, strerror(errno));
            rc = IOM_EXIT_FAIL;
        } else {
            iom_model_check_text(o, f, fitpath, c);
            if (iom_cli_fclose(CMD, o, out))
                rc = IOM_EXIT_FAIL;
        }
    }
    free(c);
    return rc;
}

/* The prediction command's arguments, each checked as it comes (argv order). */
struct pred_args {
    const char *fitpath, *out, *workload;
    struct iom_fit *f; /* FIT.json, loaded when named */
    const char *whatif[MAX_SCEN];
    const char *checks[64];
    unsigned nw, nchk, threads, iodepth, luns;
    unsigned long long burst, seed, des_ios;
    int json;
};

/* Parse argv into a (zeroed by the caller) in argv order, refusing the
 * first bad option or file with one line. Returns 0, 1 for --help (usage
 * printed) or -1 (refused). */
static int parse_pred(int argc, char **argv, struct pred_args *a)
{
    static const char *const opts[] = {"what-if",  "check",         "workload", "burst", "seed",
                                       "des-ios", "output-format", "output",   "help",  NULL};
    a->luns = 1;
    a->seed = 1;
    a->des_ios = 200000;
    a->workload = "";
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i], *v;
        struct iom_scenario scratch;
        if (w[0] != '-' || w[1] == '\0') {
            if (a->fitpath) {
                iom_cli_error(CMD, "%s: one FIT.json only (already %s); to fit use 'iomark model "
                                   "fit DOC...'", w, a->fitpath);
                return -1;
            }
            if (i == 1 && access(w, F_OK) != 0 && iom_name_nearness(w, "fit") <= 3) {
                iom_cli_error(CMD, "%s: unknown sub-command; did you mean fit? allowed: "
                                   "'iomark model fit DOC...' or 'iomark model FIT.json ...'", w);
                return -1;
            }
            a->fitpath = w;
            if (!(a->f = load_fit(w)))
                return -1;
        } else if (!strcmp(w, "--help") || !strcmp(w, "-h")) {
            usage(stdout);
            return 1;
        } else if ((v = optval(argc, argv, &i, "--what-if"))) {
            if (a->nw >= MAX_SCEN - 1) {
                iom_cli_error(CMD, "--what-if=%s: at most %d scenarios", v, MAX_SCEN - 1);
                return -1;
            }
            memset(&scratch, 0, sizeof(scratch));
            if (parse_whatif("what-if", v, &scratch))
                return -1;
            a->whatif[a->nw++] = v;
        } else if ((v = optval(argc, argv, &i, "--check"))) {
            if (!*v || a->nchk >= 64) {
                iom_cli_error(CMD, "--check=%s: allowed: 1 to 64 iomark sweep or run documents", v);
                return -1;
            }
            a->checks[a->nchk++] = v;
        } else if ((v = optval(argc, argv, &i, "--workload"))) {
            if (parse_workload(v, &a->threads, &a->iodepth, &a->luns))
                return -1;
            a->workload = v;
        } else if ((v = optval(argc, argv, &i, "--burst"))) {
            if (parse_u64(v, 1, MAX_BURST, &a->burst)) {
                iom_cli_error(CMD, "--burst=%s: allowed: an integer 1..%u (I/Os issued at once)", v,
                              MAX_BURST);
                return -1;
            }
        } else if ((v = optval(argc, argv, &i, "--seed"))) {
            if (parse_u64(v, 0, UINT64_MAX, &a->seed)) {
                iom_cli_error(CMD, "--seed=%s: allowed: an integer >= 0", v);
                return -1;
            }
        } else if ((v = optval(argc, argv, &i, "--des-ios"))) {
            if (parse_u64(v, 1000, 100000000, &a->des_ios)) {
                iom_cli_error(CMD, "--des-ios=%s: allowed: an integer 1000..100000000", v);
                return -1;
            }
        } else if ((v = optval(argc, argv, &i, "--output-format"))) {
            if (strcmp(v, "json") && strcmp(v, "normal") && strcmp(v, "text")) {
                iom_cli_bad_choice(CMD, "output-format", v,
                                   (const char *const[]){"normal", "json", NULL}, "normal, json");
                return -1;
            }
            a->json = !strcmp(v, "json");
        } else if ((v = optval(argc, argv, &i, "--output")) || (v = optval(argc, argv, &i, "-o"))) {
            if (!*v) {
                iom_cli_error(CMD, "--output=: needs a file name");
                return -1;
            }
            a->out = v;
            if (iom_cli_check_output(CMD, v, -1))
                return -1;
        } else {
            const char *near = nearest(w, opts, 4);
            iom_cli_error(CMD, "%s: unknown option; %s%s%sallowed: fit, --what-if, --workload, "
                               "--burst, --check, --seed, --des-ios, --output-format, --output, "
                               "--help", w, near ? "did you mean --" : "", near ? near : "",
                          near ? "? " : "");
            return -1;
        }
    }
    return 0;
}

/* What-if predictions of a loaded FIT (a->f) in text or JSON. */
static int predict_cmd(const struct pred_args *a)
{
    struct iom_fit *f = a->f;
    struct iom_scenario sc[MAX_SCEN];
    struct iom_prediction pr[MAX_SCEN];
    unsigned ns = 1 + a->nw;
    memset(sc, 0, sizeof(sc));
    for (unsigned i = 0; i < ns; i++) {
        sc[i].limits = f->limits;
        sc[i].parallelism = f->dev.parallelism;
        sc[i].svc_scale = 1;
        sc[i].threads = a->threads ? a->threads : 1;
        sc[i].iodepth = a->iodepth ? a->iodepth : 1;
        sc[i].burst = (unsigned)a->burst;
        sc[i].luns = a->luns;
        sc[i].des_ios = a->des_ios;
        sc[i].seed = a->seed;
        if (i == 0) {
            snprintf(sc[i].name, sizeof(sc[i].name), "as fitted");
        } else {
            snprintf(sc[i].name, sizeof(sc[i].name), "what-if %u", i);
            if (parse_whatif("what-if", a->whatif[i - 1], &sc[i])) /* checked when parsed */
                return IOM_EXIT_USAGE;
        }
    }
    for (unsigned i = 0; i < ns; i++) {
        int prc = iom_model_predict(f, &sc[i], &pr[i]);
        if (prc) {
            iom_cli_error(CMD, "%s: %s", sc[i].name,
                          prc == -ENOMEM ? "out of memory" : "the model cannot evaluate this case");
            return prc == -ENOMEM ? IOM_EXIT_FAIL : IOM_EXIT_USAGE;
        }
    }
    if (a->json) {
        cJSON *pd = iom_model_pred_json(f, a->fitpath, sc, pr, ns);
        int w = pd ? iom_json_write(pd, a->out) : -ENOMEM;
        cJSON_Delete(pd);
        return w ? iom_cli_write_failed(CMD, a->out, w) : IOM_EXIT_OK;
    }
    FILE *o = a->out ? fopen(a->out, "w") : stdout;
    if (!o) {
        iom_cli_error(CMD, "--output=%s: %s", a->out, strerror(errno));
        return IOM_EXIT_FAIL;
    }
    iom_model_pred_text(o, f, a->fitpath, sc, pr, ns);
    return iom_cli_fclose(CMD, o, a->out);
}

int iom_cmd_model(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "fit"))
        return cmd_fit(argc - 1, argv + 1);
    struct pred_args a;
    memset(&a, 0, sizeof(a));
    int prc = parse_pred(argc, argv, &a), rc = IOM_EXIT_USAGE;
    if (prc) {
        rc = prc > 0 ? IOM_EXIT_OK : IOM_EXIT_USAGE;
    } else if (iom_cli_output_apart(CMD, a.out, &a.fitpath, a.fitpath ? 1 : 0, "the input") ||
               iom_cli_output_apart(CMD, a.out, a.checks, a.nchk, "the input")) {
        /* said */
    } else if (!a.fitpath) {
        iom_cli_error(CMD, "no FIT.json given; 'iomark model fit -o FIT.json SWEEP.json' makes one");
    } else if (a.nchk && (a.nw || a.burst || a.threads)) {
        iom_cli_error(CMD, "--check: predicts the checked points with their own limits; "
                           "not allowed with --what-if, --workload or --burst");
    } else if (a.nchk) {
        rc = check_cmd(a.f, a.fitpath, a.checks, a.nchk, a.json, a.out, a.des_ios, a.seed);
    } else if (!a.burst && !a.threads) {
        iom_cli_error(CMD, "--workload: missing; give --workload threads=T,iodepth=D or --burst N");
    } else if (a.luns > 1 && (a.burst ? a.burst % a.luns : a.threads % a.luns)) {
        iom_cli_error(CMD, "--workload=%s: luns=%u must divide %s", a.workload, a.luns,
                      a.burst ? "--burst (I/Os spread evenly over the LUNs)"
                              : "threads (thread t runs on LUN t % luns)");
    } else {
        rc = predict_cmd(&a);
    }
    free(a.f);
    return rc;
}
