#!/usr/bin/env python3
"""Extract fio's engine and zoned-device option names from fio's own source.

Usage: fio_engine_options.py FIO_GIT_DIR REF > fio-engine-options.txt

Reads, at REF of a clone of https://github.com/axboe/fio (no work tree needed:
`git show`), every engines/*.c file:
  - each `struct fio_option SYM[] = { ... }` table: the `.name` (and `.alias`)
    of each entry;
  - each `struct ioengine_ops SYM = { .name = "ENGINE", .options = SYM }`:
    the engine that uses a table (a table may be defined in another engine
    file, e.g. glusterfs.c's gfapi_options, librpma_fio.c's
    librpma_fio_options);
and options.c, fio's main option table: the zoned-device block, i.e. the
entries with `.group = FIO_OPT_G_ZONE` and those lying between the first and
the last of them (fio keeps the zone options together: zonemode ...
zone_reset_frequency, with read_beyond_wp, max_open_zones,
job_max_open_zones and ignore_zone_limits in FIO_OPT_G_INVALID among them).

skeleton_external.c (fio's template for out-of-tree engines) is left out.

Output, one line each, sorted:  `engine ENGINE OPTION`  and  `zoned - OPTION`.
"""
import re
import subprocess
import sys


def show(git, ref, path):
    return subprocess.run(["git", "--git-dir", git, "show", f"{ref}:{path}"],
                          check=True, capture_output=True, text=True,
                          errors="replace").stdout


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def block(src, start):
    """The text of the brace block opening at or after start."""
    i = src.index("{", start)
    depth = 0
    for j in range(i, len(src)):
        if src[j] == "{":
            depth += 1
        elif src[j] == "}":
            depth -= 1
            if depth == 0:
                return src[i + 1:j]
    raise ValueError("unbalanced braces")


def entries(body):
    """The top-level { ... } entries of an option table body."""
    out, depth, cur = [], 0, None
    for ch in body:
        if ch == "{":
            depth += 1
            if depth == 1:
                cur = []
                continue
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append("".join(cur))
                cur = None
                continue
        if cur is not None:
            cur.append(ch)
    return out


def field(entry, name):
    m = re.search(r"\.%s\s*=\s*\"([^\"]*)\"" % name, entry)
    return m.group(1) if m else None


def tables(src):
    """{symbol: [entry text, ...]} for each struct fio_option SYM[] table."""
    out = {}
    for m in re.finditer(r"struct\s+fio_option\s+(\w+)\s*\[\s*\w*\s*\]\s*=", src):
        out[m.group(1)] = entries(block(src, m.end()))
    return out


def main():
    git, ref = sys.argv[1], sys.argv[2]
    files = subprocess.run(["git", "--git-dir", git, "ls-tree", "--name-only", ref,
                            "engines/"], check=True, capture_output=True,
                           text=True).stdout.split()
    # skeleton_external.c is fio's template for out-of-tree engines, not an engine
    srcs = {f: strip_comments(show(git, ref, f)) for f in files
            if f.endswith(".c") and not f.endswith("skeleton_external.c")}
    local = {f: tables(s) for f, s in srcs.items()}
    glob = {}
    for t in local.values():
        glob.update(t)
    lines = set()
    for f, s in srcs.items():
        for m in re.finditer(r"struct\s+ioengine_ops\s+\w+\s*=", s):
            body = block(s, m.end())
            eng = field(body, "name")
            om = re.search(r"\.options\s*=\s*(\w+)", body)
            if not eng or not om:
                continue
            tab = local[f].get(om.group(1), glob.get(om.group(1)))
            if tab is None:
                sys.exit(f"{f}: engine {eng}: option table {om.group(1)} not found")
            for e in tab:
                for key in ("name", "alias"):
                    v = field(e, key)
                    if v:
                        lines.add(f"engine {eng} {v}")
    main_tab = tables(strip_comments(show(git, ref, "options.c")))["fio_options"]
    zone = [i for i, e in enumerate(main_tab) if re.search(r"\.group\s*=\s*FIO_OPT_G_ZONE\b", e)]
    for e in main_tab[zone[0]:zone[-1] + 1]:
        for key in ("name", "alias"):
            v = field(e, key)
            if v:
                lines.add(f"zoned - {v}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
