#!/usr/bin/env python3
"""The TextMate grammar of the VS Code extension against grammar/Fabric.g4, so the two
cannot drift:

1. Every keyword literal of the .g4 (a quoted word: 'model', 'for', 'true', ...) is
   highlighted as a keyword: tokenizing the word alone with the grammar's top-level
   patterns (TextMate's rule: the earliest match wins, then the first pattern) gives a
   keyword.* or constant.language.* scope over the whole word.
2. Every word of the grammar's keyword lists (repository.keywords) is a keyword of the .g4.

usage: check-keywords.py Fabric.g4 fabric.tmLanguage.json
"""
import json
import re
import sys

KEYWORD_SCOPE = re.compile(r"^(keyword\.(?!operator|other\.unit)|constant\.language\.|storage\.)")


def g4_keywords(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"//[^\n]*", "", text)                # comments
    text = re.sub(r"@\w+(::\w+)?\s*\{.*?\n\}", "", text, flags=re.S)  # @members { ... } actions
    return set(re.findall(r"'([A-Za-z][A-Za-z_0-9]*)'", text))


def resolve(grammar, pattern):
    """The pattern list an entry stands for, includes followed."""
    if "include" in pattern:
        name = pattern["include"]
        target = grammar["repository"][name[1:]] if name.startswith("#") else None
        if target is None:
            return []
        return resolve(grammar, target)
    if "patterns" in pattern and "match" not in pattern and "begin" not in pattern:
        out = []
        for p in pattern["patterns"]:
            out += resolve(grammar, p)
        return out
    return [pattern]


def onig_to_python(rx):
    # The grammar keeps to the regex syntax Oniguruma and Python share.
    return re.compile(rx)


def scope_of(grammar, patterns, word):
    """The scope TextMate gives the start of `word`: (scope, matched length)."""
    best = None
    for order, p in enumerate(patterns):
        rx = p.get("match") or p.get("begin")
        m = onig_to_python(rx).search(word)
        if not m:
            continue
        key = (m.start(), order)
        if best is None or key < best[0]:
            best = (key, p, m)
    if best is None or best[0][0] != 0:
        return None, 0
    _, p, m = best
    scope = p.get("name")
    captures = p.get("captures") or {}
    for group, cap in captures.items():
        if m.start(int(group)) == 0 and m.end(int(group)) == len(word):
            if "name" in cap:
                scope = cap["name"]
            elif "patterns" in cap:
                inner = []
                for q in cap["patterns"]:
                    inner += resolve(grammar, q)
                return scope_of(grammar, inner, word)
    return scope, m.end()


def main():
    g4, tm = sys.argv[1], sys.argv[2]
    keywords = g4_keywords(g4)
    grammar = json.load(open(tm, encoding="utf-8"))
    top = []
    for p in grammar["patterns"]:
        top += resolve(grammar, p)
    errors = []
    for k in sorted(keywords):
        scope, length = scope_of(grammar, top, k)
        if not scope or not KEYWORD_SCOPE.match(scope) or length != len(k):
            errors.append(f"keyword '{k}' of {g4} is not highlighted as a keyword (scope: {scope})")
    listed = set()
    for p in resolve(grammar, {"include": "#keywords"}):
        m = re.fullmatch(r"\\b\(\?:([A-Za-z_|]+)\)\\b", p["match"])
        if not m:
            errors.append(f"keyword pattern {p['match']!r} is not a word list \\b(?:a|b)\\b")
            continue
        listed |= set(m.group(1).split("|"))
    for w in sorted(listed - keywords):
        errors.append(f"'{w}' is highlighted as a keyword but is not a keyword of {g4}")
    for e in errors:
        print("error: " + e)
    print(f"{len(keywords)} keywords in the .g4, {len(listed)} in the TextMate grammar")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
