#!/usr/bin/python3
"""Run a command; measure the CPU of all its threads per I/O over a window.

usage: bench/proc_cpu.py OUT.json TARGET BS_BYTES FROM_S TO_S -- COMMAND [ARGS...]

Between FROM_S and TO_S seconds after the start (inside the tool's measured
time, so neither start-up nor the end is counted), it takes:
- the CPU time of every thread of the command and of its descendant
  processes (/proc/PID/task/TID/schedstat, first field: ns on a CPU; proc(5)
  and Documentation/scheduler/sched-stats.rst), so fio's forked job and the
  io_uring io-wq worker threads that run I/O the kernel handed off are
  counted (fio's own usr_cpu/sys_cpu are those of the job thread only);
- the bytes the target's block device (the device itself, or the one holding
  the file) read and wrote, /proc/diskstats sectors read and written x 512
  (Documentation/admin-guide/iostats.rst, fields 3 and 7), divided by BS:
  the tool's I/Os, not the device's requests (a 1 MiB read the block layer
  splits is still one I/O, and merged ones still count).
Writes {"cpu_s", "ios", "window_s", "device"} to OUT.json. Exit status: the
command's.
"""
import json, os, stat, subprocess, sys, time

def device_name(target):
    st = os.stat(target)
    dev = st.st_rdev if stat.S_ISBLK(st.st_mode) else st.st_dev
    return os.path.basename(os.readlink("/sys/dev/block/%d:%d" % (os.major(dev), os.minor(dev))))

def device_bytes(name):
    with open("/proc/diskstats") as f:
        for line in f:
            v = line.split()
            if len(v) >= 10 and v[2] == name:
                return (int(v[5]) + int(v[9])) * 512
    raise SystemExit("proc_cpu.py: %s is not in /proc/diskstats" % name)

def tree(root):
    """root and its descendant processes."""
    kids = {}
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open("/proc/%s/stat" % p) as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                kids.setdefault(ppid, []).append(int(p))
            except (OSError, ValueError, IndexError):
                pass
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out

def cpu_ns(root):
    """{(pid, tid): ns on a CPU} for every thread of root's process tree."""
    t = {}
    for p in tree(root):
        try:
            for tid in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/schedstat" % (p, tid)) as f:
                    t[(p, tid)] = int(f.read().split()[0])
        except OSError:
            pass
    return t

out, target, bs, t_from, t_to = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
if sys.argv[6] != "--" or len(sys.argv) < 8:
    raise SystemExit("usage: proc_cpu.py OUT.json TARGET BS_BYTES FROM_S TO_S -- COMMAND [ARGS...]")
name = device_name(target)
start = time.monotonic()
proc = subprocess.Popen(sys.argv[7:])
time.sleep(max(0.0, start + t_from - time.monotonic()))
c0, b0, w0 = cpu_ns(proc.pid), device_bytes(name), time.monotonic()
time.sleep(max(0.0, start + t_to - time.monotonic()))
c1, b1, w1 = cpu_ns(proc.pid), device_bytes(name), time.monotonic()
rc = proc.wait()
# threads that started inside the window count from 0; ones that ended are lost (none in a steady run)
cpu = sum(v - c0.get(k, 0) for k, v in c1.items()) / 1e9
with open(out, "w") as f:
    json.dump({"device": name, "window_s": w1 - w0, "cpu_s": cpu, "ios": (b1 - b0) / bs,
               "threads": len(c1)}, f)
sys.exit(rc)
