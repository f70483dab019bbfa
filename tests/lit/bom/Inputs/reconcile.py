"""The BOM reconciles with the cabling plan, row by row.

Sums cabling/plan.csv (cable_units per cable SKU and order length, a/b_transceiver_units
per transceiver SKU) and compares every sum with bom/bom.csv's count for that SKU; also
checks order_quantity = count + spares on every BOM row, and that the spares are what
the policy given on the command line asks (ceil(count * percent / 100), at least min).
Usage: reconcile.py OUTDIR [category=percent ...] [min=N]
"""
import csv
import math
import sys
from collections import Counter

out = sys.argv[1]
policy, minimum = {}, 0
for arg in sys.argv[2:]:
    k, v = arg.split("=")
    if k == "min":
        minimum = int(v)
    else:
        policy[k] = float(v)

plan = list(csv.DictReader(open(f"{out}/cabling/plan.csv", newline="")))
bom = list(csv.DictReader(open(f"{out}/bom/bom.csv", newline="")))
cables, xcvrs = Counter(), Counter()
for row in plan:
    cables[(row["cable_sku"], float(row["order_length_m"]))] += int(row["cable_units"])
    if int(row["a_transceiver_units"]):
        xcvrs[row["a_transceiver"]] += int(row["a_transceiver_units"])
    if int(row["b_transceiver_units"]):
        xcvrs[row["b_transceiver"]] += int(row["b_transceiver_units"])
    for side in "ab":
        if int(row[f"{side}_transceiver_units"]) and not row[f"{side}_transceiver"]:
            sys.exit(f"plan row {row['cable']}: a transceiver unit without a transceiver")

bom_cables, bom_xcvrs = Counter(), Counter()
bad = 0
for row in bom:
    count, spares, qty = int(row["count"]), int(row["spares"]), int(row["order_quantity"])
    if qty != count + spares:
        print(f"bom row {row['sku']}: order_quantity {qty} != count {count} + spares {spares}")
        bad += 1
    cat = row["category"]  # device rows: their spares are checked by the tests' FileCheck lines
    if cat in policy:
        want = max(math.ceil(count * policy[cat] / 100 - 1e-9), minimum) if count else 0
        if spares != want:
            print(f"bom row {row['sku']}: {spares} spares, policy asks {want}")
            bad += 1
    elif row["category"] in ("transceiver", "cable") and spares:
        print(f"bom row {row['sku']}: {spares} spares without a policy for {row['category']}")
        bad += 1
    if row["category"] == "cable":
        bom_cables[(row["sku"], float(row["order_length_m"]))] += count
    elif row["category"] == "transceiver":
        bom_xcvrs[row["sku"]] += count

for name, a, b in (("cable", cables, bom_cables), ("transceiver", xcvrs, bom_xcvrs)):
    for key in sorted(set(a) | set(b)):
        if a[key] != b[key]:
            print(f"{name} {key}: plan sums to {a[key]}, BOM says {b[key]}")
            bad += 1
    if not a:
        print(f"no {name} in the plan")
print(f"reconciled: {sum(cables.values())} cables in {len(cables)} rows, "
      f"{sum(xcvrs.values())} transceivers in {len(xcvrs)} rows, {len(plan)} plan rows")
sys.exit(1 if bad else 0)
