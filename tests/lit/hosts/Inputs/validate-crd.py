#!/usr/bin/env python3
"""Validates Kubernetes objects against a CustomResourceDefinition, as the API server does
with the structural schema: the object's apiVersion must be one of the CRD's group/version,
its kind the CRD's kind, metadata.name a DNS-1123 subdomain (and a namespace given for a
namespaced kind), and the object must satisfy the version's openAPIV3Schema (JSON Schema,
read by python3-jsonschema; the x-kubernetes-* extensions are not JSON Schema keywords and
are skipped, so the CEL rules of x-kubernetes-validations are counted, not evaluated).
A field the schema does not name is an error, as kubectl's default strict field
validation makes it (the API server would otherwise prune it silently).

    usage: validate-crd.py CRD.yaml OBJECTS.yaml...

Prints one line per object, "ok KIND NAME", and exits 1 at the first invalid one.
"""
import re
import sys

import jsonschema
import yaml

DNS1123 = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def strip_extensions(s):
    """The schema without x-kubernetes-* keys; returns (schema, number of CEL rules)."""
    rules = 0
    if isinstance(s, dict):
        out = {}
        for k, v in s.items():
            if k == "x-kubernetes-validations":
                rules += len(v)
            elif not k.startswith("x-kubernetes-"):
                out[k], n = strip_extensions(v)
                rules += n
        if "properties" in out and "additionalProperties" not in out and \
                not s.get("x-kubernetes-preserve-unknown-fields"):
            out["additionalProperties"] = False
        return out, rules
    if isinstance(s, list):
        items = [strip_extensions(x) for x in s]
        return [x for x, _ in items], sum(n for _, n in items)
    return s, 0


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    crd = yaml.safe_load(open(sys.argv[1]))
    spec = crd["spec"]
    kind = spec["names"]["kind"]
    versions = {f'{spec["group"]}/{v["name"]}': v for v in spec["versions"] if v.get("served", True)}
    for path in sys.argv[2:]:
        for obj in yaml.safe_load_all(open(path)):
            if obj is None:
                continue
            name = obj.get("metadata", {}).get("name", "")
            where = f"{path}: {obj.get('kind')} {name}"
            if obj.get("kind") != kind:
                sys.exit(f"{where}: kind is not {kind}")
            version = versions.get(obj.get("apiVersion"))
            if version is None:
                sys.exit(f"{where}: apiVersion {obj.get('apiVersion')} is none of {sorted(versions)}")
            if not DNS1123.match(name) or len(name) > 253:
                sys.exit(f"{where}: metadata.name is not a DNS-1123 subdomain")
            if spec["scope"] == "Namespaced" and not DNS1123.match(obj["metadata"].get("namespace", "")):
                sys.exit(f"{where}: a namespaced kind without a valid metadata.namespace")
            schema, rules = strip_extensions(version["schema"]["openAPIV3Schema"])
            errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(obj), key=lambda e: list(e.path))
            for e in errors:
                print(f"{where}: {'.'.join(str(p) for p in e.path) or '(root)'}: {e.message}", file=sys.stderr)
            if errors:
                sys.exit(1)
            print(f"ok {kind} {name} ({rules} CEL rules not evaluated)")


if __name__ == "__main__":
    main()
