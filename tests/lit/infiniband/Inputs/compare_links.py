#!/usr/bin/env python3
"""Compares the links of an InfiniBand fabric as three programs see them.

  --plan FILE        fabc's cabling plan (cabling/plan.csv): the compiled design
  --discovered FILE  ibnetdiscover's output on the simulated fabric
  --topo FILE        links of infiniband/fabric.topo as IBDM parsed it (topo_links.tcl)

Every link becomes an unordered pair of ends "host port", named by fabc's conventions
(docs/backends.md): host names from instance paths, "P<n>" for InfiniBand switch port n,
the design's port ("cx0") on an end system. A switch port p[i] of the plan is port i + 1,
which holds for switch models with one port group (the test models; the script refuses
others). Prints the differences and exits 1 unless all the given lists are equal.
"""
import argparse
import csv
import re
import sys


def host(path):
    return re.sub(r"[._]", "-", path.replace("[", "").replace("]", "").lower())


def discovered(path):
    """Links from ibnetdiscover output, and the descriptions of the switches."""
    links, switches = set(), set()
    node = None  # (kind, description)
    head = re.compile(r'^(Switch|Ca)\s+\d+\s+"[^"]*"\s+#\s+"([^"]*)"')
    port = re.compile(r'^\[(\d+)\]')
    for line in open(path):
        m = head.match(line)
        if m:
            node = (m.group(1), m.group(2))
            if node[0] == "Switch":
                switches.add(node[1])
            continue
        m = port.match(line)
        if not m or not node:
            continue
        quoted = re.findall(r'"([^"]*)"', line)
        peer_id, peer_desc = quoted[0], quoted[1]
        peer_port = re.search(r'"\[(\d+)\]', line).group(1)
        if node[0] == "Switch":
            local = f"{node[1]} P{m.group(1)}"
        else:
            local = node[1]
        peer = f"{peer_desc} P{peer_port}" if peer_id.startswith("S-") else peer_desc
        links.add(frozenset((local, peer)))
    return links, switches


def plan(path, switches):
    links, groups = set(), {}
    for row in csv.DictReader(open(path)):
        ends = []
        for side in "ab":
            dev, prt = host(row[f"{side}_device"]), row[f"{side}_port"]
            m = re.fullmatch(r"(\w+)\[(\d+)\]", prt)
            group, index = m.group(1), int(m.group(2))
            if dev in switches:
                groups.setdefault(dev, set()).add(group)
                ends.append(f"{dev} P{index + 1}")
            else:
                ends.append(f"{dev} {host(group)}{index}")
        links.add(frozenset(ends))
    multi = {d: g for d, g in groups.items() if len(g) > 1}
    if multi:
        sys.exit(f"compare_links: switches with several port groups are not supported: {multi}")
    return links


def topo(path):
    links = set()
    for line in open(path):
        if " -- " in line:
            a, b = line.strip().split(" -- ")
            links.add(frozenset((a, b)))
    return links


def show(links):
    return sorted(" -- ".join(sorted(l)) for l in links)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", required=True)
    ap.add_argument("--discovered", required=True)
    ap.add_argument("--topo")
    args = ap.parse_args()
    disc, switches = discovered(args.discovered)
    lists = {"discovered": disc, "plan": plan(args.plan, switches)}
    if args.topo:
        lists["topo"] = topo(args.topo)
    ok = True
    for name, links in lists.items():
        if name == "plan":
            continue
        for l in show(links - lists["plan"]):
            print(f"only in {name}: {l}")
            ok = False
        for l in show(lists["plan"] - links):
            print(f"missing from {name}: {l}")
            ok = False
    print(f"{len(lists['plan'])} links in the plan; " +
          ", ".join(f"{n}: {len(l)}" for n, l in lists.items() if n != "plan") +
          ("; all equal" if ok else "; DIFFERENT"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
