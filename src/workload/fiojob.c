/* fiojob.c - fio job files -> struct iom_job (see fiojob.h, docs/fio-jobs.md). */
#include "workload/fiojob.h"
#include "workload/fiojob_int.h"
#include "workload/units.h"
#include "workload/vtypes.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES 256

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* Add text (one skipped or refused option, "line N: name=value (why)") to a list, once. */
static void add_line(char list[][200], uint32_t *nr, const char *s)
{
    for (uint32_t i = 0; i < *nr; i++)
        if (strcmp(list[i], s) == 0)
            return;
    if (*nr < IOM_FIO_MAX_IGNORED)
        snprintf(list[(*nr)++], sizeof(list[0]), "%s", s);
}

/* An option iom_fioj_apply() returned -ENOENT for: skipped (--ignore-unknown) or refused. */
static void not_run(struct iom_fio_file *f, const struct iom_fio_parse_opts *po, const char *why)
{
    if (po && po->ignore_unknown)
        add_line(f->ignored, &f->nr_ignored, why);
    else
        add_line(f->refused, &f->nr_refused, why);
}

/* fio's engine options: an item "line N: NAME=VALUE" (no reason given) whose NAME
 * is an option of an engine the file names and iomark lacks ("ioengine=E (an
 * engine ...") is that engine's, and says so (fiojob_engopts.c, fio 3.33's tables) */
static void mark_engine_options(char list[][200], uint32_t nr)
{
    static const char tag[] = "ioengine=";
    for (uint32_t i = 0; i < nr; i++) {
        char *o = strchr(list[i], ':'), *why = o ? strstr(o, " (") : NULL;
        if (!o || o[1] != ' ' || (why && strncmp(why, " (${", 4) != 0))
            continue; /* a reason given already (an unset variable's note is none) */
        char name[48];
        size_t nl = strcspn(o + 2, "= ");
        if (nl == 0 || nl >= sizeof(name))
            continue;
        memcpy(name, o + 2, nl);
        name[nl] = '\0';
        for (uint32_t k = 0; k < nr; k++) {
            const char *e = strstr(list[k], tag);
            char eng[48];
            size_t el = e ? strcspn(e + sizeof(tag) - 1, " ") : 0;
            if (!e || el == 0 || el >= sizeof(eng) || !strstr(e, " (an engine iomark does not"))
                continue;
            memcpy(eng, e + sizeof(tag) - 1, el);
            eng[el] = '\0';
            if (iom_fioj_engine_option(eng, name)) {
                size_t l = strlen(list[i]);
                snprintf(list[i] + l, sizeof(list[i]) - l, " (an option of fio's %s engine)", eng);
                break;
            }
        }
    }
}

/* iom_fioj_apply(), and when the value held a ${NAME} not set in the environment
 * (now "", as fio 3.33 reads it): a refusal says so, and a file name or folder
 * made with it is noted (it is rarely what the job's author meant) */
static int apply_kv(const struct iom_fio_kv *kv, struct iom_job *job, struct state *st,
                    char *err, size_t errlen)
{
    int rc = iom_fioj_apply(kv, job, st, err, errlen);
    if (!kv->unset_var[0])
        return rc;
    if (rc == -EINVAL) {
        size_t l = strlen(err);
        snprintf(err + l, errlen - l, " (${%s} is not set in the environment: fio 3.33 reads it "
                 "as empty; export %s=...)", kv->unset_var, kv->unset_var);
    } else if (rc == -ENOENT) {
        size_t l = strlen(err);
        snprintf(err + l, errlen - l, " (${%s} not set: empty)", kv->unset_var);
    } else if (rc == 0 && (strcmp(kv->name, "filename") == 0 ||
                           strcmp(kv->name, "directory") == 0 ||
                           strcmp(kv->name, "filename_format") == 0)) {
        snprintf(st->unset_note, sizeof(st->unset_note), "line %u: %s=%s: ${%s} is not set in "
                 "the environment, read as empty as fio 3.33 does; ", kv->line, kv->name,
                 kv->value, kv->unset_var);
    }
    return rc;
}

/* Was the option `name` of `line` (0 = the command line) skipped (--ignore-unknown)? */
static bool was_skipped(const struct iom_fio_file *f, uint32_t line, const char *name)
{
    char where[32];
    if (line)
        snprintf(where, sizeof(where), "line %u: ", line);
    else
        snprintf(where, sizeof(where), "command line: ");
    size_t wl = strlen(where), nl = strlen(name);
    for (uint32_t i = 0; i < f->nr_ignored; i++) {
        const char *s = f->ignored[i];
        if (strncmp(s, where, wl) == 0 && strncmp(s + wl, name, nl) == 0 &&
            (s[wl + nl] == '=' || s[wl + nl] == ' ' || s[wl + nl] == '\0'))
            return true;
    }
    return false;
}

/* Split "a:b\:c" on unescaped ':' into files[]. */
static int split_files(const char *list, char files[][1024], uint32_t *n)
{
    *n = 0;
    size_t o = 0;
    char cur[1024];
    for (const char *p = list;; p++) {
        if (*p == '\\' && p[1] == ':') {
            if (o + 1 < sizeof(cur))
                cur[o++] = ':';
            p++;
            continue;
        }
        if (*p == ':' || *p == '\0') {
            cur[o] = '\0';
            if (o) {
                if (*n == MAX_FILES)
                    return -E2BIG;
                snprintf(files[(*n)++], 1024, "%s", cur);
            }
            o = 0;
            if (!*p)
                break;
            continue;
        }
        if (o + 1 < sizeof(cur))
            cur[o++] = *p;
    }
    return 0;
}

/* fio's filename_format: $jobname, $jobnum (the clone), $filenum, and
 * $clientuid (empty outside fio's client mode, as fio 3.33 writes it) */
static int format_name(char *out, const char *fmt, const char *job, uint32_t clone, uint32_t file)
{
    size_t o = 0;
    for (const char *p = fmt; *p;) {
        char tmp[80];
        const char *put = NULL;
        size_t skip = 1;
        if (strncmp(p, "$jobname", 8) == 0)
            put = job, skip = 8;
        else if (strncmp(p, "$jobnum", 7) == 0)
            snprintf(tmp, sizeof(tmp), "%u", clone), put = tmp, skip = 7;
        else if (strncmp(p, "$filenum", 8) == 0)
            snprintf(tmp, sizeof(tmp), "%u", file), put = tmp, skip = 8;
        else if (strncmp(p, "$clientuid", 10) == 0)
            put = "", skip = 10;
        size_t len = put ? strlen(put) : 1;
        if (o + len >= 1024)
            return -ENAMETOOLONG;
        memcpy(out + o, put ? put : p, len);
        o += len;
        p += skip;
    }
    out[o] = '\0';
    return 0;
}

/* --filename-map: TO for a file named FROM, or NULL; marks the map used in *used */
static const char *map_name(const struct iom_fio_parse_opts *po, const char *name, uint32_t *used)
{
    for (uint32_t i = 0; po && i < po->nr_maps; i++) {
        if (strcmp(po->map_from[i], name) == 0) {
            *used |= 1u << i;
            return po->map_to[i];
        }
    }
    return NULL;
}

/* Refuse a --filename-map whose FROM named no file of any job (it would be
 * silently ignored and the job would run on the file it was to replace);
 * err names the map and the job file's own file names. */
static int check_maps(const struct iom_fio_file *f, const struct iom_fio_parse_opts *po,
                      char *err, size_t errlen)
{
    for (uint32_t i = 0; po && i < po->nr_maps; i++) {
        if (f->maps_used & (1u << i))
            continue;
        size_t o = (size_t)snprintf(err, errlen, "--filename-map=%s=%s: %s is no file of the "
                                    "job file; its files: ", po->map_from[i], po->map_to[i],
                                    po->map_from[i]);
        for (uint32_t j = 0; j < f->nr_jobs && o < errlen; j++)
            for (uint32_t t = 0; t < f->jobs[j].job.nr_targets && o < errlen; t++)
                o += (size_t)snprintf(err + o, errlen - o, "%s%s", j || t ? ", " : "",
                                      f->jobs[j].job.targets[t]);
        return -EINVAL;
    }
    return 0;
}

/* rate=/rate_iops=READ,WRITE (one value = that value for each direction): a
 * read-only pattern takes the read cap, a write-only one the write cap, and a
 * mixed one paces reads and writes each on their own as fio's io_u.c
 * rate_ddir and backend.c usec_for_io do (spec.h rate_w_*: a 0 write cap is
 * UINT64_MAX there, i.e. unpaced) */
static void split_rates(const struct state *st, struct iom_job *job)
{
    for (int k = 0; k < 2; k++) {
        bool on = k ? st->rate_iops_split : st->rate_split;
        const uint64_t *v = k ? st->rate_iops_rw : st->rate_rw;
        uint64_t *out = k ? &job->rate_iops : &job->rate_bytes_per_s;
        uint64_t *wout = k ? &job->rate_w_iops : &job->rate_w_bytes_per_s;
        if (!on)
            continue;
        uint32_t rp = iom_job_read_pct(job);
        *wout = 0;
        if (rp == 100 || rp == 0) {
            *out = rp ? v[0] : v[1];
        } else if (v[0] || v[1]) {
            *out = v[0];
            *wout = v[1] ? v[1] : UINT64_MAX;
        } else {
            *out = 0;
        }
    }
}

static void size_span(uint64_t bs, uint32_t n, const struct iom_bs_weight *w, uint64_t *lo,
                      uint64_t *hi)
{
    *lo = *hi = bs;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || w[i].bs_bytes < *lo)
            *lo = w[i].bs_bytes;
        if (i == 0 || w[i].bs_bytes > *hi)
            *hi = w[i].bs_bytes;
    }
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* fio 3.33 init.c fixup_options: the verify interval from the write sizes */
static void verify_interval_fixup(struct iom_job *job)
{
    uint64_t rlo, rhi, wlo, whi, iv = job->verify_interval;
    size_span(job->bs_bytes, job->nr_bssplit, job->bssplit, &rlo, &rhi);
    if (iom_job_write_sizes(job))
        size_span(job->wbs_bytes, job->nr_wbssplit, job->wbssplit, &wlo, &whi);
    else
        wlo = rlo, whi = rhi;
    bool reads = job->rw != IOM_RW_WRITE && job->rw != IOM_RW_RANDWRITE;
    if (whi != wlo && !iv)
        iv = wlo;
    if (iv > wlo)
        iv = wlo;
    else if (reads && iv > rlo)
        iv = rlo;
    if (!iv || wlo % iv || whi % iv)
        iv = gcd64(wlo, whi);
    job->verify_interval = iv;
}

/* Apply one section's options (or the command line's: cmdline, where each filename=
 * replaces) in fio's order: parse.c sorts a section's options by their prio, so
 * directory= comes before filename= (prio -1, "must come after directory"); rounds:
 * 1 directory= only, 2 the others only, 3 both */
static int apply_list(struct iom_fio_file *f, const struct iom_fio_parse_opts *po,
                      const struct iom_fio_kv *list, uint32_t n, bool cmdline, int rounds,
                      struct iom_job *job, struct state *st, char *err, size_t errlen)
{
    for (int round = 0; round < 2; round++)
        for (uint32_t k = 0; k < n; k++) {
            if (!(rounds & (1 << round)) ||
                (strcmp(list[k].name, "directory") == 0) != (round == 0))
                continue;
            if (cmdline)
                st->filename_append = false; /* the command line replaces */
            int rc = apply_kv(&list[k], job, st, err, errlen);
            if (rc == -ENOENT) {
                not_run(f, po, err); /* the command line as the file (--ignore-unknown) */
                continue;
            }
            if (rc)
                return -EINVAL;
        }
    return 0;
}

static int build_job(struct iom_fio_file *f, const struct lexed *lx, uint32_t sec_idx,
                     const struct iom_fio_parse_opts *po, struct iom_fio_job *fj, char *err,
                     size_t errlen)
{
    const struct section *sec = &lx->sec[sec_idx];
    struct iom_job *job = &fj->job;
    struct state st;
    memset(&st, 0, sizeof(st));
    st.loops = 1;
    st.randrepeat = true;
    st.invalidate = true;  /* fio's default */
    snprintf(st.jobname, sizeof(st.jobname), "%s", sec->name);
    /* fio's defaults: rw=read, bs=4k, iodepth=1, psync, buffered, no runtime limit */
    iom_job_defaults(job);
    job->fadvise = 1; /* fio's fadvise_hint=1: RANDOM or SEQUENTIAL by the pattern */
    job->rw = IOM_RW_READ;
    job->direct = false;
    job->fio_errors = true; /* errors continue_on_error lets pass: fio exits 0 */
    job->lat_from_submit = true; /* paced latency as fio's: from submission */
    job->iodepth_batch_submit = 1; /* fio's iodepth_batch=1: each I/O submitted (and its
                                      start taken) on its own (ioengines.c td_io_queue) */
    job->fallocate = 5;          /* fio 3.33 options.c: default native on Linux */
    job->fio_layout = true;      /* a file written first: as fio's extend_file */
    strcpy(job->ioengine, "psync");
    job->runtime_ns = 0;
    job->scramble_buffers = true; /* fio's default scramble_buffers=1 */
    fj->wait_for = -1;

    /* every [global] before this section, then the section, then the command line,
     * whose directory= fio applies before the job file (fio --directory=D job.fio:
     * job.fio's filename=x is D/x, unless its section names a directory itself) */
    if (po && apply_list(f, po, po->overrides, po->nr_overrides, true, 1, job, &st, err, errlen))
        return -EINVAL;
    for (uint32_t s = 0; s < sec_idx; s++)
        if (lx->sec[s].global && apply_list(f, po, &lx->kv[lx->sec[s].first], lx->sec[s].nr,
                                            false, 3, job, &st, err, errlen))
            return -EINVAL;
    /* fio 3.33 init.c get_new_job(): td->o.name = the section's name, so a [global]
     * name= never names a job; the section's own name= still does */
    snprintf(st.jobname, sizeof(st.jobname), "%s", sec->name);
    if (lx->kv && apply_list(f, po, &lx->kv[sec->first], sec->nr, false, 3, job, &st, err,
                             errlen))
        return -EINVAL;
    if (po && apply_list(f, po, po->overrides, po->nr_overrides, true, 2, job, &st, err, errlen))
        return -EINVAL;
    split_rates(&st, job);
    if (st.trim_split && iom_job_trims(job)) { /* a trim pattern's I/Os: bs's trim value */
        job->bs_bytes = st.trim_bs;
        job->nr_bssplit = st.nr_trim_bssplit;
        memcpy(job->bssplit, st.trim_bssplit, sizeof(job->bssplit));
    }
    if (iom_job_trims(job)) { /* writes' own sizes do not apply: a trimwrite writes its trim's block */
        job->wbs_bytes = 0;
        job->nr_wbssplit = 0;
    }
    if (f->nr_refused)
        return 0; /* the caller lists every refused option of the file at once */
    if (job->verify_pat_len && !st.verify_nohdr && !job->verify_fio)
        job->verify_fio = IOM_FV_PATTERN; /* fio: verify_pattern alone is VERIFY_PATTERN */
    if (job->verify && job->verify_fio)
        verify_interval_fixup(job);
    /* "job options": the section's own, then the command line's, replacing an
     * option of the same name (what took effect); skipped ones are not here */
    for (uint32_t k = 0; k < sec->nr && fj->nr_opts < IOM_FIO_MAX_OPTS; k++)
        if (!was_skipped(f, lx->kv[sec->first + k].line, lx->kv[sec->first + k].name))
            fj->opts[fj->nr_opts++] = lx->kv[sec->first + k];
    for (uint32_t k = 0; po && k < po->nr_overrides; k++) {
        const struct iom_fio_kv *o = &po->overrides[k];
        if (was_skipped(f, 0, o->name))
            continue;
        uint32_t i;
        for (i = 0; i < fj->nr_opts; i++)
            if (strcmp(fj->opts[i].name, o->name) == 0)
                break;
        if (i < fj->nr_opts)
            fj->opts[i] = *o;
        else if (fj->nr_opts < IOM_FIO_MAX_OPTS)
            fj->opts[fj->nr_opts++] = *o;
    }
    iom_fioj_fio_opts(fj->opts, &fj->nr_opts);
    /* fio's defaults that iomark follows: a random map (norandommap=0) and
     * invalidate=1; both recorded in the report */
    job->random_map = !st.norandommap;
    job->invalidate = st.invalidate && !st.pre_read; /* fio init.c: pre_read clears it */
    fj->pre_read = st.pre_read;
    fj->size_pct = st.size_pct;
    fj->offset_pct = st.offset_pct;
    fj->filesize = st.filesize;
    snprintf(fj->random_generator, sizeof(fj->random_generator), "%s",
             st.random_generator[0] ? st.random_generator : "tausworthe");
    fj->nr_pcts = st.nr_pcts;
    memcpy(fj->pcts, st.pcts, sizeof(fj->pcts));
    fj->pct_precision = st.nr_pcts ? st.pct_precision : 2;
    for (int k = 0; k < 3; k++)
        if (st.log_on[k])
            snprintf(fj->log_name[k], sizeof(fj->log_name[k]), "%s",
                     st.log_name[k][0] ? st.log_name[k] : st.jobname);
    fj->log_avg_msec = st.log_avg_msec;
    fj->log_offset = st.log_offset;
    if (st.log_on[0] || st.log_on[1] || st.log_on[2]) {
        job->sample_log = true; /* the workers keep what the logs need (stats/slog.h) */
        job->sample_log_avg_ns = (uint64_t)st.log_avg_msec * 1000000u;
    }
    if (st.rw_skip)
        job->seq_stride_bytes = iom_job_max_bs(job) + st.rw_skip;
    /* fio: sequential clones of one job on one file each walk the region from
     * its start (offset_increment, not in iomark, would space them); iomark's
     * native --numjobs gives each thread a slice instead */
    bool seq_clones = !iom_job_random(job) && job->numjobs > 1 && st.filename[0] &&
                      !job->offset_increment_bytes;
    if (seq_clones)
        job->seq_same_start = true;
    /* a buffered job says so in every report (fio's default is direct=0, iomark's own is
     * direct); the page-cache drop matters (and is noted) only for buffered I/O */
    snprintf(fj->note, sizeof(fj->note), "%s%s%s%s", st.unset_note,
             seq_clones ? "sequential clones each cover the whole region from its start (fio); " : "",
             job->direct ? "" : "buffered I/O through the page cache (direct=0, fio's default); ",
             job->direct ? ""
             : job->invalidate ? "invalidate=1: cached pages dropped before the run and at each pass (fio's default)"
                               : "invalidate=0: cached pages kept");
    size_t nl = strlen(fj->note);
    if (nl >= 2 && strcmp(fj->note + nl - 2, "; ") == 0)
        fj->note[nl - 2] = '\0';

    snprintf(fj->jobname, sizeof(fj->jobname), "%s", st.jobname);
    snprintf(job->name, sizeof(job->name), "%s", st.jobname);
    fj->line = sec->line;
    fj->time_based = st.time_based;
    fj->loops = st.loops;
    fj->group_reporting = st.group_reporting;
    fj->unlink = st.unlink;
    job->make_dirs = true; /* fio makes a name's folders; directory=: iom_fio_check_dirs */
    fj->nr_dirs = st.nr_dirs_seen; /* (none to check when --filename-map maps every file) */
    memcpy(fj->dirs, st.dirs_seen, sizeof(fj->dirs));
    memcpy(fj->dirs_line, st.dirs_seen_line, sizeof(fj->dirs_line));
    job->overwrite = st.overwrite; /* fio extend_file: writes the layout whatever fallocate */
    if (job->file_append && (iom_job_read_pct(job) || iom_job_trims(job) || job->verify))
        return fail(err, errlen, "line %u: [%s]: file_append=1 with reads, trims or verify (fio "
                    "would read past the file's end); iomark appends with writes only", sec->line,
                    sec->name);
    if (job->ratemin_bytes > job->rate_bytes_per_s && job->rate_bytes_per_s)
        return fail(err, errlen, "line %u: [%s]: rate_min=%llu is above rate=%llu (fio: \"minimum "
                    "rate exceeds rate\")", sec->line, sec->name,
                    (unsigned long long)job->ratemin_bytes, (unsigned long long)job->rate_bytes_per_s);
    if (job->rate_iops_min > job->rate_iops && job->rate_iops)
        return fail(err, errlen, "line %u: [%s]: rate_iops_min=%llu is above rate_iops=%llu (fio: "
                    "\"minimum rate exceeds rate\")", sec->line, sec->name,
                    (unsigned long long)job->rate_iops_min, (unsigned long long)job->rate_iops);
    if (st.wait_for[0]) { /* fio: the waitee is an earlier job, by name (HOWTO, wait_for) */
        uint32_t me = (uint32_t)(fj - f->jobs);
        for (uint32_t i = 0; i < me; i++)
            if (strcmp(f->jobs[i].jobname, st.wait_for) == 0)
                fj->wait_for = (int)i;
        if (fj->wait_for < 0)
            return fail(err, errlen, "line %u: [%s]: wait_for=%s: no earlier job has that name "
                        "(fio waits only for a job defined before)", sec->line, sec->name,
                        st.wait_for);
    }
    fj->fio_numjobs = job->numjobs;
    fj->fio_iodepth = job->iodepth;
    fj->groupid = st.stonewall || st.new_group ? 1 : 0; /* marks; numbered by the caller */
    fj->step = st.stonewall ? 1 : 0;
    if (!st.randrepeat && !st.seed_given)
        job->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32) ^ sec->line;

    if (st.time_based && !st.runtime_given) {
        /* fio 3.33 prints "fio: time_based requires a runtime/timeout setting" and
         * runs the job size-based (checked: size=64k bs=4k does 16 reads) */
        fprintf(stderr, "iomark: warning: line %u: [%s]: time_based requires a runtime/timeout "
                "setting; the job runs size-based (as fio)\n", sec->line, sec->name);
        st.time_based = false;
        fj->time_based = false;
    }

    /* files: fio 3.33 add_job() -> make_filename() names them after the section
     * (its jobname argument), not after name= */
    static char files[MAX_FILES][1024], paths[MAX_FILES][1024];
    uint32_t k = 0, kp = 0;
    bool named = st.filename[0] != '\0';
    fj->generated_files = !named;
    fj->files_per_clone = named ? 1 : (st.nrfiles ? st.nrfiles : 1);
    job->clone_files = named ? 0 : fj->files_per_clone; /* a clone's start delay (jobctl.h) */
    if (named) {
        if (split_files(st.filename, files, &k) || k == 0 ||
            split_files(st.filename_path, paths, &kp) || kp != k)
            return fail(err, errlen, "line %u: [%s]: filename: 1 to %d names joined by ':'",
                        sec->line, sec->name, MAX_FILES);
    } else {
        uint32_t nrf = st.nrfiles ? st.nrfiles : 1;
        if ((uint64_t)job->numjobs * nrf > MAX_FILES)
            return fail(err, errlen, "line %u: [%s]: numjobs=%u x nrfiles=%u without filename "
                        "would make %llu files; at most %d", sec->line, sec->name, job->numjobs,
                        nrf, (unsigned long long)job->numjobs * nrf, MAX_FILES);
        for (uint32_t c = 0; c < job->numjobs; c++)
            for (uint32_t fn = 0; fn < nrf; fn++, k++) {
                if (format_name(files[k], st.filename_format[0] ? st.filename_format
                                          : "$jobname.$jobnum.$filenum", sec->name, c, fn))
                    return fail(err, errlen, "line %u: [%s]: filename_format=%s: a file name "
                                "over 1023 characters", sec->line, sec->name, st.filename_format);
                char d[1024]; /* fio init.c: add_file(..., job_add_num): folder c of the list */
                bool dir = iom_fioj_dir_at(st.directory, c, d, sizeof(d)) > 0;
                snprintf(paths[k], sizeof(paths[k]), "%s%s%s", dir ? d : "", dir ? "/" : "",
                         files[k]);
            }
    }
    uint32_t mapped = 0; /* every file mapped: directory= names no folder used */
    for (uint32_t i = 0; i < k; i++) {
        char path[2100];
        const char *m = map_name(po, files[i], &f->maps_used);
        snprintf(path, sizeof(path), "%s", m ? m : paths[i]);
        const char *m2 = map_name(po, path, &f->maps_used);
        mapped += m || m2;
        if (iom_job_add_target(job, m2 ? m2 : path))
            return -ENOMEM;
    }
    if (mapped == k)
        fj->nr_dirs = 0;
    if (job->fill_device) {
        /* fio's fill_device: sequential writes into the free space until ENOSPC */
        if (job->rw != IOM_RW_WRITE || job->nr_bssplit || job->seq_back_bytes || st.rw_skip)
            return fail(err, errlen, "line %u: [%s]: fill_device: iomark fills with a plain "
                        "sequential write (rw=write, one block size)", sec->line, sec->name);
        job->size_bytes = 0; /* the region is the free space (core/target.c) */
        st.size_given = false;
        st.filesize = 0;
    }
    /* sizes: fio's size is the job's total over its files, filesize one file's size */
    uint64_t size = job->size_bytes, bs = iom_job_max_bs(job);
    uint64_t per_file_io;
    uint32_t nf = named ? k : (st.nrfiles ? st.nrfiles : 1); /* files of one clone */
    if (st.openfiles && st.openfiles < nf)
        return fail(err, errlen, "line %u: openfiles=%llu: iomark keeps all %u files of [%s] "
                    "open, one thread each; allowed openfiles >= the job's files",
                    st.openfiles_line, (unsigned long long)st.openfiles, nf, sec->name);
    if (!named) {
        if (job->offset_increment_bytes && job->numjobs > 1)
            return fail(err, errlen, "line %u: [%s]: offset_increment with numjobs=%u and no "
                        "filename: iomark runs such clones on generated files of their own, "
                        "where fio's increments have nothing to space; name the file",
                        sec->line, sec->name, job->numjobs);
        job->numjobs = 1; /* one thread per generated file */
    }
    uint64_t share = size / nf;
    /* whole blocks per file; fio's backward walk uses a named file's whole size
     * (io_u.c get_next_seq_offset wraps to io_size - skip) */
    if (nf > 1 || (named && !job->seq_back_bytes))
        share -= share % bs;
    if (st.size_given && !st.size_pct && share == 0)
        return fail(err, errlen, "line %u: [%s]: size=%llu over %u files leaves less than one "
                    "block per file", sec->line, sec->name, (unsigned long long)size, nf);
    job->size_bytes = st.filesize ? st.filesize : share;
    per_file_io = st.size_given ? share : st.filesize;
    if (st.filesize && named && job->offset_increment_bytes && job->numjobs > 1) {
        /* fio (filesetup.c setup_files): the file is filesize bytes and clone k's
         * region runs from offset + k x offset_increment to its end; size= only
         * limits the I/O. Here: create the file at filesize, regions to the end */
        job->create_bytes = st.filesize;
        job->size_bytes = 0;
        if (!st.size_given)
            per_file_io = 0; /* each clone one pass over its own region */
    }
    if (nf > 1) {
        uint32_t d = job->iodepth;
        job->iodepth = (d + nf - 1) / nf;
        if (job->rate_iops)
            job->rate_iops = (job->rate_iops + nf - 1) / nf;
        if (job->rate_bytes_per_s)
            job->rate_bytes_per_s = (job->rate_bytes_per_s + nf - 1) / nf;
        if (job->rate_w_iops && job->rate_w_iops != UINT64_MAX)
            job->rate_w_iops = (job->rate_w_iops + nf - 1) / nf;
        if (job->rate_w_bytes_per_s && job->rate_w_bytes_per_s != UINT64_MAX)
            job->rate_w_bytes_per_s = (job->rate_w_bytes_per_s + nf - 1) / nf;
        job->ratemin_bytes /= nf; /* the minimum rates too, per file's thread */
        job->rate_iops_min /= nf;
        if (job->flow) /* the clone's flow weight shared by its threads */
            job->flow = (job->flow + nf - 1) / nf;
        char prev[sizeof(fj->note)];
        memcpy(prev, fj->note, sizeof(prev));
        snprintf(fj->note, sizeof(fj->note),
                 "%u files: run as one thread per file and clone, iodepth %u%s each "
                 "(fio: one thread per clone, iodepth %u over all files, file_service_type=%s)"
                 "%s%s", nf, job->iodepth,
                 job->rate_iops || job->rate_bytes_per_s || job->ratemin_bytes ||
                 job->rate_iops_min || job->flow ? " and 1/k of the rates and flow weight" : "", d,
                 st.file_service[0] ? st.file_service : "roundrobin", prev[0] ? "; " : "", prev);
    }
    if (st.io_size) /* io_size: the job's I/O amount instead of size */
        per_file_io = st.io_size / nf;
    if (st.number_ios) { /* fio's number_ios: N I/Os per clone, here as bytes */
        if (job->nr_bssplit)
            return fail(err, errlen, "line %u: [%s]: number_ios with bssplit/bsrange: iomark "
                        "limits I/O in bytes, which mixed sizes make inexact", sec->line,
                        sec->name);
        uint64_t b = st.number_ios * job->bs_bytes / nf;
        if (!per_file_io || b < per_file_io)
            per_file_io = b ? b : job->bs_bytes;
    }
    if (!st.time_based) {
        if (per_file_io) {
            if ((unsigned __int128)per_file_io * st.loops > UINT64_MAX)
                return fail(err, errlen, "line %u: [%s]: size x loops is too large", sec->line,
                            sec->name);
            job->io_limit_bytes = per_file_io * st.loops;
            if (per_file_io == job->size_bytes && !st.io_size && !st.number_ios)
                job->io_passes = st.loops; /* passes over the region: none wraps (fio) */
        } else {
            /* the size of the file or device: set by the caller once known */
            fj->limit_is_region = true;
            job->io_limit_bytes = UINT64_MAX;
            job->io_passes = st.loops;
        }
    }
    if (job->nr_targets == 0)
        return fail(err, errlen, "line %u: [%s]: no file", sec->line, sec->name);
    if (st.block_err && job->nr_targets != 1) /* fio init.c fixup_options */
        return fail(err, errlen, "line %u: [%s]: block_error_percentiles: fio's block error "
                    "histogram is only available with a single file per job, but %u files "
                    "provided", sec->line, sec->name, job->nr_targets);
    if (st.block_err) /* per block of fio's bs[DDIR_TRIM] (filesetup.c) */
        job->block_info_bs = st.trim_split ? st.trim_bs : iom_job_min_bs(job);
    return 0;
}

/* iom_fio_parse_text for the job file at path (NULL: text from elsewhere): fio's
 * include lines find their files beside it too */
static int parse_at(const char *text, const char *path, const struct iom_fio_parse_opts *po,
                    struct iom_fio_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    struct lexed lx = {.path = path};
    int rc = iom_fioj_lex(text, &lx, err, errlen);
    if (rc)
        goto out;
    uint32_t nj = 0;
    for (uint32_t s = 0; s < lx.nr_sec; s++) {
        if (lx.sec[s].global) {
            for (uint32_t k = 0; k < lx.sec[s].nr && out->nr_global < IOM_FIO_MAX_OPTS; k++)
                out->global[out->nr_global++] = lx.kv[lx.sec[s].first + k];
        } else {
            nj++;
        }
    }
    if (nj == 0) {
        rc = fail(err, errlen, "no job section: a job file needs at least one [name] section "
                  "besides [global]");
        goto out;
    }
    out->jobs = calloc(nj, sizeof(*out->jobs));
    if (!out->jobs) {
        rc = -ENOMEM;
        goto out;
    }
    uint32_t step = 0, group = 0;
    for (uint32_t s = 0; s < lx.nr_sec; s++) {
        if (lx.sec[s].global)
            continue;
        struct iom_fio_job *fj = &out->jobs[out->nr_jobs];
        /* fio's kb_base applies to every size of the job wherever it stands (fio parses
         * it first: options.c "kb_base" has .prio = 1): [global]s before, the section,
         * then the command line */
        unsigned kb = 1024;
        for (uint32_t t = 0; t <= s; t++)
            for (uint32_t k = 0; (t == s || lx.sec[t].global) && lx.kv && k < lx.sec[t].nr; k++)
                if (strcmp(lx.kv[lx.sec[t].first + k].name, "kb_base") == 0)
                    kb = strcmp(lx.kv[lx.sec[t].first + k].value, "1000") == 0 ? 1000 : 1024;
        for (uint32_t k = 0; po && k < po->nr_overrides; k++)
            if (strcmp(po->overrides[k].name, "kb_base") == 0)
                kb = strcmp(po->overrides[k].value, "1000") == 0 ? 1000 : 1024;
        iom_units_fio_kb_base(kb); /* sizes as fio reads them (units.h) */
        rc = build_job(out, &lx, s, po, fj, err, errlen);
        iom_units_fio_kb_base(0);
        fj->kb_base = kb;
        out->nr_jobs++; /* counted even on failure, so free() sees its targets */
        if (rc)
            goto out;
        if (out->nr_refused)
            continue;
        if (out->nr_jobs > 1) {
            step += fj->step;
            group += fj->groupid;
        }
        fj->step = step;
        fj->groupid = group;
    }
    mark_engine_options(out->refused, out->nr_refused);
    mark_engine_options(out->ignored, out->nr_ignored);
    if (out->nr_refused) {
        size_t o = (size_t)snprintf(err, errlen, "%u option%s iomark does not run (see "
                                    "docs/fio-jobs.md; --ignore-unknown skips them): ",
                                    out->nr_refused, out->nr_refused > 1 ? "s" : "");
        for (uint32_t i = 0; i < out->nr_refused && o < errlen; i++)
            o += (size_t)snprintf(err + o, errlen - o, "%s%s", i ? "; " : "", out->refused[i]);
        rc = -EINVAL;
        goto out;
    }
    /* "global options": what took effect; skipped ones are listed as skipped only */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < out->nr_global; i++)
        if (!was_skipped(out, out->global[i].line, out->global[i].name))
            out->global[kept++] = out->global[i];
    out->nr_global = kept;
    iom_fioj_fio_opts(out->global, &out->nr_global);
    /* fio's exitall is global (options.c str_exitall_cb): one job's sets it for every job */
    bool exitall = false;
    for (uint32_t i = 0; i < out->nr_jobs; i++)
        exitall |= out->jobs[i].job.exitall;
    for (uint32_t i = 0; i < out->nr_jobs; i++)
        out->jobs[i].job.exitall = exitall;
    /* fio numbers every clone of every job (thread_number), which its dedupe_global
     * working sets use (dedupe.c): here every thread (clone x file) in file order */
    uint32_t nthreads = 0;
    for (uint32_t i = 0; i < out->nr_jobs; i++) {
        out->jobs[i].job.thread_base = nthreads;
        const struct iom_job *jb = &out->jobs[i].job;
        nthreads += jb->numjobs * (jb->nr_targets ? jb->nr_targets : 1);
    }
    for (uint32_t i = 0; i < out->nr_jobs; i++)
        out->jobs[i].job.threads_all = nthreads;
    out->nr_steps = step + 1;
    out->nr_groups = group + 1;
    rc = check_maps(out, po, err, errlen);
out:
    free(lx.kv);
    free(lx.sec);
    if (rc)
        iom_fio_file_free(out);
    return rc;
}

int iom_fio_parse_file(const char *path, const struct iom_fio_parse_opts *po,
                       struct iom_fio_file *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof(*out));
    bool in = strcmp(path, "-") == 0; /* fio reads a job file named - from stdin */
    FILE *f = in ? stdin : fopen(path, "r");
    if (!f) {
        int e = errno;
        snprintf(err, errlen, "%s: %s", path, strerror(e));
        return -e;
    }
    size_t cap = 65536, len = 0;
    char *text = malloc(cap);
    int rc = 0;
    while (text) {
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (len < cap - 1)
            break;
        if (cap >= (size_t)16 << 20) {
            rc = fail(err, errlen, "16 MiB or larger; not a job file");
            break;
        }
        char *t = realloc(text, cap * 2);
        if (!t) {
            free(text);
            text = NULL;
            break;
        }
        text = t;
        cap *= 2;
    }
    if (!in)
        fclose(f);
    if (!text)
        return -ENOMEM;
    text[len] = '\0';
    if (!rc && memchr(text, '\0', len))
        rc = fail(err, errlen, "contains NUL bytes; not a job file");
    if (!rc)
        rc = parse_at(text, path, po, out, err, errlen);
    free(text);
    return rc;
}

int iom_fio_parse_text(const char *text, const struct iom_fio_parse_opts *po,
                       struct iom_fio_file *out, char *err, size_t errlen)
{
    return parse_at(text, NULL, po, out, err, errlen);
}

void iom_fio_file_free(struct iom_fio_file *f)
{
    for (uint32_t i = 0; i < f->nr_jobs; i++)
        iom_job_free(&f->jobs[i].job);
    free(f->jobs);
    memset(f, 0, sizeof(*f));
}
