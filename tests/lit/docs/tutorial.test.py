"""Runs docs/tutorial.md: each ```fabric block becomes pod.fab, each ```console block's
`$ COMMAND` lines run in order (sh, in one scratch directory, fabc on PATH), and what
each prints (stdout and stderr) must be the lines shown under it, with the stdlib's
path shown as `.../stdlib`. Prints one line per mismatch and a count."""
import os
import re
import subprocess
import sys

doc, work, fabc, stdlib = sys.argv[1:5]
fabc_dir = os.path.dirname(os.path.abspath(fabc))
os.makedirs(work, exist_ok=True)
env = dict(os.environ, PATH=fabc_dir + os.pathsep + os.environ.get("PATH", ""))
text = open(doc, encoding="utf-8").read()
steps, bad = 0, 0
for m in re.finditer(r"^```(fabric|console)\n(.*?)^```\n", text, re.M | re.S):
    kind, body = m.group(1), m.group(2)
    if kind == "fabric":
        open(os.path.join(work, "pod.fab"), "w", encoding="utf-8").write(body)
        continue
    cmds = []
    for line in body.splitlines():
        if line.startswith("$ "):
            cmds.append([line[2:], []])
        else:
            cmds[-1][1].append(line)
    for cmd, shown in cmds:
        steps += 1
        r = subprocess.run(["sh", "-c", cmd + " 2>&1"], cwd=work, env=env, capture_output=True, text=True)
        got = r.stdout.replace(os.path.realpath(stdlib), ".../stdlib").replace(stdlib, ".../stdlib").splitlines()
        if got != shown:
            bad += 1
            print("$ %s\n--- shown\n%s\n--- printed\n%s" % (cmd, "\n".join(shown), "\n".join(got)))
print("%d commands, %d differ" % (steps, bad))
sys.exit(1 if bad or steps < 6 else 0)
