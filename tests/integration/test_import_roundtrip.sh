#!/usr/bin/env bash
# Round trip (issue 12 item 6): every result format iomark writes that its
# importers read (iomark JSON and text, DiskSpd text and XML, fio normal and JSON)
# imports back to the figures printed in the file: IOPS, MB/s, mean and p99
# latency, for read-only, write-only and mixed runs. One table: each row makes
# a file, `iomark compare --output-format=json` imports it, and a reader
# written here (independent of iomark's importers) takes the same figures
# from the file; they must agree within the format's printed rounding.
# A figure the format does not hold (fio prints no p99 of read+write) must
# be missing (null), never 0.
source "$(dirname "$0")/lib.sh"
cd $WORK
rows=()
for rw in randread randwrite randrw; do
  case $rw in randread) w=0;; randwrite) w=100;; randrw) w=50;; esac
  "$IOMARK" run --ioengine=null --rw=$rw --bs=4k --iodepth=4 --runtime=300ms --size=16M \
    --output-format=json --output=$WORK/$rw.iomark.json --quiet $WORK/n.dat && rows+=("iomark-json $rw $WORK/$rw.iomark.json")
  "$IOMARK" run --ioengine=null --rw=$rw --bs=4k --iodepth=4 --runtime=300ms --size=16M \
    $WORK/n.dat >$WORK/$rw.iomark.txt 2>/dev/null && rows+=("iomark-text $rw $WORK/$rw.iomark.txt")
  "$IOMARK" diskspd -b4K -r -w$w -L -d1 -o2 -c16M $WORK/d.dat >$WORK/$rw.diskspd.txt && rows+=("diskspd-text $rw $WORK/$rw.diskspd.txt")
  "$IOMARK" diskspd -b4K -r -w$w -L -d1 -o2 -c16M -Rxml $WORK/d.dat >$WORK/$rw.diskspd.xml && rows+=("diskspd-xml $rw $WORK/$rw.diskspd.xml")
  printf '[global]\nioengine=null\nruntime=300ms\ntime_based=1\nsize=16M\nfilename=%s\n[job]\nrw=%s\nbs=4k\niodepth=4\n' \
    $WORK/f.dat $rw >$WORK/$rw.fio
  "$IOMARK" run $WORK/$rw.fio >$WORK/$rw.fio.txt 2>/dev/null && rows+=("fio-text $rw $WORK/$rw.fio.txt")
  "$IOMARK" run $WORK/$rw.fio --output-format=json >$WORK/$rw.fio.json 2>/dev/null && rows+=("fio-json $rw $WORK/$rw.fio.json")
done
[ ${#rows[@]} = 18 ] && pass "18 files made" || fail "only ${#rows[@]} of 18 files made"
for row in "${rows[@]}"; do
  set -- $row
  fmt=$1 rw=$2 file=$3
  if ! "$IOMARK" compare --output-format=json -o $WORK/cmp.json $file 2>$WORK/err; then
    fail "$fmt $rw: compare refused it: $(cat $WORK/err)"; continue
  fi
  $PY - $fmt $rw $file $WORK/cmp.json <<'PY' && pass "$fmt $rw round trip" || fail "$fmt $rw round trip"
import json, re, sys
import xml.etree.ElementTree as ET
fmt, rw, path, cmp_path = sys.argv[1:5]
dirs = {"randread": ["read"], "randwrite": ["write"], "randrw": ["read", "write"]}[rw]
c = json.load(open(cmp_path))
got = {m["key"]: m["values"][0]["mean"] for m in c["workloads"][0]["metrics"]}
text = open(path).read()
# want[key] = (value, absolute tolerance): the file's own figures
want = {}
def total_of(d):
    """read/write figures -> total: IOPS and MB/s add; the mean is I/O-weighted"""
    ios = sum(d[x]["ios"] for x in dirs)
    return (sum(d[x]["iops"] for x in dirs), sum(d[x]["mbs"] for x in dirs),
            sum(d[x]["mean"] * d[x]["ios"] for x in dirs) / ios)
if fmt == "iomark-json":
    t = json.load(open(path))["total"]["total"]
    want = {"iops": (t["iops"], 1e-6 * t["iops"]), "mb_per_s": (t["mb_per_s"], 1e-6 * t["mb_per_s"]),
            "lat_mean_us": (t["lat_us"]["mean"], 1e-9), "lat_p99_us": (t["lat_us"]["percentiles"]["99"], 1e-9)}
elif fmt == "iomark-text":
    # the report's "total" row: IOPS MB/s MiB/s I/Os mean stdev p50 p99 max, as printed
    f = re.search(r"^  total +(\S+) +(\S+) +\S+ +\S+ +(\S+) +\S+ +\S+ +(\S+)", text, re.M).groups()
    iops, mbs, mean, p99 = (float(x) for x in f)
    want = {"iops": (iops, 0.05 + 1e-9), "mb_per_s": (mbs, 0.005 + 1e-9),
            "lat_mean_us": (mean, 0.005 + 1e-9), "lat_p99_us": (p99, 0.005 * p99 + 1e-9)}
elif fmt == "fio-json":
    j = json.load(open(path))["jobs"][0]
    # MB/s = io_bytes / runtime, as fio computes bw_bytes; runtime prints in whole ms
    d = {x: {"iops": j[x]["iops"], "mbs": j[x]["io_bytes"] / (j[x]["runtime"] / 1e3) / 1e6,
             "mean": j[x]["lat_ns"]["mean"] / 1e3, "ios": j[x]["total_ios"],
             "p99": j[x]["clat_ns"]["percentile"]["99.000000"] / 1e3} for x in dirs}
    iops, mbs, mean = total_of(d)
    want = {"iops": (iops, 1e-6 * iops), "mb_per_s": (mbs, 1e-6 * mbs), "lat_mean_us": (mean, 1e-6 * mean)}
    want["lat_p99_us"] = (d[dirs[0]]["p99"], 1e-9) if len(dirs) == 1 else (None, 0)
elif fmt == "fio-text":
    d = {}
    for x in dirs:
        sec = re.search(r"^\s*%s: IOPS=([\d.]+)([kM]?), BW=.*?\(([\d.]+)([KMG])iB/(\d+)msec\)\n(.*?)(?=^\s*(?:read|write): |^\s*lat \([num]sec\)\s+:|^\s*cpu)" % x,
                        text, re.M | re.S)
        mult = {"": 1, "k": 1e3, "M": 1e6}[sec.group(2)]
        iops = float(sec.group(1)) * mult
        iops_half = 0.5 * 10 ** -(len(sec.group(1).split(".")[1]) if "." in sec.group(1) else 0) * mult
        scale = {"K": 1 / 1024, "M": 1, "G": 1024}[sec.group(4)]
        printed = sec.group(3)
        mib, ms, body = float(printed) * scale, float(sec.group(5)), sec.group(6)
        half_digit = 0.5 * 10 ** -(len(printed.split(".")[1]) if "." in printed else 0) * scale
        lat = re.search(r"^\s*lat \((\w+)\): .*?avg=\s*([\d.]+)", body, re.M)  # fio pads: "avg= 3.43"
        unit = {"nsec": 1e-3, "usec": 1, "msec": 1e3}[lat.group(1)]
        pu = {"nsec": 1e-3, "usec": 1, "msec": 1e3}[re.search(r"clat percentiles \((\w+)\)", body).group(1)]
        p99 = float(re.search(r"99\.00th=\[\s*(\d+)\]", body).group(1)) * pu
        ios = iops * ms / 1e3
        # printed rounding: IOPS to 3-4 digits with k, MiB and msec to whole units
        d[x] = {"iops": iops, "mbs": mib * 1048576 / (ms / 1e3) / 1e6, "mean": float(lat.group(2)) * unit,
                "ios": ios, "p99": p99, "tol_iops": iops_half,
                "tol_mbs": (half_digit * 1048576 / (ms / 1e3) + mib * 1048576 * 0.5 / (ms / 1e3) ** 2 / 1e3) / 1e6}
    iops, mbs, mean = total_of(d)
    want = {"iops": (iops, sum(d[x]["tol_iops"] for x in dirs)), "mb_per_s": (mbs, sum(d[x]["tol_mbs"] for x in dirs)),
            "lat_mean_us": (mean, 0.01 * mean)}
    want["lat_p99_us"] = (d[dirs[0]]["p99"], 1e-9) if len(dirs) == 1 else (None, 0)
elif fmt == "diskspd-text":
    tot = re.search(r"^Total IO\n.*?^total:\s*(\d+)\s*\|\s*(\d+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)", text, re.M | re.S)
    secs = float(re.search(r"actual test time:\s*([\d.]+)s", text).group(1))
    b, n = float(tot.group(1)), float(tot.group(2))
    p99 = re.search(r"^\s*99th \|([^\n]*)$", text, re.M).group(1).split("|")[2]
    # bytes and I/Os are exact; the time prints to 0.01 s, latencies to 0.001 ms
    want = {"iops": (n / secs, n / secs * 0.006 / secs), "mb_per_s": (b / secs / 1e6, b / secs / 1e6 * 0.006 / secs),
            "lat_mean_us": (float(tot.group(5)) * 1e3, 0.5 + 1e-9), "lat_p99_us": (float(p99) * 1e3, 0.5 + 1e-9)}
elif fmt == "diskspd-xml":
    x = ET.parse(path).getroot()
    ts = x.find("TimeSpan")
    secs = float(ts.find("TestTimeSeconds").text)
    b = sum(float(t.find("ReadBytes").text) + float(t.find("WriteBytes").text) for t in ts.iter("Target") if t.find("ReadBytes") is not None)
    n = sum(float(t.find("ReadCount").text) + float(t.find("WriteCount").text) for t in ts.iter("Target") if t.find("ReadCount") is not None)
    lat = ts.find("Latency")
    p99 = [bk for bk in lat.iter("Bucket") if bk.find("Percentile").text == "99"][0]
    want = {"iops": (n / secs, 1e-9 * n), "mb_per_s": (b / secs / 1e6, 1e-9 * b),
            "lat_mean_us": (float(lat.find("AverageTotalMilliseconds").text) * 1e3, 0.5 + 1e-9),
            "lat_p99_us": (float(p99.find("TotalMilliseconds").text) * 1e3, 1e-9)}
ok = True
for k, (v, tol) in want.items():
    g = got.get(k)
    if v is None:
        good = g is None                     # not in the format: missing, not 0
    else:
        good = g is not None and abs(g - v) <= tol
    ok &= good
    print("%-12s %-9s %-12s file %-14s imported %-14s %s" % (fmt, rw, k, "%.6g" % v if v is not None else "-",
          "%.6g" % g if g is not None else "-", "ok" if good else "DIFFERS"))
if len(dirs) == 2:   # mixed: both directions' IOPS are there
    ok &= got.get("read_iops") is not None and got.get("write_iops") is not None
sys.exit(0 if ok else 1)
PY
done
finish
