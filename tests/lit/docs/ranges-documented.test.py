import re
import sys

defs, doc = sys.argv[1], sys.argv[2]
code = {}
for line in open(defs, encoding="utf-8"):
    m = re.match(r'RANGE\("([^"]+)", "([^"]+)", ([^,]+), (true|false), ([^,]+), (true|false), E\d{4}, ', line.strip())
    if m:
        where, key, lo, lo_open, hi, whole = m.groups()
        code[(where, key)] = (float(lo), lo_open == "true", float(hi), whole == "true")
text = open(doc, encoding="utf-8").read()
section = text.split("## 12. Valid ranges", 1)[1].split("\n## ", 1)[0]
documented = {}
for row in re.finditer(r"^\| ([^|]+?) \| `([^`]+)` \| ([\[(])([\d,.e+]+), ([\d,.e+]+)\] \| [^|]* \| ([^|]*)\|$", section, re.M):
    where, key, bracket, lo, hi, whole = row.groups()
    documented[(where, key)] = (float(lo.replace(",", "")), bracket == "(", float(hi.replace(",", "")),
                                whole.strip() == "yes")
bad = 0
for k, v in code.items():
    if documented.get(k) != v:
        print(f"Ranges.def {k} = {v}, docs/language.md says {documented.get(k)}")
        bad += 1
for k in documented:
    if k not in code:
        print(f"docs/language.md lists {k}, which Ranges.def does not check")
        bad += 1
if not code:
    print("no RANGE rows found")
    bad += 1
sys.exit(1 if bad else 0)
