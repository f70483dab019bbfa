#!/usr/bin/env python3
"""Checks a generated ptm/topology.dot or cvt/topology.dot against the other outputs.

    check_dot.py ptm|cvt DOT EDGES WIRING_CSV PLAN_CSV

DOT is the file; EDGES what Graphviz parsed from it (gvpr printing `tail:tailport --
head:headport` per edge), so every edge counted here went through Graphviz's parser.
The format, line by line: PTM's (CumulusNetworks/ptm topology.dot.sample: `graph G {`,
edges `"host":"port" -- "host":"port";`, lines shorter than ptmd's 1024-byte buffer) or
the cable validation tool's (`graph network {`, a node line `"sw" [label="sw"
role="leaf|spine|super_spine" os="cumulus"]` per switch, edges without `;`, a switch
first). Then the content: the switch-to-switch edges are exactly frr/wiring.csv's
(the same host names and swp names), and every cable of cabling/plan.csv is one edge,
its server end named by the host-name rule ("pod[0].node[1]" cx[2] -> pod0-node1 cx2).
Prints a summary line; exits 1 with the reasons otherwise.
"""
import collections
import csv
import re
import sys

mode, dot, edges_file, wiring, plan = sys.argv[1:6]
errors = []
Q = r'"([a-z0-9-]+)"'
EDGE = re.compile(rf'^  {Q}:{Q} -- {Q}:{Q}{";" if mode == "ptm" else ""}$')
NODE = re.compile(rf'^  {Q} \[label={Q}(?: role="(leaf|spine|super_spine)")? os="cumulus"\]$')


def host(path):
    return re.sub(r"[._]", "-", path.lower().replace("[", "").replace("]", ""))


lines = open(dot).read().split("\n")
body = [l for l in lines if l and not l.startswith("#" if mode == "ptm" else "//")]
if body[0] != ("graph G {" if mode == "ptm" else "graph network {") or body[-1] != "}":
    errors.append(f"graph header/footer: {body[0]!r} ... {body[-1]!r}")
file_edges, switches = [], set()
for l in body[1:-1]:
    if len(l) >= 1023:
        errors.append(f"line of {len(l)} bytes: ptmd reads 1024-byte lines")
    m = EDGE.match(l)
    if m:
        file_edges.append(m.groups())
        continue
    m = NODE.match(l) if mode == "cvt" else None
    if m and m.group(1) == m.group(2) and not file_edges:
        switches.add(m.group(1))
        continue
    errors.append(f"not a {mode} line: {l!r}")

parsed = [tuple(re.split(r":| -- ", e.strip())) for e in open(edges_file) if e.strip()]
key = lambda e: tuple(sorted([(e[0], e[1]), (e[2], e[3])]))
if collections.Counter(map(key, parsed)) != collections.Counter(map(key, file_edges)):
    errors.append(f"Graphviz parsed {len(parsed)} edges, not the file's {len(file_edges)} lines")

wired = collections.Counter()
for r in csv.DictReader(open(wiring)):
    wired[key((r["a_host"], r["a_interface"], r["b_host"], r["b_interface"]))] += 1
sw_edges = collections.Counter(key(e) for e in file_edges if re.fullmatch(r"swp\d+(s\d+)?", e[3]))
if sw_edges != wired:
    errors.append(f"switch-to-switch edges differ from wiring.csv: {list((sw_edges - wired).items())[:3]} "
                  f"{list((wired - sw_edges).items())[:3]}")

SWP = re.compile(r"swp\d+(s\d+)?")
on_switch = {e[0] for e in file_edges if SWP.fullmatch(e[1])} | {e[2] for e in file_edges if SWP.fullmatch(e[3])}
rows = list(csv.DictReader(open(plan)))
if len(rows) != len(file_edges):
    errors.append(f"{len(file_edges)} edges, {len(rows)} cables in plan.csv")
swports = {}
for e in file_edges:
    if not re.fullmatch(r"swp\d+(s\d+)?", e[3]):
        swports[(e[0], e[2], e[3])] = swports.get((e[0], e[2], e[3]), 0) + 1
planned = collections.Counter()
for r in rows:
    a, b = (host(r["a_device"]), host(r["a_port"])), (host(r["b_device"]), host(r["b_port"]))
    if a[0] in on_switch and b[0] in on_switch:
        continue
    if a[0] not in on_switch:
        a, b = b, a
    planned[(a[0], b[0], b[1])] += 1  # the server end: its host name and port as the file writes them
if collections.Counter(swports) != planned:
    errors.append(f"server edges differ from plan.csv: {list((collections.Counter(swports) - planned).items())[:3]} "
                  f"{list((planned - collections.Counter(swports)).items())[:3]}")
if mode == "cvt":
    first = {e[0] for e in file_edges}
    if not first <= switches:
        errors.append(f"edges that do not start at a declared switch: {sorted(first - switches)[:3]}")

if errors:
    for e in errors[:10]:
        print("error:", e, file=sys.stderr)
    sys.exit(1)
print(f"{mode}: {len(file_edges)} edges ({sum(sw_edges.values())} between switches, {len(file_edges) - sum(sw_edges.values())} "
      f"to servers), {len(on_switch)} switches; as wiring.csv and plan.csv")
