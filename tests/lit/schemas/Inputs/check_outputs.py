#!/usr/bin/env python3
"""Checks real fabc outputs against their data contract.

    check_outputs.py NAME FILE...   each FILE against docs/schemas/NAME.schema.json
    check_outputs.py --dir OUT      every JSON output of `fabc build -o OUT`
    --doc FILE first: read the key tables from FILE instead of docs/outputs.md

Each file must validate (JSON Schema 2020-12, python3-jsonschema), and every key it
writes must be a row of NAME's key table in docs/outputs.md with a meaning, and a unit
when its value is a number. The key paths come from the file itself, walked beside its
schema (a key whose name varies, such as a tier, is the schema's title: "<tier>"), so a
key the writer adds without docs fails here even if someone loosened the schema.
"""
import json
import os
import re
import sys

import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
docs = __import__("output-docs")

# Where `fabc build` writes each JSON output.
BUILD_OUTPUTS = {"summary.json": "summary", "bom/bom.json": "bom", "cabling/plan.json": "cabling-plan",
                 "energy/energy.json": "energy", "hosts/plan.json": "hosts-plan",
                 "export/design.json": "export"}


DOC = docs.DOC


def documented(name):
    """NAME's table in docs/outputs.md: key path -> (type, unit, meaning)."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- keys: %s -->\n(.*?)<!-- end keys -->" % re.escape(name), text, re.S)
    if not m:
        sys.exit("check_outputs: docs/outputs.md has no key table for " + name)
    table = {}
    for line in m.group(1).splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 4:
            table[cells[0].strip("`")] = cells[1:]
    return table


def paths(root, schema, value, prefix, out):
    """The documented path of every key in value, walked beside its schema."""
    if isinstance(value, list):
        for v in value:
            items = schema.get("items") if schema else None
            paths(root, docs.resolve(root, items) if isinstance(items, dict) else None, v, prefix + "[].", out)
        return
    if not isinstance(value, dict):
        return
    for key, v in value.items():
        sub, name = None, key
        for cname, cs, fixed in (docs.children(root, schema) if schema else []):
            if fixed and cname == key:
                sub = cs
                break
        if sub is None and schema:
            for pattern, ps in docs.resolve(root, schema).get("patternProperties", {}).items():
                if re.search(pattern, key):
                    sub = docs.resolve(root, ps)
                    name = sub.get("title", "<key>")
            ap = docs.resolve(root, schema).get("additionalProperties")
            if sub is None and isinstance(ap, dict):
                sub = docs.resolve(root, ap)
                name = sub.get("title", "<key>")
        path = prefix + name
        out.setdefault(path, set()).add(type(v).__name__)
        if isinstance(v, (dict, list)):
            paths(root, sub, v, path + ("." if isinstance(v, dict) else ""), out)


def check(name, files):
    schema = docs.load(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema)
    table = documented(name)
    failed = False
    for f in files:
        with open(f, encoding="utf-8") as fh:
            doc = json.load(fh)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:5]:
            print("%s: %s: not valid against %s.schema.json at %s: %s" % (
                f, name, name, "/".join(map(str, e.absolute_path)) or "(root)", e.message[:300]))
        failed |= bool(errors)
        found = {}
        paths(schema, schema, doc, "", found)
        for path, types in sorted(found.items()):
            # A list's own path ends in "[]" only for its items; the list is the key itself.
            row = table.get(path)
            if not row or not row[2]:
                print("%s: key '%s' is not documented in docs/outputs.md (%s)" % (f, path, name))
                failed = True
            elif types & {"int", "float"} and not row[1]:
                print("%s: key '%s' is a number without a unit in docs/outputs.md (%s)" % (f, path, name))
                failed = True
    return not failed, len(files)


def main():
    global DOC
    args = sys.argv[1:]
    if args[:1] == ["--doc"]:
        DOC, args = args[1], args[2:]
    ok, counts = True, {}
    if args[:1] == ["--dir"]:
        for rel, name in BUILD_OUTPUTS.items():
            p = os.path.join(args[1], rel)
            if os.path.exists(p):
                good, n = check(name, [p])
                ok &= good
                counts[name] = counts.get(name, 0) + n
    else:
        good, n = check(args[0], args[1:])
        ok &= good
        counts[args[0]] = n
    print("checked: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
