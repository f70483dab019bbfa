#!/usr/bin/env python3
"""Gives a fabc fabric.net the GUIDs and HCA descriptions a real fabric reports, so that
ibsim simulates it as hardware would answer ibnetdiscover:

  vendor-guids.py NET > REAL

- every node GUID becomes a random (seeded, so the test is repeatable) vendor-style GUID:
  NVIDIA's OUI b8:ce:f6 (HCAs) or fc:6a:1c (switches) in the top bits, no relation
  between nodes (real adapters do not follow fabc's base + 2 per port);
- every HCA's port GUID is written as its node GUID, as ConnectX-4 and later report it
  (ibsim serves its own, node GUID + 1, whatever the file says);
- every HCA's description becomes rdma-ndd's "HOST mlx5_N", N numbering the host's HCAs
  in a shuffled order: the PCI order rdma devices are named in is not the design's port
  order, so a mapping by index would be wrong.
"""
import random
import re
import sys

GUID = re.compile(r'([SH])-([0-9a-f]{16})')
HCA_DESC = re.compile(r'^(\S+) (\S+)$')

rng = random.Random(25)
lines = open(sys.argv[1]).read().split('\n')

# Node GUIDs and HCA descriptions, in the order the file lists them.
new_guid, descs = {}, {}
for line in lines:
    for kind, g in GUID.findall(line):
        if g not in new_guid:
            oui = 0xfc6a1c if kind == 'S' else 0xb8cef6
            guid = oui << 40 | 0x03 << 32 | rng.getrandbits(32)
            while guid in new_guid.values():
                guid = oui << 40 | 0x03 << 32 | rng.getrandbits(32)
            new_guid[g] = guid
    m = re.match(r'^Ca\s+\d+\s+"H-([0-9a-f]{16})"\s+#\s+"([^"]*)"', line)
    if m:
        descs[m.group(1)] = m.group(2)

# rdma-ndd's names: per host, its HCAs numbered mlx5_0.. in a shuffled order.
by_host = {}
for g, d in descs.items():
    by_host.setdefault(HCA_DESC.match(d).group(1), []).append(g)
new_desc = {}
for host, guids in by_host.items():
    order = list(guids)
    rng.shuffle(order)
    for i, g in enumerate(order):
        new_desc[descs[g]] = '%s mlx5_%d' % (host, i)

out = []
for line in lines:
    # A switch's port GUID (switchguid=G(G)) is its node GUID; an HCA port's is written as
    # its node GUID (fabc wrote node GUID + 1).
    switch = line.startswith('switchguid=')

    def port(m):
        g = int(m.group(1), 16) - (0 if switch else 1)
        return '(%x)' % new_guid['%016x' % g]
    line = re.sub(r'\(([0-9a-f]+)\)', port, line)
    line = GUID.sub(lambda m: '%s-%016x' % (m.group(1), new_guid[m.group(2)]), line)
    line = re.sub(r'^(switchguid|caguid)=0x([0-9a-f]+)',
                  lambda m: '%s=0x%x' % (m.group(1), new_guid['%016x' % int(m.group(2), 16)]), line)
    line = re.sub(r'"([^"]+ [^"]+)"', lambda m: '"%s"' % new_desc.get(m.group(1), m.group(1)), line)
    out.append(line)
sys.stdout.write('\n'.join(out))
