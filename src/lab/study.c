/*
 * study.c - lab studies: small text files naming the variants (controller
 * plus guest parameters) and the workloads, run in order in every boot.
 * Format in lab.h (iom_lab_study_load) and docs/lab.md "Studies".
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab.h"
#include "workload/args.h"
#include "workload/units.h"

#ifndef IOMARK_STUDY_SRC_DIR
#define IOMARK_STUDY_SRC_DIR ""
#endif
#ifndef IOMARK_STUDY_SHARE_DIR
#define IOMARK_STUDY_SHARE_DIR "/usr/local/share/iomark/studies"
#endif

size_t iom_lab_study_dirs(const char *exe, char dirs[][4096], size_t max)
{
    size_t n = 0;
    const char *env = getenv("IOMARK_STUDY_DIR");
    if (env && *env && n < max)
        snprintf(dirs[n++], 4096, "%s", env);
    if (exe && *exe && n < max) {
        /* an installed binary: PREFIX/bin/iomark -> PREFIX/share/iomark/studies */
        const char *slash = strrchr(exe, '/');
        if (slash)
            snprintf(dirs[n++], 4096, "%.*s/../share/iomark/studies", (int)(slash - exe), exe);
    }
    if (IOMARK_STUDY_SRC_DIR[0] && n < max)
        snprintf(dirs[n++], 4096, "%s", IOMARK_STUDY_SRC_DIR);
    if (n < max)
        snprintf(dirs[n++], 4096, "%s", IOMARK_STUDY_SHARE_DIR);
    return n;
}

/* The title line of a study file ("" when none). */
static void study_title(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    char line[512];
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "title ", 6) == 0) {
            snprintf(buf, len, "%.*s", (int)strcspn(line + 6, "\n"), line + 6);
            break;
        }
    if (f)
        fclose(f);
}

/* The shipped studies in the folders dirs[nd] (a name in two folders: the
 * first), at most max: their names and the folder each is in. */
static size_t shipped(char dirs[][4096], size_t nd, char names[][64], size_t *dir_of, size_t max)
{
    size_t ns = 0;
    for (size_t d = 0; d < nd; d++) {
        DIR *dir = opendir(dirs[d]);
        struct dirent *de;
        while (dir && (de = readdir(dir)) != NULL) {
            size_t l = strlen(de->d_name);
            if (l < 7 || strcmp(de->d_name + l - 6, ".study") != 0 || l - 6 >= 64)
                continue;
            char name[64];
            snprintf(name, sizeof(name), "%.*s", (int)(l - 6), de->d_name);
            bool dup = false;
            for (size_t k = 0; k < ns; k++)
                dup |= strcmp(names[k], name) == 0;
            if (dup || ns >= max)
                continue;
            dir_of[ns] = d;
            snprintf(names[ns++], 64, "%s", name);
        }
        if (dir)
            closedir(dir);
    }
    return ns;
}

void iom_lab_study_list(FILE *f, const char *exe)
{
    char dirs[4][4096], names[32][64];
    size_t dir_of[32];
    size_t nd = iom_lab_study_dirs(exe, dirs, 4);
    size_t ns = shipped(dirs, nd, names, dir_of, 32);
    for (size_t k = 0; k < ns; k++) {
        char path[8300], title[256];
        snprintf(path, sizeof(path), "%s/%s.study", dirs[dir_of[k]], names[k]);
        study_title(path, title, sizeof(title));
        fprintf(f, "  %-22s %s\n", names[k], title);
    }
    if (!ns)
        fprintf(f, "  (none found; looked in $IOMARK_STUDY_DIR, PREFIX/share/iomark/studies)\n");
}

/* Replace ${T:SECONDS} and ${S:SIZE} in word (scaled); 0 or -EINVAL. */
static int expand(const char *word, double scale, char *out, size_t len, char *err,
                  size_t errlen)
{
    size_t o = 0;
    for (const char *p = word; *p;) {
        if (p[0] == '$' && p[1] == '{' && (p[2] == 'T' || p[2] == 'S') && p[3] == ':') {
            const char *end = strchr(p, '}');
            if (!end) {
                snprintf(err, errlen, "%s: unclosed ${", word);
                return -EINVAL;
            }
            char v[64];
            snprintf(v, sizeof(v), "%.*s", (int)(end - p - 4), p + 4);
            char num[48];
            if (p[2] == 'T') {
                char *e;
                double s = strtod(v, &e);
                if (e == v || *e || s <= 0) {
                    snprintf(err, errlen, "%s: ${T:SECONDS} needs a number of seconds", word);
                    return -EINVAL;
                }
                double x = round(s * scale);
                snprintf(num, sizeof(num), "%.0f", x < 2 ? 2 : x);
            } else {
                uint64_t b;
                const char *why;
                if (iom_parse_size(v, &b, &why)) {
                    snprintf(err, errlen, "%s: ${S:SIZE} needs a size (K, M, G)", word);
                    return -EINVAL;
                }
                double mib = round((double)b * scale / 1048576.0);
                snprintf(num, sizeof(num), "%.0fM", mib < 16 ? 16 : mib);
            }
            o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s", num);
            p = end + 1;
        } else {
            if (o + 1 < len)
                out[o] = *p;
            o++;
            p++;
        }
    }
    if (o >= len) {
        snprintf(err, errlen, "%.60s: too long", word);
        return -EINVAL;
    }
    out[o] = 0;
    return 0;
}

static int find_study(const char *name, char *path, size_t len)
{
    if (strchr(name, '/') || access(name, R_OK) == 0) {
        snprintf(path, len, "%s", name);
        return access(path, R_OK) == 0 ? 0 : -ENOENT;
    }
    char dirs[4][4096], exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = 0;
    size_t nd = iom_lab_study_dirs(exe, dirs, 4);
    for (size_t d = 0; d < nd; d++) {
        snprintf(path, len, "%s/%s.study", dirs[d], name);
        if (access(path, R_OK) == 0)
            return 0;
    }
    return -ENOENT;
}

int iom_lab_study_load(struct iom_lab_opts *o, const char *name, double scale, char *err,
                       size_t errlen)
{
    char path[8300];
    if (find_study(name, path, sizeof(path))) {
        /* a mistyped shipped name: the nearest (workload/args.h), as other lists do */
        char dirs[4][4096], exe[4096], names[32][64];
        size_t dir_of[32];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
        exe[n > 0 ? n : 0] = 0;
        size_t ns = strchr(name, '/') ? 0 : shipped(dirs, iom_lab_study_dirs(exe, dirs, 4), names,
                                                    dir_of, 32);
        unsigned best = IOM_NAME_FAR;
        const char *near = NULL;
        for (size_t k = 0; k < ns; k++)
            iom_name_nearer(name, names[k], &best, &near);
        snprintf(err, errlen, "no such study or file; %s%s%s--study=list lists the shipped ones",
                 near ? "did you mean " : "", near ? near : "", near ? "? " : "");
        return -ENOENT;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -errno;
    }
    o->study = iom_lab_opts_strdup(o, name);
    o->scale = scale;
    o->nr_units = o->nr_jobs = 0;
    char line[2048];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof(line), f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        char *p = line + strspn(line, " \t");
        if (!*p || *p == '#')
            continue;
        char *save = NULL;
        char *kw = strtok_r(p, " \t", &save);
        if (strcmp(kw, "title") == 0) {
            char *rest = save ? save + strspn(save, " \t") : "";
            o->study_title = iom_lab_opts_strdup(o, rest);
        } else if (strcmp(kw, "variant") == 0) {
            char *v = strtok_r(NULL, " \t", &save);
            if (!v || o->nr_units >= IOM_LAB_MAX_UNITS) {
                snprintf(err, errlen, "%s:%d: variant needs CONTROLLER[+module.param=value...] "
                                      "(at most 16 variants)", path, lineno);
                rc = -EINVAL;
                break;
            }
            char *plus = strchr(v, '+');
            char cname[64];
            snprintf(cname, sizeof(cname), "%.*s", plus ? (int)(plus - v) : (int)strlen(v), v);
            const struct iom_lab_ctrl *c = iom_lab_ctrl_find(cname);
            if (!c) {
                snprintf(err, errlen, "%s:%d: %s: unknown controller; iomark lab --help lists "
                                      "them", path, lineno, cname);
                rc = -EINVAL;
                break;
            }
            struct iom_lab_unit *u = &o->units[o->nr_units++];
            memset(u, 0, sizeof(*u));
            u->c = c;
            snprintf(u->name, sizeof(u->name), "%s", v);
            for (char *w = plus; w && !rc;) {
                char *next = strchr(w + 1, '+');
                char word[256];
                snprintf(word, sizeof(word), "%.*s",
                         next ? (int)(next - w - 1) : (int)strlen(w + 1), w + 1);
                if (!strchr(word, '=') || u->nr_params >= IOM_LAB_MAX_PARAMS) {
                    snprintf(err, errlen, "%s:%d: %s: a variant parameter is module.param=value",
                             path, lineno, word);
                    rc = -EINVAL;
                } else {
                    u->params[u->nr_params++] = iom_lab_opts_strdup(o, word);
                }
                w = next;
            }
        } else if (strcmp(kw, "workload") == 0) {
            char *cmd = strtok_r(NULL, " \t", &save);
            if (!cmd || o->nr_jobs >= IOM_LAB_MAX_JOBS) {
                snprintf(err, errlen, "%s:%d: workload needs COMMAND ARGS (at most 16)", path,
                         lineno);
                rc = -EINVAL;
                break;
            }
            struct iom_lab_job *j = &o->jobs[o->nr_jobs++];
            memset(j, 0, sizeof(*j));
            snprintf(j->command, sizeof(j->command), "%s", cmd);
            for (char *w = strtok_r(NULL, " \t", &save); w && !rc;
                 w = strtok_r(NULL, " \t", &save)) {
                char x[512];
                char why[300];
                if (expand(w, scale, x, sizeof(x), why, sizeof(why))) {
                    snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
                    rc = -EINVAL;
                } else if (j->nr_args >= IOM_LAB_MAX_ARGS) {
                    snprintf(err, errlen, "%s:%d: too many arguments", path, lineno);
                    rc = -EINVAL;
                } else {
                    j->args[j->nr_args++] = iom_lab_opts_strdup(o, x);
                }
            }
            iom_lab_job_label(j);
        } else if (strcmp(kw, "disk-size") == 0) {
            char *v = strtok_r(NULL, " \t", &save);
            char x[64], why[300];
            uint64_t b;
            const char *w2;
            if (!v || expand(v, scale, x, sizeof(x), why, sizeof(why)) ||
                iom_parse_size(x, &b, &w2) || b < (16ull << 20)) {
                snprintf(err, errlen, "%s:%d: disk-size needs a size of at least 16M", path,
                         lineno);
                rc = -EINVAL;
            } else {
                o->disk_bytes = b;
            }
        } else {
            snprintf(err, errlen, "%s:%d: %s: unknown keyword; allowed: title, variant, "
                                  "workload, disk-size", path, lineno, kw);
            rc = -EINVAL;
        }
    }
    fclose(f);
    if (!rc && (!o->nr_units || !o->nr_jobs)) {
        snprintf(err, errlen, "%s: a study needs at least one variant and one workload", path);
        rc = -EINVAL;
    }
    return rc;
}
