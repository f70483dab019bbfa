#!/usr/bin/env python3
"""Types a command line and Tab into a real interactive bash (on a pseudo-terminal, so
readline completes as it does for a user) and prints the line as bash shows it after the
Tab (and, with a second Tab, the list of candidates), without the terminal's escapes.

usage: complete_bash.py SETUP 'fabc check --diag' [TABS]
  SETUP: shell code run first (e.g. sourcing bash-completion and/or the completion script).
"""
import os
import pty
import re
import select
import sys
import time

setup, line = sys.argv[1], sys.argv[2]
tabs = int(sys.argv[3]) if len(sys.argv) > 3 else 1

pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ, TERM="dumb", PS1="> ", INPUTRC="/dev/null", HISTFILE="/dev/null")
    os.execvpe("bash", ["bash", "--norc", "--noprofile", "-i"], env)


def read_until(pattern, timeout=30):
    out = b""
    deadline = time.time() + timeout
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            out += chunk
            if re.search(pattern, out):
                return out
        elif pattern is None and out:
            return out
    return out


def clean(b):
    s = b.decode("utf-8", "replace")
    s = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", s)
    return s.replace("\r", "")


os.write(fd, (setup + "; bind 'set show-all-if-ambiguous off'; bind 'set bell-style none'; echo RE''ADY\n").encode())
read_until(rb"READY\r?\n> ")
os.write(fd, line.encode() + b"\t" * tabs)
time.sleep(1.5)
out = read_until(None, timeout=3)
print(clean(out))
os.write(fd, b"\x03exit\n")
try:
    os.waitpid(pid, 0)
except OSError:
    pass
