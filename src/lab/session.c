/*
 * session.c - one lab run: the backing disk, one QEMU boot per unit
 * (controller variant) running every job, and what comes back from it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "lab/labrun.h"
#include "lab/proc.h"
#include "report/report.h"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, r;
    char *b = malloc(cap);
    while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

/* Last non-empty line of a text (console, stderr) into buf; for a console
 * whose kernel panicked, the panic's own line ("Kernel panic - not syncing:
 * ...", printed before its call trace, which ends in "</TASK>"). */
static void last_line(const char *text, char *buf, size_t len)
{
    buf[0] = 0;
    if (!text)
        return;
    const char *panic = strstr(text, "Kernel panic - not syncing");
    if (panic) {
        snprintf(buf, len, "%.*s", (int)strcspn(panic, "\r\n"), panic);
        return;
    }
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(buf, len, "%.*s", (int)(end - start), start);
}

static void first_line(const char *text, char *buf, size_t len)
{
    buf[0] = 0;
    if (!text)
        return;
    while (*text == '\n')
        text++;
    snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
}

/* Create the backing image: non-zero pseudo-random bytes, so reads are not
 * served from holes. Returns 0 or -errno (-EINTR when stopped). */
static int make_disk(const char *path, uint64_t bytes, const volatile sig_atomic_t *stop)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -errno;
    static uint64_t buf[1 << 17];   /* 1 MiB */
    uint64_t x = 0x9e3779b97f4a7c15ull;
    int rc = 0;
    for (uint64_t off = 0; off < bytes && !rc; off += sizeof(buf)) {
        for (size_t i = 0; i < sizeof(buf) / sizeof(buf[0]); i++) {
            x ^= x << 13;   /* xorshift64 (Marsaglia 2003) */
            x ^= x >> 7;
            x ^= x << 17;
            buf[i] = x;
        }
        size_t len = bytes - off < sizeof(buf) ? (size_t)(bytes - off) : sizeof(buf);
        if (write(fd, buf, len) != (ssize_t)len)
            rc = errno ? -errno : -EIO;
        if (stop && *stop)
            rc = -EINTR;
    }
    if (close(fd) != 0 && !rc)
        rc = -errno;
    if (rc)
        unlink(path);
    return rc;
}

/* Append "/lib/modules/KVER/PATH [params]\n" lines for names (with their
 * dependencies) to *l; params are the unit's "module.param=value" ones. */
static int module_lines(const char *const *names, size_t nn, const struct iom_lab_unit *u,
                        const char *kver, const char *dep_text, char **lines, char *err,
                        size_t errlen)
{
    char **paths = NULL, missing[128] = "";
    size_t np = 0;
    int rc = iom_lab_moddep_resolve(dep_text, names, nn, &paths, &np, missing, sizeof(missing));
    if (rc) {
        snprintf(err, errlen, "guest kernel %s has no module %s", kver, missing);
        return rc;
    }
    size_t cap = 8192;
    char *l = calloc(1, cap);
    if (!l) {
        iom_lab_strv_free(paths, np);
        return -ENOMEM;
    }
    for (size_t i = 0; i < np; i++) {
        char m[128];
        iom_lab_module_name(paths[i], m, sizeof(m));
        size_t len = strlen(l);
        snprintf(l + len, cap - len, "/lib/modules/%s/%s", kver, paths[i]);
        for (size_t p = 0; u && p < u->nr_params; p++) {
            char pm[128];
            const char *dot = strchr(u->params[p], '.');
            const char *eq = strchr(u->params[p], '=');
            if (!dot || !eq || dot > eq)
                continue;
            snprintf(pm, sizeof(pm), "%.*s", (int)(dot - u->params[p]), u->params[p]);
            for (char *q = pm; *q; q++)
                if (*q == '-')
                    *q = '_';
            if (strcmp(pm, m) == 0) {
                len = strlen(l);
                snprintf(l + len, cap - len, " %s", dot + 1);
            }
        }
        len = strlen(l);
        snprintf(l + len, cap - len, "\n");
    }
    iom_lab_strv_free(paths, np);
    *lines = l;
    return 0;
}

static void write_section(const struct iom_lab_env *e, const char *name,
                          const struct iom_lab_section *s)
{
    if (!s)
        return;
    char p[4300];
    snprintf(p, sizeof(p), "%s/%s", e->outdir, name);
    FILE *f = fopen(p, "w");
    if (f) {
        fwrite(s->data, 1, s->len, f);
        fclose(f);
    }
}

/* The driver name the guest's /init matches a unit's disk by: the SCSI
 * host's proc_name or the bound driver, i.e. the controller's own module
 * (the bus in front of it, virtio_pci, skipped). */
static const char *unit_driver(const struct iom_lab_ctrl *c)
{
    return strcmp(c->modules[0], "virtio_pci") == 0 && c->modules[1] ? c->modules[1]
                                                                     : c->modules[0];
}

/* Boot the units idx[0..n) in one guest (one controller each, the same
 * machine type and guest parameters), collect, write their files. */
static void run_group(const struct iom_lab_opts *o, struct iom_lab_env *e, const size_t *idx,
                      size_t n, size_t group_no,
                      const struct iom_lab_plan *pl, double later_s,
                      const volatile sig_atomic_t *stop, struct iom_lab_unitout *uo_all)
{
    struct iom_lab_unitout *uos[IOM_LAB_MAX_UNITS] = {0};
    const struct iom_lab_ctrl *ctrls[IOM_LAB_MAX_UNITS] = {0};
    for (size_t k = 0; k < n; k++) {
        uos[k] = &uo_all[idx[k]];
        ctrls[k] = uos[k]->u->c;
    }
    const struct iom_lab_unit *u0 = uos[0]->u;
    char initrd[4300], chan[4300], console[4300], qlog[4300], err[512];
    /* file names: one controller: the unit's name ('/', ',', ' ' replaced);
     * several: boot-N, and each unit's documents keep its own name */
    char fname[160];
    if (n == 1)
        snprintf(fname, sizeof(fname), "%s", u0->name);
    else
        snprintf(fname, sizeof(fname), "boot-%zu", group_no);
    for (char *q = fname; *q; q++)
        if (*q == '/' || *q == ',' || *q == ' ')
            *q = '_';
    snprintf(initrd, sizeof(initrd), "%s/.%s.initrd", e->outdir, fname);
    snprintf(chan, sizeof(chan), "%s/%s.channel", e->outdir, fname);
    snprintf(console, sizeof(console), "%s/%s.console.log", e->outdir, fname);
    snprintf(qlog, sizeof(qlog), "%s/%s.qemu.log", e->outdir, fname);
#define FAIL_ALL(...)                                                                              \
    do {                                                                                           \
        for (size_t k_ = 0; k_ < n; k_++)                                                          \
            snprintf(uos[k_]->reason, sizeof(uos[k_]->reason), __VA_ARGS__);                       \
    } while (0)

    const char *names[4 + 4 * IOM_LAB_MAX_UNITS];
    size_t nn = 0;
    names[nn++] = "virtio_pci";
    names[nn++] = "virtio_console";
    char drivers[1024] = "", units[1024] = "";
    for (size_t k = 0; k < n; k++) {
        for (size_t m = 0; ctrls[k]->modules[m]; m++) {
            bool dup = false;
            for (size_t x = 0; x < nn; x++)
                dup |= strcmp(names[x], ctrls[k]->modules[m]) == 0;
            if (!dup)
                names[nn++] = ctrls[k]->modules[m];
            if (strcmp(ctrls[k]->modules[m], "sd_mod") && strcmp(ctrls[k]->modules[m], "virtio_pci") &&
                !dup)
                snprintf(drivers + strlen(drivers), sizeof(drivers) - strlen(drivers), "%s ",
                         ctrls[k]->modules[m]);
        }
        if (n == 1)
            snprintf(units, sizeof(units), "-:ANY\n");
        else
            snprintf(units + strlen(units), sizeof(units) - strlen(units), "%zu/:%s\n", k + 1,
                     unit_driver(ctrls[k]));
    }
    char *mods = NULL, *fsmods = NULL;
    if (module_lines(names, nn, u0, e->setup.kernel_version, e->dep_text, &mods, err,
                     sizeof(err))) {
        FAIL_ALL("%s", err);
        return;
    }
    bool need_fs = false;
    for (size_t j = 0; j < o->nr_jobs; j++)
        need_fs |= strcmp(o->jobs[j].command, "tpcc") == 0;
    const char *ext4[] = {"crc32c_generic", "ext4"};
    if (need_fs && module_lines(ext4, 2, NULL, e->setup.kernel_version, e->dep_text, &fsmods,
                                err, sizeof(err))) {
        FAIL_ALL("%s", err);
        free(mods);
        return;
    }
    /* the jobs' argument files */
    const char *cmds[IOM_LAB_MAX_JOBS];
    char *args[IOM_LAB_MAX_JOBS] = {0};
    unsigned tmo[IOM_LAB_MAX_JOBS];
    double bound_all = 0;
    for (size_t j = 0; j < o->nr_jobs; j++) {
        const char *ga[IOM_LAB_MAX_ARGS + 16];
        char sz[40];
        size_t na = iom_lab_job_guest_args(&o->jobs[j], o->disk_bytes, sz, sizeof(sz), ga,
                                           IOM_LAB_MAX_ARGS + 16);
        size_t len = 1;
        for (size_t i = 0; i < na; i++)
            len += strlen(ga[i]) + 1;
        args[j] = malloc(len);
        if (args[j]) {
            args[j][0] = 0;
            for (size_t i = 0, l = 0; i < na; i++)
                l += (size_t)sprintf(args[j] + l, "%s\n", ga[i]);
        }
        cmds[j] = o->jobs[j].command;
        /* the guest's watchdog, for hangs: a 4 s run (ramp 1 s) took 26-31 s
         * under TCG on a host at load 24, and over 36 s as a boot's first run */
        tmo[j] = iom_lab_job_watchdog_s(&o->jobs[j], o->disk_bytes);
        bound_all += o->repeat * tmo[j];
    }
    bound_all *= (double)n;
    struct iom_lab_job_files jf = {
        .init_script = iom_lab_init_script, .nr_jobs = o->nr_jobs, .job_command = cmds,
        .job_args = (const char *const *)args, .job_timeout_s = tmo, .modules = mods,
        .fs_modules = fsmods ? fsmods : "", .drivers = drivers, .units = units,
        .scheduler = o->scheduler, .ctrl = ctrls[0]->name, .repeat = o->repeat};
    bool args_ok = true;
    for (size_t j = 0; j < o->nr_jobs; j++)
        args_ok &= args[j] != NULL;
    utimes(e->iomark_cpio, NULL);   /* newest: pruned last (it is also flock'ed while in use) */
    double t_img = iom_lab_now_s();
    int rc = args_ok ? iom_lab_initrd_write(initrd, e->setup.base_cpio, e->iomark_cpio, &jf)
                     : -ENOMEM;
    t_img = iom_lab_now_s() - t_img;
    for (size_t k = 0; k < n; k++)
        uos[k]->image_s = t_img;
    free(mods);
    free(fsmods);
    for (size_t j = 0; j < o->nr_jobs; j++)
        free(args[j]);
    if (rc) {
        FAIL_ALL("writing %s: %s", initrd, strerror(-rc));
        return;
    }
    unlink(chan);
    struct iom_lab_vm vm = {.accel = o->accel, .vcpus = o->vcpus, .memory_mib = o->memory_mib,
                            .kernel = e->kernel, .bios = e->bios, .initrd = initrd,
                            .append = NULL, .disk = e->disk, .cache = o->cache,
                            .result_path = chan, .console_path = console};
    char append[4096];
    size_t l = (size_t)snprintf(append, sizeof(append), "%s", IOM_LAB_GUEST_CMDLINE);
    for (size_t i = 0; i < u0->nr_params && l < sizeof(append); i++)
        l += (size_t)snprintf(append + l, sizeof(append) - l, " %s", u0->params[i]);
    vm.append = append;
    char **argv = NULL;
    if (iom_lab_qemu_argv_multi(ctrls, n, &vm, &argv)) {
        FAIL_ALL("out of memory");
        unlink(initrd);
        return;
    }
    /* TCG boots in ~6 s and powers off in ~2 s on an idle host, but 3-4
     * times slower on a loaded one (30 times at load 24); the bound is for
     * hangs: 300 s for boot and shutdown under TCG (120 s with KVM), and each
     * run's guest watchdog (3 x its time + 60 s) per run and controller, so
     * that a run the guest kills is reported as such before QEMU is */
    unsigned boot_s = strcmp(o->accel, "kvm") == 0 ? 120 : 300;
    unsigned timeout = o->timeout_s ? o->timeout_s : (unsigned)(boot_s + bound_all);
    char label[1024] = "";
    for (size_t k = 0; k < n; k++)
        snprintf(label + strlen(label), sizeof(label) - strlen(label), "%s%s", k ? ", " : "",
                 uos[k]->u->name);
    fprintf(o->log, "[%zu/%zu] %s (QEMU %s on %s): booting, bound %u s\n", idx[0] + 1,
            o->nr_units, label, n == 1 ? ctrls[0]->qemu_device : "one guest, one disk each",
            ctrls[0]->machine, timeout);
    /* the guest's first section (meta) comes once its modules are loaded:
     * ~20 s under TCG on an idle host, a few seconds with KVM */
    struct iom_lab_watch w = {.chan = chan, .o = o, .t_start = iom_lab_now_s(),
                              .boot_bound_s = strcmp(o->accel, "kvm") == 0 ? 30 : 240,
                              .nr_uo = n, .prefixed = n > 1};
    for (size_t k = 0; k < n; k++)
        w.uo[k] = uos[k];
    if (o->timeout_s && w.boot_bound_s > o->timeout_s)
        w.boot_bound_s = 0;
    struct iom_lab_proc_opts po = {.stdout_path = qlog, .stderr_path = qlog,
                                   .timeout_s = timeout, .stop = stop, .tick = iom_lab_watch_tick,
                                   .tick_arg = &w};
    struct iom_lab_proc_result pr;
    w.plan = pl;
    w.boot_no = group_no;
    w.label = label;
    w.later_s = later_s;
    iom_lab_watch_begin(&w);
    rc = iom_lab_proc_run(argv, &po, &pr);
    if (o->hooks && o->hooks->boot_done)
        o->hooks->boot_done(o->hooks->arg);
    iom_lab_argv_free(argv);
    unlink(initrd);
    for (size_t k = 0; k < n; k++) {
        uos[k]->wall_s = pr.wall_s;
        uos[k]->qemu_user_s = pr.user_s;
        uos[k]->qemu_sys_s = pr.sys_s;
        uos[k]->nr_shared = n;
        snprintf(uos[k]->boot_name, sizeof(uos[k]->boot_name), "%s", fname);
    }
    if (rc) {
        FAIL_ALL("cannot start %s: %s", IOM_LAB_QEMU, strerror(-rc));
        return;
    }
    struct iom_lab_channel ch;
    rc = iom_lab_channel_read(chan, &ch);
    char *ctext = read_all(console), *qtext = read_all(qlog);
    char cl[256], ql[256];
    last_line(ctext, cl, sizeof(cl));
    first_line(qtext, ql, sizeof(ql));
    const struct iom_lab_section *dm = iom_lab_channel_get(&ch, "dmesg");
    char dname[200];
    snprintf(dname, sizeof(dname), "%s.dmesg.txt", fname);
    write_section(e, dname, dm);
    /* an ignored module parameter (the kernel logs "unknown parameter") */
    char badparam[256] = "";
    if (dm) {
        const char *up = strstr(dm->data, "nknown parameter");
        if (up) {
            const char *ls = up;
            while (ls > dm->data && ls[-1] != '\n')
                ls--;
            snprintf(badparam, sizeof(badparam), "guest kernel: %.*s", (int)strcspn(ls, "\n"),
                     ls);
        }
    }
    for (size_t k = 0; k < n; k++) {
        struct iom_lab_unitout *uo = uos[k];
        char pfx[16] = "", first_fail[512], ufname[160];
        if (n > 1)
            snprintf(pfx, sizeof(pfx), "%zu/", k + 1);
        snprintf(ufname, sizeof(ufname), "%s", uo->u->name);
        for (char *q = ufname; *q; q++)
            if (*q == '/' || *q == ',' || *q == ' ')
                *q = '_';
        iom_lab_collect_unit(o, e, &ch, pfx, ufname, uo, first_fail, sizeof(first_fail));
        const struct iom_lab_section *gerr = iom_lab_usec(&ch, pfx, "error");
        bool got_all = true;
        for (size_t j = 0; j < o->nr_jobs; j++)
            got_all &= uo->jobs[j].nr_ok == o->repeat;
        if (pr.stopped && !got_all)
            snprintf(uo->reason, sizeof(uo->reason), "interrupted");
        else if (gerr)
            snprintf(uo->reason, sizeof(uo->reason), "%.*s", (int)strcspn(gerr->data, "\n"),
                     gerr->data);
        else if (w.no_boot)
            snprintf(uo->reason, sizeof(uo->reason),
                     "guest did not boot: nothing on the result channel within %.0f s under %s; "
                     "QEMU killed; last console line: %s",
                     w.boot_bound_s, strcmp(o->accel, "kvm") == 0 ? "KVM" : "TCG",
                     cl[0] ? cl : "(none)");
        else if (pr.timed_out && !got_all)
            snprintf(uo->reason, sizeof(uo->reason),
                     "guest did not finish within %u s (hang?); QEMU killed; last console line: %s",
                     timeout, cl[0] ? cl : "(none)");
        else if (ch.n == 0 && pr.exit_status != 0)
            snprintf(uo->reason, sizeof(uo->reason), "QEMU exited with %d: %s", pr.exit_status,
                     ql[0] ? ql : "(no message)");
        else if (ch.n == 0)
            snprintf(uo->reason, sizeof(uo->reason),
                     "nothing came back on the result channel; last console line: %s",
                     cl[0] ? cl : "(none)");
        else if (rc == -EPROTO && !got_all)
            snprintf(uo->reason, sizeof(uo->reason), "result channel garbled");
        else if (badparam[0])
            snprintf(uo->reason, sizeof(uo->reason), "%s", badparam);
        else if (first_fail[0])
            snprintf(uo->reason, sizeof(uo->reason), "%s", first_fail);
        else if (!ch.complete && !got_all)
            snprintf(uo->reason, sizeof(uo->reason),
                     "guest stopped before the end of its report; last console line: %s",
                     cl[0] ? cl : "(none)");
        else
            uo->ok = true;
        if (uo->ok)
            fprintf(o->log, "[%zu/%zu] %s: done in %.1f s%s\n", idx[k] + 1, o->nr_units,
                    uo->u->name, n == 1 ? uo->wall_s : iom_lab_unit_jobs_s(uo, o),
                    n == 1 ? "" : " of jobs");
        else
            fprintf(o->log, "[%zu/%zu] %s: FAILED after %.1f s: %s\n", idx[k] + 1, o->nr_units,
                    uo->u->name, uo->wall_s, uo->reason);
    }
#undef FAIL_ALL
    free(ctext);
    free(qtext);
    iom_lab_channel_free(&ch);
}

static void host_info(struct iom_lab_env *e)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    snprintf(e->host_cpu, sizeof(e->host_cpu), "unknown");
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "model name", 10) == 0) {
            const char *c = strchr(line, ':');
            if (c) {
                c += 1 + strspn(c + 1, " \t");
                snprintf(e->host_cpu, sizeof(e->host_cpu), "%.*s", (int)strcspn(c, "\n"), c);
            }
            break;
        }
    if (f)
        fclose(f);
    e->host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    double l[1];
    e->load_start = getloadavg(l, 1) == 1 ? l[0] : -1;
}

static int write_outputs(const struct iom_lab_opts *o, const struct iom_lab_env *e,
                         const struct iom_lab_unitout *uo, FILE *out)
{
    cJSON *doc = iom_lab_doc(o, e, uo);
    char p[4300];
    int rc = -ENOMEM;
    if (doc) {
        snprintf(p, sizeof(p), "%s/lab.json", e->outdir);
        rc = iom_json_write(doc, p);
        cJSON_Delete(doc);
    }
    if (out)
        iom_lab_print(out, o, e, uo);
    snprintf(p, sizeof(p), "%s/lab.txt", e->outdir);
    FILE *f = fopen(p, "w");
    if (f) {
        iom_lab_print(f, o, e, uo);
        fclose(f);
    }
    return rc;
}

int iom_lab_run(struct iom_lab_opts *o, const volatile sig_atomic_t *stop, FILE *out,
                char *err, size_t errlen)
{
    struct iom_lab_env *e = calloc(1, sizeof(*e));
    struct iom_lab_unitout *uo = NULL;
    double est[IOM_LAB_MAX_JOBS];
    int status = 0;
    if (!e)
        return -ENOMEM;
    for (size_t j = 0; j < o->nr_jobs; j++)
        if (iom_lab_job_check(&o->jobs[j], o->disk_bytes, &est[j], err, errlen)) {
            status = -EINVAL;
            goto out;
        }
    int rc = iom_lab_setup_load(o->labdir, &e->setup);
    if (rc) {
        snprintf(err, errlen, "the guest image in %s is %s; run 'iomark lab setup' first",
                 o->labdir, rc == -ENOENT ? "missing" : "damaged");
        status = -ENOENT;
        goto out;
    }
    /* every guest parameter must be one the image's module has (else the
     * kernel ignores it with "unknown parameter" and the run means nothing) */
    if ((rc = iom_lab_modparams_load(e->setup.base_cpio, &e->modparams))) {
        snprintf(err, errlen, "reading %s: %s; run 'iomark lab setup' again", e->setup.base_cpio,
                 strerror(-rc));
        status = rc == -EINVAL ? -EIO : rc;
        goto out;
    }
    for (size_t i = 0; i < o->nr_units; i++)
        for (size_t k = 0; k < o->units[i].nr_params; k++) {
            char why[600];
            if (iom_lab_param_check(o->units[i].params[k], e->modparams, why, sizeof(why))) {
                snprintf(err, errlen, "--guest-param=%s: %s", o->units[i].params[k], why);
                status = -EINVAL;
                goto out;
            }
        }
    for (size_t j = 0; j < o->nr_jobs; j++)
        if (strcmp(o->jobs[j].command, "tpcc") == 0 &&
            !strstr(e->modparams, "\ncrc32c_generic ")) {
            snprintf(err, errlen, "the guest image in %s predates tpcc in the lab (no ext4 "
                                  "and crc32c modules); run 'iomark lab setup' again", o->labdir);
            status = -ENOENT;
            goto out;
        }
    /* a lean boot: the uncompressed kernel through its PVH entry and qboot,
     * QEMU's minimal firmware, instead of SeaBIOS decompressing a bzImage
     * (under TCG that alone took 20-40 s of a boot; docs/lab-results.md) */
    {
        char why[512];
        if (iom_lab_kernel_elf(o->labdir, &e->setup, e->kernel, sizeof(e->kernel), why,
                               sizeof(why))) {
            fprintf(o->log, "iomark lab: booting the compressed kernel (%s)\n", why);
            snprintf(e->kernel, sizeof(e->kernel), "%s", e->setup.vmlinuz);
        }
        static const char qboot[] = "/usr/share/qemu/qboot.rom";
        e->bios = access(qboot, R_OK) == 0 ? qboot : NULL;
    }
    if ((rc = iom_lab_qemu_version(e->qemu_version, sizeof(e->qemu_version)))) {
        snprintf(err, errlen, "%s: %s; run 'iomark lab setup' (package qemu-system-x86)",
                 IOM_LAB_QEMU, rc == -ENOENT ? "not found" : "does not run");
        status = rc;
        goto out;
    }
    {
        char p[4300];
        snprintf(p, sizeof(p), "%s/modules.dep", o->labdir);
        if (!(e->dep_text = read_all(p))) {
            snprintf(err, errlen, "%s is missing; run 'iomark lab setup' again", p);
            status = -ENOENT;
            goto out;
        }
    }
    /* the iomark the guest runs is this one */
    {
        bool rebuilt;
        if ((rc = iom_lab_iomark_image(o->labdir, o->exe, e->iomark_cpio,
                                       sizeof(e->iomark_cpio), &rebuilt, err, errlen))) {
            status = rc;
            goto out;
        }
        if (rebuilt)
            fprintf(o->log, "iomark lab: guest image of this iomark build written: %s\n",
                    e->iomark_cpio);
    }
    if ((rc = iom_lab_mkdirs(o->output_dir, 0755))) {
        snprintf(err, errlen, "--output-dir=%s: cannot create: %s", o->output_dir,
                 strerror(-rc));
        status = rc;
        goto out;
    }
    snprintf(e->outdir, sizeof(e->outdir), "%s", o->output_dir);
    host_info(e);
    e->load_end = -1;
    e->t_start = time(NULL);
    snprintf(e->disk, sizeof(e->disk), "%s/disk.raw", e->outdir);
    uo = calloc(o->nr_units, sizeof(*uo));
    if (!uo) {
        status = -ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < o->nr_units; i++) {
        uo[i].u = &o->units[i];
        uo[i].boot_s = NAN;
        uo[i].jobs = calloc(o->nr_jobs, sizeof(*uo[i].jobs));
        for (size_t j = 0; uo[i].jobs && j < o->nr_jobs; j++) {
            uo[i].jobs[j].runs = calloc(o->repeat, sizeof(struct iom_lab_runrec));
            if (!uo[i].jobs[j].runs) {
                status = -ENOMEM;
                goto out;
            }
            uo[i].jobs[j].check_status = -1;
            for (unsigned r = 0; r < o->repeat; r++)
                uo[i].jobs[j].runs[r].qemu_t0 = uo[i].jobs[j].runs[r].qemu_t1 = NAN;
        }
        if (!uo[i].jobs) {
            status = -ENOMEM;
            goto out;
        }
    }
    /* a KVM that did not boot a guest here before is not tried again (the
     * marker file says why; deleting it tries again) */
    char kvm_marker[4300];
    snprintf(kvm_marker, sizeof(kvm_marker), "%s/kvm-does-not-boot", o->labdir);
    if (o->accel_auto && access(kvm_marker, F_OK) == 0) {
        static char reason[4400]; /* o->accel_reason is borrowed; one lab per process */
        snprintf(reason, sizeof(reason), "auto: a KVM guest did not boot here before (delete "
                 "%s to try KVM again)", kvm_marker);
        o->accel = "tcg";
        o->accel_reason = reason;
    }
    fprintf(o->log, "iomark lab: %s; %zu controller(s) x %zu job(s); backing disk %s (%llu MiB)\n",
            strcmp(o->accel, "kvm") == 0 ? "KVM" : "TCG", o->nr_units,
            o->nr_jobs, e->disk, (unsigned long long)(o->disk_bytes >> 20));
    /* a valid (empty) lab.json from the start: an interrupted lab leaves one */
    write_outputs(o, e, uo, NULL);
    if ((rc = make_disk(e->disk, o->disk_bytes, stop))) {
        e->interrupted = rc == -EINTR;
        if (!e->interrupted) {
            snprintf(err, errlen, "creating %s: %s", e->disk, strerror(-rc));
            status = rc;
            goto out;
        }
    }
    /* boots: with shared boots (the default), every unit on the same machine
     * type with the same guest parameters and a controller not yet in the
     * boot joins it (one disk each, used one at a time); else one each */
    size_t groups[IOM_LAB_MAX_UNITS][IOM_LAB_MAX_UNITS], gsize[IOM_LAB_MAX_UNITS] = {0};
    size_t ngroups = 0;
    bool taken[IOM_LAB_MAX_UNITS] = {false};
    for (size_t i = 0; i < o->nr_units; i++) {
        if (taken[i])
            continue;
        size_t g = ngroups++;
        groups[g][gsize[g]++] = i;
        taken[i] = true;
        for (size_t k = i + 1; o->shared_boot && k < o->nr_units; k++) {
            const struct iom_lab_unit *a0 = &o->units[i], *b0 = &o->units[k];
            bool same = !taken[k] && strcmp(a0->c->machine, b0->c->machine) == 0 &&
                        a0->nr_params == b0->nr_params;
            for (size_t p = 0; same && p < a0->nr_params; p++)
                same = strcmp(a0->params[p], b0->params[p]) == 0;
            for (size_t m = 0; same && m < gsize[g]; m++)
                same = o->units[groups[g][m]].c != b0->c;
            if (same) {
                groups[g][gsize[g]++] = k;
                taken[k] = true;
            }
        }
    }
    /* the progress line's plan: estimates, then each boot's measured boot time */
    struct iom_lab_plan pl;
    iom_lab_plan_init(&pl, o, est, ngroups);
    if (o->hooks && o->hooks->plan)
        o->hooks->plan(o->hooks->arg, ngroups, iom_lab_plan_boots_s(&pl, o, gsize, 0, ngroups));
    for (size_t g = 0; g < ngroups; g++) {
        if (stop && *stop) {
            e->interrupted = true;
            for (size_t k = 0; k < gsize[g]; k++)
                snprintf(uo[groups[g][k]].reason, sizeof(uo[groups[g][k]].reason),
                         "not run (interrupted)");
            continue;
        }
        run_group(o, e, groups[g], gsize[g], g + 1, &pl,
                  iom_lab_plan_boots_s(&pl, o, gsize, g + 1, ngroups), stop, uo);
        /* KVM chosen by auto whose guest does not boot (nested virtualisation
         * with missing CPU features does that): the rest runs under TCG */
        struct iom_lab_unitout *u0 = &uo[groups[g][0]];
        if (!u0->ok && o->accel_auto && strcmp(o->accel, "kvm") == 0 &&
            strstr(u0->reason, "did not boot") && !(stop && *stop)) {
            FILE *mk = fopen(kvm_marker, "w");
            int marked = mk != NULL;
            if (mk) {
                fprintf(mk, "QEMU %s: a guest under KVM sent nothing within %d s (%s)\n",
                        e->qemu_version, 30, u0->reason);
                fclose(mk);
            }
            fprintf(o->log, "iomark lab: the KVM guest did not boot; falling back to TCG%s%s%s\n",
                    marked ? " (later labs too, until " : "", marked ? kvm_marker : "",
                    marked ? " is deleted)" : "");
            o->accel = "tcg";
            o->accel_reason = "auto: /dev/kvm opened but the KVM guest did not boot within 30 s";
            for (size_t k = 0; k < gsize[g]; k++) {
                struct iom_lab_unitout *x = &uo[groups[g][k]];
                memset(x->reason, 0, sizeof(x->reason));
                x->boot_s = NAN;
                for (size_t j = 0; j < o->nr_jobs; j++) {
                    struct iom_lab_jobout *jo = &x->jobs[j];
                    for (unsigned r = 0; r < o->repeat; r++) {
                        iom_imp_result_free(jo->runs[r].imp);
                        memset(&jo->runs[r], 0, sizeof(jo->runs[r]));
                        jo->runs[r].qemu_t0 = jo->runs[r].qemu_t1 = NAN;
                    }
                    jo->nr_ok = 0;
                    jo->fail[0] = 0;
                }
            }
            iom_lab_plan_update(&pl, o, NAN);   /* TCG's estimates now */
            run_group(o, e, groups[g], gsize[g], g + 1, &pl,
                      iom_lab_plan_boots_s(&pl, o, gsize, g + 1, ngroups), stop, uo);
        }
        double booted = NAN;   /* to the boot's first run */
        for (size_t k = 0; k < gsize[g]; k++) {
            double b = uo[groups[g][k]].boot_s;
            if (b > 0 && (isnan(booted) || b < booted))
                booted = b;
        }
        iom_lab_plan_update(&pl, o, booted);
        /* lab.json after every boot: a partial document survives anything later */
        write_outputs(o, e, uo, NULL);
    }
    if (stop && *stop)
        e->interrupted = true;
    if (!o->keep_disk || e->interrupted)
        unlink(e->disk);
    {
        double l[1];
        e->load_end = getloadavg(l, 1) == 1 ? l[0] : -1;
    }
    rc = write_outputs(o, e, uo, out);
    if (rc)
        fprintf(o->log, "iomark lab: writing %s/lab.json: %s\n", e->outdir, strerror(-rc));
    status = 0;
    for (size_t i = 0; i < o->nr_units; i++)
        if (!uo[i].ok)
            status = 1;
out:
    if (uo)
        for (size_t i = 0; i < o->nr_units; i++) {
            cJSON_Delete(uo[i].probe);
            cJSON_Delete(uo[i].params);
            for (size_t j = 0; uo[i].jobs && j < o->nr_jobs; j++) {
                cJSON_Delete(uo[i].jobs[j].mark_tests);
                cJSON_Delete(uo[i].jobs[j].check);
                for (unsigned r = 0; uo[i].jobs[j].runs && r < o->repeat; r++)
                    iom_imp_result_free(uo[i].jobs[j].runs[r].imp);
                free(uo[i].jobs[j].runs);
            }
            free(uo[i].jobs);
        }
    free(uo);
    free(e->dep_text);
    free(e->modparams);
    free(e);
    return status;
}
