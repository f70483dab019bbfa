#!/usr/bin/env python3
"""Prints the errors and warnings of a SARIF Multitool `validate` log (its own SARIF), one a
line as "LEVEL RULE: message", then "multitool: N errors"; exits 1 if there are errors."""
import json
import sys

log = json.load(open(sys.argv[1]))
errors = 0
for run in log["runs"]:
    rules = run["tool"]["driver"].get("rules", [])
    for r in run.get("results", []):
        level = r.get("level", "warning")
        if level not in ("error", "warning"):
            continue
        msg = r["message"].get("text") or " ".join(r["message"].get("arguments", []))
        print(level, r.get("ruleId"), msg)
        errors += level == "error"
print(f"multitool: {errors} errors")
sys.exit(1 if errors else 0)
