#!/usr/bin/env python3
"""Validates the SONiC config_db.json files fabc wrote under OUTDIR/sonic/*/.

1. Each file against docs/schemas/sonic-config_db.schema.json (python3-jsonschema).
2. Per file, what SONiC's YANG models say and a JSON Schema cannot: value ranges
   (speed 1..1600000 Mb/s, mtu 68..9216), leafrefs (every port, map, scheduler, WRED
   profile, peer group and neighbor a table names exists), an IP prefix entry only on
   an interface that has its own entry, no lane on two ports, breakout-consistent cages
   (same speed, equal lane counts, the BREAKOUT_CFG mode matches the ports).
3. Across the fabric: every BGP neighbor is another generated switch whose own config
   points back (same link, numbered /31 pairs, the neighbor's ASN), no ASN is both a
   leaf's and another switch's, and every switch carries the same RoCE QoS settings.

usage: check-config-db.py SCHEMA OUTDIR    (prints one line per switch, exit 1 on error)
"""
import ipaddress
import json
import re
import os
import sys

import jsonschema

errors = []


def err(host, msg):
    errors.append(f"{host}: {msg}")


def lanes_of(entry):
    return [int(x) for x in entry["lanes"].split(",")]


def check_switch(host, db):
    ports = db.get("PORT", {})
    seen_lanes = {}
    cages = {}
    for name, p in ports.items():
        speed, mtu = int(p["speed"]), int(p.get("mtu", "9100"))
        if not 1 <= speed <= 1600000:
            err(host, f"PORT {name}: speed {speed} outside 1..1600000")
        if not 68 <= mtu <= 9216:
            err(host, f"PORT {name}: mtu {mtu} outside 68..9216")
        for lane in lanes_of(p):
            if lane in seen_lanes:
                err(host, f"lane {lane} on both {seen_lanes[lane]} and {name}")
            seen_lanes[lane] = name
        cages.setdefault(p.get("index"), []).append(name)
    breakout = db.get("BREAKOUT_CFG", {})
    for index, names in cages.items():
        names.sort(key=lambda n: int(n[len("Ethernet"):]))
        speeds = {ports[n]["speed"] for n in names}
        widths = {len(lanes_of(ports[n])) for n in names}
        if len(speeds) != 1 or len(widths) != 1:
            err(host, f"cage {index}: ports {names} differ in speed or lane count")
        if len(names) > 1 and sorted(int(ports[n].get("subport", "0")) for n in names) != list(range(1, len(names) + 1)):
            err(host, f"cage {index}: subports of {names} are not 1..{len(names)}")
        mode = breakout.get(names[0], {}).get("brkout_mode") or ""
        # "2x400G", or platform.json's "2x400G[200G,100G]": N ports of the default speed
        # or of one in brackets
        m = re.fullmatch(r"([0-9]+)x([0-9]+G)(?:\[([0-9G,]+)\])?", mode)
        speed = f"{int(ports[names[0]]['speed']) // 1000}G"
        want = f"{len(names)}x{speed}"
        if not m or int(m.group(1)) != len(names) or speed not in [m.group(2)] + (m.group(3) or "").split(","):
            err(host, f"cage {index}: BREAKOUT_CFG {names[0]} is {mode}, the ports say {want}")
    for name in breakout:
        if name not in ports:
            err(host, f"BREAKOUT_CFG {name} is not a port")

    def port_ref(table, name):
        if name not in ports:
            err(host, f"{table} refers to {name}, which is not in PORT")

    interfaces = db.get("INTERFACE", {})
    for key in interfaces:
        name = key.split("|")[0]
        port_ref("INTERFACE", name)
        if "|" in key and name not in interfaces:
            err(host, f"INTERFACE {key} without an INTERFACE {name} entry")
    for table in ("DEVICE_NEIGHBOR", "PORT_QOS_MAP"):
        for name in db.get(table, {}):
            port_ref(table, name)
    for table in ("QUEUE", "BUFFER_PG", "BUFFER_QUEUE"):
        for key in db.get(table, {}):
            port_ref(table, key.split("|")[0])
    # PFC watchdog: every lossless port (pfc_enable in PORT_QOS_MAP) and no other, and
    # SONiC's ranges (sonic-pfcwd.yang), detection and restoration at least the poll.
    wd = db.get("PFC_WD", {})
    if wd:
        poll = int(wd.get("GLOBAL", {}).get("POLL_INTERVAL", "0"))
        if not 100 <= poll <= 1000:
            err(host, f"PFC_WD GLOBAL POLL_INTERVAL {poll} out of 100..1000")
        lossless = {n for n, q in db.get("PORT_QOS_MAP", {}).items() if q.get("pfc_enable")}
        if set(wd) - {"GLOBAL"} != lossless:
            err(host, "PFC_WD ports differ from the lossless ports of PORT_QOS_MAP")
        for name, w in wd.items():
            if name == "GLOBAL":
                continue
            for f, lo, hi in (("detection_time", 100, 5000), ("restoration_time", 100, 60000)):
                if not lo <= int(w.get(f, "0")) <= hi or int(w.get(f, "0")) < poll:
                    err(host, f"PFC_WD {name}: {f} {w.get(f)} out of {lo}..{hi} or below the poll")
    for name in db.get("CABLE_LENGTH", {}).get("AZURE", {}):
        port_ref("CABLE_LENGTH", name)
    for table in ("BUFFER_PORT_INGRESS_PROFILE_LIST", "BUFFER_PORT_EGRESS_PROFILE_LIST"):
        for name, v in db.get(table, {}).items():
            port_ref(table, name)
            for prof in v.get("profile_list", "").split(","):
                if prof not in db.get("BUFFER_PROFILE", {}):
                    err(host, f"{table} {name}: profile {prof} not in BUFFER_PROFILE")
    for table in ("BUFFER_PG", "BUFFER_QUEUE"):
        for key, v in db.get(table, {}).items():
            if v.get("profile") != "NULL" and v.get("profile") not in db.get("BUFFER_PROFILE", {}):
                err(host, f"{table} {key}: profile {v.get('profile')} not in BUFFER_PROFILE")
    for name, v in db.get("BUFFER_PROFILE", {}).items():
        if v.get("pool") not in db.get("BUFFER_POOL", {}):
            err(host, f"BUFFER_PROFILE {name}: pool {v.get('pool')} not in BUFFER_POOL")
    for name, q in db.get("PORT_QOS_MAP", {}).items():
        for field, table in (("dscp_to_tc_map", "DSCP_TO_TC_MAP"), ("tc_to_queue_map", "TC_TO_QUEUE_MAP"),
                             ("tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP"), ("pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE"),
                             ("pfc_to_pg_map", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP")):
            if field in q and q[field] not in db.get(table, {}):
                err(host, f"PORT_QOS_MAP {name}: {field} {q[field]} is not in {table}")
    for key, q in db.get("QUEUE", {}).items():
        if "scheduler" in q and q["scheduler"] not in db.get("SCHEDULER", {}):
            err(host, f"QUEUE {key}: scheduler {q['scheduler']} not in SCHEDULER")
        if "wred_profile" in q and q["wred_profile"] not in db.get("WRED_PROFILE", {}):
            err(host, f"QUEUE {key}: wred_profile {q['wred_profile']} not in WRED_PROFILE")
    for name, w in db.get("WRED_PROFILE", {}).items():
        for c in ("green", "yellow", "red"):
            if int(w.get(f"{c}_min_threshold", 0)) > int(w.get(f"{c}_max_threshold", 0)):
                err(host, f"WRED_PROFILE {name}: {c} min above max")
    groups = {k.split("|")[1] for k in db.get("BGP_PEER_GROUP", {})}
    neighbors = db.get("BGP_NEIGHBOR", {})
    for key, n in neighbors.items():
        nbr = key.split("|")[1]
        if n["peer_group_name"] not in groups:
            err(host, f"BGP_NEIGHBOR {key}: peer group {n['peer_group_name']} not in BGP_PEER_GROUP")
        if nbr.startswith("Ethernet"):
            port_ref("BGP_NEIGHBOR", nbr)
            if interfaces.get(nbr, {}).get("ipv6_use_link_local_only") != "enable":
                err(host, f"unnumbered neighbor {nbr} without ipv6_use_link_local_only")
    for key in db.get("BGP_NEIGHBOR_AF", {}):
        if key.rsplit("|", 1)[0] not in neighbors:
            err(host, f"BGP_NEIGHBOR_AF {key} without its BGP_NEIGHBOR")
    meta = db["DEVICE_METADATA"]["localhost"]
    if meta["bgp_asn"] != db["BGP_GLOBALS"]["default"]["local_asn"]:
        err(host, "DEVICE_METADATA bgp_asn differs from BGP_GLOBALS local_asn")
    if meta["hostname"] != host:
        err(host, f"hostname {meta['hostname']} differs from its directory")


def qos_signature(db):
    """What must be the same on every switch of a RoCE fabric."""
    pfc = {q.get("pfc_enable") for q in db.get("PORT_QOS_MAP", {}).values()}
    mtu = {p.get("mtu") for p in db.get("PORT", {}).values()}
    return json.dumps([db.get("DSCP_TO_TC_MAP"), db.get("TC_TO_PRIORITY_GROUP_MAP"), db.get("WRED_PROFILE"),
                       db.get("SCHEDULER"), sorted(pfc, key=str), sorted(mtu, key=str)], sort_keys=True)


def check_fabric(dbs):
    by_loopback = {}
    for host, db in dbs.items():
        for key in db.get("LOOPBACK_INTERFACE", {}):
            if "|" in key:
                lo = key.split("|")[1].split("/")[0]
                if lo in by_loopback:
                    err(host, f"loopback {lo} also on {by_loopback[lo]}")
                by_loopback[lo] = host
    asn_hosts = {}
    for host, db in dbs.items():
        asn_hosts.setdefault(db["DEVICE_METADATA"]["localhost"]["bgp_asn"], []).append(host)
    for asn, hosts in asn_hosts.items():
        types = {dbs[h]["DEVICE_METADATA"]["localhost"]["type"] for h in hosts}
        if len(hosts) > 1 and "LeafRouter" in types:
            err(hosts[0], f"ASN {asn} shared by {hosts}, which include a leaf")
    sessions = 0
    for host, db in dbs.items():
        addrs = {k.split("|")[1] for k in db.get("INTERFACE", {}) if "|" in k}
        for key, n in db.get("BGP_NEIGHBOR", {}).items():
            nbr, peer = key.split("|")[1], n.get("name")
            if peer not in dbs:
                err(host, f"BGP neighbor {nbr} names {peer}, which has no config")
                continue
            pdb = dbs[peer]
            sessions += 1
            if nbr.startswith("Ethernet"):
                remote = db["DEVICE_NEIGHBOR"][nbr]["port"]
                back = pdb.get("DEVICE_NEIGHBOR", {}).get(remote, {})
                if back.get("name") != host or back.get("port") != nbr:
                    err(host, f"{nbr} -> {peer} {remote}, but {peer} {remote} points to {back}")
                if f"default|{remote}" not in pdb.get("BGP_NEIGHBOR", {}):
                    err(host, f"{peer} has no BGP neighbor on {remote}")
            else:
                local = ipaddress.ip_interface(n["local_addr"] + "/31")
                if ipaddress.ip_address(nbr) not in local.network or f"{n['local_addr']}/31" not in addrs:
                    err(host, f"neighbor {nbr} is not the /31 peer of local_addr {n['local_addr']}")
                if n.get("asn") != pdb["DEVICE_METADATA"]["localhost"]["bgp_asn"]:
                    err(host, f"neighbor {nbr} asn {n.get('asn')} is not {peer}'s ASN")
                if f"default|{n['local_addr']}" not in pdb.get("BGP_NEIGHBOR", {}):
                    err(host, f"{peer} has no BGP neighbor {n['local_addr']}")
    signatures = {h: qos_signature(db) for h, db in dbs.items()}
    if len(set(signatures.values())) > 1:
        err("fabric", "switches differ in their RoCE QoS settings: " + ", ".join(sorted(signatures)))
    return sessions


def main():
    schema_path, out = sys.argv[1], sys.argv[2]
    schema = json.load(open(schema_path))
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    base = os.path.join(out, "sonic")
    dbs = {}
    for host in sorted(os.listdir(base)):
        path = os.path.join(base, host, "config_db.json")
        db = json.load(open(path))
        for e in sorted(validator.iter_errors(db), key=lambda e: list(e.path)):
            err(host, "schema: " + "/".join(str(p) for p in e.path) + ": " + e.message)
        dbs[host] = db
    for host, db in dbs.items():
        if not any(e.startswith(host + ": schema") for e in errors):
            check_switch(host, db)
        meta = db["DEVICE_METADATA"]["localhost"]
        up = sum(1 for p in db["PORT"].values() if p.get("admin_status") == "up")
        print(f"{host}: {meta['type']} asn {meta['bgp_asn']}, {len(db['PORT'])} ports ({up} up), "
              f"{len(db.get('BGP_NEIGHBOR', {}))} BGP neighbors")
    sessions = check_fabric(dbs)
    for e in errors:
        print("error: " + e)
    print(f"checked {len(dbs)} switches, {sessions} BGP session ends: {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
