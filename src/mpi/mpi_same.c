/* mpi_same.c - every rank runs the same iomark with the same workload (mpi.h). */
#include "mpi/mpi.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* The first member (depth first) where this rank's spec and rank 0's differ,
 * as "NAME: VALUE here, VALUE on rank 0" in out; false when none differs. */
static bool first_diff(const cJSON *mine, const cJSON *root, const char *path, char *out,
                       size_t len)
{
    const cJSON *m;
    if (cJSON_IsObject(mine) && cJSON_IsObject(root)) {
        cJSON_ArrayForEach(m, mine)
        {
            char p[160];
            snprintf(p, sizeof(p), "%s%s%s", path, *path ? "." : "", m->string);
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, m->string);
            if (!r) {
                snprintf(out, len, "%s set here, not on rank 0", p);
                return true;
            }
            if (first_diff(m, r, p, out, len))
                return true;
        }
        cJSON_ArrayForEach(m, root) if (!cJSON_GetObjectItemCaseSensitive(mine, m->string))
        {
            snprintf(out, len, "%s%s%s set on rank 0, not here", path, *path ? "." : "", m->string);
            return true;
        }
        return false;
    }
    if (cJSON_Compare(mine, root, true))
        return false;
    char *a = cJSON_PrintUnformatted(mine), *b = cJSON_PrintUnformatted(root);
    snprintf(out, len, "%s: %.60s here, %.60s on rank 0", *path ? path : "workload", a ? a : "?",
             b ? b : "?");
    free(a);
    free(b);
    return true;
}

/* What differs between this rank's "VERSION\nSPEC\nEXTRA" and rank 0's;
 * true when it is the version. */
static bool what_differs(const char *mine, const char *root, char *out, size_t len)
{
    const char *ms = strchr(mine, '\n'), *rs = strchr(root, '\n');
    if (!ms || !rs || ms - mine != rs - root || strncmp(mine, root, (size_t)(ms - mine)) != 0) {
        snprintf(out, len, "iomark %.*s here, %.*s on rank 0", (int)(ms ? ms - mine : 0), mine,
                 (int)(rs ? rs - root : 0), root);
        return true;
    }
    const char *me = strchr(ms + 1, '\n'), *re = strchr(rs + 1, '\n');
    char *a = me ? strndup(ms + 1, (size_t)(me - ms - 1)) : NULL;
    char *b = re ? strndup(rs + 1, (size_t)(re - rs - 1)) : NULL;
    cJSON *ja = a && *a ? cJSON_Parse(a) : NULL, *jb = b && *b ? cJSON_Parse(b) : NULL;
    bool found = ja && jb && first_diff(ja, jb, "", out, len);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    free(a);
    free(b);
    if (!found) /* the command's own options (mark, tpcc) */
        snprintf(out, len, "options %.120s here, %.120s on rank 0", me ? me + 1 : "?",
                 re ? re + 1 : "?");
    return false;
}

int iom_mpi_check_same(const struct iom_job *job, const char *extra, char *why, size_t whylen)
{
    int rank = iom_mpi_rank();
    cJSON *spec = job ? iom_json_spec(job) : NULL;
    char *txt = spec ? cJSON_PrintUnformatted(spec) : NULL;
    cJSON_Delete(spec);
    size_t n = strlen(IOMARK_VERSION) + (txt ? strlen(txt) : 0) + (extra ? strlen(extra) : 0) + 3;
    char *mine = malloc(n);
    if (!mine)
        MPI_Abort(MPI_COMM_WORLD, 1);
    snprintf(mine, n, "%s\n%s\n%s", IOMARK_VERSION, txt ? txt : "", extra ? extra : "");
    free(txt);
    /* rank 0's text to every rank: its length, then the text */
    long long len = (long long)strlen(mine) + 1;
    MPI_Bcast(&len, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    char *root = rank == 0 ? mine : malloc((size_t)len);
    if (!root || len > INT_MAX)
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Bcast(root, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    int me = strcmp(mine, root) != 0 ? rank : INT_MAX, first = INT_MAX;
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char msg[400] = "";
    if (first != INT_MAX && rank == first) { /* the differing rank tells what differs */
        char d[300];
        bool version = what_differs(mine, root, d, sizeof(d));
        snprintf(msg, sizeof(msg), "rank %d on %s %s rank 0's (%s)", rank, iom_mpi_host(),
                 version ? "runs another iomark version than" : "was given another workload than",
                 d);
    }
    if (root != mine)
        free(root);
    free(mine);
    if (first == INT_MAX)
        return 0;
    MPI_Bcast(msg, sizeof(msg), MPI_CHAR, first, MPI_COMM_WORLD);
    snprintf(why, whylen, "%s; every rank must run the same iomark with the same options", msg);
    return -EPROTO;
}
