#!/usr/bin/env python3
"""Writes the inputs of interactive.test and storm.test into DIR (outside Inputs/, so
that the other sessions' workspace does not see them):

  slow.fab        a loop of 10^10 statements: elaboration runs until a limit or a cancel
  a.fab -> b.fab -> c.fab -> a.fab   a document that imports itself through a chain
  clean.fab       a small clean design
  storm.script    a session of 1,000 edits sent without waiting (lsp_session.py)
"""
import json
import os
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)


def write(name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


SLOW = """model Box : switch { port p[2] { speed = 100 Gb/s; } }
fabric slow {
  for i in 0..100000 {
    for j in 0..100000 {
      let x = i + j;
    }
  }
  b : Box;
}
"""
CLEAN = """model Box : switch { port p[2] { speed = 100 Gb/s; } }
// a comment the edits type into:
fabric clean {
  a : Box;
  b : Box;
  link a.p[0] -- b.p[0];
}
"""
write("slow.fab", SLOW)
write("clean.fab", CLEAN)
write("a.fab", 'import "b.fab";\nfabric a { }\n')
write("b.fab", 'import "c.fab";\n')
write("c.fab", 'import "a.fab";\n')

# The storm: 1,000 single-character edits typed into clean.fab's comment, back to back.
uri = "file://" + os.path.abspath(os.path.join(d, "clean.fab"))
lines = []
send = lambda o: lines.append("SEND " + json.dumps(o, separators=(",", ":")))
send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"capabilities": {}, "initializationOptions": {"debounceMs": 10000}}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
      "params": {"textDocument": {"uri": uri, "languageId": "fabric", "version": 1, "text": CLEAN}}})
lines.append("WAIT diagnostics 1")
# In one write, as an editor's burst arrives: sent one by one, a pause of a few
# milliseconds after the first (the writer preempted on a loaded machine) would make it
# an edit after a pause, which the server compiles at once (docs/lsp.md, "Threading").
storm = b""
for v in range(2, 1002):
    col = len("// a comment the edits type into:") + v - 2
    body = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange",
                       "params": {"textDocument": {"uri": uri, "version": v},
                                  "contentChanges": [{"range": {"start": {"line": 1, "character": col},
                                                                "end": {"line": 1, "character": col}},
                                                      "text": "x"}]}}, separators=(",", ":")).encode()
    storm += b"Content-Length: %d\r\n\r\n" % len(body) + body
lines.append("RAW " + storm.decode().replace("\r\n", "\\r\\n"))
send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
      "params": {"textDocument": {"uri": uri}}})
lines.append("WAIT diagnostics 1001")
send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
send({"jsonrpc": "2.0", "method": "exit"})
write("storm.script", "\n".join(lines) + "\n")
