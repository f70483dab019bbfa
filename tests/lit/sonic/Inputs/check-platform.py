#!/usr/bin/env python3
"""Checks SONiC config_db.json files against the platform's own files (the SN5600's
platform.json and ACS-SN5600 hwsku.json, committed under Inputs/platform-sn5600/):
DEVICE_METADATA names the platform and HwSKU; every BREAKOUT_CFG mode is one the
cage's platform.json entry lists, verbatim, and the ports of the cage are exactly that
mode's aliases, on the platform's lanes.

usage: check-platform.py PLATFORMDIR OUTDIR
"""
import glob
import json
import os
import sys


def main():
    pdir, outdir = sys.argv[1:3]
    platform = json.load(open(os.path.join(pdir, "platform.json")))["interfaces"]
    hwsku = json.load(open(os.path.join(pdir, "ACS-SN5600_hwsku.json")))["interfaces"]
    errors, n, modes = [], 0, set()
    for f in sorted(glob.glob(os.path.join(outdir, "sonic", "*", "config_db.json"))):
        host = os.path.basename(os.path.dirname(f))
        db = json.load(open(f))
        n += 1
        meta = db["DEVICE_METADATA"]["localhost"]
        if meta.get("platform") != "x86_64-nvidia_sn5600-r0" or meta.get("hwsku") != "ACS-SN5600":
            errors.append(f"{host}: platform/hwsku {meta.get('platform')}/{meta.get('hwsku')}")
        ports = db["PORT"]
        for cage, cfg in db["BREAKOUT_CFG"].items():
            mode = cfg["brkout_mode"]
            modes.add(mode)
            if cage not in platform or cage not in hwsku:
                errors.append(f"{host}: {cage} is not a cage of the platform")
                continue
            aliases = platform[cage]["breakout_modes"].get(mode)
            if aliases is None:
                errors.append(f"{host}: {cage}: mode {mode} is not in platform.json ({sorted(platform[cage]['breakout_modes'])})")
                continue
            lanes = platform[cage]["lanes"].split(",")
            mine = {p["alias"]: p for p in ports.values() if p["index"] == platform[cage]["index"].split(",")[0]}
            if sorted(mine) != sorted(aliases):
                errors.append(f"{host}: {cage}: ports {sorted(mine)}, platform.json {mode}: {aliases}")
            for p in mine.values():
                if not set(p["lanes"].split(",")) <= set(lanes):
                    errors.append(f"{host}: {cage}: lanes {p['lanes']} not the cage's")
    for e in errors:
        print("error: " + e)
    print(f"checked {n} switches against platform.json, modes {sorted(modes)}: {len(errors)} errors")
    return 1 if errors or not n else 0


if __name__ == "__main__":
    sys.exit(main())
