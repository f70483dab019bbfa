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
The design and its slot table live in tests/fuzz/semantic.json, shared with the
libFuzzer target's semantic mode (tests/fuzz/fabc_fuzz.cpp).
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

# The design and the slot table are shared with the libFuzzer target's semantic mode.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
with open(os.path.join(ROOT, "tests/fuzz/semantic.json"), encoding="utf-8") as _f:
    _DATA = json.load(_f)
TEMPLATE, SLOTS, DEFAULTS = _DATA["template"], _DATA["slots"], _DATA["defaults"]


def render(values):
    return re.sub(r"@(\w+)@", lambda m: values[m.group(1)], TEMPLATE)


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
            f.write(render(values))
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
