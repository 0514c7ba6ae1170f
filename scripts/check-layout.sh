#!/usr/bin/env bash
# check-layout.sh - layout rules of the source tree, run by CI (.ci/run):
#   1. no source file under src/ over 800 lines;
#   2. no function in src/core or src/engine over 120 lines (the lines from
#      the function's opening brace to its closing brace; a brace-depth scan
#      of the C text that skips comments, string and character literals);
#   3. no circle in the `#include "..."` graph, neither between files (a
#      header that ends up including itself) nor between src/ folders
#      (report -> probe -> report); each circle is listed with one include
#      line per step.
# Prints one line per violation and a summary; exit 0 when clean, 1 when
# not, 2 on a usage error.
# usage: scripts/check-layout.sh [SOURCE_ROOT]   (default: the repository)
set -euo pipefail
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
[ -d "$root/src" ] || { echo "check-layout.sh: $root/src: no such folder (give the source root)" >&2; exit 2; }
exec python3 - "$root" <<'PY'
import os, re, sys

ROOT = sys.argv[1]
SRC = os.path.join(ROOT, "src")
MAX_FILE_LINES = 800
MAX_FUNC_LINES = 120
FUNC_DIRS = ("core", "engine")

def rel(p):
    return os.path.relpath(p, ROOT)

files = []
for d, _, names in os.walk(SRC):
    for n in sorted(names):
        if n.endswith((".c", ".h")):
            files.append(os.path.join(d, n))
files.sort()
problems = []

def read(p):
    with open(p, encoding="utf-8", errors="replace") as f:
        return f.read()

# ---- 1. file length ---------------------------------------------------------
for p in files:
    n = read(p).count("\n")
    if n > MAX_FILE_LINES:
        problems.append(f"file over {MAX_FILE_LINES} lines: {rel(p)}: {n} lines")

# ---- 2. function length -----------------------------------------------------
def blank_code(text):
    """The text with comments, string and char literals replaced by spaces
    (newlines kept, so line numbers stay), and preprocessor lines blanked."""
    out = []
    i, n = 0, len(text)
    state = None          # None, '//', '/*', '"', "'"
    line_start = True
    while i < n:
        c = text[i]
        if state is None:
            if line_start and c in " \t":
                out.append(c); i += 1; continue
            if line_start and c == "#":
                # preprocessor directive, with backslash continuations
                while i < n and text[i] != "\n":
                    if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                        out.append(" \n"); i += 2; continue
                    out.append(" "); i += 1
                continue
            line_start = False
            if c == "/" and text.startswith("//", i):
                state = "//"; out.append("  "); i += 2; continue
            if c == "/" and text.startswith("/*", i):
                state = "/*"; out.append("  "); i += 2; continue
            if c in "\"'":
                state = c; out.append(" "); i += 1; continue
            if c == "\n":
                line_start = True
            out.append(c); i += 1
        elif state == "//":
            if c == "\n":
                state = None; line_start = True; out.append("\n")
            elif c == "\\" and i + 1 < n and text[i + 1] == "\n":
                out.append(" \n"); i += 1
            else:
                out.append(" ")
            i += 1
        elif state == "/*":
            if text.startswith("*/", i):
                state = None; out.append("  "); i += 2; continue
            out.append("\n" if c == "\n" else " "); i += 1
        else:  # inside a string or char literal
            if c == "\\" and i + 1 < n:
                out.append(" \n" if text[i + 1] == "\n" else "  "); i += 2; continue
            if c == state:
                state = None
            out.append("\n" if c == "\n" else " "); i += 1
    return "".join(out)

IDENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*$")

def functions(code):
    """(name, first line, last line) of each top-level brace block that
    follows a parameter list `)`: the function bodies."""
    depth = 0
    line = 1
    res = []
    start = None
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            if depth == 0:
                j = i - 1
                while j >= 0 and code[j].isspace():
                    j -= 1
                start = None
                if j >= 0 and code[j] == ")":
                    # find the matching '(' and the name before it
                    k, pd = j, 0
                    while k >= 0:
                        if code[k] == ")":
                            pd += 1
                        elif code[k] == "(":
                            pd -= 1
                            if pd == 0:
                                break
                        k -= 1
                    m = IDENT.search(code[max(0, k - 200):k])
                    name = m.group(1) if m else "?"
                    if name not in ("if", "for", "while", "switch", "sizeof", "__attribute__"):
                        start = (name, line)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and start:
                res.append((start[0], start[1], line))
                start = None
            if depth < 0:
                depth = 0
    return res

for p in files:
    parts = os.path.relpath(p, SRC).split(os.sep)
    if parts[0] not in FUNC_DIRS or not p.endswith(".c"):
        continue
    for name, a, b in functions(blank_code(read(p))):
        n = b - a + 1
        if n > MAX_FUNC_LINES:
            problems.append(f"function over {MAX_FUNC_LINES} lines: {rel(p)}:{a}: {name}(): {n} lines")

# ---- 3. include circles -----------------------------------------------------
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
edges = {}            # file -> [(included file, line number)]
for p in files:
    text = read(p)
    lst = []
    for m in INC.finditer(text):
        name = m.group(1)
        lineno = text.count("\n", 0, m.start()) + 1
        for cand in (os.path.join(os.path.dirname(p), name), os.path.join(SRC, name)):
            cand = os.path.normpath(cand)
            if os.path.isfile(cand) and cand.startswith(SRC + os.sep):
                lst.append((cand, lineno))
                break
    edges[p] = lst

def folder(p):
    parts = os.path.relpath(p, SRC).split(os.sep)
    return parts[0] if len(parts) > 1 else "."

def sccs(nodes, succ):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for v0 in nodes:
        if v0 in index:
            continue
        work = [(v0, iter(succ.get(v0, ())))]
        index[v0] = low[v0] = counter[0]; counter[0] += 1
        stack.append(v0); on.add(v0)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(succ.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out

def circle(comp, succ):
    """One circle through the component: a shortest path back to its start."""
    comp = set(comp)
    start = min(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(succ.get(v, ())):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                return path + [start]
            if w in comp and w not in prev:
                prev[w] = v
                queue.append(w)
    return [start, start]

# file level
fsucc = {p: sorted({q for q, _ in edges[p]}) for p in files}
for comp in sccs(files, fsucc):
    if len(comp) > 1 or comp[0] in fsucc.get(comp[0], ()):
        c = circle(comp, fsucc)
        problems.append("include circle (files): " + " -> ".join(rel(x) for x in c))

# folder level, with the include line behind each step
dsucc, why = {}, {}
for p in files:
    for q, lineno in edges[p]:
        a, b = folder(p), folder(q)
        if a != b:
            dsucc.setdefault(a, set()).add(b)
            why.setdefault((a, b), f"{rel(p)}:{lineno} includes {os.path.relpath(q, SRC)}")
folders = sorted({folder(p) for p in files})
for comp in sccs(folders, dsucc):
    if len(comp) > 1:
        c = circle(comp, dsucc)
        steps = "; ".join(why[(c[i], c[i + 1])] for i in range(len(c) - 1))
        problems.append("include circle (folders): " + " -> ".join(c) + " (" + steps + ")")

for line in problems:
    print("check-layout: " + line)
nfunc = sum(1 for p in files if os.path.relpath(p, SRC).split(os.sep)[0] in FUNC_DIRS)
print(f"check-layout: {len(files)} files under src/ checked ({nfunc} in src/core and src/engine "
      f"for function length), {sum(len(v) for v in edges.values())} local includes: "
      + (f"{len(problems)} violation(s)" if problems else "clean"))
sys.exit(1 if problems else 0)
PY
