#!/usr/bin/env python3
"""Checks a generated slurm/topology.yaml against Slurm's schema and the .conf files.

    check_topology_yaml.py DIR        (DIR/topology.yaml, topology.conf, topology-block.conf)

The schema is the one Slurm 25.05's data_parser reads topology.yaml with
(src/plugins/data_parser/v0.0.43/parsers.c: TOPOLOGY_CONF, TOPOLOGY_TREE_CONFIG,
SWITCH_CONFIG, TOPOLOGY_BLOCK_CONFIG, BLOCK_CONFIG) and topology.yaml(5): a list of
topologies, `topology` first, optional `cluster_default`, exactly one of block, flat,
tree; a tree is `switches`, each `switch` (at most 64 characters) with exactly one of
`children` or `nodes` (hostlist strings); a block topology is `block_sizes` (integers,
each the previous times a power of two) and `blocks`, each `block` and `nodes`.
Then the tree and the blocks must say what topology.conf and topology-block.conf say,
entry for entry. Prints one line per topology; exits 1 with the reasons otherwise.
"""
import re
import sys

import yaml

errors = []


def err(msg):
    errors.append(msg)


def expand(expr):
    """A Slurm hostlist expression as a list of names ("a[0-2,5],b" -> a0 a1 a2 a5 b)."""
    out = []
    for part in re.findall(r"[^,\[]+(?:\[[^\]]*\])?[^,\[]*", expr):
        m = re.fullmatch(r"([^\[]*)\[([^\]]*)\](.*)", part)
        if not m:
            out.append(part)
            continue
        pre, ranges, post = m.groups()
        for r in ranges.split(","):
            lo, _, hi = r.partition("-")
            hi = hi or lo
            for i in range(int(lo), int(hi) + 1):
                out.append(f"{pre}{i:0{len(lo)}d}{post}")
    return out


def conf_lines(path, key):
    """{name: (kind, [members])} from a topology.conf-style file."""
    entries = {}
    order = []
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = dict(f.split("=", 1) for f in line.split())
        if key in fields:
            name = fields.pop(key)
            (kind, value), = fields.items()
            entries[name] = (kind.lower(), expand(value))
            order.append(name)
    return entries, order


def check(d):
    doc = yaml.safe_load(open(f"{d}/topology.yaml"))
    if not isinstance(doc, list) or not doc:
        err("the file is not a non-empty list of topologies")
        return
    names = set()
    default = None
    for t in doc:
        if not isinstance(t, dict) or list(t)[0] != "topology":
            err(f"'topology' is not the first attribute: {t!r:.80}")
            continue
        extra = set(t) - {"topology", "cluster_default", "block", "flat", "tree"}
        if extra:
            err(f"unknown attributes {sorted(extra)}")
        if not isinstance(t["topology"], str) or t["topology"] in names:
            err(f"topology name {t['topology']!r} not a unique string")
        names.add(t["topology"])
        if not isinstance(t.get("cluster_default", False), bool):
            err("cluster_default is not a boolean")
        if t.get("cluster_default") and default is None:
            default = t["topology"]
        kinds = [k for k in ("block", "flat", "tree") if k in t]
        if len(kinds) != 1:
            err(f"topology {t['topology']}: {len(kinds)} of block, flat, tree")
            continue
        if kinds[0] == "tree":
            check_tree(d, t)
        elif kinds[0] == "block":
            check_block(d, t)
        print(f"{t['topology']}: {kinds[0]}{' (cluster default)' if t.get('cluster_default') else ''}")
    if default is None:
        err("no topology is the cluster default")


def check_tree(d, t):
    tree = t["tree"]
    if set(tree) != {"switches"}:
        err(f"tree attributes {sorted(tree)}, not ['switches']")
    conf, order = conf_lines(f"{d}/topology.conf", "SwitchName")
    seen = []
    for s in tree["switches"]:
        if set(s) - {"switch", "children", "nodes"} or ("children" in s) == ("nodes" in s):
            err(f"switch entry {s!r}: 'switch' and exactly one of children, nodes")
            continue
        name = s["switch"]
        if not isinstance(name, str) or not 0 < len(name) <= 64:
            err(f"switch name {name!r}: a string of 1 to 64 characters")
        kind = "nodes" if "nodes" in s else "children"
        if not isinstance(s[kind], str):
            err(f"switch {name}: {kind} is not a hostlist string")
            continue
        want = conf.get(name)
        got = ("nodes" if kind == "nodes" else "switches", expand(s[kind]))
        if want != got:
            err(f"switch {name}: {got} in the YAML, {want} in topology.conf")
        seen.append(name)
    if seen != order:
        err(f"switches {seen[:5]}... not those of topology.conf {order[:5]}...")


def check_block(d, t):
    block = t["block"]
    if set(block) != {"block_sizes", "blocks"}:
        err(f"block attributes {sorted(block)}, not ['block_sizes', 'blocks']")
        return
    sizes = block["block_sizes"]
    if not sizes or not all(isinstance(n, int) and n > 0 for n in sizes):
        err(f"block_sizes {sizes!r}: positive integers")
    for a, b in zip(sizes, sizes[1:]):
        if b <= a or b % a or (b // a) & (b // a - 1):
            err(f"block_sizes {sizes}: {b} is not {a} times a power of two")
    conf, order = conf_lines(f"{d}/topology-block.conf", "BlockName")
    conf_sizes = [int(n) for line in open(f"{d}/topology-block.conf") if line.startswith("BlockSizes=")
                  for n in line.strip().split("=")[1].split(",")]
    if sizes != conf_sizes:
        err(f"block_sizes {sizes}, BlockSizes={conf_sizes} in topology-block.conf")
    seen = []
    for b in block["blocks"]:
        if set(b) != {"block", "nodes"} or not all(isinstance(v, str) for v in b.values()):
            err(f"block entry {b!r}: 'block' and 'nodes', strings")
            continue
        nodes = expand(b["nodes"])
        if len(nodes) < sizes[0]:
            err(f"block {b['block']}: {len(nodes)} nodes, fewer than the base block size {sizes[0]}")
        if conf.get(b["block"]) != ("nodes", nodes):
            err(f"block {b['block']}: {nodes[:3]}... in the YAML, {conf.get(b['block'])} in topology-block.conf")
        seen.append(b["block"])
    if seen != order:
        err(f"blocks {seen[:5]}... not those of topology-block.conf {order[:5]}...")


check(sys.argv[1])
if errors:
    for e in errors[:20]:
        print("error:", e, file=sys.stderr)
    sys.exit(1)
