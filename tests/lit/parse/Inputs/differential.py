#!/usr/bin/env python3
"""Collects every Fabric input of the repository and runs `fabc parse-diff` over them: the
hand-written parser must build the same AST as the ANTLR parser generated from
grammar/Fabric.g4 (or reject what it rejects).

usage: differential.py FABC SRC_ROOT WORKDIR

The inputs: every .fab file of the source tree (stdlib, examples, tests, bench), the
bench generators' small sizes, the robustness corpus (tests/lit/robustness/Inputs/corpus.py
--write-only: the fuzzer's seeds too), and the inline inputs of the lit tests (split-file
sections, and `printf '...'` / `echo '...'` sources on RUN lines).
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Inputs"))
from sample import sample  # noqa: E402  (every 4th input under sanitizers)

def collect(src, work):
    """Every Fabric input of the repository (see above), as paths; writes the generated ones under work."""
    os.makedirs(work, exist_ok=True)
    inputs = []

    for top in ("stdlib", "examples", "tests", "bench", "docs"):
        for d, dirs, files in os.walk(os.path.join(src, top)):
            dirs.sort()
            inputs += [os.path.join(d, f) for f in sorted(files) if f.endswith(".fab")]

    gens = [("gen_flat.py", ["1000"]), ("gen_flat.py", ["3000", "--style=import"]), ("gen_gb200.py", ["8192"]),
            ("gen_ethernet.py", ["--switches", "64"])]
    for script, args in gens:
        path = os.path.join(src, "bench", "fabrics", script)
        if os.path.exists(path):
            out = os.path.join(work, f"{script[:-3]}-{'-'.join(a.lstrip('-') for a in args)}.fab")
            subprocess.run([sys.executable, path, *args, "-o", out], check=True)
            inputs.append(out)

    corpus = os.path.join(work, "corpus")
    subprocess.run([sys.executable, os.path.join(src, "tests/lit/robustness/Inputs/corpus.py"), "--write-only", src, corpus],
                   check=True, stdout=subprocess.DEVNULL)
    for d, dirs, files in os.walk(corpus):
        dirs.sort()
        inputs += [os.path.join(d, f) for f in sorted(files)]

    # Inline inputs of the lit tests.
    inline = os.path.join(work, "inline")
    os.makedirs(inline, exist_ok=True)
    n = 0


    def add(text):
        nonlocal n
        n += 1
        path = os.path.join(inline, f"{n:04d}.fab")
        with open(path, "w") as f:
            f.write(text)
        inputs.append(path)


    def unescape(s):  # printf's and echo -e's escapes that the tests use
        return s.replace("\\n", "\n").replace("\\t", "\t").replace("\\\"", "\"").replace("\\\\", "\\")


    for d, dirs, files in os.walk(os.path.join(src, "tests", "lit")):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith((".test", ".fab")):
                continue
            text = open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
            if "split-file" in text:
                parts = re.split(r"^(?:#|//)--- (\S+)\n", text, flags=re.M)
                for name, body in zip(parts[1::2], parts[2::2]):
                    if name.endswith(".fab"):
                        add(body)
            for m in re.finditer(r"RUN:.*?\b(?:printf|echo)\s+'([^']*)'", text):
                if re.search(r"\b(fabric|model|param|let|template|import)\b", m.group(1)):
                    add(unescape(m.group(1)))


    return sample(inputs)


if __name__ == "__main__":
    fabc, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    inputs = collect(src, work)
    r = subprocess.run([fabc, "parse-diff", *inputs], capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    sys.exit(r.returncode)
