/*
 * test_lab_parts.c - the controller lab's host-side pieces without booting QEMU:
 * cpio archives (read back with the independent cpio(1) tool), modules.dep
 * resolution (lines copied from Debian's 6.1.0-57-amd64 modules.dep), ldd
 * parsing, the result channel's framing, the guest view (sysfs values read
 * by hand from tests/data/lab-guest-logs), figures from a result document,
 * the QEMU command lines and the guest /init's shell syntax.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab/collect.h"
#include "lab/labrun.h"
#include "lab/image.h"
#include "lab/qemu.h"

#include "checkf.h"

static bool have(const char *prog)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

static void test_cpio(void)
{
    char dir[] = "/tmp/iomark-test-lab-XXXXXX";
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp");
        return;
    }
    char arc[256], src[256], cmd[1024];
    snprintf(src, sizeof(src), "%s/src.txt", dir);
    FILE *f = fopen(src, "w");
    fputs("0123456789abc", f);   /* 13 bytes: exercises the 4-byte padding */
    fclose(f);
    snprintf(arc, sizeof(arc), "%s/a.cpio", dir);
    struct iom_cpio c;
    CHECK(iom_cpio_open(&c, arc) == 0, "open");
    CHECK(iom_cpio_add_parents(&c, "lib/modules/x/y.ko") == 0, "parents");
    CHECK(iom_cpio_add_parents(&c, "lib/modules/x/z.ko") == 0, "parents twice");
    CHECK(iom_cpio_add_data(&c, "lib/modules/x/y.ko", 0644, "hello", 5) == 0, "data");
    CHECK(iom_cpio_add_file(&c, "copy.txt", 0600, src) == 0, "file");
    CHECK(iom_cpio_add_symlink(&c, "link", "copy.txt") == 0, "symlink");
    CHECK(iom_cpio_add_chardev(&c, "console", 0600, 5, 1) == 0, "chardev");
    CHECK(iom_cpio_add_file(&c, "nope", 0600, "/nonexistent/file") == -ENOENT, "missing src");
    CHECK(iom_cpio_close(&c) == 0, "close");
    struct stat st;
    CHECK(stat(arc, &st) == 0 && st.st_size % 512 == 0, "size %lld is a 512 multiple",
          (long long)st.st_size);
    if (!have("cpio")) {
        printf("skip cpio(1) read-back: cpio not installed\n");
    } else {
        /* the independent reader lists exactly our entries, once each */
        snprintf(cmd, sizeof(cmd), "cd %s && cpio -it < a.cpio > list.txt 2>/dev/null", dir);
        CHECK(system(cmd) == 0, "cpio -t");
        snprintf(src, sizeof(src), "%s/list.txt", dir);
        char *list = slurp(src);
        CHECK(list && strcmp(list, "lib\nlib/modules\nlib/modules/x\nlib/modules/x/y.ko\n"
                                   "copy.txt\nlink\nconsole\n") == 0,
              "listing: %s", list ? list : "(none)");
        snprintf(cmd, sizeof(cmd), "cd %s && mkdir x && cd x && cpio -id --no-absolute-filenames "
                                   "< ../a.cpio 2>/dev/null; true", dir);
        CHECK(system(cmd) == 0, "cpio -i");
        snprintf(src, sizeof(src), "%s/x/lib/modules/x/y.ko", dir);
        char *y = slurp(src);
        CHECK(y && strcmp(y, "hello") == 0, "y.ko: %s", y ? y : "(none)");
        snprintf(src, sizeof(src), "%s/x/copy.txt", dir);
        char *cp = slurp(src);
        CHECK(cp && strcmp(cp, "0123456789abc") == 0, "copy.txt: %s", cp ? cp : "(none)");
        snprintf(src, sizeof(src), "%s/x/link", dir);
        char t[64] = "";
        ssize_t n = readlink(src, t, sizeof(t) - 1);
        CHECK(n == 8 && strncmp(t, "copy.txt", 8) == 0, "link -> %.*s", (int)(n > 0 ? n : 0), t);
        snprintf(src, sizeof(src), "%s/x/copy.txt", dir);
        CHECK(stat(src, &st) == 0 && (st.st_mode & 0777) == 0600, "mode %o", st.st_mode & 0777);
    }
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

/* Lines of Debian's linux-image-6.1.0-57-amd64 modules.dep (depmod 30). */
static const char moddep[] =
    "kernel/crypto/crct10dif_common.ko:\n"
    "kernel/block/t10-pi.ko: kernel/lib/crc64-rocksoft.ko kernel/lib/crc-t10dif.ko "
    "kernel/lib/crc64.ko kernel/crypto/crct10dif_common.ko\n"
    "kernel/lib/crc-t10dif.ko: kernel/crypto/crct10dif_common.ko\n"
    "kernel/lib/crc64.ko:\n"
    "kernel/lib/crc64-rocksoft.ko: kernel/lib/crc64.ko\n"
    "kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko\n"
    "kernel/drivers/virtio/virtio_ring.ko:\n"
    "kernel/drivers/block/virtio_blk.ko: kernel/drivers/virtio/virtio.ko "
    "kernel/drivers/virtio/virtio_ring.ko\n"
    "kernel/drivers/scsi/scsi_mod.ko: kernel/drivers/scsi/scsi_common.ko\n"
    "kernel/drivers/scsi/scsi_common.ko:\n"
    "kernel/drivers/scsi/vmw_pvscsi.ko: kernel/drivers/scsi/scsi_mod.ko "
    "kernel/drivers/scsi/scsi_common.ko\n"
    "kernel/drivers/scsi/sd_mod.ko: kernel/block/t10-pi.ko kernel/lib/crc64-rocksoft.ko "
    "kernel/drivers/scsi/scsi_mod.ko kernel/drivers/scsi/scsi_common.ko kernel/lib/crc-t10dif.ko "
    "kernel/lib/crc64.ko kernel/crypto/crct10dif_common.ko\n";

static int pos_of(char **paths, size_t n, const char *p)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(paths[i], p) == 0)
            return (int)i;
    return -1;
}

static void test_moddep(void)
{
    const char *names[] = {"vmw_pvscsi", "sd_mod"};
    char **paths = NULL, missing[64] = "";
    size_t n = 0;
    CHECK(iom_lab_moddep_resolve(moddep, names, 2, &paths, &n, missing, sizeof(missing)) == 0,
          "resolve");
    /* the closure, by hand: pvscsi needs scsi_mod, scsi_common; sd_mod adds
     * t10-pi, crc64-rocksoft, crc-t10dif, crc64, crct10dif_common */
    CHECK(n == 9, "count %zu", n);
    static const char *const want[] = {
        "kernel/drivers/scsi/vmw_pvscsi.ko", "kernel/drivers/scsi/scsi_mod.ko",
        "kernel/drivers/scsi/scsi_common.ko", "kernel/drivers/scsi/sd_mod.ko",
        "kernel/block/t10-pi.ko", "kernel/lib/crc64-rocksoft.ko", "kernel/lib/crc-t10dif.ko",
        "kernel/lib/crc64.ko", "kernel/crypto/crct10dif_common.ko"};
    for (size_t i = 0; i < 9; i++)
        CHECK(pos_of(paths, n, want[i]) >= 0, "%s missing", want[i]);
    /* every module comes after each dependency its modules.dep line lists */
    for (size_t i = 0; i < n; i++) {
        /* its own line: at the start of the file or after a newline, then ':' */
        char key[256];
        snprintf(key, sizeof(key), "\n%s:", paths[i]);
        const char *line = strncmp(moddep, key + 1, strlen(key + 1)) == 0 ? moddep : strstr(moddep, key);
        if (line && line != moddep)
            line++;
        CHECK(line != NULL, "%s not in the file", paths[i]);
        if (!line)
            continue;
        const char *colon = strchr(line, ':'), *eol = strchr(line, '\n');
        char deps[512];
        snprintf(deps, sizeof(deps), "%.*s", (int)(eol - colon - 1), colon + 1);
        for (char *s = NULL, *d = strtok_r(deps, " ", &s); d; d = strtok_r(NULL, " ", &s)) {
            int pd = pos_of(paths, n, d);
            CHECK(pd >= 0 && pd < (int)i, "%s loads before its dependency %s", paths[i], d);
        }
    }
    iom_lab_strv_free(paths, n);
    /* '-' and '_' are one */
    const char *t10[] = {"t10_pi"};
    CHECK(iom_lab_moddep_resolve(moddep, t10, 1, &paths, &n, NULL, 0) == 0 && n == 5, "t10_pi: %zu",
          n);
    iom_lab_strv_free(paths, n);
    const char *bad[] = {"virtio_blk", "no_such_mod"};
    CHECK(iom_lab_moddep_resolve(moddep, bad, 2, &paths, &n, missing, sizeof(missing)) == -ENOENT,
          "missing module");
    CHECK(strcmp(missing, "no_such_mod") == 0 && paths == NULL && n == 0, "missing: %s", missing);
    char m[64];
    iom_lab_module_name("kernel/drivers/nvme/host/nvme-core.ko", m, sizeof(m));
    CHECK(strcmp(m, "nvme_core") == 0, "name %s", m);
}

static void test_ldd(void)
{
    /* `ldd build/iomark` on Debian 12 */
    const char *text =
        "\tlinux-vdso.so.1 (0x00007fde8f458000)\n"
        "\tliburing.so.2 => /lib/x86_64-linux-gnu/liburing.so.2 (0x00007fde8f422000)\n"
        "\tlibcjson.so.1 => /lib/x86_64-linux-gnu/libcjson.so.1 (0x00007fde8f418000)\n"
        "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007fde8f0f8000)\n"
        "\t/lib64/ld-linux-x86-64.so.2 (0x00007fde8f45a000)\n";
    char **p = NULL, missing[64];
    size_t n = 0;
    CHECK(iom_lab_ldd_parse(text, &p, &n, missing, sizeof(missing)) == 0 && n == 4, "n %zu", n);
    if (n == 4) {
        CHECK(strcmp(p[0], "/lib/x86_64-linux-gnu/liburing.so.2") == 0, "%s", p[0]);
        CHECK(strcmp(p[2], "/lib/x86_64-linux-gnu/libc.so.6") == 0, "%s", p[2]);
        CHECK(strcmp(p[3], "/lib64/ld-linux-x86-64.so.2") == 0, "%s", p[3]);
    }
    iom_lab_strv_free(p, n);
    CHECK(iom_lab_ldd_parse("\tnot a dynamic executable\n", &p, &n, NULL, 0) == 0 && n == 0,
          "static");
    CHECK(iom_lab_ldd_parse("\tlibfoo.so.1 => not found\n", &p, &n, missing, sizeof(missing)) ==
                  -ENOENT &&
              strcmp(missing, "libfoo.so.1") == 0,
          "not found: %s", missing);
}

static void test_channel(void)
{
    /* data that contains a header-looking line and no trailing newline of
     * its own: only the byte count delimits it */
    static const char s1[] = "a\n@@iomark-lab fake 3\nb";   /* 23 bytes */
    char buf[512];
    int len = snprintf(buf, sizeof(buf), "@@iomark-lab meta %zu\n%s\n@@iomark-lab end 3\nok\n\n",
                       strlen(s1), s1);
    struct iom_lab_channel ch;
    CHECK(strlen(s1) == 23, "fixture");
    CHECK(iom_lab_channel_parse(buf, (size_t)len, &ch) == 0, "parse");
    CHECK(ch.n == 2 && ch.complete && !ch.truncated, "n %zu complete %d", ch.n, ch.complete);
    const struct iom_lab_section *m = iom_lab_channel_get(&ch, "meta");
    CHECK(m && m->len == 23 && memcmp(m->data, s1, 23) == 0, "meta data");
    const struct iom_lab_section *e = iom_lab_channel_get(&ch, "end");
    CHECK(e && strcmp(e->data, "ok\n") == 0, "end data");
    CHECK(iom_lab_channel_get(&ch, "fake") == NULL, "no fake section");
    iom_lab_channel_free(&ch);
    /* broken off inside the second section: the first is kept */
    CHECK(iom_lab_channel_parse(buf, (size_t)len - 4, &ch) == 0, "parse truncated");
    CHECK(ch.n == 1 && !ch.complete && ch.truncated, "truncated n %zu", ch.n);
    iom_lab_channel_free(&ch);
    /* console noise where a header must be */
    const char *noise = "@@iomark-lab a 1\nx\n[    2.1] random kernel message\n";
    CHECK(iom_lab_channel_parse(noise, strlen(noise), &ch) == -EPROTO && ch.n == 1, "noise");
    iom_lab_channel_free(&ch);
    /* data not followed by the closing newline is garbled */
    const char *bad = "@@iomark-lab a 1\nxy";
    CHECK(iom_lab_channel_parse(bad, strlen(bad), &ch) == -EPROTO, "closing newline");
    iom_lab_channel_free(&ch);
    CHECK(iom_lab_channel_parse("", 0, &ch) == 0 && ch.n == 0 && !ch.complete, "empty");
    iom_lab_channel_free(&ch);
}

static void test_guest_view(void)
{
    /* values of tests/data/lab-guest-logs/pvscsi.log, in the form the
     * guest /init writes */
    const char *pv = "disk=sda\nsize_sectors=524288\nqueue/nr_requests=256\n"
                     "queue/max_sectors_kb=1280\nqueue/max_hw_sectors_kb=32767\n"
                     "queue/max_segments=128\nqueue/scheduler=[mq-deadline] none\n"
                     "device/queue_depth=254\ndevice/model=QEMU HARDDISK\nnr_hw_queues=1\n"
                     "scsi_host/proc_name=vmw_pvscsi\nscsi_host/can_queue=256\n"
                     "scsi_host/cmd_per_lun=254\nscsi_host/sg_tablesize=128\ndriver=vmw_pvscsi\n"
                     "module/vmw_pvscsi/ring_pages=8\nmodule/vmw_pvscsi/cmd_per_lun=254\n";
    const char *meta = "kernel=6.1.0-57-amd64\nnr_cpus=2\nmem_total_kib=1001234\n"
                       "disk_seen_uptime_s=2.45\n";
    struct iom_lab_guest_view v;
    iom_lab_guest_view_parse(pv, meta, &v);
    CHECK(strcmp(v.disk, "sda") == 0 && strcmp(v.driver, "vmw_pvscsi") == 0, "%s %s", v.disk,
          v.driver);
    CHECK(v.can_queue == 256 && v.queue_depth == 254 && v.cmd_per_lun == 254, "queues");
    CHECK(v.nr_requests == 256 && v.max_sectors_kb == 1280 && v.max_segments == 128, "limits");
    CHECK(strcmp(v.scheduler, "mq-deadline") == 0, "scheduler %s", v.scheduler);
    CHECK(strcmp(v.model, "QEMU HARDDISK") == 0, "model %s", v.model);
    CHECK(strcmp(v.module_params, "vmw_pvscsi.ring_pages=8 vmw_pvscsi.cmd_per_lun=254") == 0,
          "params %s", v.module_params);
    CHECK(strcmp(v.kernel, "6.1.0-57-amd64") == 0 && v.nr_cpus == 2, "meta");
    long a, l;
    iom_lab_guest_queues(&v, &a, &l);
    CHECK(a == 256 && l == 254, "pvscsi %ld/%ld", a, l);
    /* nvme.log: no SCSI host; nr_requests 1023, 2 hardware queues */
    const char *nv = "disk=nvme0n1\nqueue/nr_requests=1023\nqueue/max_sectors_kb=512\n"
                     "queue/scheduler=[none] mq-deadline\nnr_hw_queues=2\ndriver=nvme\n"
                     "nvme/sqsize=1023\nnvme/model=QEMU NVMe Ctrl\n";
    iom_lab_guest_view_parse(nv, NULL, &v);
    iom_lab_guest_queues(&v, &a, &l);
    CHECK(a == -1 && l == 1023 && v.nr_hw_queues == 2 && v.nvme_sqsize == 1023, "nvme %ld/%ld",
          a, l);
    CHECK(strcmp(v.scheduler, "none") == 0 && strcmp(v.model, "QEMU NVMe Ctrl") == 0, "nvme");
    CHECK(v.queue_depth == -1 && v.kernel[0] == 0, "absent fields");
    /* ide-piix-pc.log: adapter 1, LUN 1 */
    iom_lab_guest_view_parse("scsi_host/can_queue=1\ndevice/queue_depth=1\nqueue/nr_requests=2\n",
                             NULL, &v);
    iom_lab_guest_queues(&v, &a, &l);
    CHECK(a == 1 && l == 1, "ide %ld/%ld", a, l);
    cJSON *j = iom_lab_guest_view_json(&v);
    CHECK(j && cJSON_GetObjectItem(j, "adapter_queue")->valuedouble == 1 &&
              cJSON_GetObjectItem(j, "nvme_sqsize") == NULL,
          "json");
    cJSON_Delete(j);
}

static void test_figures(void)
{
    const char *doc = "{\"type\":\"run\",\"status\":\"ok\",\"cpu\":{\"user_pct\":5.5,"
                      "\"system_pct\":20},\"total\":{\"read\":{\"ios\":100},\"write\":"
                      "{\"ios\":0},\"total\":{\"ios\":100,\"iops\":1234.5,\"mib_per_s\":4.8,"
                      "\"lat_us\":{\"mean\":25.5,\"percentiles\":{\"50\":20,\"99\":99.5}}}}}";
    cJSON *d = cJSON_Parse(doc);
    struct iom_lab_figures f;
    CHECK(d && iom_lab_figures_from_doc(d, &f) == 0, "figures");
    CHECK(f.iops == 1234.5 && f.mib_per_s == 4.8 && f.lat_mean_us == 25.5 &&
              f.lat_p99_us == 99.5 && f.cpu_pct == 25.5,
          "%g %g %g %g %g", f.iops, f.mib_per_s, f.lat_mean_us, f.lat_p99_us, f.cpu_pct);
    cJSON_Delete(d);
    d = cJSON_Parse("{\"type\":\"run\",\"status\":\"error\",\"error\":\"x\"}");
    CHECK(iom_lab_figures_from_doc(d, &f) == -EINVAL, "error doc");
    cJSON_Delete(d);
}

static bool argv_has(char **argv, const char *s)
{
    for (char **p = argv; *p; p++)
        if (strcmp(*p, s) == 0)
            return true;
    return false;
}

static void test_qemu(void)
{
    const struct iom_lab_ctrl *list[IOM_LAB_MAX_CTRLS];
    size_t n;
    char err[512];
    CHECK(iom_lab_ctrl_list_parse("default", list, IOM_LAB_MAX_CTRLS, &n, err, sizeof(err)) == 0,
          "default");
    /* issue 6: pvscsi, nvme, lsisas, sata, ide plus virtio-blk */
    static const char *const def[] = {"pvscsi", "nvme", "lsisas", "sata", "ide", "virtio-blk"};
    CHECK(n == 6, "default count %zu", n);
    for (size_t i = 0; i < n && i < 6; i++)
        CHECK(strcmp(list[i]->name, def[i]) == 0, "default[%zu] %s", i, list[i]->name);
    CHECK(iom_lab_ctrl_list_parse("all", list, IOM_LAB_MAX_CTRLS, &n, err, sizeof(err)) == 0 &&
              n == 9,
          "all %zu", n);
    CHECK(iom_lab_ctrl_list_parse("nvme,pvsci", list, IOM_LAB_MAX_CTRLS, &n, err, sizeof(err)) ==
                  -EINVAL &&
              strstr(err, "pvsci: unknown") && strstr(err, "allowed:") && strstr(err, "pvscsi"),
          "unknown: %s", err);
    CHECK(iom_lab_ctrl_list_parse("nvme,nvme", list, IOM_LAB_MAX_CTRLS, &n, err, sizeof(err)) ==
              -EINVAL,
          "twice");
    CHECK(iom_lab_ctrl_list_parse("", list, IOM_LAB_MAX_CTRLS, &n, err, sizeof(err)) == -EINVAL,
          "empty");

    struct iom_lab_vm vm = {.accel = "tcg", .vcpus = 2, .memory_mib = 1024, .kernel = "/k",
                            .initrd = "/i", .append = "console=ttyS0", .disk = "/d.raw",
                            .cache = "writeback", .result_path = "/r", .console_path = "/c"};
    char **argv;
    /* LSI SAS1068: the disk needs a SAS address (QEMU hw/scsi/mptsas.c; without one Linux ignores the disk) */
    CHECK(iom_lab_qemu_argv(iom_lab_ctrl_find("lsisas"), &vm, &argv) == 0, "lsisas argv");
    CHECK(argv_has(argv, "mptsas1068,id=hba") &&
              argv_has(argv, "scsi-hd,drive=d0,bus=hba.0,wwn=0x5000c50015ea71ac") &&
              argv_has(argv, "q35") && argv_has(argv, "-nodefaults") &&
              argv_has(argv, "file:/c") &&
              argv_has(argv, "file=/d.raw,format=raw,if=none,id=d0,cache=writeback") &&
              argv_has(argv, "file,id=iomres,path=/r") &&
              argv_has(argv, "virtserialport,bus=vser0.0,chardev=iomres,name=iomark.result"),
          "lsisas args");
    iom_lab_argv_free(argv);
    /* IDE is a PIIX3 IDE function added to q35 (the pc machine's built-in
     * one); SATA is q35's own AHCI, bus=ide.0 */
    CHECK(iom_lab_qemu_argv(iom_lab_ctrl_find("ide"), &vm, &argv) == 0, "ide argv");
    CHECK(argv_has(argv, "q35") && argv_has(argv, "piix3-ide,id=hba") &&
              argv_has(argv, "ide-hd,drive=d0,bus=hba.0") && !argv_has(argv, "pc"),
          "ide args");
    iom_lab_argv_free(argv);
    /* several controllers in one guest: drives d0, d1, d2 on the one image
     * with QEMU's image locking off, adapter ids made unique */
    {
        const struct iom_lab_ctrl *three[] = {iom_lab_ctrl_find("pvscsi"),
                                              iom_lab_ctrl_find("lsisas"),
                                              iom_lab_ctrl_find("ide")};
        CHECK(iom_lab_qemu_argv_multi(three, 3, &vm, &argv) == 0, "multi argv");
        CHECK(argv_has(argv, "pvscsi,id=hba0") && argv_has(argv, "scsi-hd,drive=d0,bus=hba0.0") &&
                  argv_has(argv, "mptsas1068,id=hba1") &&
                  argv_has(argv, "scsi-hd,drive=d1,bus=hba1.0,wwn=0x5000c50015ea71ac") &&
                  argv_has(argv, "piix3-ide,id=hba2") &&
                  argv_has(argv, "ide-hd,drive=d2,bus=hba2.0") &&
                  argv_has(argv, "file=/d.raw,format=raw,if=none,id=d2,cache=writeback,"
                                 "file.locking=off"),
              "multi args");
        iom_lab_argv_free(argv);
        CHECK(iom_lab_qemu_argv_multi(three, 0, &vm, &argv) == -EINVAL, "no controller");
    }
    CHECK(iom_lab_qemu_argv(iom_lab_ctrl_find("sata"), &vm, &argv) == 0, "sata argv");
    CHECK(argv_has(argv, "q35") && argv_has(argv, "ide-hd,drive=d0,bus=ide.0") &&
              !argv_has(argv, "pc"),
          "sata args");
    iom_lab_argv_free(argv);
    CHECK(iom_lab_qemu_argv(iom_lab_ctrl_find("nvme"), &vm, &argv) == 0, "nvme argv");
    CHECK(argv_has(argv, "nvme,serial=iomarklab0,drive=d0"), "nvme args");
    iom_lab_argv_free(argv);
}

static void test_init_script(void)
{
    if (!have("busybox")) {
        printf("skip /init syntax check: busybox not installed\n");
        return;
    }
    char path[] = "/tmp/iomark-test-init-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    CHECK(write(fd, iom_lab_init_script, strlen(iom_lab_init_script)) ==
              (ssize_t)strlen(iom_lab_init_script),
          "write");
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "busybox sh -n %s", path);
    CHECK(system(cmd) == 0, "busybox sh -n rejects /init");
    unlink(path);
    CHECK(strncmp(iom_lab_init_script, "#!/bin/busybox sh\n", 18) == 0, "shebang");
}

/* The mean of two runs as the lab collects them (iom_lab_figures_of on each
 * run's document, then iom_lab_mean_of), with runs chosen so the product of
 * the means differs from the mean of the products. Run 1: 20000 IOPS, mean
 * 3000 us over 200000 I/Os (Little: 20000 x 0.003 = 60 outstanding); run 2:
 * 10000 IOPS, 6400 us over 100000 I/Os (64). Worked out by hand: iomark QD
 * (60 + 64) / 2 = 62 (the product of the means, 15000 x 0.0047, would be
 * 70.5); mean latency of all 300000 I/Os (3000 x 200000 + 6400 x 100000) /
 * 300000 = 4133.33 us (the plain mean of the means would be 4700); p99 the
 * mean of 9000 and 12000 = 10500. Then the text report: the I/O path row
 * shows 62.0, the table 4133, and the queue-limit footnote only under the
 * run table (not under mark's grid). */
static void test_mean_of_runs(void)
{
    static const char *const docs[2] = {
        "{\"type\":\"run\",\"total\":{\"total\":{\"ios\":200000,\"iops\":20000,\"mib_per_s\":78.125,"
        "\"lat_us\":{\"mean\":3000,\"percentiles\":{\"99\":9000}}}}}",
        "{\"type\":\"run\",\"total\":{\"total\":{\"ios\":100000,\"iops\":10000,\"mib_per_s\":39.0625,"
        "\"lat_us\":{\"mean\":6400,\"percentiles\":{\"99\":12000}}}}}"};
    struct iom_lab_runrec runs[2];
    memset(runs, 0, sizeof(runs));
    struct iom_lab_jobout jo = {.runs = runs};
    for (int r = 0; r < 2; r++) {
        cJSON *d = cJSON_Parse(docs[r]);
        iom_lab_figures_of("run", d, &runs[r]);
        cJSON_Delete(d);
        runs[r].ok = true;
        runs[r].io.have = true;
        runs[r].io.ios = 100;
        runs[r].io.wall_s = 10;
        jo.nr_ok++;
    }
    CHECK(fabs(runs[0].qd - 60) < 1e-9 && fabs(runs[1].qd - 64) < 1e-9, "runs' QD %g %g",
          runs[0].qd, runs[1].qd);
    iom_lab_mean_of(&jo, 2);
    CHECK(fabs(jo.mean.qd - 62) < 1e-9, "QD of the runs: %g (not 70.5)", jo.mean.qd);
    CHECK(fabs(jo.mean.lat_mean_us - 1240000000.0 / 300000) < 1e-9,
          "mean latency of all I/Os: %g (not 4700)", jo.mean.lat_mean_us);
    CHECK(fabs(jo.mean.iops - 15000) < 1e-9 && fabs(jo.mean.lat_p99_us - 10500) < 1e-9, "%g %g",
          jo.mean.iops, jo.mean.lat_p99_us);
    /* a run whose I/O count is unknown: the plain mean of the runs' means */
    runs[1].ios = NAN;
    iom_lab_mean_of(&jo, 2);
    CHECK(fabs(jo.mean.lat_mean_us - 4700) < 1e-9, "%g", jo.mean.lat_mean_us);
    runs[1].ios = 100000;
    iom_lab_mean_of(&jo, 2);

    /* the text report of one controller with a run job and a mark job */
    struct iom_lab_opts *o = calloc(1, sizeof(*o));
    struct iom_lab_env *e = calloc(1, sizeof(*e));
    struct iom_lab_unit unit = {.c = NULL, .name = "virtio-blk"};
    struct iom_lab_runrec mruns[2];
    memset(mruns, 0, sizeof(mruns));
    struct iom_lab_jobout jobs[2] = {jo, {.runs = mruns}};
    struct iom_lab_unitout uo = {.u = &unit, .ok = true, .jobs = jobs};
    if (!o || !e) {
        free(o);
        free(e);
        return;
    }
    o->accel = "tcg";
    o->cache = "writeback";
    o->scheduler = "none";
    o->repeat = 2;
    o->nr_units = 1;
    o->nr_jobs = 2;
    snprintf(o->jobs[0].command, sizeof(o->jobs[0].command), "run");
    snprintf(o->jobs[0].label, sizeof(o->jobs[0].label), "run --bs=4k");
    snprintf(o->jobs[1].command, sizeof(o->jobs[1].command), "mark");
    snprintf(o->jobs[1].label, sizeof(o->jobs[1].label), "mark --runs=1");
    snprintf(e->outdir, sizeof(e->outdir), "/tmp/none");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    iom_lab_print(f, o, e, &uo);
    fclose(f);
    CHECK(text && strstr(text, "virtio-blk   1:run           100      62.0") != NULL,
          "I/O path row: %s", text);
    CHECK(text && strstr(text, "15000      58.6      4133     10500") != NULL, "table: %s", text);
    CHECK(text && strstr(text, "adapterQ = scsi_host can_queue") != NULL, "footnote: %s", text);
    free(text);
    /* mark alone: no queue columns, no footnote about them */
    o->nr_jobs = 1;
    o->jobs[0] = o->jobs[1];
    jobs[0] = jobs[1];
    f = open_memstream(&text, &len);
    iom_lab_print(f, o, e, &uo);
    fclose(f);
    CHECK(text && strstr(text, "no result") != NULL && !strstr(text, "adapterQ") &&
              !strstr(text, "hwq") && !strstr(text, "CPU %"),
          "mark: %s", text);
    free(text);
    free(o);
    free(e);
}

int main(void)
{
    test_cpio();
    test_moddep();
    test_ldd();
    test_channel();
    test_guest_view();
    test_figures();
    test_mean_of_runs();
    test_qemu();
    test_init_script();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("test_lab_parts: all checks passed\n");
    return 0;
}
