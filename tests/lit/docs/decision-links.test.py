"""Checks the design decisions' files, index and every link to them (decision-links.test)."""
import os
import re
import sys

root = sys.argv[1]
ddir = os.path.join(root, "docs", "decisions")
errors = []

decisions = sorted(f for f in os.listdir(ddir) if re.match(r"\d{4}-[a-z0-9-]+\.md$", f))
numbers = {}
for f in decisions:
    text = open(os.path.join(ddir, f), encoding="utf-8").read()
    num = f[:4]
    if num in numbers:
        errors.append(f"{f}: number {num} also used by {numbers[num]}")
    numbers[num] = f
    if not re.match(r"# %s\. \S" % num, text):
        errors.append(f"{f}: does not start with '# {num}. Title'")
    for key in ("Date", "Status"):
        if not re.search(r"^%s: \S" % key, text, re.M):
            errors.append(f"{f}: no '{key}:' line")

    for m in re.finditer(r"\]\(#([\w-]+)\)", text):
        anchors = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                   for h in re.findall(r"^#+ (.*)$", text, re.M)}
        if m.group(1) not in anchors:
            errors.append(f"{f}: link to #{m.group(1)}, which is no heading of this file")

index = open(os.path.join(ddir, "README.md"), encoding="utf-8").read()
listed = re.findall(r"^\| \[(\d{4})\]\((\d{4}-[a-z0-9-]+\.md)\) \|", index, re.M)
seen = set()
for num, f in listed:
    if f in seen:
        errors.append(f"README.md: {f} listed twice")
    seen.add(f)
    if f[:4] != num:
        errors.append(f"README.md: row {num} links {f}")
for f in decisions:
    if f not in seen:
        errors.append(f"README.md: {f} is not in the index")

link = re.compile(r"decisions/((?:\d{4}-[A-Za-z0-9-]+|README)\.md)|design-decisions\.md")
links = 0
skip_dirs = {".git", "build", "node_modules"}
for top in ("README.md", "docs", "compiler", "backends", "tools", "tests", "bench", "stdlib",
            "examples", "scripts", "editors", "packaging"):
    path = os.path.join(root, top)
    walk = [(os.path.dirname(path), [], [os.path.basename(path)])] if os.path.isfile(path) else os.walk(path)
    for dirpath, dirnames, files in walk:
        dirnames[:] = [d for d in dirnames if d not in skip_dirs and not d.startswith("build")]
        for name in files:
            if not name.endswith((".md", ".cpp", ".h", ".def", ".py", ".test", ".txt", ".fab", ".sh", ".g4")):
                continue
            fp = os.path.join(dirpath, name)
            if os.path.abspath(fp) == os.path.abspath(__file__):
                continue
            try:
                text = open(fp, encoding="utf-8").read()
            except (UnicodeDecodeError, OSError):
                continue
            for m in link.finditer(text):
                links += 1
                where = os.path.relpath(fp, root) + ":" + str(text.count("\n", 0, m.start()) + 1)
                if m.group(1) is None:
                    errors.append(f"{where}: names docs/design-decisions.md, which is now docs/decisions/")
                elif not os.path.exists(os.path.join(ddir, m.group(1))):
                    errors.append(f"{where}: decisions/{m.group(1)} does not exist")

for e in errors:
    print("error: " + e)
print(f"{len(decisions)} decisions, {links} links, {len(errors)} broken")
sys.exit(1 if errors else 0)
