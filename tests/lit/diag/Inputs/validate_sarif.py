#!/usr/bin/env python3
"""Validates a fabc SARIF log against the official SARIF 2.1.0 schema
(sarif-schema-2.1.0.json, OASIS) and the stricter subset (README.md), then checks what
the schemas cannot, with GitHub code scanning's ingestion rules in mind: rule indices
match rule ids, every rule has a fullDescription and a helpUri whose anchor is a section
of docs/diagnostics.md, every result has a location (GitHub rejects a result without),
no URI names a made-up file ("<command line>"), every location is inside its file, and
the columns count code points.

usage: validate_sarif.py LOG [SOURCE_ROOT]
  URIs with uriBaseId SRCROOT resolve against the log's originalUriBaseIds; other
  relative URIs against SOURCE_ROOT (default: the working directory).
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
official = json.load(open(os.path.join(here, "sarif-schema-2.1.0.json")))
jsonschema.Draft4Validator.check_schema(official)
errors += sorted(jsonschema.Draft4Validator(official, format_checker=checker).iter_errors(log), key=str)
for e in errors:
    print("schema:", "/".join(map(str, e.absolute_path)), e.message)
if errors:
    sys.exit(1)

docs = open(os.path.join(here, "..", "..", "..", "..", "docs", "diagnostics.md"), encoding="utf-8").read()
anchors = set(re.findall(r'<a id="([^"]+)"></a>', docs))

run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
assert run.get("columnKind") == "unicodeCodePoints"
assert len({r["id"] for r in rules}) == len(rules), "duplicate rule ids"
assert run["tool"]["driver"]["informationUri"], "no informationUri"
for rule in rules:
    assert rule["fullDescription"]["text"], rule["id"]
    assert rule["helpUri"].split("#")[1] in anchors, rule["helpUri"]
bases = {k: urllib.parse.unquote(v["uri"][len("file://"):]) for k, v in run.get("originalUriBaseIds", {}).items()}
results = run["results"]


def artifact_path(al):
    uri_ = al["uri"]
    assert "%3C" not in uri_, ("a made-up file as an artifact", uri_)
    path = urllib.parse.unquote(uri_[len("file://"):] if uri_.startswith("file://") else uri_)
    if "uriBaseId" in al:
        return os.path.join(bases[al["uriBaseId"]], path)
    if not uri_.startswith("file://"):
        return os.path.join(root, path)
    return path


fixed = []  # fixes (SARIF 3.55): each replacement's region inside its file, then applied
for res in results:
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"], res
    assert res.get("locations"), ("no location", res)
    for loc in res.get("locations", []) + res.get("relatedLocations", []):
        pl = loc["physicalLocation"]
        al = pl["artifactLocation"]
        uri_ = al["uri"]
        path = artifact_path(al)
        if "region" not in pl:  # a file-level location: the file exists (or is the unreadable input)
            continue
        lines = open(path, encoding="utf-8").read().split("\n")
        r = pl["region"]
        assert 1 <= r["startLine"] <= r["endLine"] <= len(lines), (uri_, r)
        assert r["startColumn"] <= len(lines[r["startLine"] - 1]) + 1, (uri_, r)
        assert r["endColumn"] <= len(lines[r["endLine"] - 1]) + 1, (uri_, r)
        assert (r["endLine"], r["endColumn"]) > (r["startLine"], r["startColumn"]), (uri_, r)
    for fix in res.get("fixes", []):
        for change in fix["artifactChanges"]:
            path = artifact_path(change["artifactLocation"])
            lines = open(path, encoding="utf-8").read().split("\n")
            # Right to left, so that each region's columns hold (one line each: fabc's fix-its).
            for rep in sorted(change["replacements"], key=lambda x: (x["deletedRegion"]["startLine"],
                                                                       x["deletedRegion"]["startColumn"]), reverse=True):
                r = rep["deletedRegion"]
                assert r["startLine"] == r["endLine"] and 1 <= r["startLine"] <= len(lines), (path, r)
                line = lines[r["startLine"] - 1]
                assert 1 <= r["startColumn"] <= r["endColumn"] <= len(line) + 1, (path, r)
                lines[r["startLine"] - 1] = (line[:r["startColumn"] - 1] + rep.get("insertedContent", {}).get("text", "")
                                             + line[r["endColumn"] - 1:])
                fixed.append(f"fixed {os.path.basename(path)}:{r['startLine']}: {lines[r['startLine'] - 1].strip()}")
print(f"sarif ok: {len(rules)} rules, {len(results)} results")
for f in fixed:
    print(f)
