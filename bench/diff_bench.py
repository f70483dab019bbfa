#!/usr/bin/env python3
"""fabc diff at scale: two revisions of the GB200 bench fabric (by default the
524,288- and the 1,048,576-GPU ones: a fabric doubled, so half its cables are added, a
third of the old ones re-plugged or unplugged, and 18,432 switches renumbered), compared
as the text plan and as JSON, each timed with /usr/bin/time -v and --time-stages:

    fabc diff old.fab new.fab [--format=json] --time-stages > plan

It prints the two compilations (every stage before the comparison), each stage of the
comparison and the printing, the whole command, the ratio of the whole to the two
compilations (issue 15's target: at most 2), the peak RSS and the plan's size. With
--baseline, a second fabc (say, an older build) runs the same pair and must print the same
bytes. Timings belong here and in the README, never in tests.

  python3 bench/diff_bench.py [--fabc build-rel/tools/fabc/fabc] [--sizes 524288,1048576]
                              [--baseline OLD_FABC] [--repeat N] [--markdown]
"""
import argparse
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (generate: the bench fabrics)

ROOT = run.ROOT


def diff_once(fabc, old, new, fmt, out):
    args = ["/usr/bin/time", "-v", fabc, "diff", old, new, "--time-stages", "-I", os.path.join(ROOT, "stdlib")]
    if fmt == "json":
        args.append("--format=json")
    with open(out, "wb") as f:
        p = subprocess.run(args, stdout=f, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-4000:])
        raise SystemExit(f"diff_bench: fabc diff exited {p.returncode}")
    stages = []
    for line in p.stderr.splitlines():
        m = re.match(r"\s+([a-z][\w:-]*(?: [\w:-]+)*?)\s+([\d.]+) s(?:\s+[\d.]+ MiB)?$", line)
        if m:
            stages.append((m.group(1), float(m.group(2))))
    m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", p.stderr)
    wall = (int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))) if m else 0.0
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    rss = int(m.group(1)) / 1024 if m else 0.0
    cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", p.stderr))
    names = [n for n, _ in stages]
    first = next((i for i, n in enumerate(names) if n.startswith("diff ")), None)
    if first is None:  # a fabc from before the diff had stages of its own
        compile_s = sum(t for n, t in stages if n != "total")
        diff = {}
    else:
        compile_s = sum(t for n, t in stages[:first])
        diff = {n: t for n, t in stages[first:] if n != "total"}
    return dict(wall=wall, cpu=cpu, rss=rss, compile=compile_s, diff=diff, bytes=os.path.getsize(out))


def best_of(repeat, fn):
    rows = [fn() for _ in range(repeat)]
    return min(rows, key=lambda r: r["wall"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fabc", default=os.path.join(ROOT, "build-rel", "tools", "fabc", "fabc"))
    ap.add_argument("--baseline", help="another fabc to time on the same pair; its plans must be the same bytes")
    ap.add_argument("--sizes", default="524288,1048576", help="the old and the new design's GPU counts")
    ap.add_argument("--formats", default="text,json")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest is kept")
    ap.add_argument("--work", help="scratch directory (default: a temporary one, removed)")
    ap.add_argument("--markdown", action="store_true", help="print README table rows")
    a = ap.parse_args()
    for f in [a.fabc] + ([a.baseline] if a.baseline else []):
        if not os.access(f, os.X_OK):
            raise SystemExit(f"diff_bench: no fabc at {f}")
    if not os.access("/usr/bin/time", os.X_OK):
        raise SystemExit("diff_bench: needs GNU time (/usr/bin/time): apt-get install time")
    old_n, new_n = (int(x) for x in a.sizes.split(","))
    work = a.work or tempfile.mkdtemp(prefix="fabc-diff-bench-")
    os.makedirs(work, exist_ok=True)
    old, new = os.path.join(work, f"gb200-{old_n}.fab"), os.path.join(work, f"gb200-{new_n}.fab")
    run.generate("gb200", old_n, old)
    run.generate("gb200", new_n, new)
    rows = []
    for fmt in a.formats.split(","):
        out = os.path.join(work, f"plan.{fmt}")
        for label, fabc in [("before", a.baseline), ("after", a.fabc)] if a.baseline else [("", a.fabc)]:
            r = best_of(a.repeat, lambda: diff_once(fabc, old, new, fmt, out + label))
            r.update(fmt=fmt, label=label)
            rows.append(r)
        if a.baseline and not filecmp.cmp(out + "before", out + "after", shallow=False):
            raise SystemExit(f"diff_bench: the {fmt} plans of {a.baseline} and {a.fabc} differ")
        for label in ("before", "after", ""):
            if os.path.exists(out + label):
                os.remove(out + label)
    name = f"gb200-{old_n} -> {new_n}"
    if a.markdown:
        print("| pair | format | build | compile both | join | sections | print | total (s) | total / compile | CPU (s) | peak RSS | plan |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        d = r["diff"]
        join = sum(d.get(k, 0) for k in ("diff names", "diff devices", "diff cables", "diff moved"))
        sections = sum(t for k, t in d.items() if k not in ("diff names", "diff devices", "diff cables", "diff moved", "diff print"))
        print_s = d.get("diff print", 0)
        ratio = r["wall"] / r["compile"] if r["compile"] else 0
        if a.markdown:
            dash = lambda x: f"{x:.2f}" if d else "-"  # noqa: E731
            print(f"| {name} | {r['fmt']} | {r['label'] or 'this'} | {r['compile']:.2f} | {dash(join)} | {dash(sections)} | "
                  f"{dash(print_s)} | **{r['wall']:.2f}** | {ratio:.1f} | {r['cpu']:.2f} | {r['rss']:.0f} MiB | {r['bytes'] / 1e6:,.0f} MB |")
        else:
            print(f"{name} {r['fmt']} {r['label']}: total {r['wall']:.2f} s (CPU {r['cpu']:.2f} s), compiling both {r['compile']:.2f} s "
                  f"(total / compile {ratio:.2f}), peak RSS {r['rss']:.0f} MiB, plan {r['bytes']:,} bytes")
            for k, t in d.items():
                print(f"   {k:<16} {t:8.3f} s")
    if not a.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
