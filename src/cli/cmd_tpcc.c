/*
 * cmd_tpcc.c - `iomark tpcc [load|run|check] [options]`: the TPC-C derived
 * OLTP workload on SQLite (embedded, default) or PostgreSQL.
 *
 * Without a step it loads (dropping an earlier iomark load in the same
 * place), runs and reports. The steps let users load once and run many
 * times. Option values are checked before anything is touched.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "cli/tpcc_mpi.h"
#ifdef IOMARK_HAVE_MPI
#include "mpi/mpi.h"
#endif
#include "workload/args.h"
#include "tpcc/report.h"
#include "workload/units.h"
#include "tpcc/tpcc.h"

enum step { STEP_ALL, STEP_LOAD, STEP_RUN, STEP_CHECK };

struct tpcc_opts {
    enum step step;
    const char *db;
    unsigned warehouses;
    bool warehouses_set;
    bool scale_test;
    struct tpcc_run_cfg run;
    struct tpcc_db_cfg dbc;
    char journal_mode[16], synchronous[16], schema[64];
    uint64_t busy_timeout_ns;
    bool busy_set;
    bool json, quiet, help;
    bool keep, keep_set;          /* keep the database loaded here (default 1) */
    uint64_t status_interval_ns;  /* --status-interval */
    const char *output;
};

static const char *cmd_name(const struct tpcc_opts *o)
{
    static const char *const n[] = {"tpcc", "tpcc load", "tpcc run", "tpcc check"};
    return n[o->step];
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: iomark tpcc [load|run|check] [options]\n"
            "TPC-C derived OLTP workload (as HammerDB TPROC-C) on SQLite or PostgreSQL.\n"
            "No step: load, then run and report. 'load' creates and fills the database,\n"
            "'run' runs the timed workload on a loaded database, 'check' verifies the TPC-C\n"
            "consistency conditions 1-4.\n\n"
            "  --db=SPEC             sqlite:PATH (file, or folder for PATH/iomark-tpcc.db;\n"
            "                        default sqlite:. = the current folder), postgresql://URI\n"
            "                        or pg:CONNINFO (libpq)\n"
            "  --warehouses=N        warehouses to load, 1..100000 (default 1)\n"
            "  --vu=N                virtual users (threads, one connection each), 1..1024 (1)\n"
            "  --ramp_time=T         ramp-up before measuring (default 2m)\n"
            "  --runtime=T           measured time (default 5m)\n"
            "  --mix=N:P:D:O:S       weights of New-Order, Payment, Delivery, Order-Status,\n"
            "                        Stock-Level (default 10:10:1:1:1, HammerDB's)\n"
            "  --keying_think[=0|1]  TPC-C keying and think times (default off)\n"
            "  --journal_mode=M      SQLite: wal (default), delete, truncate, persist\n"
            "  --synchronous=S       SQLite: full (default), normal, off, extra\n"
            "  --busy_timeout=T      SQLite: longest wait for a lock before retrying (60s)\n"
            "  --pg_schema=NAME      PostgreSQL: iomark's own schema (default iomark_tpcc)\n"
            "  --scale_test          small-scale test mode (10,000 items, 1,000 customers per\n"
            "                        district): for tests only, never for reported results\n"
            "  --seed=N              random seed (default: time)\n"
            "  --output-format=FMT   normal (default) or json\n"
            "  --output=FILE         write the report to FILE\n"
            "  --keep=0|1            keep the database this command loaded (default 1;\n"
            "                        0 removes it at the end; not with load, run, check)\n"
            "  --quiet               no progress line, no banner (the end's note of the\n"
            "                        database left behind stays)\n"
            "  --status-interval=T   progress line every T when stderr is not a terminal\n"
            "Times take ns, us, ms, s (default), m, h. Exit status: 0 ok, 1 failed (or check\n"
            "found violations), 2 bad input, 130/143 interrupted (partial results).\n"
            "Results: NOPM (from sum(d_next_o_id)), TPM, per-transaction ms; docs/tpcc.md.\n");
}

static int bad(const struct tpcc_opts *o, const char *opt, const char *val, const char *allowed)
{
    iom_cli_error(cmd_name(o), "--%s=%s: %s", opt, val ? val : "", allowed);
    return -1;
}

static int parse_uint(const struct tpcc_opts *o, const char *name, const char *v, uint64_t lo,
                      uint64_t hi, uint64_t *out)
{
    const char *why;
    char allowed[96];
    snprintf(allowed, sizeof(allowed), "a whole number %llu..%llu", (unsigned long long)lo,
             (unsigned long long)hi);
    if (!v || iom_parse_u64(v, out, &why) || *out < lo || *out > hi)
        return bad(o, name, v, allowed);
    return 0;
}

static int parse_bool(const struct tpcc_opts *o, const char *name, const char *v, bool *out)
{
    if (!v || strcmp(v, "1") == 0 || strcmp(v, "true") == 0 || strcmp(v, "on") == 0)
        *out = true;
    else if (strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "off") == 0)
        *out = false;
    else
        return bad(o, name, v, "1/0, true/false or on/off");
    return 0;
}

static int one_of(const struct tpcc_opts *o, const char *name, const char *v,
                  const char *const *allowed, const char *text, char *out, size_t len)
{
    size_t n = 0;
    for (; allowed[n]; n++) {
        if (v && strcasecmp(v, allowed[n]) == 0) {
            snprintf(out, len, "%s", allowed[n]);
            return 0;
        }
    }
    char why[200];   /* "did you mean wal? allowed: ..." (workload/args.h) */
    iom_allowed_near(why, sizeof(why), v, allowed, n, text);
    return bad(o, name, v, why);
}

static int parse_mix(const struct tpcc_opts *o, const char *v, unsigned mix[TPCC_NR_TXN])
{
    const char *msg = "five weights N:P:D:O:S, each 0..1000, not all 0 (e.g. 10:10:1:1:1)";
    if (!v)
        return bad(o, "mix", v, msg);
    const char *p = v;
    unsigned sum = 0;
    for (int k = 0; k < TPCC_NR_TXN; k++) {
        char *end;
        if (!isdigit((unsigned char)*p))
            return bad(o, "mix", v, msg);
        unsigned long x = strtoul(p, &end, 10);
        if (x > 1000 || (k < TPCC_NR_TXN - 1 ? *end != ':' : *end != '\0'))
            return bad(o, "mix", v, msg);
        mix[k] = (unsigned)x;
        sum += (unsigned)x;
        p = end + 1;
    }
    if (sum == 0)
        return bad(o, "mix", v, msg);
    return 0;
}

static int parse_time(const struct tpcc_opts *o, const char *name, const char *v, bool zero_ok,
                      uint64_t *ns)
{
    const char *why;
    if (!v || iom_parse_duration(v, ns, &why) || (!zero_ok && *ns == 0) ||
        *ns > UINT64_C(86400) * 1000000000 * 30)
        return bad(o, name, v,
                   zero_ok ? "a duration 0..30d (e.g. 30s, 2m)" : "a duration > 0, up to 30d (e.g. 30s, 5m)");
    return 0;
}

static int parse_args(int argc, char **argv, struct tpcc_opts *o)
{
    static const char *const jm[] = {"wal", "delete", "truncate", "persist", NULL};
    static const char *const sy[] = {"full", "normal", "off", "extra", NULL};
    static const char *const fmt[] = {"normal", "text", "json", NULL};
    int i = 1;
    if (i < argc && argv[i][0] != '-') {
        if (strcmp(argv[i], "load") == 0)
            o->step = STEP_LOAD;
        else if (strcmp(argv[i], "run") == 0)
            o->step = STEP_RUN;
        else if (strcmp(argv[i], "check") == 0)
            o->step = STEP_CHECK;
        else {
            static const char *const steps[] = {"load", "run", "check"};
            char why[120];
            iom_allowed_near(why, sizeof(why), argv[i], steps, 3, "load, run, check (none = all)");
            iom_cli_error("tpcc", "%s: unknown step; %s", argv[i], why);
            return -1;
        }
        i++;
    }
    static const struct iom_arg_opt table[] = {
        {"db", 0, true},           {"warehouses", 0, true},   {"vu", 0, true},
        {"ramp_time", 0, true},    {"runtime", 0, true},      {"mix", 0, true},
        {"keying_think", 0, false}, {"journal_mode", 0, true}, {"synchronous", 0, true},
        {"busy_timeout", 0, true}, {"pg_schema", 0, true},    {"scale_test", 0, false},
        {"seed", 0, true},         {"output-format", 0, true}, {"output", 'o', true},
        {"quiet", 'q', false},     {"help", 'h', false},      {"keep", 0, false},
        {"status-interval", 0, true}, {NULL, 0, false},
    };
    struct iom_args args;
    iom_args_init(&args, argc, argv, i, table, cmd_name(o));
    int k;
    const char *v;
    char aerr[600];
    while ((k = iom_args_next(&args, &v, aerr, sizeof(aerr))) != IOM_ARG_END) {
        if (k == IOM_ARG_ERROR) {
            iom_cli_error(cmd_name(o), "%s; see 'iomark tpcc --help'", aerr);
            return -1;
        }
        if (k == IOM_ARG_POSITIONAL) {
            iom_cli_error(cmd_name(o), "%s: unexpected argument; options start with --", v);
            return -1;
        }
        const char *name = table[k].name;
        uint64_t u;
        char tmp[16];
        int rc = 0;
        if (strcmp(name, "db") == 0) {
            if (!v || !*v)
                return bad(o, "db", v, "needs a value; expected sqlite:PATH or PATH (file or "
                                       "folder), postgresql://URI or pg:CONNINFO");
            o->db = v;
        } else if (strcmp(name, "warehouses") == 0) {
            rc = parse_uint(o, name, v, 1, 100000, &u);
            o->warehouses = (unsigned)u;
            o->warehouses_set = true;
        } else if (strcmp(name, "vu") == 0) {
            rc = parse_uint(o, name, v, 1, 1024, &u);
            o->run.vu = (unsigned)u;
        } else if (strcmp(name, "ramp_time") == 0) {
            rc = parse_time(o, name, v, true, &o->run.ramp_ns);
        } else if (strcmp(name, "runtime") == 0) {
            rc = parse_time(o, name, v, false, &o->run.runtime_ns);
        } else if (strcmp(name, "mix") == 0) {
            rc = parse_mix(o, v, o->run.mix);
        } else if (strcmp(name, "keying_think") == 0) {
            rc = parse_bool(o, name, v, &o->run.keying_think);
        } else if (strcmp(name, "journal_mode") == 0) {
            rc = one_of(o, name, v, jm, "wal, delete, truncate or persist", o->journal_mode,
                        sizeof(o->journal_mode));
        } else if (strcmp(name, "synchronous") == 0) {
            rc = one_of(o, name, v, sy, "full, normal, off or extra", o->synchronous,
                        sizeof(o->synchronous));
        } else if (strcmp(name, "busy_timeout") == 0) {
            rc = parse_time(o, name, v, false, &o->busy_timeout_ns);
            o->busy_set = true;
        } else if (strcmp(name, "pg_schema") == 0) {
            bool okname = v && *v && strlen(v) < 60 && (islower((unsigned char)v[0]) || v[0] == '_');
            for (const char *p = v; okname && *p; p++)
                okname = islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_';
            if (!okname || strncmp(v, "pg_", 3) == 0 || strcmp(v, "public") == 0 ||
                strcmp(v, "information_schema") == 0)
                return bad(o, name, v,
                           "a lower-case name of a-z, 0-9, _ (not public, information_schema "
                           "or pg_*), up to 59 characters");
            snprintf(o->schema, sizeof(o->schema), "%s", v);
        } else if (strcmp(name, "scale_test") == 0) {
            rc = parse_bool(o, name, v, &o->scale_test);
        } else if (strcmp(name, "seed") == 0) {
            rc = parse_uint(o, name, v, 0, UINT64_MAX, &o->run.seed);
        } else if (strcmp(name, "output-format") == 0) {
            rc = one_of(o, name, v, fmt, "normal or json", tmp, sizeof(tmp));
            o->json = rc == 0 && strcmp(tmp, "json") == 0;
        } else if (strcmp(name, "output") == 0) {
            if (!v || !*v)
                return bad(o, name, v, "a file name");
            o->output = v;
        } else if (strcmp(name, "quiet") == 0) {
            rc = parse_bool(o, name, v, &o->quiet);
        } else if (strcmp(name, "keep") == 0) {
            rc = parse_bool(o, name, v, &o->keep);
            o->keep_set = true;
        } else if (strcmp(name, "status-interval") == 0) {
            rc = parse_time(o, "status-interval", v, false, &o->status_interval_ns);
        } else if (strcmp(name, "help") == 0) {
            o->help = true;
        }
        if (rc)
            return -1;
    }
    return 0;
}

static bool show_progress(const struct tpcc_opts *o)
{
    return !o->quiet;
}

static void load_progress(const struct tpcc_load_progress *p, void *arg)
{
    (void)arg;
    char d[96];
    if (p->warehouse == 0)
        snprintf(d, sizeof(d), "items: %.0f%%", p->pct);
    else
        snprintf(d, sizeof(d), "warehouse %u/%u: %.0f%% (%llu rows)%s", p->warehouse,
                 p->warehouses, p->pct, (unsigned long long)p->rows,
                 p->indexes ? ", building indexes" : "");
    /* pct counts all rows; the indexes after them are not counted: unknown */
    iom_cli_progress_phase("loading", d, p->indexes ? -1 : p->pct / 100);
}

static void run_progress(const struct tpcc_run_progress *p, void *arg)
{
    (void)arg;
    char t[96];
    snprintf(t, sizeof(t), "TPM %.0f, NOPM %.0f", p->tpm, p->nopm);
    iom_cli_progress_text(t);
}

static void clear_line(const struct tpcc_opts *o)
{
    (void)o;
    iom_cli_progress_clear();
}

/* "2 min", "30 s", "2 min 30 s", "1 h 5 min" */
static void fmt_dur(uint64_t ns, char *buf, size_t len)
{
    unsigned long long s = (ns + 500000000u) / 1000000000u;
    if (s >= 3600)
        snprintf(buf, len, "%llu h%s", s / 3600, "");
    else
        buf[0] = 0;
    size_t o = strlen(buf);
    unsigned long long m = s / 60 % 60, r = s % 60;
    if (m)
        o += (size_t)snprintf(buf + o, len - o, "%s%llu min", o ? " " : "", m);
    if (r || !s)
        snprintf(buf + o, len - o, "%s%llu s", o ? " " : "", r);
}

/* One line on stderr before anything runs: what will happen and how long. */
static void banner(const struct tpcc_opts *o)
{
    char db[4200], ramp[32], run[32], sum[32];
    tpcc_db_describe(&o->dbc, db, sizeof(db));
    fmt_dur(o->run.ramp_ns, ramp, sizeof(ramp));
    fmt_dur(o->run.runtime_ns, run, sizeof(run));
    fmt_dur(o->run.ramp_ns + o->run.runtime_ns, sum, sizeof(sum));
    if (o->step == STEP_LOAD)
        fprintf(stderr, "iomark tpcc load: %s, %u warehouse(s)\n", db, o->warehouses);
    else if (o->step == STEP_ALL || o->step == STEP_RUN)
        fprintf(stderr,
                "iomark tpcc%s: %s, %u virtual user(s): %sramp-up %s (--ramp_time, not measured), "
                "then %s measured (--runtime): %s%s\n",
                o->step == STEP_RUN ? " run" : "", db, o->run.vu,
                o->step == STEP_ALL ? "load, then " : "", ramp, run, sum,
                o->step == STEP_ALL ? " after the load" : "");
}

/* Where the database stays, its size and how to remove it; or remove it
 * (--keep=0). incomplete: the load stopped part-way (run and check refuse it). */
static void leave_or_remove(const struct tpcc_opts *o, struct tpcc_conn *c, uint64_t bytes,
                            bool incomplete)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    bool sqlite = o->dbc.engine == TPCC_DB_SQLITE;
    char files[4 * 4300] = "";
    if (sqlite) {   /* closed: what is on disk now (the WAL is checkpointed at close) */
        bytes = 0;
        for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
            char p[4200];
            struct stat st;
            snprintf(p, sizeof(p), "%s%s", o->dbc.path, sfx[i]);
            if (stat(p, &st) == 0) {
                bytes += (uint64_t)st.st_size;
                snprintf(files + strlen(files), sizeof(files) - strlen(files), " %s", p);
            }
        }
        if (!files[0])
            return;   /* never created (refused or failed before the load) */
    }
    double mib = (double)bytes / 1048576.0;
    if (o->keep) {
        /* --keep=0 is for the whole job only: a load is kept for run and check */
        const char *tail = incomplete
                               ? "; its load is incomplete, so 'iomark tpcc run' and 'check' "
                                 "refuse it, and 'iomark tpcc load' on it starts the load over"
                           : o->step == STEP_LOAD
                               ? " when 'iomark tpcc run' and 'check' no longer need it"
                           : o->step == STEP_RUN ? " when no more runs or checks need it"
                               : ", or run with --keep=0 to remove it at the end";
        if (sqlite)
            fprintf(stderr,
                    "iomark %s: the database is left at %s (%.1f MiB at the end, its WAL "
                    "checkpointed into it at close); remove it with rm%s%s\n",
                    cmd_name(o), o->dbc.path, mib, files, tail);
        else
            fprintf(stderr,
                    "iomark %s: the database is left in schema %s (%.1f MiB at the end); remove it "
                    "with DROP SCHEMA %s CASCADE%s\n",
                    cmd_name(o), o->dbc.schema, mib, o->dbc.schema, tail);
        return;
    }
    if (sqlite) {
        for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
            char p[4200];
            snprintf(p, sizeof(p), "%s%s", o->dbc.path, sfx[i]);
            unlink(p);
        }
        fprintf(stderr, "iomark tpcc: removed %s (%.1f MiB)\n", o->dbc.path, mib);
    } else if (c) {
        char sql[128];
        snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", o->dbc.schema);
        if (c->ops->exec(c, sql) == 0)
            fprintf(stderr, "iomark tpcc: dropped schema %s (%.1f MiB)\n", o->dbc.schema, mib);
        else
            iom_cli_error("tpcc", "DROP SCHEMA %s: %s", o->dbc.schema, c->err);
    }
}

static int emit(const struct tpcc_opts *o, const struct tpcc_report *rep)
{
    if (o->json) {
        cJSON *doc = iom_tpcc_json(rep);
        if (!doc)
            return IOM_EXIT_FAIL;
        int rc = iom_json_write(doc, o->output);
        cJSON_Delete(doc);
        return rc ? iom_cli_write_failed(cmd_name(o), o->output, rc) : 0;
    }
    FILE *f = stdout;
    if (o->output && !(f = fopen(o->output, "w"))) {
        iom_cli_error(cmd_name(o), "cannot write %s: %s", o->output, strerror(errno));
        return IOM_EXIT_FAIL;
    }
    iom_tpcc_text(f, rep);
    return iom_cli_fclose(cmd_name(o), f, o->output);
}

/* A run that failed after it started still leaves a JSON document (status
 * "error"); refusals (exit 2) write nothing. */
static void error_doc(const struct tpcc_opts *o, const char *msg)
{
    if (!o->json)
        return;
    const char *type = o->step == STEP_LOAD ? "tpcc_load" : o->step == STEP_CHECK ? "tpcc_check" : "tpcc";
    cJSON *d = iom_json_error_doc(type, msg);
    if (d) {
        int rc = iom_json_write(d, o->output);
        if (rc)
            iom_cli_write_failed(cmd_name(o), o->output, rc);
        cJSON_Delete(d);
    }
}

static void probe_devices(struct tpcc_conn *c, struct tpcc_report *rep)
{
    char data[4096], log[4200];
    if (c->ops->paths(c, data, sizeof(data), log, sizeof(log)) == 0 &&
        tpcc_devinfo_probe(data, &rep->data_dev) == 0 &&
        tpcc_devinfo_probe(log, &rep->log_dev) == 0)
        rep->have_dev = true;
}

#ifdef IOMARK_HAVE_MPI
/* Under a launcher: the options every rank must share (all but --db, where
 * the report goes, and how progress is shown), then the ranks' run. */
static int run_under_mpi(const struct tpcc_opts *o, int argc, char **argv)
{
    static const char *const own[] = {"--db", "--output", "-o", "--quiet", "-q",
                                      "--status-interval", NULL};
    char same[2048] = "";
    size_t n = 0;
    for (int i = 1; i < argc; i++) {
        bool skip = false;
        for (int k = 0; own[k] && !skip; k++) {
            size_t l = strlen(own[k]);
            skip = strncmp(argv[i], own[k], l) == 0 && (argv[i][l] == '=' || !argv[i][l]);
            if (skip && !argv[i][l] && own[k][1] == '-' && strcmp(own[k], "--quiet") != 0)
                i++; /* "--db VALUE": its value too */
        }
        if (!skip && n + strlen(argv[i]) + 2 < sizeof(same))
            n += (size_t)snprintf(same + n, sizeof(same) - n, "%s ", argv[i]);
    }
    struct iom_cli_tpcc_mpi a = {
        .cmd = cmd_name(o), .load = o->step == STEP_ALL,
        .other_step = o->step == STEP_LOAD || o->step == STEP_CHECK,
        .keep0 = o->keep_set && !o->keep, .db = o->db, .dbc = &o->dbc, .run = &o->run,
        .warehouses = o->warehouses, .warehouses_set = o->warehouses_set,
        .scale_test = o->scale_test, .json = o->json, .quiet = o->quiet, .output = o->output,
        .status_interval_ns = o->status_interval_ns, .same = same};
    return iom_cli_tpcc_mpi(&a);
}
#endif

int iom_cmd_tpcc(int argc, char **argv)
{
    struct tpcc_opts o;
    memset(&o, 0, sizeof(o));
    tpcc_run_cfg_defaults(&o.run);
    o.warehouses = 1;
    o.keep = true;
    if (parse_args(argc, argv, &o))
        return IOM_EXIT_USAGE;
    if (o.help) {
        usage(stdout);
        return IOM_EXIT_OK;
    }
    const char *cmd = cmd_name(&o);
    if (o.keep_set && !o.keep && o.step != STEP_ALL) {
        iom_cli_error(cmd, "--keep=0: allowed only without a step (load keeps the database "
                           "for run and check)");
        return IOM_EXIT_USAGE;
    }
    char err[600];
    if (tpcc_db_parse(o.db, &o.dbc, err, sizeof(err))) {
        iom_cli_error(cmd, "%s", err);
        return IOM_EXIT_USAGE;
    }
    if (o.journal_mode[0])
        snprintf(o.dbc.journal_mode, sizeof(o.dbc.journal_mode), "%s", o.journal_mode);
    if (o.synchronous[0])
        snprintf(o.dbc.synchronous, sizeof(o.dbc.synchronous), "%s", o.synchronous);
    if (o.busy_set)
        o.dbc.busy_timeout_ns = o.busy_timeout_ns;
    if (o.schema[0])
        snprintf(o.dbc.schema, sizeof(o.dbc.schema), "%s", o.schema);
    int orc = iom_cli_check_output(cmd, o.output, -1);
    if (!orc && o.dbc.engine == TPCC_DB_SQLITE) {
        /* the database and the journals SQLite keeps beside it */
        char wal[4200], journal[4200];
        snprintf(wal, sizeof(wal), "%s-wal", o.dbc.path);
        snprintf(journal, sizeof(journal), "%s-journal", o.dbc.path);
        const char *const db_files[] = {o.dbc.path, wal, journal};
        orc = iom_cli_output_apart(cmd, o.output, db_files, 3, "the database file");
    }
    if (orc)
        return orc;
    if (o.dbc.engine == TPCC_DB_SQLITE && (o.step == STEP_ALL || o.step == STEP_LOAD)) {
        char *dup = strdup(o.dbc.path);
        char *slash = dup ? strrchr(dup, '/') : NULL;
        if (slash)
            *slash = '\0';
        const char *dir = slash ? (*dup ? dup : "/") : ".";
        if (access(dir, W_OK) != 0) {
            iom_cli_error(cmd, "--db=%s: folder %s is not writable", o.db ? o.db : "sqlite:.",
                          dir);
            free(dup);
            return IOM_EXIT_USAGE;
        }
        free(dup);
    }
    o.dbc.create = o.step == STEP_ALL || o.step == STEP_LOAD;
#ifdef IOMARK_HAVE_MPI
    if (iom_mpi_launched())
        return run_under_mpi(&o, argc, argv);
#endif
    iom_cli_signals_install();
    if (!o.quiet && o.step != STEP_RUN) /* tpcc run: once the database is known to be loaded */
        banner(&o);
    {
        struct iom_run_opts pro = {.quiet = o.quiet, .status_interval_ns = o.status_interval_ns};
        bool runs = o.step == STEP_ALL || o.step == STEP_RUN;
        iom_cli_progress_plan("tpcc", &pro, runs ? 1 : 0,
                              runs ? (double)(o.run.ramp_ns + o.run.runtime_ns) / 1e9 : -1, false);
        iom_cli_progress_ramp_word("ramp-up");
    }

    struct tpcc_report rep;
    memset(&rep, 0, sizeof(rep));
    rep.dbc = &o.dbc;
    rep.start_time = time(NULL);
    struct tpcc_conn *c = NULL;
    int rc = tpcc_db_connect(&o.dbc, &c, err, sizeof(err));
    if (rc) {
        iom_cli_error(cmd, "%s", err);
        if (rc == -ENOENT)
            return IOM_EXIT_USAGE;
        error_doc(&o, err);
        return IOM_EXIT_FAIL;
    }
    c->ops->version(c, rep.db_version, sizeof(rep.db_version));
    int status = IOM_EXIT_OK;
    struct tpcc_scale sc;
    struct tpcc_load_result lr;
    struct tpcc_check_result cr;
    struct tpcc_run_result *rr = NULL;
    bool ours = false;   /* this command loaded the database (not refused as someone else's) */
    bool incomplete = false; /* its load stopped part-way */

    if (o.step == STEP_ALL || o.step == STEP_LOAD) {
        tpcc_scale_init(&sc, o.warehouses, o.scale_test);
        rep.sc = &sc;
        rc = tpcc_load(c, &sc, o.run.seed, &iom_cli_stop, show_progress(&o) ? load_progress : NULL,
                       NULL, &lr);
        clear_line(&o);
        ours = rc != -EEXIST;
        incomplete = rc && ours;
        if (rc == -EINTR || (rc && iom_cli_stop)) {
            int sig = iom_cli_stop ? iom_cli_stop : SIGINT;
            char msg[96];
            snprintf(msg, sizeof(msg), "interrupted by %s while loading; the database is incomplete",
                     iom_signal_name(sig));
            iom_cli_error(cmd, "%s", msg);
            error_doc(&o, msg);
            status = iom_cli_signal_exit(sig);
            goto out;
        }
        if (rc) {
            iom_cli_error(cmd, "load failed: %s", c->err);
            status = rc == -EEXIST ? IOM_EXIT_USAGE : IOM_EXIT_FAIL;
            if (status == IOM_EXIT_FAIL)
                error_doc(&o, c->err);
            goto out;
        }
        rep.load = &lr;
    } else {
        rc = tpcc_meta_read(c, &sc);
        if (rc) {
            char where[4200];
            tpcc_db_describe(&o.dbc, where, sizeof(where));
            iom_cli_error(cmd, "%s: %s", where, c->err);
            status = rc == -ENOENT ? IOM_EXIT_USAGE : IOM_EXIT_FAIL;
            goto out;
        }
        rep.sc = &sc;
        if (o.warehouses_set && o.warehouses != sc.warehouses) {
            iom_cli_error(cmd, "--warehouses=%u: the database holds %u warehouses; load again to change it",
                          o.warehouses, sc.warehouses);
            status = IOM_EXIT_USAGE;
            goto out;
        }
        if (!o.quiet && o.step == STEP_RUN)
            banner(&o);
    }

    if (o.step == STEP_ALL || o.step == STEP_RUN) {
        rr = calloc(1, sizeof(*rr));
        if (!rr) {
            status = IOM_EXIT_FAIL;
            goto out;
        }
        struct tpcc_run_hooks hooks = {.stop = &iom_cli_stop,
                                       .progress = show_progress(&o) ? run_progress : NULL};
        char vus[48];
        snprintf(vus, sizeof(vus), "%u VU", o.run.vu);
        iom_cli_progress_step(vus, (double)o.run.ramp_ns / 1e9, (double)o.run.runtime_ns / 1e9, 0);
        rc = tpcc_run(&o.dbc, c, &sc, &o.run, &hooks, rr);
        if (!rc) {   /* the final line: the measured phase's figures, the result's */
            char t[96];
            snprintf(t, sizeof(t), "TPM %.0f, NOPM %.0f", rr->tpm, rr->nopm);
            iom_cli_progress_done(t);
        }
        clear_line(&o);
        rep.run = rr;
        rep.cfg = &o.run;
        if (rc) {
            iom_cli_error(cmd, "run failed: %s", rr->error);
            rep.error = rr->error;
            status = IOM_EXIT_FAIL;
        } else if (rr->interrupted_signal) {
            status = iom_cli_signal_exit(rr->interrupted_signal);
        }
    }
    if (o.step == STEP_CHECK) {
        rc = tpcc_check(c, &cr);
        if (rc) {
            iom_cli_error(cmd, "check failed: %s", c->err);
            error_doc(&o, c->err);
            status = IOM_EXIT_FAIL;
            goto out;
        }
        rep.check = &cr;
        for (int k = 0; k < TPCC_NR_CHECKS; k++)
            if (cr.violations[k])
                status = IOM_EXIT_FAIL;
    }
    c->ops->size_bytes(c, &rep.size_bytes);
    probe_devices(c, &rep);
    {
        int e = emit(&o, &rep);
        if (e && !status)
            status = e;
    }
out:;
    bool ran = rr != NULL; /* tpcc run went as far as its measured phase */
    free(rr);
    /* the database this command loaded: say where it is, or remove it */
    if (ours) {
        uint64_t bytes = rep.size_bytes;
        if (!bytes)
            c->ops->size_bytes(c, &bytes);
        bool sqlite = o.dbc.engine == TPCC_DB_SQLITE;
        if (!sqlite && !o.keep)
            leave_or_remove(&o, c, bytes, incomplete);
        c->ops->disconnect(c);
        if (sqlite || o.keep)
            leave_or_remove(&o, NULL, bytes, incomplete);
        return status;
    }
    c->ops->disconnect(c);
    /* a run on SQLite: where the database stays (closed: its WAL checkpointed);
     * with --quiet too, as every note of a file left behind */
    if (o.step == STEP_RUN && o.dbc.engine == TPCC_DB_SQLITE && ran)
        leave_or_remove(&o, NULL, 0, false);
    return status;
}
