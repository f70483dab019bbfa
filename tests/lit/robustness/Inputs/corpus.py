#!/usr/bin/env python3
"""Bad inputs, generated into WORKDIR (nothing large is committed), each run under a
time limit and an address-space limit: every one must end with a diagnostic (the
expected FAB code, exit 1 or the expected status), never a crash, a hang, a sanitizer
report or an output file.

usage: corpus.py FABC SRC_ROOT WORKDIR MEMORY_LIMIT_MIB (0: no limit, for ASan builds)
Prints one line per case, "ok NAME: ..." or "FAIL NAME: ...", then a summary.
       corpus.py --write-only SRC_ROOT WORKDIR
writes the inputs up to 256 KiB and runs nothing: seeds for the fuzzer (scripts/fuzz.sh).
"""
import os
import resource
import subprocess
import sys
import time

WRITE_ONLY = sys.argv[1] == "--write-only"
if WRITE_ONLY:
    fabc, src, work, mem_mib = None, os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), 0
else:
    fabc, src, work = (os.path.abspath(a) for a in sys.argv[1:4])
    mem_mib = int(sys.argv[4])
SEED_MAX = 256 << 10  # --write-only: larger inputs are not useful seeds
TIMEOUT = 120 if mem_mib == 0 else 60  # sanitized builds are several times slower
os.makedirs(work, exist_ok=True)
failures = 0
MODELS = ('model S : switch { port p[64] { speed = 400 Gb/s; } }\n'
          'model N : system { gpus = 1; port p[1] { speed = 400 Gb/s; } }\n')


def limit():
    if mem_mib:
        resource.setrlimit(resource.RLIMIT_AS, (mem_mib << 20, mem_mib << 20))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def write(name, data):
    path = os.path.join(work, name)
    if WRITE_ONLY and len(data) > SEED_MAX:
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def case(name, data, codes=(), status=1, args=(), cmd="check", max_stderr=200_000, path=None):
    """Runs fabc CMD on `data` (or `path`); expects `status` and one of `codes`."""
    global failures
    if path is None:
        path = write(name + ".fab", data)
    if WRITE_ONLY:
        return
    out = os.path.join(work, name + ".out")
    argv = [fabc, cmd, path] + (["-o", out] if cmd == "build" else []) + list(args)
    t0 = time.time()
    try:
        r = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, preexec_fn=limit, cwd=work)
        if os.environ.get("CORPUS_TIMES"):
            print(f"  {name}: {time.time() - t0:.2f} s", file=sys.stderr)
    except subprocess.TimeoutExpired:
        print(f"FAIL {name}: no answer within {TIMEOUT} s")
        failures += 1
        return
    err = r.stderr.decode("utf-8", "replace")
    found = sorted({c for c in codes if f"[FAB-{c}]" in err})
    problems = []
    if r.returncode < 0 or r.returncode >= 128:
        problems.append(f"crashed (status {r.returncode})")
    elif r.returncode != status:
        problems.append(f"exit {r.returncode}, expected {status}")
    if codes and not found:
        problems.append(f"none of {list(codes)} reported")
    for bad in ("Sanitizer", "runtime error:", "terminate called", "Assertion", "internal error"):
        if bad in err:
            problems.append(f"'{bad}' on stderr")
    if len(r.stderr) > max_stderr:
        problems.append(f"{len(r.stderr)} bytes of diagnostics (unbounded)")
    if cmd == "build" and status != 0 and os.path.exists(out):
        problems.append("a failed build left an output directory")
    if problems:
        failures += 1
        print(f"FAIL {name}: " + "; ".join(problems) + "\n" + err[:2000])
    else:
        print(f"ok {name}: exit {r.returncode} {' '.join('FAB-' + c for c in found)}".rstrip())


# ---- truncated files: every example and a catalog file, cut at 12 points ----
for rel in ("examples/superpod/dgx_h100_superpod.fab", "examples/gb200/nvl72_pod.fab",
            "examples/campus/two_buildings.fab", "stdlib/nvidia/optics.fab", "tests/lit/Inputs/models.fab"):
    p = os.path.join(src, rel)
    if not os.path.exists(p):
        continue
    data = open(p, "rb").read()
    bad = 0
    for k in range(1, 13):
        cut = len(data) * k // 13
        name = f"truncated/{os.path.basename(rel)}.{cut}"
        path = write(name + ".fab", data[:cut])
        if WRITE_ONLY:
            continue
        r = subprocess.run([fabc, "check", path, "-I", os.path.join(src, "stdlib"), "-I", os.path.join(src, "tests/lit/Inputs")],
                           capture_output=True, timeout=TIMEOUT, preexec_fn=limit)
        err = r.stderr.decode("utf-8", "replace")
        # A cut between two declarations of a catalog is a valid (shorter) library.
        if r.returncode not in (0, 1) or (r.returncode == 1 and "[FAB-" not in err) or "Sanitizer" in err:
            bad += 1
            print(f"FAIL {name}: exit {r.returncode}\n{err[:1000]}")
    failures += bad
    if WRITE_ONLY:
        continue
    print(f"ok truncated {rel}: 12 cuts" if not bad else f"FAIL truncated {rel}: {bad} of 12 cuts")

# ---- syntax and characters ----
case("empty-build", "", ["E0013"], cmd="build")
case("comments-only", "// nothing\n/* at all */\n", status=0)
case("unterminated-block-comment", "fabric f { }\n/* never closed\n", ["E0002", "E0003"])
case("unterminated-string", 'fabric f { let s = "abc; }\n', ["E0003"])
case("stray-characters", "fabric f { let x = 3 $ 4 # 5 @ 6; }\n", ["E0003"])
case("keywords-only", "fabric fabric fabric { model template for }\n", ["E0002"])
case("many-syntax-errors", "fabric f {\n" + "  leaf : SW\n" * 20_000 + "}\n", ["E0002"])
case("only-semicolons", "fabric f { }" + ";" * (1 << 20), ["E0002"])

# ---- encodings ----
case("latin1", b"fabric f { let s = \"gr\xf6\xdfe\"; }\n", ["E0004"])
case("nul-byte", b"fabric f {\0}\n", ["E0004"])
case("utf16-le", "fabric f { }\n".encode("utf-16"), ["E0004"])
case("overlong-slash", b"fabric f { let s = \"\xc0\xaf\"; }\n", ["E0004"])
case("surrogate", b"fabric f { let s = \"\xed\xa0\x80\"; }\n", ["E0004"])
case("past-u10ffff", b"fabric f { let s = \"\xf4\x90\x80\x80\"; }\n", ["E0004"])
case("truncated-sequence", b"fabric f { let s = \"\xe2\x82", ["E0004"])
case("utf8-bom-accepted", b"\xef\xbb\xbffabric f { }\n", status=0)

# ---- nesting ----
case("deep-parentheses", "fabric f { let x = " + "(" * 100_000 + "1" + ")" * 100_000 + "; }\n", ["E0006"])
case("deep-brackets", "fabric f { let x = " + "[" * 50_000 + "]" * 50_000 + "; }\n", ["E0006"])
case("long-operator-chain", "fabric f { let x = " + "1 + " * 50_000 + "1; }\n", ["E0006"])
case("deep-unary", "fabric f { let x = " + "- " * 100_000 + "1; }\n", ["E0006"])
case("deep-not", "fabric f { let x = " + "!" * 100_000 + "true; }\n", ["E0006"])
case("deep-blocks", "fabric f {\n" + "if true {\n" * 5_000 + "}\n" * 5_000 + "}\n", ["E0006"])

# ---- fmt: pre-commit runs it, so it must be linear and stack-bounded like check ----
# An else-if chain is a right-nested tree: each empty block once tried its one-line form
# with the whole rest of the chain (2^n), and each branch took native stack (a 200,000-
# branch chain overflowed). Sanitized builds, several times slower, take a shorter chain.
chain_len = 50_000 if mem_mib == 0 else 200_000
case("fmt-empty-else-if-chain", "fabric f {\n  if true {}" + " else if true {}" * (chain_len // 10) + "\n}\n",
     status=0, cmd="fmt")
case("fmt-else-if-chain", "fabric f {\n  if true { assert true; }" + " else if true { assert true; }" * chain_len +
     "\n}\n", status=0, cmd="fmt")
case("fmt-deep-blocks", "fabric f {\n" + "if true {\n" * 150 + "}\n" * 150 + "}\n", status=0, cmd="fmt")

# ---- evaluation bounds ----
case("huge-loop", "fabric f { for i in 0 .. 1000000000000 { let x = i; } }\n", ["E0030"],
     args=["--max-steps=20000000"])
case("nested-huge-loops", "fabric f { for i in 0 .. 1000000000 { for j in 0 .. 1000000000 { } } }\n", ["E0030"],
     args=["--max-steps=20000000"])
case("huge-array", MODELS + "fabric f { n[100000000000] : N; }\n", ["E0030"], args=["--max-devices=200000"])
case("huge-array-default-limits", MODELS + "fabric f { n[9223372036854775807] : N; }\n", ["E0030", "E0028", "E0034"])
case("huge-links", MODELS + "fabric f { s[2000] : S; n[100000] : N;\n"
     "  for i in 0 .. 100000 { link n[i].p[0] -- s[i % 2000]; } }\n", ["E0030"], args=["--max-links=1000"])
case("huge-port-group", "model S : switch { port p[4000000000] { speed = 1 Gb/s; } }\nfabric f { s : S; }\n",
     ["E0034", "E0030"])
case("huge-breakout", "model S : switch { port p[2] { speed = 1 Gb/s; breakouts = [1, 1000000000]; } }\n"
     "fabric f { s : S { breakout_p = 1000000000; }; }\n", ["E0034", "E0043"])
case("negative-array", MODELS + "fabric f { n[-5] : N; }\n", ["E0034", "E0036", "E0026"])
case("fractional-array", MODELS + "fabric f { n[2.5] : N; }\n", ["E0026", "E0034"])
case("huge-index", MODELS + "fabric f { s : S; n : N; link n.p[0] -- s.p[9223372036854775807]; }\n", ["E0036"])
case("negative-index", MODELS + "fabric f { s : S; n : N; link n.p[0] -- s.p[-1]; }\n", ["E0036"])
case("recursive-template", "template t(n) { x : t(n + 1); }\nfabric f { a : t(0); }\n", ["E0031"])
case("mutually-recursive-templates", "template a(n) { x : b(n); }\ntemplate b(n) { y : a(n); }\n"
     "fabric f { z : a(1); }\n", ["E0031"])
# 20,000 levels fit fabc's 256 MB pipeline stack with room to spare (100,000, the
# largest --max-depth, does too), but not under ASan, whose redzones make every frame
# several times larger: a sanitized build (no memory limit) is held to 5,000.
case("recursion-with-huge-depth-limit", "template t(n) { x : t(n + 1); }\nfabric f { a : t(0); }\n", ["E0031"],
     args=["--max-depth=5000" if mem_mib == 0 else "--max-depth=20000"])
case("exponential-templates", "template t(n) { if n > 0 { a : t(n - 1); b : t(n - 1); } }\n"
     "fabric f { r : t(60); }\n", ["E0030"], args=["--max-steps=200000"])

# ---- numbers and units ----
case("unknown-unit", "fabric f { let d = 5 parsecs; }\n", ["E0024"])
case("dimension-mismatch", "fabric f { let x = 2 km + 5 W; }\n", ["E0025"])
case("literal-overflow-to-infinity", "fabric f { let x = 1e400; }\n", ["E0027"])
case("huge-exponent", "fabric f { let x = 1e99999999999999999999; }\n", ["E0027"])
case("multiplication-to-infinity", "fabric f { let x = 1e308 * 10; }\n", ["E0027"])
case("nan", "fabric f { let x = 0.0 / 0.0; }\n", ["E0027"])
case("division-by-zero", "fabric f { let x = 1 / 0; }\n", ["E0027"])
case("remainder-by-zero", "fabric f { let x = 7 % 0; }\n", ["E0027"])
case("integer-overflow", "fabric f { let x = 9223372036854775807 + 1; }\n", ["E0028"])
case("integer-underflow", "fabric f { let x = -9223372036854775807 - 2; }\n", ["E0028"])
case("multiply-overflow", "fabric f { let x = 4294967296 * 4294967296; }\n", ["E0028"])
# INT64_MIN / -1 and % -1 trap on x86 if done naively; here they are exact.
case("min-int-divided", "fabric f { let x = (-9223372036854775807 - 1) / -1; let y = (-9223372036854775807 - 1) % -1; }\n",
     status=0)
case("quantity-to-infinity", "fabric f { let p = 1e308 kW * 1e10; }\n", ["E0027"])
case("nan-length", MODELS + "fabric f { s : S; n : N; link n.p[0] -- s { length = 0.0 / 0.0 * 1 m; }; }\n",
     ["E0027"])

# ---- imports ----
write("imp/a.fab", 'import "b.fab";\n')
write("imp/b.fab", 'import "a.fab";\n')
case("import-cycle", 'import "a.fab";\nfabric f { }\n', ["E0011"], path=write("imp/main.fab", 'import "a.fab";\nfabric f { }\n'))
case("self-import", None, ["E0011"], path=write("imp/self.fab", 'import "self.fab";\nfabric f { }\n'))
os.makedirs(os.path.join(work, "imp/dir.fab"), exist_ok=True)
case("import-directory", None, ["E0001", "E0010"], path=write("imp/dir-main.fab", 'import "dir.fab";\nfabric f { }\n'))
case("import-escape", 'import "../../../../etc/passwd";\nfabric f { }\n', ["E0012"])
case("import-absolute", 'import "/dev/zero";\nfabric f { }\n', ["E0012"])
chain = 300
for i in range(chain):
    write(f"chain/c{i}.fab", f'import "c{i + 1}.fab";\n' if i + 1 < chain else MODELS)
case("long-import-chain", None, status=0, path=write("chain/main.fab", 'import "c0.fab";\nfabric f { n : N; s : S; }\n'),
     args=["-Wno-W0100"])

# ---- many diagnostics: bounded output ----
case("five-thousand-errors", "fabric f {\n" + "  let x = 1 W + 1 m;\n" * 5_000 + "}\n", ["E0025"])
case("error-limit-zero", "fabric f {\n" + "  let x = 1 W + 1 m;\n" * 2_000 + "}\n", ["E0025"],
     args=["--error-limit=0"], max_stderr=2_000_000)

if WRITE_ONLY:  # the rest is large files
    sys.exit(0)

# ---- sizes ----
gib = 1 << 30
big = os.path.join(work, "one-gigabyte-line.fab")
with open(big, "wb") as f:
    f.write(b'fabric f { let x = "')
    chunk = b"a" * (1 << 20)
    for _ in range(1024):
        f.write(chunk)
    f.write(b'"; }\n')
case("one-gigabyte-line", None, ["E0005"], path=big)
case("one-gigabyte-line-fmt", None, ["E0005"], path=big, cmd="fmt")
os.unlink(big)
line = os.path.join(work, "long-line.fab")
with open(line, "wb") as f:
    f.write(b'fabric f { let x = "' + b"a" * (8 << 20) + b'"; }\n')
case("8-mib-line", None, status=0, path=line)
os.unlink(line)
case("small-file-limit", "fabric f { }\n" + "// padding\n" * 1000, ["E0005"], args=["--max-file-size=1K"])
case("too-many-tokens", "fabric f {\n" + "  let x = [0,0,0,0,0,0,0,0,0,0];\n" * 20_000 + "}\n", ["E0005"],
     args=["--max-file-size=1M"])  # 500,000 tokens in 680 KB; the limit: one per 4 bytes, 262,144

print(f"{failures} failures")
sys.exit(1 if failures else 0)
