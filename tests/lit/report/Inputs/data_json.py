"""Without a browser: every data-json="bom:PATH" figure on the report page equals the
value bom.json has at PATH (keys joined by '+' are summed). Prints one line per key
matching --show, then a count; exits 1 on a mismatch or a missing path."""
import html, json, re, sys


def at(doc, path):
    for part in re.findall(r"[^.\[\]]+|\[\d+\]", path):
        doc = doc[int(part[1:-1])] if part.startswith("[") else doc[part]
    return doc


def main():
    outdir, show = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None
    page = open(outdir + "/report/index.html", encoding="utf-8").read()
    bom = json.load(open(outdir + "/bom/bom.json", encoding="utf-8"))
    checked, bad = 0, 0
    for key, value in re.findall(r'data-json="([^"]+)" data-value="([^"]*)"', page):
        keys = html.unescape(key).split("+")
        if not all(k.startswith("bom:") for k in keys):
            continue
        try:
            want = sum(float(at(bom, k[4:])) for k in keys)
        except (KeyError, IndexError, TypeError, ValueError):
            print("FAIL: %s is not in bom.json" % key)
            bad += 1
            continue
        if abs(float(value) - want) > 1e-6 * max(1.0, abs(want)):
            print("FAIL: %s shows %s, bom.json has %g" % (key, value, want))
            bad += 1
        if show and re.search(show, key):
            print("%s = %s" % (key, value))
        checked += 1
    print("bom figures checked: %d, mismatches: %d" % (checked, bad))
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
