#!/usr/bin/env python3
"""Validates fabc's --diagnostics-format=json document against docs/schemas/diagnostics.schema.json.
usage: validate_json.py SCHEMA DOCUMENT"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.Draft7Validator.check_schema(schema)
jsonschema.Draft7Validator(schema).validate(doc)
print(f"json ok: {len(doc['diagnostics'])} diagnostics, {doc['errors']} errors, {doc['warnings']} warnings")
