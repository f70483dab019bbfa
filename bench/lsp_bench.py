#!/usr/bin/env python3
"""Language server bench: `fabc lsp` on a bench design, driven like an editor.

Measures (docs/lsp.md, README "Benchmarks"):
  - open: didOpen to the first publishDiagnostics;
  - edit latency: an edit (didChange, incremental) to the publishDiagnostics of that
    version, for edits of a clean design that change a value nothing reads (a digit of a
    top-level `let` no statement names: the server reuses the last check, docs/decisions/
    0621), edits that change what the fabric reads (a digit of `option
    default_cable_length` and of `option cable_slack`: the one that changes this design's
    lengths runs every pass, the first compiled in full, the next ones on the elaboration
    the server then keeps, docs/decisions/0622, and the other stops once the lengths come
    out the same, 0623; and a digit of the design's `policy power` budget when it has one:
    only the checks run again, 0623), edits that break and fix the design (a unit
    error in that `let`), and characters typed into a comment (no token changes: the
    server publishes the last check's diagnostics, mapped, without compiling); the
    server's quiet period (debounce) is included;
  - requests right after an edit: hover, definition, documentSymbol and completion sent
    at once after a didChange, while the server compiles, each timed from its send to
    the last byte of its answer (the client's own JSON parse of it is timed apart:
    Python's takes 50-90 ms for the 1.6 MB outline of a 100k-link file, a cost of the
    client, not of the server);
  - memory over a long session: 10,000 edits (one character each, a digit of the
    lengths' option that changes this design's lengths: each burst runs every pass, in bursts of 100, each burst then waiting for its diagnostics), the server's
    resident memory (VmRSS) after every burst: bounded means the last is the first.

The design: gen_gb200.py GPUS (loops and templates: a few hundred lines at any size), or
with --flat LINKS gen_flat.py LINKS (an explicit file, every device and link a line).
The diagnostics waited for are the full check's: a clean design publishes once an edit
(docs/lsp.md, "Threading").

usage: bench/lsp_bench.py [--fabc build-rel/tools/fabc/fabc] [--gpus 10080 | --flat 100000] [--edits 10000]
"""
import argparse
import json
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class Client:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.buf = b""
        self.next_id = 1
        self.backlog = []

    def send(self, obj):
        body = json.dumps(obj).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == i and "method" not in m)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    timeout = 120

    def read(self, timeout=None):
        deadline = time.time() + (timeout or self.timeout)
        fd = self.p.stdout.fileno()
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end >= 0:
                n = int(re.search(rb"Content-Length: *(\d+)", self.buf[:end]).group(1))
                if len(self.buf) >= end + 4 + n:
                    arrived = time.perf_counter()
                    body, self.buf = self.buf[end + 4:end + 4 + n], self.buf[end + 4 + n:]
                    m = json.loads(body)
                    if isinstance(m, dict):
                        m["_arrived"], m["_parsed"] = arrived, time.perf_counter()
                    return m
            r, _, _ = select.select([fd], [], [], max(0.0, deadline - time.time()))
            if not r:
                raise SystemExit("lsp_bench: timed out")
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise SystemExit("lsp_bench: the server exited")
            self.buf += chunk

    def wait(self, pred):
        # Publishes another wait may be after (one that arrives while a request is
        # answered) are kept, the older ones dropped once one of them is taken.
        for i, m in enumerate(self.backlog):
            if pred(m):
                del self.backlog[:i + 1]
                return m
        while True:
            m = self.read()
            if pred(m):
                return m
            if m.get("method") == "textDocument/publishDiagnostics":
                self.backlog = self.backlog[-1000:] + [m]

    def diagnostics(self, version):
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"].get("version") == version)

    def rss_kib(self):
        with open(f"/proc/{self.p.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fabc", default=os.path.join(ROOT, "build-rel", "tools", "fabc", "fabc"))
    ap.add_argument("--gpus", type=int, default=10080)
    ap.add_argument("--flat", type=int, help="links of an explicit file (gen_flat.py) instead of --gpus")
    ap.add_argument("--label", help="the row's name (default: lsp-10k, lsp-1m, lsp-flat-100k, ...)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds to wait for a message")
    ap.add_argument("--edits", type=int, default=10000, help="edits of the memory session")
    ap.add_argument("--samples", type=int, default=40, help="timed edits of each kind")
    ap.add_argument("--request-samples", type=int, default=20,
                    help="edits each followed at once by hover, definition, documentSymbol and completion")
    ap.add_argument("--debounce", type=int, help="the server's quiet period in ms (default: the server's, 25)")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--init-option", action="append", default=[], metavar="KEY=JSON",
                    help="an initializationOptions entry (keepElaboration=false: the server "
                         "without its kept elaboration); repeatable")
    a = ap.parse_args()
    if not os.access(a.fabc, os.X_OK):
        raise SystemExit(f"lsp_bench: no fabc at {a.fabc}")
    work = a.work or tempfile.mkdtemp(prefix="fabc-lsp-bench-")
    path = os.path.join(work, "design.fab")
    if a.flat:
        subprocess.run([sys.executable, os.path.join(HERE, "fabrics", "gen_flat.py"), str(a.flat), "-o", path],
                       check=True)
    else:
        subprocess.run([sys.executable, os.path.join(HERE, "fabrics", "gen_gb200.py"), str(a.gpus), "-o", path],
                       check=True)

    def short(n):
        return f"{n // 1000000}m" if n >= 1000000 else f"{n // 1000}k"
    label = a.label or (f"lsp-flat-{short(a.flat)}" if a.flat else f"lsp-{short(a.gpus)}")
    Client.timeout = a.timeout
    text = open(path).read()
    lines = text.split("\n")
    uri = "file://" + path

    load_before = os.getloadavg()[0]
    c = Client([a.fabc, "lsp"])
    init = {"rootUri": None, "capabilities": {}}
    init_options = {}
    if a.debounce is not None:
        init_options["debounceMs"] = a.debounce
    for kv in a.init_option:
        key, _, value = kv.partition("=")
        init_options[key] = json.loads(value)
    if init_options:
        init["initializationOptions"] = init_options
    c.request("initialize", init)
    c.notify("initialized", {})
    t0 = time.perf_counter()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "fabric", "version": 1,
                                                       "text": text}})
    first = c.diagnostics(1)
    open_s = time.perf_counter() - t0
    if first["params"]["diagnostics"]:
        raise SystemExit("lsp_bench: the design has diagnostics: %s" % first["params"]["diagnostics"][0])
    version = 1
    # Two lines at the end: a `let` whose unit is broken and fixed, and a comment typed into.
    end_line = text.count("\n") if text.endswith("\n") else text.count("\n") + 1
    prefix = "" if text.endswith("\n") else "\n"
    ok_let, bad_let = "let bench_len = 2 km;", "let bench_len = 2 km + 5 W;"
    digit_col = ok_let.index("2")
    # Read by the lengths: the default length of every link without a length or
    # placement (the explicit file's are all such; the loop design's are all placed, so
    # its lengths come out the same and the server stops there: docs/decisions/0623), and
    # the slack every placed link adds (the loop design's every link; none of the explicit
    # file's). 1 m is the slack's default.
    option = "option default_cable_length = 3 m;"
    option_col = option.index("3")
    slack = "option cable_slack = 1 m;"
    slack_col = slack.index("1")
    version += 1
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
        {"range": {"start": {"line": end_line, "character": 0}, "end": {"line": end_line, "character": 0}},
         "text": prefix + ok_let + "\n" + option + "\n" + slack + "\n// "}]})
    c.diagnostics(version)
    let_line = end_line + (1 if prefix else 0)
    option_line = let_line + 1
    slack_line = let_line + 2
    comment_line, col = let_line + 3, 3

    def type_char(ch="x"):
        nonlocal version, col
        version += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": comment_line, "character": col},
                       "end": {"line": comment_line, "character": col}}, "text": ch}]})
        col += 1
        return version

    def replace_char(line, col, text):
        nonlocal version
        version += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}},
             "text": text}]})
        return version

    digit = 2

    def change_value():
        # A digit of the let's value replaced by another (2 km, 3 km, ...): every token
        # but one the same, the value changed, but no statement reads the let, so the
        # server reuses the last check (docs/decisions/0621).
        nonlocal digit
        digit = digit % 9 + 1
        return replace_char(let_line, digit_col, str(digit))

    metres = 3

    def change_option():
        # A digit of the default length (3 m, 4 m, ... 9 m).
        nonlocal metres
        metres = metres % 7 + 3
        return replace_char(option_line, option_col, str(metres))

    slack_m = 1

    def change_slack():
        # A digit of the slack (2 m, 3 m, ... 9 m, 1 m).
        nonlocal slack_m
        slack_m = slack_m % 9 + 1
        return replace_char(slack_line, slack_col, str(slack_m))

    # The one of the two that changes this design's lengths: every pass runs again (on
    # the kept elaboration, docs/decisions/0622). The requests and the memory session use it.
    change_lengths = change_option if a.flat else change_slack

    def progress(what):
        print(f"lsp_bench: {time.perf_counter() - t0:.1f} s: {what}", file=sys.stderr, flush=True)
    progress("opened")

    def timed_clean_edits(edit, what):
        # Each edit, then that version's diagnostics (none: the design stays clean).
        times = []
        for _ in range(a.samples):
            t = time.perf_counter()
            d = c.diagnostics(edit())
            times.append(time.perf_counter() - t)
            assert not d["params"]["diagnostics"]
        progress(what + " done")
        return times
    clean = timed_clean_edits(change_value, "clean edits")
    default_len = timed_clean_edits(change_option, "default length edits")
    slack_len = timed_clean_edits(change_slack, "slack edits")
    compiled = default_len if a.flat else slack_len
    # A digit of the fabric's power budget (130 kW, 140 kW, ... 190 kW: never below what
    # a rack draws), when the design has one: the passes run again on the kept
    # elaboration (docs/decisions/0622), the first edit compiled in full.
    policy_line = next((i for i, l in enumerate(lines) if l.startswith("  policy power { max = 1")), None)
    budget = 3

    def change_policy():
        nonlocal budget
        budget = budget % 7 + 3
        return replace_char(policy_line, lines[policy_line].index("max = 1") + 7, str(budget))
    policy = timed_clean_edits(change_policy, "policy edits") if policy_line is not None else []
    comment = timed_clean_edits(type_char, "comment edits")
    # Break and fix: the let's unit error (2 km + 5 W), then back.
    broken = []
    for k in range(a.samples):
        version += 1
        bad = k % 2 == 0
        old, new = (ok_let, bad_let) if bad else (bad_let, ok_let)
        change = {"range": {"start": {"line": let_line, "character": 0},
                            "end": {"line": let_line, "character": len(old)}}, "text": new}
        t = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                            "contentChanges": [change]})
        d = c.diagnostics(version)
        broken.append(time.perf_counter() - t)
        codes = [x["code"] for x in d["params"]["diagnostics"]]
        if bad != ("FAB-E0025" in codes):
            raise SystemExit(f"lsp_bench: unexpected diagnostics after edit {k}: {codes}")
    if broken and a.samples % 2:
        raise SystemExit("lsp_bench: --samples must be even")
    progress("break/fix edits done")
    # Requests while a check runs: an edit, then at once hover, definition, document
    # symbols and completion (the server answers from the edit's parse while the check
    # of it, or the cancellation of the one before, goes on), each timed from its send
    # to its answer; then that edit's diagnostics.
    m = re.search(r"^\s*(\w+)(\[[^\]]*\])?\s*:\s*([A-Z]\w*)", text, re.M)
    model_line = text.count("\n", 0, m.start(3))
    model_col = m.start(3) - (text.rfind("\n", 0, m.start(3)) + 1)
    doc = {"uri": uri}
    at_model = {"textDocument": doc, "position": {"line": model_line, "character": model_col}}
    in_let = {"textDocument": doc, "position": {"line": let_line, "character": len("let bench_len = ")}}
    requests = {"hover": [], "definition": [], "documentSymbol": [], "completion": []}
    client_parse = []
    for _ in range(a.request_samples):
        v = change_lengths()
        for method, params in (("hover", at_model), ("definition", at_model),
                               ("documentSymbol", {"textDocument": doc}), ("completion", in_let)):
            t = time.perf_counter()
            r = c.request("textDocument/" + method, params)
            requests[method].append(r["_arrived"] - t)
            client_parse.append(r["_parsed"] - r["_arrived"])
            if "error" in r or r.get("result") in (None, []):
                raise SystemExit(f"lsp_bench: {method} answered {str(r)[:300]}")
        c.diagnostics(v)
    all_requests = [x for xs in requests.values() for x in xs]
    progress("requests done")
    # Memory: bursts of 100 one-character edits, then that burst's diagnostics.
    rss = [c.rss_kib()]
    burst = 100
    t = time.perf_counter()
    done = 0
    while done < a.edits:
        for _ in range(min(burst, a.edits - done)):
            v = change_lengths()
            done += 1
        c.diagnostics(v)
        rss.append(c.rss_kib())
    session_s = time.perf_counter() - t
    c.request("shutdown", None)
    c.notify("exit", None)
    c.p.wait(timeout=30)

    def ms(xs, q):
        xs = sorted(xs)
        return 1000 * xs[min(len(xs) - 1, int(q * len(xs)))]
    size = f"{a.flat:,} links" if a.flat else f"{a.gpus:,} GPUs"
    print(f"design: {size}, {len(text):,} bytes ({path}); load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after")
    print(f"open: {1000 * open_s:.0f} ms to the first diagnostics")
    for name, xs in (("edit, clean design (a value nothing reads: the check reused)", clean),
                     ("edit, clean design (option default_cable_length"
                      + (": every link takes it)" if a.flat else ": no link takes it, the lengths the same)"), default_len),
                     ("edit, clean design (option cable_slack"
                      + (": no link adds it, the lengths the same)" if a.flat else ": every link adds it)"), slack_len),
                     ("edit, clean design (a policy's number)", policy),
                     ("edit, break/fix (FAB-E0025)", broken),
                     ("edit, a comment typed (not compiled)", comment)):
        if not xs:
            continue
        print(f"{name}: median {ms(xs, 0.5):.0f} ms, p90 {ms(xs, 0.9):.0f} ms, max {ms(xs, 1.0):.0f} ms "
              f"({len(xs)} edits, debounce included)")
    for name, xs in list(requests.items()) + [("requests, all", all_requests)]:
        if xs:
            print(f"{name} right after an edit: median {ms(xs, 0.5):.0f} ms, p90 {ms(xs, 0.9):.0f} ms, "
                  f"max {ms(xs, 1.0):.0f} ms ({len(xs)} requests)")
    if client_parse:
        print(f"the client's JSON parse of those answers (not in their times): median "
              f"{ms(client_parse, 0.5):.0f} ms, max {ms(client_parse, 1.0):.0f} ms")
    print(f"memory: {a.edits:,} edits in {session_s:.1f} s; VmRSS after open {rss[0] / 1024:.0f} MiB, "
          f"after the first burst {rss[1] / 1024:.0f} MiB, max {max(rss) / 1024:.0f} MiB, "
          f"last {rss[-1] / 1024:.0f} MiB")
    print(f"| {label} | {size} | {1000 * open_s:.0f} ms | {ms(clean, 0.5):.0f} / {ms(clean, 0.9):.0f} ms | "
          f"{ms(compiled, 0.5):.0f} / {ms(compiled, 0.9):.0f} ms | "
          f"{ms(broken, 0.5):.0f} / {ms(broken, 0.9):.0f} ms | {ms(comment, 0.5):.0f} / {ms(comment, 0.9):.0f} ms | "
          + (f"{ms(all_requests, 0.5):.0f} / {ms(all_requests, 0.9):.0f} ms | " if all_requests else "- | ")
          + f"{a.edits:,} | {rss[1] / 1024:.0f} MiB | "
          f"{max(rss) / 1024:.0f} MiB | {rss[-1] / 1024:.0f} MiB |")


if __name__ == "__main__":
    main()
