/* moddep.c - modules.dep resolution, module names, `ldd` output parsing. */
#include "lab/image.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- string arrays ---- */

void iom_lab_strv_free(char **v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static int strv_push(char ***v, size_t *n, const char *s, size_t len)
{
    for (size_t i = 0; i < *n; i++)
        if (strlen((*v)[i]) == len && strncmp((*v)[i], s, len) == 0)
            return 0;   /* each once */
    char **nv = realloc(*v, (*n + 1) * sizeof(**v));
    if (!nv)
        return -ENOMEM;
    *v = nv;
    if (!(nv[*n] = strndup(s, len)))
        return -ENOMEM;
    (*n)++;
    return 0;
}

/* ---- modules.dep ---- */

void iom_lab_module_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t l = strcspn(b, ".");
    snprintf(buf, len, "%.*s", (int)l, b);
    for (char *p = buf; *p; p++)
        if (*p == '-')
            *p = '_';
}

/* The modules.dep line of module `name`, or NULL. */
static const char *dep_line(const char *text, const char *name, size_t *line_len)
{
    for (const char *p = text; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        size_t colon = strcspn(p, ":");
        if (colon < l) {
            char path[512], mod[128];
            snprintf(path, sizeof(path), "%.*s", (int)colon, p);
            iom_lab_module_name(path, mod, sizeof(mod));
            if (strcmp(mod, name) == 0) {
                *line_len = l;
                return p;
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return NULL;
}

static int resolve_one(const char *text, const char *name, int depth, char ***paths, size_t *n,
                       char *missing, size_t missing_len)
{
    char norm[128];
    size_t l;
    iom_lab_module_name(name, norm, sizeof(norm));
    const char *line = dep_line(text, norm, &l);
    if (!line) {
        if (missing)
            snprintf(missing, missing_len, "%s", name);
        return -ENOENT;
    }
    if (depth > 64)
        return -ELOOP;
    size_t colon = strcspn(line, ":");
    /* dependencies first; depmod lists a module's full closure, so loading
     * them from last to first satisfies every dependency among them too */
    const char *deps = line + colon + 1;
    size_t dl = l - colon - 1;
    const char *toks[64];
    size_t tl[64], nt = 0;
    for (size_t i = 0; i < dl && nt < 64;) {
        while (i < dl && deps[i] == ' ')
            i++;
        size_t s = i;
        while (i < dl && deps[i] != ' ')
            i++;
        if (i > s) {
            toks[nt] = deps + s;
            tl[nt++] = i - s;
        }
    }
    for (size_t k = nt; k-- > 0;) {
        char dep[512];
        snprintf(dep, sizeof(dep), "%.*s", (int)tl[k], toks[k]);
        int rc = resolve_one(text, dep, depth + 1, paths, n, missing, missing_len);
        if (rc)
            return rc;
    }
    return strv_push(paths, n, line, colon);
}

int iom_lab_moddep_resolve(const char *dep_text, const char *const *names, size_t nr_names,
                           char ***paths, size_t *n, char *missing, size_t missing_len)
{
    *paths = NULL;
    *n = 0;
    for (size_t i = 0; i < nr_names; i++) {
        int rc = resolve_one(dep_text, names[i], 0, paths, n, missing, missing_len);
        if (rc) {
            iom_lab_strv_free(*paths, *n);
            *paths = NULL;
            *n = 0;
            return rc;
        }
    }
    return 0;
}

/* ---- ldd ---- */

int iom_lab_ldd_parse(const char *text, char ***paths, size_t *n, char *missing,
                      size_t missing_len)
{
    *paths = NULL;
    *n = 0;
    int rc = 0;
    for (const char *p = text; p && *p && !rc;) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof(line), "%.*s", (int)l, p);
        char *s = line + strspn(line, " \t");
        char *arrow = strstr(s, "=> ");
        if (arrow) {
            char *path = arrow + 3;
            if (strncmp(path, "not found", 9) == 0) {
                if (missing)
                    snprintf(missing, missing_len, "%.*s", (int)strcspn(s, " \t"), s);
                rc = -ENOENT;
            } else if (*path == '/') {
                rc = strv_push(paths, n, path, strcspn(path, " \t("));
            }
        } else if (*s == '/') {
            rc = strv_push(paths, n, s, strcspn(s, " \t("));
        }
        p = eol ? eol + 1 : NULL;
    }
    if (rc) {
        iom_lab_strv_free(*paths, *n);
        *paths = NULL;
        *n = 0;
    }
    return rc;
}

