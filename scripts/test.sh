#!/usr/bin/env bash
# Runs every test: GoogleTest units and the lit + FileCheck suite (which runs the real
# validators: FRR, OpenSM + ibsim, Graphviz, pre-commit). Builds first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
ninja -C "$BUILD_DIR"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2 "$@"
