#!/usr/bin/env python3
"""Checks the rendered man page against `fabc --help`: every option and command the usage
text lists is in the page, and every option the page lists is in the usage text (both
come from one table; this catches a renderer that drops or invents entries).

usage: check-man.py FABC RENDERED_MAN_TEXT
"""
import re
import subprocess
import sys


def options_of(text):
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*=?)", text))


def main():
    fabc, rendered = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
    usage = subprocess.run([fabc, "--help"], check=True, capture_output=True, text=True).stdout
    section = usage.split("\noptions:\n", 1)[1].split("\nenvironment:\n", 1)[0]
    commands = usage.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
    # The option spellings of the usage's first column ("-o DIR", "-h, --help", "--emit=LIST").
    want = set()
    for line in section.splitlines():
        left = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0] if line.startswith("  -") else ""
        for word in re.findall(r"(?:^|\s)(--?[A-Za-z][\w-]*)", left):
            want.add(word)
    man_opts = rendered.split("\nOPTIONS\n", 1)[1].split("\nENVIRONMENT\n", 1)[0]
    have = set()
    for line in man_opts.splitlines():
        if re.match(r"^ {7}-", line):  # a tag line of the options list
            have |= {w.rstrip("=") for w in re.findall(r"(?:^|\s)(--?[A-Za-z][\w-]*)", line)}
    errors = []
    for w in sorted(want - have):
        errors.append(f"option {w} of --help is not in the man page")
    for w in sorted(have - want):
        errors.append(f"option {w} of the man page is not in --help")
    for line in commands.splitlines():
        name = line.split()[0]
        if not re.search(r"^ {7}" + re.escape(name) + r"\b", rendered, re.M):
            errors.append(f"command {name} is not in the man page")
    for e in errors:
        print("error: " + e)
    print(f"{len(want)} options, {len(commands.splitlines())} commands checked")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
