#!/usr/bin/env bash
# Dry-runs every frr.conf under OUTDIR/frr/ through FRR's own parser (vtysh -C, FRR
# 8.4: "Check configuration for validity and exit") and prints "ok HOST" per file;
# exits 1 at the first file vtysh rejects, with vtysh's message.
set -euo pipefail
OUT=${1:?usage: vtysh-check.sh OUTDIR}
n=0
for conf in "$OUT"/frr/*/frr.conf; do
  host=$(basename "$(dirname "$conf")")
  if ! msg=$(vtysh -C -f "$conf" 2>&1); then
    echo "vtysh rejected $conf: $msg" >&2
    exit 1
  fi
  echo "ok $host"
  n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "no frr.conf under $OUT/frr" >&2; exit 1; }
