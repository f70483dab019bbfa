#!/usr/bin/env python3
"""mutate.py IN OUT STATEMENT: loads IN as `d`, runs STATEMENT, writes OUT (drift.test)."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    d = json.load(f)
exec(sys.argv[3])
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(d, f, indent=1)
