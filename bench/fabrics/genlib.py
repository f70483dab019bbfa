"""The command line every bench generator shares: one size, `-o FILE` (default: stdout)."""
import argparse
import sys


def main(doc, emit, size, size_help, nargs=None, default=None):
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument(size, type=int, nargs=nargs, default=default, help=size_help)
    ap.add_argument("-o", dest="out", help="output .fab (default: stdout)")
    a = ap.parse_args()
    n = getattr(a, size)
    if a.out:
        with open(a.out, "w") as f:
            emit(n, f)
    else:
        emit(n, sys.stdout)
