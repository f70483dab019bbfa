#!/usr/bin/env python3
"""Checks action.yml: a composite action whose every input has a description, whose steps
run scripts/github-action.sh and upload with github/codeql-action/upload-sarif."""
import sys

import yaml

a = yaml.safe_load(open(sys.argv[1]))
assert a["runs"]["using"] == "composite", a["runs"]
inputs = a["inputs"]
for name, spec in inputs.items():
    assert spec.get("description"), name
steps = a["runs"]["steps"]
runs = " ".join(s.get("run", "") for s in steps)
assert "$GITHUB_ACTION_PATH/scripts/github-action.sh" in runs, runs
uploads = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
assert len(uploads) == 1 and "sarif_file" in uploads[0]["with"], uploads
# Every input the steps read exists, and every input is used.
text = open(sys.argv[1]).read()
for name in inputs:
    assert "inputs." + name in text, ("unused input", name)
print(f"action ok: {len(inputs)} inputs, upload-sarif, scripts/github-action.sh")
