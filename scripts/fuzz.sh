#!/usr/bin/env bash
# Builds tests/fuzz/fabc_fuzz (clang-14, libFuzzer + ASan + UBSan) and runs it for
# SECONDS (default 60) from a seed corpus: every .fab file of the repository, the .fab
# sections of the lit tests' split-file inputs, and the robustness corpus's inputs
# (tests/lit/robustness/Inputs/corpus.py --write-only). Exits non-zero when the fuzzer
# finds a crash, a sanitizer report, a timeout or an out-of-memory; the input is kept in
# $FUZZ_BUILD_DIR/fuzz-run/artifacts/ (and printed in base64 when small).
# Reproduce: $FUZZ_BUILD_DIR/tests/fuzz/fabc_fuzz FILE
#
#   scripts/fuzz.sh [SECONDS]       FUZZ_BUILD_DIR (default build-fuzz), FUZZ_JOBS (ninja -j, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-60}
DIR=${FUZZ_BUILD_DIR:-build-fuzz}
CC_BIN=${FUZZ_CC:-clang-14}
CXX_BIN=${FUZZ_CXX:-clang++-14}
. scripts/ccache-env.sh

if [ ! -f "$DIR/build.ninja" ]; then
  cmake -S . -B "$DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER="$CC_BIN" -DCMAKE_CXX_COMPILER="$CXX_BIN" \
    -DFABC_SANITIZE=ON -DFABC_FUZZ=ON -DFABC_TESTS=OFF "${CCACHE_LAUNCHER[@]}" >/dev/null
fi
ninja -C "$DIR" -j "${FUZZ_JOBS:-2}" fabc_fuzz

RUN="$DIR/fuzz-run"
rm -rf "$RUN/seeds" "$RUN/artifacts"
mkdir -p "$RUN/seeds" "$RUN/corpus" "$RUN/artifacts"
# Seeds: copied under unique names (their paths, / as _).
find examples stdlib tests -name '*.fab' -type f -print0 |
  while IFS= read -r -d '' f; do cp "$f" "$RUN/seeds/$(echo "$f" | tr / _)"; done
python3 - "$RUN/seeds" tests/lit <<'EOF'
import os, sys
out, root = sys.argv[1], sys.argv[2]
for dirpath, _, files in os.walk(root):
    for name in files:
        if not name.endswith(".test"):
            continue
        part, buf = None, []
        def flush():
            if part and part.endswith(".fab"):
                p = os.path.join(out, "split_" + name + "_" + part.replace("/", "_"))
                open(p, "w").write("".join(buf))
        for line in open(os.path.join(dirpath, name), encoding="utf-8", errors="replace"):
            if line.startswith("#--- ") or line.startswith("//--- "):
                flush()
                part, buf = line.split(None, 1)[1].strip(), []
            elif part:
                buf.append(line)
        flush()
EOF
python3 tests/lit/robustness/Inputs/corpus.py --write-only . "$RUN/robustness"
find "$RUN/robustness" -type f -name '*.fab' | while IFS= read -r f; do
  cp "$f" "$RUN/seeds/robustness_$(echo "${f#"$RUN"/robustness/}" | tr / _)"
done
rm -rf "$RUN/robustness"
# Seeds of the semantic, nesting, value-growth, rename, edit, reuse and link-nest modes (first byte
# 0x01, 0x02, 0x05, 0x06, 0x07, 0x09, 0x0a: tests/fuzz/fabc_fuzz.cpp).
python3 - "$RUN/seeds" <<'EOF2'
import os, random, sys
rng = random.Random(7)
for mode in (1, 2, 5, 6, 7, 9, 10):
    for k in range(32):
        n = rng.randint(4, 400 if mode == 2 else 40)
        with open(os.path.join(sys.argv[1], f"mode{mode}_{k}"), "wb") as f:
            f.write(bytes([mode]) + bytes(rng.randrange(256) for _ in range(n)))
EOF2
# Seeds of the LSP session modes (0x04: message bodies one a line, 0x03: framed), from
# the lit sessions of tests/lit/lsp/ (their files become the fuzzer's one open document).
python3 - "$RUN/seeds" tests/lit/lsp <<'EOF3'
import glob, os, re, sys
out, root = sys.argv[1], sys.argv[2]
for k, test in enumerate(sorted(glob.glob(os.path.join(root, "*.test")))):
    bodies = []
    for line in open(test, encoding="utf-8"):
        if line.startswith("SEND "):
            b = re.sub(r"\$\{(uri:[^}]*|root)\}", "file:///fuzz/a.fab", line[5:].strip())
            bodies.append(re.sub(r"\$\{text:[^}]*\}", "fabric f { x : QM9700; }\\n", b))
    if not bodies:
        continue
    with open(os.path.join(out, "lsp4_%d" % k), "wb") as f:
        f.write(b"\x04" + "\n".join(bodies).encode())
    with open(os.path.join(out, "lsp3_%d" % k), "wb") as f:
        f.write(b"\x03" + b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(x.encode()), x.encode()) for x in bodies))
EOF3
# Seeds of the discovery mode (0x08, a count R then A\0B\0C: A + R x B + C): the lit tests'
# discovery files, and nesting and size amplified from a few bytes.
python3 - "$RUN/seeds" tests/lit <<'EOF4'
import glob, os, sys
out, root = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(os.path.join(root, "import/Inputs/*.net")) + glob.glob(os.path.join(root, "import/Inputs/*.disc"))
               + glob.glob(os.path.join(root, "verify/Inputs/*/*.json")) + glob.glob(os.path.join(root, "verify/Inputs/*/*.txt")))
for k, f in enumerate(files[:12]):
    data = open(f, "rb").read()[:8000]
    open(os.path.join(out, "disc5_%d" % k), "wb").write(b"\x08\x00\x00" + data)
amplified = [(4000, b"", b"[", b"]"), (60000, b'{"lldp": {"interface": [', b'{"a":0},', b'{"a":0}]}}'),
             (2000, b'{"lldp": {"interface": [', b'{"e\\u0074h0": {"chassis": {"sw": {}}, "port": {"id": {"type": "ifname", "value": "swp1"}}}},', b'{}]}}')]
for k, (r, a, b, c) in enumerate(amplified):
    open(os.path.join(out, "disc5_amp%d" % k), "wb").write(b"\x08" + bytes([r >> 8, r & 255]) + a + b"\0" + b + b"\0" + c)
EOF4
echo "fuzz: $(ls "$RUN/seeds" | wc -l) seeds, $(ls "$RUN/corpus" | wc -l) inputs kept from earlier runs, ${SECONDS_TO_RUN} s"

# -timeout: one input; -rss_limit_mb: the whole process; -max_len: inputs, seeds included
# (the robustness corpus's large inputs are cut there: the lit suite runs them whole).
# Leaks are errors (ASan's leak check runs after every input). libFuzzer runs every seed
# once before it starts the clock, so the run takes that long at least.
status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
  LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan-suppressions.txt:print_suppressions=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
  "$DIR/tests/fuzz/fabc_fuzz" -max_total_time="$SECONDS_TO_RUN" -timeout=30 -rss_limit_mb=4096 \
  -max_len=16384 -dict=tests/fuzz/fabric.dict -artifact_prefix="$RUN/artifacts/" -print_final_stats=1 \
  "$RUN/corpus" "$RUN/seeds" >"$RUN/fuzz.log" 2>&1 || status=$?
tail -n 15 "$RUN/fuzz.log"
# slow-unit-* files are reports (an input over 10 s), not failures; crash-, leak-,
# timeout-, oom- are.
failed=$(find "$RUN/artifacts" -type f ! -name 'slow-unit-*' | head -n 20)
if [ "$status" != 0 ] || [ -n "$failed" ]; then
  echo "fuzz: FAILED (status $status); the fuzzer's log is $RUN/fuzz.log" >&2
  grep -m1 -B2 -A40 'ERROR: \|runtime error\|fabc_fuzz: \|deadly signal\|==ERROR' "$RUN/fuzz.log" >&2 || true
  for a in $failed; do
    echo "fuzz: input kept as $a (reproduce: $DIR/tests/fuzz/fabc_fuzz $a)" >&2
    if [ "$(stat -c %s "$a")" -le 16384 ]; then
      echo "fuzz: $(basename "$a") in base64:" >&2
      base64 "$a" >&2
    fi
  done
  exit 1
fi
echo "fuzz: no crash in ${SECONDS_TO_RUN} s"
