import os, re, subprocess, sys
doc, out, fabc = sys.argv[1], sys.argv[2], sys.argv[3]
blocks = re.findall(r"^```fabric\n(.*?)^```", open(doc).read(), re.M | re.S)
n = 0
failed = []
for i, b in enumerate(blocks):
    # Complete: it imports what it uses and declares a fabric (snippets are neither).
    if not b.startswith("import ") or not re.search(r"^fabric \w+ \{", b, re.M):
        continue
    path = os.path.join(out, "example%d.fab" % i)
    open(path, "w").write(b)
    r = subprocess.run([fabc, "check", path, "-Wno-W0100", "-Wno-W0103", "-Wno-W0101"], capture_output=True, text=True)
    if r.returncode != 0:
        failed.append((i, r.stderr))
    n += 1
for i, err in failed:
    print("example %d failed:\n%s" % (i, err))
if failed or n < 3:
    sys.exit(1)
print(n, "complete examples compile")
