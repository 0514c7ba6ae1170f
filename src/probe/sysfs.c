/* sysfs.c - small readers of sysfs/procfs files for the probe (sysfs.h). */
#include "probe/sysfs.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void iom_pf_trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

/* First line of file `path`, trimmed, into buf. 0 or -errno. */
int iom_pf_read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -errno;
    char tmp[512];
    int rc = fgets(tmp, sizeof(tmp), f) ? 0 : -ENODATA;
    fclose(f);
    if (rc)
        return rc;
    iom_pf_trim(tmp);
    snprintf(buf, len, "%s", tmp);
    return 0;
}

/* Read "DIR/REL" (rel may be "") as one trimmed line. */
int iom_pf_read_at(const char *dir, const char *rel, char *buf, size_t len)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof(p), "%s/%s", dir, rel) >= (int)sizeof(p))
        return -ENAMETOOLONG;
    return iom_pf_read_line(p, buf, len);
}

/* Decimal (or 0x hex) value of DIR/REL, or -1. */
int64_t iom_pf_read_num_at(const char *dir, const char *rel)
{
    char b[64];
    if (iom_pf_read_at(dir, rel, b, sizeof(b)))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(b, &end, 0);
    if (errno || end == b)
        return -1;
    return v;
}

bool iom_pf_exists_at(const char *dir, const char *rel)
{
    char p[PATH_MAX];
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    return access(p, F_OK) == 0;
}

/* basename of the target of symlink DIR/REL, or "" */
void iom_pf_link_base_at(const char *dir, const char *rel, char *out, size_t len)
{
    char p[PATH_MAX], t[PATH_MAX];
    out[0] = '\0';
    snprintf(p, sizeof(p), "%s/%s", dir, rel);
    ssize_t n = readlink(p, t, sizeof(t) - 1);
    if (n <= 0)
        return;
    t[n] = '\0';
    const char *b = strrchr(t, '/');
    snprintf(out, len, "%s", b ? b + 1 : t);
}

const char *iom_pf_base_of(const char *p)
{
    const char *b = strrchr(p, '/');
    return b ? b + 1 : p;
}

/* Sorted directory listing without dot entries; caller frees with free_list. */
int iom_pf_list_dir(const char *dir, struct dirent ***ents)
{
    return scandir(dir, ents, NULL, alphasort);
}

void iom_pf_free_list(struct dirent **ents, int n)
{
    for (int i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
}
