#!/usr/bin/env python3
"""Validates every OUTDIR/sonic/*/config_db.json against SONiC's own YANG models with
yanglint (libyang), after config-db-to-yang.py turns it into YANG instance data.

usage: yang-check.py YANGDIR OUTDIR    (one line per file with errors, then a summary;
exit 1 when any file fails)
"""
import glob
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))


def main():
    yangdir, outdir = sys.argv[1:3]
    models = sorted(glob.glob(os.path.join(yangdir, "*.yang")))
    files = sorted(glob.glob(os.path.join(outdir, "sonic", "*", "config_db.json")))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            host = os.path.basename(os.path.dirname(f))
            xml = os.path.join(tmp, host + ".xml")
            conv = subprocess.run([sys.executable, os.path.join(here, "config-db-to-yang.py"), yangdir, f, xml],
                                  capture_output=True, text=True)
            if conv.returncode:
                print(conv.stdout + conv.stderr, end="")
                bad += 1
                continue
            r = subprocess.run(["yanglint", "-p", yangdir, "-t", "config"] + models + [xml],
                               capture_output=True, text=True)
            errs = [l for l in r.stderr.splitlines() if l.startswith("libyang err")]
            if r.returncode or errs:
                bad += 1
                for e in errs or [f"yanglint exit {r.returncode}"]:
                    print(f"{host}: {e}")
    print(f"yanglint: {len(files)} config_db.json files, {bad} failed")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
