#!/usr/bin/env python3
"""Types command lines into a real interactive bash, with bash-completion loaded and
fabc's completion found by its loader, through a pseudo-terminal, presses Tab and reads
back readline's line (a key bound to print $READLINE_LINE) and what bash listed.

usage: readline_complete.py COMPLETION_FILE FABC_DIR WORKDIR LINE...
  Each LINE is typed after `cd WORKDIR`; "<TAB>" in it is a Tab key. For each, prints
  `typed: LINE`, the listing bash printed (if any) as `listed: WORD WORD ...` (sorted) and
  `line: [READLINE_LINE]`.
"""
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import termios
import fcntl
import time

TIMEOUT = 20
completion, fabc_dir, workdir = sys.argv[1:4]
lines = sys.argv[4:]

home = workdir.rstrip("/") + ".home"  # beside WORKDIR: not a directory -o would offer
os.makedirs(os.path.join(home, "share", "bash-completion", "completions"), exist_ok=True)
# bash-completion's loader looks in $XDG_DATA_HOME/bash-completion/completions: the
# completion is found the way a user's own is, on the first Tab after `fabc`.
shutil.copy(completion, os.path.join(home, "share", "bash-completion", "completions", "fabc"))

env = {
    "HOME": home,
    "XDG_DATA_HOME": os.path.join(home, "share"),
    "PATH": fabc_dir + ":/usr/bin:/bin",
    "TERM": "dumb",
    "LANG": "C.UTF-8",
    "INPUTRC": "/dev/null",
    "PS1": "$ ",
}
pid, fd = pty.fork()
if pid == 0:
    os.chdir(workdir)
    os.execve("/bin/bash", ["bash", "--noprofile", "--norc", "-i"], env)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 250, 0, 0))

buf = b""


def read_until(pattern):
    global buf
    deadline = time.time() + TIMEOUT
    while True:
        m = re.search(pattern, buf, re.S)
        if m:
            out, buf = buf[:m.end()], buf[m.end():]
            return out, m
        left = deadline - time.time()
        if left <= 0:
            sys.exit("timeout waiting for %r; got %r" % (pattern, buf[-500:]))
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                sys.exit("bash exited; got %r" % buf[-500:])
            buf += data


def send(s):
    os.write(fd, s.encode())


setup = [
    "source /usr/share/bash-completion/bash_completion",
    "bind 'set show-all-if-ambiguous on'",
    "bind 'set completion-query-items 0'",
    "bind 'set page-completions off'",
    "bind 'set bell-style none'",
    # Ctrl-X Ctrl-P prints readline's line between markers (the line stays as it was).
    "bind -x '\"\\C-x\\C-p\": printf \"@@LINE[%s]@@\\n\" \"$READLINE_LINE\"'",
    "echo @@READY@@",
]
for c in setup:
    send(c + "\n")
# Keys typed before readline has put the terminal in raw mode are echoed by the tty's
# line discipline too (CI saw "--diag --diag ... ^X^P"). readline preps the terminal
# before it draws the prompt, so the prompt after @@READY@@ says it is listening.
read_until(rb"\r?\n@@READY@@\r?\n(?=.*?\$ )")  # the prompt stays: rows from it are the typed line

for line in lines:
    keys = line.replace("<TAB>", "\t")
    send(keys + "\x18\x10")
    out, m = read_until(rb"@@LINE\[(.*?)\]@@")
    text = out.decode("utf-8", "replace").replace("\r", "")
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
    print("typed: " + line)
    # What bash listed: the lines between the typed line and the redrawn prompt.
    # (Rows starting with the prompt are the line as typed and redrawn.)
    listed = []
    for row in text.split("\n"):
        if not row.startswith("$") and "@@LINE[" not in row:
            listed += row.split()
    if listed:
        print("listed: " + " ".join(sorted(listed)))
    print("line: [" + m.group(1).decode() + "]")
    send("\x15")  # Ctrl-U: the line is discarded

send("exit\n")
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass
