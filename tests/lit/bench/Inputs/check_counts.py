"""Checks that the counts a bench generator writes in its file's header are what fabc
built (summary.json): the benchmark reports those counts, so they must be true."""
import json
import re
import sys

fab, summary = sys.argv[1], sys.argv[2]
head = {}
for line in open(fab):
    if not line.startswith("//"):
        break
    m = re.match(r"//\s+(\w+)\s+([\d,]+)", line)
    if m:
        head[m.group(1)] = int(m.group(2).replace(",", ""))
s = json.load(open(summary))
built = {"GPUs": s["gpus"], "links": s["links"],
         "switches": sum(t["switches"] for t in s["tiers"])}
plural = {"leaf": "leaves", "spine": "spines", "core": "cores", "super": "supers"}
for t in s["tiers"]:
    built[plural.get(t["tier"], t["tier"])] = t["switches"]
bad = [f"{k}: header {v:,}, built {built[k]:,}" for k, v in head.items() if k in built and built[k] != v]
if bad or not head:
    sys.exit("count mismatch: " + "; ".join(bad or ["no counts in the header"]))
print("counts match:", ", ".join(f"{k} {v:,}" for k, v in sorted(head.items()) if k in built))
