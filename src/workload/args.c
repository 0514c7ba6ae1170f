/* args.c - the one argv grammar of every sub-command (see args.h). */
#include "workload/args.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

void iom_args_init(struct iom_args *a, int argc, char **argv, int first,
                   const struct iom_arg_opt *opts, const char *cmd)
{
    a->argc = argc;
    a->argv = argv;
    a->i = first;
    a->only_positional = false;
    a->opts = opts;
    a->cmd = cmd;
}

static char fold(char c)
{
    return c == '_' ? '-' : c;
}

bool iom_args_name_eq(const char *a, size_t n, const char *b)
{
    size_t k = 0;
    for (; (n == (size_t)-1 || k < n) && a[k] && b[k]; k++)
        if (fold(a[k]) != fold(b[k]))
            return false;
    return (n == (size_t)-1 ? a[k] == '\0' : k == n) && b[k] == '\0';
}

int iom_args_flag(const char *v)
{
    if (!v || !strcmp(v, "1") || !strcmp(v, "true"))
        return 1;
    if (!strcmp(v, "0") || !strcmp(v, "false"))
        return 0;
    return -1;
}

static void allowed_list(const struct iom_arg_opt *opts, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const struct iom_arg_opt *o = opts; o->name && n < len; o++) {
        int k = snprintf(buf + n, len - n, "%s--%s", o == opts ? "" : ", ", o->name);
        if (k > 0)
            n += (size_t)k;
        if (o->short_name && n < len && (k = snprintf(buf + n, len - n, " (-%c)", o->short_name)) > 0)
            n += (size_t)k;
    }
}

size_t iom_args_dash_len(const char *w)
{
    const unsigned char *u = (const unsigned char *)w;
    if (u[0] == 0xC2 && u[1] == 0xAD)
        return 2;                                        /* U+00AD */
    if (u[0] == 0xE2 && u[1] == 0x80 && u[2] >= 0x90 && u[2] <= 0x95)
        return 3;                                        /* U+2010..U+2015 */
    if (u[0] == 0xE2 && u[1] == 0x88 && u[2] == 0x92)
        return 3;                                        /* U+2212 */
    if (u[0] == 0xEF && ((u[1] == 0xB9 && (u[2] == 0x98 || u[2] == 0xA3)) ||
                         (u[1] == 0xBC && u[2] == 0x8D)))
        return 3;                                        /* U+FE58, U+FE63, U+FF0D */
    return 0;
}

bool iom_args_value_word(const char *w)
{
    return w && strncmp(w, "--", 2) != 0;
}

int iom_args_dash_check(const char *w, char *err, size_t errlen)
{
    size_t n = iom_args_dash_len(w);
    if (!n)
        return 0;
    char fix[256];
    size_t k = 0;
    const char *p = w;
    while ((n = iom_args_dash_len(p)) || *p == '-') {  /* "–-x", "——x": every leading dash */
        if (k + 1 < sizeof(fix))
            fix[k++] = '-';
        p += n ? n : 1;
    }
    snprintf(fix + k, sizeof(fix) - k, "%s", p);
    snprintf(err, errlen, "%s: looks like an option with a typographic dash; use %s", w, fix);
    return -EINVAL;
}

int iom_args_next(struct iom_args *a, const char **value, char *err, size_t errlen)
{
    *value = NULL;
    if (a->i >= a->argc)
        return IOM_ARG_END;
    const char *w = a->argv[a->i++];
    if (a->only_positional || w[0] != '-' || w[1] == '\0') {
        if (!a->only_positional && iom_args_dash_check(w, err, errlen))
            return IOM_ARG_ERROR;
        *value = w;
        return IOM_ARG_POSITIONAL;
    }
    if (!strcmp(w, "--")) {
        a->only_positional = true;
        return iom_args_next(a, value, err, errlen);
    }
    const struct iom_arg_opt *o = NULL;
    const char *eq = NULL;
    if (w[1] != '-') { /* -x or -xVALUE */
        for (const struct iom_arg_opt *p = a->opts; p->name && !o; p++)
            if (p->short_name && p->short_name == w[1])
                o = p;
        if (o && w[2])
            eq = w + 1; /* the value follows the letter */
        if (o && w[2] && !o->takes_value)
            o = NULL;
    } else {
        size_t n = strcspn(w + 2, "=");
        for (const struct iom_arg_opt *p = a->opts; p->name && !o; p++)
            if (iom_args_name_eq(w + 2, n, p->name))
                o = p;
        if (w[2 + n] == '=')
            eq = w + 2 + n;
    }
    if (!o) {
        char list[512];
        allowed_list(a->opts, list, sizeof(list));
        const char *near = NULL; /* "did you mean", as run's options: --warehouse -> --warehouses */
        if (w[1] == '-') {
            char typed[64];
            snprintf(typed, sizeof(typed), "%.*s", (int)strcspn(w + 2, "="), w + 2);
            unsigned best = IOM_NAME_FAR;
            for (const struct iom_arg_opt *p = a->opts; p->name; p++)
                iom_name_nearer(typed, p->name, &best, &near);
        }
        snprintf(err, errlen, "%.*s: unknown option; %s%s%sallowed: %s", (int)strcspn(w, "="), w,
                 near ? "did you mean --" : "", near ? near : "", near ? "? " : "", list);
        return IOM_ARG_ERROR;
    }
    if (eq) {
        *value = eq + 1;
    } else if (o->takes_value) {
        if (a->i >= a->argc || !iom_args_value_word(a->argv[a->i])) {
            snprintf(err, errlen, "--%s: needs a value (--%s=VALUE)", o->name, o->name);
            return IOM_ARG_ERROR;
        }
        *value = a->argv[a->i++];
    } else if (a->i < a->argc && (!strcmp(a->argv[a->i], "0") || !strcmp(a->argv[a->i], "1"))) {
        *value = a->argv[a->i++]; /* "--quiet 0", as the run options */
    }
    return (int)(o - a->opts);
}

/* typed, lower-case, '-' as '_', into buf (len > 0); false when it does not fit */
static bool name_norm(const char *typed, char *buf, size_t len)
{
    size_t i = 0;
    for (; typed[i]; i++) {
        if (i + 1 >= len)
            return false;
        buf[i] = typed[i] == '-' ? '_' : (char)tolower((unsigned char)typed[i]);
    }
    buf[i] = 0;
    return true;
}

unsigned iom_name_nearness(const char *typed, const char *known)
{
    char t[48], k[48];
    if (!name_norm(typed, t, sizeof(t)) || !name_norm(known, k, sizeof(k)))
        return IOM_NAME_FAR;
    size_t d = iom_edit_distance(t, k), lt = strlen(t), lk = strlen(k);
    size_t shorter = lt < lk ? lt : lk;
    if (d == 1 && lt + 1 == lk && strncmp(k, t, lt) == 0)
        return 1; /* its last letter left off: "of" is off, not on */
    if (d <= 1)
        return (unsigned)(2 * d);
    if (lt >= 3 && lt < lk && strncmp(k, t, lt) == 0)
        return 3;
    /* 2 or 3 edits only between names long enough to keep something in common:
     * "eta" is 2 edits from "ba" and 3 from "rw", and like neither */
    if ((d == 2 && shorter >= 5) || (d == 3 && shorter >= 8))
        return (unsigned)(2 * d);
    if (lk >= 4 && lk < lt && strncmp(t, k, lk) == 0)
        return 7;
    if ((lt >= 4 && strstr(k, t)) || (lk >= 4 && strstr(t, k)))
        return 8;
    /* one edit from a whole word at the end of known: "fromat" -> output_format */
    for (const char *w = strchr(k, '_'); lt >= 5 && w; w = strchr(w + 1, '_'))
        if (iom_edit_distance(t, w + 1) <= 1)
            return 9;
    return IOM_NAME_FAR;
}

bool iom_name_nearer(const char *typed, const char *known, unsigned *best, const char **near)
{
    unsigned d = iom_name_nearness(typed, known);
    if (d >= *best)
        return false;
    *best = d;
    *near = known;
    return true;
}

size_t iom_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t d[41][41];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (tolower((unsigned char)a[i - 1]) != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == b[j - 2] &&
                tolower((unsigned char)a[i - 2]) == b[j - 1] && d[i - 2][j - 2] + 1 < c)
                c = d[i - 2][j - 2] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

void iom_allowed_near_list(char *why, size_t len, const char *v, const char *const *known,
                           const char *list)
{
    size_t nr = 0;
    while (known[nr])
        nr++;
    iom_allowed_near(why, len, v, known, nr, list);
}

void iom_allowed_near(char *why, size_t len, const char *v, const char *const *known, size_t nr,
                      const char *list)
{
    unsigned best = IOM_NAME_FAR;
    const char *near = NULL;
    for (size_t i = 0; v && *v && i < nr; i++)
        if (known[i])
            iom_name_nearer(v, known[i], &best, &near);
    snprintf(why, len, "%s%s%sallowed: %s", near ? "did you mean " : "", near ? near : "",
             near ? "? " : "", list);
}
