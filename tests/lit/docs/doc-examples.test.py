"""Compiles every ```fabric block of the given Markdown files (docs/*.md, README.md).

A block is one of three things, said by comment lines in it (docs/decisions/0050-examples-in-the-docs-are-compiled.md,
"Examples in the docs are compiled"):
  - clean: no marker; `fabc check` prints no diagnostic at all and exits 0;
  - a demonstration: one or more `// expect: FAB-CODE [FAB-CODE...] [with ARGS]` lines;
    `fabc check [ARGS]` prints exactly those codes (each at least once, no other code);
    where the page shows the message it produces (a "**Message.**" block right after
    the example, or the first ``` block after it within the section), each
    `error:`/`warning:` line shown there must be printed word for word (the file name
    aside), so a shown message cannot go stale either;
  - a fragment: a `// fragment` line; statements of a fabric body, parsed (inside a
    `fabric fragment { ... }`) and checked for syntax only, since they use names the
    page declares elsewhere.
Prints one line per failing block and a count; exits 1 on a failure.
"""
import os
import re
import subprocess
import sys

out, fabc, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
FENCE = re.compile(r"^```fabric\n(.*?)^```\n", re.M | re.S)
# `// expect: FAB-E0042 FAB-W0100 with --emit=sonic (why)`: codes, then the options
# `fabc check` needs to produce them, then an optional word to the reader in parentheses.
EXPECT = re.compile(r"//\s*expect:\s*((?:FAB-[EW]\d{4}[ ,]*)+)(?:with ([^(]*))?(?:\(.*\))?\s*$", re.M)
DIAG = re.compile(r"^\S+?:(\d+:\d+: (?:error|warning): .*)$|^fabc: ((?:error|warning): .*)$")

n = {"clean": 0, "demonstration": 0, "fragment": 0}
failed = []


def shown_message(text, end):
    """The message block the page shows for the example ending at `end`: the first ```
    block after it, before the next example or section heading."""
    rest = text[end:]
    stop = min([m.start() for m in (re.search(r"^```fabric", rest, re.M), re.search(r"^#", rest, re.M)) if m] +
               [len(rest)])
    m = re.search(r"^```\n(.*?)^```", rest[:stop], re.M | re.S)
    if not m:
        return []
    lines = []
    for line in m.group(1).splitlines():
        d = DIAG.match(line)
        if d:
            lines.append(d.group(1) or d.group(2))
    return lines


def printed(stderr):
    lines = []
    for line in stderr.splitlines():
        d = DIAG.match(line)
        if d:
            lines.append(d.group(1) or d.group(2))
    return lines


for doc in docs:
    text = open(doc, encoding="utf-8").read()
    name = os.path.basename(doc)
    for i, m in enumerate(FENCE.finditer(text)):
        block = m.group(1)
        line = text[:m.start()].count("\n") + 2
        where = "%s:%d" % (os.path.relpath(doc), line)
        path = os.path.join(out, "%s.%d.fab" % (name, i))
        if re.search(r"^\s*//\s*fragment\b", block, re.M):
            n["fragment"] += 1
            open(path, "w", encoding="utf-8").write("fabric fragment {\n" + block + "}\n")
            r = subprocess.run([fabc, "fmt", path], capture_output=True, text=True)
            if r.returncode != 0:
                failed.append((where, "fragment does not parse:\n" + r.stderr))
            continue
        open(path, "w", encoding="utf-8").write(block)
        want, args = set(), []
        for e in EXPECT.finditer(block):
            want |= set(re.findall(r"FAB-[EW]\d{4}", e.group(1)))
            if e.group(2):
                args += e.group(2).split()
        r = subprocess.run([fabc, "check"] + args + [path], capture_output=True, text=True)
        got = set(re.findall(r"\[(FAB-[EW]\d{4})\]", r.stderr))
        n["demonstration" if want else "clean"] += 1
        if got != want or (r.returncode != 0) != any(c.startswith("FAB-E") for c in want):
            failed.append((where, "expected %s, got %s (exit %d):\n%s" %
                           (" ".join(sorted(want)) or "no diagnostic", " ".join(sorted(got)) or "none",
                            r.returncode, r.stderr)))
            continue
        if want:
            have = printed(r.stderr)
            for shown in shown_message(text, m.end()):
                if shown not in have:
                    failed.append((where, "the page shows\n  %s\nbut fabc prints\n  %s" % (shown, "\n  ".join(have))))
                    break

for where, why in failed:
    print("%s: %s" % (where, why))
print("%d clean, %d demonstrations, %d fragments, %d failed" %
      (n["clean"], n["demonstration"], n["fragment"], len(failed)))
sys.exit(1 if failed or sum(n.values()) < 100 else 0)
