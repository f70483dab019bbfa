#!/usr/bin/env python3
"""The cables of a cabling plan (plan.csv) as a set of unordered pairs of ends, device
names under fabc's host-name rule (lower case, brackets dropped, '.' and '_' as '-'),
so that two plans compare up to how the design names its instances.

  plan_pairs.py PLAN.csv [OTHER.csv]   print the pairs, sorted; with OTHER: exit 1 if they differ
"""
import csv
import sys


def host(name):
    return "".join("-" if c in "._" else c.lower() for c in name if c not in "[]")


def pairs(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return sorted(tuple(sorted([(host(r["a_device"]), r["a_port"]), (host(r["b_device"]), r["b_port"])]))
                  for r in rows)


a = pairs(sys.argv[1])
if len(sys.argv) == 2:
    for p in a:
        print(p)
    sys.exit(0)
b = pairs(sys.argv[2])
print(f"{len(a)} cables, {len(b)} cables, {sum(1 for x, y in zip(a, b) if x == y)} the same")
sys.exit(0 if a == b else 1)
