"""Whole-repository differential tests under sanitizers: a deterministic sample.

The differential tests (parse, fmt, fmt over every file, check against build) run fabc
over every Fabric input of the repository. The plain build runs them all; under ASan +
UBSan (5-10x slower) lit.cfg.py sets FABC_TEST_SAMPLE=4 and they take every 4th input in
their sorted order, so the sanitizer still sees every kind of input (.fab files, bench
sizes, the robustness corpus, inline inputs) within CI's time (docs/pipelines.md).
"""
import os


def every():
    n = int(os.environ.get("FABC_TEST_SAMPLE", "1") or "1")
    return n if n > 1 else 1


def sample(items):
    """items, or every every()-th of them (the first included)."""
    items = list(items)
    return items[::every()]
