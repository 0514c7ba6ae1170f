/* proc.c - run an external program with redirected output and a time bound. */
#include "lab/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int iom_lab_which(const char *name, char *buf, size_t len)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return -ENOENT;
        snprintf(buf, len, "%s", name);
        return 0;
    }
    const char *env = getenv("PATH");
    char path[4096];
    snprintf(path, sizeof(path), "%s:/usr/sbin:/sbin:/usr/bin:/bin", env ? env : "");
    char *save = NULL;
    for (char *dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char cand[4096];
        struct stat st;
        if (!*dir)
            continue;
        snprintf(cand, sizeof(cand), "%s/%s", dir, name);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0) {
            snprintf(buf, len, "%s", cand);
            return 0;
        }
    }
    return -ENOENT;
}

static int open_out(const char *path)
{
    return open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

int iom_lab_proc_run(char *const argv[], const struct iom_lab_proc_opts *o,
                     struct iom_lab_proc_result *res)
{
    char prog[4096];
    int pipefd[2] = {-1, -1}, outfd = -1, errfd = -1, rc = 0;
    memset(res, 0, sizeof(*res));
    res->exit_status = -1;
    if (iom_lab_which(argv[0], prog, sizeof(prog)))
        return -ENOENT;
    if (o->capture) {
        o->capture[0] = 0;
        if (pipe2(pipefd, O_CLOEXEC))
            return -errno;
        outfd = pipefd[1];
    } else if ((outfd = open_out(o->stdout_path)) < 0) {
        return -errno;
    }
    if (o->stderr_path && o->stdout_path && strcmp(o->stderr_path, o->stdout_path) == 0)
        errfd = dup(outfd);
    else if (o->capture && !o->stderr_path)
        errfd = dup(outfd);
    else
        errfd = open_out(o->stderr_path);
    if (errfd < 0) {
        rc = -errno;
        goto out;
    }
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0) {
        rc = -errno;
        goto out;
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(outfd, 1);
        dup2(errfd, 2);
        setpgid(0, 0);
        /* the child dies with iomark, even when iomark is killed outright
         * (prctl(2) PR_SET_PDEATHSIG); no QEMU is ever left behind */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(126);
        if (o->cwd && chdir(o->cwd) != 0)
            _exit(126);
        execv(prog, argv);
        _exit(127);
    }
    /* the parent keeps no write end, so the pipe reports EOF when the child ends */
    close(outfd);
    close(errfd);
    outfd = errfd = -1;
    pipefd[1] = -1;
    size_t got = 0;
    int status = 0;
    double kill_at = 0;
    for (;;) {
        struct rusage ru;
        pid_t w = wait4(pid, &status, WNOHANG, &ru);
        if (w == pid) {
            res->user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
            res->sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
            break;
        }
        bool tick_stop = o->tick && o->tick((int)pid, o->tick_arg) != 0;
        double t = now_s();
        bool over = (o->timeout_s && t - t0 > o->timeout_s) || tick_stop;
        bool stop = o->stop && *o->stop;
        if ((over || stop) && kill_at == 0) {
            res->timed_out = over;
            res->stopped = !over && stop;
            kill(-pid, SIGTERM);
            kill(pid, SIGTERM);
            kill_at = t + 5;
        } else if (kill_at && t > kill_at) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
        }
        if (pipefd[0] >= 0) {
            struct pollfd p = {.fd = pipefd[0], .events = POLLIN};
            if (poll(&p, 1, 100) > 0) {
                char tmp[4096];
                ssize_t n = read(pipefd[0], tmp, sizeof(tmp));
                if (n > 0 && o->capture_len > 1) {
                    size_t room = o->capture_len - 1 - got;
                    size_t take = (size_t)n < room ? (size_t)n : room;
                    memcpy(o->capture + got, tmp, take);
                    got += take;
                    o->capture[got] = 0;
                } else if (n == 0) {
                    close(pipefd[0]);
                    pipefd[0] = -1;
                }
            }
        } else {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    /* drain what the child wrote before exiting */
    while (pipefd[0] >= 0) {
        char tmp[4096];
        ssize_t n = read(pipefd[0], tmp, sizeof(tmp));
        if (n <= 0)
            break;
        if (o->capture_len > 1) {
            size_t room = o->capture_len - 1 - got;
            size_t take = (size_t)n < room ? (size_t)n : room;
            memcpy(o->capture + got, tmp, take);
            got += take;
            o->capture[got] = 0;
        }
    }
    res->wall_s = now_s() - t0;
    if (WIFEXITED(status))
        res->exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        res->signal = WTERMSIG(status);
out:
    if (pipefd[0] >= 0)
        close(pipefd[0]);
    if (outfd >= 0)
        close(outfd);
    if (errfd >= 0)
        close(errfd);
    return rc;
}
