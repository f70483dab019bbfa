#!/usr/bin/env python3
"""Checks the NVUE startup.yaml files fabc wrote under OUTDIR/nvue/*/.

No NVUE is available offline, so this checks the document against the structure
`nv config save` writes (Cumulus Linux 5.x documentation): a YAML list holding a
`header` (model, nvue-api-version nvue_v1, rev-id 1.0, version "Cumulus Linux X.Y.Z")
and one `set` tree, in the dialect of that version: from 5.15 `state: enabled` and an
interface's `ipv4`, before it `enable: on` and `ip`, and never a key of the other one; interfaces swpN / swpNsM / lo with the types NVUE uses; a split cage's
parent carries `link: breakout: {Nx: {}}` and has at most N children; every BGP
neighbor is a configured interface (unnumbered) or the /31 peer of one (numbered), in
an existing peer group; router-id is the loopback. Across the fabric: every neighbor's
far end points back, leaves have distinct ASNs, every switch has the same RoCE mode.

usage: check-startup-yaml.py OUTDIR    (prints one line per switch, exit 1 on error)
"""
import ipaddress
import os
import re
import sys

import yaml

errors = []


def on(v):
    return v is True or v == "on"  # YAML 1.1 reads a bare `on` as true


class Dialect:
    """Cumulus Linux 5.15 renamed `enable: on` to `state: enabled`, `on` values to
    `enabled`, and an interface's `ip` to `ipv4` (New and Changed NVUE Commands)."""

    def __init__(self, version):
        m = re.fullmatch(r"Cumulus Linux ([0-9]+)\.([0-9]+)\.([0-9]+)", str(version))
        self.ok = bool(m)
        self.new = bool(m) and (int(m.group(1)), int(m.group(2))) >= (5, 15)
        # TACACS+ servers are keyed by address from 5.12 (NVUE command reference, TACACS).
        self.tacacs_by_address = bool(m) and (int(m.group(1)), int(m.group(2))) >= (5, 12)
        self.ip = "ipv4" if self.new else "ip"
        self.old_ip = "ip" if self.new else "ipv4"

    def value_on(self, v):
        return v == "enabled" if self.new else on(v)

    def enabled(self, obj):
        key, other = ("state", "enable") if self.new else ("enable", "state")
        return other not in obj and self.value_on(obj.get(key))


def check(host, doc):
    if not (isinstance(doc, list) and len(doc) == 2 and set(doc[0]) == {"header"} and set(doc[1]) == {"set"}):
        errors.append(f"{host}: not a list of a 'header' and one 'set' tree")
        return None
    h = doc[0]["header"]
    d = Dialect(h.get("version"))
    if not d.ok or h.get("nvue-api-version") != "nvue_v1" or h.get("rev-id") != 1.0 or not h.get("model"):
        errors.append(f"{host}: header {h}")
        return None
    s = doc[1]["set"]
    if s.get("system", {}).get("hostname") != host:
        errors.append(f"{host}: system hostname is {s.get('system', {}).get('hostname')}")
    ifs = s.get("interface", {})
    if any(d.old_ip in i for i in ifs.values()):
        errors.append(f"{host}: an interface has '{d.old_ip}', which {h['version']} does not know")
    lo = list(ifs.get("lo", {}).get(d.ip, {}).get("address", {}))
    if ifs.get("lo", {}).get("type") != "loopback" or len(lo) != 1:
        errors.append(f"{host}: lo is not a loopback with one address")
        return None
    mgmt = check_management(host, d, s, ifs)
    addrs = {}
    bonds = {"member": {}, "mlag": {}, "es": {}}
    for name, i in ifs.items():
        if name in ("lo", "eth0"):
            continue
        sv = re.fullmatch(r"vlan([0-9]+)", name)
        if sv:  # a host subnet's gateway (host_scheme "leaf"/"rail"): an SVI with one address
            if i.get("type") != "svi" or i.get("vlan") != int(sv.group(1)) \
                    or len(i.get(d.ip, {}).get("address", {})) != 1:
                errors.append(f"{host}: {name} is not an SVI of VLAN {sv.group(1)} with one address")
            vrr = i.get(d.ip, {}).get("vrr")
            if vrr is not None:  # a shared subnet: the gateway as VRR, in the SVI's own subnet
                own = ipaddress.ip_interface(next(iter(i[d.ip]["address"])))
                va = list(vrr.get("address", {}))
                if len(va) != 1 or not d.enabled(vrr) or ipaddress.ip_interface(va[0]).network != own.network \
                        or ipaddress.ip_interface(va[0]).ip == own.ip:
                    errors.append(f"{host}: {name} vrr {vrr} is not one enabled address beside {own}")
            continue
        if re.fullmatch(r"bond[0-9]+|peerlink", name):
            check_bond(host, d, s, ifs, name, i, bonds)
            continue
        if name == "peerlink.4094":
            if i.get("type") != "sub" or i.get("base-interface") != "peerlink" or i.get("vlan") != 4094 \
                    or "peerlink" not in ifs:
                errors.append(f"{host}: peerlink.4094 is not peerlink's VLAN 4094 subinterface")
            continue
        m = re.fullmatch(r"swp([0-9]+)(s([0-9]+))?", name)
        if not m or i.get("type") != "swp":
            errors.append(f"{host}: interface {name} is not a swp")
            continue
        link = i.get("link", {})
        if m.group(2):
            parent = ifs.get(f"swp{m.group(1)}", {}).get("link", {}).get("breakout", {})
            modes = [int(k[:-1]) for k in parent if re.fullmatch(r"[0-9]+x", k)]
            if len(modes) != 1 or int(m.group(3)) >= modes[0]:
                errors.append(f"{host}: {name} without a matching breakout on swp{m.group(1)}")
        if "breakout" not in link:
            if not re.fullmatch(r"[0-9.]+G", str(link.get("speed", ""))) or not 552 <= int(link.get("mtu", 0)) <= 9216:
                errors.append(f"{host}: {name} link speed/mtu {link.get('speed')}/{link.get('mtu')}")
            if "up" not in link.get("state", {}):
                errors.append(f"{host}: {name} is not up")
        for a in i.get(d.ip, {}).get("address", {}):
            addrs[name] = ipaddress.ip_interface(a)
    router = s.get("router", {}).get("bgp", {})
    bgp = s.get("vrf", {}).get("default", {}).get("router", {}).get("bgp", {})
    if router.get("router-id") != lo[0].split("/")[0] or not d.enabled(router) or not d.enabled(bgp):
        errors.append(f"{host}: router bgp router-id/enable")
    af = bgp.get("address-family", {}).get("ipv4-unicast", {})
    if not d.enabled(af) or lo[0] not in af.get("network", {}) or af.get("multipaths", {}).get("ebgp") != 64:
        errors.append(f"{host}: ipv4-unicast does not originate {lo[0]} with 64 eBGP paths")
    if "roce" in s.get("qos", {}) and not d.enabled(s["qos"]["roce"]):
        errors.append(f"{host}: qos roce is not enabled")
    if not d.value_on(bgp.get("path-selection", {}).get("multipath", {}).get("aspath-ignore")):
        errors.append(f"{host}: no multipath aspath-ignore")
    groups = bgp.get("peer-group", {})
    neighbors = {}
    for key, n in bgp.get("neighbor", {}).items():
        if n.get("peer-group") not in groups or groups[n["peer-group"]].get("remote-as") != "external":
            errors.append(f"{host}: neighbor {key} not in an external peer group")
        if n.get("type") == "unnumbered":
            if key not in ifs:
                errors.append(f"{host}: unnumbered neighbor {key} is not an interface")
            local = key
        else:
            local = next((i for i, a in addrs.items() if ipaddress.ip_address(key) in a.network), None)
            if local is None or addrs[local].ip == ipaddress.ip_address(key):
                errors.append(f"{host}: numbered neighbor {key} is not the /31 peer of an interface")
        neighbors[local] = (key, n.get("description", ""), n.get("type"))
    if bonds["mlag"] and not ("peerlink" in ifs and all(k in s.get("mlag", {}) for k in ("backup", "mac-address"))
                              and s["mlag"].get("peer-ip") == "linklocal" and d.enabled(s["mlag"])):
        errors.append(f"{host}: MLAG bonds without a peerlink and the mlag settings")
    if bonds["es"] and not d.enabled(s.get("evpn", {}).get("multihoming", {})):
        errors.append(f"{host}: Ethernet segments without evpn multihoming enabled")
    return {"asn": router.get("autonomous-system"), "neighbors": neighbors, "addrs": addrs,
            "qos": s.get("qos"), "leaf": None, "version": h["version"], "mgmt": mgmt, "bonds": bonds,
            "mlag_mac": s.get("mlag", {}).get("mac-address")}


def check_bond(host, d, s, ifs, name, i, bonds):
    """A bond (Cumulus Linux 5.15, Bonding and MLAG): type bond (peerlink: type peerlink),
    members that are configured swps in no other bond, an MLAG id 1..65535 with MLAG
    enabled, an Ethernet segment's local-id and mac-address, and its VLAN one of the
    bridge's (or one address). Records the MLAG ids and segments for the pair checks."""
    want = "peerlink" if name == "peerlink" else "bond"
    b = i.get("bond", {})
    members = list(b.get("member", {}))
    if i.get("type") != want or not members:
        errors.append(f"{host}: {name} is not a {want} with members")
    for m in members:
        if ifs.get(m, {}).get("type") != "swp":
            errors.append(f"{host}: {name} member {m} is not a configured swp")
        if m in bonds["member"]:
            errors.append(f"{host}: {m} is in {bonds['member'][m]} and {name}")
        bonds["member"][m] = name
    if "mlag" in b:
        mid = b["mlag"].get("id")
        if not isinstance(mid, int) or not 1 <= mid <= 65535 or not d.enabled(b["mlag"]) or mid in bonds["mlag"]:
            errors.append(f"{host}: {name} mlag {b['mlag']}")
        bonds["mlag"][mid] = i.get("description")
    seg = i.get("evpn", {}).get("multihoming", {}).get("segment")
    if seg is not None:
        if not isinstance(seg.get("local-id"), int) or not re.fullmatch(r"44:38:39:ff:[0-9a-f]{2}:[0-9a-f]{2}", str(seg.get("mac-address"))) \
                or not 1 <= int(seg.get("df-preference", 0)) <= 65535:
            errors.append(f"{host}: {name} segment {seg}")
        bonds["es"][(seg.get("mac-address"), seg.get("local-id"))] = i.get("description")
    access = i.get("bridge", {}).get("domain", {}).get("br_default", {})
    vlans = s.get("bridge", {}).get("domain", {}).get("br_default", {}).get("vlan", {})
    if want == "bond" and access.get("access") is None and len(i.get(d.ip, {}).get("address", {})) != 1:
        errors.append(f"{host}: {name} is neither an access port nor addressed")
    if access.get("access") is not None and str(access["access"]) not in vlans:
        errors.append(f"{host}: {name} access VLAN {access['access']} is not a bridge VLAN")


def ipv4(v):
    try:
        return isinstance(v, str) and ipaddress.IPv4Address(v) is not None
    except ValueError:
        return False


def check_management(host, d, s, ifs):
    """policy management in the dialect: eth0 (type eth; address, gateway, VRF under `ip`
    before 5.15, the VRF beside `ipv4` from 5.15); NTP and syslog under `service <vrf>`
    before 5.15, `system ntp` (one vrf) and `system syslog server <ip> vrf` from 5.15;
    TACACS+ servers keyed by priority with `host` before 5.12 (and `enable`), keyed by
    address with `priority` from 5.12. Returns a one-line summary."""
    out = []
    e = ifs.get("eth0")
    if e is not None:
        ip = e.get(d.ip, {})
        vrf = e.get("vrf") if d.new else ip.get("vrf")
        stray = ("vrf" in ip) if d.new else ("vrf" in e)
        if e.get("type") != "eth" or vrf not in ("mgmt", "default") or stray or len(ip.get("address", {})) > 1 \
                or len(ip.get("gateway", {})) > 1 or not all(ipv4(g) for g in ip.get("gateway", {})):
            errors.append(f"{host}: eth0 {e}")
        addr = list(ip.get("address", {}))
        out.append(f"eth0 {addr[0] if addr else 'dhcp'} vrf {vrf}")
    system, service = s.get("system", {}), s.get("service", {})
    new_keys = [k for k in ("ntp", "syslog") if k in system]
    old_keys = [k for k in ("ntp", "syslog") if k in service]
    if (d.new and old_keys) or (not d.new and new_keys):
        errors.append(f"{host}: NTP/syslog in the other dialect's place ({old_keys or new_keys})")
    if d.new:
        ntp = system.get("ntp", {})
        ntp_servers = ntp.get("server", {})
        if ntp and (ntp.get("vrf") not in ("mgmt", "default") or
                    not all(ipv4(a) and v == {"iburst": "enabled"} for a, v in ntp_servers.items())):
            errors.append(f"{host}: system ntp {ntp}")
        syslog = system.get("syslog", {}).get("server", {})
        if not all(ipv4(a) and set(v) == {"vrf"} for a, v in syslog.items()):
            errors.append(f"{host}: system syslog {syslog}")
    else:
        ntp_servers = {a: v for vrf in service.get("ntp", {}).values() for a, v in vrf.get("server", {}).items()}
        syslog = {a: v for vrf in service.get("syslog", {}).values() for a, v in vrf.get("server", {}).items()}
        if not all(ipv4(a) and on(v.get("iburst")) for a, v in ntp_servers.items()) or not all(ipv4(a) for a in syslog):
            errors.append(f"{host}: service ntp/syslog {service}")
    if ntp_servers:
        out.append(f"ntp {len(ntp_servers)}")
    if syslog:
        out.append(f"syslog {len(syslog)}")
    tacacs = system.get("aaa", {}).get("tacacs")
    if tacacs is not None:
        servers = tacacs.get("server", {})
        if d.tacacs_by_address:
            prios = [v.get("priority") for v in servers.values()]
            good = all(ipv4(a) for a in servers) and "enable" not in tacacs
        else:
            prios = [int(k) for k in servers]
            good = all(ipv4(v.get("host")) and "priority" not in v for v in servers.values()) and on(tacacs.get("enable"))
        if not good or sorted(prios) != list(range(1, len(servers) + 1)) or tacacs.get("vrf") not in ("mgmt", "default") \
                or not 1 <= len(servers) <= 8:
            errors.append(f"{host}: system aaa tacacs {tacacs}")
        secrets = {v.get("secret") for v in servers.values()}
        out.append(f"tacacs {len(servers)} vrf {tacacs.get('vrf')} secret {'set' if secrets != {None} else 'none'}")
    acl = check_control_plane_acl(host, s, system)
    if acl:
        out.append(acl)
    return ", ".join(out)


# The ports a control-plane ACL must never deny: BGP, BFD (single and multi-hop; the
# default whitelist's 3784-3786, 4784), all of which the fabric's own sessions need.
FABRIC_PORTS = {("tcp", 179), ("udp", 3784), ("udp", 3785), ("udp", 3786), ("udp", 4784)}


def check_control_plane_acl(host, s, system):
    """system control-plane acl NAME inbound binds an ACL of the top-level `acl` map
    (Cumulus Linux user guide, Access Control List Configuration, Control Plane ACLs):
    type ipv4, rules keyed by number, each with exactly one action (permit or deny) and
    a match on ip protocol tcp/udp, an optional source-ip (a prefix with the host bits
    zero) and the protocol's dest-port set. No rule may deny everything (Cumulus Linux
    supports no deny-all control-plane rule) nor a fabric protocol's port. Returns
    "acl NAME: N permits, M denies (ports ...)" or ""."""
    bound = system.get("control-plane", {}).get("acl", {})
    acls = s.get("acl", {})
    if not bound and not acls:
        return ""
    out = []
    for name, how in bound.items():
        if how != {"inbound": {}}:
            errors.append(f"{host}: control-plane acl {name} is bound {how}")
        a = acls.get(name)
        if a is None or a.get("type") != "ipv4":
            errors.append(f"{host}: control-plane acl {name} is not an ipv4 ACL of `acl`")
            continue
        permits = denies = 0
        ports, sources = set(), set()
        for rid, r in a.get("rule", {}).items():
            action, ip = r.get("action", {}), r.get("match", {}).get("ip", {})
            proto = ip.get("protocol")
            dports = ip.get(proto, {}).get("dest-port", {}) if proto in ("tcp", "udp") else {}
            if not (isinstance(rid, str) and rid.isdigit() and 1 <= int(rid) <= 65535) or len(action) != 1 \
                    or list(action.values()) != [{}] or set(r) != {"action", "match"} or not dports \
                    or not all(str(p).isdigit() for p in dports) or set(ip) - {"protocol", "source-ip", proto}:
                errors.append(f"{host}: acl {name} rule {rid} {r}")
                continue
            src = ip.get("source-ip")
            if src is not None:
                try:
                    ipaddress.IPv4Network(src)  # strict: host bits must be zero
                except ValueError:
                    errors.append(f"{host}: acl {name} rule {rid} source-ip {src}")
            if "deny" in action:
                denies += 1
                if any((proto, int(p)) in FABRIC_PORTS for p in dports):
                    errors.append(f"{host}: acl {name} rule {rid} denies a fabric protocol")
            else:
                permits += 1
                sources.add(src)
            ports |= {f"{proto}/{p}" for p in dports}
        out.append(f"acl {name}: {permits} permits from {len(sources)} sources, {denies} denies "
                   f"(ports {' '.join(sorted(ports))})")
    for name in acls:
        if name not in bound:
            errors.append(f"{host}: acl {name} is bound nowhere")
    return ", ".join(out)


def main():
    base = os.path.join(sys.argv[1], "nvue")
    sw = {}
    for host in sorted(os.listdir(base)):
        doc = yaml.safe_load(open(os.path.join(base, host, "startup.yaml")))
        r = check(host, doc)
        if r:
            sw[host] = r
            print(f"{host}: asn {r['asn']}, {len(r['neighbors'])} BGP neighbors, qos {r['qos']}")
            if r["mgmt"]:
                print(f"{host}: management {r['mgmt']}")
            if r["bonds"]["member"]:
                print(f"{host}: {len(set(r['bonds']['member'].values()))} bonds, MLAG ids {sorted(r['bonds']['mlag'])}, "
                      f"{len(r['bonds']['es'])} Ethernet segments")
    # An MLAG pair (one system MAC) has the same ids for the same GPUs on both switches; an
    # Ethernet segment (MAC, local-id) names the same GPU on every switch that has it.
    pairs, segments = {}, {}
    for host, r in sw.items():
        if r["mlag_mac"]:
            pairs.setdefault(r["mlag_mac"], []).append(host)
        for es, desc in r["bonds"]["es"].items():
            segments.setdefault(es, set()).add(desc)
    for mac, hosts in pairs.items():
        if len(hosts) != 2 or sw[hosts[0]]["bonds"]["mlag"] != sw[hosts[1]]["bonds"]["mlag"]:
            errors.append(f"MLAG system MAC {mac} on {hosts}: not a pair with the same ids for the same GPUs")
    for es, descs in segments.items():
        if len(descs) != 1:
            errors.append(f"Ethernet segment {es} names {sorted(descs)}")
    for host, r in sw.items():
        for local, (key, desc, kind) in r["neighbors"].items():
            parts = desc.split()
            if len(parts) != 2 or parts[0] not in sw:
                errors.append(f"{host}: neighbor {key} description '{desc}' names no switch")
                continue
            peer, port = parts
            back = sw[peer]["neighbors"].get(port)
            if not back or back[1] != f"{host} {local}" or back[2] != kind:
                errors.append(f"{host}: {local} -> {peer} {port}, which does not point back")
            if sw[peer]["asn"] == r["asn"]:
                errors.append(f"{host}: neighbor {peer} has the same ASN {r['asn']}")
    asns = [r["asn"] for h, r in sw.items() if "leaf" in h]
    if len(asns) != len(set(asns)):
        errors.append("leaves share ASNs")
    if len({repr(r["qos"]) for r in sw.values()}) > 1:
        errors.append("switches differ in qos")
    for e in errors:
        print("error: " + e)
    versions = sorted({r["version"] for r in sw.values()})
    print(f"checked {len(sw)} switches ({', '.join(versions)}): {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
