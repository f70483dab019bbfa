#!/usr/bin/env python3
"""`fabc check` reports every diagnostic `fabc build` does, for the same --emit set.

usage: check_equals_build.py FABC SRC_ROOT WORK EMIT [FILE.fab ...]

Runs every design in the tests (each .fab under tests/lit, the .fab parts of the tests'
split-file inputs, the examples) and the FILEs under both
    fabc check EMIT FILE            and
    fabc build EMIT FILE -o WORK/out
(EMIT: --emit=all, say, or "" for the default outputs) and compares exit status and
stderr (paths made relative). A file without a fabric
block is skipped: check accepts a library file, build has nothing to build. Prints one
FAIL line per difference and a summary; exits 1 on any.
"""
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Inputs"))
from sample import sample  # noqa: E402  (every 4th design under sanitizers)

fabc, root, work, emit = sys.argv[1:5]
extra = sys.argv[5:]
emit = [emit] if emit else []
lit = os.path.join(root, "tests", "lit")


def split_parts(test, dest):
    """The .fab parts of a split-file test (`#--- NAME` / `//--- NAME` markers)."""
    parts, name, lines = [], None, []
    for line in open(test, encoding="utf-8", errors="replace").read().split("\n"):
        m = re.match(r"^(?:#|//)--- (\S+)$", line)
        if m:
            if name:
                parts.append((name, lines))
            name, lines = m.group(1), []
        elif name:
            lines.append(line)
    if name:
        parts.append((name, lines))
    out = []
    base = os.path.join(dest, os.path.relpath(test, lit).replace("/", "__"))
    for name, lines in parts:
        path = os.path.join(base, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        if name.endswith(".fab"):
            out.append((path, os.path.dirname(test)))
    return out


def designs():
    found = []
    for top in (lit, os.path.join(root, "examples")):
        for dirpath, dirnames, files in os.walk(top):
            dirnames.sort()
            for f in sorted(files):
                path = os.path.join(dirpath, f)
                if f.endswith(".fab"):
                    found.append((path, dirpath))
                elif f.endswith(".test") and top == lit:
                    found += split_parts(path, os.path.join(work, "split"))
    found = sample(found)
    seen = {p for p, _ in found}
    return found + [(os.path.abspath(f), os.path.dirname(os.path.abspath(f))) for f in extra
                    if os.path.abspath(f) not in seen]


def includes(testdir):
    inc = ["-I", os.path.join(lit, "Inputs")]
    d = testdir
    while d.startswith(lit):
        if os.path.isdir(os.path.join(d, "Inputs")):
            inc += ["-I", os.path.join(d, "Inputs")]
        d = os.path.dirname(d)
    return inc


def one(item):
    i, (path, testdir) = item
    out = os.path.join(work, "out%d" % i)
    inc = includes(testdir)
    c = subprocess.run([fabc, "check", *emit, path, *inc], capture_output=True, text=True, timeout=300)
    b = subprocess.run([fabc, "build", *emit, path, "-o", out, *inc], capture_output=True, text=True, timeout=300)
    norm = lambda s: s.replace(out, "$OUT").replace(work, "$WORK").replace(root + "/", "")
    rel = norm(path)
    if "[FAB-E0013]" in b.stderr and "[FAB-E0013]" not in c.stderr:
        return rel, None  # a library file: nothing to build
    if c.returncode != b.returncode or norm(c.stderr) != norm(b.stderr):
        cl, bl = norm(c.stderr).splitlines(), norm(b.stderr).splitlines()
        only_b = [l for l in bl if l not in cl][:3]
        only_c = [l for l in cl if l not in bl][:3]
        return rel, "check exit %d, build exit %d; only build: %s; only check: %s" % (
            c.returncode, b.returncode, only_b, only_c)
    # Compared: the outputs (up to ~100 MB a design) would only fill the disk.
    shutil.rmtree(out, ignore_errors=True)
    return rel, ""


os.makedirs(work, exist_ok=True)
with ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(one, enumerate(designs())))
compared = [r for r in results if r[1] is not None]
failed = [r for r in compared if r[1]]
for rel, why in failed:
    print("FAIL", rel, "--", why)
print("%d designs, %d compared, %d differ" % (len(results), len(compared), len(failed)))
sys.exit(1 if failed else 0)
