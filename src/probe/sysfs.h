/*
 * sysfs.h - small readers of sysfs/procfs files, shared by the probe's
 * parts (probe.c: the device walk, host.c: the hypervisor). Internal to
 * src/probe. Paths are DIR "/" REL; nothing here allocates except
 * iom_pf_list_dir.
 */
#ifndef IOMARK_PROBE_SYSFS_H
#define IOMARK_PROBE_SYSFS_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Strip leading and trailing white space of s in place. */
void iom_pf_trim(char *s);

/* First line (up to 511 bytes) of file path, trimmed, into buf (len bytes,
 * NUL-terminated). Returns 0, -errno of fopen, or -ENODATA for an empty file. */
int iom_pf_read_line(const char *path, char *buf, size_t len);

/* iom_pf_read_line of DIR/REL (rel may be ""). Also -ENAMETOOLONG. */
int iom_pf_read_at(const char *dir, const char *rel, char *buf, size_t len);

/* Decimal (or 0x hex) value of DIR/REL, or -1 when missing or not a number. */
int64_t iom_pf_read_num_at(const char *dir, const char *rel);

/* Does DIR/REL exist (any type)? */
bool iom_pf_exists_at(const char *dir, const char *rel);

/* Basename of the target of symlink DIR/REL into out (len bytes), "" when
 * it is not a readable symlink. */
void iom_pf_link_base_at(const char *dir, const char *rel, char *out, size_t len);

/* The part of p after its last '/' (p itself when none); points into p. */
const char *iom_pf_base_of(const char *p);

/* Sorted listing of dir (scandir + alphasort, "." and ".." included):
 * returns the number of entries and *ents (free with iom_pf_free_list), or
 * -1 with errno set. */
int iom_pf_list_dir(const char *dir, struct dirent ***ents);

/* Free a listing of n entries from iom_pf_list_dir. */
void iom_pf_free_list(struct dirent **ents, int n);

#endif
