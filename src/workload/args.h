/*
 * args.h - the one argv grammar of every iomark sub-command.
 *
 * A sub-command describes its options in a table (struct iom_arg_opt) and
 * walks argv with iom_args_next. The grammar, the same everywhere:
 *   --name=VALUE  or  --name VALUE     an option that takes a value
 *   --name  or  --name=0|1|true|false  a flag; "--name 0" and "--name 1" too
 *                                      (a file named 0 or 1 is written ./0)
 *   -x VALUE / -x                      a short alias where the table gives one
 *   '-' and '_' are the same letter in names (--ramp-time = --ramp_time)
 *   --                                 ends options; the rest is positional
 *   -  and words not starting with '-' are positional
 * The run options of workload/options.h follow the same rules.
 */
#ifndef IOMARK_WORKLOAD_ARGS_H
#define IOMARK_WORKLOAD_ARGS_H

#include <stdbool.h>
#include <stddef.h>

struct iom_arg_opt {
    const char *name;  /* long name without dashes; NULL ends the table */
    char short_name;   /* 'o' for "-o FILE", 0 for none */
    bool takes_value;  /* true: needs a value; false: a flag */
};

struct iom_args {
    int argc;
    char **argv;
    int i;                           /* next argv index to read; start at 1 */
    bool only_positional;            /* after "--" */
    const struct iom_arg_opt *opts;  /* the table, ended by a NULL name */
    const char *cmd;                 /* "compare", "tpcc run", ... for messages */
};

enum { IOM_ARG_POSITIONAL = -1, IOM_ARG_END = -2, IOM_ARG_ERROR = -3 };

/* Start walking argv[first..argc) with table opts. */
void iom_args_init(struct iom_args *a, int argc, char **argv, int first,
                   const struct iom_arg_opt *opts, const char *cmd);

/*
 * The next item of argv. Returns the index of the option in the table with
 * *value its text (NULL for a bare flag; "" for "--name="), or
 * IOM_ARG_POSITIONAL with *value the word, or IOM_ARG_END, or IOM_ARG_ERROR
 * with one line in err (an unknown option, naming the allowed ones, or an
 * option without its value). *value is borrowed from argv.
 */
int iom_args_next(struct iom_args *a, const char **value, char *err, size_t errlen);

/* Whether option names a and b are equal when '-' and '_' count as one
 * letter; with n != (size_t)-1 only the first n bytes of a are compared
 * against the whole of b. */
bool iom_args_name_eq(const char *a, size_t n, const char *b);

/*
 * Typographic dashes pasted from web pages and word processors ("–b8K",
 * "—o4", "−−runtime=5"). iom_args_dash_len returns the length in bytes of the
 * dash-like UTF-8 character w starts with, 0 if none: U+00AD soft hyphen,
 * U+2010..U+2015 (hyphen, non-breaking hyphen, figure dash, en dash, em dash,
 * horizontal bar), U+2212 minus sign, U+FE58, U+FE63, U+FF0D (Unicode 15 code
 * charts, General Punctuation and Mathematical Operators blocks).
 * iom_args_dash_check: 0 when w does not start with one; otherwise writes
 * one line into err ("–b8K: looks like an option with a typographic dash;
 * use -b8K", each leading dash-like character replaced by '-') and returns
 * -EINVAL. Used on every positional word (target, file) so that a pasted
 * option never becomes a file name. w is borrowed; err is the caller's.
 */
size_t iom_args_dash_len(const char *w);
int iom_args_dash_check(const char *w, char *err, size_t errlen);

/*
 * iom_args_value_word: whether w, the word after an option written without
 * '=' ("--bs 4k"), is that option's value. Every word is, but one that
 * starts with "--": the next option or the end of options, so "--bs
 * --size=8M" is a --bs without its value (getopt_long would take
 * "--size=8M" as the block size). w is borrowed; NULL (no next word) is no
 * value.
 */
bool iom_args_value_word(const char *w);

/* A flag's value: NULL, "1", "true" -> 1; "0", "false" -> 0; else -1. */
int iom_args_flag(const char *value);

/*
 * Edit distance between a (as typed) and b (a known name) for "did you
 * mean" hints: optimal string alignment (insert, delete, substitute, swap
 * two neighbours: 1 each; Damerau 1964), a compared case-insensitively
 * against b (lower-case). Returns the distance, or 99 when either word is
 * over 40 characters. No allocation.
 */
size_t iom_edit_distance(const char *a, const char *b);

/*
 * How near a typed name is to a known one, for "did you mean": 0 the same
 * name; 1 when typed is known without its last letter ("of" of "off", so
 * nearer than "on"); 2 x the edit distance for a distance of 1, of 2 when both names have
 * 5 characters or more, of 3 when both have 8 or more (above, as
 * iom_edit_distance); 3 when typed (3 characters or more) begins known
 * ("ramp" of "ramp_time": nearer than a distance of 2); 7 when known (4
 * or more) begins typed; 8 when one holds the other (4 or more: "depth" in
 * "iodepth"); 9 when typed (5 or more) is one edit from a whole word that
 * ends known ("fromat", "format" of "output_format"). '-' and '_' are one letter, typed is compared
 * case- insensitively against known (lower-case). Returns IOM_NAME_FAR when none holds. No
 * allocation.
 */
#define IOM_NAME_FAR 99u
unsigned iom_name_nearness(const char *typed, const char *known);

/*
 * One step of a "nearest known name" search: when known is nearer to typed
 * than *best (iom_name_nearness), sets *best to that nearness and *near to
 * known (not copied: known must outlive *near) and returns true; otherwise
 * leaves both and returns false.
 */
bool iom_name_nearer(const char *typed, const char *known, unsigned *best, const char **near);

/*
 * The "allowed" part of a bad value's message: writes to why (len bytes,
 * truncated) "did you mean NEAR? allowed: LIST" when one of the nr names in
 * known (NULL entries skipped) is near the non-empty value v
 * (iom_name_nearer), else "allowed: LIST". list is the allowed values as
 * the message spells them (with aliases). No allocation.
 */
void iom_allowed_near(char *why, size_t len, const char *v, const char *const *known, size_t nr,
                      const char *list);

/* iom_allowed_near over the NULL-ended list known ({"auto", "kvm", NULL}). */
void iom_allowed_near_list(char *why, size_t len, const char *v, const char *const *known,
                           const char *list);

#endif
