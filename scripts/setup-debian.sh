#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for fabc: installs the build dependencies and the
# real programs the tests feed fabc's outputs to, builds fabc, and compiles an example.
# Run as root (or with sudo). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

BUILD_DEPS=(
  build-essential cmake ninja-build python3 ccache
  llvm-14-dev llvm-14-tools clang-14 libclang-rt-14-dev
  libantlr4-runtime-dev antlr4 default-jre-headless
  libfmt-dev libyaml-cpp-dev uuid-dev libgtest-dev
)
# Programs that consume fabc's outputs in the tests (lit features in tests/lit/lit.cfg.py).
VALIDATORS=(
  frr iproute2 ibsim-utils opensm infiniband-diags graphviz pre-commit git
  python3-jsonschema libyang2-tools jq time chromium fonts-dejavu-core
  python3-yaml
)
# The IBDM library (ibdmsh) parses the InfiniBand expected-cabling file; slurmctld loads topology.conf.
VALIDATORS+=(ibutils slurmctld slurm-client)
# lldpd announces and lists LLDP neighbours: fabc verify reads its JSON (tests/lit/verify).
VALIDATORS+=(lldpd)
# netplan renders the generated server netplan files (netplan generate --root-dir, tests/lit/hosts).
VALIDATORS+=(netplan.io)
# shellcheck lints the generated per-server RoCE scripts (hosts/roce/HOST.sh, tests/lit/hosts).
VALIDATORS+=(shellcheck)
# ping: GPU servers in network namespaces reach each other through the FRR fabric (tests/lit/hosts/netns.test).
VALIDATORS+=(iputils-ping)
# Neovim's built-in LSP client, headless, attached to `fabc lsp` (tests/lit/lsp/neovim.test).
VALIDATORS+=(neovim)
# The command line's tests: zsh runs the generated completion, man-db and groff render the man
# page, dpkg-dev (dpkg-shlibdeps) lets CPack compute the package's Depends
# (tests/lit/driver, tests/lit/packaging).
VALIDATORS+=(zsh man-db groff-base dpkg-dev)
# bash-completion's loader finds fabc's completion as a user's bash does, in an interactive
# bash on a pseudo-terminal (tests/lit/driver/completion-readline.test); lintian checks the
# Debian package CPack builds (tests/lit/packaging/lintian.test).
VALIDATORS+=(bash-completion lintian)
# The VS Code extension's test needs Node.js 20.18 or later and npm (Debian 12 has 18: NodeSource's
# nodejs package, https://deb.nodesource.com); without them it reports UNSUPPORTED.
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${BUILD_DEPS[@]}" "${VALIDATORS[@]}" >/dev/null
# FRR's package starts its daemons; the tests run their own, in network namespaces.
$SUDO systemctl disable --now frr >/dev/null 2>&1 || true
# Likewise slurmctld and munge: the Slurm test runs its own slurmctld, with auth/none.
$SUDO systemctl disable --now slurmctld munge >/dev/null 2>&1 || true
# And lldpd: the tests run their own, one per network namespace.
$SUDO systemctl disable --now lldpd >/dev/null 2>&1 || true

# The SARIF Multitool (Microsoft, npm) checks fabc's SARIF with GitHub code scanning's
# ingestion rules (tests/lit/diag/sarif-github.test): pinned, from the npm registry, into
# /opt/sarif-multitool, where tests/lit/lit.cfg.py looks (FABC_SARIF_MULTITOOL overrides).
# Its package runs no install script here, so the binary's mode is set by hand. Without npm,
# or without the registry, the test reports UNSUPPORTED.
SARIF_MULTITOOL_VERSION=5.7.0
if command -v npm >/dev/null; then
  $SUDO npm install --prefix /opt/sarif-multitool --no-audit --no-fund --ignore-scripts \
    "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" >/dev/null 2>&1 &&
    $SUDO chmod 0755 /opt/sarif-multitool/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool ||
    echo "setup-debian: the SARIF Multitool did not install (tests/lit/diag/sarif-github.test: UNSUPPORTED)" >&2
fi

BUILD_DIR=${BUILD_DIR:-build}
. scripts/ccache-env.sh
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${CCACHE_LAUNCHER[@]}" >/dev/null
ninja -C "$BUILD_DIR"

"$BUILD_DIR/tools/fabc/fabc" build examples/superpod/dgx_h100_superpod.fab -o "$BUILD_DIR/example-out"
