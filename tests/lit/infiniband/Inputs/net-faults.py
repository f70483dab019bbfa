#!/usr/bin/env python3
"""Plants cabling faults in an ibnetdiscover-format net file (fabric.net), at both ends of
each cable, so that the file stays consistent and ibsim simulates the faulty fabric:

  net-faults.py NET FAULT... > FAULTY

  swap:SWITCH:A:B             swap the cables in ports A and B of SWITCH (by description)
  remove:SWITCH:P             unplug the cable in port P of SWITCH (both ends)
  add:SWITCH:P:SWITCH2:P2     plug an extra cable between two free switch ports
  width:SWITCH:P:W            the cable in port P trains at W lanes (ibsim's w=W)
"""
import re
import sys

head = re.compile(r'^(Switch|Ca|Hca)\s+\d+\s+"([SH]-[0-9a-f]+)"\s+#\s+"([^"]*)"')
portline = re.compile(r'^\[(\d+)\](\([0-9a-f]+\))?\s+"([SH]-[0-9a-f]+)"\[(\d+)\]')


def parse(lines):
    """node id -> (description, {port: line index}), and description -> id."""
    nodes, by_desc, cur = {}, {}, None
    for i, l in enumerate(lines):
        m = head.match(l)
        if m:
            cur = m.group(2)
            nodes[cur] = (m.group(3), {})
            by_desc.setdefault(m.group(3), cur)
            continue
        m = portline.match(l)
        if m and cur:
            nodes[cur][1][int(m.group(1))] = i
        elif not l.strip():
            cur = None
    return nodes, by_desc


def peer(lines, i):
    m = portline.match(lines[i])
    return m.group(3), int(m.group(4))


def main():
    lines = open(sys.argv[1]).read().split("\n")
    for fault in sys.argv[2:]:
        nodes, by_desc = parse(lines)
        f = fault.split(":")
        sw = by_desc[f[1]]
        ports = nodes[sw][1]
        if f[0] == "swap":
            a, b = int(f[2]), int(f[3])
            ia, ib = ports[a], ports[b]
            pa, pb = peer(lines, ia), peer(lines, ib)
            rest = lambda l: l[l.index("]") + 1:]
            lines[ia], lines[ib] = f"[{a}]" + rest(lines[ib]), f"[{b}]" + rest(lines[ia])
            # The far ends now point back at the other port.
            for (pid, pport), new in ((pa, b), (pb, a)):
                j = nodes[pid][1][pport]
                lines[j] = re.sub(r'"%s"\[\d+\]' % sw, f'"{sw}"[{new}]', lines[j])
        elif f[0] == "remove":
            i = ports[int(f[2])]
            pid, pport = peer(lines, i)
            j = nodes[pid][1][pport]
            for k in sorted((i, j), reverse=True):
                del lines[k]
        elif f[0] == "add":
            p, sw2, p2 = int(f[2]), by_desc[f[3]], int(f[4])
            d2 = f[3]
            i2 = max(nodes[sw2][1].values())
            lines.insert(i2 + 1, f'[{p2}]\t"{sw}"[{p}]\t\t# "{f[1]}"')
            i = max(ports.values())
            lines.insert(i + 1, f'[{p}]\t"{sw2}"[{p2}]\t\t# "{d2}"')
        elif f[0] == "width":
            i = ports[int(f[2])]
            pid, pport = peer(lines, i)
            j = nodes[pid][1][pport]
            for k in (i, j):
                c = lines[k].find("#")
                lines[k] = lines[k][:c].rstrip() + f"\tw={f[3]}\t\t" + lines[k][c:]
        else:
            sys.exit(f"net-faults: unknown fault {fault}")
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
