#!/usr/bin/env python3
"""Build the captured sysfs/procfs trees under tests/data/sysfs/<controller>/.

Values marked LOG come from tests/data/lab-guest-logs/<file>.log (the
guest's own sysfs, QEMU 7.2, Debian kernel 6.1); values marked QEMU are
QEMU's defaults for that command line (PCI ids from QEMU's pci_ids.h and
device models, slots from the machine's layout, DMI strings from QEMU's
SMBIOS defaults); values marked SYN are synthetic additions (partitions,
device-mapper, loop, mounts, diskstats) that exercise the stack walk.
Only files iomark's probe reads are created. Run from this folder:
    python3 make_trees.py
"""
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))

Q35 = ("QEMU", "Standard PC (Q35 + ICH9, 2009)", "SeaBIOS")       # QEMU
PC = ("QEMU", "Standard PC (i440FX + PIIX, 1996)", "SeaBIOS")     # QEMU


def w(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(str(text) + "\n")


def ln(root, rel, target):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if os.path.lexists(p):
        os.remove(p)
    os.symlink(os.path.relpath(os.path.join(root, target), os.path.dirname(p)), p)


def block(root, devpath, name, dev, sectors, q, nr_mq):
    """A disk node at devpath/block/name with queue/ and mq/."""
    node = f"{devpath}/block/{name}"
    w(root, f"{node}/dev", dev)
    w(root, f"{node}/size", sectors)
    for k, v in q.items():
        w(root, f"{node}/queue/{k}", v)
    for i in range(nr_mq):
        w(root, f"{node}/mq/{i}/nr_tags", q["nr_requests"])
    ln(root, f"{node}/device", devpath)
    link_block(root, node, name, dev)
    return node


def link_block(root, node, name, dev):
    ln(root, f"sys/class/block/{name}", node)
    ln(root, f"sys/dev/block/{dev}", node)
    if "/block/" in node and node.count("/block/") == 1 and node.rsplit("/block/", 1)[1] == name:
        ln(root, f"sys/block/{name}", node)


def common(root, dmi, cpu_hv=True):
    w(root, "sys/class/dmi/id/sys_vendor", dmi[0])
    w(root, "sys/class/dmi/id/product_name", dmi[1])
    w(root, "sys/class/dmi/id/bios_vendor", dmi[2])
    w(root, "proc/sys/kernel/osrelease", "6.1.0-57-amd64")                 # LOG
    w(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
      "flags\t\t: fpu de pse tsc msr pae mce cx8 apic sep" + (" hypervisor" if cpu_hv else "")
      + " lahf_lm\n")                                                       # QEMU (TCG qemu64)


def pci(root, slot, vendor, device, driver):
    d = f"sys/devices/pci0000:00/{slot}"
    w(root, f"{d}/vendor", vendor)
    w(root, f"{d}/device", device)
    ln(root, f"{d}/driver", f"sys/bus/pci/drivers/{driver}")  # dangling link: only its name is read
    return d


def scsi_host(root, parent, host, proc, can_queue, cmd_per_lun, sg):
    hd = f"{parent}/{host}/scsi_host/{host}"
    w(root, f"{hd}/proc_name", proc)
    w(root, f"{hd}/can_queue", can_queue)
    w(root, f"{hd}/cmd_per_lun", cmd_per_lun)
    w(root, f"{hd}/sg_tablesize", sg)
    ln(root, f"sys/class/scsi_host/{host}", hd)


def scsi_dev(root, parent, hctl, qd, vendor, model):
    d = f"{parent}/{hctl}"
    w(root, f"{d}/queue_depth", qd)
    w(root, f"{d}/vendor", vendor)
    w(root, f"{d}/model", model)
    ln(root, f"{d}/driver", "sys/bus/scsi/drivers/sd")
    return d


def queue(nr, maxs, maxhw, seg, sched, rot, lbs=512, pbs=512, wc="write back"):
    return {"nr_requests": nr, "max_sectors_kb": maxs, "max_hw_sectors_kb": maxhw,
            "max_segments": seg, "scheduler": sched, "rotational": rot,
            "logical_block_size": lbs, "physical_block_size": pbs, "write_cache": wc}


def mountinfo(root, lines):
    w(root, "proc/self/mountinfo", "\n".join(lines))


def diskstats(root, rows):
    w(root, "proc/diskstats", "\n".join(rows))


SECTORS = 524288  # LOG: size_sectors=524288 (256 MiB)
SCHED_DL = "[mq-deadline] none"   # LOG
SCHED_NONE = "[none] mq-deadline" # LOG


def scsi_tree(name, dmi, slot, vid, did, pcidrv, proc, cq, cpl, sg, qd, vendor, q, nr_mq,
              mid="", params=None, hctl="0:0:0:0", sub=""):
    root = os.path.join(HERE, name)
    shutil.rmtree(root, ignore_errors=True)
    common(root, dmi)
    p = pci(root, slot, vid, did, pcidrv)
    hostp = p + mid
    scsi_host(root, hostp, "host0", proc, cq, cpl, sg)
    dev = scsi_dev(root, f"{hostp}/host0{sub}/target0:0:0", hctl, qd, vendor, "QEMU HARDDISK")
    block(root, dev, "sda", "8:0", SECTORS, q, nr_mq)
    for mod, kv in (params or {}).items():
        for k, v in kv.items():
            w(root, f"sys/module/{mod}/parameters/{k}", v)
    mountinfo(root, ["1 0 0:2 / / rw - rootfs rootfs rw"])
    return root


def main():
    # PVSCSI: LOG pvscsi.log (slot 0000:00:01.0 from dmesg; ring_pages 8 and
    # cmd_per_lun 254 from dmesg); PCI 15ad:07c0 QEMU
    scsi_tree("pvscsi", Q35, "0000:00:01.0", "0x15ad", "0x07c0", "vmw_pvscsi", "vmw_pvscsi",
              256, 254, 128, 254, "QEMU",
              queue(256, 1280, 32767, 128, SCHED_DL, 1), 1,
              params={"vmw_pvscsi": {"ring_pages": 8, "cmd_per_lun": 254, "msg_ring_pages": 1}})
    # LSI SAS1068: LOG mptsas1068.log; PCI 1000:0054 QEMU; SAS transport
    # folders (port/end_device) as mptsas creates them; slot QEMU (first device)
    scsi_tree("lsisas", Q35, "0000:00:01.0", "0x1000", "0x0054", "mptsas", "mptsas",
              118, 7, 128, 64, "QEMU", queue(236, 1280, 4096, 128, SCHED_DL, 1), 1,
              params={"mptsas": {"max_lun": 16895}}, sub="/port-0:0/end_device-0:0")
    # MegaRAID SAS: LOG megasas.log; PCI 1000:0060 QEMU (megasas = SAS1078)
    scsi_tree("megasas", Q35, "0000:00:01.0", "0x1000", "0x0060", "megaraid_sas", "megaraid_sas",
              967, 256, 80, 256, "QEMU", queue(256, 128, 128, 80, SCHED_DL, 1), 1,
              params={"megaraid_sas": {"max_sectors": 0, "throttlequeuedepth": 16}})
    # LSI 53C895A: LOG lsi53c895a.log (slot from dmesg "at pci 0000:00:01.0"); PCI 1000:0012 QEMU
    scsi_tree("lsi53c895a", Q35, "0000:00:01.0", "0x1000", "0x0012", "sym53c8xx", "sym53c8xx",
              446, 64, 96, 16, "QEMU", queue(256, 1280, 32767, 96, SCHED_DL, 1), 1)
    # SATA AHCI on q35: LOG ahci-q35.log (slot 0000:00:1f.2 from dmesg); PCI 8086:2922 QEMU
    scsi_tree("ahci", Q35, "0000:00:1f.2", "0x8086", "0x2922", "ahci", "ahci",
              32, 0, 168, 32, "ATA", queue(64, 128, 128, 168, SCHED_DL, 1), 1, mid="/ata1")
    # IDE PIIX on -M pc: LOG ide-piix-pc.log; PCI 8086:7010 at 0000:00:01.1 QEMU (i440FX layout)
    scsi_tree("ata_piix", PC, "0000:00:01.1", "0x8086", "0x7010", "ata_piix", "ata_piix",
              1, 0, 128, 1, "ATA", queue(2, 1280, 32767, 128, SCHED_DL, 1), 1, mid="/ata1")
    # virtio-scsi: LOG virtio-scsi.log; PCI 1af4:1004 QEMU (transitional); host under virtio0
    root = scsi_tree("virtio_scsi", Q35, "0000:00:01.0", "0x1af4", "0x1004", "virtio-pci",
                     "virtio_scsi", 256, 128, 254, 128, "QEMU",
                     queue(256, 1280, 32767, 254, SCHED_NONE, 1), 2, mid="/virtio0")
    ln(root, "sys/devices/pci0000:00/0000:00:01.0/virtio0/driver", "sys/bus/virtio/drivers/virtio_scsi")
    # SYN: sda1 partition holding an xfs at /srv with a loop device on /srv/img.raw
    sda = "sys/devices/pci0000:00/0000:00:01.0/virtio0/host0/target0:0:0/0:0:0:0/block/sda"
    w(root, f"{sda}/sda1/partition", 1)
    w(root, f"{sda}/sda1/dev", "8:1")
    w(root, f"{sda}/sda1/size", SECTORS - 2048)
    link_block(root, f"{sda}/sda1", "sda1", "8:1")
    lp = "sys/devices/virtual/block/loop0"
    w(root, f"{lp}/dev", "7:0")
    w(root, f"{lp}/size", 204800)
    w(root, f"{lp}/loop/backing_file", "/srv/img.raw")
    link_block(root, lp, "loop0", "7:0")
    ln(root, "sys/block/loop0", lp)
    mountinfo(root, ["21 1 8:1 / /srv rw,relatime shared:1 - xfs /dev/sda1 rw",
                     "1 0 0:2 / / rw - rootfs rootfs rw"])

    # NVMe: LOG nvme.log; PCI 1b36:0010 QEMU; io_queue_depth 1024 (default of the module parameter, Linux drivers/nvme/host/pci.c)
    root = os.path.join(HERE, "nvme")
    shutil.rmtree(root, ignore_errors=True)
    common(root, Q35)
    p = pci(root, "0000:00:01.0", "0x1b36", "0x0010", "nvme")
    ctrl = f"{p}/nvme/nvme0"
    w(root, f"{ctrl}/model", "QEMU NVMe Ctrl")
    w(root, f"{ctrl}/queue_count", 3)   # LOG
    w(root, f"{ctrl}/sqsize", 1023)     # LOG
    ln(root, f"{ctrl}/device", p)
    node = f"{ctrl}/nvme0n1"
    w(root, f"{node}/dev", "259:0")
    w(root, f"{node}/size", SECTORS)
    for k, v in queue(1023, 512, 512, 127, SCHED_NONE, 0).items():
        w(root, f"{node}/queue/{k}", v)
    for i in range(2):
        w(root, f"{node}/mq/{i}/nr_tags", 1023)
    ln(root, f"{node}/device", ctrl)
    link_block(root, node, "nvme0n1", "259:0")
    ln(root, "sys/block/nvme0n1", node)
    w(root, "sys/module/nvme/parameters/io_queue_depth", 1024)
    w(root, "sys/module/nvme/parameters/poll_queues", 0)
    w(root, "sys/module/nvme/parameters/write_queues", 0)
    mountinfo(root, ["1 0 0:2 / / rw - rootfs rootfs rw"])

    # virtio-blk: LOG virtio-blk.log ("virtio_blk virtio0"); PCI 1af4:1001 QEMU
    root = os.path.join(HERE, "virtio_blk")
    shutil.rmtree(root, ignore_errors=True)
    common(root, Q35)
    p = pci(root, "0000:00:01.0", "0x1af4", "0x1001", "virtio-pci")
    v0 = f"{p}/virtio0"
    w(root, f"{v0}/vendor", "0x1af4")  # LOG vda/device/vendor
    w(root, f"{v0}/device", "0x0002")
    ln(root, f"{v0}/driver", "sys/bus/virtio/drivers/virtio_blk")
    vda = block(root, v0, "vda", "254:0", SECTORS,
                queue(256, 1280, 2147483647, 254, SCHED_NONE, 1), 2)
    for k, v in {"num_request_queues": 0, "queue_depth": 0, "poll_queues": 0}.items():
        w(root, f"sys/module/virtio_blk/parameters/{k}", v)
    # SYN: vda1 -> LVM dm-0 (vg0-data) mounted ext4 at /data
    w(root, f"{vda}/vda1/partition", 1)
    w(root, f"{vda}/vda1/dev", "254:1")
    w(root, f"{vda}/vda1/size", SECTORS - 2048)
    link_block(root, f"{vda}/vda1", "vda1", "254:1")
    dm = "sys/devices/virtual/block/dm-0"
    w(root, f"{dm}/dev", "253:0")
    w(root, f"{dm}/size", 400000)
    w(root, f"{dm}/dm/name", "vg0-data")
    w(root, f"{dm}/dm/uuid", "LVM-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV")
    ln(root, f"{dm}/slaves/vda1", f"{vda}/vda1")
    link_block(root, dm, "dm-0", "253:0")
    ln(root, "sys/block/dm-0", dm)
    mountinfo(root, ["1 0 0:2 / / rw - rootfs rootfs rw",
                     "30 1 253:0 / /data rw,relatime shared:2 - ext4 /dev/mapper/vg0-data rw",
                     "31 1 0:40 / /data/scratch\\040space rw - tmpfs tmpfs rw"])
    # SYN: one /proc/diskstats snapshot (vda, vda1) and vda's inflight for test_devmon
    diskstats(root, [
        " 254       0 vda 1000 10 8000 500 200 5 1600 300 0 700 800 0 0 0 0 0 0",
        " 254       1 vda1 900 10 7200 450 200 5 1600 300 0 650 750 0 0 0 0 0 0",
    ])
    w(root, f"{vda}/inflight", "       3        1")


if __name__ == "__main__":
    main()
