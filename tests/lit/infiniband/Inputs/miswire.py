#!/usr/bin/env python3
"""Swaps the cables of two ports of a switch in an ibnetdiscover-format net file, at both
ends, so that the file stays consistent (ibsim accepts it) but no longer matches the
design: a deliberately miswired fabric.

  miswire.py NET "SWITCH DESCRIPTION" PORT_A PORT_B > MISWIRED
"""
import re
import sys

net, switch, a, b = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
lines = open(net).read().split("\n")
head = re.compile(r'^Switch\s+\d+\s+"(S-[0-9a-f]+)"\s+#\s+"([^"]*)"')
guid, start = None, None
for i, l in enumerate(lines):
    m = head.match(l)
    if m and m.group(2) == switch:
        guid, start = m.group(1), i
if guid is None:
    sys.exit(f"miswire: no switch '{switch}'")
end = start + 1
while end < len(lines) and lines[end].startswith("["):
    end += 1
port = {}
for i in range(start + 1, end):
    n = re.match(r"\[(\d+)\]", lines[i]).group(1)
    port[n] = i
ia, ib = port[a], port[b]
rest = lambda l: l[l.index("]") + 1:]
lines[ia], lines[ib] = f"[{a}]" + rest(lines[ib]), f"[{b}]" + rest(lines[ia])
# The back-references at the peers: "S-guid"[a] <-> "S-guid"[b].
swap = {f'"{guid}"[{a}]': f'"{guid}"[{b}]', f'"{guid}"[{b}]': f'"{guid}"[{a}]'}
pat = re.compile(re.escape(f'"{guid}"') + r"\[(?:%s|%s)\]" % (a, b))
for i, l in enumerate(lines):
    if start <= i < end:
        continue
    lines[i] = pat.sub(lambda m: swap[m.group(0)], l)
sys.stdout.write("\n".join(lines))
