#!/usr/bin/env python3
"""Drives `fabc lsp` through a scripted JSON-RPC session and prints what it answers,
one message a line (keys sorted), for FileCheck.

usage: lsp_session.py FABC SCRIPT [INPUTS_DIR] [-- extra fabc lsp arguments]

Script lines (others, e.g. RUN/CHECK comments, are ignored):
  SEND {json}      frame and send a message; a request (id and method) waits for its
                   response, printing every message that arrives before it
  RAW  text        send bytes as written (Python escapes: \\r\\n, \\x00), without framing
  WAIT diagnostics wait for the next textDocument/publishDiagnostics
  WAIT diagnostics N [CODE] [xK]  wait for a publishDiagnostics of version N (with a
                   diagnostic of CODE) unless one was printed already: the server publishes
                   from its compile thread, so it may come before the response to a
                   request sent after the edit, and a version may publish twice (the
                   diagnostics from before elaboration, then the check's). With xK, wait
                   until K such publishes were printed in all
  WAIT message     wait for the next message of any kind
  RM NAME          delete INPUTS_DIR/NAME (a file that vanishes)
  CLOSE            close the server's stdin (end of input)
  TIMEOUT S        wait at most S seconds for each message from here on (default 30): a
                   bound far from what is waited for (a quiet period of 10 s), never a
                   measurement
In SEND and RAW, ${uri:NAME} is the file URI of INPUTS_DIR/NAME, ${text:NAME} that
file's text as a JSON string body (no quotes), ${root} the URI of INPUTS_DIR.
At the end the script closes stdin if it has not, waits for the server and prints
"exit N".
"""
import json
import os
import re
import select
import subprocess
import sys
import time
import urllib.parse

TIMEOUT = 30.0


def uri(path):
    return "file://" + urllib.parse.quote(os.path.abspath(path))


class Session:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""
        self.closed = False
        self.published = []  # the params of the publishDiagnostics printed

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj_text):
        body = obj_text.encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def read_message(self, timeout=None):
        """The next message, or None at end of output."""
        deadline = time.time() + (TIMEOUT if timeout is None else timeout)
        fd = self.proc.stdout.fileno()
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end >= 0:
                m = re.search(rb"Content-Length: *(\d+)", self.buf[:end])
                if not m:
                    raise SystemExit("lsp_session: a message without Content-Length: %r" % self.buf[:end])
                n = int(m.group(1))
                if len(self.buf) >= end + 4 + n:
                    body = self.buf[end + 4:end + 4 + n]
                    self.buf = self.buf[end + 4 + n:]
                    return json.loads(body.decode("utf-8"))
            left = deadline - time.time()
            if left <= 0:
                raise SystemExit("lsp_session: timed out waiting for the server")
            r, _, _ = select.select([fd], [], [], left)
            if not r:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buf += chunk

    def wait(self, pred):
        while True:
            m = self.read_message()
            if m is None:
                raise SystemExit("lsp_session: the server ended while a response was expected")
            print(json.dumps(m, sort_keys=True))
            sys.stdout.flush()
            if m.get("method") == "textDocument/publishDiagnostics":
                self.published.append(m.get("params", {}))
            if pred(m):
                return m


def main():
    global TIMEOUT
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        i = args.index("--")
        args, extra = args[:i], args[i + 1:]
    fabc, script = args[0], args[1]
    inputs = os.path.abspath(args[2]) if len(args) > 2 else os.path.dirname(os.path.abspath(script))

    def subst(s):
        s = s.replace("${root}", uri(inputs))
        s = re.sub(r"\$\{uri:([^}]*)\}", lambda m: uri(os.path.join(inputs, m.group(1))), s)
        def text(m):
            with open(os.path.join(inputs, m.group(1)), encoding="utf-8") as f:
                return json.dumps(f.read())[1:-1]
        return re.sub(r"\$\{text:([^}]*)\}", text, s)

    sess = Session([fabc, "lsp"] + extra)
    for line in open(script, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("SEND "):
            body = subst(line[5:])
            msg = json.loads(body)
            sess.send(body)
            if isinstance(msg, dict) and isinstance(msg.get("id"), (int, str)) and "method" in msg:
                sess.wait(lambda m, i=msg["id"]: m.get("id") == i and "method" not in m)
        elif line.startswith("RAW "):
            sess.send_raw(subst(line[4:]).encode("utf-8").decode("unicode_escape").encode("latin-1"))
        elif line.startswith("WAIT diagnostics "):
            words = line.split()
            count = 1
            if re.fullmatch(r"x[0-9]+", words[-1]):
                count = int(words.pop()[1:])
            v, code = int(words[2]), (words[3] if len(words) > 3 else None)

            def match(p, v=v, code=code):
                return p.get("version") == v and (
                    code is None or any(d.get("code") == code for d in p.get("diagnostics", [])))
            while sum(1 for p in sess.published if match(p)) < count:
                sess.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and match(m.get("params", {})))
        elif line == "WAIT diagnostics":
            sess.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        elif line == "WAIT message":
            sess.wait(lambda m: True)
        elif line.startswith("RM "):
            os.remove(os.path.join(inputs, line[3:].strip()))
        elif line.startswith("TIMEOUT "):
            TIMEOUT = float(line.split()[1])
        elif line == "CLOSE":
            sess.proc.stdin.close()
            sess.closed = True
    if not sess.closed:
        sess.proc.stdin.close()
    while True:
        m = sess.read_message()
        if m is None:
            break
        print(json.dumps(m, sort_keys=True))
    print("exit %d" % sess.proc.wait(timeout=TIMEOUT))


if __name__ == "__main__":
    main()
