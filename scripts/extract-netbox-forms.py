#!/usr/bin/env python3
"""Extracts the CSV columns and choice values of NetBox's bulk-import forms.

    python3 scripts/extract-netbox-forms.py NETBOX_CHECKOUT [COMMIT] > tests/lit/export/Inputs/netbox-import-forms.json

Reads (never imports: no Django needed) netbox/dcim/forms/bulk_import.py,
netbox/ipam/forms/bulk_import.py and the choice sets they name, and writes, per
`*ImportForm` that `fabc export --format=netbox` fills, its `Meta.fields` (the CSV
columns NetBox accepts), the fields it declares required, and the values of every
choice field. tests/lit/export checks the export's headers and values against it.
"""
import ast
import json
import os
import re
import subprocess
import sys

FORMS = {
    "dcim": ["SiteImportForm", "ManufacturerImportForm", "DeviceTypeImportForm", "DeviceRoleImportForm",
             "RackImportForm", "DeviceImportForm", "InterfaceImportForm", "CableImportForm"],
    "ipam": ["IPAddressImportForm"],
}


def parse(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        text = f.read()
    # NetBox needs Python 3.12, whose f-strings may nest the same quotes (f'{d['k']}');
    # Debian 12's 3.11 cannot parse that: such subscripts take the other quotes first.
    text = "\n".join(re.sub(r"\['(\w+)'\]", r'["\1"]', l) if "f'" in l else l for l in text.split("\n"))
    return ast.parse(text)


def choice_sets(tree):
    """class name -> the values of its CHOICES (constants resolved)."""
    out = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        consts, choices = {}, None
        for st in cls.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                name = st.targets[0].id
                if name == "CHOICES":
                    choices = st.value
                elif isinstance(st.value, ast.Constant) and isinstance(st.value.value, (str, int)):
                    consts[name] = st.value.value
        if choices is None:
            continue
        values = []

        def pairs(node):
            # (VALUE, label[, colour]) entries, possibly grouped: ((group label, (entries...)), ...)
            if isinstance(node, (ast.Tuple, ast.List)):
                if len(node.elts) in (2, 3) and isinstance(node.elts[0], (ast.Name, ast.Constant)) and not isinstance(
                        node.elts[1], (ast.Tuple, ast.List)):
                    v = node.elts[0]
                    val = consts.get(v.id) if isinstance(v, ast.Name) else v.value
                    if isinstance(val, (str, int)):
                        values.append(val)
                    return
                for e in node.elts:
                    pairs(e)

        pairs(choices)
        out[cls.name] = values
    return out


def forms(tree, wanted):
    out = {}
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}

    def declared(cls):
        fields = {}
        for base in cls.bases:
            if isinstance(base, ast.Name) and base.id in classes:
                fields.update(declared(classes[base.id]))
        for st in cls.body:
            if isinstance(st, ast.Assign) and isinstance(st.value, ast.Call) and isinstance(st.targets[0], ast.Name):
                kw = {k.arg: k.value for k in st.value.keywords}
                req = not (isinstance(kw.get("required"), ast.Constant) and kw["required"].value is False)
                choices = kw.get("choices")
                fields[st.targets[0].id] = {"required": req,
                                            "choices": choices.id if isinstance(choices, ast.Name) else None}
        return fields

    for name in wanted:
        cls = classes[name]
        meta = [s for s in cls.body if isinstance(s, ast.ClassDef) and s.name == "Meta"][0]
        cols = None
        for st in meta.body:
            if isinstance(st, ast.Assign) and st.targets[0].id == "fields":
                cols = [e.value for e in st.value.elts]
        d = declared(cls)
        out[name] = {
            "fields": cols,
            "required": sorted(f for f, v in d.items() if v["required"] and f in cols),
            "choice_fields": {f: v["choices"] for f, v in sorted(d.items()) if v["choices"] and f in cols},
        }
    return out


def main():
    root = sys.argv[1]
    git = lambda *a: subprocess.run(["git", "-C", root, *a], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(root, "netbox", "release.yaml"), encoding="utf-8") as f:
        version = [l.split(":", 1)[1].strip().strip('"') for l in f if l.startswith("version:")][0]
    choices = {}
    for rel in ("netbox/dcim/choices.py", "netbox/ipam/choices.py", "netbox/netbox/choices.py",
                "netbox/wireless/choices.py"):
        choices.update(choice_sets(parse(root, rel)))
    result = {
        "about": "Column names, required fields and choice values of NetBox's CSV bulk-import forms, extracted by "
                 "scripts/extract-netbox-forms.py from the NetBox source (netbox/dcim/forms/bulk_import.py, "
                 "netbox/ipam/forms/bulk_import.py, netbox/{dcim,ipam,netbox,wireless}/choices.py). NetBox is "
                 "Copyright NetBox Labs and contributors, licensed under the Apache License 2.0; these "
                 "names are facts about its interface, kept for testing fabc's export against it.",
        "netbox_version": version,
        "netbox_commit": (sys.argv[2] if len(sys.argv) > 2 else git("rev-parse", "HEAD")) or None,
        "licence": "Apache-2.0",
        "forms": {},
        "choices": {},
    }
    for app, names in FORMS.items():
        result["forms"].update(forms(parse(root, "netbox/%s/forms/bulk_import.py" % app), names))
    used = sorted({c for f in result["forms"].values() for c in f["choice_fields"].values()})
    result["choices"] = {c: choices[c] for c in used if c in choices}
    json.dump(result, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
