/* db.c - pick a back end from --db and helpers shared by both. */
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/target.h"
#include "tpcc/db.h"

static void defaults(struct tpcc_db_cfg *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    strcpy(cfg->journal_mode, "wal");
    strcpy(cfg->synchronous, "full");
    cfg->busy_timeout_ns = UINT64_C(60) * 1000000000;
    strcpy(cfg->schema, "iomark_tpcc");
}

int tpcc_db_parse(const char *spec, struct tpcc_db_cfg *cfg, char *err, size_t errlen)
{
    defaults(cfg);
    if (!spec || !*spec)
        spec = "sqlite:.";
    if (strncmp(spec, "postgresql://", 13) == 0 || strncmp(spec, "postgres://", 11) == 0 ||
        strncmp(spec, "pg:", 3) == 0) {
#ifdef _WIN32
        snprintf(err, errlen,
                 "--db=%.40s: PostgreSQL is not in the Windows build (no libpq); use "
                 "sqlite:PATH",
                 spec);
        return -EINVAL;
#endif
        const char *ci = strncmp(spec, "pg:", 3) == 0 ? spec + 3 : spec;
        if (strlen(ci) >= sizeof(cfg->conninfo)) {
            snprintf(err, errlen, "--db=%.40s...: connection string longer than %zu bytes", spec,
                     sizeof(cfg->conninfo) - 1);
            return -EINVAL;
        }
        cfg->engine = TPCC_DB_PG;
        strcpy(cfg->conninfo, ci);
        return 0;
    }
    /* sqlite:PATH, or a PATH with no scheme (a drive letter, C:/, is none) */
    size_t sl = strspn(spec, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
    bool prefixed = strncmp(spec, "sqlite:", 7) == 0;
    if (!prefixed && sl > 1 && spec[sl] == ':') {
        snprintf(err, errlen,
                 "--db=%s: expected sqlite:PATH or PATH (file or folder), postgresql://URI or "
                 "pg:CONNINFO",
                 spec);
        return -EINVAL;
    }
    if (!prefixed && strchr(spec, '=')) {
        snprintf(err, errlen,
                 "--db=%s: a libpq key=value string needs pg: in front (--db=pg:%s)", spec, spec);
        return -EINVAL;
    }
    const char *p = prefixed ? spec + 7 : spec;
    if (!*p)
        p = ".";
    struct stat st;
    int n;
    size_t len = strlen(p);
    if ((stat(p, &st) == 0 && S_ISDIR(st.st_mode)) || p[len - 1] == '/')
        n = snprintf(cfg->path, sizeof(cfg->path), "%s%siomark-tpcc.db", p,
                     p[len - 1] == '/' ? "" : "/");
    else
        n = snprintf(cfg->path, sizeof(cfg->path), "%s", p);
    if (n < 0 || (size_t)n >= sizeof(cfg->path)) {
        snprintf(err, errlen, "--db=%.40s...: path longer than %zu bytes", spec,
                 sizeof(cfg->path) - 1);
        return -EINVAL;
    }
    /* its folder: the first missing one, or a part that is a file, named */
    char dir[sizeof(cfg->path)];
    snprintf(dir, sizeof(dir), "%s", cfg->path);
    if (stat(dirname(dir), &st) != 0 || !S_ISDIR(st.st_mode)) {
        /* "--db=VALUE: folder a does not exist": the value as typed, the
         * reason as iom_path_folder_error finds it (after "PATH: ") */
        char why[600];
        iom_path_folder_error(cfg->path, "", why, sizeof(why));
        const char *r = strstr(why, ": ");
        snprintf(err, errlen, "--db=%s: %s", spec, r ? r + 2 : why);
        return -EINVAL;
    }
    cfg->engine = TPCC_DB_SQLITE;
    return 0;
}

const struct tpcc_db_ops *tpcc_db_ops_of(const struct tpcc_db_cfg *cfg)
{
#ifdef _WIN32 /* tpcc_db_parse never selects PostgreSQL there */
    (void)cfg;
    return &tpcc_db_sqlite_ops;
#else
    return cfg->engine == TPCC_DB_PG ? &tpcc_db_pg_ops : &tpcc_db_sqlite_ops;
#endif
}

int tpcc_db_connect(const struct tpcc_db_cfg *cfg, struct tpcc_conn **out, char *err,
                    size_t errlen)
{
    return tpcc_db_ops_of(cfg)->connect(cfg, out, err, errlen);
}

int tpcc_db_scalar_int(struct tpcc_conn *c, unsigned id, const char *sql,
                       const struct tpcc_val *p, unsigned np, int64_t *v)
{
    *v = 0;
    int rc = c->ops->query(c, id, sql, p, np);
    if (rc)
        return rc;
    rc = c->ops->step(c);
    if (rc < 0)
        return rc;
    if (rc == 1 && !c->ops->col_null(c, 0))
        *v = c->ops->col_int(c, 0);
    /* finish the statement: an open SQLite read statement would hold its lock */
    while (rc == 1)
        rc = c->ops->step(c);
    return rc < 0 ? rc : 0;
}

void tpcc_db_describe(const struct tpcc_db_cfg *cfg, char *buf, size_t len)
{
    if (cfg->engine == TPCC_DB_SQLITE) {
        snprintf(buf, len, "sqlite:%s", cfg->path);
        return;
    }
    /* hide "password=..." (key=value form) and ":secret@" (URI form) */
    size_t o = 0;
    const char *s = cfg->conninfo;
    const char *at = strchr(s, '@');
    const char *scheme = strstr(s, "://");
    for (size_t i = 0; s[i] && o + 4 < len;) {
        if (scheme && at && s + i > scheme + 3 && s + i < at && s[i] == ':') {
            memcpy(buf + o, ":***", 4);
            o += 4;
            i = (size_t)(at - s);
            continue;
        }
        if (strncmp(s + i, "password=", 9) == 0) {
            size_t k = 9;
            if (o + 12 >= len)
                break;
            memcpy(buf + o, "password=***", 12);
            o += 12;
            while (s[i + k] && s[i + k] != ' ' && s[i + k] != '&')
                k++;
            i += k;
            continue;
        }
        buf[o++] = s[i++];
    }
    buf[o] = '\0';
}
