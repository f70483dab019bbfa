#!/usr/bin/env bash
# Runs every test: GoogleTest units and the lit + FileCheck suite (which runs the real
# validators: FRR, OpenSM + ibsim, Graphviz, pre-commit). Builds first if needed.
# Arguments go to ctest (e.g. -R lit).
#
# CI extras, off unless set (.ci/run sets both; docs/pipelines.md):
#   FABC_CI_SANITIZE=1       the same tests again, built with ASan + UBSan in $ASAN_BUILD_DIR
#                            (default build-asan)
#   FABC_CI_FUZZ_SECONDS=N   scripts/fuzz.sh N: the libFuzzer target for N seconds from the
#                            seed corpus ($FUZZ_BUILD_DIR, default build-fuzz)
# Each extra prints its wall time. The exit status is non-zero if any part failed; the
# parts after a failure still run.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${FABC_JOBS:-2}
. scripts/ccache-env.sh
status=0

# Ninja's default on 2 cores is 4 jobs: -j$JOBS keeps the build inside the machine.
# Under CI (the extras set), a tree built once and thrown away: line tables (-g1) are
# all a failure's backtrace needs and compile faster than full debug info (-g never
# changes the code generated).
debug_flags=()
if [ -n "${FABC_CI_SANITIZE:-}${FABC_CI_FUZZ_SECONDS:-}" ]; then
  debug_flags=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
fi
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${debug_flags[@]}" "${CCACHE_LAUNCHER[@]}" >/dev/null
fi
# CI machines may have little disk: say what is free at each stage, and drop a stage's
# lit outputs (~2 GB; the log keeps what a failure printed) before the next one builds.
disk() { echo "== disk: $(df -h --output=avail . | tail -1 | tr -d ' ') free"; }
drop_outputs() {
  if [ -n "${FABC_CI_SANITIZE:-}${FABC_CI_FUZZ_SECONDS:-}" ]; then rm -rf "$1/tests/lit-out"; fi
}
disk
ninja -C "$BUILD_DIR" -j "$JOBS"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j2 "$@" || status=1
drop_outputs "$BUILD_DIR"

if [ -n "${FABC_CI_SANITIZE:-}" ] && [ "${FABC_CI_SANITIZE}" != 0 ]; then
  start=$(date +%s)
  ASAN_DIR=${ASAN_BUILD_DIR:-build-asan}
  echo "== ASan + UBSan build and tests ($ASAN_DIR)"
  disk
  if [ ! -f "$ASAN_DIR/build.ninja" ]; then
    cmake -S . -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFABC_SANITIZE=ON "${CCACHE_LAUNCHER[@]}" >/dev/null
  fi
  # A sanitizer report aborts (so that `not fabc ...` cannot mistake it for an exit 1);
  # leaks are errors. lit.cfg.py sets the same defaults for a lit run by hand.
  if ninja -C "$ASAN_DIR" -j "$JOBS"; then
    ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1} \
      LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan-suppressions.txt:print_suppressions=0} \
      UBSAN_OPTIONS=${UBSAN_OPTIONS:-abort_on_error=1:halt_on_error=1:print_stacktrace=1} \
      ctest --test-dir "$ASAN_DIR" --output-on-failure -j2 "$@" || status=1
  else
    status=1
  fi
  drop_outputs "$ASAN_DIR"
  echo "== ASan + UBSan: $(( $(date +%s) - start )) s"
fi

if [ -n "${FABC_CI_FUZZ_SECONDS:-}" ] && [ "${FABC_CI_FUZZ_SECONDS}" != 0 ]; then
  start=$(date +%s)
  echo "== fuzzing for ${FABC_CI_FUZZ_SECONDS} s"
  disk
  FUZZ_JOBS=$JOBS bash scripts/fuzz.sh "$FABC_CI_FUZZ_SECONDS" || status=1
  echo "== fuzzing: $(( $(date +%s) - start )) s (build included)"
fi
exit $status
