/*
 * test_tpcc_db.c - the back-end layer without a server: --db parsing,
 * password masking in reports, and the SQLite ops table on an in-memory
 * database (PostgreSQL-style $N parameters, a parameter used twice, NULLs,
 * bulk copy, step semantics, transactions, reset refusing foreign tables).
 * Expected values are written out by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tpcc/db.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static void test_parse(void)
{
    struct tpcc_db_cfg cfg;
    char err[256], d[512];
    char dir[] = "/tmp/iomark-tpcc-unit.XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char spec[128], want[160];
    snprintf(spec, sizeof(spec), "sqlite:%s", dir);
    snprintf(want, sizeof(want), "%s/iomark-tpcc.db", dir);
    CHECK(tpcc_db_parse(spec, &cfg, err, sizeof(err)) == 0 && cfg.engine == TPCC_DB_SQLITE &&
              strcmp(cfg.path, want) == 0,
          "folder -> %s", cfg.path);
    CHECK(strcmp(cfg.journal_mode, "wal") == 0 && strcmp(cfg.synchronous, "full") == 0 &&
              strcmp(cfg.schema, "iomark_tpcc") == 0,
          "defaults %s %s %s", cfg.journal_mode, cfg.synchronous, cfg.schema);
    snprintf(spec, sizeof(spec), "sqlite:%s/", dir);
    CHECK(tpcc_db_parse(spec, &cfg, err, sizeof(err)) == 0 && strcmp(cfg.path, want) == 0,
          "folder/ -> %s", cfg.path);
    snprintf(spec, sizeof(spec), "sqlite:%s/y.db", dir);
    snprintf(want, sizeof(want), "%s/y.db", dir);
    CHECK(tpcc_db_parse(spec, &cfg, err, sizeof(err)) == 0 && strcmp(cfg.path, want) == 0,
          "file -> %s", cfg.path);
    /* a plain PATH (no scheme) is SQLite too */
    CHECK(tpcc_db_parse(want, &cfg, err, sizeof(err)) == 0 && cfg.engine == TPCC_DB_SQLITE &&
              strcmp(cfg.path, want) == 0,
          "plain path -> %s", cfg.path);
    CHECK(tpcc_db_parse(dir, &cfg, err, sizeof(err)) == 0 && strncmp(cfg.path, dir, strlen(dir)) == 0 &&
              strcmp(cfg.path + strlen(dir), "/iomark-tpcc.db") == 0,
          "plain folder -> %s", cfg.path);
    CHECK(tpcc_db_parse("y.db", &cfg, err, sizeof(err)) == 0 && strcmp(cfg.path, "y.db") == 0,
          "relative file -> %s", cfg.path);
    /* the file's folder must exist: the first missing one is named */
    CHECK(tpcc_db_parse("sqlite:/no-such-iomark-dir/a/y.db", &cfg, err, sizeof(err)) == -EINVAL &&
              strcmp(err, "--db=sqlite:/no-such-iomark-dir/a/y.db: folder /no-such-iomark-dir does not exist") == 0,
          "missing folder of a file: %s", err);
    CHECK(tpcc_db_parse("/no-such-iomark-dir/y.db", &cfg, err, sizeof(err)) == -EINVAL &&
              strcmp(err, "--db=/no-such-iomark-dir/y.db: folder /no-such-iomark-dir does not exist") == 0,
          "missing folder, plain path: %s", err);
    /* a drive letter is no scheme: C:/x.db is a path (whose folder C: is missing here) */
    CHECK(tpcc_db_parse("C:/x.db", &cfg, err, sizeof(err)) == -EINVAL && strstr(err, "folder C: does not exist"),
          "drive letter: %s", err);
    /* libpq's key=value form without pg: is refused, naming the fix */
    CHECK(tpcc_db_parse("host=h dbname=x", &cfg, err, sizeof(err)) == -EINVAL &&
              strcmp(err, "--db=host=h dbname=x: a libpq key=value string needs pg: in front "
                          "(--db=pg:host=h dbname=x)") == 0,
          "key=value: %s", err);
    CHECK(tpcc_db_parse(NULL, &cfg, err, sizeof(err)) == 0 &&
              strcmp(cfg.path, "./iomark-tpcc.db") == 0,
          "default -> %s", cfg.path);
    CHECK(tpcc_db_parse("sqlite:/no/such/folder/", &cfg, err, sizeof(err)) == -EINVAL &&
              strstr(err, "does not exist"),
          "missing folder: %s", err);
    CHECK(tpcc_db_parse("mysql://h/db", &cfg, err, sizeof(err)) == -EINVAL &&
              strstr(err, "--db=mysql://h/db"),
          "bad scheme: %s", err);
    rmdir(dir);

    CHECK(tpcc_db_parse("postgresql://bench:s3cret@db.example:5432/tpcc", &cfg, err, sizeof(err)) == 0 &&
              cfg.engine == TPCC_DB_PG,
          "uri");
    tpcc_db_describe(&cfg, d, sizeof(d));
    CHECK(strcmp(d, "postgresql://bench:***@db.example:5432/tpcc") == 0, "masked uri: %s", d);
    CHECK(tpcc_db_parse("pg:host=/tmp dbname=x password=hunter2 user=u", &cfg, err, sizeof(err)) == 0 &&
              strcmp(cfg.conninfo, "host=/tmp dbname=x password=hunter2 user=u") == 0,
          "conninfo %s", cfg.conninfo);
    tpcc_db_describe(&cfg, d, sizeof(d));
    CHECK(strcmp(d, "host=/tmp dbname=x password=*** user=u") == 0, "masked conninfo: %s", d);
    CHECK(tpcc_db_parse("postgres:///postgres?host=/tmp&port=5433", &cfg, err, sizeof(err)) == 0,
          "postgres:// scheme");
    tpcc_db_describe(&cfg, d, sizeof(d));
    CHECK(strcmp(d, "postgres:///postgres?host=/tmp&port=5433") == 0, "no password: %s", d);
}

static void test_sqlite_ops(void)
{
    struct tpcc_db_cfg cfg;
    char err[256];
    tpcc_db_parse("sqlite:/tmp/unused.db", &cfg, err, sizeof(err));
    strcpy(cfg.path, ":memory:");
    strcpy(cfg.journal_mode, "memory");
    cfg.create = true;
    struct tpcc_conn *c = NULL;
    int rc = tpcc_db_connect(&cfg, &c, err, sizeof(err));
    CHECK(rc == 0 && c, "connect: %d %s", rc, err);
    if (!c)
        return;
    const struct tpcc_db_ops *o = c->ops;
    CHECK(strcmp(o->name, "sqlite") == 0, "name");
    CHECK(o->exec(c, "CREATE TABLE t (a INTEGER, b REAL, s TEXT)") == 0, "create: %s", c->err);
    static const char *const cols[] = {"a", "b", "s"};
    CHECK(o->begin(c, true) == 0 && o->copy_begin(c, "t", cols, 3) == 0, "copy_begin: %s", c->err);
    for (int i = 1; i <= 5; i++) {
        char s[8];
        snprintf(s, sizeof(s), "r%d", i);
        struct tpcc_val v[3] = {TV_I(i), TV_R(i * 1.5), i == 3 ? TV_NULL : TV_S(s)};
        CHECK(o->copy_row(c, v, 3) == 0, "copy_row %d: %s", i, c->err);
    }
    CHECK(o->copy_end(c) == 0 && o->commit(c) == 0, "copy_end/commit: %s", c->err);

    /* $1 used twice, $2 once: rows with a >= 2 and a <= 4 and a <> 3 -> 2 and 4 */
    struct tpcc_val p[2] = {TV_I(2), TV_I(3)};
    rc = o->query(c, 0, "SELECT a, b, s FROM t WHERE a >= $1 AND a <= $1 + 2 AND a <> $2 ORDER BY a",
                  p, 2);
    CHECK(rc == 0, "query: %s", c->err);
    int64_t got[4];
    int n = 0;
    while ((rc = o->step(c)) == 1 && n < 4) {
        got[n++] = o->col_int(c, 0);
        if (n == 1)
            CHECK(o->col_real(c, 1) == 3.0 && strcmp(o->col_text(c, 2), "r2") == 0,
                  "row 2: %f %s", o->col_real(c, 1), o->col_text(c, 2));
    }
    CHECK(rc == 0 && n == 2 && got[0] == 2 && got[1] == 4, "rows: rc %d n %d", rc, n);
    CHECK(o->step(c) == 0, "step after the end stays 0");

    p[0] = TV_I(3);
    CHECK(o->query(c, 1, "SELECT s FROM t WHERE a = $1", p, 1) == 0 && o->step(c) == 1 &&
              o->col_null(c, 0) && strcmp(o->col_text(c, 0), "") == 0,
          "NULL column");
    int64_t v = -1;
    CHECK(tpcc_db_scalar_int(c, 2, "SELECT sum(a) FROM t", NULL, 0, &v) == 0 && v == 15,
          "sum(a) = %lld", (long long)v);
    /* UPDATE ... RETURNING runs in query() */
    p[0] = TV_I(5);
    CHECK(o->query(c, 3, "UPDATE t SET a = a * 10 WHERE a = $1 RETURNING a", p, 1) == 0 &&
              o->step(c) == 1 && o->col_int(c, 0) == 50,
          "update returning");
    CHECK(o->step(c) == 0, "one row returned");
    /* a rolled-back write is gone */
    CHECK(o->begin(c, true) == 0 && o->exec(c, "DELETE FROM t") == 0 && o->rollback(c) == 0,
          "rollback: %s", c->err);
    CHECK(tpcc_db_scalar_int(c, 4, "SELECT count(*) FROM t", NULL, 0, &v) == 0 && v == 5,
          "count after rollback %lld", (long long)v);
    CHECK(o->rollback(c) == 0, "rollback without a transaction is harmless");
    CHECK(o->query(c, 5, "SELECT nosuchcolumn FROM t", NULL, 0) == -EIO &&
              strstr(c->err, "nosuchcolumn"),
          "error text: %s", c->err);
    /* reset refuses a database with a table that is not iomark's */
    CHECK(o->reset(c) == -EEXIST && strstr(c->err, "'t'"), "reset: %s", c->err);
    uint64_t x;
    CHECK(o->xact_count(c, &x) == -ENOTSUP, "xact_count on SQLite");
    o->disconnect(c);

    cfg.create = false;
    strcpy(cfg.path, "/tmp/iomark-no-such-dir/x.db");
    CHECK(tpcc_db_connect(&cfg, &c, err, sizeof(err)) == -ENOENT, "missing file without create");
}

int main(void)
{
    test_parse();
    test_sqlite_ops();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
