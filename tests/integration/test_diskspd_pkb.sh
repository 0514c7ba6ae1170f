#!/bin/bash
# test_diskspd_pkb.sh - issue 18: iomark's DiskSpd XML has DiskSpd 2.2's CPU
# rows (Socket, Node, Group, Core, EfficiencyClass, Id: diskspd v2.2
# XmlResultParser.cpp) and PerfKitBenchmarker's DiskSpd parser reads it: PKB's
# own parsing functions (tests/data/pkb/diskspd_parsers.py, copied unchanged)
# run on the XML; socket, node and core are checked against lscpu (util-linux).
. "$(dirname "$0")/lib.sh"
cd "$WORK"
"$IOMARK" diskspd -b4K -r -w0 -d1 -o2 -t2 -c16M -L -Rxml "$WORK/x.dat" >r.xml 2>err.txt ||
  fail "diskspd -Rxml: $(head -c 300 err.txt)"
lscpu -p=CPU,CORE,SOCKET,NODE >topo.txt 2>/dev/null || : >topo.txt
$PY - r.xml topo.txt "$SRCDIR/tests/data/pkb" <<'PY' && pass "PKB's ParseDiskSpdResults reads the XML; CPU rows as DiskSpd 2.2 and lscpu" || fail "PKB / CPU rows"
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[3])
import diskspd_parsers as pkb
text = open(sys.argv[1]).read()
root = ET.fromstring(text)
samples = pkb.ParseDiskSpdResults(text, {})
by = {s.metric: s for s in samples}
bad = []
cpus = root.findall("TimeSpan/CpuUtilization/CPU")
order = ["Socket", "Node", "Group", "Core", "EfficiencyClass", "Id", "UsagePercent", "UserPercent",
         "KernelPercent", "IdlePercent"]
for c in cpus:
    if [e.tag for e in c] != order:
        bad.append(("order", [e.tag for e in c]))
per = by["cpu_total_utilization"].metadata["per_cpu_usage"]
if len(per) != len(cpus) or len(cpus) != int(root.find("TimeSpan/ProcCount").text):
    bad.append(("cpu count", len(per), len(cpus)))
for c in cpus:
    f = {e.tag: e.text for e in c}
    key = "usage_cpu_%s_%s_%s_%s_%s" % (f["Socket"], f["Node"], f["Group"], f["Core"], f["Id"])
    if key not in per or per[key]["cpu_total_utilization"] != float(f["UsagePercent"]):
        bad.append(("key", key))
# socket, node and core as lscpu numbers them (lscpu's CORE: logical core index)
topo = {}
for ln in open(sys.argv[2]):
    if ln.startswith("#") or not ln.strip():
        continue
    cpu, core, sock, node = (x or "0" for x in ln.strip().split(","))
    topo[cpu] = (sock, node, core)
for c in cpus:
    f = {e.tag: e.text for e in c}
    if topo and topo.get(f["Id"]) != (f["Socket"], f["Node"], f["Core"]):
        bad.append(("lscpu", f["Id"], topo.get(f["Id"]), (f["Socket"], f["Node"], f["Core"])))
# the I/O figures PKB computes from the per-thread rows
n = sum(int(t.find("Target/IOCount").text) for t in root.findall("TimeSpan/Thread"))
secs = float(root.find("TimeSpan/TestTimeSeconds").text)
if by["total_iops"].value != int(n / secs) or n == 0:
    bad.append(("total_iops", by["total_iops"].value, int(n / secs)))
if "read_latency_p99.0" not in by and "total_latency_p99.0" not in by:
    bad.append(("latency percentiles", sorted(by)))
print(len(cpus), "CPUs;", sorted(per)[:4], bad)
sys.exit(1 if bad else 0)
PY
finish
