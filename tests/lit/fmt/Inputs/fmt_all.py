#!/usr/bin/env python3
"""fmt over every .fab file of the repository (examples, stdlib, tests):

- fmt(fmt(x)) == fmt(x) for every file fmt accepts;
- fmt rejects only files that `fabc check` also rejects with a syntax-level error;
- the formatted tree compiles to byte-identical outputs (every backend), file by file;
  a file that does not build reports the same diagnostic codes before and after.

usage: fmt_all.py FABC SRC_ROOT WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Inputs"))
from sample import sample  # noqa: E402  (every 4th file under sanitizers)

fabc, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
SYNTAX = {"FAB-E0002", "FAB-E0003", "FAB-E0004", "FAB-E0005", "FAB-E0006"}


def run(args, cwd=None):
    return subprocess.run([fabc] + args, cwd=cwd, capture_output=True, timeout=120)


files = []
for root, dirs, names in os.walk(src):
    rel_root = os.path.relpath(root, src)
    dirs[:] = sorted(d for d in dirs
                     if not d.startswith(".") and not (rel_root == "." and d.startswith("build")))
    files += sorted(os.path.normpath(os.path.join(rel_root, n)) for n in names if n.endswith(".fab"))

files = sample(files)
orig, fmtd = os.path.join(work, "orig"), os.path.join(work, "fmt")
failures, rejected = [], []
for rel in files:
    data = open(os.path.join(src, rel), "rb").read()
    for tree in (orig, fmtd):
        os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
    open(os.path.join(orig, rel), "wb").write(data)
    r = run(["fmt", os.path.join(orig, rel)])
    out = r.stdout
    if r.returncode != 0:
        rejected.append(rel)
        out = data
        c = run(["check", "--diagnostics-format=json", os.path.join(orig, rel)])
        codes = {d["code"] for d in json.loads(c.stdout or c.stderr)["diagnostics"]}
        if r.returncode != 1 or not codes & SYNTAX:
            failures.append(f"{rel}: fmt rejected it (exit {r.returncode}) but check reports {sorted(codes)}")
    else:
        again = subprocess.run([fabc, "fmt", "-"], input=out, capture_output=True, timeout=60)
        if again.returncode != 0 or again.stdout != out:
            failures.append(f"{rel}: fmt is not idempotent")
    open(os.path.join(fmtd, rel), "wb").write(out)


def build(tree, rel, outdir):
    inc = ["-I", "stdlib", "-I", "tests/lit/Inputs"]
    local = os.path.join(os.path.dirname(rel), "Inputs")
    if os.path.isdir(os.path.join(tree, local)):
        inc += ["-I", local]
    return run(["build", rel, "-o", outdir, "--emit=all", "-q", "--diagnostics-format=json"] + inc, cwd=tree)


def tree_files(d):
    r = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            r[os.path.relpath(p, d)] = open(p, "rb").read()
    return r


def diag_codes(r):
    return [d["code"] for d in json.loads(r.stderr or b'{"diagnostics": []}')["diagnostics"]]


built = compared_by_codes = 0
for i, rel in enumerate(files):
    if rel in rejected:
        continue
    outs = [os.path.join(work, "out", str(i), t) for t in ("orig", "fmt")]
    ra, rb = build(orig, rel, outs[0]), build(fmtd, rel, outs[1])
    if ra.returncode == 0:
        if rb.returncode != 0:
            failures.append(f"{rel}: builds, but not after fmt")
            continue
        fa, fb = tree_files(outs[0]), tree_files(outs[1])
        # The report quotes the source lines (and line:col) of its diagnostics, which fmt
        # rewrites by design: it is compared by the diagnostics' codes instead.
        for t in (fa, fb):
            t.pop(os.path.join("report", "index.html"), None)
        if diag_codes(ra) != diag_codes(rb):
            failures.append(f"{rel}: diagnostics differ after fmt: {diag_codes(ra)} vs {diag_codes(rb)}")
        if fa != fb:
            diff = sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k))
            failures.append(f"{rel}: outputs differ after fmt: {diff}")
        else:
            # Equal: the two trees (up to ~200 MB) would only fill the disk; kept on a failure.
            for o in outs:
                shutil.rmtree(o, ignore_errors=True)
        built += 1
    else:
        codes = lambda r: [d["code"] for d in json.loads(r.stderr or b'{"diagnostics": []}')["diagnostics"]]
        if ra.returncode != rb.returncode or codes(ra) != codes(rb):
            failures.append(f"{rel}: diagnostics differ after fmt: {codes(ra)} vs {codes(rb)}")
        compared_by_codes += 1

for f in failures:
    print("FAIL", f)
print(f"fmt: {len(files)} files, {len(files) - len(rejected)} formatted and idempotent, "
      f"{len(rejected)} rejected with syntax errors; {built} built with identical outputs, "
      f"{compared_by_codes} compared by diagnostic codes; {len(failures)} failures")
sys.exit(1 if failures else 0)
