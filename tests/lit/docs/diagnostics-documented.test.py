import re, sys
codes = re.findall(r'^DIAG\((\w+), \w+, "((?:[^"\\]|\\.)*)"', open(sys.argv[1]).read(), re.M)
heads = re.findall(r'^## FAB-(\w+): (.*)$', open(sys.argv[2]).read(), re.M)
want = [(c, s.replace('\\"', '"')) for c, s in codes]
missing = [c for c in want if c not in heads]
extra = [h for h in heads if h not in want]
if missing or extra or heads != want:
    print("missing:", missing, "\nextra:", extra)
    sys.exit(1)
print(len(want), "codes documented")
