#!/usr/bin/env python3
"""DiagCodes.def, `fabc explain --list`, `fabc explain CODE` and docs/diagnostics.md agree:
every code has a `## FAB-CODE: SUMMARY` section (with its <a id="fab-code"></a> anchor,
which `fabc explain` points to), and the docs describe no code that does not exist.

usage: check_codes.py FABC LIST DIAGCODES_DEF DIAGNOSTICS_MD
"""
import re
import subprocess
import sys

fabc, listing, defs, docs = sys.argv[1:5]
problems = []

listed = []
for line in open(listing):
    code, sev, summary = line.rstrip("\n").split(None, 2)
    listed.append((code, sev, summary))

defined = []
for m in re.finditer(r'^DIAG\((\w+), (Error|Warning), "((?:[^"\\]|\\.)*)"', open(defs).read(), re.M):
    defined.append(("FAB-" + m.group(1), m.group(2).lower(), m.group(3).replace('\\"', '"')))
if listed != defined:
    problems.append("explain --list differs from DiagCodes.def")

text = open(docs).read().split("\n")
headings = {}
for i, line in enumerate(text):
    m = re.match(r"^## (FAB-[EW]\d{4}): (.*)$", line)
    if m:
        anchor = text[i - 1] if i else ""
        headings[m.group(1)] = (m.group(2).strip(), anchor)

for code, sev, summary in defined:
    if code not in headings:
        problems.append(f"{code}: no '## {code}: {summary}' section in docs/diagnostics.md")
        continue
    title, anchor = headings[code]
    if title != summary:
        problems.append(f"{code}: docs heading says '{title}', DiagCodes.def '{summary}'")
    if anchor != f'<a id="{code.lower()}"></a>':
        problems.append(f"{code}: no <a id=\"{code.lower()}\"></a> anchor before its heading")
    r = subprocess.run([fabc, "explain", code], capture_output=True, text=True)
    first = r.stdout.split("\n", 1)[0]
    if r.returncode != 0 or first != f"{code} ({sev}): {summary}" or f"docs/diagnostics.md#{code.lower()}" not in r.stdout:
        problems.append(f"{code}: fabc explain prints '{first}' (exit {r.returncode})")
for code in headings:
    if code not in {c for c, _, _ in defined}:
        problems.append(f"{code}: documented but not in DiagCodes.def")

for p in problems:
    print("FAIL", p)
print(f"{len(defined)} codes, {len(headings)} documented, {len(problems)} problems")
sys.exit(1 if problems else 0)
