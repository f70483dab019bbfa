#!/usr/bin/env python3
"""Kills `fabc build` at several points and checks the output directory each time.

    kill_build.py FABC A.fab B.fab WORKDIR

Builds A and B once into reference directories, then, with WORKDIR/out holding one
complete build, starts a build of the other design into it and sends SIGTERM, SIGINT,
SIGHUP or SIGKILL early, mid-write (the staging directory holds files) and at commit
(the staging directory holds its manifest). Each time, out must be exactly the old or
exactly the new build (every file and the manifest), and after a catchable signal no
staging directory is left. A last build must leave no leftover of any kind.
"""
import glob
import hashlib
import os
import signal
import subprocess
import sys
import time

EMIT = "--emit=sonic,frr,nvue,summary,bom,cabling"


def snapshot(d):
    files = {}
    for root, dirs, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            with open(p, "rb") as f:
                files[os.path.relpath(p, d)] = hashlib.sha1(f.read()).hexdigest()
        for n in dirs:  # an empty directory counts too
            files.setdefault(os.path.relpath(os.path.join(root, n), d) + "/", "dir")
    return files


def defaults():  # a shell running tests in the background ignores SIGINT: fabc would too
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def build(fabc, fab, out):
    return subprocess.Popen([fabc, "build", fab, EMIT, "-o", out, "-q"], stderr=subprocess.PIPE, preexec_fn=defaults)


def main():
    fabc, a, b, work = sys.argv[1:5]
    refs = {}
    for name, fab in (("a", a), ("b", b)):
        p = build(fabc, fab, os.path.join(work, "ref-" + name))
        assert p.wait() == 0, p.stderr.read()
        refs[name] = snapshot(os.path.join(work, "ref-" + name))
    out = os.path.join(work, "out")
    staging = os.path.join(work, ".out.fabc-*")
    assert build(fabc, a, out).wait() == 0
    current, failures, hits = "a", 0, {}
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL):
        for point in ("early", "mid-write", "commit"):
            new = "b" if current == "a" else "a"
            before = set(glob.glob(staging))  # SIGKILL's leftovers, for the next build to remove
            p = build(fabc, a if new == "a" else b, out)
            deadline = time.monotonic() + 60
            while p.poll() is None and time.monotonic() < deadline:
                stages = [s for s in glob.glob(staging) if s not in before]
                if point == "early" and stages:
                    break
                if point == "mid-write" and any(len(glob.glob(s + "/sonic/*")) > 20 for s in stages):
                    break
                if point == "commit" and any(os.path.exists(s + "/.fabc-manifest") for s in stages):
                    break
                time.sleep(0.0005)
            killed = p.poll() is None
            if killed:
                p.send_signal(sig)
            rc = p.wait()
            got = snapshot(out)
            state = "new" if got == refs[new] else "old" if got == refs[current] else "MIXED"
            left = [s for s in glob.glob(staging) if s not in before]
            tag = f"{signal.Signals(sig).name} {point}: {'killed' if killed else 'finished first'}, exit {rc}, out is the {state} build"
            if state == "MIXED" or (sig != signal.SIGKILL and left):
                failures += 1
                tag += f" FAIL (leftovers: {left})"
            hits[point] = hits.get(point, 0) + killed
            print(tag)
            if state == "new":
                current = new
    # The next build removes whatever SIGKILL left.
    assert build(fabc, b, out).wait() == 0
    left = glob.glob(staging) + glob.glob(out + "/.fabc-staging-*") + glob.glob(out + "/**/*.fabc-tmp-*", recursive=True)
    if left or snapshot(out) != refs["b"]:
        print("FAIL after the next build:", left)
        failures += 1
    print("killed at each point:", hits)
    if hits.get("early", 0) < 3 or hits.get("mid-write", 0) < 3:
        print("FAIL: too few builds were killed where intended")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
