#!/usr/bin/env python3
"""Semantic fuzzer: valid designs with extreme and boundary values in every slot.

    semantic.py FABC WORKDIR [--seed N] [--count N] [--keep]

One small but complete design (models, a building with halls and a span, placed racks,
links, every option, every policy) is the template; each case puts one boundary value
(0, negative, tiny, huge, 2^32-1, 2^63-1, ...) into one property slot, and further
cases put random boundary values into several slots at once. Each case is built with
`--emit=all`. What counts as a failure (printed as FAIL, counted at the end):
  - a crash, a hang (no answer within the time limit), or exit 2 (an I/O error);
  - exit 1 without a diagnostic code, or a diagnostic without file:line:col;
  - exit 0 (or 1) with an output that is not finite and physical: a JSON file that a
    strict parser rejects (NaN, Infinity), 'inf' or 'nan' in a CSV cell or the report,
    a negative length, power, latency or count in the cabling plan or energy budget;
  - an output left behind by a failed build.
The slot table doubles as the list of every numeric property the language accepts:
docs/language.md's tables name the same properties.
"""
import csv
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys

LEN = ["0 m", "-1 m", "-1 km", "1e-300 m", "0.000001 m", "1e308 m", "20000 km", "20001 km", "1e15 km", "3 m"]
POW = ["0 W", "-1 W", "-5 kW", "1e-300 W", "1e308 W", "1e300 MW", "1e305 GW", "500 W"]
TIME = ["0 ns", "-1 ns", "-5 us", "1e-300 s", "1e308 s", "100 ns"]
PLAIN = ["0", "-1", "-0.5", "1e-308", "1e308", "0.5", "1", "1e6"]
INT = ["0", "-1", "1", "2", "64", "4294967295", "4294967296", "9223372036854775807"]
BW = ["0 Gb/s", "-400 Gb/s", "1 b/s", "1e308 Gb/s", "400 Gb/s"]
MONEY = ["0 USD", "-1 USD", "1e308 USD", "1e300 MUSD", "100 USD"]
IPV4 = ['"0.0.0.0"', '"255.255.255.255"', '"10.0.0.1"', '"+10.0.0.1"', '"10. 0.0.1"', '"256.0.0.1"', '""']
CIDR = ['"0.0.0.0/0"', '"255.255.255.255/32"', '"255.255.255.254/31"', '"10.0.0.0/33"', '"10.0.0.1/24"', '"10.0.0.0/8"']
ASNR = ["[0, 0]", "[1, 1]", "[4294967295, 4294967295]", "[4294967294, 4294967295]", "[4294967296, 4294967297]",
        "[5, 1]", "[-1, 3]"]
GUID = ['"0x0"', '"0xffffffffffffffff"', '"0x10000000000000000"', '"0xfffffffffffffffe"', '"0x1"']

# slot name -> candidate values; the template below names each slot as {slot}.
SLOTS = {
    "sw_power": POW, "sw_latency": TIME, "sw_price": MONEY, "sw_ru": INT, "sw_speed": BW, "sw_lanes": INT,
    "sys_power": POW, "sys_latency": TIME, "sys_gpus": INT, "sys_nvl": INT, "sys_ru": INT, "sys_speed": BW,
    "optic_power": POW, "optic_reach": LEN, "optic_lasers": PLAIN, "optic_price": MONEY, "optic_speed": BW,
    "cable_reach": LEN, "cable_price": MONEY, "cable_power": POW,
    "asn": INT, "loopback": IPV4, "guid": GUID, "breakout": INT,
    "link_count": INT, "link_length": LEN, "uplink_length": LEN,
    "hall_distance": LEN, "row_pitch": LEN, "rack_width": LEN, "tray_drop": LEN, "hall_units": INT,
    "span": LEN, "row": INT, "rack": INT,
    "opt_default_len": LEN, "opt_slack": LEN, "opt_pue": PLAIN, "opt_nic_latency": TIME, "opt_mtu": INT,
    "opt_collapse": PLAIN, "opt_dot": PLAIN,
    "pol_power": POW, "pol_over": PLAIN, "pol_latency": TIME, "pol_nvlink": PLAIN,
    "pool_leaf": ASNR, "pool_lb": CIDR, "pool_p2p": CIDR,
    "roce_pfc": INT, "roce_dscp": INT, "roce_mtu": INT,
}
DEFAULTS = {
    "sw_power": "1200 W", "sw_latency": "400 ns", "sw_price": "20000 USD", "sw_ru": "1", "sw_speed": "400 Gb/s",
    "sw_lanes": "4", "sys_power": "10 kW", "sys_latency": "1 us", "sys_gpus": "8", "sys_nvl": "8", "sys_ru": "4",
    "sys_speed": "400 Gb/s", "optic_power": "8 W", "optic_reach": "100 m", "optic_lasers": "4",
    "optic_price": "500 USD", "optic_speed": "400 Gb/s", "cable_reach": "2 km", "cable_price": "2 USD",
    "cable_power": "0 W", "asn": "65001", "loopback": '"10.9.0.1"', "guid": '"0x0002c90000000100"',
    "breakout": "1", "link_count": "1", "link_length": "3 m", "uplink_length": "20 m", "hall_distance": "50 m",
    "row_pitch": "3 m", "rack_width": "0.6 m", "tray_drop": "2 m", "hall_units": "48", "span": "1 km",
    "row": "0", "rack": "1", "opt_default_len": "10 m", "opt_slack": "1 m", "opt_pue": "1.25",
    "opt_nic_latency": "0 ns", "opt_mtu": "9100", "opt_collapse": "64", "opt_dot": "1000",
    "pol_power": "100 kW", "pol_over": "1.0", "pol_latency": "50 us", "pol_nvlink": "576",
    "pool_leaf": "[65001, 65099]", "pool_lb": '"10.0.0.0/16"', "pool_p2p": '"10.254.0.0/16"',
    "roce_pfc": "3", "roce_dscp": "26", "roce_mtu": "9100",
}

TEMPLATE = """
model SW : switch {{ protocol = "ethernet"; power = {sw_power}; latency = {sw_latency}; price = {sw_price};
  rack_units = {sw_ru}; port p[16] {{ speed = {sw_speed}; lanes = 4; form = "QSFP"; breakouts = [1, 2, 4]; }} }}
model SYS : system {{ power = {sys_power}; latency = {sys_latency}; gpus = {sys_gpus}; nvlink_domain = {sys_nvl};
  rack_units = {sys_ru}; port nic[2] {{ speed = {sys_speed}; form = "QSFP"; }} }}
model OPT : optic {{ media = "MMF"; speed = {optic_speed}; form = "QSFP"; reach = {optic_reach}; power = {optic_power};
  lasers = {optic_lasers}; price = {optic_price}; sku = "OPT-1"; }}
model SMF_OPT : optic {{ media = "SMF"; speed = 400 Gb/s; form = "QSFP"; reach = 10 km; power = 12 W; sku = "SMF-1"; }}
model FIB : cable {{ media = "MMF"; reach = {cable_reach}; price = {cable_price}; power = {cable_power}; }}
model SFIB : cable {{ media = "SMF"; reach = 100 km; }}
model DAC1 : cable {{ media = "DAC"; speed = 400 Gb/s; form = "QSFP"; reach = 3 m; }}

fabric sem {{
  option default_cable_length = {opt_default_len};
  option cable_slack = {opt_slack};
  option pue = {opt_pue};
  option nic_latency = {opt_nic_latency};
  option mtu = {opt_mtu};
  option report_collapse = {opt_collapse};
  option dot_max_nodes = {opt_dot};
  option bgp_unnumbered = false;
  building b1 {{ hall_distance = {hall_distance};
    hall h1 {{ row_pitch = {row_pitch}; rack_width = {rack_width}; tray_drop = {tray_drop}; rack_units = {hall_units}; }}
    hall h2 {{ }} }}
  building b2 {{ hall h1 {{ }} }}
  span b1 -- b2 {{ length = {span}; }}
  srv[2] : SYS;
  leaf0 : SW {{ tier = "leaf"; asn = {asn}; loopback = {loopback}; breakout_p = {breakout}; }};
  leaf1 : SW {{ tier = "leaf"; }};
  spine : SW {{ tier = "spine"; }};
  far : SW {{ tier = "spine"; }};
  link srv[0].nic[0] -- leaf0 {{ length = {link_length}; count = 1; }};
  link srv[1].nic[0] -- leaf1;
  link srv[0].nic[1] -- leaf1;
  link srv[1].nic[1] -- leaf0;
  link leaf0 -- spine {{ count = {link_count}; }};
  link leaf0 -- far;
  link leaf1 -- spine {{ length = {uplink_length}; count = 2; }};
  place srv[*] in b1.h1 {{ row = {row}; rack = {rack}; }};
  place leaf0 in b1.h1 {{ row = 0; rack = 0; }};
  place leaf1 in b1.h1 {{ row = 0; rack = 0; }};
  place spine in b1.h2 {{ row = 0; rack = 0; }};
  place far in b2.h1 {{ row = 0; rack = 0; }};
  policy power {{ max = {pol_power}; per = "rack"; }}
  policy oversubscription {{ tier = "leaf"; max = {pol_over}; }}
  policy latency {{ max = {pol_latency}; }}
  policy nvlink {{ max = {pol_nvlink}; }}
  policy addressing {{ leaf_asn = {pool_leaf}; loopback_pool = {pool_lb}; p2p_pool = {pool_p2p}; asn_per = "switch"; }}
  policy roce {{ pfc_priority = {roce_pfc}; dscp = {roce_dscp}; mtu = {roce_mtu}; ecn = true; }}
}}
"""

LOC_RE = re.compile(r"^[^:\n]+:\d+:\d+: (error|warning): .*\[FAB-[EW]\d{4}\]$", re.M)
CODE_RE = re.compile(r"\[FAB-[EW]\d{4}\]")
NONFINITE = re.compile(r"(?<![A-Za-z_])-?(inf|nan|infinity)(?![A-Za-z_])", re.I)


def strict_json(path):
    def bad_constant(name):
        raise ValueError(f"non-finite JSON number {name}")
    with open(path, encoding="utf-8") as f:
        json.load(f, parse_constant=bad_constant)


def negative_figures(path):
    """Cabling plan and energy CSVs: lengths, power, counts are never negative."""
    problems = []
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        return problems
    header = rows[0]
    watch = [i for i, h in enumerate(header)
             if re.search(r"(length|_m$|power|_w$|_kw$|count|watts|mwh|latency)", h, re.I)]
    for r in rows[1:]:
        for i in watch:
            if i < len(r):
                try:
                    v = float(r[i])
                except ValueError:
                    continue
                if v < 0:
                    problems.append(f"{os.path.basename(path)}: {header[i]} = {r[i]}")
    return problems


def check_outputs(out):
    problems = []
    for dirpath, _, files in os.walk(out):
        for name in files:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, out)
            if name.endswith(".json"):
                try:
                    strict_json(p)
                except Exception as e:
                    problems.append(f"{rel}: {e}")
            if name.endswith((".csv", ".json", ".html", ".conf", ".yaml", ".dot", ".topo", ".net")):
                with open(p, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if name.endswith(".html"):
                    # Only the page's text and data, not its script and style code.
                    text = re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S)
                m = NONFINITE.search(text)
                if m and not name.endswith((".conf", ".yaml")):
                    problems.append(f"{rel}: non-finite number '{m.group(0)}'")
            if name in ("plan.csv", "racks.csv", "bom.csv"):
                problems += negative_figures(p)
    return problems


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    fabc, work = os.path.abspath(args[0]), os.path.abspath(args[1])
    seed, count, keep, timeout = 1, 300, "--keep" in args, 60
    for i, a in enumerate(args):
        if a == "--seed":
            seed = int(args[i + 1])
        if a == "--count":
            count = int(args[i + 1])
        if a == "--timeout":
            timeout = int(args[i + 1])
    rng = random.Random(seed)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    cases = []
    # Every value of every slot alone, then random combinations of several.
    for slot, values in SLOTS.items():
        for v in values:
            if v != DEFAULTS[slot]:
                cases.append({slot: v})
    while len(cases) < count:
        k = rng.randint(2, 6)
        cases.append({s: rng.choice(SLOTS[s]) for s in rng.sample(sorted(SLOTS), k)})
    cases = cases[:max(count, len(SLOTS))] if count < len(cases) else cases

    failures = outcomes = 0
    tally = {0: 0, 1: 0}
    for n, case in enumerate(cases):
        values = dict(DEFAULTS)
        values.update(case)
        src = os.path.join(work, f"case{n}.fab")
        with open(src, "w") as f:
            f.write(TEMPLATE.format(**values))
        out = os.path.join(work, f"out{n}")
        label = ", ".join(f"{k}={v}" for k, v in sorted(case.items()))
        try:
            r = subprocess.run([fabc, "build", src, "-o", out, "--emit=all", "-q"], capture_output=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"FAIL case{n} ({label}): no answer within {timeout} s")
            failures += 1
            continue
        err = r.stderr.decode("utf-8", "replace")
        problems = []
        if r.returncode < 0 or r.returncode >= 128:
            problems.append(f"crashed (status {r.returncode})")
        elif r.returncode not in (0, 1):
            problems.append(f"exit {r.returncode}: {err.strip()[:300]}")
        else:
            tally[r.returncode] += 1
        if r.returncode == 1 and not CODE_RE.search(err):
            problems.append("exit 1 without a diagnostic code")
        for line in err.splitlines():
            if ": error: " in line and "[FAB-" in line and not LOC_RE.match(line) and not line.startswith("fabc:"):
                problems.append(f"diagnostic without a location: {line}")
        for bad in ("Sanitizer", "runtime error:", "terminate called", "Assertion", "internal error"):
            if bad in err:
                problems.append(f"'{bad}' on stderr")
        if r.returncode == 0:
            problems += check_outputs(out)
        elif os.path.exists(out):
            problems.append("a failed build left outputs")
        outcomes += 1
        if problems:
            failures += 1
            print(f"FAIL case{n} ({label}): " + "; ".join(problems[:4]))
        elif not keep:
            os.remove(src)
        if not keep:
            shutil.rmtree(out, ignore_errors=True)
    print(f"semantic: {outcomes} designs built ({tally[0]} clean, {tally[1]} rejected with a diagnostic), "
          f"{len(SLOTS)} slots, seed {seed}")
    print(f"{failures} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
