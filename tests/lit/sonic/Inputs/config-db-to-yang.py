#!/usr/bin/env python3
"""Turns SONiC config_db.json files into YANG instance data (XML) for yanglint.

config_db.json is not YANG instance data as it stands; sonic-yang-mgmt translates it
by these rules, which this script follows (Inputs/sonic-yang/README.md):
- table T of module M becomes container M:M / T / list T_LIST (the list is read from
  the models' own tree, `yanglint -f tree`); a table whose YANG node is a container
  with a container child (DEVICE_METADATA/localhost) keeps that container;
- a key "a|b" is split on '|' into the list's key leaves in order (the list whose key
  has as many leaves, when a table has several);
- key-value tables (DSCP_TO_TC_MAP, CABLE_LENGTH, ...) become a nested list whose key
  is the field name and whose one other leaf holds the value;
- a field the models declare as a leaf-list, written as a JSON list or a
  comma-separated string, becomes one element per item;
- a field inside a choice (ACL_RULE's SRC_IP, in case ip4_prefix) is a field of the
  list itself: choices and cases exist in the schema only.
Values stay text, so no number or boolean conversion is guessed. A table or field no
model declares is an error here (not silently dropped), as it would be in SONiC.

usage: config-db-to-yang.py YANGDIR CONFIG_DB.json OUT.xml
"""
import glob
import json
import os
import re
import subprocess
import sys
from xml.sax.saxutils import escape


def load_schema(yangdir):
    """Per table: (module, namespace, node). A node is a dict with 'kind' (container,
    list, leaf, leaf-list), 'keys' for lists and 'children' (name -> node)."""
    files = sorted(glob.glob(os.path.join(yangdir, "*.yang")))
    tree = subprocess.run(["yanglint", "-p", yangdir, "-f", "tree"] + files, check=True,
                          capture_output=True, text=True).stdout
    ns = {}
    for f in files:
        text = open(f).read()
        m = re.search(r'^\s*module\s+([\w-]+)', text, re.M)
        n = re.search(r'^\s*namespace\s+"([^"]+)"', text, re.M)
        if m and n:
            ns[m.group(1)] = n.group(1)
    tables = {}
    module = None
    stack = []  # (column, node)
    for line in tree.splitlines():
        m = re.match(r'^module: ([\w-]+)', line)
        if m:
            module, stack = m.group(1), []
            continue
        m = re.match(r'^([ |]*)[+x]--(rw|ro) (\S+?)(\*|\?)?(?:\s+\[([^\]]+)\])?(?:\s+(.*))?$', line)
        if not m or module is None:
            continue
        col, name, mark, keys, typ = len(m.group(1)), m.group(3), m.group(4), m.group(5), m.group(6)
        if name.startswith("(") and stack:
            # a choice (its cases are the `+--:(name)` lines): schema only, so its leaves
            # are the enclosing list's own fields in the data (ACL_RULE's SRC_IP)
            while stack and stack[-1][0] >= col:
                stack.pop()
            stack.append((col, stack[-1][1]))
            continue
        if mark == "*" and keys:
            node = {"kind": "list", "keys": keys.split(), "children": {}}
        elif mark == "*":
            node = {"kind": "leaf-list", "children": {}}
        elif typ:
            node = {"kind": "leaf", "children": {}}
        else:
            node = {"kind": "container", "children": {}}
        while stack and stack[-1][0] >= col:
            stack.pop()
        if not stack:
            node["top"] = True  # the module's own container
        else:
            stack[-1][1]["children"][name] = node
            if stack[-1][1].get("top"):
                tables[name] = (module, ns[module], node)
        stack.append((col, node))
    return tables


class Converter:
    def __init__(self, tables):
        self.tables = tables
        self.errors = []

    def leaf(self, out, name, node, value, where):
        if node["kind"] == "leaf-list":
            # a JSON list, or a comma-separated string
            for item in (value if isinstance(value, list) else str(value).split(",")):
                out.append(f"<{name}>{escape(item)}</{name}>")
        elif node["kind"] == "leaf":
            out.append(f"<{name}>{escape(str(value))}</{name}>")
        else:
            self.errors.append(f"{where}: field '{name}' is a {node['kind']} in the models")

    def entry(self, out, lst_name, lst, key, fields, where):
        parts = key.split("|")
        out.append(f"<{lst_name}>")
        for k, v in zip(lst["keys"], parts):
            out.append(f"<{k}>{escape(v)}</{k}>")
        for field, value in sorted(fields.items()):
            child = lst["children"].get(field)
            nested = [(n, c) for n, c in lst["children"].items() if c["kind"] == "list"]
            if child is None and len(nested) == 1 and isinstance(value, str):
                # key-value table: field -> (nested key, its one value leaf)
                n, c = nested[0]
                vals = [x for x in c["children"] if x not in c["keys"]]
                if len(c["keys"]) != 1 or len(vals) != 1:
                    self.errors.append(f"{where}: cannot map key-value field '{field}'")
                    continue
                out.append(f"<{n}><{c['keys'][0]}>{escape(field)}</{c['keys'][0]}>"
                           f"<{vals[0]}>{escape(value)}</{vals[0]}></{n}>")
            elif child is None:
                self.errors.append(f"{where}: no field '{field}' in {lst_name}")
            else:
                self.leaf(out, field, child, value, where)
        out.append(f"</{lst_name}>")

    def table(self, out, name, rows):
        if name not in self.tables:
            self.errors.append(f"table {name}: in no SONiC YANG model")
            return
        module, ns, node = self.tables[name]
        out.append(f'<{module} xmlns="{ns}"><{name}>')
        lists = {n: c for n, c in node["children"].items() if c["kind"] == "list"}
        for key, fields in sorted(rows.items()):
            where = f"{name}|{key}"
            child = node["children"].get(key)
            if child is not None and child["kind"] == "container":
                out.append(f"<{key}>")
                for field, value in sorted(fields.items()):
                    leaf = child["children"].get(field)
                    if leaf is None:
                        self.errors.append(f"{where}: no field '{field}'")
                    else:
                        self.leaf(out, field, leaf, value, where)
                out.append(f"</{key}>")
                continue
            n = len(key.split("|"))
            match = [(ln, l) for ln, l in lists.items() if len(l["keys"]) == n]
            if len(match) != 1:
                self.errors.append(f"{where}: {len(match)} lists of {name} have {n} key leaves")
                continue
            self.entry(out, match[0][0], match[0][1], key, fields, where)
        out.append(f"</{name}></{module}>")


def main():
    yangdir, src, dst = sys.argv[1:4]
    conv = Converter(load_schema(yangdir))
    db = json.load(open(src))
    by_module = {}
    for name in sorted(db):
        module = conv.tables.get(name, (name,))[0]
        by_module.setdefault(module, []).append(name)
    out = []
    for module, names in sorted(by_module.items()):
        # one top container per module, every table of it inside
        parts = []
        for name in names:
            conv.table(parts, name, db[name])
        text = "".join(parts)
        # merge the per-table module wrappers of one module into one
        head = re.match(r'^(<[\w-]+ xmlns="[^"]+">)', text)
        if head:
            text = head.group(1) + text.replace(head.group(1), "").replace(f"</{module}>", "") + f"</{module}>"
        out.append(text)
    for e in conv.errors:
        print(f"error: {src}: {e}")
    if conv.errors:
        return 1
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
