#!/usr/bin/env python3
"""`fabc fmt` both ways: the default (the hand-written lexer's tokens, the compile path's
front end) against `--parser=antlr` (ANTLR's lexer and parser alone), on every Fabric input
of the repository (tests/lit/parse/Inputs/differential.py collects them: .fab files, bench
generators' small sizes, the robustness corpus, the lit tests' inline inputs), at several
widths. Formatted text, diagnostics and exit status must be byte-identical.

usage: differential.py FABC SRC_ROOT WORKDIR
"""
import os
import re
import subprocess
import sys

fabc, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
sys.path.insert(0, os.path.join(src, "tests", "lit", "parse", "Inputs"))
from differential import collect  # noqa: E402

inputs = collect(src, work)
widths = (100, 60, 40)


def fmt(files, width, antlr):
    args = [fabc, "fmt", f"--width={width}"] + (["--parser=antlr"] if antlr else []) + files
    r = subprocess.run(args, capture_output=True, cwd=work)
    return r.returncode, r.stdout, r.stderr


def syntax_only(stderr):
    return set(re.findall(rb"\[FAB-(E[0-9]+)\]", stderr)) == {b"E0002"}


def same(a, b):
    if a == b:
        return True
    return a[0] == b[0] and a[1] == b[1] and syntax_only(a[2]) and syntax_only(b[2])


def named(stderr):
    """The paths a run's diagnostics name (at the start of a line: `path:line:col: `)."""
    return {m.decode() for m in re.findall(rb"^(\S+?):\d+:\d+: ", stderr, re.M)}


mismatches = 0
for w in widths:
    # All files in one run each way. The formatted text of every file is in stdout, in
    # order: if it and the exit status agree, only the files some diagnostic names need a
    # run of their own (a syntax error may be worded differently, same()). Otherwise
    # (a real difference) every file, to name it. The per-file runs were 2 x 3 x every
    # file on each run, since some input always has a syntax error: 13 minutes under ASan.
    a, b = fmt(inputs, w, False), fmt(inputs, w, True)
    if a == b:
        continue
    suspects = inputs
    if a[:2] == b[:2]:
        diagnosed = named(a[2]) | named(b[2])
        suspects = [f for f in inputs if f in diagnosed]
    for f in suspects:
        a, b = fmt([f], w, False), fmt([f], w, True)
        if not same(a, b):
            mismatches += 1
            print(f"MISMATCH --width={w} {f}: exit {a[0]} vs {b[0]}, "
                  f"{'same' if a[1] == b[1] else 'different'} output, "
                  f"{'same' if a[2] == b[2] else 'different'} diagnostics")
print(f"fmt-diff: {len(inputs)} files x {len(widths)} widths, {mismatches} mismatches")
sys.exit(1 if mismatches else 0)
