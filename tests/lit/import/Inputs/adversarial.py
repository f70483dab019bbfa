#!/usr/bin/env python3
"""Writes the adversarial discovery files of issue 30 into DIR (tests/lit/import/
adversarial.test and tests/lit/verify/adversarial.test): built here rather than committed,
some are tens of megabytes. Each is a class of input, not one held-out case."""
import json, os, sys

out = sys.argv[1]
only = set(sys.argv[2:])  # the files to write (default: all)
os.makedirs(out, exist_ok=True)


def want(name):
    return not only or name in only


def w(name, text, mode="w"):
    with open(os.path.join(out, name), mode) as f:
        f.write(text)


def lldp(host_if, chassis, port):
    return {"lldp": {"interface": {host_if: {"chassis": {chassis: {"capability": [{"type": "Bridge", "enabled": True}]}},
                                               "port": {"id": {"type": "ifname", "value": port}}}}}}


# Class 1: nesting a few million levels deep, as a whole document and inside a valid one.
if want("deep.json"):
    w("deep.json", "[" * 3_000_000 + "]" * 3_000_000 + "\n")
text = json.dumps(lldp("eth0", "leaf1", "swp1"))
if want("deep-inside.json"):
    w("deep-inside.json", text[:-1] + ', "x": ' + "{\"a\":" * 200_000 + "0" + "}" * 200_000 + "}\n")

# Class 3: a DOM of millions of one-key objects inside the 64 MiB file limit (8 bytes
# each: about 20 GiB of llvm::json DOM before issue 30).
n = 2_500_000
if want("objects.json"):
    w("objects.json", '{"lldp": {"interface": [' + ",".join(['{"a":0}'] * n) + "]}}\n")

# Class 3: 20,000 neighbours on one line, in 20 documents (each is parsed on its own,
# within the DOM budget), their interface names written with a JSON escape: each was
# searched for in the whole rest of the text.
docs = []
for d in range(20 if want("escaped.json") else 0):
    parts = ['{"e\\u0074h%d": {"chassis": {"sw%d": {}}, "port": {"id": {"type": "ifname", "value": "swp1"}}}}' % (i, i)
             for i in range(d * 1000, (d + 1) * 1000)]
    docs.append('{"lldp": {"interface": [' + ",".join(parts) + "]}}")
if want("escaped.json"):
    w("escaped.json", " ".join(docs) + "\n")

# Class 3 and 4: 10,000 unmanaged switches that report one NodeDescription (the
# suffix probe was quadratic), each linked to a hub; the names are 70 characters (the
# suffix must fit in 63).
name = "unmanaged-switch-" + "x" * 53
sw = 10000
# A hub has at most 255 ports: a tree of hubs, 250 leaves each.
hubs = (sw + 249) // 250 if want("unmanaged.net") else 0
out_lines = []
for h in range(hubs):
    hg = 0xF0000 + h
    out_lines.append('Switch\t254 "S-%016x"\t\t# "hub%d"' % (hg, h))
    for k in range(250):
        i = h * 250 + k
        if i >= sw:
            break
        out_lines.append('[%d]\t"S-%016x"[1]\t\t# "%s"' % (k + 1, 0x100000 + i, name))
    out_lines.append("")
for i in range(sw if hubs else 0):
    h = i // 250
    out_lines.append('Switch\t8 "S-%016x"\t\t# "%s"' % (0x100000 + i, name))
    out_lines.append('[1]\t"S-%016x"[%d]\t\t# "hub%d"' % (0xF0000 + h, i % 250 + 1, h))
    out_lines.append("")
if hubs:
    w("unmanaged.net", "\n".join(out_lines) + "\n")

# Class 4: names the importer must escape or keep apart.
#  - "fn" (a keyword the old hand list lacked), "for", "true";
#  - two HCAs with one description (one port each, must stay two ports);
#  - a switch whose port 0 is a peer (management port: malformed) is in its own file.
w("keywords.net", """Switch\t8 "S-0000000000000001"\t\t# "fn"
[1]\t"S-0000000000000002"[1]\t\t# "for"
[2]\t"H-0000000000000010"[1]\t\t# "true mlx5_0"
[3]\t"H-0000000000000012"[1]\t\t# "true mlx5_0"

Switch\t8 "S-0000000000000002"\t\t# "for"
[1]\t"S-0000000000000001"[1]\t\t# "fn"

Ca\t1 "H-0000000000000010"\t\t# "true mlx5_0"
[1]\t"S-0000000000000001"[2]\t\t# "fn"

Ca\t1 "H-0000000000000012"\t\t# "true mlx5_0"
[1]\t"S-0000000000000001"[3]\t\t# "fn"
""")
w("port0.net", """Switch\t8 "S-0000000000000001"\t\t# "a"
[1]\t"S-0000000000000002"[0]\t\t# "b"
""")
w("guid0.net", """Switch\t8 "S-0000000000000000"\t\t# "zero"
[1]\t"S-0000000000000002"[1]\t\t# "b"

Switch\t8 "S-0000000000000002"\t\t# "b"
[1]\t"S-0000000000000000"[1]\t\t# "zero"
""")
# A file name with a newline and a comment-ending in it (written into the header comment).
w("name\nfabric x { }\n.net", """Switch\t8 "S-0000000000000001"\t\t# "a"
[1]\t"S-0000000000000002"[1]\t\t# "b"

Switch\t8 "S-0000000000000002"\t\t# "b"
[1]\t"S-0000000000000001"[1]\t\t# "a"
""")
# Class 5: two discovered switches with one name, for --guids-from.
w("twins.net", """Switch\t8 "S-0000000000000a01"\t\t# "leaf"
[1]\t"S-0000000000000a03"[1]\t\t# "spine"

Switch\t8 "S-0000000000000a02"\t\t# "leaf"
[1]\t"S-0000000000000a03"[2]\t\t# "spine"

Switch\t8 "S-0000000000000a03"\t\t# "spine"
[1]\t"S-0000000000000a01"[1]\t\t# "leaf"
[2]\t"S-0000000000000a02"[1]\t\t# "leaf"
""")
