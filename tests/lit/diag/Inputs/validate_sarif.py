#!/usr/bin/env python3
"""Validates a fabc SARIF log against the SARIF 2.1.0 schema subset (README.md), then
checks what the schema cannot: rule indices match rule ids, every location is inside
its file, and the columns count code points.

usage: validate_sarif.py LOG [SOURCE_ROOT]   (relative URIs resolve against SOURCE_ROOT)
"""
import json
import os
import re
import sys
import urllib.parse

import jsonschema

here = os.path.dirname(os.path.abspath(__file__))
schema = json.load(open(os.path.join(here, "sarif-2.1.0-subset.schema.json")))
log = json.load(open(sys.argv[1]))
root = sys.argv[2] if len(sys.argv) > 2 else "."

# RFC 3986: unreserved, sub-delims, ':' '@' '/' '?' '#' '[' ']' and percent-encodings.
URI_CHARS = re.compile(r"^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]]|%[0-9A-Fa-f]{2})*$")
checker = jsonschema.FormatChecker()


@checker.checks("uri-reference")
def uri_reference(v):
    return isinstance(v, str) and bool(URI_CHARS.match(v))


@checker.checks("uri")
def uri(v):
    return isinstance(v, str) and bool(URI_CHARS.match(v)) and bool(re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:", v))


jsonschema.Draft7Validator.check_schema(schema)
errors = sorted(jsonschema.Draft7Validator(schema, format_checker=checker).iter_errors(log), key=str)
for e in errors:
    print("schema:", "/".join(map(str, e.absolute_path)), e.message)
if errors:
    sys.exit(1)

run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert run.get("columnKind") == "unicodeCodePoints"
assert len({r["id"] for r in rules}) == len(rules), "duplicate rule ids"
results = run["results"]
for res in results:
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"], res
    for loc in res.get("locations", []) + res.get("relatedLocations", []):
        pl = loc["physicalLocation"]
        uri_ = pl["artifactLocation"]["uri"]
        path = urllib.parse.unquote(uri_[len("file://"):] if uri_.startswith("file://") else uri_)
        lines = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
        r = pl["region"]
        assert 1 <= r["startLine"] <= r["endLine"] <= len(lines), (uri_, r)
        assert r["startColumn"] <= len(lines[r["startLine"] - 1]) + 1, (uri_, r)
        assert r["endColumn"] <= len(lines[r["endLine"] - 1]) + 1, (uri_, r)
        assert (r["endLine"], r["endColumn"]) > (r["startLine"], r["startColumn"]), (uri_, r)
print(f"sarif ok: {len(rules)} rules, {len(results)} results")
