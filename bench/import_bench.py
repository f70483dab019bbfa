#!/usr/bin/env python3
"""fabc import at scale: the ibnetdiscover output of a 100,000-GPU InfiniBand fabric
(bench/verify_bench.py's: the GB200 bench fabric with InfiniBand switches, lids and
"4xNDR"), imported into a design, timed with /usr/bin/time -v:

    fabc import disc.txt -o imported.fab --time-stages

and checked: the design has every switch, host and cable of the discovery. Timings
belong here and in the README, never in tests.

  python3 bench/import_bench.py [--gpus 100000] [--fabc build/tools/fabc/fabc] [--markdown]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import verify_bench  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpus", type=int, default=100000)
    ap.add_argument("--fabc", default=os.path.join(verify_bench.ROOT, "build-rel", "tools", "fabc", "fabc"))
    ap.add_argument("--work", default=None, help="keep the files here (default: a temporary directory)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="fabc-import-bench.")
    os.makedirs(work, exist_ok=True)
    fab, out, disc, imported = (os.path.join(work, n) for n in ("ib.fab", "out", "disc.txt", "imported.fab"))
    verify_bench.ib_fabric(args.gpus, fab)
    subprocess.run([args.fabc, "build", fab, "-o", out, "--emit=infiniband", "-q"], check=True)
    net = os.path.join(out, "infiniband", "fabric.net")
    verify_bench.ibnetdiscover_text(net, disc, "plane0-leaf0")
    r, secs, rss, stages = verify_bench.timed([args.fabc, "import", disc, "-o", imported, "--time-stages"])
    m = re.search(r"imported ([\d]+) switches, (\d+) hosts, (\d+) links", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit(f"import_bench: fabc import failed (exit {r.returncode}):\n{r.stderr[-2000:]}")
    switches, hosts, links = (int(g) for g in m.groups())
    written = sum(1 for l in open(imported) if l.startswith("  link "))
    if written != links or switches != sum(1 for l in open(net) if l.startswith("Switch\t")):
        sys.exit(f"import_bench: the design has {written} links and {switches} switches, not the discovery's")
    size, fab_size = os.path.getsize(disc), os.path.getsize(imported)
    row = (f"| import-{args.gpus // 1000}k | import | {hosts:,} hosts | {switches:,} | {links:,} | "
           f"{size / 2**20:.0f} MiB | {stages.get('catalog', 0):.2f} | {stages.get('discovery', 0):.2f} | "
           f"{stages.get('import', 0) + stages.get('write', 0):.2f} | **{secs:.2f}** | {rss:.0f} MiB | "
           f"{fab_size / 2**20:.0f} MiB |")
    if args.markdown:
        print("| fabric | command | hosts | switches | cables | discovery | catalog | read discovery | "
              "import + write | total (s) | peak RSS | design |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        print(row)
    else:
        print(f"import_bench: {hosts:,} hosts, {switches:,} switches, {links:,} cables, discovery {size / 2**20:.1f} MiB")
        print(f"  catalog {stages.get('catalog', 0):.2f} s, read discovery {stages.get('discovery', 0):.2f} s, "
              f"import + write {stages.get('import', 0) + stages.get('write', 0):.2f} s, total {secs:.2f} s, "
              f"peak RSS {rss:.0f} MiB, design {fab_size / 2**20:.1f} MiB")
        print(f"  files in {work}")


if __name__ == "__main__":
    main()
