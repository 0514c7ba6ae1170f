/* fiojob_value.c - the fio job file's lines and values: sections, comments, ${VAR},
 * include FILE, fio's built-in variables, arithmetic, size=/offset= percentages, and
 * whether an argument is a job file (see fiojob_int.h, fiojob.h, docs/fio-jobs.md). */
#include "workload/fiojob_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/spec.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

/* ---- lexing ---- */

char *iom_fioj_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Expand ${NAME} from the environment into out; an unset NAME becomes "", as
 * fio 3.33 (options.c fio_option_dup_subs), the first one kept in unset. */
static int expand(const char *in, char *out, size_t outlen, uint32_t line, char unset[32],
                  char *err, size_t errlen)
{
    unset[0] = '\0';
    size_t o = 0;
    for (const char *p = in; *p;) {
        if (p[0] == '$' && p[1] == '{') {
            const char *end = strchr(p + 2, '}');
            if (!end)
                return fail(err, errlen, "line %u: '${' without a closing '}'", line);
            char name[128];
            size_t nl = (size_t)(end - p - 2);
            if (nl == 0 || nl >= sizeof(name))
                return fail(err, errlen, "line %u: bad variable name in '%.*s'", line,
                            (int)(end - p + 1), p);
            memcpy(name, p + 2, nl);
            name[nl] = '\0';
            const char *v = getenv(name);
            if (!v) {
                if (!unset[0])
                    snprintf(unset, 32, "%.31s", name);
                v = "";
            }
            size_t vl = strlen(v);
            if (o + vl >= outlen)
                return fail(err, errlen, "line %u: line too long after expanding ${%s}", line,
                            name);
            memcpy(out + o, v, vl);
            o += vl;
            p = end + 1;
            continue;
        }
        if (o + 1 >= outlen)
            return fail(err, errlen, "line %u: line too long", line);
        out[o++] = *p++;
    }
    out[o] = '\0';
    return 0;
}

/*
 * fio's built-in variables ($pagesize, $ncpus, $mb_memory; fio's HOWTO,
 * "Job file parameters": sysconf(_SC_PAGESIZE), the online CPUs, the
 * physical memory in MiB). As fio (options.c, fio_option_dup_subs), a
 * value holding one is replaced with the value in parentheses, so that
 * "5*1024*1024*$mb_memory/8" becomes an arithmetic expression. Returns
 * true when out holds a substituted value.
 */
static bool builtins(const char *val, char *out, size_t outlen)
{
    if (!strchr(val, '$'))
        return false;
    size_t o = 0;
    bool any = false;
    out[o++] = '(';
    for (const char *p = val; *p;) {
        static const char *const names[] = {"$pagesize", "$ncpus", "$mb_memory"};
        size_t k;
        for (k = 0; k < 3; k++)
            if (strncmp(p, names[k], strlen(names[k])) == 0)
                break;
        if (k < 3) {
            long long v;
            if (k == 0)
                v = sysconf(_SC_PAGESIZE);
            else if (k == 1)
                v = sysconf(_SC_NPROCESSORS_ONLN);
            else
                v = (long long)((unsigned long long)sysconf(_SC_PHYS_PAGES) *
                                (unsigned long long)sysconf(_SC_PAGESIZE) >> 20);
            int w = snprintf(out + o, outlen - o, "%lld", v);
            if (w < 0 || (size_t)w >= outlen - o - 2)
                return false;
            o += (size_t)w;
            p += strlen(names[k]);
            any = true;
            continue;
        }
        if (o + 2 >= outlen)
            return false;
        out[o++] = *p++;
    }
    out[o++] = ')';
    out[o] = '\0';
    return any;
}

/* ---- fio's arithmetic in values: "(...)" with + - * / % ^ and parentheses
 * over whole numbers (fio's exp/expression-parser.y; fio 3.33 refuses units
 * inside an expression, as "(4k*2)", and so does this) ---- */

struct expr {
    const char *p;
    bool bad;
};

static long long ex_sum(struct expr *e);

static void ex_ws(struct expr *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static long long ex_atom(struct expr *e)
{
    ex_ws(e);
    if (*e->p == '(') {
        e->p++;
        long long v = ex_sum(e);
        ex_ws(e);
        if (*e->p != ')')
            e->bad = true;
        else
            e->p++;
        return v;
    }
    if (*e->p == '-') {
        e->p++;
        return -ex_atom(e);
    }
    if (!isdigit((unsigned char)*e->p)) {
        e->bad = true;
        return 0;
    }
    char *end;
    long long v = strtoll(e->p, &end, 10);
    e->p = end;
    return v;
}

static long long ex_pow(struct expr *e)
{
    long long b = ex_atom(e);
    ex_ws(e);
    if (*e->p == '^') {
        e->p++;
        long long x = ex_pow(e), r = 1;
        if (x < 0 || x > 63) {
            e->bad = true;
            return 0;
        }
        while (x-- > 0)
            r *= b;
        return r;
    }
    return b;
}

static long long ex_prod(struct expr *e)
{
    long long v = ex_pow(e);
    for (;;) {
        ex_ws(e);
        char c = *e->p;
        if (c != '*' && c != '/' && c != '%')
            return v;
        e->p++;
        long long r = ex_pow(e);
        if (c == '*') {
            if (__builtin_mul_overflow(v, r, &v))
                e->bad = true;
        } else if (r == 0) {
            e->bad = true;
            return 0;
        } else {
            v = c == '/' ? v / r : v % r;
        }
    }
}

static long long ex_sum(struct expr *e)
{
    long long v = ex_prod(e);
    for (;;) {
        ex_ws(e);
        char c = *e->p;
        if (c != '+' && c != '-')
            return v;
        e->p++;
        long long r = ex_prod(e);
        v = c == '+' ? v + r : v - r;
    }
}

/* Evaluate a parenthesised value into out as a decimal; -EINVAL if malformed or negative. */
int iom_fioj_arith(const char *v, char *out, size_t outlen)
{
    struct expr e = {v, false};
    long long r = ex_sum(&e);
    ex_ws(&e);
    if (e.bad || *e.p || r < 0)
        return -EINVAL;
    snprintf(out, outlen, "%lld", r);
    return 0;
}

static int lex(const char *text, struct lexed *lx, uint32_t inc_line, unsigned depth, char *err,
               size_t errlen);

/* fio's `include FILE` at line (inc_line: of the outermost include): FILE's lines
 * lexed into the current section (iom_fioj_lex says how). */
static int lex_include(const char *file, struct lexed *lx, uint32_t line, unsigned depth,
                       char *err, size_t errlen)
{
    char full[4096];
    const char *slash = lx->path ? strrchr(lx->path, '/') : NULL;
    if (access(file, F_OK) != 0 && slash) /* fio: as written, else beside the job file */
        snprintf(full, sizeof(full), "%.*s%s", (int)(slash - lx->path + 1), lx->path, file);
    else
        snprintf(full, sizeof(full), "%s", file);
    if (depth >= 8)
        return fail(err, errlen, "line %u: include %s: includes nested deeper than 8", line, file);
    FILE *f = fopen(full, "r");
    char *text = f ? calloc(1, 1 << 20) : NULL;
    size_t n = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
    int rc = !f ? fail(err, errlen, "line %u: include %s: %s", line, file, strerror(errno))
             : !text ? -ENOMEM : n == (1 << 20) - 1 || memchr(text, '\0', n) ?
             fail(err, errlen, "line %u: include %s: not a text file under 1 MiB", line, file) : 0;
    if (!rc)
        rc = lex(text, lx, line, depth + 1, err, errlen);
    if (f)
        fclose(f);
    free(text);
    return rc;
}

int iom_fioj_lex(const char *text, struct lexed *lx, char *err, size_t errlen)
{
    return lex(text, lx, 0, 0, err, errlen);
}

static int lex(const char *text, struct lexed *lx, uint32_t inc_line, unsigned depth, char *err,
               size_t errlen)
{
    uint32_t line = 0;
    const char *p = text;
    char raw[4096], buf[4096];
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        if (len >= sizeof(raw))
            return fail(err, errlen, "line %u: longer than %zu characters", line, sizeof(raw) - 1);
        memcpy(raw, p, len);
        raw[len] = '\0';
        p += len + (nl ? 1 : 0);
        char *s = iom_fioj_trim(raw);
        if (!*s || *s == ';' || *s == '#')
            continue;
        if (*s == '[' && inc_line)
            return fail(err, errlen, "line %u: an included file has a section header (%s); fio: "
                        "\"No new sections in included files\"", inc_line, s);
        if (strncmp(s, "include", 7) == 0 && isspace((unsigned char)s[7]) && lx->nr_sec) {
            int rc = lex_include(iom_fioj_trim(s + 8), lx, inc_line ? inc_line : line, depth, err,
                                 errlen);
            if (rc)
                return rc;
            continue;
        }
        if (*s == '[') {
            char *close = strchr(s, ']');
            if (!close || close[1] != '\0')
                return fail(err, errlen, "line %u: %.60s: a section header is [name]", line, s);
            *close = '\0';
            char *name = iom_fioj_trim(s + 1);
            if (!*name || strlen(name) >= IOM_NAME_LEN)
                return fail(err, errlen, "line %u: section name must be 1 to %d characters", line,
                            IOM_NAME_LEN - 1);
            if (lx->nr_sec == lx->cap_sec) {
                uint32_t cap = lx->cap_sec ? lx->cap_sec * 2 : 16;
                struct section *ns = realloc(lx->sec, cap * sizeof(*ns));
                if (!ns)
                    return -ENOMEM;
                lx->sec = ns;
                lx->cap_sec = cap;
            }
            struct section *sec = &lx->sec[lx->nr_sec++];
            memset(sec, 0, sizeof(*sec));
            snprintf(sec->name, sizeof(sec->name), "%s", name);
            sec->line = line;
            sec->global = strcmp(name, "global") == 0;
            sec->first = lx->nr_kv;
            continue;
        }
        /* fio cuts a line at the first '#' or ';' (a trailing comment) */
        s[strcspn(s, "#;")] = '\0';
        s = iom_fioj_trim(s);
        if (lx->nr_sec == 0)
            return fail(err, errlen, "line %u: option '%s' before any [section]", line, s);
        char unset[32];
        int rc = expand(s, buf, sizeof(buf), line, unset, err, errlen);
        if (rc)
            return rc;
        if (lx->nr_kv == lx->cap_kv) {
            uint32_t cap = lx->cap_kv ? lx->cap_kv * 2 : 64;
            struct iom_fio_kv *nk = realloc(lx->kv, cap * sizeof(*nk));
            if (!nk)
                return -ENOMEM;
            lx->kv = nk;
            lx->cap_kv = cap;
        }
        struct iom_fio_kv *kv = &lx->kv[lx->nr_kv];
        memset(kv, 0, sizeof(*kv));
        char *eq = strchr(buf, '=');
        if (eq)
            *eq = '\0';
        char *name = iom_fioj_trim(buf), *val = eq ? iom_fioj_trim(eq + 1) : (char *)"";
        char sub[600];
        if (*val && builtins(val, sub, sizeof(sub)))
            val = sub;
        if (!*name || strlen(name) >= sizeof(kv->name) || strlen(val) >= sizeof(kv->value))
            return fail(err, errlen, "line %u: '%s': option name or value too long or empty", line,
                        s);
        snprintf(kv->name, sizeof(kv->name), "%s", name);
        snprintf(kv->value, sizeof(kv->value), "%s", val);
        kv->line = inc_line ? inc_line : line;
        memcpy(kv->unset_var, unset, sizeof(kv->unset_var));
        lx->nr_kv++;
        lx->sec[lx->nr_sec - 1].nr++;
    }
    return 0;
}

/* fio cuts a block device's region at its end (filesetup.c setup_files: io_size at most
 * real_file_size - file_offset) and runs on what there is: size (and a size-based job's
 * amount) cut to the smallest device's end past the offset, with a note */
static void cap_to_devices(struct iom_fio_job *fj)
{
    struct iom_job *job = &fj->job;
    struct stat sb;
    for (uint32_t t = 0; t < job->nr_targets; t++) {
        int fd = stat(job->targets[t], &sb) == 0 && S_ISBLK(sb.st_mode)
                     ? open(job->targets[t], O_RDONLY | O_CLOEXEC) : -1;
        off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : 0;
        if (fd >= 0)
            close(fd);
        uint64_t dev = end > 0 ? (uint64_t)end : 0, old = job->size_bytes;
        if (!dev || !old || job->offset_bytes >= dev || job->offset_bytes + old <= dev)
            continue;
        job->size_bytes = dev - job->offset_bytes;
        if (job->io_limit_bytes == old * (fj->loops ? fj->loops : 1))
            job->io_limit_bytes = job->size_bytes * (fj->loops ? fj->loops : 1);
        size_t l = strlen(fj->note);
        snprintf(fj->note + l, sizeof(fj->note) - l, "%ssize=%llu cut to %s's %llu bytes past "
                 "the offset (fio 3.33)", l ? "; " : "", (unsigned long long)old,
                 job->targets[t], (unsigned long long)job->size_bytes);
    }
}

void iom_fio_earlier_size(struct iom_fio_file *ff, uint32_t i)
{
    struct iom_fio_job *fj = &ff->jobs[i];
    fj->earlier_size = 0;
    for (uint32_t k = 0; k < i && fj->job.nr_targets; k++) {
        const struct iom_job *e = &ff->jobs[k].job;
        uint64_t s = e->offset_bytes + iom_job_span_bytes(e);
        s = e->create_bytes > s ? e->create_bytes : s;
        for (uint32_t t = 0; t < e->nr_targets; t++)
            if (strcmp(e->targets[t], fj->job.targets[0]) == 0 && s > fj->earlier_size)
                fj->earlier_size = s;
    }
}

/* fio 3.33 filesetup.c setup_files, per file: R = real_file_size (stat, the device's
 * end, or 0 for a file not made yet; here the size an earlier job lays it out at) */
static uint64_t real_size(const struct iom_fio_job *fj)
{
    const struct iom_job *job = &fj->job;
    uint64_t rsize = 0;
    struct stat sb;
    if (job->nr_targets && stat(job->targets[0], &sb) == 0) {
        if (S_ISREG(sb.st_mode)) {
            rsize = (uint64_t)sb.st_size;
        } else if (S_ISBLK(sb.st_mode)) {
            int fd = open(job->targets[0], O_RDONLY | O_CLOEXEC);
            if (fd >= 0) {
                off_t end = lseek(fd, 0, SEEK_END);
                rsize = end > 0 ? (uint64_t)end : 0;
                close(fd);
            }
        }
    } else {
        rsize = fj->earlier_size;
    }
    return rsize;
}

/*
 * rw=read:N (a forward skip) of a size-based job as fio 3.33 io_u.c walks it: I/O k
 * starts at k x (bs + N) into the region and is issued while that is below the
 * region's length (get_next_offset) and the block ends inside the file (fill_io_u),
 * so the last one may run past the region into the rest of the file. After the last
 * one a pass ends, unless the region starts at byte 0, that I/O ends before the
 * file's end and the skip passes the end (get_next_seq_offset: position >=
 * real_file_size): then it wraps to byte 0 and goes on until size= is done
 * (size=1m bs=4k rw=read:4k: 256 reads, 0 .. 1040384 twice; rw=read:8k: 86 reads).
 */
static void skip_region(struct iom_fio_job *fj)
{
    struct iom_job *job = &fj->job;
    uint64_t stride = job->seq_stride_bytes, bs = job->bs_bytes;
    if (!stride || job->seq_back_bytes || iom_job_random(job) || job->nr_bssplit ||
        iom_job_write_sizes(job) || job->nr_targets != 1 || job->offset_increment_bytes ||
        fj->time_based)
        return;
    uint64_t r = real_size(fj), off = job->offset_bytes;
    uint64_t len = job->size_bytes ? job->size_bytes : (r > off ? r - off : 0);
    if (!len || len > UINT64_MAX - off)
        return;
    uint64_t end = r > off + len ? r : off + len; /* the file once laid out */
    if (end - off < bs)
        return;
    uint64_t n = (len + stride - 1) / stride; /* I/Os that start below len */
    uint64_t fit = (end - off - bs) / stride + 1; /* ... and end inside the file */
    uint64_t last = ((n < fit ? n : fit) - 1) * stride;
    job->create_bytes = off + len > job->create_bytes ? off + len : job->create_bytes;
    job->size_bytes = last + bs;
    if (off == 0 && last + bs < end && last + stride >= end) {
        job->io_passes = 0; /* wraps: size= (each loop's) counts the bytes */
        if (fj->limit_is_region) {
            job->io_limit_bytes = len * fj->loops;
            fj->limit_is_region = false;
        }
    }
}

static int resolve_region(struct iom_fio_job *fj, char *err, size_t errlen)
{
    struct iom_job *job = &fj->job;
    bool fixed = fj->filesize && job->offset_bytes && !job->offset_increment_bytes;
    if (!fj->size_pct && !fj->offset_pct && !fixed)
        return 0;
    uint64_t rsize = real_size(fj);
    if (fj->size_pct && !rsize && !fj->filesize)
        return fail(err, errlen, "line %u: [%s]: size=%u%% needs the file's size: %s does not "
                    "exist and the job has no filesize= (fio: \"you need to specify size=\")",
                    fj->line, fj->jobname, fj->size_pct, job->nr_targets ? job->targets[0] : "?");
    uint64_t bs = iom_job_min_bs(job), off = job->offset_bytes, io;
    if (fj->offset_pct) { /* get_start_offset: R x N / 100, up to the smallest block size */
        off = (uint64_t)((unsigned __int128)rsize * fj->offset_pct / 100);
        off = (off + bs - 1) / bs * bs;
        job->offset_bytes = off;
    }
    if (fj->filesize) { /* a file of filesize= bytes: the region runs from the offset to its end */
        if (off >= fj->filesize)
            return fail(err, errlen, "line %u: [%s]: offset %llu is at or past filesize=%llu "
                        "(fio: \"offset extends end\")", fj->line, fj->jobname,
                        (unsigned long long)off, (unsigned long long)fj->filesize);
        io = fj->filesize - off;
    } else if (fj->size_pct) {
        if (off >= rsize)
            return fail(err, errlen, "line %u: [%s]: offset %llu is at or past the end of %s "
                        "(%llu bytes)", fj->line, fj->jobname, (unsigned long long)off,
                        job->targets[0], (unsigned long long)rsize);
        io = rsize - off;
    } else {
        return 0; /* offset=N% with size= or to the end of the file: the region as given */
    }
    if (fj->size_pct && fj->size_pct != 100) {
        /* N % of offset + region (the file's size), at most the region, whole blocks */
        uint64_t fsz = io + off;
        uint64_t sz = (uint64_t)((unsigned __int128)fsz * fj->size_pct / 100);
        io = sz < io ? sz : io;
        io -= io % bs;
    }
    if (io < iom_job_max_bs(job))
        return fail(err, errlen, "line %u: [%s]: the region of %llu bytes from offset %llu "
                    "is less than one block (fio: \"blocksize is larger than data set range\")",
                    fj->line, fj->jobname, (unsigned long long)io, (unsigned long long)off);
    job->size_bytes = io; /* the file is made or grown to offset + io when shorter (as fio) */
    if (!fj->time_based && fj->size_pct) { /* fio: size= is then the regions' total */
        job->io_limit_bytes = io * fj->loops;
        fj->limit_is_region = false;
    }
    return 0;
}

int iom_fio_resolve_pct(struct iom_fio_job *fj, char *err, size_t errlen)
{
    struct iom_job *job = &fj->job;
    struct stat ab; /* file_append: from the file's end (fio filesetup.c get_start_offset) */
    if (job->file_append && job->nr_targets && stat(job->targets[0], &ab) == 0 &&
        S_ISREG(ab.st_mode))
        job->offset_bytes = (uint64_t)ab.st_size;
    cap_to_devices(fj);
    int rc = resolve_region(fj, err, errlen);
    if (!rc)
        skip_region(fj);
    return rc;
}

bool iom_fio_is_jobfile(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    size_t l = strlen(arg);
    if (l > 4 && strcmp(arg + l - 4, ".fio") == 0)
        return true;
    int fd = open(arg, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    char buf[4097];
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    if (memchr(buf, '\0', (size_t)n))
        return false; /* binary data: a test file, not a job file */
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *s = iom_fioj_trim(line);
        if (!*s || *s == ';' || *s == '#')
            continue;
        size_t sl = strlen(s);
        return s[0] == '[' && sl > 2 && s[sl - 1] == ']';
    }
    return false;
}

int iom_fioj_bssplit(char *v, size_t vlen)
{
    char in[256], *save = NULL, out[256] = "";
    struct {
        const char *bs;
        long pct; /* -1: not given */
    } e[64];
    int n = 0, missing = 0, last = -1;
    long sum = 0, cum = 0;
    if (strlen(v) >= sizeof(in))
        return 0;
    snprintf(in, sizeof(in), "%s", v);
    for (char *t = strtok_r(in, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
        char *slash = strchr(t, '/'), *end = NULL;
        if (n == 64)
            return 0; /* the native parser judges it */
        e[n].bs = t;
        e[n].pct = -1;
        if (slash) {
            *slash = '\0';
            e[n].pct = strtol(slash + 1, &end, 10);
            if (!slash[1] || *end || e[n].pct < 0)
                return 0; /* not whole percentages: left to the native parser */
        }
        missing += e[n].pct < 0;
        sum += e[n].pct < 0 ? 0 : e[n].pct;
        n++;
    }
    for (int i = 0; i < n; i++) {
        if (e[i].pct < 0) /* fio: the remains divided between them; past 100 its unsigned */
            e[i].pct = missing == 1 && n == 1 ? 100 /* 100 - sum wraps: all the rest */
                       : sum > 100 ? 100 : (100 - sum) / missing;
        if (e[i].pct > 0)
            last = i;
    }
    if (last < 0)
        return -EINVAL;
    for (int i = 0; i <= last; i++) { /* fio io_u.c get_next_buflen: the first size whose */
        long lo = cum < 100 ? cum : 100; /* running total reaches the draw; past them all, */
        cum += e[i].pct;                 /* the last size with a share */
        long hi = i == last ? 100 : cum < 100 ? cum : 100;
        if (e[i].pct > 0 && hi > lo)
            snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s/%ld", *out ? ":" : "",
                     e[i].bs, hi - lo);
    }
    if (strlen(out) >= vlen || strlen(out) >= sizeof(out) - 1)
        return 0;
    snprintf(v, vlen, "%s", out);
    return 0;
}

/* ---- directory= and filename= (fio 3.33 options.c get_next_str, set_name_idx) ---- */

uint32_t iom_fioj_dir_at(const char *list, uint32_t idx, char *out, size_t outlen)
{
    char dirs[8][1024];
    uint32_t n = 0;
    size_t o = 0;
    for (const char *p = list;; p++) {
        if (*p == '\\' && p[1] == ':') { /* get_next_str: "\:" is a ':' of the name */
            if (o + 1 < sizeof(dirs[0]))
                dirs[n < 8 ? n : 7][o++] = ':';
            p++;
            continue;
        }
        if (*p == ':' || *p == '\0') {
            if (o && n < 8) /* a ':' at an entry's start is skipped, as fio does */
                dirs[n++][o] = '\0';
            o = 0;
            if (!*p)
                break;
            continue;
        }
        if (o + 1 < sizeof(dirs[0]) && n < 8)
            dirs[n][o++] = *p;
    }
    if (out && outlen)
        snprintf(out, outlen, "%s", n ? dirs[idx % n] : "");
    return n;
}

int iom_fioj_add_filename(struct state *st, const char *v)
{
    char dir[1024], esc[2048];
    size_t e = 0;
    if (iom_fioj_dir_at(st->directory, 0, dir, sizeof(dir))) /* add_file(..., numjob 0, ...) */
        for (const char *p = dir; *p && e + 3 < sizeof(esc); p++) {
            if (*p == ':')
                esc[e++] = '\\';
            esc[e++] = *p;
        }
    esc[e] = '\0';
    size_t have = st->filename_append ? strlen(st->filename) : 0;
    size_t phave = st->filename_append ? strlen(st->filename_path) : 0;
    if (have && have + 1 + strlen(v) >= sizeof(st->filename))
        return -E2BIG;
    snprintf(st->filename + have, sizeof(st->filename) - have, "%s%s", have ? ":" : "", v);
    /* each name, escapes kept, with "DIR/" in front: fio joins even an absolute name
     * (directory=/d filename=/dev/x is /d//dev/x) */
    char *out = st->filename_path;
    size_t o = phave, cap = sizeof(st->filename_path);
    bool start = true;
    for (const char *p = v;; p++) {
        if (start && *p && *p != ':') {
            int w = snprintf(out + o, o < cap ? cap - o : 0, "%s%s%s", o ? ":" : "", esc,
                             e ? "/" : "");
            o += (size_t)w;
            start = false;
        }
        if (!*p)
            break;
        if (*p == ':' && !(p > v && p[-1] == '\\')) {
            start = true;
            continue;
        }
        if (o + 1 < cap)
            out[o] = *p;
        o++;
    }
    if (o >= cap)
        return -E2BIG;
    out[o] = '\0';
    st->filename_append = true;
    return 0;
}

int iom_fioj_set_directory(struct state *st, const char *v, uint32_t line)
{
    if (!*v || strlen(v) >= sizeof(st->directory) || !iom_fioj_dir_at(v, 0, NULL, 0))
        return -EINVAL;
    snprintf(st->directory, sizeof(st->directory), "%s", v);
    if (st->nr_dirs_seen < 4) { /* fio checks each directory= as it parses it */
        snprintf(st->dirs_seen[st->nr_dirs_seen], sizeof(st->dirs_seen[0]), "%s", v);
        st->dirs_seen_line[st->nr_dirs_seen++] = line;
    }
    return 0;
}

#ifdef _WIN32 /* no symbolic links to tell apart here (mingw has no lstat) */
#define lstat stat
#define S_ISLNK(m) 0
#endif

int iom_fio_check_dirs(const struct iom_fio_job *fj, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < fj->nr_dirs; i++) {
        char d[1024];
        uint32_t n = iom_fioj_dir_at(fj->dirs[i], 0, NULL, 0);
        for (uint32_t k = 0; k < n; k++) {
            struct stat sb;
            iom_fioj_dir_at(fj->dirs[i], k, d, sizeof(d));
            /* fio options.c str_directory_cb: lstat, so a symbolic link is refused too */
            if (lstat(d, &sb) == 0 && S_ISDIR(sb.st_mode))
                continue;
            char where[32];
            if (fj->dirs_line[i])
                snprintf(where, sizeof(where), "line %u", fj->dirs_line[i]);
            else
                snprintf(where, sizeof(where), "command line");
            return fail(err, errlen, "%s: directory=%s: %s %s; allowed: existing folders "
                        "(fio 3.33 refuses it too: \"%s is not a directory\")", where,
                        fj->dirs[i], d,
                        lstat(d, &sb) != 0 ? "does not exist"
                        : S_ISLNK(sb.st_mode) ? "is a symbolic link, which fio does not follow"
                                              : "is not a folder", d);
        }
    }
    return 0;
}
