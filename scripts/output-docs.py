#!/usr/bin/env python3
"""The key tables of docs/outputs.md, generated from the JSON Schemas in docs/schemas/.

    python3 scripts/output-docs.py          # rewrite the tables in docs/outputs.md
    python3 scripts/output-docs.py --check  # exit 1 when docs/outputs.md is not in step

Each output's schema is the one source of its keys' meanings and units: a property's
`description` is its meaning, and a number's description ends with its unit in brackets
("IT power [W]"). A key whose name is not fixed (a tier, a media) is a schema under
`additionalProperties` or `patternProperties` whose `title` names it ("<tier>"). The
tables sit between `<!-- keys: NAME -->` and `<!-- end keys -->` in docs/outputs.md.
tests/lit/schemas/ runs --check, and checks every key of every example's real outputs
against the tables (tests/lit/schemas/Inputs/check_outputs.py).
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(ROOT, "docs", "schemas")
DOC = os.path.join(ROOT, "docs", "outputs.md")
# The outputs whose keys docs/outputs.md lists, in its order (the file name without .schema.json).
OUTPUTS = ["summary", "bom", "cabling-plan", "energy", "hosts-plan", "diff", "verify", "export", "sweep"]
UNIT = re.compile(r"\s*\[([^\]]+)\]$")


def load(name):
    with open(os.path.join(SCHEMAS, name + ".schema.json"), encoding="utf-8") as f:
        return json.load(f)


def resolve(root, s):
    """Follow a local $ref, keeping the referring schema's own description."""
    while "$ref" in s:
        ref = s["$ref"]
        assert ref.startswith("#/"), ref
        target = root
        for part in ref[2:].split("/"):
            target = target[part]
        merged = dict(target)
        merged.update({k: v for k, v in s.items() if k != "$ref"})
        s = merged
    return s


def type_of(s):
    if "const" in s:
        return "string" if isinstance(s["const"], str) else type(s["const"]).__name__
    if "enum" in s:
        return "string"
    if "oneOf" in s:
        return " or ".join(type_of(x) for x in s["oneOf"])
    t = s.get("type", "any")
    return " or ".join(t) if isinstance(t, list) else t


def children(root, s):
    """(name, schema, fixed) of an object's keys, (name, schema) of an array's items."""
    s = resolve(root, s)
    out = []
    for alt in s.get("oneOf", []):
        out += children(root, alt)
    for k, v in s.get("properties", {}).items():
        out.append((k, resolve(root, v), True))
    for v in s.get("patternProperties", {}).values():
        v = resolve(root, v)
        out.append((v.get("title", "<key>"), v, False))
    ap = s.get("additionalProperties")
    if isinstance(ap, dict):
        ap = resolve(root, ap)
        out.append((ap.get("title", "<key>"), ap, False))
    return out


def rows(root, s, prefix=""):
    """Every key path of the schema, depth first: (path, type, unit, meaning)."""
    for name, sub, _ in children(root, s):
        path = prefix + name
        desc = sub.get("description", "")
        m = UNIT.search(desc)
        unit = m.group(1) if m else ""
        meaning = UNIT.sub("", desc).strip()
        values = sub.get("enum") or ([sub["const"]] if "const" in sub else None)
        if values and isinstance(values[0], str) and "const" not in sub and len(values) <= 8:
            meaning += " One of: " + ", ".join("`%s`" % v for v in values) + "."
        t = type_of(sub)
        items = sub.get("items")
        if "array" in t and isinstance(items, dict):
            items = resolve(root, items)
            if items.get("type") == "object" or "properties" in items:
                t = "array of objects"
                yield path, t, unit, meaning
                yield from rows(root, items, path + "[].")
                continue
            t = "array of " + type_of(items)
        yield path, t, unit, meaning
        if children(root, sub):
            yield from rows(root, sub, path + ".")


def table(name):
    root = load(name)
    lines = ["| key | type | unit | meaning |", "|---|---|---|---|"]
    for path, t, unit, meaning in rows(root, root):
        lines.append("| `%s` | %s | %s | %s |" % (path, t, unit, meaning.replace("|", "\\|")))
    return "\n".join(lines)


def render(text):
    def sub(m):
        return "<!-- keys: %s -->\n%s\n<!-- end keys -->" % (m.group(1), table(m.group(1)))
    return re.sub(r"<!-- keys: ([a-z-]+) -->\n.*?<!-- end keys -->", sub, text, flags=re.S)


def main():
    check = "--check" in sys.argv[1:]
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    missing = [n for n in OUTPUTS if "<!-- keys: %s -->" % n not in text]
    if missing:
        sys.exit("output-docs: docs/outputs.md has no table for " + ", ".join(missing))
    bad = [(n, path) for n in OUTPUTS for path, t, unit, meaning in rows(load(n), load(n))
           if not meaning or (("number" in t or "integer" in t) and not unit)]
    for n, path in bad:
        print("output-docs: %s.schema.json: %s needs a description (a number's ends in its unit: [W])"
              % (n, path), file=sys.stderr)
    if bad:
        sys.exit(1)
    new = render(text)
    if check:
        if new != text:
            sys.exit("output-docs: docs/outputs.md is not in step with docs/schemas/: "
                     "run python3 scripts/output-docs.py")
        return
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(new)


if __name__ == "__main__":
    main()
