/* common.c - signals, progress line and the run pipeline shared by commands. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/progress.h"
#include "compare/cmp.h"
#include "engine/engine.h"
#include "workload/args.h"
#include "workload/units.h"

volatile sig_atomic_t iom_cli_stop;

static void on_signal(int sig)
{
    if (!iom_cli_stop)
        iom_cli_stop = sig;
}

void iom_cli_signals_install(void)
{
#ifdef _WIN32 /* console control events (Ctrl+C, Ctrl+Break, close) */
    iom_win_signals_install(on_signal);
#else
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* a reader that went away (`iomark mark | head -1`): without a handler
     * the write kills the process mid-run and its test file stays behind;
     * with one the write fails (EPIPE) and the run stops and cleans up as on
     * Ctrl-C, exit 141 */
    sigaction(SIGPIPE, &sa, NULL);
#endif
}

int iom_cli_signal_exit(int sig)
{
    return 128 + sig;
}

char iom_cli_last_error[512];

void iom_cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    iom_cli_progress_clear();
    char msg[8192]; /* a job file's refusal lists all its options */
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    iom_cli_line("iomark %s: %s\n", cmd, msg);
    snprintf(iom_cli_last_error, sizeof(iom_cli_last_error), "%s", msg);
}

void iom_cli_line(const char *fmt, ...)
{
    /* one write: under mpirun the ranks share stderr, and pieces of
     * lines written apart interleave ("iomark x: iomark x: ...") */
    char line[8400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
    if ((size_t)n >= sizeof(line))
        line[len - 1] = '\n';
    fflush(stderr);
    for (size_t off = 0; off < len;) {
        ssize_t w = write(STDERR_FILENO, line + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
}

int iom_cli_check_output(const char *cmd, const char *path, int force)
{
    if (!path)
        return 0;
    char what[300];
    int danger = iom_output_danger(path, what, sizeof(what));
    if (danger == IOM_OUTPUT_DEVICE) {
        iom_cli_error(cmd, "--output=%s: is a block device, which the results would be written "
                      "over; name a file", path);
        return IOM_EXIT_USAGE;
    }
    if (danger == IOM_OUTPUT_SIGNATURE && force != 1) {
        iom_cli_error(cmd, "--output=%s: %s (a filesystem or disk image?), which the results "
                      "would replace; name another file%s", path, what,
                      force == 0 ? ", or add --force to replace it" : "");
        return IOM_EXIT_USAGE;
    }
    char *dup = strdup(path);
    if (!dup)
        return IOM_EXIT_FAIL;
    const char *dir = dirname(dup);
    struct stat st;
    int rc = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char err[600];
        iom_path_folder_error(path, "--output", err, sizeof(err));
        iom_cli_error(cmd, "%s", err);
        rc = IOM_EXIT_USAGE;
    } else if (access(dir, W_OK) != 0) {
        iom_cli_error(cmd, "--output=%s: folder %s is not writable", path, dir);
        rc = IOM_EXIT_USAGE;
    } else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        iom_cli_error(cmd, "--output=%s: is a folder; name a file", path);
        rc = IOM_EXIT_USAGE;
    } else if (iom_output_in_place(path)) { /* /dev/null, /dev/stdout: written in place */
        if (access(path, W_OK) != 0) {
            iom_cli_error(cmd, "--output=%s: not writable: %s", path, strerror(errno));
            rc = IOM_EXIT_USAGE;
        }
    } else {
        /* create and remove the temporary the result is written through, so a
         * folder that refuses new files (/proc, read-only mounts) is found now */
        char tmp[4200];
        snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0) {
            /* procfs and sysfs answer ENOENT for a file they do not make */
            iom_cli_error(cmd,
                          "--output=%s: cannot create files in folder %s (the results "
                          "are written beside it first): %s",
                          path, dir, errno == ENOENT ? "it accepts no new files" : strerror(errno));
            rc = IOM_EXIT_USAGE;
        } else {
            close(fd);
            unlink(tmp);
        }
    }
    free(dup);
    return rc;
}

/* The absolute form of path for comparing names of files that may not
 * exist yet: the real path of its folder (links and ".." resolved) and its
 * last part; 0, or -1 when the folder cannot be resolved. */
static int abs_name(const char *path, char *buf, size_t len)
{
    char *d = strdup(path), *b = strdup(path);
    int rc = -1;
    if (d && b) {
        char *real = realpath(dirname(d), NULL);
        if (real) {
            const char *base = basename(b);
            snprintf(buf, len, "%s/%s", strcmp(real, "/") ? real : "", base);
            free(real);
            rc = 0;
        }
    }
    free(d);
    free(b);
    return rc;
}

/* Do a and b name the same file: one inode when both exist, else the same
 * absolute name (a file one of them would create)? */
static bool same_file(const char *a, const char *b)
{
    char na[4200], nb[4200];
#ifdef _WIN32 /* st_ino is 0 for every file there: the full names, in any case */
    return abs_name(a, na, sizeof(na)) == 0 && abs_name(b, nb, sizeof(nb)) == 0 &&
           strcasecmp(na, nb) == 0;
#else
    struct stat sa, sb;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb)
        return false;
    return abs_name(a, na, sizeof(na)) == 0 && abs_name(b, nb, sizeof(nb)) == 0 &&
           strcmp(na, nb) == 0;
#endif
}

int iom_cli_output_apart(const char *cmd, const char *out, const char *const *names, size_t n,
                         const char *what)
{
    if (!out)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (names[i] && same_file(out, names[i])) {
            iom_cli_error(cmd, "--output=%s: is also %s %s, which the results would replace; "
                          "name another file", out, what, names[i]);
            return IOM_EXIT_USAGE;
        }
    }
    return 0;
}

int iom_cli_bad_choice(const char *cmd, const char *name, const char *v, const char *const *known,
                       const char *list)
{
    char why[400];
    iom_allowed_near_list(why, sizeof(why), v ? v : "", known, list);
    iom_cli_error(cmd, "--%s=%s: %s", name, v ? v : "", why);
    return IOM_EXIT_USAGE;
}

struct apart_ctx {
    const char *cmd, *out;
};

/* iom_cmp_file_fn: an input file that exists is not --output */
static int apart_one(const char *path, void *arg)
{
    const struct apart_ctx *c = arg;
    struct stat st;
    if (stat(path, &st) != 0)
        return 0; /* the load names it as missing */
    return iom_cli_output_apart(c->cmd, c->out, &path, 1, "the input");
}

int iom_cli_output_apart_specs(const char *cmd, const char *out, const char *const *specs,
                               size_t n)
{
    struct apart_ctx c = {cmd, out};
    for (size_t i = 0; out && i < n; i++) {
        int rc = iom_cmp_spec_each(specs[i], NULL, 0, apart_one, &c);
        if (rc)
            return rc == -ENOMEM ? IOM_EXIT_FAIL : rc;
    }
    return 0;
}

/* The options that make up a target's region, in cmd's own words. */
static const char *region_words(const char *cmd)
{
    if (strcmp(cmd, "mark") == 0)
        return "--size";
    if (strcmp(cmd, "diskspd") == 0)
        return "-c, -B and -f";
    return "--offset and --size";
}

/* Replace the n bytes at at (inside s, a string in a buffer of len bytes) with to, cut to fit. */
static void swap_at(char *s, size_t len, char *at, size_t n, const char *to)
{
    char tail[1024];
    snprintf(tail, sizeof(tail), "%s", at + n);
    snprintf(at, len - (size_t)(at - s), "%s%s", to, tail);
}

/* A target message of src/core names run's options; mark and diskspd have
 * their own: the region's "--offset and --size" (region_words), diskspd's
 * "a smaller -c", and what writes: mark's write tests, diskspd's -wN. */
static void front_words(const char *cmd, const struct iom_job *job, char *err, size_t len)
{
    bool ds = strcmp(cmd, "diskspd") == 0, mark = strcmp(cmd, "mark") == 0;
    if (!ds && !mark)
        return;
    char *at = strstr(err, "--offset and --size");
    if (at)
        swap_at(err, len, at, strlen("--offset and --size"), region_words(cmd));
    if (ds && (at = strstr(err, "a smaller --size")))
        swap_at(err, len, at, strlen("a smaller --size"), "a smaller -c");
    const char *rw = "for --rw=";
    if ((at = strstr(err, rw))) {
        char w[32];
        size_t n = strlen(rw) + strspn(at + strlen(rw), "abcdefghijklmnopqrstuvwxyz");
        snprintf(w, sizeof(w), "for -w%u", 100 - iom_job_read_pct(job));
        swap_at(err, len, at, n, ds ? w : "for its write tests");
    }
}

int iom_cli_check(const char *cmd, const struct iom_job *job, const struct iom_run_opts *ro,
                  struct iom_target *targets)
{
    const char *opt = NULL, *why = NULL;
    if (iom_job_validate(job, &opt, &why)) {
        if (strcmp(opt, "target") == 0)
            iom_cli_error(cmd, "%s", why);
        else
            iom_cli_error(cmd, "--%s: %s", opt, why);
        return IOM_EXIT_USAGE;
    }
    /* buffers: threads x iodepth x block size, at most a quarter of RAM */
    unsigned __int128 mem = (unsigned __int128)job->nr_targets * job->numjobs * job->iodepth *
                            iom_job_max_bs(job);
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    unsigned __int128 limit = pages > 0 && psz > 0 ? (unsigned __int128)pages * (unsigned long)psz / 4
                                                   : (unsigned __int128)1 << 32;
    if (mem > limit) {
        iom_cli_error(cmd,
                      "--iodepth=%u with --numjobs=%u and --bs of %llu bytes on %u target(s) "
                      "needs %llu MiB of I/O buffers; the limit is a quarter of RAM (%llu MiB)",
                      job->iodepth, job->numjobs, (unsigned long long)iom_job_max_bs(job),
                      job->nr_targets, (unsigned long long)(mem >> 20),
                      (unsigned long long)(limit >> 20));
        return IOM_EXIT_USAGE;
    }
    if (job->numjobs * job->nr_targets > 4096) {
        iom_cli_error(cmd, "--numjobs=%u on %u targets makes more than 4096 threads", job->numjobs,
                      job->nr_targets);
        return IOM_EXIT_USAGE;
    }
    int rc = iom_cli_check_output(cmd, ro->output_path, job->force);
    if (!rc)
        rc = iom_cli_output_apart(cmd, ro->output_path, (const char *const *)job->targets,
                                  job->nr_targets, "the target");
    if (rc)
        return rc;
    for (uint32_t i = 0; i < job->nr_targets; i++) {
        char err[600];
        for (uint32_t k = 0; k < i; k++) {
            if (strcmp(job->targets[k], job->targets[i]) == 0 && !ro->repeat_targets) {
                iom_cli_error(cmd, "target %s is named twice", job->targets[i]);
                return IOM_EXIT_USAGE;
            }
        }
        if (iom_target_check(job, job->targets[i], &targets[i], err, sizeof(err))) {
            front_words(cmd, job, err, sizeof(err));
            iom_cli_error(cmd, "%s", err);
            return IOM_EXIT_USAGE;
        }
        if ((job->verify || job->verify_fio) && !iom_job_writes(job) && !targets[i].exists &&
            !ro->fio_job_file) {
            /* fio 3.33 lays the file out and fails at the first read ("verify:
             * bad magic header"): nothing there was written by a verify run */
            iom_cli_error(cmd, "--verify: a read-only run checks blocks that a verify write run "
                          "put there, but %s does not exist yet and would be created with no "
                          "verify blocks; write it first (--rw=write with the same --bs and "
                          "--verify), or drop --verify", job->targets[i]);
            return IOM_EXIT_USAGE;
        }
        if (targets[i].sparse && !iom_job_writes(job))
            iom_cli_line("iomark %s: warning: %s is sparse; unwritten regions read back as zeros "
                    "without device I/O and look fast\n",
                    cmd, job->targets[i]);
    }
    return 0;
}

void iom_cli_depth_note(const char *cmd, const struct iom_run_opts *ro, const char *engine,
                        const char *given, unsigned depth)
{
    if ((ro && ro->quiet) || iom_engine_depth(engine, depth) == depth)
        return;
    iom_cli_line("iomark %s: note: %s with --ioengine=%s, a synchronous engine: 1 I/O in "
                 "flight per thread, so the queue depth is 1, as fio caps it\n", cmd, given, engine);
}

static void fill_progress(double pct, void *arg)
{
    char d[160];
    snprintf(d, sizeof(d), "creating %s: %.0f%%", (const char *)arg, pct);
    iom_cli_progress_phase("preparing", d, pct / 100);
}

void iom_cli_close(struct iom_target *targets, unsigned nr, bool remove_created)
{
    for (unsigned i = 0; i < nr; i++)
        iom_target_close(&targets[i], remove_created);
}

void iom_cli_close_noted(const char *cmd, struct iom_target *targets, unsigned nr, bool keep,
                         enum iom_cli_note how)
{
    bool note = how != IOM_NOTE_NONE, removal = how == IOM_NOTE_ALL;
    for (unsigned i = 0; i < nr; i++) {
        struct stat st;
        bool again = false; /* the same file named twice: one line */
        for (unsigned k = 0; k < i; k++)
            again |= strcmp(targets[k].path, targets[i].path) == 0;
        bool named = note && targets[i].created && !again && stat(targets[i].path, &st) == 0 &&
                     S_ISREG(st.st_mode);
        char size[64];
        if (named)
            iom_format_bytes((uint64_t)st.st_size, size, sizeof(size));
        /* --keep=0 asked for a removal that does not happen: say why */
        bool existing = removal && !keep && !targets[i].created && !again &&
                        stat(targets[i].path, &st) == 0 && S_ISREG(st.st_mode);
        iom_target_close(&targets[i], !keep);
        if (existing)
            fprintf(stderr,
                    "iomark %s: the test file %s existed before the run and is left in place "
                    "(--keep=0 removes only a file iomark created)\n",
                    cmd, targets[i].path);
        if (note && targets[i].extended && !targets[i].created && !again &&
            stat(targets[i].path, &st) == 0) { /* a file the user had, now larger */
            char was[64], now[64];
            fprintf(stderr,
                    "iomark %s: the test file %s was %s; iomark extended it to %s for the region "
                    "of %s (the new part holds random data), and it stays so\n",
                    cmd, targets[i].path, iom_format_bytes(targets[i].extended_from, was, sizeof(was)),
                    iom_format_bytes((uint64_t)st.st_size, now, sizeof(now)), region_words(cmd));
        }
        if (!named)
            continue;
        bool gone = !keep && stat(targets[i].path, &st) != 0;
        if (gone && removal)
            fprintf(stderr, "iomark %s: removed the test file %s it created, %s (--keep=0)\n", cmd,
                    targets[i].path, size);
        else if (!gone) /* mark removes its file unless --keep: "without --keep" */
            fprintf(stderr,
                    "iomark %s: the test file %s it created is left in place, %s; remove it with "
                    "rm %s, or run %s to remove it at the end\n",
                    cmd, targets[i].path, size, targets[i].path,
                    removal ? "with --keep=0" : "without --keep");
    }
}

int iom_cli_prepare(const char *cmd, const struct iom_job *job, const struct iom_run_opts *ro,
                    struct iom_target *targets)
{
    char err[600];
    bool show = !ro->quiet;
    for (uint32_t i = 0; i < job->nr_targets; i++) {
        int rc = 0;
        for (uint32_t k = 0; k < i && ro->repeat_targets; k++)
            if (strcmp(job->targets[k], job->targets[i]) == 0) { /* made by entry k: look again */
                rc = iom_target_check(job, job->targets[i], &targets[i], err, sizeof(err));
                break;
            }
        if (rc == 0)
            rc = iom_target_prepare(job, &targets[i], &iom_cli_stop, show ? fill_progress : NULL,
                                    (void *)targets[i].path, err, sizeof(err));
        iom_cli_progress_clear();
        if (rc == 0)
            rc = iom_target_open(job, &targets[i], err, sizeof(err));
        if (rc) {
            /* a file created here and left half filled is of no use: removed
             * whatever --keep says (an existing file is never removed) */
            iom_cli_close(targets, i + 1, true);
            if (rc == -EINTR) {
                iom_cli_error(cmd, "interrupted while creating %s; removed it", targets[i].path);
                if (ro->format == IOM_OUT_JSON) { /* a valid document: nothing measured */
                    cJSON *doc = iom_json_error_doc(cmd, "interrupted while creating the test file");
                    if (doc) {
                        cJSON_ReplaceItemInObject(doc, "status", cJSON_CreateString("interrupted"));
                        cJSON_AddStringToObject(doc, "interrupted_by", iom_signal_name(iom_cli_stop));
                        iom_cli_emit_json(cmd, doc, ro);
                        cJSON_Delete(doc);
                    }
                }
                return iom_cli_signal_exit(iom_cli_stop);
            }
            front_words(cmd, job, err, sizeof(err));
            iom_cli_error(cmd, "%s", err);
            /* a target that cannot be opened is a refusal, as in iom_cli_check
             * (exit 2, nothing written): permissions, a missing or read-only path */
            if (rc == -EINVAL || rc == -EACCES || rc == -EPERM || rc == -EROFS || rc == -ENOENT)
                return IOM_EXIT_USAGE;
            iom_cli_emit_failure(cmd, ro, err);
            return IOM_EXIT_FAIL;
        }
    }
    return 0;
}

void iom_cli_emit_failure(const char *cmd, const struct iom_run_opts *ro, const char *message)
{
    if (ro->format == IOM_OUT_JSON) {
        cJSON *doc = iom_json_error_doc(cmd, message);
        if (doc) {
            iom_cli_emit_json(cmd, doc, ro);
            cJSON_Delete(doc);
        }
    } else if (ro->output_path) {
        FILE *f = fopen(ro->output_path, "w");
        if (f) {
            fprintf(f, "iomark %s: error: %s\n", cmd, message);
            fclose(f);
        }
    }
}

int iom_cli_emit_json(const char *cmd, const cJSON *doc, const struct iom_run_opts *ro)
{
    int rc = iom_json_write(doc, ro->output_path);
    return rc ? iom_cli_write_failed(cmd, ro->output_path, rc) : 0;
}

int iom_cli_write_failed(const char *cmd, const char *path, int rc)
{
    if (!path && rc == -EPIPE)
        return iom_cli_signal_exit(SIGPIPE);
    iom_cli_error(cmd, "writing %s: %s", path ? path : "standard output", strerror(-rc));
    return IOM_EXIT_FAIL;
}

int iom_cli_fclose(const char *cmd, FILE *f, const char *path)
{
    errno = 0;
    int rc = 0;
    if (fflush(f) != 0 || ferror(f))
        rc = errno ? -errno : -EIO; /* -EIO: an earlier write failed, its errno is gone */
    if (f != stdout && fclose(f) != 0 && !rc)
        rc = errno ? -errno : -EIO;
    return rc ? iom_cli_write_failed(cmd, f == stdout ? NULL : path, rc) : 0;
}

int iom_cli_stdout_status(const char *cmd, int rc)
{
    if (rc) { /* the command has said what went wrong */
        fflush(stdout);
        return rc;
    }
    return iom_cli_fclose(cmd, stdout, NULL);
}
