#!/usr/bin/env python3
"""What ptmd does on each switch, with real LLDP data: compare topology.dot with lldpd.

    ptm_check.py EDGES LLDP_DIR

EDGES: the topology.dot's edges as Graphviz parsed them (gvpr: `tail:port -- head:port`).
LLDP_DIR: `lldpctl -f json` of each switch, HOST.json. As ptmd does with its default
LLDP parameters (match_type ifname, host names), each port of a switch that the file
names passes when LLDP reports the expected neighbour's system name and port id there,
and fails otherwise. Prints `HOST PORT pass|fail ...` per port (what `ptmctl` lists) and a
summary; exits 0 when every port passes, 1 otherwise.
"""
import json
import os
import re
import sys

edges_file, lldp_dir = sys.argv[1:3]
expected = {}  # (host, port) -> (neighbour host, neighbour port)
for line in open(edges_file):
    if not line.strip():
        continue
    a, ap, b, bp = re.split(r":| -- ", line.strip())
    expected[(a, ap)] = (b, bp)
    expected[(b, bp)] = (a, ap)

seen = {}
switches = set()
for f in sorted(os.listdir(lldp_dir)):
    host = f[:-5]
    doc = json.load(open(os.path.join(lldp_dir, f)))
    lldp = doc.get("lldp")
    if not isinstance(lldp, dict):  # json0 (the servers): ptmd does not run there
        continue
    ifaces = lldp.get("interface", [])
    if isinstance(ifaces, dict):
        ifaces = [{k: v} for k, v in ifaces.items()]
    if not any(h == host for h, _ in expected) or not ifaces or not isinstance(ifaces[0], dict):
        continue
    switches.add(host)
    for entry in ifaces:
        for ifname, n in entry.items():
            name = next(iter(n["chassis"]))
            seen[(host, ifname)] = (name, n["port"]["id"]["value"])

passed = failed = 0
for (host, port), want in sorted(expected.items()):
    if host not in switches:
        continue  # ptmd runs on the switches
    got = seen.get((host, port))
    if got == want:
        passed += 1
        print(f"{host} {port} pass")
    else:
        failed += 1
        print(f"{host} {port} fail (expected {want[0]}:{want[1]}, LLDP: {got[0] + ':' + got[1] if got else 'nothing'})")
print(f"ptm: {len(switches)} switches, {passed} ports pass, {failed} fail")
sys.exit(1 if failed else 0)
