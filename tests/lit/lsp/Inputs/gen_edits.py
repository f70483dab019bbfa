#!/usr/bin/env python3
"""Writes an lsp_session.py script for robust-edits.test: a document of N lets, a
replace-all as an editor sends it (N ranged changes in one didChange, last first), and
hovers that show the text the server holds afterwards."""
import json
import sys

N = int(sys.argv[1])
uri = sys.argv[2]
text = "fabric f {\n" + "".join("  let v%d = 1;\n" % i for i in range(N)) + "}\n"
changes = []
for i in reversed(range(N)):
    col = len("  let v%d = " % i)
    changes.append({"range": {"start": {"line": i + 1, "character": col}, "end": {"line": i + 1, "character": col + 1}},
                    "text": "22"})
msgs = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"capabilities": {}, "initializationOptions": {"debounceMs": 10000, "afterPauseMs": 10000}}},
    {"jsonrpc": "2.0", "method": "textDocument/didOpen",
     "params": {"textDocument": {"uri": uri, "languageId": "fabric", "version": 1, "text": text}}},
    {"jsonrpc": "2.0", "method": "textDocument/didChange",
     "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}},
    # The same in document order: each position is after the previous change.
    {"jsonrpc": "2.0", "method": "textDocument/didChange",
     "params": {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
         {"range": {"start": {"line": i + 1, "character": len("  let v%d = " % i)},
                    "end": {"line": i + 1, "character": len("  let v%d = " % i) + 2}}, "text": "333"}
         for i in range(N)]}},
]
for line in (1, N // 2, N):
    msgs.append({"jsonrpc": "2.0", "id": 10 + line, "method": "textDocument/hover",
                 "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": 7}}})
msgs.append({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
msgs.append({"jsonrpc": "2.0", "method": "exit"})
for m in msgs:
    print("SEND " + json.dumps(m))
