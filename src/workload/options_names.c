/* options_names.c - what other tools call iomark's options, for "did you mean"
 * and the line for an unknown option (options_int.h). */
#include "workload/options_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload/args.h"

/* What other tools (fio, DiskSpd) or plain words call an option: for "did you
 * mean". fio's own other spellings (fio 3.33 options.c: "ba", "timeout",
 * "io_limit", "steadystate*") and its loops, which is run's --repeat (taken
 * before the table: cli/repeat.c; mark's --runs, the lab's --repeat). */
static const struct {
    const char *name, *opt;
} other_names[] = {
    {"blocksize", "bs"},       {"block_size", "bs"},      {"queue_depth", "iodepth"},
    {"qdepth", "iodepth"},     {"threads", "numjobs"},    {"numthreads", "numjobs"},
    {"duration", "runtime"},   {"warmup", "ramp_time"},   {"cooldown", "cooldown_time"},
    {"engine", "ioengine"},    {"seed", "randseed"},      {"ba", "blockalign"},
    {"timeout", "runtime"},    {"io_limit", "io_size"},   {"loops", "repeat"},
    {"steadystate", "ss"},     {"steadystate_duration", "ss_dur"},
    {"steadystate_ramp_time", "ss_ramp"},
};

bool iom_opt_other_nearer(const char *name, unsigned *best, const char **via, const char **opt)
{
    bool nearer = false;
    for (size_t i = 0; i < sizeof(other_names) / sizeof(other_names[0]) && *best; i++)
        if (iom_name_nearer(name, other_names[i].name, best, via)) {
            *opt = other_names[i].opt;
            nearer = true;
        }
    return nearer;
}

int iom_opt_unknown(const char *name, char *err, size_t errlen)
{
    /* fio options iomark spells differently or does not need */
    static const struct {
        const char *name, *hint;
    } fio_hints[] = {
        {"filename", "targets are the arguments after the options: iomark run [options] FILE..."},
        {"time_based", "iomark runs are time-based already (--runtime); --io_size limits bytes"},
        {"group_reporting", "iomark reports every target and thread and the total"},
        {"blocksize", "use --bs"},
        {"norandommap", "iomark draws random offsets with replacement by default (fio's "
                        "norandommap); --random_map=1 visits each block once"},
        {"directory", "name the target file with its folder: iomark run [options] DIR/FILE"},
        {"output-format=normal,json", "use normal or json"},
    };
    for (size_t i = 0; i < sizeof(fio_hints) / sizeof(fio_hints[0]); i++)
        if (strcmp(name, fio_hints[i].name) == 0) {
            snprintf(err, errlen, "--%s: not an iomark run option; %s", name, fio_hints[i].hint);
            return -ENOENT;
        }
    const char *via, *s = iom_option_suggest_via(name, &via);
    if (s && via)
        snprintf(err, errlen, "--%s: unknown option; did you mean --%s (iomark's name for --%s)?",
                 name, s, via);
    else if (s)
        snprintf(err, errlen, "--%s: unknown option; did you mean --%s?", name, s);
    else
        snprintf(err, errlen, "--%s: unknown option; see iomark run --help", name);
    return -ENOENT;
}
