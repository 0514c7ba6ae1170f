/* tpcc/report.c - text and JSON reports of `iomark tpcc`; see tpcc/report.h. */
#include "tpcc/report.h"

#include <string.h>
#include <unistd.h>

#include "report/report.h"

void iom_tpcc_txn_figures(const struct tpcc_txn_stats *s, struct tpcc_txn_figures *f)
{
    struct iom_summary m;
    iom_summarize(&s->lat, 0, &m);
    f->calls = s->lat.ios;
    f->min_ms = m.lat_min_us / 1e3;
    f->mean_ms = m.lat_mean_us / 1e3;
    f->p50_ms = m.lat_pct_us[1] / 1e3; /* iom_pct_list: 25 50 75 90 95 99 ... */
    f->p95_ms = m.lat_pct_us[4] / 1e3;
    f->p99_ms = m.lat_pct_us[5] / 1e3;
    f->max_ms = m.lat_max_us / 1e3;
    f->stddev_ms = m.lat_stddev_us / 1e3;
}

cJSON *iom_tpcc_txn_json(const struct tpcc_txn_stats *s)
{
    struct tpcc_txn_figures f;
    iom_tpcc_txn_figures(s, &f);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "calls", (double)f.calls);
    cJSON_AddNumberToObject(o, "min_ms", f.min_ms);
    cJSON_AddNumberToObject(o, "mean_ms", f.mean_ms);
    cJSON_AddNumberToObject(o, "p50_ms", f.p50_ms);
    cJSON_AddNumberToObject(o, "p95_ms", f.p95_ms);
    cJSON_AddNumberToObject(o, "p99_ms", f.p99_ms);
    cJSON_AddNumberToObject(o, "max_ms", f.max_ms);
    cJSON_AddNumberToObject(o, "stddev_ms", f.stddev_ms);
    cJSON_AddNumberToObject(o, "rollbacks", (double)s->rollbacks);
    cJSON_AddNumberToObject(o, "retries", (double)s->retries);
    return o;
}

unsigned iom_tpcc_mix_measured(const struct tpcc_run_result *x, double pct[TPCC_NR_TXN])
{
    uint64_t all = 0;
    for (int k = 0; k < TPCC_NR_TXN; k++)
        all += x->txn[k].lat.ios;
    unsigned below = 0;
    for (int k = 0; k < TPCC_NR_TXN; k++) {
        pct[k] = all ? 100.0 * (double)x->txn[k].lat.ios / (double)all : 0;
        if (all && pct[k] < tpcc_mix_floor_pct[k])
            below |= 1u << k;
    }
    return below;
}

static cJSON *dev_json(const struct tpcc_devinfo *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "path", d->path);
    cJSON_AddStringToObject(o, "device", d->device);
    cJSON_AddStringToObject(o, "disk", d->disk);
    cJSON_AddStringToObject(o, "majmin", d->majmin);
    cJSON_AddStringToObject(o, "fstype", d->fstype);
    cJSON_AddStringToObject(o, "source", d->source);
    return o;
}

static void iso_time(time_t t, char *buf, size_t len)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

cJSON *iom_tpcc_json(const struct tpcc_report *r)
{
    const char *type = r->run ? "tpcc" : r->check ? "tpcc_check" : "tpcc_load";
    cJSON *d = iom_json_doc_new(type);
    if (!d)
        return NULL;
    char ts[32];
    iso_time(r->start_time, ts, sizeof(ts));
    cJSON_AddStringToObject(d, "start_time", ts);
    int sig = r->run ? r->run->interrupted_signal : 0;
    cJSON_AddStringToObject(d, "status", r->error ? "error" : sig ? "interrupted" : "ok");
    if (sig)
        cJSON_AddStringToObject(d, "interrupted_by", iom_signal_name(sig));
    if (r->error)
        cJSON_AddStringToObject(d, "error", r->error);
    iom_json_add_host(d, NULL, NULL, 0);
    if (r->sc) {
        cJSON_AddNumberToObject(d, "warehouses", r->sc->warehouses);
        cJSON_AddBoolToObject(d, "scale_test", r->sc->scale_test);
        if (r->sc->scale_test)
            cJSON_AddStringToObject(d, "scale_note",
                                    "small-scale test mode: fewer items and customers; "
                                    "not a comparable result");
    }
    if (r->run && r->cfg) {
        const struct tpcc_run_result *x = r->run;
        cJSON_AddNumberToObject(d, "vu", r->cfg->vu);
        cJSON *du = cJSON_AddObjectToObject(d, "duration");
        cJSON_AddNumberToObject(du, "ramp_time_s", (double)r->cfg->ramp_ns / 1e9);
        cJSON_AddNumberToObject(du, "runtime_s", (double)r->cfg->runtime_ns / 1e9);
        cJSON_AddNumberToObject(du, "measured_s", (double)x->measured_ns / 1e9);
        cJSON_AddNumberToObject(d, "nopm", x->nopm);
        cJSON_AddNumberToObject(d, "tpm", x->tpm);
        if (x->have_tpm_db)
            cJSON_AddNumberToObject(d, "tpm_db", x->tpm_db);
        cJSON_AddNumberToObject(d, "new_orders",
                                (double)(x->d_next_o_id_end - x->d_next_o_id_start));
        cJSON *gap = cJSON_AddObjectToObject(d, "nopm_sampling_gap_ms");
        cJSON_AddNumberToObject(gap, "start", (double)x->nopm_gap_ns[0] / 1e6);
        cJSON_AddNumberToObject(gap, "end", (double)x->nopm_gap_ns[1] / 1e6);
        if (x->have_cpu) {
            cJSON *cp = cJSON_AddObjectToObject(d, "cpu");
            double cores = x->cpu.busy_pct / 100.0 * x->cpu.nr_cpus;
            cJSON_AddNumberToObject(cp, "nr_cpus", x->cpu.nr_cpus);
            cJSON_AddNumberToObject(cp, "busy_pct", x->cpu.busy_pct);
            cJSON_AddNumberToObject(cp, "user_pct", x->cpu.user_pct);
            cJSON_AddNumberToObject(cp, "system_pct", x->cpu.system_pct);
            cJSON_AddNumberToObject(cp, "iowait_pct", x->cpu.iowait_pct);
            cJSON_AddNumberToObject(cp, "process_user_s", x->cpu.process_user_s);
            cJSON_AddNumberToObject(cp, "process_system_s", x->cpu.process_system_s);
            cJSON_AddNumberToObject(cp, "busy_cores", cores);
            cJSON_AddNumberToObject(cp, "nopm_per_busy_core", cores > 0 ? x->nopm / cores : 0);
        }
        cJSON *t = cJSON_AddObjectToObject(d, "transactions");
        uint64_t rb = 0, rt = 0, bw = 0;
        for (int k = 0; k < TPCC_NR_TXN; k++) {
            cJSON_AddItemToObject(t, tpcc_txn_name[k], iom_tpcc_txn_json(&x->txn[k]));
            rb += x->txn[k].rollbacks;
            rt += x->txn[k].retries;
            bw += x->txn[k].busy_waits;
        }
        cJSON_AddNumberToObject(d, "rollbacks", (double)rb);
        cJSON_AddNumberToObject(d, "retries", (double)rt);
        cJSON_AddNumberToObject(d, "busy_waits", (double)bw);
        cJSON *m = cJSON_AddObjectToObject(d, "mix");
        for (int k = 0; k < TPCC_NR_TXN; k++)
            cJSON_AddNumberToObject(m, tpcc_txn_name[k], r->cfg->mix[k]);
        double pct[TPCC_NR_TXN];
        unsigned below = iom_tpcc_mix_measured(x, pct);
        cJSON *mm = cJSON_AddObjectToObject(d, "mix_measured_pct");
        cJSON *bl = cJSON_AddArrayToObject(d, "mix_below_floor");
        for (int k = 0; k < TPCC_NR_TXN; k++) {
            cJSON_AddNumberToObject(mm, tpcc_txn_name[k], pct[k]);
            if (below & (1u << k))
                cJSON_AddItemToArray(bl, cJSON_CreateString(tpcc_txn_name[k]));
        }
        cJSON_AddBoolToObject(d, "keying_think", r->cfg->keying_think);
        cJSON_AddNumberToObject(d, "seed", (double)r->cfg->seed);
    }
    if (r->load) {
        cJSON *l = cJSON_AddObjectToObject(d, "load");
        cJSON_AddNumberToObject(l, "time_s", r->load->load_s);
        cJSON_AddNumberToObject(l, "time_per_warehouse_s",
                                r->sc && r->sc->warehouses ? r->load->load_s / r->sc->warehouses : 0);
        cJSON_AddNumberToObject(l, "rows", (double)r->load->rows);
        cJSON_AddNumberToObject(l, "size_bytes", (double)r->load->size_bytes);
    }
    if (r->check) {
        cJSON *c = cJSON_AddArrayToObject(d, "consistency");
        for (int k = 0; k < TPCC_NR_CHECKS; k++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "condition", k + 1);
            cJSON_AddStringToObject(o, "text", tpcc_check_text[k] + 3);
            cJSON_AddNumberToObject(o, "checked", (double)r->check->rows_checked[k]);
            cJSON_AddNumberToObject(o, "violations", (double)r->check->violations[k]);
            cJSON_AddBoolToObject(o, "ok", r->check->violations[k] == 0);
            if (r->check->violations[k])
                cJSON_AddStringToObject(o, "first_violation", r->check->first_violation[k]);
            cJSON_AddItemToArray(c, o);
        }
    }
    if (r->dbc) {
        cJSON *db = cJSON_AddObjectToObject(d, "db");
        char desc[4200];
        tpcc_db_describe(r->dbc, desc, sizeof(desc));
        bool sq = r->dbc->engine == TPCC_DB_SQLITE;
        cJSON_AddStringToObject(db, "engine", sq ? "sqlite" : "postgresql");
        cJSON_AddStringToObject(db, "target", desc);
        cJSON_AddStringToObject(db, "version", r->db_version);
        if (sq) {
            cJSON_AddStringToObject(db, "journal_mode", r->dbc->journal_mode);
            cJSON_AddStringToObject(db, "synchronous", r->dbc->synchronous);
        } else {
            cJSON_AddStringToObject(db, "schema", r->dbc->schema);
            cJSON_AddStringToObject(db, "isolation", "read committed");
        }
        cJSON_AddNumberToObject(db, "size_bytes", (double)r->size_bytes);
        if (r->have_dev) {
            cJSON_AddItemToObject(db, "data", dev_json(&r->data_dev));
            cJSON_AddItemToObject(db, "log", dev_json(&r->log_dev));
        }
    }
    return d;
}

static const char *txn_label(int k)
{
    static const char *const l[TPCC_NR_TXN] = {"NEWORD", "PAYMENT", "DELIVERY", "OSTAT", "SLEV"};
    return l[k];
}

static void dev_line(FILE *f, const char *what, const struct tpcc_devinfo *d)
{
    fprintf(f, "%s: %s on %s", what, d->path, d->device[0] ? d->device : "(no block device)");
    if (d->disk[0] && strcmp(d->disk, d->device) != 0)
        fprintf(f, " (disk %s)", d->disk);
    fprintf(f, ", %s %s [%s]\n", d->fstype, d->source, d->majmin);
}

void iom_tpcc_text(FILE *f, const struct tpcc_report *r)
{
    char desc[4200];
    if (r->dbc)
        tpcc_db_describe(r->dbc, desc, sizeof(desc));
    if (r->dbc)
        fprintf(f, "database: %s (%s%s%s%s%s)\n", desc, r->db_version,
                r->dbc->engine == TPCC_DB_SQLITE ? ", journal_mode=" : ", schema ",
                r->dbc->engine == TPCC_DB_SQLITE ? r->dbc->journal_mode : r->dbc->schema,
                r->dbc->engine == TPCC_DB_SQLITE ? ", synchronous=" : "",
                r->dbc->engine == TPCC_DB_SQLITE ? r->dbc->synchronous : "");
    if (r->sc && r->sc->scale_test)
        fprintf(f, "SCALE TEST MODE: %u items, %u customers per district; not a comparable "
                   "result\n",
                r->sc->items, r->sc->cust_per_dist);
    if (r->load) {
        char sz[32];
        iom_fmt_bytes(r->load->size_bytes, sz, sizeof(sz));
        /* SQLite's size counts the WAL, which close checkpoints into the file
         * and removes: the end's "left at" figure is the file alone */
        bool wal = r->dbc && r->dbc->engine == TPCC_DB_SQLITE;
        fprintf(f, "load: %u warehouse(s), %llu rows in %.1f s (%.1f s per warehouse), database after load %s%s\n",
                r->sc ? r->sc->warehouses : 0, (unsigned long long)r->load->rows, r->load->load_s,
                r->sc && r->sc->warehouses ? r->load->load_s / r->sc->warehouses : 0, sz,
                wal ? " with its WAL" : "");
    }
    if (r->run && r->cfg) {
        const struct tpcc_run_result *x = r->run;
        char why[48] = "";
        if (x->interrupted_signal)
            snprintf(why, sizeof(why), " (interrupted by %s)", iom_signal_name(x->interrupted_signal));
        fprintf(f, "run: %u warehouse(s), %u virtual user(s), ramp-up %.0f s, measured %.1f s%s\n",
                r->sc ? r->sc->warehouses : 0, r->cfg->vu, (double)r->cfg->ramp_ns / 1e9,
                (double)x->measured_ns / 1e9, why);
        /* Two sources, each named once: "TPM" is iomark's driver's count of
         * calls (the JSON's tpm); "PostgreSQL TPM" is the database's own
         * transaction counter (tpm_db, pg_stat_database), HammerDB's TPM, and
         * only it goes into HammerDB's summary line. SQLite keeps no counter:
         * there is one TPM, and no HammerDB line to pass it off as SQLite's. */
        bool sq = r->dbc && r->dbc->engine == TPCC_DB_SQLITE;
        fprintf(f, "NOPM %.0f   TPM %.0f (calls counted by iomark's driver%s)", x->nopm, x->tpm,
                sq ? "; SQLite keeps no transaction counter of its own" : "");
        if (x->have_tpm_db) {
            fprintf(f, "   PostgreSQL TPM %.0f (pg_stat_database)", x->tpm_db);
            fprintf(f, "\nSystem achieved %.0f NOPM from %.0f PostgreSQL TPM", x->nopm, x->tpm_db);
        }
        double pct[TPCC_NR_TXN];
        unsigned below = iom_tpcc_mix_measured(x, pct);
        fprintf(f, "\nmix: ");
        for (int k = 0; k < TPCC_NR_TXN; k++)
            fprintf(f, "%s%s %.1f%%", k ? ", " : "", txn_label(k), pct[k]);
        for (int k = 0; k < TPCC_NR_TXN; k++)
            if (below & (1u << k))
                fprintf(f, "\nwarning: %s is %.2f%% of the measured mix, below TPC-C's minimum "
                           "of %.0f%% (clause 5.2.3): not a valid TPC-C mix",
                        txn_label(k), pct[k], tpcc_mix_floor_pct[k]);
        if (x->have_cpu)
            fprintf(f, "\nCPU (whole machine, %u CPUs): %.1f%% busy, %.1f%% iowait; NOPM per busy "
                       "core %.0f",
                    x->cpu.nr_cpus, x->cpu.busy_pct, x->cpu.iowait_pct,
                    x->cpu.busy_pct > 0 ? x->nopm / (x->cpu.busy_pct / 100.0 * x->cpu.nr_cpus) : 0);
        fprintf(f, "\n\n%-9s %9s %9s %9s %9s %9s %9s %9s %9s\n", "txn", "calls", "min ms",
                "mean ms", "p50 ms", "p95 ms", "p99 ms", "max ms", "stddev ms");
        uint64_t rb = 0, rt = 0, bw = 0;
        for (int k = 0; k < TPCC_NR_TXN; k++) {
            struct tpcc_txn_figures t;
            iom_tpcc_txn_figures(&x->txn[k], &t);
            fprintf(f, "%-9s %9llu %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f\n", txn_label(k),
                    (unsigned long long)t.calls, t.min_ms, t.mean_ms, t.p50_ms, t.p95_ms, t.p99_ms,
                    t.max_ms, t.stddev_ms);
            rb += x->txn[k].rollbacks;
            rt += x->txn[k].retries;
            bw += x->txn[k].busy_waits;
        }
        fprintf(f, "\nrollbacks %llu (New-Order, unused item), retries %llu, busy waits %llu\n",
                (unsigned long long)rb, (unsigned long long)rt, (unsigned long long)bw);
    }
    if (r->check) {
        for (int k = 0; k < TPCC_NR_CHECKS; k++) {
            fprintf(f, "consistency %s: %s", tpcc_check_text[k],
                    r->check->violations[k] ? "FAILED" : "ok");
            if (r->check->violations[k])
                fprintf(f, " (%llu violations; first: %s)",
                        (unsigned long long)r->check->violations[k], r->check->first_violation[k]);
            fprintf(f, " [%llu checked]\n", (unsigned long long)r->check->rows_checked[k]);
        }
    }
    if (r->have_dev) {
        dev_line(f, "data", &r->data_dev);
        dev_line(f, "log", &r->log_dev);
    }
    if (r->size_bytes && !r->load) { /* MiB to 0.1, as the end's "left at" line */
        if (r->dbc && r->dbc->engine == TPCC_DB_SQLITE)
            fprintf(f, "database size: %.1f MiB with its WAL (close checkpoints the WAL into the "
                       "file)\n", (double)r->size_bytes / 1048576.0);
        else
            fprintf(f, "database size: %.1f MiB\n", (double)r->size_bytes / 1048576.0);
    }
}
