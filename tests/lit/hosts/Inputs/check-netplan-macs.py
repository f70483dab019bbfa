"""Checks that every NIC of the netplan files fabc wrote is matched by the MAC its leaf's
LLDP discovery reported for it.

    usage: check-netplan-macs.py DISCDIR OUTDIR

DISCDIR holds `lldpctl -f json` files of the switches (servers' json0 files are skipped) (a neighbour per interface: the
server's system name, its port ID of type mac and its port description, the interface
name); OUTDIR is a fabc build with hosts/netplan/HOST.yaml. Prints one line per mismatch
and a summary; exits 1 on any mismatch or NIC without a MAC.
"""
import glob
import json
import os
import re
import sys

disc, out = sys.argv[1], sys.argv[2]
seen = {}  # (host, nic) -> MAC
for path in sorted(glob.glob(os.path.join(disc, "*.json"))):
    lldp = json.load(open(path)).get("lldp")
    if not isinstance(lldp, dict):
        continue  # a server's json0 view: its neighbours are switches
    ifaces = lldp.get("interface", [])
    if isinstance(ifaces, dict):
        ifaces = [{k: v} for k, v in ifaces.items()]
    for entry in ifaces:
        for _, n in entry.items():
            chassis = n.get("chassis", {})
            if not isinstance(chassis, dict) or len(chassis) != 1:
                continue
            host = next(iter(chassis))
            port = n.get("port", {})
            pid = port.get("id", {})
            if pid.get("type") == "mac":
                seen[(host, port.get("descr"))] = pid.get("value").lower()
bad = checked = 0
for path in sorted(glob.glob(os.path.join(out, "hosts", "netplan", "*.yaml"))):
    host = os.path.basename(path)[:-5]
    nic = None
    for line in open(path):
        m = re.match(r"    (\S+):$", line)
        if m:
            nic = m.group(1)
            if (host, nic) not in seen:
                print(f"{host} {nic}: the discovery has no MAC for it")
                bad += 1
            continue
        m = re.match(r'        macaddress: "([0-9a-f:]+)"$', line)
        if m and nic:
            checked += 1
            if seen.get((host, nic)) != m.group(1):
                print(f"{host} {nic}: netplan {m.group(1)}, LLDP {seen.get((host, nic))}")
                bad += 1
print(f"netplan-macs: {checked} NICs, " + ("each with the MAC its leaf reported" if not bad else f"{bad} wrong"))
sys.exit(1 if bad or not checked else 0)
