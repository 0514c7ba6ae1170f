/*
 * proc.h - run external programs for the controller lab (QEMU, apt-get,
 * dpkg-deb, depmod, ldd) with redirected output and a wall-clock bound.
 * No shell is involved: argv goes to execvp as given.
 */
#ifndef IOMARK_LAB_PROC_H
#define IOMARK_LAB_PROC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct iom_lab_proc_opts {
    const char *cwd;          /* working folder of the child, NULL = inherit */
    const char *stdout_path;  /* file for stdout (truncated), NULL = /dev/null */
    const char *stderr_path;  /* file for stderr (truncated), NULL = /dev/null;
                               * the same path as stdout_path shares one file */
    char *capture;            /* when non-NULL: stdout (and stderr when
                               * stderr_path is NULL) captured here instead,
                               * NUL-terminated, truncated to capture_len-1 */
    size_t capture_len;
    unsigned timeout_s;       /* 0 = no bound; else SIGTERM at the bound,
                               * SIGKILL 5 s later */
    const volatile sig_atomic_t *stop; /* optional: non-zero ends the child
                                        * like a timeout */
    int (*tick)(int pid, void *arg);   /* optional: called about every 50-100 ms
                                        * while the child runs (pid = its id); a
                                        * non-zero return ends the child like a
                                        * timeout */
    void *tick_arg;
};

/* How a child ended. */
struct iom_lab_proc_result {
    int exit_status;    /* 0-255 when it exited, -1 otherwise */
    int signal;         /* terminating signal, 0 when it exited */
    bool timed_out;     /* killed at the timeout_s bound */
    bool stopped;       /* killed because *stop became non-zero */
    double wall_s;      /* wall-clock seconds from fork to reap */
    double user_s, sys_s; /* the child's CPU time (wait4 rusage, all its threads) */
};

/*
 * Run argv[0] (searched in PATH, plus /usr/sbin and /sbin) with argv and
 * wait for it within o->timeout_s. Returns 0 when the child was started and
 * reaped (its fate is in *res, also when it failed or was killed), -ENOENT
 * when the program is not found, or another -errno when it could not be
 * started or an output file could not be opened.
 */
int iom_lab_proc_run(char *const argv[], const struct iom_lab_proc_opts *o,
                     struct iom_lab_proc_result *res);

/*
 * Find program `name` in PATH, /usr/sbin and /sbin. Writes its path to buf
 * (len bytes) and returns 0, or -ENOENT.
 */
int iom_lab_which(const char *name, char *buf, size_t len);

#endif
