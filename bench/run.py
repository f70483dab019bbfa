#!/usr/bin/env python3
"""fabc benchmark driver: generates the benchmark fabrics, compiles each one and prints,
per fabric, the wall time of every stage (from `fabc --time-stages`), the peak RSS (from
`/usr/bin/time -v`), links per second, and the ratio of the total time to the time it
takes just to write the same output bytes.

  python3 bench/run.py                       # every fabric, Release build in build-rel/
  python3 bench/run.py --fabc build/tools/fabc/fabc --only gb200 --sizes 8192,32768
  python3 bench/run.py --markdown            # the README table
  python3 bench/run.py --only lsp            # the language server rows (bench/lsp_bench.py)
  python3 bench/run.py --only check --repeat 5   # `fabc check` of 10k and a million GPUs

Timings belong here, never in tests. Run it on an idle machine: the numbers are wall
times, and a second job on a 2-core machine doubles them.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BACKENDS = set()  # filled from `fabc backends`: their stages are the backends' time
GB200_SIZES = [8192, 32768, 131072, 262144, 524288, 1048576, 2097152]


def generate(kind, size, path):
    style = []
    if kind == "import":  # an explicit file of the shape `fabc import` writes
        kind, style = "flat", ["--style=import"]
    gen = os.path.join(HERE, "fabrics", f"gen_{kind}.py")
    args = [sys.executable, gen] + style
    args += ["--switches", str(size)] if kind == "ethernet" else [str(size)]
    subprocess.run(args + ["-o", path], check=True)


def header_counts(path):
    """The counts the generator wrote in the file's header comment."""
    counts = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = re.match(r"//\s+(\w[\w ]*?)\s+([\d,]+)", line)
            if m:
                counts[m.group(1).strip()] = int(m.group(2).replace(",", ""))
            m = re.search(r"\(([\d,]+) GPUs\)", line)
            if m and "GPUs" not in counts:
                counts["GPUs"] = int(m.group(1).replace(",", ""))
    return counts


def tree_bytes(root):
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            files.append(os.path.join(d, n))
    return files, sum(os.path.getsize(f) for f in files)


def write_baseline(root, files, scratch):
    """Seconds to write the same bytes as the same files in the same directories (read
    first, so only the writes are timed): the floor any program writing these outputs pays."""
    blobs = []
    for f in files:
        with open(f, "rb") as fh:
            blobs.append((os.path.relpath(f, root), fh.read()))
    t0 = time.perf_counter()
    made = set()
    for rel, b in blobs:
        d = os.path.join(scratch, os.path.dirname(rel))
        if d not in made:
            os.makedirs(d, exist_ok=True)
            made.add(d)
        with open(os.path.join(scratch, rel), "wb") as fh:
            fh.write(b)
    return time.perf_counter() - t0


def compile_once(fabc, command, fab, out, emit, extra):
    args = ["/usr/bin/time", "-v", fabc, command, fab]
    if command != "fmt":
        args += ["--time-stages", "-I", os.path.join(ROOT, "stdlib")]
    if command in ("build", "import", "verify"):
        args += ["-q"]  # check prints no summary line and takes no -q
    if command == "build":
        args += ["-o", out, f"--emit={emit}"]
    args += extra
    t0 = time.perf_counter()
    p = subprocess.run(args, stdout=subprocess.DEVNULL if command == "fmt" else subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-4000:])
        raise SystemExit(f"bench: fabc {command} {fab} exited {p.returncode}")
    stages = {}
    for line in p.stderr.splitlines():
        m = re.match(r"\s+([a-z][\w:-]*(?: [\w:-]+)*?)\s+([\d.]+) s(?:\s+[\d.]+ MiB)?$", line)
        if m:
            stages[m.group(1)] = float(m.group(2))
    if command == "fmt":  # no --time-stages: the process's wall time is its total
        stages["total"] = wall
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
    rss = int(m.group(1)) * 1024 if m else 0
    return wall, stages, rss


def run_case(a, name, kind, size, command, emit, work, extra=()):
    fab = os.path.join(work, f"{name}.fab")
    if not os.path.exists(fab):  # another command's case may have generated it
        generate(kind, size, fab)
    counts = header_counts(fab)
    src_lines = sum(1 for _ in open(fab))
    src_bytes = os.path.getsize(fab)
    best = None
    for _ in range(a.repeat):
        out = os.path.join(work, f"{name}.out")
        shutil.rmtree(out, ignore_errors=True)
        r = compile_once(a.fabc, command, fab, out, emit, list(extra))
        if best is None or r[0] < best[0]:
            best = r
    wall, stages, rss = best
    row = dict(name=name, command=command, emit=emit, source_lines=src_lines, source_bytes=src_bytes,
               counts=counts, wall_s=wall, stages=stages, peak_rss=rss)
    links = counts.get("links", 0)
    row["links_per_s"] = links / stages.get("total", wall) if links else 0
    if command == "build":
        files, nbytes = tree_bytes(os.path.join(work, f"{name}.out"))
        base = write_baseline(os.path.join(work, f"{name}.out"), files, os.path.join(work, f"{name}.baseline"))
        shutil.rmtree(os.path.join(work, f"{name}.baseline"), ignore_errors=True)
        row.update(out_files=len(files), out_bytes=nbytes, write_s=base,
                   write_ratio=stages.get("total", wall) / base if base > 0 else 0)
    if not a.keep:
        if os.path.exists(fab):
            os.remove(fab)
        shutil.rmtree(os.path.join(work, f"{name}.out"), ignore_errors=True)
    return row


def fmt_s(x):
    return f"{x:.2f}" if x >= 0.1 else f"{x:.3f}"


def print_text(rows):
    for r in rows:
        c = r["counts"]
        print(f"\n== {r['name']}: fabc {r['command']}" + (f" --emit={r['emit']}" if r["command"] == "build" else "")
              + f"  ({r['source_lines']:,} source lines, {r['source_bytes']:,} bytes)")
        print("   " + ", ".join(f"{k} {v:,}" for k, v in c.items()))
        for k, v in r["stages"].items():
            if v >= 0.0005 or k == "total":
                print(f"   {k:<24} {v:8.3f} s")
        print(f"   {'wall (process)':<24} {r['wall_s']:8.3f} s")
        print(f"   {'peak RSS':<24} {r['peak_rss'] / 2**20:8.1f} MiB")
        if r["links_per_s"]:
            print(f"   {'links per second':<24} {r['links_per_s']:12,.0f}")
        if "out_bytes" in r:
            print(f"   {'output':<24} {r['out_bytes']:,} bytes in {r['out_files']:,} files; writing them alone "
                  f"{r['write_s']:.3f} s, total / write = {r['write_ratio']:.1f}")


def print_markdown(rows):
    print("| fabric | command | GPUs | switches | links | parse | elaborate | passes | backends | total | peak RSS | RSS / source byte | links/s | total / write |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    front = {"parse", "elaborate", "total"}
    for r in rows:
        s, c = r["stages"], r["counts"]
        backends = sum(v for k, v in s.items() if k in BACKENDS or k == "commit")
        passes = sum(v for k, v in s.items() if k not in front and k not in BACKENDS and k != "commit")
        gpus = c.get("GPUs", c.get("gpus", 0))
        sw = c.get("switches", 0)
        ratio = (f"{r['write_ratio']:.1f}" if r["write_ratio"] < 10 else f"{r['write_ratio']:,.0f}") if r.get("write_ratio") else "-"
        print(f"| {r['name']} | {r['command']} | {gpus:,} | {sw:,} | {c.get('links', 0):,} | {fmt_s(s.get('parse', 0))} | "
              f"{fmt_s(s.get('elaborate', 0))} | {fmt_s(passes)} | {fmt_s(backends)} | **{fmt_s(s.get('total', r['wall_s']))}** | "
              f"{r['peak_rss'] / 2**20:.0f} MiB | {r['peak_rss'] / max(r['source_bytes'], 1):.1f} | "
              f"{r['links_per_s'] / 1e6:.2f} M | {ratio} |")
    flat = [r for r in rows if r["name"].startswith("flat-") and r["command"] == "build"]
    for x, y in zip(flat, flat[1:]):
        bx, by = x["source_bytes"], y["source_bytes"]
        tx, ty = x["stages"].get("total", x["wall_s"]), y["stages"].get("total", y["wall_s"])
        print(f"\n{y['name']} / {x['name']}: {by / bx:.2f}x the source bytes, {ty / tx:.2f}x the time", end="")
    gb = [r for r in rows if r["name"].startswith("gb200-")]
    for x, y in zip(gb, gb[1:]):
        lx, ly = x["counts"].get("links", 1), y["counts"].get("links", 1)
        if 1.9 < ly / lx < 2.1:
            print(f"\n{y['name']} / {x['name']}: {ly / lx:.2f}x the links, "
                  f"{y['stages']['total'] / x['stages']['total']:.2f}x the time", end="")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fabc", default=os.path.join(ROOT, "build-rel", "tools", "fabc", "fabc"),
                    help="the fabc binary (a Release build: cmake -DCMAKE_BUILD_TYPE=Release)")
    ap.add_argument("--only", default="gb200,check,ethernet,flat,import,lsp",
                    help="cases: gb200,check,ethernet,flat,import,lsp")
    ap.add_argument("--sizes", default=",".join(map(str, GB200_SIZES)), help="GB200 GPU counts")
    ap.add_argument("--check-gpus", default="10080,1048576", help="GB200 GPU counts of the `fabc check` cases")
    ap.add_argument("--switches", type=int, default=5000, help="the Ethernet fabric's switch count")
    ap.add_argument("--flat-links", default="100000,1000000,3000000",
                    help="sizes of the flat explicit fabric (links), comma-separated")
    ap.add_argument("--import-links", type=int, default=3000000,
                    help="size of the import-shaped explicit fabric (gen_flat.py --style=import): 3M links is "
                         "what `fabc import` writes for about a million GPUs")
    ap.add_argument("--lsp-edits", type=int, default=10000, help="edits of each language server session")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest is kept")
    ap.add_argument("--work", help="scratch directory (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the generated sources and outputs")
    ap.add_argument("--markdown", action="store_true", help="print the README table")
    ap.add_argument("--json", help="also write the results to this file")
    a = ap.parse_args()
    if not os.access(a.fabc, os.X_OK):
        raise SystemExit(f"bench: no fabc at {a.fabc}; build one with\n"
                         "  cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release && ninja -C build-rel")
    if not os.access("/usr/bin/time", os.X_OK):
        raise SystemExit("bench: needs GNU time (/usr/bin/time): apt-get install time")
    listing = subprocess.run([a.fabc, "backends"], capture_output=True, text=True, check=True).stdout
    BACKENDS.update(line.split()[0] for line in listing.splitlines() if line.strip())
    only = set(a.only.split(","))
    work = a.work or tempfile.mkdtemp(prefix="fabc-bench-")
    os.makedirs(work, exist_ok=True)
    rows = []
    if "check" in only:
        # 10k GPUs: the pre-commit lint; a million: issue 27's interactive target (0.5 s).
        for n in (int(x) for x in a.check_gpus.split(",") if x):
            rows.append(run_case(a, "check-10k" if n == 10080 else f"check-{n}", "gb200", n, "check", "", work))
    if "gb200" in only:
        for n in (int(x) for x in a.sizes.split(",") if x):
            rows.append(run_case(a, f"gb200-{n}", "gb200", n, "build", "bom,energy", work))
    if "ethernet" in only:
        if os.path.exists(os.path.join(HERE, "fabrics", "gen_ethernet.py")):
            rows.append(run_case(a, f"ethernet-{a.switches}", "ethernet", a.switches, "build",
                                 "sonic,frr,nvue", work))
        else:
            print("bench: bench/fabrics/gen_ethernet.py missing, skipping the Ethernet fabric", file=sys.stderr)
    # The explicit files build with the default limits (the 3M-link one is ~160 MB, under
    # the default --max-file-size of 256 MiB: FAB-E0005).
    big = []
    if "flat" in only:
        sizes = [int(x) for x in str(a.flat_links).split(",") if x]
        for n in sizes:
            if n == min(sizes):  # the front end alone, on the smallest: check and fmt
                rows.append(run_case(a, f"flat-{n}", "flat", n, "check", "", work, big))
                rows.append(run_case(a, f"flat-{n}", "flat", n, "fmt", "", work, big))
            rows.append(run_case(a, f"flat-{n}", "flat", n, "build", "bom,energy", work, big))
    if "import" in only:
        n = a.import_links
        rows.append(run_case(a, f"import-{n}", "import", n, "build", "bom,energy", work, big))
    if rows:
        if a.markdown:
            print_markdown(rows)
        else:
            print_text(rows)
    if "lsp" in only:
        # The editor's session (bench/lsp_bench.py): its own table, a row per design.
        print("\n| fabric | size | open | edit, a value nothing reads (reused) | edit, a value the fabric reads "
              "(compiled) | edit, break/fix a unit | a comment typed "
              "| request right after an edit | edits in the session | RSS after 100 | max RSS | RSS after 10,000 |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for design in (["--gpus", "10080"], ["--flat", "100000"], ["--gpus", "1048576"]):
            out = subprocess.run([sys.executable, os.path.join(HERE, "lsp_bench.py"), "--fabc", a.fabc,
                                  "--edits", str(a.lsp_edits), "--timeout", "600"] + design,
                                 capture_output=True, text=True, check=True).stdout
            print(next(line for line in out.splitlines() if line.startswith("| lsp-")))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    if not a.work and not a.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
