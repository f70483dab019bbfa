#!/usr/bin/env python3
"""Snapshot every output fabc produces, to prove a refactor byte-identical.

    python3 scripts/snapshot-outputs.py build/tools/fabc/fabc /tmp/before
    ... change the code, rebuild ...
    python3 scripts/snapshot-outputs.py build/tools/fabc/fabc /tmp/after
    diff -r /tmp/before /tmp/after && echo identical

It runs, for every .fab in examples/, tests/lit/ (inputs and tests), stdlib/ and two
sizes of each bench generator: `fabc check` and `fabc build --emit=all` (stdout,
stderr, exit status and every file written), plus `fabc diff` of neighbouring designs
and `fabc fmt`. Every build writes to the same scratch path, so paths printed in
messages compare equal. Nothing here is timed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def designs(gen_dir):
    found = []
    for top in ("examples", "tests/lit", "stdlib"):
        for dirpath, dirnames, files in os.walk(os.path.join(ROOT, top)):
            dirnames.sort()
            for f in sorted(files):
                if f.endswith(".fab"):
                    found.append(os.path.join(dirpath, f))
    gens = [("gen_gb200.py", ["8192"]), ("gen_gb200.py", ["32768"]), ("gen_ethernet.py", ["--switches", "64"]),
            ("gen_ethernet.py", ["--switches", "512"]), ("gen_flat.py", ["1000"]), ("gen_flat.py", ["20000"])]
    for script, args in gens:
        out = os.path.join(gen_dir, f"{script[:-3]}-{'-'.join(a for a in args if not a.startswith('-'))}.fab")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "bench/fabrics", script), *args, "-o", out],
                           capture_output=True, text=True)
        if r.returncode == 0:
            found.append(out)
        else:
            print(f"snapshot: {script} {args}: {r.stderr.strip()}", file=sys.stderr)
    return found


def run(cmd, cwd, out_dir, tag, scratch):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=600)
    # The scratch directory and the checkout are printed in messages: placeholders make
    # runs from different trees compare equal.
    for path, name in ((scratch, b"$SCRATCH"), (ROOT, b"$ROOT")):
        r.stdout = r.stdout.replace(path.encode(), name)
        r.stderr = r.stderr.replace(path.encode(), name)
    cmd = [c.replace(scratch, "$SCRATCH") for c in cmd]
    with open(os.path.join(out_dir, tag + ".log"), "wb") as f:
        f.write(b"$ " + " ".join(os.path.relpath(c, ROOT) if c.startswith(ROOT) else c
                                  for c in cmd[1:]).encode() + b"\n")
        f.write(b"exit %d\n--- stdout\n" % r.returncode + r.stdout + b"--- stderr\n" + r.stderr)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    fabc, dest = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    scratch = tempfile.mkdtemp(prefix="fabc-snap-")
    try:
        files = designs(scratch)
        includes = ["-I", os.path.join(ROOT, "tests/lit/Inputs")]
        for i, path in enumerate(files):
            rel = os.path.relpath(path, ROOT) if path.startswith(ROOT) else os.path.basename(path)
            name = rel.replace("/", "__")
            case = os.path.join(dest, name)
            os.makedirs(case)
            work = os.path.join(scratch, "out")
            shutil.rmtree(work, ignore_errors=True)
            run([fabc, "check", path, *includes], ROOT, case, "check", scratch)
            run([fabc, "build", path, "-o", work, "--emit=all", *includes], ROOT, case, "build", scratch)
            if os.path.isdir(work):
                shutil.copytree(work, os.path.join(case, "out"), symlinks=True)
            run([fabc, "fmt", path], ROOT, case, "fmt", scratch)
            if i + 1 < len(files) and os.path.dirname(files[i + 1]) == os.path.dirname(path):
                run([fabc, "diff", path, files[i + 1], *includes], ROOT, case, "diff", scratch)
                run([fabc, "diff", "--format=json", path, files[i + 1], *includes], ROOT, case, "diff-json", scratch)
        print(f"snapshot: {len(files)} designs -> {dest}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
